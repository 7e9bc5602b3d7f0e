"""A Gymnasium single-agent environment: one seat is the agent, bots play the others.

>>> from wonders.env import gym_env, vector_env
>>> single = gym_env("duel", seat=0, opponents="greedy")
>>> observation, info = single.reset(seed=1)
>>> many = vector_env("base", 8, players=3, opponents="random")   # 8 games stepped at once

It is the AEC environment (:class:`~wonders.env.aec.WondersEnv`) with the other seats'
decisions taken by bots between the agent's own, so the spaces, the ids, the masks and
the rewards are the same.  The vectorised form is Gymnasium's own ``SyncVectorEnv`` over
such environments (batched observations and masks, next-step autoreset).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

import gymnasium
import numpy as np

from wonders.env.aec import WondersEnv, _integer
from wonders.env.spaces import EnvError

if TYPE_CHECKING:
    from wonders.dsl.model import Game as GameData


def _factory(opponent: object) -> Callable[[int], Any]:
    """A bot factory (seed -> bot) from a bot name (``wonders.make_bot``), a factory or a
    bot object (then the same object plays every game)."""
    if isinstance(opponent, str):
        from wonders.bots import BOTS, make_bot

        if opponent not in BOTS:
            raise EnvError(f"no bot named {opponent!r}: the bots are {', '.join(sorted(BOTS))}")
        return lambda seed: make_bot(opponent, seed)
    if hasattr(opponent, "choose"):
        return lambda seed: opponent
    if callable(opponent):
        return opponent
    raise EnvError(f"an opponent is a bot name, a bot (with choose(game, seat)) or a factory "
                   f"seed -> bot, not {opponent!r}")


class WondersGymEnv(gymnasium.Env[dict[str, Any], int]):
    """One seat of a game against bots, as a Gymnasium environment.

    ``WondersGymEnv(game="base", players=None, seat=0, opponents="random")``:
    ``opponents`` is one bot name (``random``, ``quick``, ``greedy``, ``mcts``), bot or
    factory for every other seat, or a sequence of them, one per other seat in seat
    order; a bot named or made by a factory is seeded from the game's seed and its seat,
    so a game is a function of the seed and the agent's actions.  The other arguments
    are :class:`WondersEnv`'s.  ``reset`` and ``step`` return the agent's observation
    (``{"observation", "action_mask"}``) and ``info`` with the decision's kind and the
    mask (``info["action_mask"]``, as Gymnasium's masked agents read it); the reward is
    0 until the game ends, then the agent's final reward (:func:`rewards_of`)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}

    def __init__(self, game: str | GameData = "base", players: int | None = None,
                 seat: int = 0, opponents: object = "random", paths: tuple[str, ...] = (),
                 illegal: str = "raise", render_mode: str | None = None,
                 options: Mapping[str, Any] | None = None) -> None:
        self.aec = WondersEnv(game, players, paths, illegal, render_mode, options)
        count = self.aec.players
        self.seat = _integer(seat, "seat")
        if not 0 <= self.seat < count:
            raise EnvError(f"no seat {self.seat}: the seats are 0 to {count - 1}")
        self.agent = self.aec.possible_agents[self.seat]
        others = [s for s in range(count) if s != self.seat]
        if isinstance(opponents, Sequence) and not isinstance(opponents, str):
            if len(opponents) != len(others):
                raise EnvError(f"{len(opponents)} opponents for {len(others)} other seats "
                               f"({', '.join(map(str, others))})")
            chosen = list(opponents)
        else:
            chosen = [opponents] * len(others)
        self._factories = {s: _factory(o) for s, o in zip(others, chosen)}
        self.bots: dict[int, Any] = {}
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self.render_mode = render_mode

    @property
    def game(self) -> Any:
        """The game being played (None before the first reset)."""
        return self.aec.game

    def _advance(self) -> None:
        """Let the bots decide until the agent does, or the game ends."""
        aec = self.aec
        while aec.agents:
            agent = aec.agent_selection
            if aec.terminations[agent] or aec.truncations[agent]:
                return
            seat = aec.agent_seats[agent]
            if seat == self.seat:
                return
            aec.step(self.bots[seat].choose(aec.game, seat))

    def _answer(self) -> tuple[dict[str, Any], dict[str, Any]]:
        observation = self.aec.observe_seat(self.seat)
        return observation, {"decision": self.aec.infos[self.agent]["decision"],
                             "action_mask": observation["action_mask"]}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        number = None if seed is None else _integer(seed, "seed")
        super().reset(seed=number)
        self.aec.reset(seed=number)  # (None: the seed after the last, as WondersEnv does)
        number = self.aec.game.seed if self.aec.game is not None else 0
        self.bots = {s: make(number * 64 + s) for s, make in self._factories.items()}
        self._advance()
        return self._answer()

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        aec = self.aec
        if aec.game is None:
            raise EnvError("no game yet: call reset() (or reset(seed=N)) first")
        if not aec.agents or aec.terminations[self.agent]:
            raise EnvError("the game is over: call reset() to play another")
        if aec.agent_selection != self.agent:  # (cannot happen: bots move in _advance)
            raise EnvError(f"{aec.agent_selection} decides now, not {self.agent}")
        aec.step(action)
        self._advance()
        observation, info = self._answer()
        over = bool(aec.terminations[self.agent])
        reward = float(aec._cumulative_rewards[self.agent]) if over else 0.0
        return observation, reward, over, False, info

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The agent's mask now (the name sb3-contrib's maskable agents call)."""
        return np.asarray(self.aec.observe_seat(self.seat)["action_mask"])

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()


def gym_env(game: str | GameData = "base", players: int | None = None, **kwargs: Any
            ) -> WondersGymEnv:
    """A Gymnasium single-agent environment: one seat against bots."""
    return WondersGymEnv(game, players, **kwargs)


def vector_env(game: str | GameData = "base", count: int = 8, players: int | None = None,
               **kwargs: Any) -> gymnasium.vector.SyncVectorEnv:
    """``count`` single-agent games stepped at once (Gymnasium's ``SyncVectorEnv``): batched
    observations ``{"observation": (count, n), "action_mask": (count, m)}``, rewards and
    flags; a game that ends is reset at the next step (Gymnasium's next-step autoreset).
    The data is loaded once and shared."""
    from wonders.env.aec import _load

    count = _integer(count, "count")
    if count < 1:
        raise EnvError(f"count is how many games to step at once (1 or more), not {count}")
    paths = kwargs.pop("paths", ())
    data = _load(game, tuple(paths))
    return gymnasium.vector.SyncVectorEnv(
        [lambda: WondersGymEnv(data, players, **kwargs) for _ in range(count)])
