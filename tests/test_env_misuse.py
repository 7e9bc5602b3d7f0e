"""The environment is safe to program against: every shipped game and expansion name works,
NumPy integers work where ints do, and misuse (before reset, after the end, a seat that does
not exist, a wrong type) raises the project's own errors with a message saying what to do."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="wonders.env needs PettingZoo: pip install 'wonders[env]'")

import numpy as np  # noqa: E402

import wonders  # noqa: E402
from wonders.dsl.errors import WondersError  # noqa: E402
from wonders.engine.errors import RuleError  # noqa: E402
from wonders.engine.sources import SourceError  # noqa: E402
from wonders.env import EnvError, env, parallel_env  # noqa: E402

SHIPPED = ["base", "base2e", "duel", "dice", "leaders", "cities", "leaders-cities", "pantheon"]


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_game_and_expansion_name_works(name: str) -> None:
    aec = env(name)
    aec.reset(seed=1)
    assert aec.observe(aec.agent_selection)["action_mask"].any()
    par = parallel_env(name)
    observations, _ = par.reset(seed=1)
    assert set(observations) == set(par.possible_agents)


def test_an_unknown_name_says_what_is_shipped() -> None:
    with pytest.raises(SourceError, match=r"did you mean 'leaders'\?.*shipped: architects, base"):
        env("leader")


def _random_game(aec: Any, seed: int) -> list[int]:
    aec.reset(seed=seed)
    rng = random.Random(int(seed))
    played = []
    for _ in aec.agent_iter():
        observation, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            aec.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        index = legal[rng.randrange(len(legal))]  # a NumPy integer, stepped as it is
        played.append(int(index))
        aec.step(index)
    return played


def test_numpy_integers_work_where_ints_do() -> None:
    aec = env("base", np.int64(4))
    assert aec.players == 4 and aec.possible_agents[-1] == "player_3"
    first = _random_game(aec, np.int64(5))  # type: ignore[arg-type]
    assert aec.game.seed == 5 and isinstance(aec.game.seed, int)
    again = env("base", 4)
    assert _random_game(again, 5) == first
    aec.reset(seed=np.int32(7))
    assert aec.game.seed == 7
    assert aec.legal_by_index(np.int64(0)) == aec.legal_by_index(0)
    assert (aec.action_mask(np.uint8(1)) == aec.action_mask(1)).all()
    assert aec.describe(np.int16(0)) == aec.describe(0)
    par = parallel_env("duel", np.int8(2))
    observations, _ = par.reset(seed=np.uint16(3))
    agent = par.possible_agents[par.game.to_move()[0]]
    index = np.flatnonzero(observations[agent]["action_mask"])[0]
    par.step({agent: index})


def test_before_reset_every_call_says_to_reset() -> None:
    aec = env("duel")
    for call in (lambda: aec.step(0), lambda: aec.last(), lambda: aec.observe("player_0"),
                 lambda: aec.legal_by_index(0), lambda: aec.action_mask(0)):
        with pytest.raises(EnvError, match=r"call reset\(\)"):
            call()
    par = parallel_env("duel")
    with pytest.raises(EnvError, match=r"call reset\(\)"):
        par.step({"player_0": 0})


def test_after_the_end_a_step_says_to_reset() -> None:
    aec = env("duel")
    _random_game(aec, 2)
    assert aec.game.over and not aec.agents
    with pytest.raises(EnvError, match=r"game is over.*call reset\(\)"):
        aec.step(0)
    with pytest.raises(EnvError, match=r"game is over.*call reset\(\)"):
        aec.step(None)
    with pytest.raises(EnvError, match=r"game is over.*call reset\(\)"):
        aec.last()
    assert not aec.observe("player_0")["action_mask"].any()  # the final position: no choice
    # a done agent still listed may only step None
    aec.reset(seed=3)
    rng = random.Random(3)
    while not aec.game.over:
        mask = aec.observe(aec.agent_selection)["action_mask"]
        legal = np.flatnonzero(mask)
        aec.step(int(legal[rng.randrange(len(legal))]))
    assert aec.terminations[aec.agent_selection]
    with pytest.raises(EnvError, match=r"is done.*step\(None\)"):
        aec.step(0)
    par = parallel_env("duel")
    par.reset(seed=2)
    while par.agents:
        seat = par.game.to_move()[0]
        legal = np.flatnonzero(par.action_mask(seat))
        par.step({par.possible_agents[seat]: int(legal[0])})
    with pytest.raises(EnvError, match=r"game is over: call reset\(\)"):
        par.step({"player_0": 0})


def test_a_seat_that_does_not_exist_is_refused() -> None:
    aec = env("base", 3)
    aec.reset(seed=1)
    for seat in (-1, 3, 99, np.int64(7)):
        with pytest.raises(EnvError, match=r"no seat .*: the seats are 0 to 2"):
            aec.legal_by_index(seat)
        with pytest.raises(EnvError, match=r"no seat"):
            aec.action_mask(seat)
        with pytest.raises(EnvError, match=r"no seat"):
            aec.observe_seat(seat)
    with pytest.raises(EnvError, match=r"no agent 'player_3': the agents are player_0"):
        aec.observe("player_3")
    with pytest.raises(EnvError, match=r"no agent 0"):
        aec.action_space(0)  # type: ignore[arg-type]


@pytest.mark.parametrize("name,players", [("base", 3), ("duel", 2), ("dice", 3)])
def test_the_game_contract_refuses_a_seat_that_does_not_exist(name: str, players: int) -> None:
    """view(-1) used to show another seat's hand labelled seat -1."""
    game = wonders.new_game(name, players, 1)
    for seat in (-1, players, 99):
        with pytest.raises(RuleError, match=rf"no seat {seat}: this game's seats are 0 to "
                                            rf"{players - 1}"):
            game.view(seat)
        # (legal_actions stays quiet, [] for a seat that does not decide: the web table's
        # restore reads it for any seat a saved record names)
        assert game.legal_actions(seat) == []
    with pytest.raises(RuleError, match=r"a seat is a number 0 to"):
        game.view("0")  # type: ignore[arg-type]
    assert game.view(np.int64(0))["seat"] == 0  # type: ignore[arg-type]
    deciding = game.to_move()[0]
    assert game.legal_actions(deciding)
    others = [seat for seat in range(players) if seat not in game.to_move()]
    for seat in others:
        assert game.legal_actions(seat) == []


WRONG = [
    ("players", lambda: env("base", "3")),
    ("players", lambda: env("base", 3.0)),
    ("players", lambda: env("base", True)),
    ("game", lambda: env(42)),
    ("game", lambda: env(None)),
    ("options", lambda: env("base", options="random")),
    ("options", lambda: env("base", options={"bogus": 1})),
    ("illegal", lambda: env("base", illegal=False)),
    ("render_mode", lambda: env("base", render_mode="human")),
]


@pytest.mark.parametrize("what,call", WRONG, ids=[f"{w}-{i}" for i, (w, _) in enumerate(WRONG)])
def test_wrong_arguments_are_the_projects_errors(what: str, call: Any) -> None:
    with pytest.raises(EnvError, match=what):
        call()


def test_wrong_types_in_play_are_the_projects_errors() -> None:
    aec = env("duel")
    with pytest.raises(EnvError, match="seed is a whole number"):
        aec.reset(seed="5")  # type: ignore[arg-type]
    with pytest.raises(EnvError, match="seed is a whole number"):
        aec.reset(seed=1.5)  # type: ignore[arg-type]
    aec.reset(seed=1)
    for action in (1.0, True, "build", b"0", [1, 2], {"a": 1}, object, np.float32(2)):
        with pytest.raises(WondersError, match=r"index 0-\d+|not an action of this game|"
                                               r"is not allowed"):
            aec.step(action)
    with pytest.raises(EnvError, match="out of range"):
        aec.step(-1)
    with pytest.raises(EnvError, match="out of range"):
        aec.describe(10**6)
    par = parallel_env("duel")
    par.reset(seed=1)
    with pytest.raises(EnvError, match="mapping agent -> action"):
        par.step([0])  # type: ignore[arg-type]
    with pytest.raises(EnvError, match="decides now .* and sent no action"):
        par.step({})


def test_every_env_error_is_a_wonders_error() -> None:
    assert issubclass(EnvError, WondersError) and issubclass(EnvError, ValueError)
