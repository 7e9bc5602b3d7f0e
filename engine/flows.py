"""Former home of the loop choice, kept so existing imports work: see :mod:`.registry`.

New code imports :class:`~.contract.GameState` and :func:`~.registry.new_game` directly.
"""

from __future__ import annotations

from .contract import GameState as AnyGame
from .registry import default_players, load_new_game, new_game

__all__ = ["AnyGame", "default_players", "load_new_game", "new_game"]
