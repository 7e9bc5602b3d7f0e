"""PettingZoo environments for every game the engine plays (``pip install 'wonders[env]'``).

>>> from wonders.env import env, parallel_env
>>> aec = env("base", players=3)          # AEC: one agent at a time
>>> aec.reset(seed=1)                      # the game 'wonders play --seed 1' deals
>>> par = parallel_env("base", players=3)  # parallel: every agent at once
>>> single = gym_env("duel", opponents="greedy")  # Gymnasium: one seat against bots
>>> many = vector_env("base", 8)           # 8 of those stepped at once

Every observation is ``{"observation": vector, "action_mask": 0/1 per action}``,
built from what the agent's seat may see (:meth:`GameState.view`); the action space
is a fixed ``Discrete(n)`` for the rule set and player count (``docs/env.md``);
rewards come at the end, from the final ranking.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

try:
    import gymnasium  # noqa: F401
    import numpy  # noqa: F401
    import pettingzoo  # type: ignore[import-untyped] # noqa: F401
except ImportError as missing:  # pragma: no cover - depends on the installation
    raise ImportError(f"wonders.env needs PettingZoo, Gymnasium and NumPy ({missing.name} is "
                      "not installed): pip install 'wonders[env]'") from None

from wonders.env.aec import WondersEnv, WondersParallelEnv
from wonders.env.core import rewards_of
from wonders.env.observe import (
    DraftEncoder,
    Encoder,
    Spaces,
    StructureEncoder,
    ViewEncoder,
    spaces_for,
)
from wonders.env.single import WondersGymEnv, gym_env, vector_env
from wonders.env.spaces import ActionCatalogue, EnvError, UnmappedActionError, slot_of

if TYPE_CHECKING:
    from wonders.dsl.model import Game as GameData


def env(game: "str | GameData" = "base", players: int | None = None, **kwargs: Any
        ) -> WondersEnv:
    """The AEC environment of a game (a shipped game or expansion name, a rule-set path
    or loaded data)."""
    return WondersEnv(game, players, **kwargs)


def parallel_env(game: "str | GameData" = "base", players: int | None = None, **kwargs: Any
                 ) -> WondersParallelEnv:
    """The parallel environment of a game: every agent acts at each step."""
    return WondersParallelEnv(game, players, **kwargs)


__all__ = ["ActionCatalogue", "DraftEncoder", "Encoder", "EnvError", "Spaces",
           "StructureEncoder", "UnmappedActionError", "ViewEncoder", "WondersEnv",
           "WondersGymEnv", "WondersParallelEnv", "env", "gym_env", "parallel_env",
           "rewards_of", "slot_of", "spaces_for", "vector_env"]
