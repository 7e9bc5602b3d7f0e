"""Progress tokens: taken for sets of science symbols, and what they do.

Set-up shuffles the tokens into a stack and turns some face up.  A seat holding N cards
of one science symbol, or M cards of M different symbols, must take a token (one face up,
replaced from the stack, or the stack's top) and discard those cards.  A token acts from
then on: one more card when its owner takes a card of some kind or builds a piece
(optional, once a turn for each token), one coin card counting twice, costs without
their 'same'/'different' rule, shields, or points at the end.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import TYPE_CHECKING, Any, Final, Mapping, cast

from wonders.dsl.components_model import CENTRAL, Components, Progress
from wonders.engine.flow_actions import Move
from wonders.engine.flow_state import Part, part_index
from wonders.engine.mechanisms import decks
from wonders.engine.randomness import shuffle

if TYPE_CHECKING:
    from wonders.engine.flow import FlowGame

PROGRESS = "progress"   # which token to take (and, for a set, which cards pay)
EXTRA = "extra"         # one more card from a token, or decline
STACK = "stack"         # the face-down stack's top, in a move
_DECLINE = Move("decline")
NAME = "progress"
SLOT: Final = part_index(NAME)   # (the part's index in a game's slots)
WORDING: Final = {PROGRESS: "taking a progress token", EXTRA: "taking one more card (or not)"}


class Tokens(Part):
    """The progress tokens: ``face_up`` and the ``stack`` on the table (token indices, the
    stack's top last), as set-up laid them (``dealt``); each seat's ``held`` (in the order
    taken); the tokens whose extra card turn ``used_in`` has ``used`` (:func:`used`)."""

    def __init__(self, players: int) -> None:
        self.held: list[list[int]] = [[] for _ in range(players)]
        self.face_up: list[int] = []
        self.stack: list[int] = []
        self.dealt: tuple[list[int], list[int]] = ([], [])
        self.used: list[int] = []
        self.used_in = 0

    def copy(self) -> Tokens:
        other = Tokens(0)
        other.held = [list(h) for h in self.held]
        other.face_up = list(self.face_up)
        other.stack = list(self.stack)
        other.dealt = self.dealt
        other.used = list(self.used)
        other.used_in = self.used_in
        return other

    def keep_setup(self, game: FlowGame) -> None:
        self.dealt = (list(self.face_up), list(self.stack))

    def view(self, game: FlowGame, seat: int, found: dict[str, Any]) -> None:
        found["progress"] = {"face_up": [game.progress[t].name for t in self.face_up],
                             "stack": len(self.stack)}

    def seat_view(self, game: FlowGame, s: int, entry: dict[str, Any]) -> None:
        entry["progress"] = [game.progress[t].name for t in self.held[s]]

    def score(self, game: FlowGame, s: int, line: dict[str, int]) -> None:
        line["progress"] = points(game, s)

    def summary(self, game: FlowGame, s: int, found: dict[str, object]) -> None:
        found["progress_tokens"] = len(self.held[s])

    def count(self, game: FlowGame, s: int, what: str) -> int:
        return len(self.held[s]) if what == "progress_token" else -1

    def setup_record(self, game: FlowGame, record: dict[str, Any]) -> None:
        face_up, stack = self.dealt
        record["progress"] = [game.progress[t].name for t in face_up]
        record["stack"] = [game.progress[t].name for t in stack]

    def determinize(self, game: FlowGame, source: FlowGame, seat: int,
                    rng: random.Random) -> None:
        """The stack is dealt again (from a sorted pool: only what ``seat`` sees counts)."""
        self.stack.sort()
        shuffle(rng, self.stack)


def state(game: FlowGame) -> Tokens:
    """The game's progress tokens on the table (the part this mechanism owns)."""
    return cast(Tokens, game.slots[SLOT])


def used(game: FlowGame) -> list[int]:
    """The tokens whose extra card this turn has used (a new turn: none yet)."""
    table = state(game)
    if table.used_in != game.turn:
        table.used, table.used_in = [], game.turn
    return table.used


def lay(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    """Shuffle every token into the stack and turn ``face_up`` of them up."""
    stack = [t for t, token in enumerate(game.progress) for _ in range(token.copies)]
    shuffle(game.generator(), stack)
    shown = min(int(parameters.get("face_up", 3)), len(stack))
    table = state(game)
    table.face_up = [stack.pop() for _ in range(shown)]
    table.stack = stack


def flag(game: FlowGame, seat: int, what: str) -> bool:
    """Whether a token of ``seat`` lifts a payment rule (``coin_value``, ``any_resources``)."""
    for token in state(game).held[seat]:
        found = game.progress[token]
        if (found.coin_value > 1) if what == "coin_value" else found.any_resources:
            return True
    return False


def shields(game: FlowGame, seat: int) -> int:
    """The shields of ``seat``'s tokens."""
    return sum(game.progress[t].shields for t in state(game).held[seat])


def choices(game: FlowGame) -> list[str]:
    """The tokens that may be taken: each face-up name once, and the stack's top."""
    table = state(game)
    names = sorted({game.progress[t].name for t in table.face_up})
    return names + ([STACK] if table.stack else [])


def sets(game: FlowGame, seat: int, same: int, different: int) -> list[tuple[str, ...]]:
    """The science sets ``seat`` holds: the kind names of the cards each spends."""
    held = game.seats[seat].held
    by_symbol: dict[str, int] = {}
    for k, kind in enumerate(game.kinds):
        if kind.science is not None and held[k]:
            by_symbol[kind.science] = k
    found = [(game.kinds[k].name,) * same for s, k in sorted(by_symbol.items())
             if held[k] >= same]
    if different and len(by_symbol) >= different:
        found += [tuple(game.kinds[by_symbol[s]].name for s in chosen)
                  for chosen in combinations(sorted(by_symbol), different)]
    return found


def on_sets(game: FlowGame, seat: int, parameters: Mapping[str, Any]) -> None:
    """A set held: take a token with it (asked when there is a choice)."""
    tokens = choices(game)
    found = sets(game, seat, int(parameters.get("same", 2)), int(parameters.get("different", 3)))
    if not tokens or not found:
        return
    game.schedule([("progress_on_sets", seat, -1)])   # then look for another set
    game.ask(PROGRESS, seat, tuple(Move(PROGRESS, (token, "with", *spent))
                                   for token in tokens for spent in found))


def pick(game: FlowGame, seat: int) -> None:
    """A token taken for nothing (a piece's effect): which one, asked."""
    tokens = choices(game)
    if tokens:
        game.ask(PROGRESS, seat, tuple(Move(PROGRESS, (token,)) for token in tokens))


def resolve(game: FlowGame, seat: int, move: Move) -> None:
    """Take the token a move names, discarding the cards it names."""
    table = state(game)
    discard = decks.state(game).discard
    city = game.seats[seat]
    for name in move.words[2:]:
        kind = game.kind_index(name)
        city.held[kind] -= 1
        discard.append(kind)
    if move.words[0] == STACK:
        token = table.stack.pop()
    else:
        token = next(t for t in table.face_up if game.progress[t].name == move.words[0])
        table.face_up.remove(token)
        if table.stack:
            table.face_up.append(table.stack.pop())
    table.held[seat].append(token)
    found = game.progress[token]
    if found.coin_value > 1 or found.any_resources:
        game.schedule([("build_when_paid", seat, -1)])   # it may pay for a piece now


def triggered(game: FlowGame, seat: int, kind: int, piece: bool) -> list[int]:
    """The tokens of ``seat`` whose 'one more card' a card of ``kind`` (or a piece built)
    sets off, not used this turn."""
    found: list[int] = []
    table = state(game)
    held = table.held[seat]
    if not held:
        return found
    spent = table.used if table.used_in == game.turn else []
    for token in held:
        extra = game.progress[token].extra_card
        if extra is None or token in spent or token in found:
            continue
        if (extra.piece if piece else extra.matches(game.kinds[kind])):
            found.append(token)
    return found


def offer_extra(game: FlowGame, seat: int, token: int) -> None:
    """Offer one more card from a token (the turn's three decks), or to decline."""
    if token in used(game):
        return
    places = decks.places_of(game, seat, decks.RELATIVE)
    if places:
        moves = tuple(decks.take_move(p) for p in places) + (_DECLINE,)
        game.ask(EXTRA, seat, moves, token)


def resolve_extra(game: FlowGame, seat: int, move: Move, token: int) -> None:
    used(game).append(token)
    if move.verb == "take":
        decks.take_top(game, seat, decks.slot_of(game, seat, move.words[0]))


def end_points(game: FlowGame, seat: int, token: Progress, copies: int) -> int:
    """What ``copies`` tokens of one kind held by ``seat`` score at the end."""
    end = token.end
    if end is None:
        return 0
    if end.held:
        return end.held[min(copies, len(end.held)) - 1]
    if end.complete is not None and game.count(seat, "complete"):
        each = end.complete
    elif end.per is None:
        each = end.points
    else:
        each = end.points * game.count(seat, end.per)
    return each * copies


def points(game: FlowGame, seat: int) -> int:
    held = state(game).held[seat]
    return sum(end_points(game, seat, game.progress[t], held.count(t)) for t in set(held))


def moves(components: Components, arguments: Mapping[str, Mapping[str, Any]]) -> list[Move]:
    """Every move of this mechanism for a flow whose steps have ``arguments``."""
    sets = arguments.get("progress_on_sets")
    same = int(sets.get("same", 2)) if sets is not None else 0
    different = int(sets.get("different", 3)) if sets is not None else 0
    return every_move(components, same, different)


def every_move(components: Components, same: int, different: int) -> list[Move]:
    """Every move taking a token can be: each token (or the stack's top), alone or with each
    science set (as :func:`sets` lists them) and decline."""
    science: dict[str, str] = {}
    for kind in components.kinds:
        if kind.science is not None:
            science[kind.science] = kind.name
    symbols = sorted(science)
    spent = [(science[s],) * same for s in symbols]
    if different:
        spent += [tuple(science[s] for s in chosen) for chosen in combinations(symbols, different)]
    tokens = [*dict.fromkeys(t.name for t in components.progress), STACK]
    return ([Move(PROGRESS, (t,)) for t in tokens]
            + [Move(PROGRESS, (t, "with", *way)) for t in tokens for way in spent]
            + [_DECLINE])


__all__ = ["CENTRAL", "EXTRA", "NAME", "PROGRESS", "STACK", "WORDING", "Tokens", "choices",
           "end_points", "every_move", "flag", "lay", "moves", "offer_extra", "on_sets", "pick",
           "points", "resolve", "resolve_extra", "sets", "shields", "state", "triggered", "used"]
