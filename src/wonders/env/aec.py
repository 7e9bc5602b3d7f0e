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
encoders of :mod:`wonders.env.observe`).  Measurements: ``docs/env.md``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Mapping

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]

from wonders.engine.errors import IllegalActionError, RuleError
from wonders.engine.registry import default_players, new_game
from wonders.env.observe import Mask, Spaces, spaces_for
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


def rewards_of(game: GameState) -> list[float]:
    """Final rewards from the ranking: +1 for every winner (a shared win too), then
    evenly down to -1 for the last place of the score sheet's ranking."""
    sheet = game.score_sheet()
    winners = set(sheet.winners)
    ranking = [seat for seat in sheet.ranking() if seat not in winners]
    players = game.players
    rewards = [0.0] * players
    for seat in winners:
        rewards[seat] = 1.0
    for place, seat in enumerate(ranking, start=len(winners)):
        rewards[seat] = 1.0 - 2.0 * place / (players - 1) if players > 1 else 0.0
    return rewards


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
        self.encoder = self.spaces.observations
        self.possible_agents = [f"player_{seat}" for seat in range(count)]
        self.agent_seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size = len(self.spaces.actions)
        self._size = size
        self._action_space = spaces.Discrete(size)
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(-_BOUND, _BOUND, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        })
        self.game: GameState | None = None
        self._next_seed: int | None = None
        # each seat's last observation, updated where it changed (observe.Memory)
        self._memories = [self.encoder.memory() for _ in range(count)]
        self._mask = Mask(size)  # (a new mask is a copy of its buffer)
        self._fresh()

    def _fresh(self) -> None:
        """Forget what was worked out for the position (after a move)."""
        self._legal: dict[int, dict[int, Any]] = {}
        self._observed: dict[int, dict[str, Any]] = {}
        self._decision: Decision | None = None  # the position's, once asked
        self._stopped = False  # an illegal action ended the episode ("lose")

    def _decision_now(self) -> Decision | None:
        """The pending decision (None once the game is over), asked once per position."""
        found = self._decision
        if found is None:
            game = self._current()
            if game.over:
                return None
            found = self._decision = game.decision()
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
        if self.game is None:
            raise EnvError("no game yet: call reset() (or reset(seed=N)) first")
        return self.game

    def legal_by_index(self, seat: object) -> dict[int, Any]:
        """``seat``'s legal actions now, by action index (empty when it does not decide)."""
        found = self._legal.get(seat) if type(seat) is int else None  # noqa: E721
        if found is None:
            number = self._seat_number(seat)
            found = self._legal[number] = self.catalogue.legal(
                self._current().legal_actions(number))
        return found

    def action_mask(self, seat: object) -> np.ndarray[Any, np.dtype[np.int8]]:
        return self._mask_of(self._seat_number(seat))

    def _mask_of(self, number: int) -> np.ndarray[Any, np.dtype[np.int8]]:
        """A seat's mask (a valid seat number): a copy of the buffer, set to its legal
        actions."""
        if self._stopped or self._decision_now() is None:
            legal: dict[int, Any] = {}
        else:
            legal = self._legal.get(number) or self.legal_by_index(number)
        mask: np.ndarray[Any, np.dtype[np.int8]] = self._mask.of(legal)
        return mask

    def observe_seat(self, seat: object) -> dict[str, Any]:
        """``{"observation": vector, "action_mask": mask}`` of a seat now (made once per
        position; the arrays are the environment's: copy them to keep them changed)."""
        found = self._observed.get(seat) if type(seat) is int else None  # noqa: E721
        if found is None:
            found = self._observe_number(self._seat_number(seat))
        return found

    def _observe_number(self, number: int) -> dict[str, Any]:
        """:meth:`observe_seat` of a valid seat number not observed yet at this position
        (the calls of the mask and the legal actions inlined: this runs at every step)."""
        game = self._current()
        decision = self._decision or self._decision_now()
        if self._stopped or decision is None:
            legal: dict[int, Any] = {}
        else:
            found = self._legal.get(number)
            legal = (found if found is not None else self.legal_by_index(number))
        observed = self._observed[number] = {
            "observation": self.encoder.observe(game, number, decision,
                                                self._memories[number]),
            "action_mask": self._mask.of(legal)}
        return observed

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
        self.agents: list[str] = []
        self._pending: dict[int, Any] = {}
        self._kind: str | None = None
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._new_game(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {"decision": None} for agent in self.agents}
        self._pending = {}
        self._kind = None
        self._select()

    def _select(self) -> None:
        """Point agent_selection at the first seat of a new decision."""
        decision = self._decision = self._current().decision()
        self.agent_selection = self.possible_agents[decision.seats[0]]
        kind = decision.kind
        if kind != self._kind:  # (the infos say the decision's kind: changed in place)
            self._kind = kind
            for info in self.infos.values():
                info["decision"] = kind

    def observe(self, agent: str) -> dict[str, Any]:
        return self.observe_seat(self._seat(agent))

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self.game is None:
            raise EnvError("no game yet: call reset() (or reset(seed=N)) first")
        agent = self.agent_selection
        if not self.agents:
            raise EnvError("the game is over and every agent is done: call reset() to "
                           "play another")
        seat = self.agent_seats[agent]
        return (self._observed.get(seat) or self._observe_number(seat) if observe else None,
                self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def step(self, action: Any) -> None:
        game = self.game
        if game is None:
            raise EnvError("no game yet: call reset() (or reset(seed=N)) first")
        if not self.agents:
            raise EnvError("the game is over and every agent is done: call reset() to "
                           "play another")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise EnvError(f"{agent} is done (the game is over): step(None) for each "
                               "agent still listed, or reset() to play another")
            self._was_dead_step(action)
            return
        seat = self.agent_seats[agent]
        self._cumulative_rewards[agent] = 0.0
        legal = self._legal.get(seat)
        chosen = (legal.get(action) if legal is not None and type(action) is int  # noqa: E721
                  else None)  # (the common case: an index the agent read off the mask)
        if chosen is None:
            chosen = self._engine_action(seat, action)
            if chosen is None:  # illegal, and the environment plays "lose"
                self._stopped = True
                self._observed = {}
                for other in self.agents:
                    self.rewards[other] = -1.0 if other == agent else 0.0
                    self.terminations[other] = True
                self._accumulate_rewards()
                return
        pending = self._pending
        pending[seat] = chosen
        decision = self._decision or self._decision_now()
        assert decision is not None  # (the game goes on: agents are not done)
        if len(pending) < len(decision.seats):  # (only the decision's seats are pending)
            for waiting in decision.seats:
                if waiting not in pending:
                    self.agent_selection = self.possible_agents[waiting]
                    return
        game.play(pending)
        self._pending = {}
        self._legal = {}
        self._observed = {}
        self._decision = None
        if game.over:
            for other, reward in zip(self.possible_agents, rewards_of(game)):
                self.rewards[other] = reward
                self.terminations[other] = True
                self.infos[other]["decision"] = None
            self._accumulate_rewards()
            return
        self._select()


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
            self._stopped = True
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
