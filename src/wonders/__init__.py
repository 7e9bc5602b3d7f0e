"""wonders: a declarative rules engine for the 7 Wonders family of games.

Cards, wonders and rules are data (``cards/<game>/*.yaml``); every game, whatever
its loop, is played through one contract, :class:`GameState`::

    >>> import wonders
    >>> game = wonders.new_game("duel", seed=7)          # a shipped name or a rule-set path
    >>> while not game.over:
    ...     decision = game.decision()                    # its kind and who decides it at once
    ...     game.play({seat: game.legal_actions(seat)[0] for seat in decision.seats})
    >>> sheet = game.score_sheet()
    >>> len(sheet.totals), sheet.winners == sheet.ranking()[:len(sheet.winners)]
    (2, True)
    >>> data = wonders.load_game("base")                 # load once, play many games
    >>> bots = [wonders.make_bot("random", seat) for seat in range(4)]
    >>> game = wonders.new_game(data, players=4, seed=1)
    >>> while not game.over:
    ...     game.play({s: bots[s].choose(game, s) for s in game.to_move()})
    >>> sorted(game.score_sheet().to_json())
    ['order', 'players', 'victory', 'winners']

Illegal moves raise :class:`IllegalActionError` (a :class:`RuleError`) saying why;
data that does not load raises :class:`DataError` with every located diagnostic.
Everything is imported on first use: ``import wonders`` alone loads nothing, and the
engine never needs the YAML and effect-language stack once a game is loaded.
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Any, Sequence

if TYPE_CHECKING:
    from wonders.bots import BOTS, Bot, make_bot
    from wonders.dsl.errors import DataError, EffectSyntaxError, WondersError
    from wonders.dsl.model import Game as GameData
    from wonders.engine.actions import (
        Action,
        Build,
        BuildFromDiscard,
        BuildStage,
        BuildWonder,
        ChooseSide,
        ChooseStarter,
        ChooseWonder,
        CopyCard,
        DestroyCard,
        Keep,
        PayOrTake,
        Sell,
        Skip,
        TakeToken,
    )
    from wonders.engine.contract import Decision, GameState
    from wonders.engine.errors import IllegalActionError, RuleError
    from wonders.engine.payment import Payment
    from wonders.engine.scoring import ScoreSheet
    from wonders.engine.sources import SourceError

# public name -> the module that defines it, ":name" when named otherwise there
# (imported when the name is first used)
_LAZY: dict[str, str] = {
    "GameState": "wonders.engine.contract",
    "Decision": "wonders.engine.contract",
    "GameData": "wonders.dsl.model:Game",
    "Action": "wonders.engine.actions",
    "Build": "wonders.engine.actions",
    "BuildStage": "wonders.engine.actions",
    "BuildWonder": "wonders.engine.actions",
    "BuildFromDiscard": "wonders.engine.actions",
    "Sell": "wonders.engine.actions",
    "Skip": "wonders.engine.actions",
    "ChooseSide": "wonders.engine.actions",
    "ChooseWonder": "wonders.engine.actions",
    "ChooseStarter": "wonders.engine.actions",
    "TakeToken": "wonders.engine.actions",
    "DestroyCard": "wonders.engine.actions",
    "Keep": "wonders.engine.actions",
    "PayOrTake": "wonders.engine.actions",
    "CopyCard": "wonders.engine.actions",
    "Payment": "wonders.engine.payment",
    "ScoreSheet": "wonders.engine.scoring",
    "WondersError": "wonders.dsl.errors",
    "DataError": "wonders.dsl.errors",
    "EffectSyntaxError": "wonders.dsl.errors",
    "RuleError": "wonders.engine.errors",
    "IllegalActionError": "wonders.engine.errors",
    "SourceError": "wonders.engine.sources",
    "BOTS": "wonders.bots",
    "Bot": "wonders.bots",
    "make_bot": "wonders.bots",
}


def load_game(game: str | os.PathLike[str],
              paths: Sequence[str | os.PathLike[str]] = ()) -> GameData:
    """Load a game: a shipped name (``"base"``, ``"duel"``) or a rule-set file or folder,
    plus optional extra card files.  Raises :class:`DataError` (every located problem)
    or :class:`SourceError` (nothing by that name)."""
    from wonders.dsl.loader import load_game as load
    from wonders.engine.sources import resolve

    source = resolve(os.fspath(game))
    return load([*source.paths, *(os.fspath(p) for p in paths)], source.name)


def new_game(game: str | os.PathLike[str] | GameData, players: int | None = None,
             seed: int = 0, *, paths: Sequence[str | os.PathLike[str]] = (),
             **options: Any) -> GameState:
    """Set up a game: of loaded data, or of a shipped name or rule-set path (loaded
    first, with ``paths``).  ``players`` defaults to the rule set's usual count; the
    loop its rule set selects takes the ``options`` (``sides="B"`` …)."""
    from wonders.engine.registry import new_game as setup

    if isinstance(game, (str, os.PathLike)):
        data = load_game(game, paths)
    else:
        if paths:
            raise TypeError("paths only go with a game given by name or path")
        data = game
    return setup(data, players, seed, **options)


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("wonders")
        except PackageNotFoundError:  # pragma: no cover - run from a bare source tree
            found = "0+unknown"
        globals()[name] = found
        return found
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module 'wonders' has no attribute '{name}'")
    module, _, attribute = where.partition(":")
    value = getattr(importlib.import_module(module), attribute or name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__version__: str
__all__ = [
    "__version__", "load_game", "new_game",
    "GameState", "Decision", "GameData",
    "Action", "Build", "BuildStage", "BuildWonder", "BuildFromDiscard", "Sell", "Skip",
    "ChooseSide", "ChooseWonder", "ChooseStarter", "TakeToken", "DestroyCard", "Keep",
    "PayOrTake", "CopyCard",
    "Payment", "ScoreSheet",
    "WondersError", "DataError", "EffectSyntaxError", "RuleError", "IllegalActionError",
    "SourceError",
    "BOTS", "Bot", "make_bot",
]
