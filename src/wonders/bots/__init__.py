"""Players that choose actions from what a real player may see, and how to plug one in.

A bot is any object with ``name`` and ``choose(game, seat) -> Action``.  The
rules of the house for bots: look only at ``game.view(seat)``,
``game.legal_actions(seat)`` and ``game.score_sheet()`` of games you play out
yourself, and sample hidden cards with ``game.determinize(seat, rng)`` — never
at other players' hands directly.  ``BOTS`` maps the shipped names to factories
taking a seed.

Everywhere a bot is named (``--bots`` of ``wonders play`` and ``simulate``, the web
table's seats, :func:`make_bot`), a name is one of:

* a shipped name (``random``, ``greedy`` …: :data:`BOTS`);
* a name an installed package registers in the entry-point group ``wonders.bots``
  (``[project.entry-points."wonders.bots"] mybot = "mypackage.bots:MyBot"``);
* ``module:attribute``: a class or a function of an importable module (the current
  folder is searched as well, as ``python -m`` would).

What the name gives is called with the seed (a class or a factory function taking
one argument), or, for a function of two parameters ``(game, seat)``, is the
``choose`` of a bot named by the name.  A bot not shipped comes wrapped in
:class:`Plugged`, which turns its failures into a :class:`BotError`.  A name is a plain
string, so it travels to the worker processes of a simulation, which resolve it again.
"""

from __future__ import annotations

import importlib
import os
import sys
from functools import cache
from typing import Any, Callable, Protocol

from wonders.bots.greedy import GreedyBot
from wonders.bots.mcts import MCTSBot
from wonders.bots.random_bot import QuickRandomBot, RandomBot
from wonders.dsl.errors import WondersError, closest
from wonders.engine.contract import AnyAction, GameState

ENTRY_POINTS = "wonders.bots"


class Bot(Protocol):
    name: str

    def choose(self, game: GameState, seat: int) -> AnyAction: ...


BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "quick": QuickRandomBot,
    "greedy": GreedyBot,
    "mcts": MCTSBot,
}


class BotError(WondersError):
    """A bot name that names no bot, or whose bot cannot be made; the message says why."""


@cache
def installed_bots() -> dict[str, Any]:
    """The entry points of the group ``wonders.bots`` by name (read once per process)."""
    from importlib.metadata import entry_points

    return {point.name: point for point in entry_points(group=ENTRY_POINTS)}


def known_bots() -> list[str]:
    """Every bot name that needs no ``module:`` part: shipped, then installed."""
    return [*BOTS, *(name for name in installed_bots() if name not in BOTS)]


class Plugged:
    """A bot not shipped with the package, as :func:`make_bot` gives it: its ``choose``
    with a failure turned into a :class:`BotError` naming the bot, the seat and the place
    in its code (what the command line prints instead of a traceback).  ``bot`` is the
    object itself (None for a bot that is a ``choose(game, seat)`` function)."""

    def __init__(self, name: str, bot: Any, choose: Callable[[GameState, int], AnyAction]
                 ) -> None:
        self.name = name
        self.bot = bot
        self._choose = choose

    def choose(self, game: GameState, seat: int) -> AnyAction:
        try:
            return self._choose(game, seat)
        except Exception as exc:
            raise BotError(f"bot '{self.name}' failed choosing for player {seat}: "
                           f"{type(exc).__name__}: {exc}{_where(exc)}") from exc


def _where(error: BaseException) -> str:
    """`` (file:line)`` of the innermost frame of ``error``'s traceback."""
    import traceback  # (only when a bot failed)

    frames = traceback.extract_tb(error.__traceback__)
    return f" ({frames[-1].filename}:{frames[-1].lineno})" if frames else ""


def _import(spec: str) -> Any:
    """The attribute ``module:attribute`` names (the attribute may be dotted)."""
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise BotError(f"bot '{spec}': write module:Class or module:function "
                       "(e.g. mybots:CautiousBot)")
    try:
        module = _import_module(module_name)
    except BotError:
        raise
    except Exception as exc:   # the module's own error: say which, not a traceback
        raise BotError(f"bot '{spec}': importing {module_name} failed: "
                       f"{type(exc).__name__}: {exc}") from exc
    found: Any = module
    for part in attribute.split("."):
        if not hasattr(found, part):
            names = [n for n in dir(found) if not n.startswith("_")]
            hint = closest(part, names)
            raise BotError(f"bot '{spec}': {module_name} has no '{attribute}'"
                           + (f"; did you mean '{hint}'?" if hint else ""))
        found = getattr(found, part)
    return found


def _import_module(name: str) -> Any:
    """Import ``name``, looking in the current folder too when it is not on the path (a
    console script's path does not hold it; ``python -m`` does)."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if not _names(exc, name):
            raise    # something the bot's module imports is missing: its own error
    here = os.path.abspath(os.curdir)
    if here not in {os.path.abspath(p or os.curdir) for p in sys.path}:
        sys.path.append(here)
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if not _names(exc, name):
                raise
    raise BotError(f"no module named '{name}' (for the bot '{name}:…'): is it installed, "
                   "or in the current folder?")


def _names(error: ModuleNotFoundError, name: str) -> bool:
    """Whether ``error`` says ``name`` itself (or a package it is in) is missing."""
    missing = error.name or ""
    return name == missing or name.startswith(missing + ".")


def _factory(spec: str, made_of: Any) -> Callable[[int], Bot]:
    """A factory taking a seed, from what a name gave (a class, a factory function or a
    ``choose(game, seat)`` function)."""
    import inspect  # (only for a bot not shipped: 7 ms of imports)

    if not callable(made_of):
        raise BotError(f"bot '{spec}' is a {type(made_of).__name__}, not a class or a "
                       "function")
    if not inspect.isclass(made_of):
        try:
            parameters = [p for p in inspect.signature(made_of).parameters.values()
                          if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY,
                                                                 p.POSITIONAL_OR_KEYWORD)]
        except (TypeError, ValueError):
            parameters = []
        if len(parameters) == 2:   # choose(game, seat) itself
            return lambda seed: Plugged(spec, None, made_of)

    def make(seed: int) -> Bot:
        try:
            bot = made_of(seed)
        except Exception as exc:
            raise BotError(f"bot '{spec}': making it with seed {seed} failed: "
                           f"{type(exc).__name__}: {exc}{_where(exc)}") from exc
        if not callable(getattr(bot, "choose", None)):
            raise BotError(f"bot '{spec}' made a {type(bot).__name__} without a "
                           "choose(game, seat) method")
        name = getattr(bot, "name", None)
        return Plugged(name if isinstance(name, str) else spec, bot, bot.choose)

    return make


def bot_factory(name: str) -> Callable[[int], Bot]:
    """What makes the bot ``name`` names from a seed (see the module's docstring); a
    :class:`BotError` with a "did you mean" and the known names otherwise."""
    if not isinstance(name, str):
        raise BotError(f"a bot name is a string, not {type(name).__name__}")
    shipped = BOTS.get(name)
    if shipped is not None:
        return shipped
    if ":" in name:
        return _factory(name, _import(name))
    point = installed_bots().get(name)
    if point is not None:
        try:
            loaded = point.load()
        except Exception as exc:
            raise BotError(f"bot '{name}' (entry point {point.value}) does not load: "
                           f"{type(exc).__name__}: {exc}") from exc
        return _factory(name, loaded)
    known = known_bots()
    hint = closest(name, known)
    raise BotError(f"no bot named '{name}'" + (f" (did you mean '{hint}'?)" if hint else "")
                   + f"; known: {', '.join(known)}; or module:Class for a bot of your own")


def make_bot(name: str, seed: int) -> Bot:
    """The bot ``name`` names (shipped, installed or ``module:Class``), seeded; raises
    :class:`BotError` for a name that names no bot."""
    return bot_factory(name)(seed)


__all__ = ["BOTS", "Bot", "BotError", "ENTRY_POINTS", "Plugged", "QuickRandomBot", "RandomBot",
           "bot_factory", "installed_bots", "known_bots", "make_bot"]
