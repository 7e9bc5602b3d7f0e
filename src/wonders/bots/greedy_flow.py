"""The greedy policy of games run by the flow interpreter: each move played out on a copy.

A move is valued by playing it on a copy of the game and, while the decisions that follow
are the same seat's (a piece to build, a token to take, one more card), playing the best
of those too, a few deep; the position reached is valued for the seat by its score-sheet
total plus a generic estimate of what it promises, less part of its best rival's.  The
estimate reads the data's shape only, never a name: the cards held that count towards
the cost of a piece that may be built next (with the payment rules the seat's tokens
lift), science symbols towards a set, shields against each neighbour weighed by how close
the conflict is to a battle, and tokens whose effects act later.

The seat cannot see every card: a move is valued in a **determinized** copy
(``game.determinize``), and a take from a deck whose top the seat cannot see is valued as
the average over the cards that deck (in that copy) may hold, each weighted by its count,
so the choice never depends on a hidden card.  With ``fast`` (search playouts, which run
in a determinized world already) the copy is the game itself and a hidden take is played
as it lies.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Sequence

from wonders.bots.policy import best_of
from wonders.dsl.components_model import Piece
from wonders.engine.flow import FlowGame
from wonders.engine.flow_actions import Move
from wonders.engine.mechanisms import conflict, decks, pieces, progress

WIN = 25.0            # a won game, on top of its margin
RIVAL = 0.5           # the share of the best rival's value taken off
PIECE = 1.0           # per point of a piece (and its effect), times the share paid for
EFFECT_TAKE = 2.5     # a piece's effect that takes a card, per card
EFFECT_TOKEN = 4.0    # a piece's effect that takes a progress token
TOKEN = 4.0           # a progress token a science set would take
LATER_TOKEN = 3.0     # a held token whose effect acts during the game (not at the end)
SHIELD_LEAD = 0.9     # per victory token the next battle would give, early
DEPTH = 3             # the seat's own follow-ups played out after a move
FAST_DEPTH = 0        # (search playouts: each follow-up is its own decision)


def _remaining(game: FlowGame) -> float:
    """How much of the game is left, by the pieces of the most advanced Wonder (1 to 0.1)."""
    most = max(sum(done) / max(len(done), 1) for done in pieces.state(game).raised)
    return max(0.1, 1.0 - most)


def _missing(game: FlowGame, seat: int, piece: Piece) -> int:
    """The cards ``seat`` still needs to pay for ``piece`` (0: it is paid for)."""
    held = game.seats[seat].held
    counts: Counter[str] = Counter()
    coins = 0
    for k, kind in enumerate(game.kinds):
        if held[k]:
            if kind.resource is not None:
                counts[kind.resource] += held[k]
            elif kind.coins:
                coins += held[k] * kind.coins
    if coins and progress.flag(game, seat, "coin_value"):
        coins += 1
    rule = "any" if progress.flag(game, seat, "any_resources") else piece.rule
    if rule == "different":
        have = len(counts)
    elif rule == "same":
        have = max(counts.values(), default=0)
    else:
        have = sum(counts.values())
    return max(0, piece.count - min(have, piece.count) - coins)


def _piece_worth(piece: Piece) -> float:
    """A piece's points and what its effect is worth."""
    worth = float(piece.points) + EFFECT_TOKEN * piece.progress + 1.5 * piece.shields
    if piece.take is not None:
        worth += EFFECT_TAKE * (2 if piece.take.each else 1)
    return worth


def _wonder(game: FlowGame, seat: int) -> float:
    """The pieces that may be built next, each by the share of its cost held."""
    wonder = game.wonders[game.seats[seat].wonder]
    shares = sorted(((piece.count - _missing(game, seat, piece)) / piece.count
                     * _piece_worth(piece) for piece in
                     (wonder.pieces[i] for i in pieces.buildable(game, seat))), reverse=True)
    return PIECE * sum(share * (1.0 if i == 0 else 0.3) for i, share in enumerate(shares))


def _science(game: FlowGame, seat: int) -> float:
    """Science symbols held towards the next set (a token), when a token is left."""
    table = progress.state(game)
    if not table.face_up and not table.stack:
        return 0.0
    parameters = game.program.arguments.get("progress_on_sets", {})
    same = int(parameters.get("same", 2))
    different = int(parameters.get("different", 3))
    held = game.seats[seat].held
    symbols = [held[k] for k, kind in enumerate(game.kinds) if kind.science is not None
               and held[k]]
    if not symbols:
        return 0.0
    share = max(max(symbols) / same, len(symbols) / different if different else 0.0)
    return TOKEN * min(share, 1.0) * 0.8


def _military(game: FlowGame, seat: int, shields: Sequence[int]) -> float:
    """The victory tokens the next battle would give now (``shields``: every seat's),
    weighed by its nearness."""
    table = conflict.state(game)
    if not table.total:
        return 0.0
    parameters = game.program.arguments.get("battle_if_due", {})
    victory = float(parameters.get("victory", 3))
    double = int(parameters.get("double", 2))
    players = game.players
    if players == 2:
        tokens = float(conflict.won(shields[seat], shields[1 - seat], double))
    else:
        tokens = 0.0
        for other in {(seat + 1) % players, (seat - 1) % players}:
            if shields[seat] > shields[other]:
                tokens += 1.0
            elif shields[seat] == shields[other]:
                tokens += 0.3
    nearness = 1.0 - table.peace / table.total
    return victory * tokens * (0.25 + 0.75 * nearness) * SHIELD_LEAD


def _later(game: FlowGame, seat: int) -> float:
    """Held tokens whose effects act during the game rather than at the end."""
    count = sum(1 for t in progress.state(game).held[seat]
                if game.progress[t].end is None and game.progress[t].shields == 0)
    return LATER_TOKEN * count * _remaining(game)


def estimate(game: FlowGame, seat: int, total: int | None = None,
             shields: Sequence[int] | None = None) -> float:
    """``seat``'s points now (``total``: its score-sheet total, when known) plus what its
    position promises."""
    if total is None:
        total = game.score_sheet().total(seat)
    if shields is None:
        shields = [conflict.shields(game, s) for s in range(game.players)]
    return (total + _wonder(game, seat) + _science(game, seat)
            + _military(game, seat, shields) + _later(game, seat))


def value(game: FlowGame, seat: int) -> float:
    """How good ``game`` is for ``seat``: its estimate less part of its best rival's; a
    finished game is its margin and a win."""
    sheet = game.score_sheet()
    totals = sheet.totals
    if game.over:
        best = max(totals[s] for s in range(game.players) if s != seat)
        winners = sheet.winners
        return (totals[seat] - best
                + (WIN / len(winners) if seat in winners else -WIN))
    shields = [conflict.shields(game, s) for s in range(game.players)]
    mine = estimate(game, seat, totals[seat], shields)
    rival = max(estimate(game, s, totals[s], shields) for s in range(game.players)
                if s != seat)
    return mine - RIVAL * rival


class FlowGreedy:
    """Registered as the ``decks`` loop's ``greedy``: ``Policy(seed, noise, fast)``."""

    name = "greedy"

    def __init__(self, seed: int = 0, noise: float = 0.0, fast: bool = False) -> None:
        self.rng = random.Random(seed)
        self.noise = noise
        self.fast = fast

    def choose(self, game: FlowGame, seat: int) -> Move:
        actions: Sequence[Move] = game.legal_actions(seat)
        if len(actions) == 1:
            return actions[0]
        valued = self._values(game, seat, actions)
        return actions[best_of(range(len(actions)), lambda i: valued[i], self.rng,
                               self.noise)]

    def rank(self, game: FlowGame, seat: int,
             actions: Sequence[Move]) -> list[tuple[float, Move]]:
        """Every move valued, best first (each move is a distinct choice)."""
        valued = self._values(game, seat, actions)
        order = sorted(range(len(actions)), key=lambda i: (-valued[i], i))
        return [(valued[i], actions[i]) for i in order]

    # --- valuing moves ------------------------------------------------------------------

    def _values(self, game: FlowGame, seat: int, actions: Sequence[Move]) -> list[float]:
        if self.fast:
            return [self._after(game, seat, move, FAST_DEPTH) for move in actions]
        world = game.determinize(seat, self.rng)
        hidden = {slot for slot, deck in enumerate(game.view(seat)["decks"])
                  if deck["top"] is None and deck["cards"]}
        return [self._expected(world, seat, move, hidden) for move in actions]

    def _expected(self, world: FlowGame, seat: int, move: Move, hidden: set[int]) -> float:
        """A move's value; a take from a deck whose top is hidden: averaged over the cards
        that deck may hold (the determinized world's deck, by count)."""
        slot = _take_slot(world, seat, move)
        if slot is None or slot not in hidden:
            return self._after(world, seat, move, DEPTH)
        deck = decks.state(world).decks[slot]
        total = 0.0
        counts = Counter(deck)
        for kind, count in counts.items():
            trial = world.clone()
            cards = decks.state(trial).decks[slot]
            cards[cards.index(kind)], cards[-1] = cards[-1], cards[cards.index(kind)]
            total += count * self._after(trial, seat, move, DEPTH, copied=True)
        return total / len(deck)

    def _after(self, game: FlowGame, seat: int, move: Move, depth: int,
               copied: bool = False) -> float:
        """The value of the position ``move`` leads to, the seat's own follow-ups played
        greedily up to ``depth`` more."""
        trial = game if copied else game.clone()
        trial.play({seat: move})
        asked = trial.asking
        if depth <= 0 or trial.over or asked is None or asked.seat != seat \
                or asked.kind == decks.TURN:
            return value(trial, seat)
        return max(self._after(trial, seat, follow, depth - 1) for follow in asked.moves)


def _take_slot(game: FlowGame, seat: int, move: Move) -> int | None:
    """The deck a take names (None: the move takes from no deck)."""
    asked = game.asking
    if move.verb != "take" or not move.words or asked is None or asked.kind == decks.LOOK:
        return None
    try:
        return decks.slot_of(game, seat, move.words[0])
    except ValueError:
        return None


__all__ = ["FlowGreedy", "estimate", "value"]
