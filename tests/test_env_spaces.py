"""The environment's spaces (wonders.env): the action space derived from the data covers every
legal action of random games of every shipped game and expansion at several table sizes, one
distinct id per slot and back; ids depend on the rule set and table size only; the sizes
docs/env.md states are the real ones."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="wonders.env needs PettingZoo: pip install 'wonders[env]'")

import numpy as np  # noqa: E402

import wonders  # noqa: E402
from wonders.env import ActionCatalogue, env, slot_of, spaces_for  # noqa: E402

# every shipped game and expansion, at its smallest, a middle and its largest table
TABLES = [("base", 3), ("base", 5), ("base", 7), ("base2e", 3), ("base2e", 7), ("duel", 2),
          ("dice", 2), ("dice", 4), ("leaders", 3), ("leaders", 5), ("leaders", 7),
          ("cities", 3), ("cities", 6), ("leaders-cities", 4), ("leaders-cities", 7)]
GAMES = 12  # random games per table (the dice view encoder is the slow one)

_DATA: dict[str, Any] = {}


def _data(name: str) -> Any:
    if name not in _DATA:
        _DATA[name] = wonders.load_game(name)
    return _DATA[name]


def _without_payment(action: Any) -> dict[str, Any]:
    """An action's JSON form without what a slot leaves out: the coins paid (and a die's
    forum position, which its name tells apart)."""
    found = dict(action.to_json())
    for key in ("payment", "pay", "slot"):
        found.pop(key, None)
    if isinstance(found.get("cross"), dict):
        found["cross"] = {k: v for k, v in found["cross"].items() if k not in ("pay", "slot")}
    if found.get("action") == "pay_or_take":
        found.pop("coins")  # (told by the tokens taken: the amount owed is the decision's)
    return found


@pytest.mark.parametrize("game,players", TABLES)
def test_every_legal_action_has_its_own_slot_and_back(game: str, players: int) -> None:
    """Random games through the AEC environment: at every decision, every legal action of
    every deciding seat maps to an id; actions that share an id differ only in payment;
    the mask holds exactly those ids; each id of the mask plays a legal action of its slot."""
    data = _data(game)
    aec = env(data, players)
    catalogue = aec.catalogue
    kinds: set[str] = set()
    for seed in range(GAMES):
        aec.reset(seed=seed)
        rng = random.Random(seed)
        for agent in aec.agent_iter():
            observation, _, terminated, truncated, info = aec.last()
            if terminated or truncated:
                aec.step(None)
                continue
            seat = aec.agent_seats[agent]
            legal = aec.game.legal_actions(seat)
            by_id: dict[int, list[Any]] = {}
            for action in legal:
                by_id.setdefault(catalogue.index_of(action), []).append(action)
                kinds.add(slot_of(action)[0])
            for index, actions in by_id.items():
                assert all(_without_payment(a) == _without_payment(actions[0]) for a in actions)
                slot = catalogue.slots[index]
                assert slot[0] == slot_of(actions[0])[0]
                assert catalogue.index[slot] == index and catalogue.describe(index)
            assert set(np.flatnonzero(observation["action_mask"])) == set(by_id)
            for index, action in aec.legal_by_index(seat).items():
                assert action in by_id[index]
            aec.step(int(rng.choice(sorted(by_id))))
        assert aec.game.over
    assert kinds, "no decision was met"


def test_every_leader_and_token_has_its_slots() -> None:
    """What sample games may never meet has a slot all the same: every leader can be kept
    and built, every Duel progress token taken, every Cities debt answer given."""
    leaders = _data("leaders")
    catalogue = ActionCatalogue(leaders, 3)
    reserve = leaders.reserve_cards()
    assert len(reserve) >= 36
    for card in reserve:
        assert ("keep", card.name, card.age) in catalogue.index
        assert ("build", card.name, card.age, "pay") in catalogue.index
    duel = ActionCatalogue(_data("duel"), 2)
    for token in _data("duel").tokens:
        assert ("take_token", token.name) in duel.index
    cities = ActionCatalogue(_data("cities"), 3)
    # "others loses 3 coins or debt tokens" is the largest fixed debt: 0..3 tokens, and more
    assert {("pay_or_take", "debt", n) for n in range(4)} <= set(cities.index)


def test_ids_are_a_function_of_the_rule_set_and_table_size() -> None:
    """Two loads of a game give the same ids, whatever was played in between; another table
    size keeps every card slot's id and adds per-seat slots after them."""
    first = ActionCatalogue(_data("base"), 4)
    aec = env("base", 4)
    aec.reset(seed=3)
    again = ActionCatalogue(wonders.load_game("base"), 4)
    assert again.slots == first.slots == aec.catalogue.slots
    seven = ActionCatalogue(_data("base"), 7)
    kept = [slot for slot in first.slots if slot[0] not in ("destroy", "copy", "starter")]
    assert len(seven) > len(first)
    shared = kept.index(("skip",)) + len(_data("base").wonders) + len(_data("base").tokens)
    for slot in kept[:shared + 1]:  # the slots of the data alone keep their ids
        assert seven.index[slot] == first.index[slot], slot


def _documented_sizes() -> dict[tuple[str, int], tuple[int, int]]:
    text = (Path(__file__).resolve().parent.parent / "docs" / "env.md").read_text()
    table = text.split("<!-- sizes -->")[1]
    found: dict[tuple[str, int], tuple[int, int]] = {}
    for name, players, actions, numbers in re.findall(
            r"^\| `([a-z0-9-]+)` \| (\d+) \| ([\d,]+) \| ([\d,]+) \|", table, re.M):
        found[(name, int(players))] = (int(actions.replace(",", "")),
                                       int(numbers.replace(",", "")))
    return found


def test_the_sizes_docs_env_states_are_the_real_ones() -> None:
    """docs/env.md's table: the action space's and the observation's size, per game and
    table size, as an environment reports them."""
    documented = _documented_sizes()
    assert len(documented) >= 14
    names = {name for name, _ in documented}
    assert names == {"base", "base2e", "duel", "dice", "leaders", "cities", "leaders-cities"}
    for (name, players), (actions, numbers) in documented.items():
        aec = env(_data(name), players)
        assert aec.action_space(aec.possible_agents[0]).n == actions, (name, players)
        space = aec.observation_space(aec.possible_agents[0])
        assert space["observation"].shape == (numbers,), (name, players)
        aec.reset(seed=1)
        observation = aec.observe(aec.agent_selection)
        assert observation["observation"].shape == (numbers,)
        assert observation["action_mask"].shape == (actions,)


def test_the_block_layout_adds_up_and_names_each_seat_relatively() -> None:
    for name, players in (("base", 3), ("duel", 2), ("dice", 3)):
        encoder = spaces_for(_data(name), players).observations
        assert sum(length for _, _, length in encoder.blocks) == encoder.size
        offsets = [start for _, start, _ in encoder.blocks]
        assert offsets == sorted(offsets)
    base = spaces_for(_data("base"), 3).observations
    names = [block for block, _, _ in base.blocks]
    assert "city+0/built" in names and "city+2/built" in names and "hand" in names


def test_an_observation_counts_what_the_seat_sees() -> None:
    """Base at 3 players, seed 1, the first turn: the hand holds 7 cards, each city starts
    with its coins (3 in base), the seat one-hot and the decision kind are set."""
    aec = env(_data("base"), 3, options={"sides": "A"})
    aec.reset(seed=1)
    seat = aec.agent_seats[aec.agent_selection]
    vector = aec.observe(aec.agent_selection)["observation"]
    encoder = aec.encoder
    blocks = {name: (start, length) for name, start, length in encoder.blocks}
    start, length = blocks["hand"]
    assert vector[start:start + length].sum() == 7 == len(aec.game.hands[seat])
    start, _ = blocks["city+0/coins,shields,stages"]
    assert list(vector[start:start + 3]) == [3, 0, 0]
    start, _ = blocks["seat"]
    assert vector[start + seat] == 1
    start, _ = blocks["decision"]
    assert vector[start + encoder.kinds["turn"]] == 1
