"""The dice-forum loop's greedy policy: one seat's action tried alone, the sheet valued.

Turns are simultaneous, so an action is valued on a copy of the game in which only
this seat has acted (:meth:`DiceGame.trial`): the points it has then, plus generic
estimates of what a position is worth later — resource types (every later space costs
less), coins (bounded by the reserve), bonuses and follow-ups waiting, dice unlocked,
progress towards completing buildings (a bonus) — weighed less as the game nears its
end.  Nothing here names a building or a board: the weights read the data's shape.
"""

from __future__ import annotations

import math
import random
from typing import Any, Sequence

from ..dice_game import DiceGame

# value of one unit of each estimate, early in the game (they fade towards the end)
RESOURCE = 2.2
COIN = 0.45
FOLLOW_UP = 3.0
UNLOCKED = 2.5
PROGRESS = 4.0      # per building, times the share of its spaces crossed, squared
STAGE = 0.5


def value(game: DiceGame, seat: int) -> float:
    """How good ``seat``'s position is: its points plus what it promises."""
    city = game.sheets[seat]
    dice = game.dice
    left = 1.0
    trigger = game.trigger
    if trigger.triggered >= 0:
        left = 0.15 if game.turn >= trigger.triggered + trigger.extra else 0.4
    estimate = (RESOURCE * len(city.resources) + COIN * city.coins
                + FOLLOW_UP * len(game.pending[seat]) + UNLOCKED * len(city.unlocked)
                + STAGE * city.stages)
    for b, building in enumerate(dice.buildings):
        share = city.counts[b] / len(building.spaces)
        estimate += PROGRESS * share * share
    return game.points(seat) + left * estimate


class DiceGreedy:
    """Registered as the ``dice`` loop's ``greedy``: ``Policy(seed, noise, fast)``."""

    name = "greedy"

    def __init__(self, seed: int = 0, noise: float = 0.0, fast: bool = False) -> None:
        self.rng = random.Random(seed)
        self.noise = noise
        self.fast = fast

    def choose(self, game: Any, seat: int) -> Any:
        assert isinstance(game, DiceGame)
        actions = game.legal_actions(seat)
        if len(actions) == 1:
            return actions[0]
        best: list[Any] = []
        best_value = -math.inf
        for action in actions:
            found = value(game.trial(seat, action), seat)
            if self.noise:
                found += self.rng.gauss(0.0, self.noise)
            if found > best_value + 1e-9:
                best, best_value = [action], found
            elif found > best_value - 1e-9:
                best.append(action)
        return best[0] if len(best) == 1 else self.rng.choice(best)

    def rank(self, game: Any, seat: int, actions: Sequence[Any]) -> list[tuple[float, Any]]:
        assert isinstance(game, DiceGame)
        valued = [(value(game.trial(seat, a), seat), a) for a in actions]
        order = sorted(range(len(valued)), key=lambda i: -valued[i][0])
        return [valued[i] for i in order]


__all__ = ["DiceGreedy", "value"]
