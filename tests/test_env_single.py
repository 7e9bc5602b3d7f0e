"""The Gymnasium single-agent environment (one seat against bots) and its vectorised form."""

from __future__ import annotations

import random
import warnings

import pytest

pytest.importorskip("pettingzoo", reason="wonders.env needs PettingZoo: pip install 'wonders[env]'")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

import wonders  # noqa: E402
from wonders.env import EnvError, env, gym_env, rewards_of, vector_env  # noqa: E402


def _play(single: object, seed: int) -> tuple[list[int], float]:
    observation, info = single.reset(seed=seed)  # type: ignore[attr-defined]
    rng = random.Random(seed)
    chosen = []
    while True:
        legal = np.flatnonzero(info["action_mask"])
        assert (legal == np.flatnonzero(observation["action_mask"])).all() and len(legal)
        index = int(legal[rng.randrange(len(legal))])
        chosen.append(index)
        observation, reward, terminated, truncated, info = single.step(index)  # type: ignore[attr-defined]
        assert not truncated
        if terminated:
            return chosen, reward
        assert reward == 0.0


@pytest.mark.parametrize("game,players,opponents", [("duel", 2, "greedy"), ("base", 3, "random"),
                                                    ("leaders", 4, "quick")])
def test_gymnasiums_own_checker_passes(game: str, players: int, opponents: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advice about Dict observation spaces
        # (the checker samples unmasked actions: an illegal one ends the episode)
        check_env(gym_env(game, players, opponents=opponents, illegal="lose"),
                  skip_render_check=True)


def test_the_agent_plays_its_seat_to_the_end_and_gets_its_final_reward() -> None:
    single = gym_env("base", 3, seat=1, opponents=["greedy", "random"])
    chosen, reward = _play(single, 4)
    game = single.game
    assert game.over and reward == rewards_of(game)[1]
    # every decision of seat 1 was the agent's: its actions are in the history
    assert len(chosen) == sum(1 for record in game.history if "1" in record["actions"])
    again = gym_env("base", 3, seat=1, opponents=["greedy", "random"])
    assert _play(again, 4) == (chosen, reward)  # bots seeded from the game's seed


def test_bad_arguments_are_the_projects_errors() -> None:
    with pytest.raises(EnvError, match="no seat 2: the seats are 0 to 1"):
        gym_env("duel", seat=2)
    with pytest.raises(EnvError, match="no bot named 'smart': the bots are greedy, mcts"):
        gym_env("duel", opponents="smart")
    with pytest.raises(EnvError, match="2 opponents for 1 other seats"):
        gym_env("duel", opponents=["random", "random"])
    with pytest.raises(EnvError, match="an opponent is a bot name"):
        gym_env("duel", opponents=42)
    single = gym_env("duel")
    with pytest.raises(EnvError, match=r"call reset\(\)"):
        single.step(0)
    _play(single, 1)
    with pytest.raises(EnvError, match=r"game is over: call reset\(\)"):
        single.step(0)
    with pytest.raises(EnvError, match="count is how many games"):
        vector_env("duel", 0)


def test_a_bot_object_or_factory_plays_the_other_seats() -> None:
    made: list[int] = []

    def factory(seed: int) -> object:
        made.append(seed)
        return wonders.make_bot("random", seed)

    single = gym_env("duel", opponents=factory)
    _play(single, 3)
    assert made == [3 * 64 + 1]
    bot = wonders.make_bot("greedy", 0)
    _play(gym_env("duel", seat=1, opponents=bot), 3)


def test_many_games_step_at_once() -> None:
    many = vector_env("base", 4, players=3, opponents="random")
    observations, infos = many.reset(seed=10)
    encoder = env("base", 3).encoder
    assert observations["observation"].shape == (4, encoder.size)
    assert observations["action_mask"].shape == (4, 979)
    rng = random.Random(0)
    finished = 0
    for _ in range(60):  # base at 3 players: 18 turns and a side choice or so per game
        actions = []
        for mask in observations["action_mask"]:
            legal = np.flatnonzero(mask)
            actions.append(int(legal[rng.randrange(len(legal))]) if len(legal) else 0)
        observations, rewards, terminated, truncated, infos = many.step(np.array(actions))
        assert rewards.shape == (4,) and not truncated.any()
        assert set(rewards[terminated]) <= {-1.0, 0.0, 1.0}
        finished += int(terminated.sum())
    assert finished >= 8  # every game ended at least twice (and was reset)
