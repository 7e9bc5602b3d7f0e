"""What a loop's greedy policy offers the bots that work in every game.

Each registered loop names its greedy policy (:class:`wonders.engine.registry.Loop`
``greedy``): a class built as ``Policy(seed, noise=0.0, fast=False)`` that knows
how to value the actions of its own loop.  :class:`~.greedy.GreedyBot` plays it,
and :class:`~.mcts.MCTSBot` uses ``rank`` for its shortlist and ``choose`` (fast and
a little noisy) for its playouts, so neither needs to know which loop runs.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any, Callable, Protocol, Sequence, TypeVar

from wonders.engine.contract import AnyAction, GameState
from wonders.engine.registry import loop_for

if TYPE_CHECKING:
    from wonders.dsl.model import Game as GameData

#: The game class a policy values (each loop's policy takes its own loop's games).
G = TypeVar("G", bound=GameState, contravariant=True)


class Policy(Protocol[G]):
    """A greedy policy of one loop."""

    def choose(self, game: G, seat: int) -> AnyAction:
        """The best action for ``seat`` now by the policy's estimate (ties by its own generator)."""

    def rank(self, game: G, seat: int,
             actions: Sequence[Any]) -> list[tuple[float, Any]]:
        """``actions`` (the loop's own) valued for ``seat``, best first, one entry per
        distinct choice (a card paid for in several ways is one choice: its best
        payment); no noise."""


class PolicyFactory(Protocol[G]):
    def __call__(self, seed: int = 0, noise: float = 0.0,
                 fast: bool = False) -> Policy[G]: ...


A = TypeVar("A")


def best_of(actions: Sequence[A], value: Callable[[A], float], rng: random.Random,
            noise: float) -> A:
    """The action of highest ``value`` (plus a normal error of spread ``noise`` each, drawn
    in order), ties within 1e-9 broken by ``rng``: every loop's greedy policy chooses so."""
    best: list[A] = []
    best_value = -math.inf
    for action in actions:
        found = value(action)
        if noise:
            found += rng.gauss(0.0, noise)
        if found > best_value + 1e-9:
            best, best_value = [action], found
        elif found > best_value - 1e-9:
            best.append(action)
    return best[0] if len(best) == 1 else rng.choice(best)


def greedy_policy(data: GameData) -> PolicyFactory[Any]:
    """The greedy policy class registered for the loop that plays ``data``."""
    return loop_for(data).greedy()


__all__ = ["Policy", "PolicyFactory", "best_of", "greedy_policy"]
