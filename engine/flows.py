"""Former home of the loop choice, kept so existing imports work: see :mod:`.registry`."""

from __future__ import annotations

from .contract import GameState as AnyGame
from .registry import default_players, load_new_game, new_game, offer_of as offer_mechanism

__all__ = ["AnyGame", "default_players", "load_new_game", "new_game", "offer_mechanism"]
