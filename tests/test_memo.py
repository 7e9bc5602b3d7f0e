"""The engine's memo tables (wonders.engine.memo): one home, bounded, clearable, never needed.

A long-running process (the web table, a training run) plays games for weeks and
reloads data; these tests hold that every cache that grows while games are played
is a registered, bounded table, that emptying any of them at any moment changes no
game, and that a dropped data set is not kept alive by the engine.
"""

from __future__ import annotations

import gc
import random
import sys
from typing import Any, Iterator

import pytest

from wonders.dsl.loader import load_game
from wonders.dsl.model import Game as GameData
from wonders.engine import memo
from wonders.engine.registry import new_game


def _play(data: GameData, players: int, seed: int, after_each: Any = None) -> Any:
    """A random game (choices from the game's own seed); its history and final score."""
    game = new_game(data, players, seed)
    rng = random.Random(seed)
    while not game.over:
        game.play({s: rng.choice(game.legal_actions(s)) for s in game.to_move()})
        if after_each is not None:
            after_each()
    return game.history, game.score_sheet().to_json()


def _module_containers() -> dict[tuple[str, str], Any]:
    """Every dict/list/set held at module level by an engine or language module."""
    found = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("wonders.") or module is None:
            continue
        for attr, value in vars(module).items():
            if isinstance(value, (dict, list, set)) and not attr.startswith("__"):
                found[(name, attr)] = value
    return found


GAMES = [("base", 3), ("base", 7), ("duel", 2)]


@pytest.fixture(scope="module")
def loaded() -> dict[str, GameData]:
    return {name: load_game([], name) for name in ("base", "duel")}


def test_every_cache_that_grows_while_playing_is_a_registered_table(
        loaded: dict[str, GameData]) -> None:
    for name, players in GAMES:  # warm up: imports, first games
        _play(loaded[name], players, 0)
    before = {key: len(value) for key, value in _module_containers().items()}
    registered = {id(table) for table in memo._TABLES.values()}
    memo.clear()
    for seed in range(1, 6):
        for name, players in GAMES:
            _play(loaded[name], players, seed)
    grown = [f"{module}.{attr}: {before.get((module, attr), 0)} -> {len(value)}"
             for (module, attr), value in _module_containers().items()
             if len(value) > before.get((module, attr), 0) and id(value) not in registered
             and value is not memo._TABLES and value is not memo._LIMITS
             and value is not memo._NAMES]
    assert not grown, "module-level containers that grow with games but are not memo tables:\n" \
        + "\n".join(grown)


def test_clearing_every_table_after_every_decision_changes_no_game(
        loaded: dict[str, GameData]) -> None:
    for name, players in GAMES:
        for seed in (3, 4):
            plain = _play(loaded[name], players, seed)
            cleared = _play(loaded[name], players, seed, after_each=memo.clear)
            assert plain == cleared, (name, players, seed)


@pytest.fixture
def tiny_bounds() -> Iterator[None]:
    old = {name: memo.set_limit(name, 3) for name in memo.names()}
    try:
        yield
    finally:
        for name, bound in old.items():
            memo.set_limit(name, bound)


def test_tables_stay_within_their_bounds_and_games_are_unchanged(
        loaded: dict[str, GameData], tiny_bounds: None) -> None:
    # tiny bounds empty the tables over and over mid-game: the games must not notice
    for name, players in GAMES:
        expected = None
        for seed in (5,):
            memo.set_limit("interning.ids", 3)
            game = _play(loaded[name], players, seed)
            for table, (entries, bound) in memo.sizes().items():
                assert entries <= bound, (table, entries, bound)
            expected = game
        memo.clear()
        for table in memo.names():
            memo.set_limit(table, 10_000)
        assert _play(loaded[name], players, 5) == expected


def test_a_dropped_data_set_is_not_kept_alive(loaded: dict[str, GameData]) -> None:
    # compiled classes cannot be weakly referenced: memo.watch's finalizer counts instead
    for name, players in GAMES:
        data = load_game([], name)
        _play(data, players, 1)
        gc.collect()  # earlier tests' dropped data sets are freed first
        before = memo.dropped()
        del data
        gc.collect()
        assert memo.dropped() == before + 1, f"something still holds the dropped {name} data"


def test_dropping_a_data_set_empties_the_tables_that_keep_its_cards() -> None:
    for name, players in GAMES:
        data = load_game([], name)
        _play(data, players, 2)
        assert sum(n for n, _ in memo.sizes().values()) > 0
        del data
        gc.collect()
        assert {table: n for table, (n, _) in memo.sizes().items() if n} == {}


def test_remember_empties_a_full_table_first() -> None:
    table = memo.table("tests.scratch", 2)
    try:
        memo.remember(table, "a", 1)
        memo.remember(table, "b", 2)
        assert memo.remember(table, "c", 3) == 3
        assert table == {"c": 3}
        assert memo.sizes()["tests.scratch"] == (1, 2)
        with pytest.raises(ValueError, match="registered twice"):
            memo.table("tests.scratch", 2)
        with pytest.raises(ValueError, match="positive"):
            memo.set_limit("tests.scratch", 0)
    finally:
        del memo._TABLES["tests.scratch"]
