"""Every loop's ``clone()`` sets every field of the game, on both builds.

The loops are compiled by mypyc in a regular install, where an instance has no
``__dict__`` to copy wholesale: ``clone()`` lists every field, so a field added to
``__init__`` must be added there too.  This test catches a forgotten one (it would
be missing on the clone: an ``AttributeError`` when first read, compiled or not).
Fields are read from the instance dict (pure Python) or from the class's slot
descriptors (compiled).
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest

from wonders.dsl.loader import load_game, shipped_games
from wonders.dsl.model import Game as GameData
from wonders.engine.contract import GameState
from wonders.engine.randomness import below
from wonders.engine.registry import new_game

# fields a clone starts afresh (caches)
FRESH = {"_legal"}
# properties (the compiled build lists them among the slots) made when first read, which
# refuse where the game has none: a flow game's effect table without a part keeping cities
DERIVED = {"table"}


@cache
def data(name: str) -> GameData:
    return load_game(game=name)


def fields(game: GameState) -> set[str]:
    if hasattr(game, "__dict__"):
        return set(vars(game))
    return {name for klass in type(game).__mro__ for name, value in vars(klass).items()
            if type(value).__name__ in ("getset_descriptor", "member_descriptor")
            and not name.startswith("__")}


def plain(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, str, tuple, frozenset))


@pytest.mark.parametrize("name", sorted(shipped_games()))
def test_a_clone_has_every_field_of_its_original(name: str) -> None:
    game = new_game(data(name), None, 3)
    rng = random.Random(3)
    for _ in range(12):  # into the game: hands passed, structure cards taken
        if game.over:
            break
        moves = {}
        for seat in game.to_move():
            actions = game.legal_actions(seat)
            moves[seat] = actions[below(rng, len(actions))]
        game.play(moves)
    other = game.clone()
    names = fields(game)
    assert len(names) > 10, names
    for field in sorted(names - DERIVED):
        assert hasattr(other, field), f"{type(game).__name__}.clone() leaves {field} unset"
        mine, theirs = getattr(game, field), getattr(other, field)
        if field in FRESH:
            continue
        if plain(mine):
            assert theirs == mine, field
        elif isinstance(mine, (list, dict, set)):
            assert theirs is not mine or not mine, f"{field} is shared with the clone"
            assert len(theirs) == len(mine), field
