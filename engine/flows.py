"""Which game loop plays a rule set: chosen by the data's ``offer.mechanism``.

A rule set names how cards are offered; the offer decides the shape of a turn,
so it selects the loop, and the loop reads its other slots (trade, military,
science, end) from the same rule set:

* ``draft`` — hands passed around the table, everyone plays at once
  (:class:`wonders.engine.game.Game`, the base game);
* ``structure`` — cards taken in turn from overlapping rows
  (:class:`wonders.engine.structure_game.StructureGame`, 7 Wonders Duel).

Every loop has the same interface, so bots, logs, scenarios, simulation and
the command line work on any of them.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence, Union

from wonders.dsl.loader import load_game
from wonders.dsl.model import Game as GameData

from .errors import RuleError
from .game import Game
from .structure_game import StructureGame

AnyGame = Union[Game, StructureGame]

FLOWS: dict[str, Callable[..., AnyGame]] = {
    "draft": Game,
    "structure": StructureGame,
}


def offer_mechanism(data: GameData) -> str:
    offer = data.rules.parameters.get("offer")
    if isinstance(offer, dict):
        return str(offer.get("mechanism", "draft"))
    return "draft"


def default_players(data: GameData) -> int:
    """A sensible player count for the rule set: its minimum, at least 3 for drafting."""
    rules = data.rules
    return max(rules.min_players, min(3, rules.max_players))


def new_game(data: GameData, players: int | None = None, seed: int = 0,
             **options: Any) -> AnyGame:
    """Set up a game of the loaded data with the loop its rule set selects."""
    mechanism = offer_mechanism(data)
    flow = FLOWS.get(mechanism)
    if flow is None:
        raise RuleError(f"rule set '{data.rules.name}' offers cards by '{mechanism}'; the "
                        f"engine knows {', '.join(sorted(FLOWS))}")
    return flow(data, default_players(data) if players is None else players, seed, **options)


def load_new_game(game: str, players: int | None = None, seed: int = 0,
                  paths: Sequence[str] = (), **options: Any) -> AnyGame:
    """Load a shipped game (or a rule-set path) plus optional files, and set up a game."""
    return new_game(load_game(paths, game), players, seed, **options)
