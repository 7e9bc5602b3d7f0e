"""Scenarios for card-structure games: positions with an offer of cards, a conflict
pawn and tokens; expectations about bank prices, wonders, tokens and supremacy.

The file format is the one of :mod:`wonders.scenarios.draft` (docs/scenarios.md)
with the keys a two-player structure game needs.  The cards that may be taken
are written as ``offer:`` and laid out in one row, so every one of them is
accessible; how a real layout uncovers cards is tested on the structure itself.
"""

from __future__ import annotations

from typing import Any

from wonders.dsl.errors import closest
from wonders.dsl.model import Token
from wonders.engine.actions import (
    CHAIN,
    Action,
    Build,
    BuildFromDiscard,
    BuildWonder,
    ChooseStarter,
    ChooseWonder,
    DestroyCard,
    Sell,
    TakeToken,
)
from wonders.engine.drafted_city import DraftedCity, stage_cost
from wonders.engine.errors import RuleError
from wonders.engine.flow import FlowGame
from wonders.engine.flow_actions import Move
from wonders.engine.mechanisms import (
    bank,
    chambers,
    city_moves,
    pools,
    priced_row,
    structure,
    track,
    wonder_draft,
)
from wonders.engine.mechanisms import held as held_tokens
from wonders.engine.notation import normal
from wonders.engine.payment import Payment
from wonders.engine.structure import Layout, Structure
from wonders.engine.structure_rules import structure_rules
from wonders.scenarios.draft import DraftRunner, Outcome, _ScenarioDataError, _sheet

PathKey = tuple[Any, ...]


class StructureRunner(DraftRunner):
    """Builds structure-game positions and checks their expectations."""

    LOOP = "card-structure"
    POSITION = frozenset({"age", "players", "discard", "offer", "removed", "conflict", "looted",
                          "board",
                          "box", "to_move", "wonder_pools", "picks", "chambers", "stack",
                          "row", "stacks", "hidden"})
    PLAYER = frozenset({"coins", "cards", "wonders", "built_wonders", "owned_tokens",
                        "held_tokens", "tucked"})
    CHECKS = frozenset({"score", "winners", "payments", "legal", "illegal", "state",
                        "discard", "to_move", "phase", "age", "turn", "prices", "conflict",
                        "victory", "pools", "options", "not_discarded", "structure",
                        "chambers", "held_tokens", "stack", "row", "stacks", "activation"})
    VERBS = ("build", "sell", "wonder", "take", "destroy", "discard_build", "starter",
             "choose_wonder", "move")
    ACTION = frozenset(VERBS) | {"with"}
    STATE = frozenset({"player", "coins", "built", "not_built", "built_wonders", "wonders",
                       "owned_tokens", "aside"})
    PAYMENTS = frozenset({"player", "build", "wonder", "cheapest", "free", "impossible"})
    PHASES = ("turn", "wonder_draft", "token", "destroy", "discard_build", "starter", "over",
              "influence", "keep", "return", "trigger", "choose",
              priced_row.PLACE, priced_row.ACTIVATE, priced_row.CHOOSE_STACK,
              *city_moves.WORDING)
    VICTORIES = ("military", "science", "civilian", "political")

    # --- checking a scenario before it runs -------------------------------------------

    def check_position(self, spec: dict[str, Any], path: PathKey) -> int:
        seats = super().check_position(spec, path)
        setup = structure_rules(self.data)
        self.check_names(self.card, spec.get("offer"), path + ("offer",))
        self.check_names(self.card, spec.get("removed"), path + ("removed",))
        for key in ("board", "box"):
            self.check_names(self.token_named, spec.get(key), path + (key,))
        if "to_move" in spec:
            self.check_seat(spec["to_move"], seats, path + ("to_move",))
        if "conflict" in spec:
            self.check_conflict(spec["conflict"], path + ("conflict",))
        starts = [zone.start for zone in setup.track.zones if zone.lose]
        for i, gone in enumerate(spec.get("looted") or []):
            self.check_seat(gone["player"], seats, path + ("looted", i, "player"))
            if gone["zone"] not in starts:
                self.problem(path + ("looted", i, "zone"), f"no conflict zone with coins to "
                             f"lose starts at {gone['zone']} (zones: "
                             f"{', '.join(map(str, starts)) or 'none'})")
        draft = setup.draft
        if "wonder_pools" in spec:
            pools = spec["wonder_pools"]
            if len(pools) != draft.pools:
                self.problem(path + ("wonder_pools",), f"the wonder draft has {draft.pools} "
                             f"pools (of {draft.size} wonders), not {len(pools)}: give every "
                             "pool, an empty list for one already picked")
            for i, pool in enumerate(pools):
                if len(pool) > draft.size:
                    self.problem(path + ("wonder_pools", i), f"a pool of the wonder draft "
                                 f"holds {draft.size} wonders, not {len(pool)}")
                self.check_names(self.wonder, pool, path + ("wonder_pools", i))
            if spec.get("picks", 0) >= len(draft.order):
                self.problem(path + ("picks",), f"the draft has {len(draft.order)} picks "
                             f"(0 to {len(draft.order) - 1} made)")
        elif "picks" in spec:
            self.problem(path + ("picks",), "'picks' needs 'wonder_pools' (a position in the "
                         "wonder draft)", key=True)
        return seats

    def check_conflict(self, value: int, path: PathKey) -> None:
        supremacy = structure_rules(self.data).track.supremacy
        if not -supremacy <= value <= supremacy:
            self.problem(path, f"the conflict pawn stands from {-supremacy} to {supremacy}, "
                         f"not at {value}")

    def check_player(self, player: dict[str, Any], path: PathKey) -> None:
        self.check_names(self.card, player.get("cards"), path + ("cards",))
        for key in ("wonders", "built_wonders"):
            self.check_names(self.wonder, player.get(key), path + (key,))
        self.check_names(self.token_named, player.get("owned_tokens"), path + ("owned_tokens",))

    def check_expectation(self, kind: str, spec: Any, path: PathKey, seats: int) -> None:
        if kind == "payments" and "wonder" in spec:
            self._try(self.wonder, spec["wonder"], path + ("wonder",))
        if kind == "state":
            for key in ("wonders", "built_wonders"):
                self.check_names(self.wonder, spec.get(key), path + (key,))
            self.check_names(self.token_named, spec.get("owned_tokens"),
                             path + ("owned_tokens",))
        elif kind == "conflict":
            self.check_conflict(spec, path)
        elif kind == "victory" and spec not in self.VICTORIES:
            self.problem(path, f"a game is won by {', '.join(self.VICTORIES)}, not '{spec}'",
                         closest(spec, list(self.VICTORIES)))
        elif kind == "pools":
            pools = list(self.data.rules.vocabulary.pools)
            for pool, names in spec.items():
                if pool not in pools:
                    self.problem(path + (pool,), f"no token pool '{pool}' (pools: "
                                 f"{', '.join(pools)})", closest(pool, pools), key=True)
                self.check_names(self.token_named, names, path + (pool,))
        super().check_expectation(kind, spec, path, seats)

    def check_action(self, spec: dict[str, Any], path: PathKey, seats: int, what: str) -> None:
        super().check_action(spec, path, seats, what)
        if "wonder" in spec:
            self._try(self.wonder, spec["wonder"], path + ("wonder",))
            if "with" not in spec:
                self.problem(path, "name the card to tuck under the wonder with 'with'")
        if "choose_wonder" in spec:
            self._try(self.wonder, spec["choose_wonder"], path + ("choose_wonder",))
        if "take" in spec:
            self._try(self.token_named, spec["take"], path + ("take",))
        if "starter" in spec:
            self.check_seat(spec["starter"], seats, path + ("starter",))

    # --- names -----------------------------------------------------------------------

    def token_named(self, name: Any, path: PathKey) -> Token:
        for token in self.data.tokens:
            if token.name == name:
                return token
        raise _ScenarioDataError(f"no token named '{name}'", path,
                                 closest(str(name), [t.name for t in self.data.tokens]))

    # --- position --------------------------------------------------------------------

    def position(self, spec: dict[str, Any], path: PathKey) -> FlowGame:  # type: ignore[override]
        players = spec["players"]
        try:
            game = FlowGame(self.data, len(players), 0, wonders=[[]] * len(players))
        except RuleError as exc:
            raise _ScenarioDataError(str(exc), path + ("players",)) from None
        setup = structure_rules(self.data)
        game.age = int(spec.get("age", 1))
        game.turn = 1
        offer = self.cards(spec.get("offer"), path + ("offer",))
        hidden = spec.get("hidden") or []
        if len(hidden) > len(offer):
            raise _ScenarioDataError(f"{len(hidden)} hidden cards need as many offered cards "
                                     "to lie on them", path + ("hidden",))
        under = [self.card(h.get("card"), path + ("hidden", i, "card"))
                 for i, h in enumerate(hidden)]
        rows = [[2 * i + 1 for i in range(len(offer))]]
        if under:   # (hidden card i lies face down under offered cards i and i + 1)
            rows.insert(0, [2 * i + 2 for i in range(len(under))])
        layout = Layout.from_data({"rows": rows, "face_down": [1] if under else []})
        laid = structure.state(game)
        laid.place_offer(Structure(layout, under + offer),
                         self.cards(spec.get("removed"), path + ("removed",)))
        laid.discard[:] = self.cards(spec.get("discard"), path + ("discard",))  # (in place)
        board = [self.token_named(n, path + ("board", i))
                 for i, n in enumerate(spec.get("board") or [])]
        taken = {t for p in players for t in p.get("owned_tokens") or []}
        if "box" in spec:
            box = [self.token_named(n, path + ("box", i)) for i, n in enumerate(spec["box"])]
        else:
            box = [t for t in self.data.tokens if t not in board and t.name not in taken]
        pools.state(game).set({"board": board, "box": box})
        pawn = track.state(game)
        pawn.set(int(spec.get("conflict", 0)))
        for i, gone in enumerate(spec.get("looted") or []):
            zones = [z for z, zone in enumerate(setup.track.zones)
                     if zone.start == gone["zone"]]
            if not zones:
                raise _ScenarioDataError(f"no conflict zone starts at {gone['zone']}",
                                         path + ("looted", i, "zone"))
            pawn.tokens.discard((zones[0], gone["player"]))
        for i, player in enumerate(players):
            ppath = path + ("players", i)
            if "wonder" in player or "stages" in player or "hand" in player:
                raise _ScenarioDataError("a card-structure game has 'wonders', 'built_wonders' "
                                         "and the position's 'offer' instead of 'wonder', "
                                         "'stages' and 'hand'", ppath)
            city = game.cities[i]
            assert isinstance(city, DraftedCity)
            city.built = self.cards(player.get("cards"), ppath + ("cards",))
            city.wonders = [self.wonder(n, ppath + ("wonders", j))
                            for j, n in enumerate(player.get("wonders") or [])]
            city.built_wonders = [self.wonder(n, ppath + ("built_wonders", j))
                                  for j, n in enumerate(player.get("built_wonders") or [])]
            city.stages = len(city.built_wonders)
            city.stage_cards = self.cards(player.get("tucked"), ppath + ("tucked",))
            if city.stage_cards and len(city.stage_cards) != city.stages:
                raise _ScenarioDataError(f"'tucked' lists the card under each built wonder "
                                         f"({city.stages}), not {len(city.stage_cards)}",
                                         ppath + ("tucked",))
            city.owned_tokens = [self.token_named(n, ppath + ("owned_tokens", j))
                                 for j, n in enumerate(player.get("owned_tokens") or [])]
            city.coins = int(player.get("coins", setup.base.start_coins))
        if priced_row.NAME in game.parts:
            self.lay_row(game, spec, path)
        elif any(k in spec for k in ("row", "stacks", "hidden")):
            raise _ScenarioDataError("'row', 'stacks' and 'hidden' need a priced row (the "
                                     "flow's 'turn: offer: [structure, {priced_row: …}]')",
                                     path)
        game.current = int(spec.get("to_move", 0))
        self._chambers_position(game, spec, players, path)
        if "wonder_pools" in spec:
            draft = wonder_draft.state(game)
            draft.set([[self.wonder(n, path + ("wonder_pools", i, j))
                        for j, n in enumerate(pool)]
                       for i, pool in enumerate(spec["wonder_pools"])])
            picked = sum(len(c.wonders) for c in game.cities)
            draft.picks = int(spec.get("picks", picked))
            order = setup.draft.order
            if draft.picks >= len(order):
                raise _ScenarioDataError(f"the draft has {len(order)} picks",
                                         path + ("picks",))
            game.current = order[draft.picks]
            game.age -= 1   # (the draft's end starts the position's age)
            game.resume([(wonder_draft.PICK, game.current, 0)], next_round=True)
        else:
            game.resume([], next_round=False)
        return game

    def _chambers_position(self, game: FlowGame, spec: dict[str, Any], players: list[Any],
                           path: PathKey) -> None:
        """A board of chambers (``chambers``: one entry per chamber, ``cubes`` by seat,
        ``decree``, ``face_up``), the held tokens' stack (``stack``, top first) and each
        player's held tokens (``held: [{name, prepared, triggered}]``)."""
        if "chambers" in spec and chambers.NAME not in game.parts:
            raise _ScenarioDataError("'chambers' needs a board of chambers (the flow's "
                                     "'setup: [lay_chambers]')", path + ("chambers",))
        held_given = "stack" in spec or any("held_tokens" in p for p in players)
        if held_given and held_tokens.NAME not in game.parts:
            raise _ScenarioDataError("'stack' and 'held_tokens' need held tokens (the flow's "
                                     "'setup: [stack_held]')", path)
        if chambers.NAME in game.parts:
            board = chambers.state(game)
            given = spec.get("chambers") or []
            if len(given) > board.size:
                raise _ScenarioDataError(f"the board has {board.size} chambers, not "
                                         f"{len(given)}", path + ("chambers",))
            for c in range(board.size):
                entry = given[c] if c < len(given) else {}
                cubes = entry.get("cubes", [0] * len(players))
                if len(cubes) != len(players):
                    raise _ScenarioDataError(f"'cubes' lists each seat's cubes ({len(players)}"
                                             f" seats), not {len(cubes)}",
                                             path + ("chambers", c, "cubes"))
                board.cubes[c] = [int(n) for n in cubes]
                if "decree" in entry:
                    board.tokens[c] = [self.token_named(entry["decree"], path + (
                        "chambers", c, "decree"))]
                elif given:
                    board.tokens[c] = []
                board.face_up[c] = bool(entry.get("face_up", True))
                board.control[c] = -1
            for s in range(len(players)):
                board.supply[s] = int(board.arguments.get("supply", 12)) - board.held(s)
            board.update(game)
        if held_tokens.NAME in game.parts:
            tokens = held_tokens.state(game)
            if "stack" in spec:
                tokens.stack = [self.token_named(n, path + ("stack", i))
                                for i, n in enumerate(spec["stack"])]
            for i, player in enumerate(players):
                tokens.held[i] = [(self.token_named(h["name"],
                                                    path + ("players", i, "held_tokens", j)),
                                   held_tokens.USED if h.get("triggered") else held_tokens.PREPARED
                                   if h.get("prepared") else held_tokens.UNPREPARED)
                                  for j, h in enumerate(player.get("held_tokens") or [])]

    def lay_row(self, game: FlowGame, spec: dict[str, Any], path: PathKey) -> None:
        """The priced row a position says: ``row`` by space (1-based: an item's name,
        face up, or ``{item: NAME, face_down: true, placed_by: SEAT}``), ``stacks`` (top
        first; a stack not named is empty), ``hidden`` cards' tokens."""
        row = priced_row.state(game)
        spaces = len(row.spaces)
        for i, item in enumerate(spec.get("row") or []):
            where = path + ("row", i)
            key = item.get("space")
            if not isinstance(key, int) or not 1 <= key <= spaces:
                raise _ScenarioDataError(f"the row has spaces 1 to {spaces}, not {key!r}",
                                         where + ("space",))
            row.spaces[key - 1] = self.token_named(item.get("item"), where + ("item",))
            row.face_up[key - 1] = not item.get("face_down", False)
            row.placed_by[key - 1] = int(item.get("placed_by", -1))
        stacks = spec.get("stacks") or {}
        for name in row.stacks:
            row.stacks[name] = [self.token_named(n, path + ("stacks", name, i))
                                for i, n in enumerate(stacks.get(name) or [])]
        for name in stacks:
            if name not in row.stacks:
                raise _ScenarioDataError(f"no stack '{name}' (stacks: "
                                         f"{', '.join(row.stacks)})", path + ("stacks", name),
                                         closest(str(name), list(row.stacks)))
        row.on_slots = {}
        for i, hidden in enumerate(spec.get("hidden") or []):
            if hidden.get("token") is not None:
                row.on_slots[i] = self.token_named(hidden["token"], path + ("hidden", i,
                                                                            "token"))

    # --- actions ---------------------------------------------------------------------

    def action(self, game: Any, seat: int, spec: dict[str, Any], path: PathKey) -> Action:
        legal = game.legal_actions(seat)
        if "move" in spec:   # (any action in its notation: 'activate ITEM pay 3')
            text = normal(str(spec["move"]))
            for offered in legal:
                if normal(str(offered)) == text:
                    return offered  # type: ignore[no-any-return]
            words = str(spec["move"]).split()
            if not words:
                raise _ScenarioDataError("a move is its notation, as the legal actions "
                                         "print it ('activate ITEM pay 3')", path + ("move",))
            return Move(words[0], tuple(words[1:]))  # type: ignore[return-value]
        if "take" in spec:
            token = self.token_named(spec["take"], path + ("take",))
            return _match(legal, TakeToken, lambda a: a.token is token) or TakeToken(token)
        if "destroy" in spec:
            card = self.card(spec["destroy"], path + ("destroy",))
            return _match(legal, DestroyCard, lambda a: a.card.name == card.name) \
                or DestroyCard(card)
        if "discard_build" in spec:
            card = self.card(spec["discard_build"], path + ("discard_build",))
            return _match(legal, BuildFromDiscard, lambda a: a.card.name == card.name) \
                or BuildFromDiscard(card)
        if "starter" in spec:
            return ChooseStarter(int(spec["starter"]))
        if "move" in spec:   # (any decision's move, by its notation: "place 3", "choose 2")
            text = str(spec["move"])
            found = next((a for a in legal if str(a) == text), None)
            if found is not None:
                return found  # type: ignore[no-any-return]
            words = text.split()
            return Move(words[0], tuple(words[1:])) if words else Move("")  # type: ignore[return-value]
        if "choose_wonder" in spec:
            wonder = self.wonder(spec["choose_wonder"], path + ("choose_wonder",))
            return _match(legal, ChooseWonder, lambda a: a.wonder is wonder) or ChooseWonder(wonder)
        laid = structure.state(game).structure
        offered = laid.accessible_cards() if laid is not None else []
        if "wonder" in spec:
            wonder = self.wonder(spec["wonder"], path + ("wonder",))
            if "with" not in spec:
                raise _ScenarioDataError("name the card to tuck under the wonder with 'with'",
                                         path)
            card = self._offered(spec["with"], offered, path + ("with",))
            return _match(legal, BuildWonder, lambda a: a.card is card and a.wonder is wonder) \
                or BuildWonder(card, wonder, Payment(0, 0, stage_cost(wonder).coins))
        for verb in ("build", "sell"):
            if verb in spec:
                card = self._offered(spec[verb], offered, path + (verb,))
                if verb == "sell":
                    return _match(legal, Sell, lambda a, c=card: a.card is c) or Sell(card)
                return _match(legal, Build, lambda a, c=card: a.card is c) \
                    or Build(card, Payment(0, 0, card.cost.coins))
        raise _ScenarioDataError("an action needs build, sell, wonder (with), take, destroy, "
                                 "discard_build, starter, choose_wonder or move", path)

    def _offered(self, name: Any, offered: list[Any], path: PathKey) -> Any:
        card = self.card(name, path)
        return next((c for c in offered if c.name == card.name), card)

    # --- expectations ----------------------------------------------------------------

    def _expect_payments(self, game: Any, spec: dict[str, Any], path: PathKey,
                         outcome: Outcome) -> None:
        seat = self.seat(game, spec["player"], path + ("player",))
        city = game.cities[seat]
        trade = bank.state(game)
        context = trade.context(game, seat)
        how: str | None
        if "build" in spec:
            card = self.card(spec["build"], path + ("build",))
            what = card.name
            if structure.chained(game, seat, card):
                cheapest, how = 0, CHAIN
            else:
                cheapest = trade.card_cost(game, seat, card)
                how = "cost" if card.cost.is_free else None
        elif "wonder" in spec:
            wonder = self.wonder(spec["wonder"], path + ("wonder",))
            what = wonder.name
            cheapest, how = trade.cost_of(game, seat, stage_cost(wonder),
                                          context.wonder_discount), None
        else:
            raise _ScenarioDataError("payments needs 'build: CARD' or 'wonder: WONDER'", path)
        possible = cheapest <= city.coins
        if spec.get("impossible") and possible:
            self.fail(outcome, path + ("impossible",), f"player {seat} can pay for {what}: "
                      f"{cheapest} coins")
        if spec.get("impossible") is False and not possible:
            self.fail(outcome, path + ("impossible",), f"player {seat} cannot pay {cheapest} "
                      f"coins for {what} with {city.coins}")
        if "cheapest" in spec and cheapest != spec["cheapest"]:
            self.fail(outcome, path + ("cheapest",), f"{what} costs player {seat} {cheapest} "
                      f"coins, expected {spec['cheapest']}")
        if "free" in spec and how != spec["free"]:
            self.fail(outcome, path + ("free",), f"{what} is "
                      f"{'free by ' + how if how else 'not free'} for player {seat}, expected "
                      f"free by {spec['free']}")
        if "options" in spec:
            raise _ScenarioDataError("bank trading has one cheapest price: use 'cheapest'",
                                     path + ("options",))

    def _expect_prices(self, game: Any, spec: dict[str, Any], path: PathKey,
                       outcome: Outcome) -> None:
        seat = self.seat(game, spec["player"], path + ("player",))
        prices = bank.state(game).prices(game, seat)
        for resource, wanted in spec.items():
            if resource == "player":
                continue
            if resource not in prices:
                raise _ScenarioDataError(f"no resource '{resource}'", path + (resource,),
                                         closest(resource, list(prices)))
            if prices[resource] != wanted:
                self.fail(outcome, path + (resource,), f"{resource} costs player {seat} "
                          f"{prices[resource]} at the bank, expected {wanted} (prices: "
                          f"{_sheet(prices)})")

    def _expect_conflict(self, game: Any, spec: int, path: PathKey, outcome: Outcome) -> None:
        position = track.state(game).position
        if position != spec:
            self.fail(outcome, path, f"the conflict pawn is at {position}, expected {spec}")

    def _expect_victory(self, game: Any, spec: str, path: PathKey, outcome: Outcome) -> None:
        if not game.over:
            self.fail(outcome, path, f"the game is not over (expected a {spec} victory)")
        elif game.victory != spec:
            self.fail(outcome, path, f"the game ended by {game.victory}, expected {spec}")

    def _expect_military(self, game: Any, spec: Any, path: PathKey, outcome: Outcome) -> None:
        raise _ScenarioDataError("a conflict-track game has no battles: check 'conflict' and "
                                 "'score' instead", path)

    def _expect_state(self, game: Any, spec: dict[str, Any], path: PathKey,
                      outcome: Outcome) -> None:
        if "hand" in spec or "stages" in spec:
            raise _ScenarioDataError("a card-structure game has no hands or stages: use "
                                     "'built_wonders'", path)
        super()._expect_state(game, spec, path, outcome)
        seat = spec["player"]
        city = game.cities[seat]
        for key, held in (("built_wonders", [w.name for w in city.built_wonders]),
                          ("wonders", [w.name for w in city.wonders]),
                          ("owned_tokens", [t.name for t in city.owned_tokens])):
            if key in spec and sorted(spec[key]) != sorted(held):
                self.fail(outcome, path + (key,), f"player {seat} has {key.replace('_', ' ')} "
                          f"{held or 'none'}, expected {spec[key]}")
        if "aside" in spec and city.aside != spec["aside"]:
            self.fail(outcome, path + ("aside",), f"player {seat} has {city.aside} coins "
                      f"laid aside, expected {spec['aside']}")

    def _expect_pools(self, game: Any, spec: dict[str, list[str]], path: PathKey,
                      outcome: Outcome) -> None:
        for pool, wanted in spec.items():
            if pool not in game.table.pools:
                raise _ScenarioDataError(f"no token pool '{pool}'", path + (pool,),
                                         closest(pool, list(game.table.pools)))
            held = sorted(t.name for t in game.table.pools[pool])
            if held != sorted(wanted):
                self.fail(outcome, path + (pool,), f"the {pool} holds {held or 'nothing'}, "
                          f"expected {sorted(wanted)}")

    def _expect_options(self, game: Any, spec: dict[str, Any], path: PathKey,
                        outcome: Outcome) -> None:
        """``names``: the things offered (a card, wonder or token; a move's first word: a
        row's item, a stack); ``moves``: the legal moves' notations."""
        seat = self.seat(game, spec["player"], path + ("player",))
        offered: list[str] = []
        notations: list[str] = []
        for action in game.legal_actions(seat):
            if isinstance(action, Move):
                notations.append(str(action))
                if action.words and action.words[0] not in offered:
                    offered.append(action.words[0])
                continue
            for field in ("token", "wonder", "card"):
                thing = getattr(action, field, None)
                if thing is not None:
                    offered.append(thing.name)
                    break
        key, found = ("moves", notations) if "moves" in spec else ("names", offered)
        wanted = sorted(spec.get(key) or [])
        if sorted(found) != wanted:
            self.fail(outcome, path + (key,), f"player {seat} is offered "
                      f"{sorted(found) or 'nothing'} ({game.decision().wording}), expected "
                      f"{wanted}")

    def _expect_not_discarded(self, game: Any, spec: list[str], path: PathKey,
                              outcome: Outcome) -> None:
        names = [c.name for c in game.discard]
        for i, name in enumerate(spec):
            card = self.card(name, path + (i,))
            if card.name in names:
                self.fail(outcome, path + (i,), f"{card.name} is in the discard pile")

    def _expect_structure(self, game: Any, spec: dict[str, int], path: PathKey,
                          outcome: Outcome) -> None:
        """The cards lying in the current age's structure: in all, face down, accessible."""
        laid = structure.state(game).structure
        counts = {"cards": 0, "face_down": 0, "accessible": 0}
        if laid is not None:
            counts = {"cards": laid.left, "face_down": len(laid.hidden_slots()),
                      "accessible": len(laid.accessible)}
        for key, wanted in spec.items():
            if counts[key] != wanted:
                self.fail(outcome, path + (key,), f"the structure of age {game.age} has "
                          f"{counts[key]} {key.replace('_', ' ')} card(s), expected {wanted} "
                          f"({counts['cards']} cards, {counts['face_down']} face down, "
                          f"{counts['accessible']} accessible)")

    def _expect_chambers(self, game: Any, spec: dict[str, Any], path: PathKey,
                         outcome: Outcome) -> None:
        """The board of chambers: ``control`` (-1 nobody), ``cubes``, ``face_up``, ``supply``,
        ``decrees`` (the names on each chamber, top first), as given."""
        board = chambers.state(game)
        found = {"control": board.control, "cubes": board.cubes, "face_up": board.face_up,
                 "supply": board.supply, "decrees": [[t.name for t in ts] for ts in board.tokens]}
        for key, wanted in spec.items():
            if key not in found:
                self.fail(outcome, path + (key,), f"no chambers check '{key}' (checks: "
                          f"{', '.join(found)})")
            elif found[key] != wanted:
                self.fail(outcome, path + (key,), f"chambers {key} is {found[key]}, "
                          f"expected {wanted}")

    def _expect_held_tokens(self, game: Any, spec: dict[str, Any], path: PathKey,
                     outcome: Outcome) -> None:
        """A player's held tokens: ``names`` in order, ``prepared`` and ``triggered`` (names)."""
        seat = self.seat(game, spec["player"], path + ("player",))
        held_now = held_tokens.state(game).held[seat]
        found = {"names": [t.name for t, _ in held_now],
                 "prepared": [t.name for t, st in held_now if st == held_tokens.PREPARED],
                 "triggered": [t.name for t, st in held_now if st == held_tokens.USED]}
        for key, wanted in spec.items():
            if key != "player" and found.get(key) != wanted:
                self.fail(outcome, path + (key,), f"player {seat}'s held {key} are "
                          f"{found.get(key)}, expected {wanted}")

    def _expect_stack(self, game: Any, spec: list[str], path: PathKey,
                      outcome: Outcome) -> None:
        names = [t.name for t in held_tokens.state(game).stack]
        if names != spec:
            self.fail(outcome, path, f"the held tokens' stack is {names}, expected {spec}")

    def _expect_phase(self, game: Any, spec: str, path: PathKey, outcome: Outcome) -> None:
        phase = game.decision().kind
        if phase != spec:
            self.fail(outcome, path, f"the phase is {phase}, expected {spec}")


    def _expect_row(self, game: Any, spec: list[dict[str, Any]], path: PathKey,
                    outcome: Outcome) -> None:
        """The row's spaces listed: ``{space: N, item: NAME | null, face_down: …}`` (null:
        empty; ``face_down`` false by default)."""
        row = priced_row.state(game)
        for i, wanted in enumerate(spec):
            key = wanted.get("space")
            if not isinstance(key, int) or not 1 <= key <= len(row.spaces):
                raise _ScenarioDataError(f"the row has spaces 1 to {len(row.spaces)}, not "
                                         f"{key!r}", path + (i, "space"))
            item = row.spaces[key - 1]
            got = None if item is None else {"item": item.name,
                                              "face_down": not row.face_up[key - 1]}
            want = None if wanted.get("item") is None else {
                "item": wanted["item"], "face_down": bool(wanted.get("face_down"))}
            if got != want:
                self.fail(outcome, path + (i,), f"space {key} holds "
                          f"{_item_text(got)}, expected {_item_text(want)}")

    def _expect_stacks(self, game: Any, spec: dict[str, list[str]], path: PathKey,
                       outcome: Outcome) -> None:
        row = priced_row.state(game)
        for name, wanted in spec.items():
            if name not in row.stacks:
                raise _ScenarioDataError(f"no stack '{name}'", path + (name,),
                                         closest(str(name), list(row.stacks)))
            got = [t.name for t in row.stacks[name]]
            if got != list(wanted):
                self.fail(outcome, path + (name,), f"stack {name} holds {got or 'nothing'} "
                          f"(top first), expected {list(wanted)}")

    def _expect_activation(self, game: Any, spec: dict[str, Any], path: PathKey,
                           outcome: Outcome) -> None:
        """What activating ``item`` costs ``player`` now, without spending tokens (its
        space's price, doubled if so, less lasting discounts, at least 0)."""
        seat = self.seat(game, spec["player"], path + ("player",))
        row = priced_row.state(game)
        name = spec.get("item")
        spaces = [i for i, t in enumerate(row.spaces) if t is not None and t.name == name]
        if not spaces:
            raise _ScenarioDataError(f"'{name}' is not on the row", path + ("item",))
        city = game.cities[seat]
        cost = priced_row.price(row.rules, city, seat, spaces[0], row.spaces[spaces[0]])
        if "cost" in spec and cost != spec["cost"]:
            self.fail(outcome, path + ("cost",), f"activating {name} costs player {seat} "
                      f"{cost} coins, expected {spec['cost']}")


def _item_text(item: dict[str, Any] | None) -> str:
    if item is None:
        return "nothing"
    return f"{item['item']}" + (" face down" if item["face_down"] else "")


def _match(legal: list[Action], kind: type, test: Any) -> Action | None:
    for action in legal:
        if isinstance(action, kind) and test(action):
            return action
    return None
