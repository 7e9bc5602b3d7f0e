"""Bots that play at random, each with its own seeded generator."""

from __future__ import annotations

import random
from typing import Any

from wonders.engine.contract import AnyAction, GameState
from wonders.engine.randomness import below


class RandomBot:
    """Uniformly one of the legal actions (``rng.choice``)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: GameState, seat: int) -> AnyAction:
        return self.rng.choice(game.legal_actions(seat))


class QuickRandomBot:
    """A random legal action drawn by the loop's sampler without listing every legal
    action (``random_action(seat, rng)``: in the draft loop a card, then a kind of action,
    then a payment, each uniformly), or uniformly from the legal actions in a loop
    without one.  The choices of the ``quick`` policy of
    :func:`wonders.engine.playout.playout`, one seat at a time."""

    name = "quick"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: GameState, seat: int) -> AnyAction:
        sampler: Any = getattr(game, "random_action", None)
        if sampler is not None:
            found: AnyAction = sampler(seat, self.rng)
            return found
        actions = game.legal_actions(seat)
        return actions[below(self.rng, len(actions))]
