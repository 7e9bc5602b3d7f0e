"""A bot that picks uniformly among the legal actions, with its own seeded generator."""

from __future__ import annotations

import random

from ..actions import Action
from ..contract import GameState


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: GameState, seat: int) -> Action:
        return self.rng.choice(game.legal_actions(seat))
