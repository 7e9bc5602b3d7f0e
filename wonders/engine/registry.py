"""The registry of game loops: the only place that knows which loop plays a rule set.

A rule set names how cards are offered (``offer.mechanism``); the offer decides
the shape of a turn, so it selects the loop, and the loop reads its other slots
(trade, military, science, end) from the same rule set.  Like python-chess's
variants, each loop registers itself here with what the rest of the engine needs
from it *beyond* the game contract (:mod:`wonders.engine.contract`): the runner of
its rule scenarios, its terminal UI and its greedy policy.  Those are named as
``"module:attribute"`` and imported when first used, so loading a game never
pulls in the command line.

Everything else — bots, logs, simulations, scenarios, the command line — asks
the registry, never a concrete loop class: a new game registers here and nothing
else is edited.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence, cast

from wonders.engine import memo
from wonders.engine.errors import RuleError

if TYPE_CHECKING:
    from wonders.dsl.model import Game as GameData

    from wonders.engine.contract import GameState


@dataclass(frozen=True)
class Loop:
    """A registered game loop and its companions (each ``"module:attribute"``)."""

    offer: str           # the ``offer.mechanism`` it plays
    game: str            # the GameState class: ``Class(data, players, seed, **options)``
    scenarios: str       # the scenario runner class (``wonders check``)
    terminal: str        # ``play(game, seat, bots) -> bool``: a human at the terminal
    greedy: str          # the greedy policy class: ``Policy(seed, noise, fast)`` with
                         # ``choose(game, seat)`` and ``rank(game, seat, actions)``
                         # (:mod:`wonders.bots.policy`)
    summary: str         # one line for people
    encoder: str = ""    # the agent environment's observation encoder class,
                         # ``Encoder(data, players)`` (:mod:`wonders.env.observe`; "": the
                         # environment walks ``view``)

    def load(self, which: str) -> Any:
        """Import one companion by its field name (``game``, ``scenarios`` …)."""
        return load_attribute(getattr(self, which))


LOOPS: dict[str, Loop] = {}


def register(loop: Loop) -> Loop:
    """Add a loop (a later registration of the same offer replaces the earlier one)."""
    LOOPS[loop.offer] = loop
    return loop


_LOADED: dict[str, Any] = {}  # spec -> the object (new_game asks for it on every game)


def load_attribute(spec: str) -> Any:
    """``"package.module:name"`` -> the object (raises ImportError/AttributeError)."""
    found = _LOADED.get(spec)
    if found is None:
        module, _, name = spec.partition(":")
        found = _LOADED[spec] = getattr(importlib.import_module(module), name)
    return found


register(Loop(
    offer="draft",
    game="wonders.engine.game:Game",
    scenarios="wonders.scenarios.draft:DraftRunner",
    terminal="wonders.cli.human:play_human",
    greedy="wonders.bots.greedy:DraftGreedy",
    summary="hands passed around the table, everyone plays at once (7 Wonders)",
    encoder="wonders.env.observe:DraftEncoder",
))
register(Loop(
    offer="structure",
    game="wonders.engine.structure_game:StructureGame",
    scenarios="wonders.scenarios.structure:StructureRunner",
    terminal="wonders.cli.structure_human:play_structure_human",
    greedy="wonders.bots.greedy_structure:StructureGreedy",
    summary="cards taken in turn from overlapping rows (7 Wonders Duel)",
    encoder="wonders.env.observe:StructureEncoder",
))
register(Loop(
    offer="dice",
    game="wonders.engine.dice_game:DiceGame",
    scenarios="wonders.scenarios.dice:DiceRunner",
    terminal="wonders.cli.dice_human:play_dice_human",
    greedy="wonders.bots.greedy_dice:DiceGreedy",
    summary="dice shaken into a shared forum, sheets crossed by everyone at once "
            "(7 Wonders Dice)",
))


def offer_of(data: GameData) -> str:
    """The rule set's offer mechanism (its typed ``offer`` section holds the default)."""
    return data.rules.model.offer.mechanism


def loop_for(data: GameData) -> Loop:
    """The registered loop that plays ``data``'s rule set."""
    mechanism = offer_of(data)
    loop = LOOPS.get(mechanism)
    if loop is None:
        raise RuleError(f"rule set '{data.rules.name}' offers cards by '{mechanism}'; the "
                        f"engine knows {', '.join(sorted(LOOPS))}")
    return loop


def default_players(data: GameData) -> int:
    """A sensible player count for the rule set: its minimum, at least 3 when it allows 3."""
    rules = data.rules
    return max(rules.min_players, min(3, rules.max_players))


_FACTORY = "registry.game"  # new_game's entry in GameData.derived: the loop's game class


def new_game(data: GameData, players: int | None = None, seed: int = 0,
             **options: Any) -> GameState:
    """Set up a game of the loaded data with the loop its rule set selects.

    The game class is found once per data set (and loop) and kept in its ``derived`` dict: this
    module is interpreted, and finding the loop, loading its class and watching the data
    on every game cost about a tenth of a random Duel game's set-up.
    """
    derived = data.derived
    # (the offer, its loop and the loop's class): used while that loop is still the one
    # registered for the offer (a later registration may replace it)
    kept = cast("tuple[str, Loop, Callable[..., GameState]] | None", derived.get(_FACTORY))
    if kept is not None and LOOPS.get(kept[0]) is kept[1]:
        factory = kept[2]
    else:
        loop = loop_for(data)
        factory = cast(Callable[..., "GameState"], loop.load("game"))
        memo.watch(data)  # any loop: the memo tables are emptied when the data is dropped
        derived[_FACTORY] = (loop.offer, loop, factory)
    return factory(data, default_players(data) if players is None else players, seed, **options)


def load_new_game(game: str, players: int | None = None, seed: int = 0,
                  paths: Sequence[str] = (), **options: Any) -> GameState:
    """Load a shipped game (or a rule-set path) plus optional files, and set up a game."""
    from wonders.dsl.loader import load_game  # the language stack, only when loading

    return new_game(load_game(paths, game), players, seed, **options)


__all__ = ["LOOPS", "Loop", "default_players", "load_attribute", "load_new_game", "loop_for",
           "new_game", "offer_of", "register"]
