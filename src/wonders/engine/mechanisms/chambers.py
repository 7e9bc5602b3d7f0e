"""A board of chambers controlled by the majority of pieces placed (``lay_chambers``).

Set-up step ``lay_chambers: {kind, chambers, sections, supply, face_up, points, line,
actions}`` lays one token of ``kind`` (a decree) at random on each chamber, face up on the
chambers ``face_up`` lists and face down on the others, and gives each seat ``supply``
pieces (cubes).  Chambers are in a line (adjacent: one apart); ``sections`` name groups of
them.  Effects place, remove and move pieces (``influence …``, follow-up decisions of the
one agenda); after every change each chamber's controller is worked out again: the seat
with more pieces there (a tie: nobody).  The controller holds the chamber's tokens as its
own (their effects act for it while it keeps control: a token's ``shields`` arrive with it
and go back when it leaves, the pawn pushed by the other seat); a face-down token turns face
up at the first piece placed there.  A seat controlling every chamber wins at once when the
flow lists ``political_supremacy`` in ``end.at_once``; at the end each seat scores
``points`` (one number per chamber) for the chambers it controls, on score line ``line``.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Final, Mapping

from wonders.dsl import effects as fx
from wonders.dsl.model import Game as GameData
from wonders.dsl.model import Token
from wonders.engine.errors import RuleError
from wonders.engine.flow_actions import Move
from wonders.engine.flow_state import Ask, Part, part_index
from wonders.engine.mechanisms.bank import cities_of
from wonders.engine.randomness import shuffle
from wonders.engine.runtime import act

if TYPE_CHECKING:
    from wonders.engine.flow import FlowGame

NAME: Final = "chambers"
SLOT: Final = part_index(NAME)
INFLUENCE: Final = "influence"          # the follow-up decision, and its agenda task
SUPREMACY: Final = "political_supremacy"   # the end.at_once condition this part raises
VICTORY: Final = "political"
WORDING: Final[dict[str, str]] = {INFLUENCE: "placing, moving or removing a cube"}
SKIP: Final = Move("skip")
ANY: Final = "any"


class Chambers(Part):
    """The pieces per chamber and seat (``cubes``), each seat's ``supply`` left, the tokens
    on each chamber (a stack: the top one first), which are face up, each chamber's
    controller (-1: nobody), and the influence actions raised and not yet asked."""

    def __init__(self, arguments: Mapping[str, Any], players: int, at_once: bool) -> None:
        self.arguments = arguments
        self.at_once = at_once
        count = int(arguments.get("chambers", 6))
        self.size = count
        sections = arguments.get("sections", {})
        self.sections: dict[str, list[int]] = {
            str(name): [int(c) - 1 for c in chambers] for name, chambers in sections.items()}
        self.points: list[int] = [int(p) for p in arguments.get("points", [])]
        self.line = str(arguments.get("line", NAME))
        actions = arguments.get("actions", {})
        self.action_colours = frozenset(str(c) for c in actions.get("colours", []))
        self.by_count: list[int] = [int(n) for n in actions.get("by_count", [1])] or [1]
        self.cubes: list[list[int]] = [[0] * players for _ in range(count)]
        self.supply: list[int] = [int(arguments.get("supply", 12))] * players
        self.tokens: list[list[Token]] = [[] for _ in range(count)]
        self.face_up: list[bool] = [True] * count
        self.control: list[int] = [-1] * count
        self.unused: list[Token] = []   # the tokens left in the box (hidden)
        self.pending: list[tuple[int, str, int, str]] = []   # (seat, verb, count, where)

    def copy(self) -> Chambers:
        other = Chambers(self.arguments, 0, self.at_once)
        other.cubes = [list(c) for c in self.cubes]
        other.supply = list(self.supply)
        other.tokens = [list(t) for t in self.tokens]
        other.face_up = list(self.face_up)
        other.control = list(self.control)
        other.unused = list(self.unused)
        other.pending = list(self.pending)
        return other

    # --- control --------------------------------------------------------------------------

    def held(self, seat: int) -> int:
        """Pieces of ``seat`` on the board."""
        return sum(c[seat] for c in self.cubes)

    def update(self, game: FlowGame) -> None:
        """Each chamber's controller worked out again; tokens change hands; supremacy."""
        cities = cities_of(game)
        for chamber in range(self.size):
            cubes = self.cubes[chamber]
            best = max(cubes)
            leaders = [s for s, n in enumerate(cubes) if n == best]
            now = leaders[0] if best > 0 and len(leaders) == 1 else -1
            before = self.control[chamber]
            if now == before:
                continue
            self.control[chamber] = now
            for token in self.tokens[chamber]:
                if before >= 0:
                    leave(game, before, token)
            for token in self.tokens[chamber]:
                if now >= 0:
                    cities[now].add_token(token)
                    act(game.table, now, token.effects, True)
            if game.finished:
                return
        if self.at_once and self.size:
            first = self.control[0]
            if first >= 0 and all(c == first for c in self.control):
                game.win(first, VICTORY)

    # --- what the game shows ------------------------------------------------------------

    def view(self, game: FlowGame, seat: int, found: dict[str, Any]) -> None:
        """Per chamber the pieces by seat, its controller (-1: nobody), its tokens (top
        first; None while face down) and whether face up; each seat's pieces left; the
        sections by name (1-based chambers); the tokens' ``kind``; the ``points`` each
        chamber scores its controller at the end, on score line ``line``."""
        found[NAME] = {
            "chambers": [{"cubes": list(self.cubes[c]), "control": self.control[c],
                          "decrees": [t.name for t in self.tokens[c]] if self.face_up[c]
                          else None, "face_up": self.face_up[c]} for c in range(self.size)],
            "supply": list(self.supply),
            "sections": {name: [c + 1 for c in chambers]
                         for name, chambers in self.sections.items()},
            "kind": str(self.arguments.get("kind", "decree")),
            "points": list(self.points), "line": self.line}

    def score(self, game: FlowGame, s: int, line: dict[str, int]) -> None:
        points = 0
        for chamber, controller in enumerate(self.control):
            if controller == s and chamber < len(self.points):
                points += self.points[chamber]
        line[self.line] = line.get(self.line, 0) + points

    def count(self, game: FlowGame, s: int, what: str) -> int:
        return self.held(s) if what == INFLUENCE else -1

    def setup_record(self, game: FlowGame, record: dict[str, Any]) -> None:
        record[NAME] = [t.name if self.face_up[c] else None
                        for c, tokens in enumerate(self.tokens) for t in tokens[:1]]

    def determinize(self, game: FlowGame, source: FlowGame, seat: int,
                    rng: random.Random) -> None:
        """The face-down tokens and those left in the box, dealt again."""
        hidden = [c for c in range(self.size) if not self.face_up[c] and self.tokens[c]]
        pool = [self.tokens[c][0] for c in hidden] + self.unused
        pool.sort(key=lambda t: t.name)
        rng.shuffle(pool)
        for c, token in zip(hidden, pool):
            self.tokens[c][0] = token
        self.unused = pool[len(hidden):]


def leave(game: FlowGame, seat: int, token: Token) -> None:
    """``token`` leaves ``seat``'s city: its effects stop, its shields go back (the pawn
    pushed as far by the other seat)."""
    city = cities_of(game)[seat]
    for index, owned in enumerate(city.owned_tokens):
        if owned is token:
            del city.owned_tokens[index]
            break
    city.changed()
    for clause in token.effects.clauses:
        effect = clause.effect
        if clause.timing is fx.Timing.ONGOING and isinstance(effect, fx.Shields):
            game.table.shields(1 - seat, effect.count)


def lay(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    """Set-up step ``lay_chambers``: one token of ``kind`` on each chamber, shuffled."""
    part = state(game)
    kind = str(parameters.get("kind", "decree"))
    tokens = sorted((t for t in game.data.tokens if t.kind == kind), key=lambda t: t.name)
    if len(tokens) < part.size:
        raise RuleError(f"lay_chambers: {part.size} chambers need {part.size} {kind} "
                        f"tokens, but {len(tokens)} are loaded")
    shuffle(game.generator(), tokens, game.drawer())
    face_up = {int(c) - 1 for c in parameters.get("face_up", range(1, part.size + 1))}
    for chamber in range(part.size):
        part.tokens[chamber] = [tokens[chamber]]
        part.face_up[chamber] = chamber in face_up
    part.unused = tokens[part.size:]


# --- the effects: influence ---------------------------------------------------------------

def carry_out(game: FlowGame, seat: int, effect: Any) -> None:
    """``influence …`` of ``seat``'s: the actions it raises wait on the agenda, in order."""
    influence: fx.Influence = effect
    part = state(game)
    verb = influence.verb
    if verb == "bonus":
        return   # (ongoing: read by "act")
    if verb == "act":
        for _ in range(actions(game, part, seat)):
            _raise(game, part, seat, "act", 1, influence.where)
        return
    if verb == "move" and influence.what == "decree":
        _raise(game, part, seat, "decree", 1, "")
        return
    for _ in range(influence.count):
        _raise(game, part, seat, verb, 1, influence.where)


def actions(game: FlowGame, part: Chambers, seat: int) -> int:
    """How many actions ``influence act`` gives ``seat``: ``actions.by_count`` at the number
    of its cards of ``actions.colours`` (plus every ``influence bonus``), the last entry
    beyond the list."""
    city = cities_of(game)[seat]
    counted = city.cards_of(part.action_colours) if part.action_colours else 0
    for _, _, effect in city.clause_list(fx.Timing.ONGOING):
        if isinstance(effect, fx.Influence) and effect.verb == "bonus":
            counted += effect.count
    table = part.by_count
    return table[min(counted, len(table) - 1)]


def _raise(game: FlowGame, part: Chambers, seat: int, verb: str, count: int,
           where: str) -> None:
    part.pending.append((seat, verb, count, where))
    game.agenda.append((INFLUENCE, seat, 0))


def _moves_of(part: Chambers, seat: int) -> list[Move]:
    found: list[Move] = []
    for chamber in range(part.size):
        if part.cubes[chamber][seat]:
            for to in (chamber - 1, chamber + 1):
                if 0 <= to < part.size:
                    found.append(Move("move", (str(chamber + 1), str(to + 1))))
    return found


def _places_in(part: Chambers, seat: int, where: str) -> list[Move]:
    if part.supply[seat] <= 0:
        return []   # (no piece left: nothing to place)
    chambers = range(part.size) if where == ANY else part.sections.get(where, [])
    return [Move("place", (str(c + 1),)) for c in chambers]


def ask_next(game: FlowGame, seat: int, about: int) -> None:
    """The agenda's task: ask the oldest influence action raised (none possible: lapses)."""
    part = state(game)
    if not part.pending:
        return
    owner, verb, _, where = part.pending.pop(0)
    moves: list[Move]
    if verb == "place":
        moves = _places_in(part, owner, where)
    elif verb == "act":
        moves = _places_in(part, owner, where) + _moves_of(part, owner)
    elif verb == "remove":
        rival = 1 - owner
        moves = [Move("remove", (str(c + 1),)) for c in range(part.size)
                 if part.cubes[c][rival]]
    elif verb == "move":
        moves = _moves_of(part, owner)
        if moves:
            moves.append(SKIP)
    else:   # "decree": a chamber's top token moved under another chamber's
        moves = [Move("decree", (str(a + 1), str(b + 1))) for a in range(part.size)
                 if part.tokens[a] for b in range(part.size) if b != a]
        if moves:
            moves.append(SKIP)
    if moves:
        game.ask(INFLUENCE, owner, tuple(moves))


def resolve(game: FlowGame, asked: Ask, action: Any) -> None:
    """An influence action answered: the pieces change, then control is worked out."""
    move: Move = action
    part = state(game)
    seat = asked.seat
    if move.verb == "skip":
        return
    numbers = [int(w) - 1 for w in move.words]
    if move.verb == "place":
        chamber = numbers[0]
        part.cubes[chamber][seat] += 1
        part.supply[seat] -= 1
        part.face_up[chamber] = True
    elif move.verb == "remove":
        chamber = numbers[0]
        part.cubes[chamber][1 - seat] -= 1
        part.supply[1 - seat] += 1
    elif move.verb == "move":
        part.cubes[numbers[0]][seat] -= 1
        part.cubes[numbers[1]][seat] += 1
    else:
        source, target = numbers
        token = part.tokens[source].pop(0)
        if part.control[source] >= 0:
            leave(game, part.control[source], token)
        part.tokens[target].append(token)
        if part.control[target] >= 0:
            cities_of(game)[part.control[target]].add_token(token)
            act(game.table, part.control[target], token.effects, True)
    part.update(game)


def make(data: GameData, players: int, arguments: Mapping[str, Mapping[str, Any]]) -> Chambers:
    flow = data.rules.model.flow
    return Chambers(arguments.get("lay_chambers", {}), players,
                    flow is not None and SUPREMACY in flow.at_once)


def every_move(data: GameData, arguments: Mapping[str, Mapping[str, Any]]) -> list[Move]:
    """Every move a board of chambers can offer (the fixed action ids of agents and
    OpenSpiel): a placement or removal in each chamber, a move or a decree's move between
    any two, and skip."""
    size = range(1, int(arguments.get("lay_chambers", {}).get("chambers", 6)) + 1)
    found = [SKIP]
    found += [Move(verb, (str(c),)) for verb in ("place", "remove") for c in size]
    found += [Move(verb, (str(a), str(b))) for verb in ("move", "decree") for a in size
              for b in size if a != b]
    return found


def state(game: FlowGame) -> Chambers:
    return game.slots[SLOT]  # type: ignore[return-value]  # (no cast: a call)


__all__ = ["Chambers", "INFLUENCE", "NAME", "SUPREMACY", "VICTORY", "WORDING", "actions",
           "ask_next", "carry_out", "every_move", "lay", "leave", "make", "resolve", "state"]
