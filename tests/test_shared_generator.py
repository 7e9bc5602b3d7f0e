"""Clones share their original's random generator until one of them draws.

Copying a generator's state is the dearest part of a clone, and most clones (a greedy
policy's trials) never draw, so :class:`~wonders.engine.randomness.SharedGenerator`
copies it on the first draw instead.  These tests hold that to "the games are the
same": whoever draws first — the original or the clone, a clone of a clone — each game
deals and rolls exactly what it would have with a copy made at once.  The same games
check what else clones share until it changes (a dice sheet's rows of crossed spaces).
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest

from wonders.dsl.loader import load_game
from wonders.dsl.model import Game as GameData
from wonders.engine.contract import GameState
from wonders.engine.randomness import SharedGenerator, below, copy_of
from wonders.engine.registry import new_game

GAMES = [("base", 3), ("duel", 2), ("dice", 3)]


@cache
def data(name: str) -> GameData:
    return load_game(game=name)


def play_on(game: GameState, moves: list[dict[int, Any]], start: int) -> None:
    """Play the recorded moves from decision ``start`` on (found again by equality)."""
    for recorded in moves[start:]:
        game.play({seat: next(a for a in game.legal_actions(seat) if a == action)
                   for seat, action in recorded.items()})


def outcome(game: GameState) -> tuple[Any, Any]:
    return game.history, game.score_sheet().to_json()


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_clone_plays_the_same_game_whoever_draws_first(name: str, players: int) -> None:
    game = new_game(data(name), players, 11)
    rng = random.Random(11)
    moves: list[dict[int, Any]] = []
    clones: list[tuple[int, GameState]] = []
    while not game.over:
        if len(moves) % 9 == 0:   # a clone every few decisions, ages and rolls ahead of it
            clones.append((len(moves), game.clone()))
        decision = {s: game.legal_actions(s)[below(rng, len(game.legal_actions(s)))]
                    for s in game.to_move()}
        moves.append(decision)
        game.play(decision)
    # the original drew first (it played on to the end); each clone now plays the rest
    for start, clone in clones:
        play_on(clone, moves, start)
        assert outcome(clone) == outcome(game), start
    # the clone draws first: a fresh game is cloned, the clone (and a clone of it) play to
    # the end, and only then the original
    fresh = new_game(data(name), players, 11)
    first = fresh.clone()
    second = first.clone()
    play_on(first, moves, 0)
    play_on(second, moves, 0)
    play_on(fresh, moves, 0)
    assert outcome(first) == outcome(second) == outcome(fresh) == outcome(game)


def test_a_shared_generator_is_copied_by_whoever_draws_and_never_drawn_from() -> None:
    original, clone = SharedGenerator(), SharedGenerator()
    original.set_generator(random.Random(5))
    expected = copy_of(original.generator())
    original.share_generator(clone)
    shared = original._rng   # the one object both now hold
    assert clone._rng is shared
    before = shared.getstate()
    clone_draws = [clone.generator().random() for _ in range(3)]
    original_draws = [original.generator().random() for _ in range(3)]
    assert clone_draws == original_draws == [expected.random() for _ in range(3)]
    assert shared.getstate() == before   # the shared object itself was never drawn from
    assert clone.generator() is not original.generator()
