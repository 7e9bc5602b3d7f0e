"""Wonders built in pieces, as soon as the cards a player holds pay for them.

A piece costs N resource cards, all different, all of one resource, or any (a progress
token may lift the 'same'/'different' rule).  A coin card stands for any one missing
resource (a progress token may make one coin card count twice in a payment); coins fill
gaps only, so a payment uses every resource it can.  Building is mandatory: after every
card taken, each piece whose pieces below are built and that the held cards pay for is
built, one after the other (the owner chooses the piece and the payment where there are
several); the cards paid are discarded, the piece's effect acts at once.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement
from typing import TYPE_CHECKING, Any, Final, Mapping, cast

from wonders.dsl.components_model import Components, Piece
from wonders.engine.flow_actions import Move
from wonders.engine.flow_state import Part, Seat, part_index
from wonders.engine.mechanisms import decks, progress
from wonders.engine.randomness import sample

if TYPE_CHECKING:
    from wonders.engine.flow import FlowGame

BUILD = "build"
NAME = "pieces"
SLOT: Final = part_index(NAME)   # (the part's index in a game's slots)
WORDING: Final = {BUILD: "building a Wonder piece"}


class Wonders(Part):
    """The Wonders built piece by piece: per seat, per piece of its Wonder, whether it is
    ``raised``; ``completed``: whether a seat has built its whole Wonder."""

    def __init__(self, players: int) -> None:
        self.raised: list[list[bool]] = [[] for _ in range(players)]
        self.completed = False

    def copy(self) -> Wonders:
        other = Wonders(0)
        other.raised = [list(r) for r in self.raised]
        other.completed = self.completed
        return other

    def seat_view(self, game: FlowGame, s: int, entry: dict[str, Any]) -> None:
        entry["wonder"] = game.wonders[game.seats[s].wonder].name
        entry["built"] = list(self.raised[s])

    def score(self, game: FlowGame, s: int, line: dict[str, int]) -> None:
        line["wonder"] = points(game, s)

    def counts(self, game: FlowGame, found: dict[str, list[int]]) -> None:
        found["pieces"] = [sum(r) for r in self.raised]

    def setup_record(self, game: FlowGame, record: dict[str, Any]) -> None:
        record["wonders"] = [game.wonders[c.wonder].name for c in game.seats]

    def summary(self, game: FlowGame, s: int, found: dict[str, object]) -> None:
        found["pieces"] = sum(self.raised[s])

    def count(self, game: FlowGame, s: int, what: str) -> int:
        if what == "piece":
            return sum(self.raised[s])
        return int(all(self.raised[s])) if what == "complete" else -1

    def board_states(self, game: FlowGame, s: int, found: list[tuple[str, str]]) -> None:
        found.append((game.seats[s].name, "complete" if all(self.raised[s]) else "unfinished"))


def state(game: FlowGame) -> Wonders:
    """The game's Wonders (the part this mechanism owns)."""
    return cast(Wonders, game.slots[SLOT])


def deal(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    """Set-up: a Wonder for each seat, at random, none of its pieces built."""
    wonders = game.wonders
    if len(wonders) < game.players:
        raise ValueError(f"{len(wonders)} Wonders for {game.players} players")
    chosen = sample(game.generator(), range(len(wonders)), game.players)
    game.seats = [Seat(s, w, len(game.kinds), wonders[w].name) for s, w in enumerate(chosen)]
    state(game).raised = [[False] * len(wonders[w].pieces) for w in chosen]


def complete(game: FlowGame) -> bool:
    """Whether a seat has built its whole Wonder (an end condition)."""
    return state(game).completed


def raised(game: FlowGame, seat: int) -> list[bool]:
    """Per piece of ``seat``'s Wonder, whether it is built."""
    return state(game).raised[seat]


def built(game: FlowGame, seat: int) -> int:
    """How many pieces ``seat`` has built."""
    return sum(state(game).raised[seat])


def whole(game: FlowGame, seat: int) -> bool:
    """Whether ``seat`` has built its whole Wonder."""
    return all(state(game).raised[seat])


def _coin_cards(gaps: int, doubled: bool) -> int:
    """Coin cards that fill ``gaps`` (one of them counting twice when ``doubled``)."""
    return gaps - 1 if doubled and gaps >= 2 else gaps


def payments(game: FlowGame, seat: int, piece: Piece) -> list[tuple[str, ...]]:
    """Every way ``seat``'s cards pay for ``piece``: the kind names of the cards spent,
    resources first, each way once."""
    held = game.seats[seat].held
    kinds = game.kinds
    resources: dict[str, int] = {}      # resource -> kind index holding it
    counts: dict[str, int] = {}
    coin = -1
    for k, n in enumerate(held):
        if n and kinds[k].resource is not None:
            name = kinds[k].resource or ""
            resources[name] = k
            counts[name] = counts.get(name, 0) + n
        elif n and kinds[k].coins and coin < 0:
            coin = k
    coins = held[coin] if coin >= 0 else 0
    tokens = progress.state(game).held[seat]   # (most seats hold no token: no flag to read)
    doubled = bool(tokens) and progress.flag(game, seat, "coin_value")
    rule = "any" if tokens and progress.flag(game, seat, "any_resources") else piece.rule
    n = piece.count
    found: list[tuple[str, ...]] = []

    def add(spent: list[str]) -> None:
        gaps = n - len(spent)
        cards = _coin_cards(gaps, doubled)
        if cards <= coins:
            found.append(tuple(kinds[resources[r]].name for r in spent)
                         + (kinds[coin].name,) * cards)

    if rule == "different":
        names = sorted(resources)
        for chosen in combinations(names, min(n, len(names))):
            add(list(chosen))
    elif rule == "same":
        for name in sorted(resources):
            add([name] * min(n, counts[name]))
        if not resources:
            add([])
    else:
        pool = [r for r in sorted(resources) for _ in range(counts[r])]
        seen: set[tuple[str, ...]] = set()
        for chosen in combinations_with_replacement(sorted(resources), min(n, len(pool))):
            if chosen not in seen and all(chosen.count(r) <= counts[r] for r in set(chosen)):
                seen.add(chosen)
                add(list(chosen))   # (no resource held: the one empty choice, coins only)
    return found


def buildable(game: FlowGame, seat: int) -> list[int]:
    """The pieces ``seat`` may build now: not built, every piece below built."""
    pieces = game.wonders[game.seats[seat].wonder].pieces
    done = state(game).raised[seat]
    return [i for i, piece in enumerate(pieces) if not done[i]
            and all(done[j] for j in piece.rests_on)]


def _enough(game: FlowGame, seat: int, count: int) -> bool:
    """Whether ``seat`` holds at least ``count`` paying cards (a quick test before the
    payments are worked out: one coin card may count twice)."""
    held = game.seats[seat].held
    cards = 0
    for k, kind in enumerate(game.kinds):
        if held[k] and (kind.resource is not None or kind.coins):
            cards += held[k]
    return cards + 1 >= count


def build_moves(game: FlowGame, seat: int) -> tuple[Move, ...]:
    """Every piece ``seat`` can pay for now, with each of its payments."""
    pieces = game.wonders[game.seats[seat].wonder].pieces
    open_pieces = buildable(game, seat)
    if not open_pieces or not _enough(game, seat, min(pieces[i].count for i in open_pieces)):
        return ()
    return tuple(Move(BUILD, (str(i + 1), "pay", *spent)) for i in open_pieces
                 for spent in payments(game, seat, pieces[i]))


def build_when_paid(game: FlowGame, seat: int) -> None:
    """The mandatory build: ask which piece and payment when there is a choice."""
    moves = build_moves(game, seat)
    if moves:
        game.schedule([("build_when_paid", seat, -1)])   # then build what else is paid
        game.ask(BUILD, seat, moves)


def resolve(game: FlowGame, seat: int, move: Move) -> None:
    """Build the piece a move names, paying with the cards it names."""
    city = game.seats[seat]
    index = int(move.words[0]) - 1
    discard = decks.state(game).discard
    for name in move.words[2:]:
        kind = game.kind_index(name)
        city.held[kind] -= 1
        discard.append(kind)
    wonders = state(game)
    done = wonders.raised[seat]
    done[index] = True
    piece = game.wonders[city.wonder].pieces[index]
    if all(done):
        wonders.completed = True
    game.schedule([("extra_offer", seat, t)   # the tokens whose extra card a build sets off
                   for t in progress.triggered(game, seat, -1, piece=True)])
    for _ in range(piece.progress):
        game.schedule([("progress_pick", seat, -1)])
    if piece.take is not None:
        decks.take(game, seat, piece.take)


def points(game: FlowGame, seat: int) -> int:
    """The points of the pieces ``seat`` has built."""
    pieces = game.wonders[game.seats[seat].wonder].pieces
    return sum(p.points for p, done in zip(pieces, state(game).raised[seat]) if done)


def shields(game: FlowGame, seat: int) -> int:
    """The shields of the pieces ``seat`` has built."""
    pieces = game.wonders[game.seats[seat].wonder].pieces
    return sum(p.shields for p, done in zip(pieces, state(game).raised[seat]) if done)


def every_move(components: Components) -> list[Move]:
    """Every build move any piece of any Wonder can be: its number, then each multiset of
    resource cards (by resource name, as :func:`payments` lists them) and the coin cards
    that fill the gaps (one fewer when a coin card counts twice)."""
    resources: dict[str, str] = {}
    coin = ""
    for kind in components.kinds:
        if kind.resource is not None:
            resources[kind.resource] = kind.name
        elif kind.coins and not coin:
            coin = kind.name
    names = [resources[r] for r in sorted(resources)]
    counts: dict[int, set[int]] = {}
    for wonder in components.wonders:
        for i, piece in enumerate(wonder.pieces):
            counts.setdefault(i, set()).add(piece.count)
    moves: list[Move] = []
    for i in sorted(counts):
        spent: list[tuple[str, ...]] = []
        for count in sorted(counts[i]):
            for r in range(count + 1):
                for chosen in combinations_with_replacement(names, r):
                    gaps = count - r
                    for cards in sorted({gaps, _coin_cards(gaps, True)}):
                        if cards and not coin:
                            continue
                        way = chosen + (coin,) * cards
                        if way not in spent:
                            spent.append(way)
        moves += [Move(BUILD, (str(i + 1), "pay", *way)) for way in spent]
    return moves


__all__ = ["BUILD", "NAME", "WORDING", "Wonders", "build_moves", "build_when_paid", "buildable",
           "built", "complete", "deal", "every_move", "payments", "points", "raised", "resolve",
           "shields", "state", "whole"]
