"""Players that choose actions from what a real player may see.

A bot is any object with ``name`` and ``choose(game, seat) -> Action``.  The
rules of the house for bots: look only at ``game.view(seat)``,
``game.legal_actions(seat)`` and ``game.score_sheet()`` of games you play out
yourself, and sample hidden cards with ``game.determinize(seat, rng)`` — never
at other players' hands directly.  ``BOTS`` maps the names the command line
accepts to factories taking a seed.
"""

from __future__ import annotations

from typing import Callable, Protocol

from wonders.engine.contract import AnyAction, GameState
from wonders.bots.greedy import GreedyBot
from wonders.bots.mcts import MCTSBot
from wonders.bots.random_bot import QuickRandomBot, RandomBot


class Bot(Protocol):
    name: str

    def choose(self, game: GameState, seat: int) -> AnyAction: ...


BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "quick": QuickRandomBot,
    "greedy": GreedyBot,
    "mcts": MCTSBot,
}


def make_bot(name: str, seed: int) -> Bot:
    """A bot by registry name (raises KeyError for an unknown name)."""
    return BOTS[name](seed)


__all__ = ["BOTS", "Bot", "QuickRandomBot", "RandomBot", "make_bot"]
