"""Scenarios for dice-forum games: positions with the forum as it lies and sheets
partly crossed; expectations about what each die costs, gates, attacks, bonuses, the
end trigger and the score sheet.

The file format is the one of :mod:`wonders.scenarios.draft` (docs/scenarios.md),
with the keys a dice-forum game needs: a position's ``forum`` (each die's name, face
and quadrant, 1-based), ``turn`` and ``triggered``; a player's ``board``, ``crossed``
(building key -> spaces, 1-based), ``stages``, ``bonuses``, ``unlocked``, ``attacks``
and ``coins``; actions ``{cross: BUILDING, space: N, die: NAME}``, ``{next_stage:
true}``, ``{pass: true}``, ``{bonus: NAME}`` (with ``cross``/``space`` for a bonus that
crosses a space) and ``{decline: true}``.
"""

from __future__ import annotations

from typing import Any, Sequence

from wonders.dsl.errors import closest
from wonders.engine.dice_actions import (
    BuildWonderStage,
    CrossSpace,
    Decline,
    DiceAction,
    Pass,
    TakeBonus,
)
from wonders.engine.flow import FlowGame
from wonders.engine.mechanisms import end_trigger, forum, sheets
from wonders.scenarios.draft import DraftRunner, Outcome, _ScenarioDataError

PathKey = tuple[Any, ...]


class DiceRunner(DraftRunner):
    """Builds dice-forum positions and checks their expectations."""

    LOOP = "dice-forum"
    POSITION = frozenset({"players", "forum", "turn", "triggered"})
    PLAYER = frozenset({"board", "coins", "crossed", "stages", "bonuses", "unlocked",
                        "attacks"})
    CHECKS = frozenset({"score", "winners", "legal", "illegal", "state", "to_move", "phase",
                        "turn", "forum"})
    VERBS = ("cross", "next_stage", "pass", "bonus", "decline")
    ACTION = frozenset(VERBS) | {"space", "die"}
    STATE = frozenset({"player", "coins", "stages", "points", "crossed", "bonuses",
                       "unlocked"})
    PHASES = ("turn", "bonus", "extra", "over")

    # --- names ------------------------------------------------------------------------

    @property
    def dice(self) -> Any:
        return self.data.dice

    def building(self, key: Any, path: PathKey) -> int:
        keys = [b.key for b in self.dice.buildings]
        if key not in keys:
            raise _ScenarioDataError(f"no building '{key}' (buildings: {', '.join(keys)})",
                                     path, closest(str(key), keys))
        return keys.index(key)

    def board(self, name: Any, path: PathKey) -> int:
        names = [b.name for b in self.dice.boards]
        if name not in names:
            raise _ScenarioDataError(f"no board named '{name}'", path, closest(str(name), names))
        return names.index(name)

    def die(self, name: Any, path: PathKey) -> int:
        names = [d.name for d in self.dice.dice]
        if name not in names:
            raise _ScenarioDataError(f"no die named '{name}' (dice: {', '.join(names)})", path,
                                     closest(str(name), names))
        return names.index(name)

    def bonus(self, name: Any, path: PathKey) -> int:
        names = [b.name for b in self.dice.bonuses]
        if name not in names:
            raise _ScenarioDataError(f"no bonus named '{name}' (bonuses: {', '.join(names)})",
                                     path, closest(str(name), names))
        return names.index(name)

    def colour(self, name: Any, path: PathKey) -> str:
        colours = sorted({d.colour for d in self.dice.dice if not d.start})
        if name not in colours:
            raise _ScenarioDataError(f"no die of colour '{name}' waits to be unlocked "
                                     f"({', '.join(colours)})", path, closest(str(name), colours))
        return str(name)

    def spaces(self, b: int, numbers: Any, path: PathKey) -> list[int]:
        count = len(self.dice.buildings[b].spaces)
        found = []
        for j, n in enumerate(numbers or []):
            if not isinstance(n, int) or not 1 <= n <= count:
                raise _ScenarioDataError(f"'{self.dice.buildings[b].key}' has spaces 1 to "
                                         f"{count}, not {n!r}", path + (j,))
            found.append(n - 1)
        return found

    # --- checking a scenario before it runs ---------------------------------------------

    def check_position(self, spec: dict[str, Any], path: PathKey) -> int:
        self.check_keys(spec, self.POSITION, path, "a position")
        players = spec["players"]
        self.check_player_count(len(players), path + ("players",))
        for i, item in enumerate(spec.get("forum") or []):
            index = self._try(self.die, item["die"], path + ("forum", i, "die"))
            if index is not None:
                die = self.dice.dice[index]
                if item["face"] > len(die.faces):
                    self.problem(path + ("forum", i, "face"), f"die '{die.name}' has faces 1 to "
                                 f"{len(die.faces)}")
            if item["quadrant"] > len(self.dice.quadrants):
                self.problem(path + ("forum", i, "quadrant"),
                             f"the forum has quadrants 1 to {len(self.dice.quadrants)}")
        for i, player in enumerate(players):
            ppath = path + ("players", i)
            self.check_keys(player, self.PLAYER, ppath, "a player")
            if "board" in player:
                self._try(self.board, player["board"], ppath + ("board",))
            for key, numbers in (player.get("crossed") or {}).items():
                b = self._try(self.building, key, ppath + ("crossed", key))
                if b is not None:
                    self._try(self.spaces, b, numbers, ppath + ("crossed", key))
            self.check_names(self.bonus, player.get("bonuses"), ppath + ("bonuses",))
            self.check_names(self.colour, player.get("unlocked"), ppath + ("unlocked",))
        return len(players)

    def check_expectation(self, kind: str, spec: Any, path: PathKey, seats: int) -> None:
        if kind == "state":
            self.check_keys(spec, self.STATE, path, "a state check")
            for key in (spec.get("crossed") or {}):
                self._try(self.building, key, path + ("crossed", key))
            return
        if kind == "forum":
            self.check_names(self.die, spec, path)
            return
        super().check_expectation(kind, spec, path, seats)

    def check_action(self, spec: dict[str, Any], path: PathKey, seats: int, what: str) -> None:
        self.check_keys(spec, self.ACTION, path, what)
        verbs = [v for v in self.VERBS if v in spec]
        if len(verbs) != 1 and not (verbs == ["cross", "bonus"]):
            self.problem(path, f"an action has one of {', '.join(self.VERBS)}"
                         + (f", not {' and '.join(verbs)}" if verbs else ""))
        if "cross" in spec:
            self._try(self.building, spec["cross"], path + ("cross",))
        if "die" in spec:
            self._try(self.die, spec["die"], path + ("die",))
        if "bonus" in spec:
            self._try(self.bonus, spec["bonus"], path + ("bonus",))

    # --- building a position ------------------------------------------------------------

    def position(self, spec: dict[str, Any], path: PathKey) -> Any:
        players = spec["players"]
        game = FlowGame(self.data, len(players), 0)
        dice = self.dice
        cities = sheets.state(game).cities
        for seat, player in enumerate(players):
            ppath = path + ("players", seat)
            board = self.board(player["board"], ppath + ("board",)) if "board" in player \
                else seat % len(dice.boards)
            cities[seat] = sheets.DiceCity(seat, dice.boards[board], dice,
                                           player.get("coins", cities[seat].coins))
        game.start_coins = sum(c.coins for c in cities)
        for seat, player in enumerate(players):
            ppath = path + ("players", seat)
            for colour in player.get("unlocked") or []:
                cities[seat].unlocked.append(self.colour(colour, ppath + ("unlocked",)))
            for key, numbers in (player.get("crossed") or {}).items():
                b = self.building(key, ppath + ("crossed", key))
                for i in self.spaces(b, numbers, ppath + ("crossed", key)):
                    sheets.preset(game, seat, b, i)
            for _ in range(player.get("stages", 0)):
                if cities[seat].stages >= len(cities[seat].board.stages):
                    raise _ScenarioDataError("more stages than the board has",
                                             ppath + ("stages",))
                sheets.preset_stage(game, seat)
            for j, name in enumerate(player.get("bonuses") or []):
                cities[seat].bonuses[self.bonus(name, ppath + ("bonuses", j))] = True
            cities[seat].attacks.update(player.get("attacks") or {})
        if "forum" in spec:
            pool = forum.state(game).pool
            pool.slots = [self.die(item["die"], path + ("forum", i, "die"))
                           for i, item in enumerate(spec["forum"])]
            pool.faces = [item["face"] - 1 for item in spec["forum"]]
            pool.quadrants = [item["quadrant"] - 1 for item in spec["forum"]]
        game.turn = spec.get("turn", 1)
        if "triggered" in spec:
            end_trigger.state(game).triggered = spec["triggered"]
        sheets.start_position(game)
        game.invalidate()
        return game

    def action(self, game: FlowGame, seat: int,  # type: ignore[override]
               spec: dict[str, Any], path: PathKey) -> Any:
        legal = game.legal_actions(seat)
        if spec.get("pass"):
            return Pass()
        if spec.get("decline"):
            return Decline()
        if spec.get("next_stage"):
            city = sheets.state(game).cities[seat]
            cost = city.board.stages[city.stages].cost if city.stages < len(
                city.board.stages) else 0
            return BuildWonderStage(city.stages, sheets.space_cost(game, seat, cost))
        cross: CrossSpace | None = None
        if "cross" in spec:
            cross = self._cross(game, seat, spec, path, legal)
        if "bonus" in spec:
            name = self.dice.bonuses[self.bonus(spec["bonus"], path + ("bonus",))].name
            for offered in legal:
                if isinstance(offered, TakeBonus) and offered.bonus == name and (
                        cross is None or (offered.cross is not None and
                                          (offered.cross.building, offered.cross.space) ==
                                          (cross.building, cross.space))):
                    return offered
            return TakeBonus(name, cross)
        if cross is None:
            raise _ScenarioDataError("an action needs cross, next_stage, pass, bonus or "
                                     "decline", path)
        return cross

    def _cross(self, game: FlowGame, seat: int, spec: dict[str, Any], path: PathKey,
               legal: Sequence[DiceAction]) -> CrossSpace:
        """The crossing named: the offered one that matches (building, space, die), else
        one built by hand (an illegal action, for 'illegal' checks)."""
        b = self.building(spec["cross"], path + ("cross",))
        building = self.dice.buildings[b]
        space = spec["space"] - 1 if "space" in spec else None
        if space is not None and not 0 <= space < len(building.spaces):
            raise _ScenarioDataError(f"'{building.key}' has spaces 1 to "
                                     f"{len(building.spaces)}", path + ("space",))
        offered = [a for a in legal if isinstance(a, CrossSpace) and a.building == building.key
                   and (space is None or a.space == space)]
        if "die" not in spec:
            if offered:
                return min(offered, key=lambda a: a.pay)
            if space is None:
                space = 0
            return CrossSpace(building.key, space, None, "", 0,
                              sheets.space_cost(game, seat, building.spaces[space].cost))
        die = self.die(spec["die"], path + ("die",))
        if space is None:
            space = offered[0].space if offered else 0
        pool = forum.state(game).pool
        slots = [k for k, index in enumerate(pool.slots) if index == die]
        price = sheets.die_price(game, seat, self.dice.quadrants[pool.quadrants[slots[0]]],
                                 self.dice.dice[die].colour) if slots else 0
        made = CrossSpace(building.key, space, slots[0] if slots else None,
                          self.dice.dice[die].name, price,
                          sheets.space_cost(game, seat, building.spaces[space].cost))
        for a in offered:   # offered with this die (its price is the game's: a free die …)
            if a.space == space and a.die == made.die:
                return a
        for a in offered:   # the same space at the same price with another die: the same move
            if a.space == space and a.pay == made.pay and slots and \
                    self._offers(game, seat, slots[0], b, space):
                return a
        return made

    @staticmethod
    def _offers(game: FlowGame, seat: int, slot: int, b: int, space: int) -> bool:
        """Whether the die in ``slot`` may cross ``space`` of building ``b`` for ``seat``."""
        clone = game.clone()
        pool, cloned = forum.state(game).pool, forum.state(clone).pool
        cloned.slots = [pool.slots[slot]]
        cloned.faces = [pool.faces[slot]]
        cloned.quadrants = [pool.quadrants[slot]]
        clone.invalidate()
        key = sheets.state(game).dice.buildings[b].key
        return any(isinstance(a, CrossSpace) and a.building == key and a.space == space
                   for a in clone.legal_actions(seat))

    # --- expectations -------------------------------------------------------------------

    def _expect_state(self, game: Any, spec: dict[str, Any], path: PathKey,
                      outcome: Outcome) -> None:
        seat = self.seat(game, spec["player"], path + ("player",))
        city = sheets.state(game).cities[seat]
        for key, got in (("coins", city.coins), ("stages", city.stages),
                         ("points", sheets.points(game, seat))):
            if key in spec and got != spec[key]:
                self.fail(outcome, path + (key,), f"player {seat} has {got} {key}, expected "
                          f"{spec[key]}")
        for key, numbers in (spec.get("crossed") or {}).items():
            b = self.building(key, path + ("crossed", key))
            crossed = [i + 1 for i, x in enumerate(city.crossed[b]) if x]
            if sorted(numbers) != crossed:
                self.fail(outcome, path + ("crossed", key), f"player {seat} has crossed {key} "
                          f"spaces {crossed or 'none'}, expected {sorted(numbers)}")
        if "bonuses" in spec:
            got_bonuses = [self.dice.bonuses[i].name for i, x in enumerate(city.bonuses) if x]
            if sorted(got_bonuses) != sorted(spec["bonuses"]):
                self.fail(outcome, path + ("bonuses",), f"player {seat} has bonuses "
                          f"{got_bonuses or 'none'}, expected {spec['bonuses']}")
        if "unlocked" in spec and sorted(city.unlocked) != sorted(spec["unlocked"]):
            self.fail(outcome, path + ("unlocked",), f"player {seat} has unlocked "
                      f"{city.unlocked or 'nothing'}, expected {spec['unlocked']}")

    def _expect_phase(self, game: Any, spec: str, path: PathKey, outcome: Outcome) -> None:
        if game.decision().kind != spec:
            self.fail(outcome, path, f"the decision is {game.decision().kind}, expected {spec}")

    def _expect_forum(self, game: Any, spec: list[str], path: PathKey,
                      outcome: Outcome) -> None:
        got = [self.dice.dice[i].name for i in forum.state(game).pool.slots]
        if got != list(spec):
            self.fail(outcome, path, f"the forum holds {got}, expected {list(spec)}")


__all__ = ["DiceRunner"]
