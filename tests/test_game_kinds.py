"""Each registered loop declares its kind once (OpenSpiel's ``GameType``), and its games
are of that kind: random games of every shipped rule set and table size are checked
against the declaration."""

from __future__ import annotations

import random
from functools import cache

import pytest

from wonders.dsl.loader import load_game, shipped_expansions, shipped_games
from wonders.dsl.model import Game as GameData
from wonders.engine.registry import LOOPS, loop_for, new_game


def rule_sets() -> dict[str, str]:
    found = {name: name for name in shipped_games()}
    found.update({name: str(folder) for name, folder in shipped_expansions().items()
                  if (folder / "rules.yaml").is_file()})
    return found


@cache
def data(name: str) -> GameData:
    return load_game(game=rule_sets()[name])


def test_every_loop_declares_its_kind() -> None:
    assert set(LOOPS) == {"draft", "structure", "dice", "decks"}
    for loop in LOOPS.values():
        low, high = loop.kind.players
        assert 1 <= low <= high and loop.kind.max_decisions > 0
        assert loop.kind.dynamics in ("simultaneous", "sequential")


@pytest.mark.parametrize("name", sorted(rule_sets()))
def test_games_are_of_their_loops_kind(name: str) -> None:
    rules = data(name).rules
    kind = loop_for(data(name)).kind
    assert kind.players[0] <= rules.min_players <= rules.max_players <= kind.players[1]
    several_at_once = hidden = False
    for players in range(rules.min_players, rules.max_players + 1):
        for seed in range(3):
            game = new_game(data(name), players, seed)
            rng = random.Random(seed)
            for _ in range(kind.max_decisions):
                if game.over:
                    break
                seats = game.to_move()
                several_at_once |= len(seats) > 1
                hidden |= any(not seen for seat in range(players)
                              for seen, _ in game.card_places(seat).values())
                game.play({s: rng.choice(game.legal_actions(s)) for s in seats})
            assert game.over, f"{name}: no end within {kind.max_decisions} decisions"
    assert several_at_once == (kind.dynamics == "simultaneous")
    assert hidden == (kind.information == "imperfect")
