"""Properties of whole base games, over many seeded random games at every player count.

Whatever the players do: no exception, everyone plays 18 cards (plus one per age
with the last-card power), every card dealt ends in a city, under a wonder or in
the discard pile, and every kind of action happens.  What every game must satisfy
(coins and cards conserved at every decision, same seed same game, scores adding
up, clones, logs, hidden information) is tests/test_conformance.py's, for every
game at once.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wonders.dsl.loader import load_game
from wonders.dsl.model import Game as GameData
from wonders.engine import Build, BuildFromDiscard, BuildStage, Game, Sell

DATA: GameData = load_game(game="base")


def play_random(players: int, seed: int) -> Game:
    game = Game(DATA, players, seed)
    rng = random.Random(seed ^ 0x5EED)
    while not game.over:
        game.play({s: rng.choice(game.legal_actions(s)) for s in game.to_move()})
    return game


def cards_in_play(game: Game) -> int:
    return (sum(len(c.built) + len(c.stage_cards) for c in game.cities) + len(game.discard))


def assert_game_properties(game: Game) -> None:
    players = game.players
    # every card dealt ends in a city, under a wonder or in the discard pile
    for city in game.cities:
        assert len({c.name for c in city.built}) == len(city.built), "a duplicate building"
        assert city.stages == len(city.stage_cards) <= len(city.side.stages)
    assert sum(len(h) for h in game.hands) == 0
    assert cards_in_play(game) == game.params.hand * players * game.data.rules.ages
    # actions: 18 cards played each, plus one per age with the last-card power
    played: Counter[int] = Counter()
    extra: Counter[int] = Counter()
    for entry in game.history:
        for seat, action in entry["actions"].items():
            if action["action"] in ("build", "stage", "sell"):
                played[int(seat)] += 1
            if entry["phase"] == "last_card":
                extra[int(seat)] += 1
    for seat in range(players):
        assert played[seat] == 18 + extra[seat]


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_many_random_games(players: int) -> None:
    for seed in range(300):
        assert_game_properties(play_random(players, seed))


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 7), seed=st.integers(0, 2**32 - 1))
def test_any_seed(players: int, seed: int) -> None:
    game = play_random(players, seed)
    assert_game_properties(game)


def test_every_action_kind_happens() -> None:
    """The random games above are worth something only if they exercise every action."""
    kinds: Counter[str] = Counter()
    methods: Counter[str] = Counter()
    for seed in range(40):
        game = play_random(5, seed)
        for entry in game.history:
            for action in entry["actions"].values():
                kinds[action["action"]] += 1
                if action["action"] == "build":
                    methods[action["method"]] += 1
    for kind in ("build", "stage", "sell", "discard_build"):
        assert kinds[kind] > 0, kind
    for method in ("pay", "chain", "free_build"):
        assert methods[method] > 0, method
    assert {Build, BuildStage, Sell, BuildFromDiscard}
