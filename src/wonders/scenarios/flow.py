"""Scenarios for games the flow interpreter runs (``offer: decks``): positions with the decks
as they lie, Wonders partly built, cards held by kind and progress tokens; expectations
about the legal moves, the state after a list of moves, the table and the score sheet.

The file format is the one of :mod:`wonders.scenarios.draft` (docs/scenarios.md), with
the keys a decks game needs.  A position's ``players`` each have a ``wonder`` (default:
the Wonders nobody else has, in the data's order), ``pieces`` (built, numbered from 1),
``held`` (a count per card kind), ``progress`` (tokens held), ``victories`` and ``cat``;
the position has ``decks`` (deck name -> its cards, top first, exactly; a deck not named
holds its printed cards in the data's order, the last listed on top), ``face_up`` and
``stack`` (progress tokens; defaults: the tokens nobody holds, in the data's order),
``peace`` (conflict tokens on their peace side), ``discard`` and ``to_move``.  The seat
to move starts its turn.  Moves are written in their notation (``take left``, ``build 2
pay wood stone``): ``moves`` lists the legal ones exactly, ``legal``/``illegal`` take
``move:``, and ``after: {moves: [...], expect: [...]}`` plays moves in order, each by the
seat asked, then checks.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from wonders.dsl.errors import closest
from wonders.engine.errors import RuleError
from wonders.engine.flow import FlowGame
from wonders.engine.flow_actions import Move
from wonders.engine.flow_state import Seat
from wonders.engine.mechanisms import conflict, decks, pawn, pieces
from wonders.engine.mechanisms import progress as progress_tokens
from wonders.engine.notation import normal
from wonders.scenarios.draft import DraftRunner, Outcome, _ScenarioDataError

PathKey = tuple[Any, ...]


class FlowRunner(DraftRunner):
    """Builds decks-game positions and checks their expectations."""

    LOOP = "decks"
    POSITION = frozenset({"players", "decks", "face_up", "stack", "peace", "discard",
                          "to_move"})
    PLAYER = frozenset({"wonder", "pieces", "held", "progress", "victories", "cat"})
    CHECKS = frozenset({"score", "winners", "moves", "legal", "illegal", "after", "state",
                        "table", "discard", "to_move", "phase"})
    VERBS = ("move",)
    ACTION = frozenset(VERBS)
    STATE = frozenset({"player", "pieces", "held", "progress", "victories", "cat",
                       "shields"})
    TABLE = frozenset({"peace", "battle", "cat", "face_up", "stack", "decks", "discarded",
                       "battles"})
    PHASES = ("turn", "deck", "look", "keep", "build", "progress", "extra", "over")

    # --- names ------------------------------------------------------------------------

    @property
    def parts(self) -> Any:
        """The components the rule set plays with (kinds, decks, Wonders, tokens)."""
        return self.data.components

    def kind(self, name: Any, path: PathKey) -> int:
        names = [k.name for k in self.parts.kinds]
        if name not in names:
            raise _ScenarioDataError(f"no card kind '{name}' (kinds: {', '.join(names)})",
                                     path, closest(str(name), names))
        return names.index(name)

    def wonder_index(self, name: Any, path: PathKey) -> int:
        names = [w.name for w in self.parts.wonders]
        if name not in names:
            raise _ScenarioDataError(f"no Wonder named '{name}' (Wonders: {', '.join(names)})",
                                     path, closest(str(name), names))
        return names.index(name)

    def token_index(self, name: Any, path: PathKey) -> int:
        names = [t.name for t in self.parts.progress]
        if name not in names:
            raise _ScenarioDataError(f"no progress token '{name}' (tokens: "
                                     f"{', '.join(names)})", path, closest(str(name), names))
        return names.index(name)

    def deck_names(self, wonders: list[int]) -> list[str]:
        """The decks on the table of a position with these Wonders: theirs, then central."""
        parts = self.parts
        return ([parts.decks[parts.wonders[w].deck].name for w in wonders]
                + [parts.decks[parts.central].name])

    def wonders_of(self, players: list[dict[str, Any]], path: PathKey) -> list[int]:
        """Each seat's Wonder: named, or the first nobody else has (in the data's order)."""
        named: list[int | None] = []
        for i, player in enumerate(players):
            if "wonder" in player:
                named.append(self.wonder_index(player["wonder"], path + (i, "wonder")))
            else:
                named.append(None)
        free = [w for w in range(len(self.parts.wonders)) if w not in named]
        found: list[int] = []
        for i, w in enumerate(named):
            if w is None:
                if not free:
                    raise _ScenarioDataError("more players than Wonders", path + (i,))
                w = free.pop(0)
            elif w in found:
                raise _ScenarioDataError(f"{self.parts.wonders[w].name} is already another "
                                         "player's Wonder", path + (i, "wonder"))
            found.append(w)
        return found

    # --- checking a scenario before it runs ---------------------------------------------

    def check_position(self, spec: dict[str, Any], path: PathKey) -> int:
        self.check_keys(spec, self.POSITION, path, "a position")
        players = spec["players"]
        self.check_player_count(len(players), path + ("players",))
        parts = self.parts
        named: list[int | None] = []
        for i, player in enumerate(players):
            ppath = path + ("players", i)
            self.check_keys(player, self.PLAYER, ppath, "a player")
            w = self._try(self.wonder_index, player["wonder"], ppath + ("wonder",)) \
                if "wonder" in player else None
            if w is not None and w in named:
                self.problem(ppath + ("wonder",), f"{parts.wonders[w].name} is already "
                             "another player's Wonder")
            named.append(w)
            if w is not None:
                count = len(parts.wonders[w].pieces)
                for j, number in enumerate(player.get("pieces") or []):
                    if not 1 <= number <= count:
                        self.problem(ppath + ("pieces", j), f"{parts.wonders[w].name} has "
                                     f"pieces 1 to {count}, not {number}")
            for name in (player.get("held") or {}):
                self._key(self.kind, name, ppath + ("held", name))
            self.check_names(self.token_index, player.get("progress"), ppath + ("progress",))
            if player.get("cat") and any(p.get("cat") for p in players[:i]):
                self.problem(ppath + ("cat",), "only one player holds the cat pawn")
        copies = {token.name: token.copies for token in parts.progress}
        seen: Counter[str] = Counter()
        for i, player in enumerate(players):
            for j, name in enumerate(player.get("progress") or []):
                seen[name] += 1
                if name in copies and seen[name] > copies[name]:
                    self.problem(path + ("players", i, "progress", j), f"every {name} token "
                                 f"is taken already ({copies[name]} in the game)")
        wonders = self._try(self.wonders_of, players, path + ("players",)) \
            if all(w is not None or "wonder" not in p for w, p in zip(named, players)) \
            else None
        every = [d.name for d in parts.decks]
        decks = self.deck_names(wonders) if wonders is not None else every
        for name, cards in (spec.get("decks") or {}).items():
            if name not in decks:
                where = "on this table" if name in every else "in the game"
                self.problem(path + ("decks", name), f"no deck '{name}' {where} (decks: "
                             f"{', '.join(decks)})", closest(str(name), decks), key=True)
            self.check_names(self.kind, cards, path + ("decks", name))
        for key in ("face_up", "stack"):
            self.check_names(self.token_index, spec.get(key), path + (key,))
        self.check_names(self.kind, spec.get("discard"), path + ("discard",))
        if "to_move" in spec:
            self.check_seat(spec["to_move"], len(players), path + ("to_move",))
        return len(players)

    def _key(self, find: Any, name: Any, path: PathKey) -> None:
        """``find(name)`` for a name written as a key: its problem located at the key."""
        try:
            find(name, path)
        except _ScenarioDataError as exc:
            self.problem(exc.path, str(exc), exc.suggestion, key=True)

    def check_expectation(self, kind: str, spec: Any, path: PathKey, seats: int) -> None:
        if kind == "state":
            self.check_keys(spec, self.STATE, path, "a state check")
            for name in (spec.get("held") or {}):
                self._key(self.kind, name, path + ("held", name))
            self.check_names(self.token_index, spec.get("progress"), path + ("progress",))
            return
        if kind == "table":
            self.check_keys(spec, self.TABLE, path, "a table check")
            self.check_names(self.token_index, spec.get("face_up"), path + ("face_up",))
            if "cat" in spec and spec["cat"] != -1:
                self.check_seat(spec["cat"], seats, path + ("cat",))
            return
        if kind == "discard":
            self.check_names(self.kind, spec, path)
            return
        if kind == "after":
            self.check_expectations(spec.get("expect") or [], path + ("expect",), seats)
            return
        if kind == "moves":
            return
        super().check_expectation(kind, spec, path, seats)

    def check_action(self, spec: dict[str, Any], path: PathKey, seats: int, what: str) -> None:
        self.check_keys(spec, self.ACTION, path, what)
        if "move" not in spec:
            self.problem(path, "an action of a decks game is 'move: NOTATION' (e.g. 'take "
                         "left')")

    # --- building a position ------------------------------------------------------------

    def position(self, spec: dict[str, Any], path: PathKey) -> Any:
        players = spec["players"]
        count = len(players)
        try:
            game = FlowGame(self.data, count, 0)
        except RuleError as exc:
            raise _ScenarioDataError(str(exc), path + ("players",)) from None
        parts = self.parts
        wonders = self.wonders_of(players, path + ("players",))
        game.seats = []
        kinds = parts.kinds
        table = decks.state(game)
        war = conflict.state(game)
        built = pieces.state(game)
        tokens = progress_tokens.state(game)
        built.raised, tokens.held, war.victories = [], [], []
        for seat, (w, player) in enumerate(zip(wonders, players)):
            ppath = path + ("players", seat)
            wonder = parts.wonders[w]
            city = Seat(seat, w, len(kinds), wonder.name)
            raised = [False] * len(wonder.pieces)
            for j, number in enumerate(player.get("pieces") or []):
                if not 1 <= number <= len(wonder.pieces):
                    raise _ScenarioDataError(f"{wonder.name} has pieces 1 to "
                                             f"{len(wonder.pieces)}", ppath + ("pieces", j))
                raised[number - 1] = True
            built.raised.append(raised)
            for name, held in (player.get("held") or {}).items():
                city.held[self.kind(name, ppath + ("held", name))] = int(held)
            tokens.held.append([self.token_index(name, ppath + ("progress", j))
                                for j, name in enumerate(player.get("progress") or [])])
            # (every card taken, as the statistics read it: the cards held)
            city.built = [kinds[k].card for k, n in enumerate(city.held) for _ in range(n)]
            war.victories.append(int(player.get("victories", 0)))
            if player.get("cat"):
                pawn.state(game).holder = seat
            game.seats.append(city)
        names = self.deck_names(wonders)
        table.names = tuple(names)
        table.central = len(names) - 1
        printed = [parts.decks[parts.wonders[w].deck] for w in wonders] + [
            parts.decks[parts.central]]
        written = spec.get("decks") or {}
        table.decks = []
        for _slot, deck in enumerate(printed):
            if deck.name in written:
                cards = [self.kind(name, path + ("decks", deck.name, j))
                         for j, name in enumerate(written[deck.name])]
                table.decks.append(cards[::-1])          # (top last)
            else:
                table.decks.append(list(deck.cards))
        self._lay_tokens(game, spec, path)
        peace = int(spec.get("peace", war.total))
        if peace > war.total:
            raise _ScenarioDataError(f"{count} players play with {war.total} conflict "
                                     f"tokens, not {peace}", path + ("peace",))
        war.peace = peace
        war.battle = peace == 0 and war.total > 0
        table.discard = [self.kind(name, path + ("discard", j))
                         for j, name in enumerate(spec.get("discard") or [])]
        table.looking, table.looking_slot = [], -1
        to_move = int(spec.get("to_move", 0))
        if not 0 <= to_move < count:
            raise _ScenarioDataError(f"no seat {to_move}", path + ("to_move",))
        game.keep_setup()
        # the seat to move starts its turn (the interpreter asks it what to take)
        game.current, game.turn, game.agenda, game.asking = to_move, 0, [], None
        game.in_turn, game.finished, game.records, war.battles = False, False, [], []
        built.completed = any(all(r) for r in built.raised)
        game._advance()
        return game

    def _lay_tokens(self, game: FlowGame, spec: dict[str, Any], path: PathKey) -> None:
        """The face-up tokens and the stack: as written, else those nobody holds."""
        progress = self.parts.progress
        free = Counter({t: token.copies for t, token in enumerate(progress)})
        for seat, held in enumerate(progress_tokens.state(game).held):
            for j, t in enumerate(held):
                if free[t] <= 0:
                    raise _ScenarioDataError(f"every {progress[t].name} token is taken "
                                             f"already ({progress[t].copies} in the game)",
                                             path + ("players", seat, "progress", j))
                free[t] -= 1
        pool = [t for t in range(len(progress)) for _ in range(free[t])]
        tokens = progress_tokens.state(game)
        laid = len(tokens.face_up)

        def take(key: str) -> list[int] | None:
            if key not in spec:
                return None
            found = []
            for j, name in enumerate(spec[key]):
                t = self.token_index(name, path + (key, j))
                if t not in pool:
                    raise _ScenarioDataError(f"no {progress[t].name} token is left for the "
                                             f"{key.replace('_', ' ')}", path + (key, j))
                pool.remove(t)
                found.append(t)
            return found

        face_up = take("face_up")
        stack = take("stack")
        if face_up is None:
            face_up = pool[:laid]
            del pool[:laid]
        tokens.face_up = face_up
        tokens.stack = (pool if stack is None else stack)[::-1]   # (top last)

    # --- moves ----------------------------------------------------------------------------

    def action(self, game: Any, seat: int, spec: dict[str, Any],  # type: ignore[override]
               path: PathKey) -> Move:
        """The move a notation writes: the legal one, else the words as written (for
        ``illegal``)."""
        text = str(spec.get("move", ""))
        for move in game.legal_actions(seat):
            if normal(str(move)) == normal(text):
                found: Move = move
                return found
        words = text.split()
        if not words:
            raise _ScenarioDataError("a move's notation is a verb and its words (e.g. "
                                     "'take left')", path + ("move",))
        return Move(words[0], tuple(words[1:]))

    def asked(self, game: FlowGame) -> int:
        """The seat whose decision is pending (-1: the game is over)."""
        seats = game.to_move()
        return seats[0] if seats else -1

    # --- expectations ---------------------------------------------------------------------

    def _expect_moves(self, game: FlowGame, spec: list[str], path: PathKey,
                      outcome: Outcome) -> None:
        seat = self.asked(game)
        got = sorted(str(m) for m in game.legal_actions(seat)) if seat >= 0 else []
        wanted = sorted(" ".join(str(m).split()) for m in spec)
        if got != wanted:
            missing = [m for m in wanted if m not in got]
            extra = [m for m in got if m not in wanted]
            self.fail(outcome, path, f"the legal moves are {got or 'none'}"
                      + (f"; missing {missing}" if missing else "")
                      + (f"; not expected {extra}" if extra else ""))

    def _expect_after(self, game: FlowGame, spec: dict[str, Any], path: PathKey,
                      outcome: Outcome) -> None:
        after: Any = game.clone()
        moves = spec["moves"]
        for j, text in enumerate(moves):
            seat = self.asked(after)
            last = j == len(moves) - 1
            try:
                if seat < 0:
                    raise RuleError("the game is over")
                move = self.action(after, seat, {"move": text}, path + ("moves", j))
                after.check(seat, move)
                after.play({seat: move})
            except RuleError as exc:
                if last and "rejected" in spec:
                    if str(spec["rejected"]).lower() not in str(exc).lower():
                        self.fail(outcome, path + ("rejected",), f"the move is rejected, but "
                                  f"the reason '{exc}' does not mention '{spec['rejected']}'")
                    return
                self.fail(outcome, path + ("moves", j), f"move {j + 1} '{text}' cannot be "
                          f"played (player {seat}): {exc}")
                return
        if "rejected" in spec:
            self.fail(outcome, path + ("rejected",), "expected the last move to be refused, "
                      "but it was played")
            return
        self.expect(after, spec.get("expect") or [], path + ("expect",), outcome)

    def _expect_state(self, game: Any, spec: dict[str, Any], path: PathKey,
                      outcome: Outcome) -> None:
        seat = self.seat(game, spec["player"], path + ("player",))
        city = game.seats[seat]
        kinds = self.parts.kinds
        if "pieces" in spec:
            got = [i + 1 for i, done in enumerate(pieces.raised(game, seat)) if done]
            if got != sorted(spec["pieces"]):
                self.fail(outcome, path + ("pieces",), f"player {seat} has built pieces "
                          f"{got or 'none'}, expected {sorted(spec['pieces']) or 'none'}")
        if "held" in spec:
            wanted = {self.kinds_name(name, path + ("held", name)): n
                      for name, n in spec["held"].items() if n}
            held = {kinds[k].name: n for k, n in enumerate(city.held) if n}
            if held != wanted:
                self.fail(outcome, path + ("held",), f"player {seat} holds {held or 'nothing'}"
                          f", expected {wanted or 'nothing'}")
        if "progress" in spec:
            got_tokens = sorted(self.parts.progress[t].name
                                for t in progress_tokens.state(game).held[seat])
            if got_tokens != sorted(spec["progress"]):
                self.fail(outcome, path + ("progress",), f"player {seat} holds tokens "
                          f"{got_tokens or 'none'}, expected {sorted(spec['progress']) or 'none'}")
        for key, got_count in (("victories", conflict.victories(game, seat)),
                               ("shields", conflict.shields(game, seat))):
            if key in spec and got_count != spec[key]:
                self.fail(outcome, path + (key,), f"player {seat} has {got_count} {key}, "
                          f"expected {spec[key]}")
        if "cat" in spec and (pawn.holder(game) == seat) != spec["cat"]:
            self.fail(outcome, path + ("cat",), f"player {seat} "
                      f"{'holds' if pawn.holder(game) == seat else 'does not hold'} the cat")

    def kinds_name(self, name: Any, path: PathKey) -> str:
        return str(self.parts.kinds[self.kind(name, path)].name)

    def _expect_table(self, game: FlowGame, spec: dict[str, Any], path: PathKey,
                      outcome: Outcome) -> None:
        table = decks.state(game)
        war = conflict.state(game)
        tokens = progress_tokens.state(game)
        progress = self.parts.progress
        got: dict[str, Any] = {
            "peace": war.peace, "battle": war.battle, "cat": pawn.holder(game),
            "stack": len(tokens.stack), "discarded": len(table.discard),
            "battles": len(war.battles),
            "face_up": sorted(progress[t].name for t in tokens.face_up),
        }
        for key, wanted in spec.items():
            if key == "decks":
                for name, size in wanted.items():
                    if name not in table.names:
                        raise _ScenarioDataError(f"no deck '{name}' on this table (decks: "
                                                 f"{', '.join(table.names)})",
                                                 path + ("decks", name),
                                                 closest(str(name), list(table.names)))
                    cards = len(table.decks[table.names.index(name)])
                    if cards != size:
                        self.fail(outcome, path + ("decks", name), f"the {name} deck holds "
                                  f"{cards} cards, expected {size}")
                continue
            value = sorted(wanted) if key == "face_up" else wanted
            if got[key] != value:
                self.fail(outcome, path + (key,), f"the table's {key} is {got[key]}, "
                          f"expected {value}")

    def _expect_discard(self, game: Any, spec: list[str], path: PathKey,
                        outcome: Outcome) -> None:
        names = [self.parts.kinds[k].name for k in decks.state(game).discard]
        for i, name in enumerate(spec):
            kind = self.kinds_name(name, path + (i,))
            if kind not in names:
                self.fail(outcome, path + (i,), f"no {kind} card is in the discard pile "
                          f"({', '.join(names) or 'empty'})")

    def _expect_phase(self, game: Any, spec: str, path: PathKey, outcome: Outcome) -> None:
        if game.decision().kind != spec:
            self.fail(outcome, path, f"the decision is {game.decision().kind}, expected {spec}")


__all__ = ["FlowRunner"]
