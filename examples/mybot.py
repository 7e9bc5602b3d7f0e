"""A bot written outside the package, for every game: it builds what costs it the fewest coins.

A bot is any object with a ``name`` and ``choose(game, seat)`` returning one of
``game.legal_actions(seat)``; the command line makes one per seat, calling the class
with a seed.  From the repository's folder (the current folder is searched for the
module):

    wonders play --bots examples.mybot:ThriftyBot,random,random
    wonders play --game duel --bots examples.mybot:ThriftyBot,greedy
    wonders simulate --games 200 --bots examples.mybot:ThriftyBot,random,random,random
    wonders play --bots examples.mybot:first_action      # a choose(game, seat) function

An installed package makes a name of it with an entry point (pyproject.toml):

    [project.entry-points."wonders.bots"]
    thrifty = "mypackage.mybot:ThriftyBot"

and then ``--bots thrifty`` works everywhere a bot is named (docs/engine.md, "Bots").
"""

from __future__ import annotations

import random
from typing import Any

from wonders import GameState
from wonders.engine.notation import notation

# What an action does, by the first word of its notation: building something first
BUILDS = {"build", "stage", "wonder", "cross"}


class ThriftyBot:
    """Builds whatever it can for the fewest coins (a card, a wonder stage, a Dice space),
    sells or passes only when it can build nothing; ties are broken at random.

    It looks at nothing but its legal actions: what it pays is part of each action."""

    name = "thrifty"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: GameState, seat: int) -> Any:
        actions = game.legal_actions(seat)
        return min(actions, key=lambda action: (*self.cost(action), self.rng.random()))

    @staticmethod
    def cost(action: Any) -> tuple[int, int]:
        """(0 for a build, else 1; the coins it pays)."""
        verb = notation(action).split()[0]      # e.g. "build Library pay L2 R3"
        payment = getattr(action, "payment", None)
        coins = payment.total if payment is not None else getattr(action, "pay", 0)
        return (0 if verb in BUILDS else 1, coins)


def first_action(game: GameState, seat: int) -> Any:
    """The simplest bot of all: a function of (game, seat), the first legal action."""
    return game.legal_actions(seat)[0]
