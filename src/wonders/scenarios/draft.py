"""Rule scenarios as data: a position and what the rules say must follow from it.

A scenario file (``kind: scenarios``, schema ``scenario.schema.json``) lists
positions written like a rulebook example (each player's wonder, side, stages,
built cards, coins, tokens, hand; the discard pile) and expectations: score
sheet lines, payment options or the cheapest cost, legal and illegal actions,
military tokens, and the state after resolving a turn.  ``wonders check``
runs them and reports each expectation that fails at its place in the file,
so the engine's own rule tests and a designer's tests of custom cards are
written the same way.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Sequence

from wonders.dsl import effects as fx
from wonders.dsl.codes import SCENARIO_CODES  # noqa: F401 - re-exported (wonders check's codes)
from wonders.dsl.errors import Diagnostic, Location, Report, Severity, closest
from wonders.dsl.loader import LoadResult, display_name, load, looks_like_path
from wonders.dsl.model import Card, Wonder
from wonders.dsl.model import Game as GameData
from wonders.dsl.schema import validate
from wonders.dsl.source import Document, PathKey, load_file
from wonders.engine.actions import (
    CHAIN,
    FREE_BUILD,
    Action,
    Build,
    BuildFromDiscard,
    BuildStage,
    CopyCard,
    Keep,
    PayOrTake,
    Sell,
    Skip,
)
from wonders.engine.errors import RuleError
from wonders.engine.game import Game, Phase
from wonders.engine.payment import Payment
from wonders.engine.registry import loop_for
from wonders.engine.sources import SourceError, game_names, resolve

# The codes ``wonders check`` adds to the data's (wonders/dsl/codes.py, documented in
# docs/errors.md, "Scenarios").
FAILED = "X901"
BAD_SCENARIO = "X902"
INTERNAL = "X903"


class _ScenarioDataError(Exception):
    def __init__(self, message: str, path: PathKey, suggestion: str | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.suggestion = suggestion


@dataclass
class Outcome:
    """How one scenario went: the expectations checked and the failures found."""

    name: str
    location: Location
    checked: int = 0
    failures: list[Diagnostic] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


@dataclass
class CheckResult:
    report: Report
    outcomes: list[Outcome]

    @property
    def ok(self) -> bool:
        return self.report.ok and all(o.passed for o in self.outcomes)


class DraftRunner:
    """Builds draft-game positions and checks their expectations (the ``draft`` loop's
    scenario runner; other loops' runners extend it with what their positions need).

    Before a scenario runs, :meth:`problems` checks every key the runner reads against
    the loaded game (the keys this loop's positions, players, checks and actions have;
    seats; names; ages; what the rule set's pools and draft allow), so the runner never
    meets a shape it does not expect: each problem is a located X902.
    """

    LOOP = "drafting"
    POSITION: frozenset[str] = frozenset({"age", "players", "discard", "reserve", "unused"})
    PLAYER: frozenset[str] = frozenset({"wonder", "side", "stages", "coins", "cards", "tokens",
                                        "hand", "free_build_used", "reserve"})
    CHECKS: frozenset[str] = frozenset({"score", "winners", "payments", "legal", "illegal",
                                        "military", "state", "discard", "to_move", "phase",
                                        "age", "turn"})
    VERBS: tuple[str, ...] = ("build", "stage", "sell", "discard_build", "skip", "keep",
                              "pay_coins", "copy")
    ACTION: frozenset[str] = frozenset(VERBS) | {"free", "pay"}
    STATE: frozenset[str] = frozenset({"player", "coins", "stages", "built", "not_built",
                                       "hand", "reserve", "tokens", "copied"})
    PAYMENTS: frozenset[str] = frozenset({"player", "build", "stage", "options", "cheapest",
                                          "free", "impossible"})
    PHASES: tuple[str, ...] = ("turn", "last_card", "discard_build", "destroy", "token", "over",
                               "reserve_draft", "reserve_turn", "debt", "reserve_build", "copy")

    def __init__(self, doc: Document, data: GameData) -> None:
        self.doc = doc
        self.data = data
        self._found: list[Diagnostic] = []

    # --- checking a scenario before it runs --------------------------------------------

    def problems(self, spec: dict[str, Any], path: PathKey) -> list[Diagnostic]:
        """Every X902 of one scenario (schema-valid): what would not fit the game."""
        self._found = []
        written = spec["position"]
        if isinstance(written, str):  # a position as text: its decisions are checked as it is read
            seats = self.check_text_position(written, path + ("position",))
        else:
            seats = self.check_position(written, path + ("position",))
        self.check_expectations(spec["expect"], path + ("expect",), seats)
        return sorted(self._found, key=lambda d: (d.location.line, d.location.column))

    def check_text_position(self, text: str, path: PathKey) -> int:
        """A position written as text names this file's game; its number of seats."""
        from wonders.scenarios.position import PositionError, parse

        try:
            header, _ = parse(text)
        except PositionError as exc:
            self.problem(path, str(exc))
            return 0
        game = self.doc.data.get("game")
        if header.game != game:
            self.problem(path, f"the position is a game of '{header.game}', but this file's "
                         f"game is '{game}'")
        return header.players

    def problem(self, path: PathKey, message: str, suggestion: str | None = None, *,
                key: bool = False) -> None:
        self._found.append(Diagnostic(BAD_SCENARIO, message, self.doc.location(path, key=key),
                                      suggestion=suggestion))

    def _try(self, find: Any, *args: Any) -> Any:
        """``find(*args)``, or None with its problem recorded."""
        try:
            return find(*args)
        except _ScenarioDataError as exc:
            self.problem(exc.path, str(exc), exc.suggestion)
            return None

    def check_keys(self, spec: dict[str, Any], allowed: frozenset[str], path: PathKey,
                   what: str) -> None:
        for key in spec:
            if key not in allowed:
                self.problem(path + (key,), f"'{key}' is not a key of {what} in a {self.LOOP} "
                             f"game (keys: {', '.join(sorted(allowed))})",
                             closest(str(key), sorted(allowed)), key=True)

    def check_seat(self, value: Any, seats: int, path: PathKey) -> None:
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < seats:
            self.problem(path, f"no seat {value!r}: the position has {seats} players "
                         f"(seats 0 to {seats - 1})")

    def check_age(self, value: Any, path: PathKey) -> None:
        ages = self.data.rules.ages
        if not isinstance(value, int) or not 1 <= value <= ages:
            self.problem(path, f"the rule set has ages 1 to {ages}, not {value!r}")

    def check_names(self, find: Any, names: Any, path: PathKey) -> None:
        for i, name in enumerate(names or []):
            self._try(find, name, path + (i,))

    def check_player_count(self, players: int, path: PathKey) -> None:
        """A position's player count is one the rule set plays."""
        counts = self.data.rules.player_counts
        if players not in counts:
            self.problem(path, f"the rule set is for {counts.start} to {counts.stop - 1} "
                         f"players, not {players}")

    def check_position(self, spec: dict[str, Any], path: PathKey) -> int:
        """The position's keys, names and numbers; the number of seats."""
        self.check_keys(spec, self.POSITION, path, "a position")
        players = spec["players"]
        self.check_player_count(len(players), path + ("players",))
        if "age" in spec:
            self.check_age(spec["age"], path + ("age",))
        self.check_names(self.card, spec.get("discard"), path + ("discard",))
        self.check_names(self.card, spec.get("unused"), path + ("unused",))
        for i, player in enumerate(players):
            self.check_keys(player, self.PLAYER, path + ("players", i), "a player")
            self.check_player(player, path + ("players", i))
            if "wonder" in player and player["wonder"] in [p.get("wonder") for p in players[:i]]:
                self.problem(path + ("players", i, "wonder"),
                             f"{player['wonder']} is already another player's board")
        return len(players)

    def check_player(self, player: dict[str, Any], path: PathKey) -> None:
        if "wonder" not in player:
            self.problem(path, "a player of a drafting game needs 'wonder: NAME' (the board)")
        else:
            wonder = self._try(self.wonder, player["wonder"], path + ("wonder",))
            side = player.get("side", "A")
            if wonder is not None and side not in wonder.sides:
                self.problem(path + ("side",), f"{wonder.name} has no side {side} (sides: "
                             f"{', '.join(sorted(wonder.sides))})")
            elif wonder is not None and player.get("stages", 0) > len(wonder.sides[side].stages):
                self.problem(path + ("stages",), f"{wonder.name} {side} has only "
                             f"{len(wonder.sides[side].stages)} stages")
        for key in ("cards", "hand", "reserve"):
            self.check_names(self.card, player.get(key), path + (key,))
        self.check_names(self.check_token, player.get("tokens"), path + ("tokens",))

    def check_token(self, text: str, path: PathKey) -> None:
        kind = text.partition(" ")[0]
        tokens = self.data.rules.vocabulary.tokens
        if kind not in tokens:
            raise _ScenarioDataError(f"unknown token kind '{kind}'", path, closest(kind, tokens))

    def check_expectations(self, items: list[dict[str, Any]], path: PathKey, seats: int) -> None:
        for i, item in enumerate(items):
            (kind, spec), = item.items()
            ipath = path + (i, kind)
            if kind not in self.CHECKS:
                self.problem(ipath, f"'{kind}' is not a check of a {self.LOOP} game (checks: "
                             f"{', '.join(sorted(self.CHECKS))})",
                             closest(kind, sorted(self.CHECKS)), key=True)
                continue
            if isinstance(spec, dict) and "player" in spec:
                self.check_seat(spec["player"], seats, ipath + ("player",))
            self.check_expectation(kind, spec, ipath, seats)

    def check_expectation(self, kind: str, spec: Any, path: PathKey, seats: int) -> None:
        """One check's own keys (its seat is checked already)."""
        if kind in ("winners", "to_move"):
            for j, seat in enumerate(spec):
                self.check_seat(seat, seats, path + (j,))
        elif kind in ("discard", "not_discarded"):
            self.check_names(self.card, spec, path)
        elif kind == "age":
            self.check_age(spec, path)
        elif kind == "phase" and spec not in self.PHASES:
            self.problem(path, f"a {self.LOOP} game has no phase '{spec}' (phases: "
                         f"{', '.join(self.PHASES)})", closest(spec, list(self.PHASES)))
        elif kind == "payments":
            self.check_keys(spec, self.PAYMENTS, path, "a payments check")
            if "build" in spec:
                self._try(self.card, spec["build"], path + ("build",))
        elif kind in ("legal", "illegal"):
            self.check_action({k: v for k, v in spec.items() if k not in ("player", "reason")},
                              path, seats, "an action check")
        elif kind == "military":
            self.check_names(self.check_token, spec["tokens"], path + ("tokens",))
        elif kind == "state":
            self.check_keys(spec, self.STATE, path, "a state check")
            for key in ("built", "not_built", "hand"):
                self.check_names(self.card, spec.get(key), path + (key,))
        elif kind == "turn":
            for key, action in spec["actions"].items():
                self.check_seat(int(key), seats, path + ("actions", key))
                self.check_action(action, path + ("actions", key), seats, "an action")
            self.check_expectations(spec.get("expect") or [], path + ("expect",), seats)

    def check_action(self, spec: dict[str, Any], path: PathKey, seats: int, what: str) -> None:
        self.check_keys(spec, self.ACTION, path, what)
        verbs = [v for v in self.VERBS if v in spec]
        if len(verbs) != 1:
            self.problem(path, f"an action has one of {', '.join(self.VERBS)}"
                         + (f", not {' and '.join(verbs)}" if verbs else ""))
        for key in ("build", "stage", "sell", "discard_build", "with", "destroy", "keep",
                    "copy"):
            if key in spec:
                self._try(self.card, spec[key], path + (key,))

    # --- building a position -----------------------------------------------------------

    def card(self, name: Any, path: PathKey) -> Card:
        if not isinstance(name, str):
            raise _ScenarioDataError("a card name is expected", path)
        wanted_age = None
        text = name
        if name.endswith(")") and " (" in name:
            text, _, age = name[:-1].rpartition(" (")
            # ASCII digits only ('²' is a digit to str.isdigit, not to int)
            wanted_age = int(age) if age.isascii() and age.isdigit() and len(age) < 4 else None
        matches = sorted((c for c in self.data.cards if c.name == text
                          and (wanted_age is None or c.age == wanted_age)), key=lambda c: c.age)
        if not matches:
            names = sorted({c.name for c in self.data.cards})
            raise _ScenarioDataError(f"no card named '{name}'", path, closest(text, names))
        return matches[0]

    def wonder(self, name: Any, path: PathKey) -> Wonder:
        found = self.data.wonder(name) if isinstance(name, str) else None
        if found is None:
            raise _ScenarioDataError(f"no wonder named '{name}'", path,
                                     closest(str(name), [w.name for w in self.data.wonders]))
        return found

    def cards(self, names: Any, path: PathKey) -> list[Card]:
        return [self.card(n, path + (i,)) for i, n in enumerate(names or [])]

    def position(self, spec: dict[str, Any], path: PathKey) -> Game:
        players = spec["players"]
        wonders, sides = [], []
        for i, player in enumerate(players):
            wonder = self.data.wonder(player["wonder"])
            if wonder is None:
                raise _ScenarioDataError(
                    f"no wonder named '{player['wonder']}'", path + ("players", i, "wonder"),
                    closest(player["wonder"], [w.name for w in self.data.wonders]))
            side = player.get("side", "A")
            if side not in wonder.sides:
                raise _ScenarioDataError(f"{wonder.name} has no side {side}",
                                         path + ("players", i, "side"))
            wonders.append(wonder.name)
            sides.append(side)
        try:
            game = Game(self.data, len(players), 0, wonders=wonders, sides=sides)
        except RuleError as exc:
            raise _ScenarioDataError(str(exc), path + ("players",)) from None
        game.age = int(spec.get("age", 1))
        game.turn = 1
        game.discard = self.cards(spec.get("discard"), path + ("discard",))
        # the reserve's cards never dealt, in drawing order (none unless the position says)
        game.card_reserve.unused = self.cards(spec.get("unused"), path + ("unused",))
        for i, player in enumerate(players):
            city = game.cities[i]
            ppath = path + ("players", i)
            city.built = self.cards(player.get("cards"), ppath + ("cards",))
            stages = int(player.get("stages", 0))
            if stages > len(city.side.stages):
                raise _ScenarioDataError(f"{city.wonder.name} {city.side.side} has only "
                                         f"{len(city.side.stages)} stages", ppath + ("stages",))
            city.stages = stages
            city.coins = int(player.get("coins", game.params.start_coins))
            city.tokens = [self.token(t, game, ppath + ("tokens", j))
                           for j, t in enumerate(player.get("tokens") or [])]
            if player.get("free_build_used"):
                city.free_build_ages.add(game.age)
            city.changed()
            game.hands[i] = self.cards(player.get("hand"), ppath + ("hand",))
            game.card_reserve.kept[i] = self.cards(player.get("reserve"), ppath + ("reserve",))
        game.phase = Phase.TURN
        if "reserve" in spec and game.data.rules.model.reserve.colour is None:
            raise _ScenarioDataError("this rule set has no reserve (rules: reserve)",
                                     path + ("reserve",))
        if spec.get("reserve") == "turn":  # the hands are the kept cards, played now
            game.phase, game.turn = Phase.RESERVE, 0
        elif spec.get("reserve") == "draft":  # before Age I
            game.phase, game.age = Phase.PICK, 0
        game.movers = list(range(len(players)))
        game.invalidate()
        return game

    def token(self, text: str, game: Game, path: PathKey) -> tuple[str, int]:
        kind, _, value = text.partition(" ")
        if kind not in game.data.rules.vocabulary.tokens:
            raise _ScenarioDataError(f"unknown token kind '{kind}'", path,
                                     closest(kind, game.data.rules.vocabulary.tokens))
        if value:
            return kind, int(value)
        if kind == "defeat":
            return kind, game.params.defeat
        if kind != "victory":  # a counter: its kind's score.worth (0 without)
            return kind, game.params.token_worth.get(kind, 0)
        return kind, game.params.victory[min(game.age, len(game.params.victory)) - 1]

    def action(self, game: Game, seat: int, spec: dict[str, Any], path: PathKey) -> Action:
        if spec.get("skip"):
            return Skip()
        if "pay_coins" in spec:  # a 'loses … or KIND tokens' choice: coins paid, the rest tokens
            paid = int(spec["pay_coins"])
            pending = game.pending[0] if game.pending else None
            effect = pending.effect if pending is not None else None
            if not isinstance(effect, fx.LoseCoins) or effect.debt is None:
                return PayOrTake(paid, 0, "")
            return PayOrTake(paid, effect.amount.fixed - paid, effect.debt)
        if "discard_build" in spec:
            return BuildFromDiscard(self.card(spec["discard_build"], path + ("discard_build",)))
        if "copy" in spec:  # a 'now: copy …' choice: the card offered (the first city's)
            copied = self.card(spec["copy"], path + ("copy",))
            offered = [a for a in game.legal_actions(seat)
                       if isinstance(a, CopyCard) and a.card.name == copied.name]
            return offered[0] if offered else CopyCard(copied, -1)
        if "keep" in spec:
            kept = self.card(spec["keep"], path + ("keep",))
            return Keep(next((c for c in game.hands[seat] if c.name == kept.name), kept))
        for verb in ("build", "stage", "sell"):
            if verb in spec:
                card = self.card(spec[verb], path + (verb,))
                in_hand = next((c for c in game.hands[seat] if c.name == card.name), None)
                card = in_hand or card
                break
        else:
            raise _ScenarioDataError("an action needs build, stage, sell, discard_build or skip",
                                     path)
        if verb == "sell":
            return Sell(card)
        pay = spec.get("pay")
        if verb == "build":
            if spec.get("free"):
                return Build(card, Payment(), FREE_BUILD)
            options = game.build_options(seat, card) if card.name not in game.cities[
                seat].names else []
            if pay is not None:
                payment = Payment(pay.get("left", 0), pay.get("right", 0),
                                  pay.get("bank", card.cost.coins))
                return Build(card, payment)
            return options[0] if options else Build(card, Payment(0, 0, card.cost.coins))
        options_stage = game.stage_options(seat, card)
        if pay is not None:
            city = game.cities[seat]
            cost = city.side.stages[min(city.stages, len(city.side.stages) - 1)].cost
            return BuildStage(card, Payment(pay.get("left", 0), pay.get("right", 0),
                                            pay.get("bank", cost.coins)))
        return options_stage[0] if options_stage else BuildStage(card, Payment())

    # --- expectations -------------------------------------------------------------------

    def fail(self, outcome: Outcome, path: PathKey, message: str) -> None:
        outcome.failures.append(Diagnostic(FAILED, message, self.doc.location(path)))

    def seat(self, game: Game, value: Any, path: PathKey) -> int:
        if not isinstance(value, int) or not 0 <= value < game.players:
            raise _ScenarioDataError(f"player must be a seat from 0 to {game.players - 1}", path)
        return value

    def expect(self, game: Game, items: list[dict[str, Any]], path: PathKey,
               outcome: Outcome) -> None:
        for i, item in enumerate(items):
            ipath = path + (i,)
            (kind, spec), = item.items()
            outcome.checked += 1
            try:
                getattr(self, f"_expect_{kind}")(game, spec, ipath + (kind,), outcome)
            except _ScenarioDataError as exc:
                outcome.failures.append(Diagnostic(
                    BAD_SCENARIO, str(exc), self.doc.location(exc.path), suggestion=exc.suggestion))

    def _expect_score(self, game: Game, spec: dict[str, Any], path: PathKey,
                      outcome: Outcome) -> None:
        seat = self.seat(game, spec["player"], path + ("player",))
        sheet = game.score_sheet()
        lines = dict(sheet.lines[seat])
        lines["total"] = sheet.total(seat)
        for key, wanted in spec.items():
            if key == "player":
                continue
            if key not in lines:
                raise _ScenarioDataError(f"no score line '{key}' (lines: {', '.join(lines)})",
                                         path + (key,), closest(key, list(lines)))
            if lines[key] != wanted:
                self.fail(outcome, path + (key,), f"player {seat} scores {lines[key]} for {key}, "
                          f"expected {wanted} (sheet: {_sheet(lines)})")

    def _expect_winners(self, game: Game, spec: list[int], path: PathKey,
                        outcome: Outcome) -> None:
        winners = game.score_sheet().winners
        if sorted(winners) != sorted(spec):
            self.fail(outcome, path, f"winners are {winners}, expected {spec} "
                      f"(totals {game.score_sheet().totals})")

    def _expect_payments(self, game: Game, spec: dict[str, Any], path: PathKey,
                         outcome: Outcome) -> None:
        seat = self.seat(game, spec["player"], path + ("player",))
        if "build" in spec:
            card = self.card(spec["build"], path + ("build",))
            builds = game.build_options(seat, card)
            what = card.name
            chain = bool(builds) and builds[0].method == CHAIN
            payments = [b.payment for b in builds if b.method not in (FREE_BUILD,)]
            cost_free = card.cost.is_free
        elif spec.get("stage"):
            payments = [s.payment for s in game.stage_options(seat, game.data.cards[0])]
            what = f"stage {game.cities[seat].stages + 1}"
            chain = False
            city = game.cities[seat]
            cost_free = (city.stages < len(city.side.stages)
                         and city.side.stages[city.stages].cost.is_free)
        else:
            raise _ScenarioDataError("payments needs 'build: CARD' or 'stage: true'", path)
        shown = ", ".join(_payment(p) for p in payments) or "none"
        if spec.get("impossible") and payments:
            self.fail(outcome, path + ("impossible",), f"player {seat} can pay for {what}: "
                      f"{shown}")
        if spec.get("impossible") is False and not payments:
            self.fail(outcome, path + ("impossible",), f"player {seat} cannot pay for {what}")
        if "cheapest" in spec:
            cheapest = min((p.total for p in payments), default=None)
            if cheapest != spec["cheapest"]:
                self.fail(outcome, path + ("cheapest",), f"cheapest payment for {what} is "
                          f"{'impossible' if cheapest is None else cheapest}, expected "
                          f"{spec['cheapest']} (options: {shown})")
        if "options" in spec:
            wanted = sorted(_payment_of(p, payments) for p in spec["options"])
            got = sorted((p.left, p.right, p.bank) for p in payments)
            if wanted != got:
                self.fail(outcome, path + ("options",), f"payment options for {what} are "
                          f"{shown}; expected "
                          f"{', '.join(_payment(Payment(*w)) for w in wanted) or 'none'}")
        if "free" in spec:
            how = "chain" if chain else ("cost" if cost_free else None)
            if how != spec["free"]:
                self.fail(outcome, path + ("free",), f"{what} is "
                          f"{'free by ' + how if how else 'not free'} for player {seat}, expected"
                          f" free by {spec['free']}")

    def _legality(self, game: Game, spec: dict[str, Any], path: PathKey) -> tuple[int, str | None]:
        seat = self.seat(game, spec["player"], path + ("player",))
        action = self.action(game, seat, {k: v for k, v in spec.items()
                                          if k not in ("player", "reason")}, path)
        try:
            game.check(seat, action)
        except RuleError as exc:
            return seat, str(exc)
        return seat, None

    def _expect_legal(self, game: Game, spec: dict[str, Any], path: PathKey,
                      outcome: Outcome) -> None:
        seat, error = self._legality(game, spec, path)
        if error is not None:
            self.fail(outcome, path, f"expected a legal action, but {error}")

    def _expect_illegal(self, game: Game, spec: dict[str, Any], path: PathKey,
                        outcome: Outcome) -> None:
        seat, error = self._legality(game, spec, path)
        if error is None:
            self.fail(outcome, path, f"expected an illegal action, but player {seat} may do it")
        elif "reason" in spec and spec["reason"].lower() not in error.lower():
            self.fail(outcome, path + ("reason",), f"the action is illegal, but the reason "
                      f"'{error}' does not mention '{spec['reason']}'")

    def _expect_military(self, game: Game, spec: dict[str, Any], path: PathKey,
                         outcome: Outcome) -> None:
        seat = self.seat(game, spec["player"], path + ("player",))
        after = game.clone()
        before = Counter(after.cities[seat].tokens)
        after._military()
        # what was added (a token given back, as a sit-out's, is no gain)
        gained = [f"{k} {v}" for k, v in (Counter(after.cities[seat].tokens) - before).elements()]
        wanted = [self._token_text(t, game, path + ("tokens", i))
                  for i, t in enumerate(spec["tokens"])]
        if sorted(gained) != sorted(wanted):
            self.fail(outcome, path + ("tokens",), f"player {seat} gains "
                      f"{gained or 'no tokens'}, expected {wanted or 'no tokens'}")

    def _token_text(self, text: str, game: Game, path: PathKey) -> str:
        kind, value = self.token(text, game, path)
        return f"{kind} {value}"

    def _expect_state(self, game: Game, spec: dict[str, Any], path: PathKey,
                      outcome: Outcome) -> None:
        seat = self.seat(game, spec["player"], path + ("player",))
        city = game.cities[seat]
        if "coins" in spec and city.coins != spec["coins"]:
            self.fail(outcome, path + ("coins",), f"player {seat} has {city.coins} coins, "
                      f"expected {spec['coins']}")
        if "stages" in spec and city.stages != spec["stages"]:
            self.fail(outcome, path + ("stages",), f"player {seat} has {city.stages} stages, "
                      f"expected {spec['stages']}")
        for i, name in enumerate(spec.get("built") or []):
            card = self.card(name, path + ("built", i))
            if card.name not in city.names:
                self.fail(outcome, path + ("built", i), f"player {seat} has not built "
                          f"{card.name} (built: {', '.join(c.name for c in city.built) or 'none'})")
        for i, name in enumerate(spec.get("not_built") or []):
            card = self.card(name, path + ("not_built", i))
            if card.name in city.names:
                self.fail(outcome, path + ("not_built", i), f"player {seat} has built {card.name}")
        if "tokens" in spec:  # counts per kind: {diplomacy: 1, debt: 2}
            for kind, wanted_count in spec["tokens"].items():
                held = sum(1 for k, _ in city.tokens if k == kind)
                if held != wanted_count:
                    self.fail(outcome, path + ("tokens", kind), f"player {seat} holds {held} "
                              f"{kind} tokens, expected {wanted_count}")
        for key, verb in (("hand", "holds"), ("reserve", "keeps"), ("copied", "copied")):
            if key in spec:
                wanted = sorted(self.card(n, path + (key, i)).name
                                for i, n in enumerate(spec[key]))
                cards = (game.hands[seat] if key == "hand" else game.card_reserve.kept[seat]
                         if key == "reserve" else city.copied)
                got = sorted(c.name for c in cards)
                if wanted != got:
                    self.fail(outcome, path + (key,), f"player {seat} {verb} {got}, "
                              f"expected {wanted}")

    def _expect_discard(self, game: Game, spec: list[str], path: PathKey,
                        outcome: Outcome) -> None:
        names = [c.name for c in game.discard]
        for i, name in enumerate(spec):
            card = self.card(name, path + (i,))
            if card.name not in names:
                self.fail(outcome, path + (i,), f"{card.name} is not in the discard pile "
                          f"({', '.join(names) or 'empty'})")

    def _expect_to_move(self, game: Game, spec: list[int], path: PathKey,
                        outcome: Outcome) -> None:
        if sorted(game.to_move()) != sorted(spec):
            self.fail(outcome, path, f"seats to move are {game.to_move()}, expected {spec}")

    def _expect_phase(self, game: Game, spec: str, path: PathKey, outcome: Outcome) -> None:
        if game.phase.value != spec:
            self.fail(outcome, path, f"the phase is {game.phase.value}, expected {spec}")

    def _expect_age(self, game: Game, spec: int, path: PathKey, outcome: Outcome) -> None:
        if game.age != spec:
            self.fail(outcome, path, f"the age is {game.age}, expected {spec}")

    def _expect_turn(self, game: Game, spec: dict[str, Any], path: PathKey,
                     outcome: Outcome) -> None:
        after = game.clone()
        actions: dict[int, Action] = {}
        for key, action_spec in spec["actions"].items():
            seat = self.seat(after, int(key), path + ("actions", key))
            actions[seat] = self.action(after, seat, action_spec, path + ("actions", key))
        try:
            after.play(actions)
        except RuleError as exc:
            if "rejected" not in spec:
                self.fail(outcome, path + ("actions",), f"the turn cannot be played: {exc}")
            elif str(spec["rejected"]).lower() not in str(exc).lower():
                self.fail(outcome, path + ("rejected",), f"the turn is rejected, but the reason "
                          f"'{exc}' does not mention '{spec['rejected']}'")
            return
        if "rejected" in spec:
            self.fail(outcome, path + ("rejected",), "expected the turn to be rejected, but it "
                      "was played")
            return
        self.expect(after, spec.get("expect") or [], path + ("expect",), outcome)

    def run(self, index: int, spec: dict[str, Any]) -> Outcome:
        path: PathKey = ("scenarios", index)
        outcome = Outcome(str(spec.get("name", f"scenario {index + 1}")),
                          self.doc.location(path + ("name",)))
        outcome.failures = self.problems(spec, path)
        if outcome.failures:
            return outcome
        written = spec["position"]
        try:
            game = (_read_position(written, self.doc.location(path + ("position",)))
                    if isinstance(written, str) else
                    self.position(written, path + ("position",)))
        except _ScenarioDataError as exc:
            outcome.failures.append(Diagnostic(BAD_SCENARIO, str(exc), self.doc.location(exc.path),
                                               suggestion=exc.suggestion))
            return outcome
        except _PositionFailed as exc:
            outcome.failures.append(exc.diagnostic)
            return outcome
        self.expect(game, spec["expect"], path + ("expect",), outcome)
        return outcome


class _PositionFailed(Exception):
    """A text position that does not read: its diagnostic, at the position."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def _read_position(text: str, where: Location) -> Any:
    """The game a text position writes."""
    from wonders.scenarios.position import PositionError, read

    try:
        return read(text)
    except PositionError as exc:
        raise _PositionFailed(Diagnostic(BAD_SCENARIO, str(exc), where)) from None


def _payment(payment: Payment) -> str:
    parts = [f"{payment.left} left" if payment.left else "",
             f"{payment.right} right" if payment.right else "",
             f"{payment.bank} bank" if payment.bank else ""]
    return "{" + ", ".join(p for p in parts if p) + "}" if any(parts) else "{free}"


def _payment_of(spec: dict[str, int], payments: Sequence[Payment]) -> tuple[int, int, int]:
    bank = spec.get("bank", payments[0].bank if payments else 0)
    return spec.get("left", 0), spec.get("right", 0), bank


def _sheet(lines: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in lines.items())


def check_file(path: Path) -> CheckResult:
    """Run every scenario of one file; never raises.  Bad input gives located
    diagnostics; an unexpected exception (a bug) a located X903, for the scenario it
    happened in (:func:`_run`) or, while the file is read, for the file."""
    try:
        return _check_file(path)
    except Exception as exc:  # noqa: BLE001 - reported, located, for this file only
        report = Report()
        report.add(Diagnostic(INTERNAL, f"internal error while reading the scenarios: "
                              f"{type(exc).__name__}: {exc} (a bug in wonders; please report "
                              "it with this file)", Location(display_name(path), 1, 1)))
        return CheckResult(report, [])


def _check_file(path: Path) -> CheckResult:
    report = Report()
    doc, problems = load_file(path, display_name(path))
    report.extend(problems)
    if doc is None:
        return CheckResult(report, [])
    report.extend(validate(doc, "scenario"))
    broken = _misshapen(doc, report)
    if broken is None:
        return CheckResult(report, [])
    extra = [str((path.parent / p)) for p in doc.data.get("load") or []]
    loaded = _load_game(doc.data["game"], extra, path.parent)
    if loaded.game is None:
        # a problem of the game named (no such game) stands at 'game:', of a file named by
        # 'load:' at that list; the loaded files' own problems keep their places
        where = ("load",) if doc.data.get("load") else ("game",)
        report.extend(d if d.location.line > 0 else replace(d, location=doc.location(where))
                      for d in loaded.report.diagnostics)
        if not loaded.report.diagnostics:
            report.add(Diagnostic("L702", "no game could be loaded", doc.location(("game",))))
        return CheckResult(report, [])
    try:
        runner_class = loop_for(loaded.game).scenarios()
    except RuleError as exc:
        report.add(Diagnostic("L702", str(exc), doc.location(("game",))))
        return CheckResult(report, [])
    runner = runner_class(doc, loaded.game)
    # (a scenario with a shape error is reported as such and not run; the others run, so
    # their X902 and X901 come in the same run)
    return CheckResult(report, [_run(runner, i, s) for i, s in enumerate(doc.data["scenarios"])
                                if i not in broken])


def _misshapen(doc: Document, report: Report) -> set[int] | None:
    """The scenarios that have a shape error (by where the error stands), or None when the
    file's own keys do (nothing can run)."""
    errors = [d for d in report.diagnostics if d.severity is Severity.ERROR]
    if not errors:
        return set()
    scenarios = doc.data.get("scenarios") if isinstance(doc.data, dict) else None
    if not isinstance(scenarios, list) or not scenarios or not isinstance(
            doc.data.get("game", ""), str):
        return None
    starts = [doc.location(("scenarios", i)).line for i in range(len(scenarios))]
    broken: set[int] = set()
    for error in errors:
        if error.location.file != doc.name or error.location.line < starts[0]:
            return None
        broken.add(max(i for i, start in enumerate(starts) if start <= error.location.line))
    return broken


def _load_game(game: str, extra: list[str], folder: Path) -> LoadResult:
    """The game a scenario file names: any name ``--game`` takes (a shipped game or a
    shipped expansion that is a rule set, :func:`~wonders.engine.sources.game_names`), or
    the path (relative to the scenario file) of a rule-set file or folder — a variant
    tested like a shipped game.  A name that is neither is L702 with a "did you mean"."""
    if not game:
        return load(extra)
    target = Path(game) if Path(game).is_absolute() else folder / game
    try:
        # a name as --game takes it (a shipped game or expansion), else a path relative
        # to the scenario file, else L702 naming what --game takes, with a "did you mean"
        if not looks_like_path(game) and game in game_names():
            source = resolve(game)
        elif not looks_like_path(game) and not _exists(target):
            names = game_names()
            report = Report()
            report.add(Diagnostic("L702", f"no shipped game named '{game}' (shipped: "
                                  f"{', '.join(names) or 'none'})", Location(game),
                                  suggestion=closest(game, names)))
            return LoadResult(None, report)
        else:
            source = resolve(str(target))
    except SourceError as exc:
        report = Report()
        report.add(Diagnostic("L702", str(exc), Location(game)))
        return LoadResult(None, report)
    return source.load(extra)


def _exists(path: Path) -> bool:
    """Whether ``path`` exists; a name the system cannot even look up (too long, a NUL
    byte) does not (``Path.exists`` raises for those)."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def _run(runner: DraftRunner, index: int, spec: dict[str, Any]) -> Outcome:
    """One scenario's outcome; an exception (a bug: the checks refuse bad input first)
    becomes a located X903 for this scenario alone, so the others still run."""
    try:
        return runner.run(index, spec)
    except Exception as exc:  # noqa: BLE001 - reported, located, for this scenario only
        name = str(spec.get("name", f"scenario {index + 1}"))
        location = runner.doc.location(("scenarios", index, "name"))
        outcome = Outcome(name, location)
        outcome.failures.append(Diagnostic(
            INTERNAL, f"internal error in scenario '{name}': {type(exc).__name__}: {exc} "
            "(a bug in wonders; please report it with this file)", location))
        return outcome
