"""The PettingZoo environments: AEC (one agent at a time) and parallel (every agent at once).

Both speak the game contract (:class:`~wonders.engine.contract.GameState`), so every
registered game plays through them.  A decision several seats take at once (a
drafting turn) is collected seat by seat in the AEC environment and resolved when
the last of them has acted, against the position before any of them — so an agent
never sees what another chose for the same decision.  Follow-up choices (a side, a
discard build, a token, a destruction, a wonder pick, who starts an age) are
decisions like any other, with their own slots and mask.

Per step the environment does little besides the engine's own work: the legal
actions are mapped to slots through a table keyed by the engine's shared action
objects, and a seat's observation and mask are made once per position (the
encoders of :mod:`wonders.env.observe`).  The position's state and the AEC step
itself live in :class:`wonders.env.core.EnvCore` (compiled with the engine).
Measurements: ``docs/env.md``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Iterable, Mapping

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]

from wonders.engine.errors import IllegalActionError, RuleError
from wonders.engine.registry import default_players, new_game
from wonders.env.core import EnvCore, rewards_of
from wonders.env.observe import Encoder, Memory, Spaces, spaces_for
from wonders.env.spaces import EnvError

if TYPE_CHECKING:
    from wonders.dsl.model import Game as GameData
    from wonders.engine.contract import Decision, GameState

ILLEGAL_MODES = ("raise", "lose")
_BOUND = 1.0e6  # observations are counts, coins, points and positions: far below this


def _integer(value: object, what: str) -> int:
    """An int from an int or a NumPy integer (never a flag, a float or text)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise EnvError(f"{what} is a whole number, not {value!r} ({type(value).__name__})")
    return int(value)


def _load(game: object, paths: tuple[str, ...]) -> GameData:
    """Loaded data from a shipped game or expansion name, a rule-set path, or data."""
    from wonders.dsl.model import Game as GameData

    if isinstance(game, GameData):
        if paths:
            raise EnvError("paths only go with a game given by name or path")
        return game
    if isinstance(game, (str, os.PathLike)):
        import wonders

        return wonders.load_game(game, paths)  # (a SourceError names the shipped games)
    raise EnvError(f"game is a shipped name ('base', 'duel', 'leaders' …), a rule-set path "
                   f"or loaded data (wonders.load_game), not {game!r}")


class _Common:
    """What both environments share: the data, the spaces, the game and its seeding."""

    metadata: dict[str, Any] = {"name": "wonders_v1", "render_modes": ["ansi"],
                                "is_parallelizable": False}

    def _setup(self, game: object, players: object, paths: tuple[str, ...], illegal: str,
               render_mode: str | None, options: Mapping[str, Any] | None) -> None:
        if illegal not in ILLEGAL_MODES:
            raise EnvError(f"illegal must be one of {', '.join(ILLEGAL_MODES)}, not {illegal!r}")
        if render_mode not in (None, "ansi"):
            raise EnvError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if isinstance(paths, (str, os.PathLike)):
            paths = (os.fspath(paths),)
        self.data = _load(game, tuple(paths))
        rules = self.data.rules
        count = default_players(self.data) if players is None else _integer(players, "players")
        if not rules.min_players <= count <= rules.max_players:
            raise EnvError(f"{rules.title} plays with {rules.min_players} to "
                           f"{rules.max_players} players, not {count}")
        if options is not None and not isinstance(options, Mapping):
            raise EnvError(f"options is a mapping of the loop's options ({{'sides': "
                           f"'random'}}), not {options!r}")
        self.players = count
        self.illegal = illegal
        self.render_mode = render_mode
        self.game_options = dict(options or {})
        try:  # (a bad option is said now, not at the first reset)
            new_game(self.data, count, 0, **self.game_options)
        except TypeError as exc:
            raise EnvError(f"options {self.game_options} do not suit {rules.title}: {exc}"
                           ) from None
        self.spaces: Spaces = spaces_for(self.data, count)
        self.catalogue = self.spaces.actions
        encoder = self.spaces.observations
        self.possible_agents = [f"player_{seat}" for seat in range(count)]
        self.agent_seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size = len(self.spaces.actions)
        self._size = size
        self._action_space = spaces.Discrete(size)
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(-_BOUND, _BOUND, (encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        })
        self._next_seed: int | None = None
        # the game, the position's legal actions, observations and masks (and, for the
        # AEC environment, its bookkeeping), compiled
        self._core = EnvCore(self, self.catalogue, encoder, count, self.possible_agents)

    @property
    def encoder(self) -> Encoder:
        """The observation encoder (the spaces' own unless replaced)."""
        encoder: Encoder = self._core.encoder
        return encoder

    @encoder.setter
    def encoder(self, encoder: Encoder) -> None:
        self._core.encoder = encoder

    @property
    def _memories(self) -> list[Memory | None]:
        memories: list[Memory | None] = self._core.memories
        return memories

    @_memories.setter
    def _memories(self, memories: list[Memory | None]) -> None:
        self._core.memories = memories

    @property
    def game(self) -> GameState | None:
        game: GameState | None = self._core.game
        return game

    @game.setter
    def game(self, game: GameState | None) -> None:
        self._core.game = game

    def _fresh(self) -> None:
        """Forget what was worked out for the position (after a move)."""
        self._core.fresh()

    def _decision_now(self) -> Decision | None:
        """The pending decision (None once the game is over), asked once per position."""
        found: Decision | None = self._core.decision_now()
        return found

    # --- spaces ---------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same object for every agent and call (PettingZoo seeds spaces by identity)."""
        self._seat(agent)
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        self._seat(agent)
        return self._action_space

    def _seat(self, agent: object) -> int:
        seat = self.agent_seats.get(agent) if isinstance(agent, str) else None
        if seat is None:
            raise EnvError(f"no agent {agent!r}: the agents are "
                           f"{', '.join(self.possible_agents)}")
        return seat

    def _seat_number(self, seat: object) -> int:
        if type(seat) is int and 0 <= seat < self.players:  # noqa: E721
            return seat
        number = _integer(seat, "a seat")
        if not 0 <= number < self.players:
            raise EnvError(f"no seat {number}: the seats are 0 to {self.players - 1} "
                           f"(agents {self.possible_agents[0]} … {self.possible_agents[-1]})")
        return number

    # --- the game -------------------------------------------------------------------------

    def _new_game(self, seed: object) -> GameState:
        """Game seed: ``seed`` when given (``wonders play --seed`` deals the same game),
        else the one after the last seeded game, else one drawn from the system."""
        if seed is None:
            number = self._next_seed
            if number is None:
                number = int(np.random.default_rng().integers(2**31))
        else:
            number = _integer(seed, "seed")
        self._next_seed = number + 1
        self._fresh()
        try:
            self.game = new_game(self.data, self.players, number, **self.game_options)
        except TypeError as exc:  # an option the loop does not take
            raise EnvError(f"options {self.game_options} do not suit this game: {exc}"
                           ) from None
        return self.game

    def _current(self) -> GameState:
        game: GameState = self._core.current()
        return game

    def legal_by_index(self, seat: object) -> dict[int, Any]:
        """``seat``'s legal actions now, by action index (empty when it does not decide)."""
        return self._core.legal_of(self._seat_number(seat))

    def action_mask(self, seat: object) -> np.ndarray[Any, np.dtype[np.int8]]:
        return self._mask_of(self._seat_number(seat))

    def _mask_of(self, number: int) -> np.ndarray[Any, np.dtype[np.int8]]:
        """A seat's mask (a valid seat number): a new array, 1 at its legal actions."""
        mask: np.ndarray[Any, np.dtype[np.int8]] = self._core.mask_of(number)
        return mask

    def observe_seat(self, seat: object) -> dict[str, Any]:
        """``{"observation": vector, "action_mask": mask}`` of a seat now (made once per
        position; the arrays are the environment's: copy them to keep them changed)."""
        return self._core.observe_number(self._seat_number(seat))

    def index_of(self, action: object) -> int:
        """The action index of an engine action (its slot; the payment is not kept)."""
        return self.catalogue.index_of(action)

    def describe(self, index: object) -> str:
        """An action index in words."""
        number = _integer(index, "an action index")
        if not 0 <= number < self._size:
            raise EnvError(f"action {number} is out of range 0-{self._size - 1}")
        return self.catalogue.describe(number)

    def _engine_action(self, seat: int, action: object) -> Any:
        """The engine action an agent's action stands for; None when it is illegal and the
        environment was made with ``illegal="lose"``."""
        legal = self.legal_by_index(seat)
        if type(action) is int:  # noqa: E721  (the common case first)
            found = legal.get(action)
            if found is not None:
                return found
        if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
            index = int(action)
            if not 0 <= index < self._size:
                raise EnvError(f"action {index} is out of range 0-{self._size - 1}")
            found = legal.get(index)
            if found is not None:
                return found
            reason = f"action {index} ({self.describe(index)}) is not legal now"
        elif action is not None and hasattr(action, "to_json") and not isinstance(action, type):
            # an engine action (a bot's choice, with its exact payment)
            try:
                self._current().check(seat, action)
                return action
            except IllegalActionError as exc:
                reason = exc.reason
            except (TypeError, AttributeError, KeyError, ValueError, RuleError):
                raise EnvError(f"{action!r} is not an action of this game: give an index "
                               f"0-{self._size - 1} or an engine action") from None
        else:
            raise EnvError(f"an action is an index 0-{self._size - 1} (an int or a NumPy "
                           f"integer) or an engine action, not {action!r}")
        if self.illegal == "raise":
            raise IllegalActionError(seat, action, reason + "; legal: " + ", ".join(
                f"{i} ({self.catalogue.describe(i)})" for i in sorted(legal)))
        return None

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None:
            return None
        game = self.game
        if game.over:
            sheet = game.score_sheet()
            return f"game over: totals {sheet.totals}, winners {sheet.winners}"
        decision = game.decision()
        return f"age {game.age}, turn {game.turn}: {decision.wording} (seats {decision.seats})"

    def close(self) -> None:
        self.game = None


class WondersEnv(_Common, AECEnv):  # type: ignore[misc]
    """The AEC environment of a game: one agent acts at each step.

    ``WondersEnv(game="base", players=3)``: ``game`` is a shipped game or expansion
    name (``base``, ``base2e``, ``duel``, ``dice``, ``leaders``, ``cities``,
    ``leaders-cities``), a rule-set path or loaded data; ``paths`` extra card files;
    ``illegal`` what an illegal action does: ``"raise"`` (an
    :class:`IllegalActionError` listing the legal ones) or ``"lose"`` (the game stops;
    that agent gets -1, the others 0); ``options`` go to the game loop
    (``{"sides": "random"}``)."""

    def __init__(self, game: str | GameData = "base", players: int | None = None,
                 paths: tuple[str, ...] = (), illegal: str = "raise",
                 render_mode: str | None = None,
                 options: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        self._setup(game, players, paths, illegal, render_mode, options)
        core = self._core
        # The compiled step itself answers ``env.last()``, ``env.step()`` and
        # ``env.agent_iter()`` (an interpreted method around it costs as much as the
        # compiled engine's Duel turn); a subclass that overrides one keeps its own.
        mine = self.__dict__
        for name in ("last", "step", "agent_iter"):
            if getattr(type(self), name) is getattr(WondersEnv, name):
                mine[name] = getattr(core, name)

    # PettingZoo's attributes, kept by the compiled core (PettingZoo's own helpers, such
    # as _was_dead_step, read and write them through these)
    @property
    def agents(self) -> list[str]:
        return self._core.agents

    @agents.setter
    def agents(self, agents: list[str]) -> None:
        self._core.agents = agents

    @property
    def agent_selection(self) -> str:
        return self._core.agent_selection

    @agent_selection.setter
    def agent_selection(self, agent: str) -> None:
        self._core.agent_selection = agent

    @property
    def rewards(self) -> dict[str, float]:
        return self._core.rewards

    @rewards.setter
    def rewards(self, rewards: dict[str, float]) -> None:
        self._core.rewards = rewards

    @property
    def _cumulative_rewards(self) -> dict[str, float]:
        return self._core.cumulative_rewards

    @_cumulative_rewards.setter
    def _cumulative_rewards(self, rewards: dict[str, float]) -> None:
        self._core.cumulative_rewards = rewards

    @property
    def terminations(self) -> dict[str, bool]:
        return self._core.terminations

    @terminations.setter
    def terminations(self, terminations: dict[str, bool]) -> None:
        self._core.terminations = terminations

    @property
    def truncations(self) -> dict[str, bool]:
        return self._core.truncations

    @truncations.setter
    def truncations(self, truncations: dict[str, bool]) -> None:
        self._core.truncations = truncations

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        return self._core.infos

    @infos.setter
    def infos(self, infos: dict[str, dict[str, Any]]) -> None:
        self._core.infos = infos

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._new_game(seed)
        core = self._core
        agents = list(self.possible_agents)
        core.agents = agents
        core.rewards = {agent: 0.0 for agent in agents}
        core.cumulative_rewards = {agent: 0.0 for agent in agents}
        core.terminations = {agent: False for agent in agents}
        core.truncations = {agent: False for agent in agents}
        core.infos = {agent: {"decision": None} for agent in agents}
        core.pending = {}
        core.kind = None
        core.select()

    def observe(self, agent: str) -> dict[str, Any]:
        return self.observe_seat(self._seat(agent))

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        found: tuple[Any, float, bool, bool, dict[str, Any]] = self._core.last(observe)
        return found

    def step(self, action: Any) -> None:
        self._core.step(action)

    def agent_iter(self, max_iter: int = 2**63) -> Iterable[str]:
        """The agent to act at each step, until every agent is done (PettingZoo's)."""
        found: Iterable[str] = self._core.agent_iter(max_iter)
        return found


class WondersParallelEnv(_Common, ParallelEnv):  # type: ignore[misc]
    """The parallel environment of a game: every agent gives an action at each step,
    and those of the seats the pending decision waits for are played together.

    Natural for a game whose players act at once (the draft: every seat plays a card
    each turn); in a turn-based game one seat's action counts per step.  An agent
    that does not decide gets an all-zero mask, and whatever it sends is ignored.
    Same arguments as :class:`WondersEnv`."""

    def __init__(self, game: str | GameData = "base", players: int | None = None,
                 paths: tuple[str, ...] = (), illegal: str = "raise",
                 render_mode: str | None = None,
                 options: Mapping[str, Any] | None = None) -> None:
        self._setup(game, players, paths, illegal, render_mode, options)
        self.agents: list[str] = []

    def _infos(self) -> dict[str, dict[str, Any]]:
        game = self._current()
        kind = None if game.over else game.decision().kind
        return {agent: {"decision": kind} for agent in self.agents}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self._new_game(seed)
        self.agents = list(self.possible_agents)
        return ({agent: self.observe_seat(seat) for seat, agent in enumerate(self.agents)},
                self._infos())

    def step(self, actions: Mapping[str, Any]) -> tuple[
            dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool],
            dict[str, dict[str, Any]]]:
        game = self._current()
        if game.over or not self.agents:
            raise EnvError("the game is over: call reset() to play another")
        if not isinstance(actions, Mapping):
            raise EnvError(f"step takes a mapping agent -> action, not {actions!r}")
        chosen: dict[int, Any] = {}
        loser: int | None = None
        for seat in game.decision().seats:
            agent = self.possible_agents[seat]
            if agent not in actions:
                raise EnvError(f"{agent} decides now ({game.decision().wording}) and "
                               "sent no action")
            action = self._engine_action(seat, actions[agent])
            if action is None:
                loser = seat
                break
            chosen[seat] = action
        agents = list(self.agents)
        if loser is not None:
            self._fresh()
            self._core.stopped = True
            rewards = [-1.0 if seat == loser else 0.0 for seat in range(self.players)]
            over = True
        else:
            game.play(chosen)
            self._fresh()
            over = game.over
            rewards = rewards_of(game) if over else [0.0] * self.players
        observations = {agent: self.observe_seat(self.agent_seats[agent]) for agent in agents}
        infos = {agent: {"decision": None if game.over else game.decision().kind}
                 for agent in agents}
        terminations = {agent: over for agent in agents}
        truncations = {agent: False for agent in agents}
        reward_map = {agent: rewards[self.agent_seats[agent]] for agent in agents}
        if over:
            self.agents = []
        return observations, reward_map, terminations, truncations, infos
