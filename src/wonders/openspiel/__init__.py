"""Every shipped game as an OpenSpiel Python game (``pip install 'wonders[openspiel]'``).

>>> import pyspiel
>>> import wonders.openspiel                       # registers every shipped game
>>> game = pyspiel.load_game("wonders_base", {"players": 4, "seed": 1})
>>> state = game.dealt_state(1)                     # the deal of 'wonders play --seed 1'
>>> state.is_simultaneous_node()                   # everyone chooses a wonder side at once
True

One name per shipped game and expansion rule set (:data:`GAMES`): ``wonders_base``,
``wonders_base2e``, ``wonders_duel``, ``wonders_dice``, ``wonders_architects``, ``wonders_leaders``,
``wonders_cities``, ``wonders_leaders_cities``; parameters ``players`` and ``seed``.
:func:`register` adds a rule set of one's own under a name.  How chance, simultaneous
decisions, information states and returns map is in ``docs/openspiel.md``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

try:
    import pyspiel
except ImportError as missing:  # pragma: no cover - depends on the installation
    raise ImportError(f"wonders.openspiel needs OpenSpiel ({missing.name} is not installed): "
                      "pip install 'wonders[openspiel]'") from None

from wonders.openspiel.actions import ActionCatalogue, UnmappedActionError, slot_of
from wonders.openspiel.game import WondersGame, WondersObserver, WondersState, game_type

if TYPE_CHECKING:
    from wonders.dsl.model import Game as GameData

#: OpenSpiel name -> the shipped game or expansion it plays (``wonders --game`` names).
GAMES: dict[str, str] = {
    "wonders_base": "base",
    "wonders_base2e": "base2e",
    "wonders_duel": "duel",
    "wonders_dice": "dice",
    "wonders_leaders": "leaders",
    "wonders_cities": "cities",
    "wonders_leaders_cities": "leaders-cities",
    "wonders_architects": "architects",
    "wonders_pantheon": "pantheon",
    "wonders_agora": "agora",
    "wonders_pantheon_agora": "pantheon-agora",
}

_DATA: dict[str, GameData] = {}   # OpenSpiel name -> its loaded data (loaded once)
_CLASSES: list[type[WondersGame]] = []   # the registered game classes


def short_name(game: str) -> str:
    """The OpenSpiel name of a shipped game: ``leaders-cities`` -> ``wonders_leaders_cities``."""
    return "wonders_" + game.replace("-", "_")


def register(name: str, game: str | os.PathLike[str] | GameData) -> None:
    """Register a rule set (a shipped name, a rule-set path or loaded data) with OpenSpiel
    as ``name``; a name already registered by this module is left as it is."""
    if name in _DATA:
        return
    if isinstance(game, (str, os.PathLike)):
        from wonders import load_game

        data = load_game(game)
    else:
        data = game
    _DATA[name] = data

    # A class, as OpenSpiel's own Python games register: the registry keeps it to the
    # end of the process (a closure freed then, after Python has gone, aborts the exit).
    game_class = type(f"WondersGame_{name}", (WondersGame,),
                      {"short_name": name, "rule_data": data, "__module__": __name__})
    _CLASSES.append(game_class)
    pyspiel.register_game(game_type(name, data), game_class)


def register_shipped() -> None:
    """Register every shipped game under its :data:`GAMES` name (each is loaded once)."""
    for name, game in GAMES.items():
        register(name, game)


register_shipped()

__all__ = ["GAMES", "ActionCatalogue", "UnmappedActionError", "WondersGame", "WondersObserver",
           "WondersState", "register", "register_shipped", "short_name", "slot_of"]
