"""Two rule sets in one process play as each plays alone.

The hot path shares its answers between games through module-level tables keyed by
interned values (productions, price lists, terms). A key that leaves out something
the answer depends on hands one rule set's answer to the other: a Duel variant with a
dearer bank, played after Duel in the same process (``simulate --compare``, a server
hosting both), priced its cards at Duel's bank price. Each rule set's random games are
compared after emptying the tables (as in a fresh process) and after the other's.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

from wonders.dsl.loader import load_game
from wonders.dsl.model import Game as GameData
from wonders.engine import memo
from wonders.engine.randomness import below
from wonders.engine.registry import new_game

VARIANTS = {
    "duel": "trade:\n  mechanism: bank\n  price: 4\n  add: {colours: [brown, grey], place: opponent}\n",
    "base": "trade:\n  price: 1\n  buyable: [start, brown, grey]\n",
}


def _digest(data: GameData, players: int, games: int) -> str:
    """Every legal action of ``games`` random games, hashed."""
    digest = hashlib.sha256()
    for seed in range(games):
        game = new_game(data, players, seed)
        rng = random.Random(seed)
        while not game.over:
            moves = {}
            for seat in game.to_move():
                actions = game.legal_actions(seat)
                digest.update(json.dumps([a.to_json() for a in actions]).encode())
                moves[seat] = actions[below(rng, len(actions))]
            game.play(moves)
    return digest.hexdigest()


@pytest.mark.parametrize("game, players, games", [("duel", 2, 12), ("base", 3, 3)])
def test_a_variant_after_its_game_plays_as_alone(tmp_path: Path, game: str, players: int,
                                                 games: int) -> None:
    rules = tmp_path / "rules.yaml"
    rules.write_text(f"kind: rules\nname: dear-{game}\nextends: {game}\n{VARIANTS[game]}",
                     encoding="utf-8")
    shipped, variant = load_game(game=game), load_game([str(rules)])
    memo.clear()
    alone = _digest(variant, players, games)
    memo.clear()
    _digest(shipped, players, games)  # fills the shared tables with the shipped game's answers
    assert _digest(variant, players, games) == alone
    memo.clear()
    shipped_alone = _digest(shipped, players, games)
    memo.clear()
    _digest(variant, players, games)  # and the other way round
    assert _digest(shipped, players, games) == shipped_alone
