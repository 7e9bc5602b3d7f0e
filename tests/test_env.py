"""The PettingZoo environments (wonders.env): PettingZoo's own API and seed tests for base at
3 and 7 players and for Duel, hidden information, seeding, rewards and bad actions."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="wonders.env needs PettingZoo: pip install 'wonders[env]'")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test  # noqa: E402

import wonders  # noqa: E402
from wonders.engine.errors import IllegalActionError  # noqa: E402
from wonders.env import EnvError, env, parallel_env, rewards_of  # noqa: E402

TABLES = [("base", 3), ("base", 7), ("duel", 2), ("leaders", 4), ("cities", 3)]
# and a loop whose action types the catalogue does not name (slots from the calibration)
ALL_TABLES = TABLES + [("dice", 3)]


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    return {name: wonders.load_game(name) for name in ("base", "duel", "dice", "leaders",
                                                       "cities")}


@pytest.mark.parametrize("game,players", ALL_TABLES)
def test_pettingzoo_api_tests(data: dict[str, Any], game: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advice about Dict observation spaces
        api_test(env(data[game], players), num_cycles=1000)
        parallel_api_test(parallel_env(data[game], players), num_cycles=1000)
        seed_test(lambda: env(data[game], players), num_cycles=500)
        # the parallel seed test samples unmasked actions: an illegal one ends the episode
        parallel_seed_test(lambda: parallel_env(data[game], players, illegal="lose"),
                           num_cycles=500)


def _play_aec(aec: Any, seed: int, rng: random.Random, check: Any = None) -> list[str]:
    """Play one game through the AEC API with random masked actions; the decision kinds."""
    aec.reset(seed=seed)
    kinds: list[str] = []
    for agent in aec.agent_iter():
        observation, _, terminated, truncated, info = aec.last()
        if terminated or truncated:
            aec.step(None)
            continue
        kinds.append(info["decision"])
        if check is not None:
            check(aec, agent, observation)
        legal = np.flatnonzero(observation["action_mask"])
        aec.step(int(rng.choice(list(legal))))
    return kinds


@pytest.mark.parametrize("game,players", ALL_TABLES)
def test_every_legal_action_has_a_slot_and_the_mask_says_which(
        data: dict[str, Any], game: str, players: int) -> None:
    """The mask holds exactly the distinct slots of the seat's legal actions, and each
    masked index plays a legal action (follow-up decisions included)."""
    aec = env(data[game], players)

    def check(aec: Any, agent: str, observation: dict[str, Any]) -> None:
        seat = aec.agent_seats[agent]
        legal = aec.game.legal_actions(seat)
        slots = {aec.index_of(action) for action in legal}
        assert set(np.flatnonzero(observation["action_mask"])) == slots
        for index, action in aec.legal_by_index(seat).items():
            assert action in legal and aec.index_of(action) == index

    seen: set[str] = set()
    for seed in range(3):
        seen |= set(_play_aec(aec, seed, random.Random(seed), check))
    assert "turn" in seen
    follow_up = {"duel": "wonder_draft", "base": "side"}.get(game)
    assert follow_up is None or follow_up in seen


def _hidden(game: Any, seat: int) -> dict[str, list[str]]:
    return {place: sorted(card.name for card in cards)
            for place, (visible, cards) in game.card_places(seat).items() if not visible}


@pytest.mark.parametrize("game,players", TABLES)
def test_an_observation_shows_nothing_the_seat_cannot_see(
        data: dict[str, Any], game: str, players: int) -> None:
    """Re-dealing everything seat 0 cannot see (other hands, face-down cards) leaves its
    observation unchanged, while the hidden cards did change — so an encoder that read
    another hand or a face-down card would fail here."""
    aec = env(data[game], players)
    encoder = aec.spaces.observations
    rng = random.Random(5)
    compared = changed = 0
    for seed in range(3):
        aec.reset(seed=seed)
        while not aec.game.over:
            state = aec.game
            for seat in range(players):
                other = state.determinize(seat, random.Random(rng.random()))
                assert np.array_equal(encoder.encode(state, seat), encoder.encode(other, seat))
                compared += 1
                changed += _hidden(state, seat) != _hidden(other, seat)
            state.play({s: rng.choice(state.legal_actions(s)) for s in state.to_move()})
    assert compared > 20 and changed > compared // 4


def test_a_leaking_encoder_would_be_caught(data: dict[str, Any]) -> None:
    """The check above is not a rubber stamp: an encoder that also counted the next seat's
    hand gives a game and its determinization different observations."""
    from wonders.env import DraftEncoder

    aec = env(data["base"], 3, options={"sides": "random"})  # hands dealt at once
    aec.reset(seed=2)
    state = aec.game
    assert state.decision().kind == "turn"
    other = state.determinize(0, random.Random(1))

    class Leaky(DraftEncoder):
        def encode(self, game: Any, seat: int, decision: Any = None) -> Any:
            found = super().encode(game, seat, decision)
            for card in game.hands[(seat + 1) % self.players]:
                found[self.hand[card]] += 1.0
            return found

    encoder = aec.spaces.observations
    leaky = Leaky(data["base"], 3)
    assert np.array_equal(encoder.encode(state, 0), encoder.encode(other, 0))
    assert not np.array_equal(leaky.encode(state, 0), leaky.encode(other, 0))


@pytest.mark.parametrize("game,players", TABLES)
def test_observations_updated_in_place_equal_fresh_ones_and_never_change_later(
        data: dict[str, Any], game: str, players: int) -> None:
    """The environment updates each seat's last vector where a block changed (and reuses
    one mask buffer): every observation and mask it hands out equals the encoder's fresh
    ``encode()`` and the legal actions of that moment, and stays so after later steps."""
    aec = env(data[game], players)
    encoder = aec.spaces.observations
    kept: list[tuple[Any, Any, Any, Any]] = []
    rng = random.Random(3)
    for seed in range(2):
        aec.reset(seed=seed)
        for agent in aec.agent_iter():
            observation, _, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                aec.step(None)
                continue
            seat = aec.agent_seats[agent]
            mask = np.zeros(len(aec.catalogue), np.int8)
            mask[sorted(aec.legal_by_index(seat))] = 1
            fresh = encoder.encode(aec.game, seat)
            assert np.array_equal(observation["observation"], fresh)
            assert np.array_equal(observation["action_mask"], mask)
            kept.append((observation["observation"], fresh, observation["action_mask"], mask))
            legal = observation["action_mask"].nonzero()[0]
            aec.step(int(legal[rng.randrange(len(legal))]))
    assert len(kept) > 50
    for vector, fresh, found, mask in kept:
        assert np.array_equal(vector, fresh) and np.array_equal(found, mask)
    # (the blocks do change between the steps of one seat: the check compares something)
    assert sum(not np.array_equal(a[0], b[0]) for a, b in zip(kept, kept[1:])) > len(kept) // 2


@pytest.mark.parametrize("game,players", TABLES)
def test_one_memory_fed_two_games_in_turn_gives_each_game_its_own_vector(
        data: dict[str, Any], game: str, players: int) -> None:
    """A memory patches the blocks that changed since it last wrote (lists that only grew,
    the structure slot by slot, numbers by object): fed the positions of two different
    games in turn, every block differs from what it holds, and each vector must still
    equal a fresh ``encode()`` of its own game (the patches compare values, never which
    game the memory saw)."""
    encoder = env(data[game], players).spaces.observations
    memory = encoder.memory()
    assert memory is not None  # (the loop's encoder has the fast path)
    games = [wonders.new_game(data[game], players, seed) for seed in (11, 12)]
    rngs = [random.Random(1), random.Random(2)]
    compared = differed = 0
    while not all(g.over for g in games):
        for g, rng in zip(games, rngs):
            seat = compared % players
            vector = encoder.observe(g, seat, None, memory)
            fresh = encoder.encode(g, seat)
            assert np.array_equal(vector, fresh)
            other = games[1] if g is games[0] else games[0]
            differed += not np.array_equal(fresh, encoder.encode(other, seat))
            compared += 1
            if not g.over:
                g.play({s: rng.choice(g.legal_actions(s)) for s in g.to_move()})
    assert compared > 30 and differed > compared // 2


def test_an_encoder_subclass_that_changes_encode_is_what_the_environment_gives(
        data: dict[str, Any]) -> None:
    """The fast path (``write``) mirrors the shipped ``encode``; a subclass that changes
    only ``encode`` still gets its own vectors through the environment."""
    from wonders.env import StructureEncoder

    class Marked(StructureEncoder):
        def encode(self, game: Any, seat: int, decision: Any = None) -> Any:
            found = super().encode(game, seat, decision)
            found[0] = 42.0
            return found

    aec = env(data["duel"])
    assert aec.encoder.memory() is not None  # (the shipped encoder takes the fast path)
    aec.encoder = Marked(data["duel"], 2)
    aec._memories = [aec.encoder.memory() for _ in range(2)]
    assert aec._memories == [None, None]
    aec.reset(seed=4)
    observation = aec.last()[0]["observation"]
    assert observation[0] == 42.0
    assert np.array_equal(observation, aec.encoder.encode(aec.game, 0))


def test_reset_with_a_seed_deals_the_game_of_that_seed(data: dict[str, Any]) -> None:
    aec = env(data["duel"])
    aec.reset(seed=11)
    assert aec.game.setup_record() == wonders.new_game(data["duel"], 2, 11).setup_record()
    aec.reset()  # the next seed
    assert aec.game.seed == 12
    first = _play_aec(env(data["base"], 4), 3, random.Random(0))
    again = env(data["base"], 4)
    assert _play_aec(again, 3, random.Random(0)) == first
    history = again.game.history
    _play_aec(again, 3, random.Random(0))
    assert again.game.history == history


def test_rewards_come_from_the_final_ranking(data: dict[str, Any]) -> None:
    par = parallel_env(data["base"], 3)
    observations, _ = par.reset(seed=4)
    rng = random.Random(4)
    total: dict[str, float] = {agent: 0.0 for agent in par.possible_agents}
    while par.agents:
        actions = {}
        for agent in par.agents:
            legal = np.flatnonzero(observations[agent]["action_mask"])
            actions[agent] = int(rng.choice(list(legal))) if len(legal) else 0
        observations, rewards, terminations, _, _ = par.step(actions)
        for agent, reward in rewards.items():
            total[agent] += reward
    sheet = par.game.score_sheet()
    ranking = sheet.ranking()
    assert total[f"player_{ranking[0]}"] == 1.0
    assert total[f"player_{ranking[-1]}"] == (1.0 if ranking[-1] in sheet.winners else -1.0)
    assert [total[a] for a in par.possible_agents] == rewards_of(par.game)


def test_bad_actions_are_clear_errors(data: dict[str, Any]) -> None:
    aec = env(data["duel"])
    aec.reset(seed=1)
    mask = aec.observe(aec.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match="is not legal now; legal: "):
        aec.step(illegal)
    with pytest.raises(EnvError, match="out of range"):
        aec.step(10**6)
    with pytest.raises(EnvError, match="an action is an index"):
        aec.step("build")
    # any other object that is not an engine action: the environment says what an action is
    with pytest.raises(EnvError, match=r"an action is an index 0-\d+ .* not \[1, 2\]"):
        aec.step([1, 2])
    with pytest.raises(EnvError, match="no agent 'nobody'"):
        aec.observe("nobody")
    with pytest.raises(EnvError, match="plays with 3 to 7 players, not 9"):
        env(data["base"], 9)
    with pytest.raises(EnvError, match="illegal must be one of"):
        env(data["base"], 3, illegal="ignore")
    lose = env(data["duel"], illegal="lose")
    lose.reset(seed=1)
    agent = lose.agent_selection
    lose.step(illegal)
    assert all(lose.terminations.values())
    assert lose._cumulative_rewards[agent] == -1.0
    assert not lose.observe(agent)["action_mask"].any()


def test_a_bot_plays_through_the_environment_with_its_own_payment(data: dict[str, Any]) -> None:
    """Engine actions are accepted as they are (a bot's exact payment)."""
    aec = env(data["base"], 3)
    aec.reset(seed=6)
    bots = [wonders.make_bot("greedy", seat) for seat in range(3)]
    for agent in aec.agent_iter():
        _, _, terminated, _, _ = aec.last()
        if terminated:
            aec.step(None)
            continue
        seat = aec.agent_seats[agent]
        aec.step(bots[seat].choose(aec.game, seat))
    assert aec.game.over and not aec.agents


def test_the_example_agent_trains_and_reports_its_win_rate(
        capsys: pytest.CaptureFixture[str]) -> None:
    import runpy
    from pathlib import Path

    example = Path(__file__).resolve().parent.parent / "examples" / "agent_vs_bots.py"
    main = runpy.run_path(str(example))["main"]
    assert main(["--game", "duel", "--train", "20", "--games", "10"]) == 0
    printed = capsys.readouterr().out
    assert "the tabular agent won" in printed and "/10 games against random bots" in printed
    with pytest.raises(SystemExit):
        main(["--game", "base", "--players", "9"])
    assert "plays with 3 to 7 players, not 9" in capsys.readouterr().err


def test_the_examples_of_docs_env_run() -> None:
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "env.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks
    namespace: dict[str, Any] = {}
    for block in blocks:
        exec(compile(block, "docs/env.md", "exec"), namespace)
    assert namespace["aec"].game.over and set(namespace["observations"]) == {
        f"player_{seat}" for seat in range(7)}
