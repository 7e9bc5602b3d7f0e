"""The environments' state and the AEC step, compiled with the engine (``setup.py``).

:class:`~wonders.env.aec.WondersEnv` subclasses PettingZoo's ``AECEnv``, which mypyc
cannot compile; so what runs at every step of an agent — ``last()``, ``step()``, the
``agent_iter()`` loop, the position's legal actions, observations and masks — lives in
this plain class the environment delegates to (its PettingZoo attributes, such as
``rewards`` and ``agent_selection``, are properties reading this object).  The rare
paths (an action that is not a legal index, an agent done, an illegal move) call back
into the environment's Python methods.  Measurements: ``docs/env.md``, "Speed".
"""

from __future__ import annotations

from typing import Any

from wonders.env.observe import Encoder, Mask, Memory
from wonders.env.spaces import ActionCatalogue, EnvError

_NO_GAME = "no game yet: call reset() (or reset(seed=N)) first"
_ALL_DONE = "the game is over and every agent is done: call reset() to play another"
# agent_iter()'s default bound, 2**63, is beyond any game: past this, counting is skipped
_UNBOUNDED = 2**62


def rewards_of(game: Any) -> list[float]:
    """Final rewards from the ranking: +1 for every winner (a shared win too), then
    evenly down to -1 for the last place of the score sheet's ranking."""
    sheet = game.score_sheet()
    winners = set(sheet.winners)
    ranking = [seat for seat in sheet.ranking() if seat not in winners]
    players: int = game.players
    rewards = [0.0] * players
    for seat in winners:
        rewards[seat] = 1.0
    for place, seat in enumerate(ranking, start=len(winners)):
        rewards[seat] = 1.0 - 2.0 * place / (players - 1) if players > 1 else 0.0
    return rewards


class EnvCore:
    """One environment's game, the position's worked-out answers (legal actions by index,
    observations, the decision) and the AEC bookkeeping PettingZoo names."""

    agent_selection: str  # (set by the first reset: unset before, as in PettingZoo)

    def __init__(self, env: Any, catalogue: ActionCatalogue, encoder: Encoder, players: int,
                 possible_agents: list[str]) -> None:
        self.env = env  # (for the rare paths, which stay Python: _engine_action …)
        self.catalogue = catalogue
        self.encoder = encoder
        self.players = players
        self.possible_agents = possible_agents
        self.agent_seats: dict[str, int] = {agent: seat
                                            for seat, agent in enumerate(possible_agents)}
        # each seat's last observation, updated where it changed (observe.Memory)
        self.memories: list[Memory | None] = [encoder.memory() for _ in range(players)]
        self.mask = Mask(len(catalogue))  # (each mask on a new buffer of its own)
        self.game: Any = None
        self.legal: dict[int, dict[int, Any]] = {}
        self.observed: dict[int, dict[str, Any]] = {}
        self.decision: Any = None  # the position's Decision, once asked
        self.stopped = False  # an illegal action ended the episode ("lose")
        # the AEC environment's (PettingZoo's attributes of the same names)
        self.agents: list[str] = []
        self.pending: dict[int, Any] = {}
        self.kind: str | None = None
        self.rewards: dict[str, Any] = {}
        self.cumulative_rewards: dict[str, Any] = {}
        self.terminations: dict[str, Any] = {}
        self.truncations: dict[str, Any] = {}
        self.infos: dict[str, Any] = {}

    def fresh(self) -> None:
        """Forget what was worked out for the position (after a move)."""
        self.legal.clear()
        self.observed.clear()
        self.decision = None
        self.stopped = False

    def current(self) -> Any:
        game = self.game
        if game is None:
            raise EnvError(_NO_GAME)
        return game

    def decision_now(self) -> Any:
        """The pending decision (None once the game is over), asked once per position."""
        found = self.decision
        if found is None:
            game = self.current()
            if game.over:
                return None
            found = self.decision = game.decision()
        return found

    def legal_of(self, number: int) -> dict[int, Any]:
        """A valid seat number's legal actions now, by action index."""
        found = self.legal.get(number)
        if found is None:
            found = self.legal[number] = self.catalogue.legal(
                self.current().legal_actions(number))
        return found

    def mask_of(self, number: int) -> Any:
        """A seat's mask (a valid seat number): a new array, 1 at its legal actions."""
        if self.stopped or self.decision_now() is None:
            return self.mask.of({})
        return self.mask.of(self.legal_of(number))

    def observe_number(self, number: int) -> dict[str, Any]:
        """The observation of a valid seat number, made once per position."""
        found = self.observed.get(number)
        if found is not None:
            return found
        game = self.current()
        decision = self.decision
        if decision is None:
            decision = self.decision_now()
        if self.stopped or decision is None:
            legal: dict[int, Any] = {}
        else:
            legal = self.legal_of(number)
        observed = {"observation": self.encoder.observe(game, number, decision,
                                                        self.memories[number]),
                    "action_mask": self.mask.of(legal)}
        self.observed[number] = observed
        return observed

    # --- the AEC environment's step --------------------------------------------------------

    def select(self) -> None:
        """Point agent_selection at the first seat of a new decision."""
        decision = self.decision = self.current().decision()
        self.agent_selection = self.possible_agents[decision.seats[0]]
        kind = decision.kind
        if kind != self.kind:  # (the infos say the decision's kind: changed in place)
            self.kind = kind
            for info in self.infos.values():
                info["decision"] = kind

    def last(self, observe: bool = True) -> tuple[Any, Any, Any, Any, Any]:
        if self.game is None:
            raise EnvError(_NO_GAME)
        agent = self.agent_selection
        if not self.agents:
            raise EnvError(_ALL_DONE)
        observation: Any = None
        if observe:
            seat = self.agent_seats[agent]
            observation = self.observed.get(seat)
            if observation is None:
                observation = self.observe_number(seat)
        return (observation, self.cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def step(self, action: Any) -> None:
        game = self.game
        if game is None:
            raise EnvError(_NO_GAME)
        if not self.agents:
            raise EnvError(_ALL_DONE)
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise EnvError(f"{agent} is done (the game is over): step(None) for each "
                               "agent still listed, or reset() to play another")
            self.env._was_dead_step(action)
            return
        seat = self.agent_seats[agent]
        self.cumulative_rewards[agent] = 0.0
        legal = self.legal.get(seat)
        chosen: Any = None
        if legal is not None and type(action) is int:  # noqa: E721
            chosen = legal.get(action)  # (the common case: an index read off the mask)
        if chosen is None:
            chosen = self.env._engine_action(seat, action)
            if chosen is None:  # illegal, and the environment plays "lose"
                self.stopped = True
                self.observed.clear()
                for other in self.agents:
                    self.rewards[other] = -1.0 if other == agent else 0.0
                    self.terminations[other] = True
                self.env._accumulate_rewards()
                return
        pending = self.pending
        pending[seat] = chosen
        decision = self.decision
        if decision is None:
            decision = self.decision_now()
        assert decision is not None  # (the game goes on: agents are not done)
        seats = decision.seats
        if len(pending) < len(seats):  # (only the decision's seats are pending)
            for waiting in seats:
                if waiting not in pending:
                    self.agent_selection = self.possible_agents[waiting]
                    return
        game.play(pending)
        self.pending = {}
        self.legal.clear()
        self.observed.clear()
        self.decision = None
        if game.over:
            for other, reward in zip(self.possible_agents, rewards_of(game)):
                self.rewards[other] = reward
                self.terminations[other] = True
                self.infos[other]["decision"] = None
            self.env._accumulate_rewards()
            return
        self.select()

    def agent_iter(self, max_iter: int = 2**63) -> AgentIterable:
        """PettingZoo's ``agent_iter``: the agent to act, until every agent is done."""
        return AgentIterable(self, max_iter)


class AgentIterable:
    """What ``agent_iter()`` returns: each ``iter()`` of it starts a new count."""

    def __init__(self, core: EnvCore, max_iter: int) -> None:
        self.core = core
        self.max_iter = max_iter

    def __iter__(self) -> AgentIterator:
        return AgentIterator(self.core, self.max_iter)


class AgentIterator:
    """The current agent at each step, until no agent is left or ``max_iter`` steps."""

    def __init__(self, core: EnvCore, max_iter: int) -> None:
        self.core = core
        self.counted = max_iter < _UNBOUNDED
        self.left = max_iter if self.counted else 0

    def __iter__(self) -> AgentIterator:
        return self

    def __next__(self) -> str:
        core = self.core
        if not core.agents:
            raise StopIteration
        if self.counted:
            if self.left <= 0:
                raise StopIteration
            self.left -= 1
        return core.agent_selection
