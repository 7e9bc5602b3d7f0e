"""The greedy bot for two-player card-structure games: one ply, on a simple estimate.

Each legal action is tried on a copy of the game and the resulting position is
valued for the bot against its rival: points on the score sheet (which already
include the conflict track and coins), progress towards military and science
supremacy, and production worth more early than late.  A finished game is worth a win
or a loss outright.  Nothing here names a card, wonder or token; it reads effects and
the rule set's parameters only.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from wonders.bots.policy import best_of
from wonders.engine.contract import AnyAction
from wonders.engine.flow import FlowGame
from wonders.engine.mechanisms import track as track_mechanism

WIN = 1000.0
PRODUCTION_VALUE = (2.0, 1.2, 0.2)   # per unit produced, by age
SUPREMACY_WEIGHT = 1.5               # per shield of lead
SYMBOL_VALUE = (2.5, 2.5, 3.0)       # per different science symbol


def _by_age(table: tuple[float, ...], age: int) -> float:
    return table[min(max(age, 1), len(table)) - 1]


def value(game: FlowGame, seat: int) -> float:
    """How good ``game`` is for ``seat`` (higher is better)."""
    if game.over:
        sheet = game.score_sheet()
        winners = sheet.winners
        if seat in winners:
            return WIN if len(winners) == 1 else 0.0
        return -WIN
    sheet = game.score_sheet()
    lead = float(sheet.total(seat) - sheet.total(1 - seat))
    pawn, supremacy = _track(game)
    position = pawn if seat == 0 else -pawn
    lead += SUPREMACY_WEIGHT * position * (abs(position) / max(supremacy, 1) + 0.5)
    production = _by_age(PRODUCTION_VALUE, game.age)
    symbols = _by_age(SYMBOL_VALUE, game.age)
    for s, sign in ((seat, 1.0), (1 - seat, -1.0)):
        city = game.cities[s]
        lead += sign * (production * city.produced_units() + symbols * len(city.symbols()))
    return lead


def _track(game: Any) -> tuple[int, int]:
    """The conflict pawn's position and the supremacy distance (the ``track`` part)."""
    found = track_mechanism.state(game)
    return found.position, found.rules.supremacy


class StructureGreedy:
    """The card-structure loop's greedy policy: the action whose resulting position values
    best, ties by its own generator (registered as the ``structure`` loop's ``greedy``).

    ``noise`` adds a normal error of that spread to each value (search playouts);
    ``fast`` is accepted for the policy interface and changes nothing: a position is
    valued the same way either way.
    """

    name = "greedy"

    def __init__(self, seed: int = 0, noise: float = 0.0, fast: bool = False) -> None:
        self.rng = random.Random(seed)
        self.noise = noise
        self.fast = fast

    def choose(self, game: FlowGame, seat: int) -> AnyAction:
        actions: Sequence[AnyAction] = game.legal_actions(seat)
        if len(actions) == 1:
            return actions[0]
        return best_of(actions, lambda action: _after(game, seat, action), self.rng,
                       self.noise)

    def rank(self, game: FlowGame, seat: int,
             actions: Sequence[AnyAction]) -> list[tuple[float, AnyAction]]:
        """Every action valued by the position it leads to, best first (each one is a
        distinct choice: a card is paid for in one way only)."""
        valued = [(_after(game, seat, action), index, action)
                  for index, action in enumerate(actions)]
        valued.sort(key=lambda t: (-t[0], t[1]))
        return [(found, action) for found, _, action in valued]


def _after(game: FlowGame, seat: int, action: AnyAction) -> float:
    """The value for ``seat`` of the position ``action`` leads to."""
    trial = game.clone()
    trial.play({seat: action})
    return value(trial, seat)


StructureGreedyBot = StructureGreedy  # its former name
