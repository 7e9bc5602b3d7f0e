"""The PettingZoo environments: AEC (one agent at a time) and parallel (every agent at once).

Both speak only the game contract (:class:`~wonders.engine.contract.GameState`), so
every registered game plays through them.  A decision several seats take at once (a
drafting turn) is collected seat by seat in the AEC environment and resolved when
the last of them has acted, against the position before any of them — so an agent
never sees what another chose for the same decision.  Follow-up choices (a side, a
discard build, a token, a destruction, a wonder pick, who starts an age) are
decisions like any other, with their own slots and mask.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, cast

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]

from wonders.engine.actions import Action
from wonders.engine.errors import IllegalActionError
from wonders.engine.registry import default_players, new_game

from wonders.env.spaces import EnvError, Spaces, spaces_for

if TYPE_CHECKING:
    from wonders.dsl.model import Game as GameData
    from wonders.engine.contract import GameState

ILLEGAL_MODES = ("raise", "lose")
_BOUND = 1.0e6  # observations are counts, coins, points and positions: far below this


def _load(game: str | GameData, paths: tuple[str, ...]) -> GameData:
    if isinstance(game, str):
        from wonders.dsl.loader import load_game  # the language stack, only when loading

        return load_game(list(paths), game)
    return game


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

    metadata: dict[str, Any] = {"name": "wonders_v0", "render_modes": ["ansi"],
                                "is_parallelizable": False}

    def _setup(self, game: str | GameData, players: int | None, paths: tuple[str, ...],
               illegal: str, render_mode: str | None, options: Mapping[str, Any]) -> None:
        if illegal not in ILLEGAL_MODES:
            raise EnvError(f"illegal must be one of {', '.join(ILLEGAL_MODES)}, not {illegal!r}")
        if render_mode not in (None, "ansi"):
            raise EnvError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.data = _load(game, paths)
        rules = self.data.rules
        count = default_players(self.data) if players is None else players
        if not rules.min_players <= count <= rules.max_players:
            raise EnvError(f"{rules.title} plays with {rules.min_players} to "
                           f"{rules.max_players} players, not {count}")
        self.players = count
        self.illegal = illegal
        self.render_mode = render_mode
        self.game_options = dict(options)
        self.spaces: Spaces = spaces_for(self.data, count)
        self.possible_agents = [f"player_{seat}" for seat in range(count)]
        self.agent_seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size = len(self.spaces.actions)
        self._action_space = spaces.Discrete(size)
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(-_BOUND, _BOUND, (self.spaces.observations.size,),
                                      np.float32),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        })
        self.game: GameState | None = None
        self._next_seed: int | None = None
        self._legal: dict[int, dict[int, Action]] = {}
        self._stopped = False  # an illegal action ended the episode ("lose")

    # --- spaces ---------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same object for every agent and call (PettingZoo seeds spaces by identity)."""
        self._seat(agent)
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        self._seat(agent)
        return self._action_space

    def _seat(self, agent: str) -> int:
        seat = self.agent_seats.get(agent)
        if seat is None:
            raise EnvError(f"no agent {agent!r}: the agents are "
                           f"{', '.join(self.possible_agents)}")
        return seat

    # --- the game -------------------------------------------------------------------------

    def _new_game(self, seed: int | None) -> GameState:
        """Game seed: ``seed`` when given (``wonders play --seed`` deals the same game),
        else the one after the last seeded game, else one drawn from the system."""
        if seed is None:
            seed = self._next_seed
        if seed is None:
            seed = int(np.random.default_rng().integers(2**31))
        self._next_seed = seed + 1
        self._legal = {}
        self._stopped = False
        self.game = new_game(self.data, self.players, seed, **self.game_options)
        return self.game

    def _current(self) -> GameState:
        if self.game is None:
            raise EnvError("call reset() before using the environment")
        return self.game

    def legal_by_index(self, seat: int) -> dict[int, Action]:
        """``seat``'s legal actions now, by action index (empty when it does not decide)."""
        found = self._legal.get(seat)
        if found is None:
            found = self._legal[seat] = self.spaces.actions.legal(
                cast("list[Action]", self._current().legal_actions(seat)))
        return found

    def action_mask(self, seat: int) -> np.ndarray[Any, np.dtype[np.int8]]:
        mask = np.zeros(len(self.spaces.actions), dtype=np.int8)
        game = self._current()
        if not game.over and not self._stopped and seat in game.decision().seats:
            mask[list(self.legal_by_index(seat))] = 1
        return mask

    def observe_seat(self, seat: int) -> dict[str, Any]:
        game = self._current()
        return {"observation": self.spaces.observations.encode(game, seat),
                "action_mask": self.action_mask(seat)}

    def index_of(self, action: Action) -> int:
        """The action index of an engine action (its slot; the payment is not kept)."""
        from wonders.env.spaces import slot_of

        return self.spaces.actions.index[slot_of(action)]

    def describe(self, index: int) -> str:
        """An action index in words."""
        return self.spaces.actions.describe(index)

    def _engine_action(self, seat: int, action: Any) -> Action | None:
        """The engine action an agent's action stands for; None when it is illegal and the
        environment was made with ``illegal="lose"``."""
        legal = self.legal_by_index(seat)
        if isinstance(action, (int, np.integer)):
            index = int(action)
            if not 0 <= index < len(self.spaces.actions):
                raise EnvError(f"action {index} is out of range 0-{len(self.spaces.actions) - 1}")
            found = legal.get(index)
            if found is not None:
                return found
            reason = f"action {index} ({self.describe(index)}) is not legal now"
        elif action is not None and not isinstance(action, (str, bytes, float, bool)):
            # an engine action (a bot's choice, with its exact payment)
            engine_action = cast(Action, action)
            try:
                self._current().check(seat, engine_action)
                return engine_action
            except IllegalActionError as exc:
                reason = exc.reason
            except (TypeError, AttributeError, KeyError, ValueError):
                raise EnvError(f"{action!r} is not an action of this game: give an index "
                               f"0-{len(self.spaces.actions) - 1} or an engine action"
                               ) from None
        else:
            raise EnvError(f"an action is an index 0-{len(self.spaces.actions) - 1} or an "
                           f"engine action, not {action!r}")
        if self.illegal == "raise":
            raise IllegalActionError(seat, action, reason + "; legal: " + ", ".join(
                f"{i} ({self.describe(i)})" for i in sorted(legal)))
        return None

    def _finish(self) -> list[float]:
        return rewards_of(self._current())

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

    ``WondersEnv(game="base", players=3)``: ``game`` is a shipped name, a rule-set
    path or loaded data; ``paths`` extra card files; ``illegal`` what an illegal
    action does: ``"raise"`` (an :class:`IllegalActionError` listing the legal ones)
    or ``"lose"`` (the game stops; that agent gets -1, the others 0); ``options`` go
    to the game loop (``{"sides": "random"}``)."""

    def __init__(self, game: str | GameData = "base", players: int | None = None,
                 paths: tuple[str, ...] = (), illegal: str = "raise",
                 render_mode: str | None = None,
                 options: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        self._setup(game, players, paths, illegal, render_mode, options or {})
        self.agents: list[str] = []
        self._pending: dict[int, Action] = {}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._new_game(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._pending = {}
        self._select()

    def _select(self) -> None:
        """Point agent_selection at the next seat of the pending decision still to act."""
        game = self._current()
        if game.over:
            return
        for seat in game.decision().seats:
            if seat not in self._pending:
                self.agent_selection = self.possible_agents[seat]
                break
        for agent in self.agents:
            self.infos[agent] = {"decision": game.decision().kind}

    def observe(self, agent: str) -> dict[str, Any]:
        return self.observe_seat(self._seat(agent))

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat(agent)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        chosen = self._engine_action(seat, action)
        game = self._current()
        if chosen is None:  # illegal, and the environment plays "lose"
            self._stopped = True
            for other in self.agents:
                self.rewards[other] = -1.0 if other == agent else 0.0
                self.terminations[other] = True
            self._accumulate_rewards()
            return
        self._pending[seat] = chosen
        if all(s in self._pending for s in game.decision().seats):
            game.play(self._pending)
            self._pending = {}
            self._legal = {}
        if game.over:
            for other, reward in zip(self.possible_agents, self._finish()):
                self.rewards[other] = reward
                self.terminations[other] = True
                self.infos[other] = {"decision": None}
            self._accumulate_rewards()
            return
        self._select()
        self._accumulate_rewards()


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
        self._setup(game, players, paths, illegal, render_mode, options or {})
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
            raise EnvError("the game is over: call reset()")
        chosen: dict[int, Action] = {}
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
            self._stopped = True
            rewards = [-1.0 if seat == loser else 0.0 for seat in range(self.players)]
            over = True
        else:
            game.play(chosen)
            self._legal = {}
            over = game.over
            rewards = self._finish() if over else [0.0] * self.players
        observations = {agent: self.observe_seat(self.agent_seats[agent]) for agent in agents}
        infos = {agent: {"decision": None if game.over else game.decision().kind}
                 for agent in agents}
        terminations = {agent: over for agent in agents}
        truncations = {agent: False for agent in agents}
        reward_map = {agent: rewards[self.agent_seats[agent]] for agent in agents}
        if over:
            self.agents = []
        return observations, reward_map, terminations, truncations, infos
