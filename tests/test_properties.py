"""Properties of whole games, over many seeded random games at every player count.

Whatever the players do: no exception, every card is in exactly one place,
every coin is accounted for, everyone plays 18 cards (plus one per age with
the last-card power), the score total is the sum of its lines, and the same
seed gives the same game.
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


def play_random(players: int, seed: int, *, check_every_step: bool = True) -> Game:
    game = Game(DATA, players, seed)
    rng = random.Random(seed ^ 0x5EED)
    dealt = game.params.hand * players
    while not game.over:
        moves = {s: rng.choice(game.legal_actions(s)) for s in game.to_move()}
        age = game.age
        game.play(moves)
        if check_every_step:
            assert_coins_conserved(game)
            in_play = cards_in_play(game)
            in_hands = sum(len(h) for h in game.hands)
            ages_dealt = game.age if game.age > age or game.over else age
            if game.over:
                ages_dealt = game.data.rules.ages
            assert in_play + in_hands == dealt * ages_dealt, "a card was lost or duplicated"
    return game


def cards_in_play(game: Game) -> int:
    return (sum(len(c.built) + len(c.stage_cards) for c in game.cities) + len(game.discard))


def assert_coins_conserved(game: Game) -> None:
    coins = sum(c.coins for c in game.cities)
    assert coins == game.start_coins + game.bank_gave - game.bank_paid
    assert all(c.coins >= 0 for c in game.cities)


def assert_game_properties(game: Game) -> None:
    players = game.players
    # every card in exactly one place: the same physical card is never in two places
    places: Counter[int] = Counter()
    for city in game.cities:
        assert len({c.name for c in city.built}) == len(city.built), "a duplicate building"
        assert city.stages == len(city.stage_cards) <= len(city.side.stages)
    assert sum(len(h) for h in game.hands) == 0
    assert cards_in_play(game) == game.params.hand * players * game.data.rules.ages
    del places
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
    # scores are the sum of their lines
    sheet = game.score_sheet().to_json()
    for row in sheet["players"]:  # type: ignore[union-attr]
        assert row["total"] == sum(row["lines"].values())
    assert sheet["winners"]


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_many_random_games(players: int) -> None:
    for seed in range(300):
        game = play_random(players, seed, check_every_step=seed < 40)
        assert_game_properties(game)
        assert_coins_conserved(game)


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 7), seed=st.integers(0, 2**32 - 1))
def test_any_seed(players: int, seed: int) -> None:
    game = play_random(players, seed)
    assert_game_properties(game)


@pytest.mark.parametrize("players", [3, 7])
def test_same_seed_same_game(players: int) -> None:
    first = play_random(players, 12345, check_every_step=False)
    second = play_random(players, 12345, check_every_step=False)
    assert first.history == second.history
    assert first.score_sheet().to_json() == second.score_sheet().to_json()
    other = play_random(players, 54321, check_every_step=False)
    assert other.history != first.history


def test_every_action_kind_happens() -> None:
    """The random games above are worth something only if they exercise every action."""
    kinds: Counter[str] = Counter()
    methods: Counter[str] = Counter()
    for seed in range(40):
        game = play_random(5, seed, check_every_step=False)
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
