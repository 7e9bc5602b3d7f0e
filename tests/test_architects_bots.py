"""The bots in 7 Wonders Architects (a flow game): the greedy policy beats random play, the
search bot plays with it, and ``wonders play`` runs a game of mixed bots to its end."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from wonders.bots import make_bot
from wonders.bots.greedy_flow import FlowGreedy
from wonders.bots.mcts import MCTSBot
from wonders.bots.policy import greedy_policy
from wonders.cli import app
from wonders.dsl.loader import load_game
from wonders.engine.flow import FlowGame
from wonders.engine.mechanisms import decks, pieces
from wonders.engine.registry import new_game

runner = CliRunner()


@pytest.fixture(scope="module")
def data():  # type: ignore[no-untyped-def]
    return load_game(game="architects")


def _greedy_wins(data, players: int, seeds: range) -> float:  # type: ignore[no-untyped-def]
    """The share of games the greedy bot wins against random bots, its seat turning with
    the seed (a shared victory counts its share)."""
    won = 0.0
    for seed in seeds:
        greedy_seat = seed % players
        bots = [make_bot("greedy" if s == greedy_seat else "random", seed * 1000 + s)
                for s in range(players)]
        game = new_game(data, players, seed)
        while not game.over:
            seat = game.to_move()[0]
            game.play({seat: bots[seat].choose(game, seat)})
        winners = game.score_sheet().winners
        if greedy_seat in winners:
            won += 1 / len(winners)
    return won / len(seeds)


def test_the_registered_greedy_policy_is_the_flow_one(data) -> None:  # type: ignore[no-untyped-def]
    assert greedy_policy(data) is FlowGreedy


@pytest.mark.parametrize("players, seeds, at_least", [(2, 20, 0.75), (4, 30, 0.5)])
def test_greedy_beats_random_bots(data, players: int, seeds: int,  # type: ignore[no-untyped-def]
                                  at_least: float) -> None:
    """1/N is what a bot as good as random wins; greedy wins far more (these seeds: 0.9
    of 20 games at 2 players, 0.65 of 30 at 4; over 100 other seeds at 4: 0.69)."""
    share = _greedy_wins(data, players, range(seeds))
    assert share >= at_least, share


def test_greedy_never_looks_at_a_hidden_card(data) -> None:  # type: ignore[no-untyped-def]
    """The central deck is face down: two games that differ only in the order of the
    cards the seat cannot see get the same choice and the same values."""
    game = FlowGame(data, 3, 5)
    seat = game.to_move()[0]
    other = game.clone()
    central = decks.state(other).decks[decks.state(other).central]
    central.reverse()    # (the cat is nobody's: the seat sees no card of it)
    assert decks.state(game).decks[decks.state(game).central] != central
    ranked = [FlowGreedy(seed=1).rank(g, seat, list(g.legal_actions(seat)))
              for g in (game, other)]
    assert [(round(v, 9), str(m)) for v, m in ranked[0]] == \
        [(round(v, 9), str(m)) for v, m in ranked[1]]


def test_rank_lists_every_move_once_best_first(data) -> None:  # type: ignore[no-untyped-def]
    game = FlowGame(data, 2, 3)
    seat = game.to_move()[0]
    moves = game.legal_actions(seat)
    ranked = FlowGreedy().rank(game, seat, moves)
    assert sorted(str(m) for _, m in ranked) == sorted(str(m) for m in moves)
    values = [v for v, _ in ranked]
    assert values == sorted(values, reverse=True)


def test_fast_and_noisy_policies_play_whole_games(data) -> None:  # type: ignore[no-untyped-def]
    """What the search bot's playouts use: fast, with noise, for every seat."""
    policy = FlowGreedy(seed=4, noise=0.3, fast=True)
    game = FlowGame(data, 3, 8)
    decisions = 0
    while not game.over:
        seat = game.to_move()[0]
        game.play({seat: policy.choose(game, seat)})
        decisions += 1
    assert 30 < decisions < 1200
    assert any(pieces.whole(game, s) for s in range(game.players)) or not any(decks.state(game).decks)


def test_the_search_bot_chooses_a_legal_move(data) -> None:  # type: ignore[no-untyped-def]
    """MCTS ranks with the greedy policy, determinizes the game and plays out with it."""
    bot = MCTSBot(seed=2, playouts=12)
    game = FlowGame(data, 2, 6)
    for _ in range(4):
        seat = game.to_move()[0]
        move = bot.choose(game, seat)
        assert move in game.legal_actions(seat)
        game.play({seat: move})
    playouts = bot.last_stats.get("playouts", 0)
    assert isinstance(playouts, int) and playouts <= 12 + 5


def test_determinize_keeps_what_the_seat_sees(data) -> None:  # type: ignore[no-untyped-def]
    game = FlowGame(data, 3, 2)
    seat = game.to_move()[0]
    world = game.determinize(seat, random.Random(1))
    assert world.view(seat)["decks"] == game.view(seat)["decks"]
    assert world.legal_actions(seat) == game.legal_actions(seat)


def test_play_with_greedy_random_and_search_bots_runs_to_the_end() -> None:
    # (two players: the search bot's full budget over a 3-player game takes half a minute)
    result = runner.invoke(app, ["play", "--game", "architects", "--players", "2",
                                 "--bots", "random,mcts", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "7 Wonders Architects — 2 players, seed 1" in result.output
    assert "winner" in result.output and "total" in result.output
    assert "Traceback" not in result.output
