"""A card set that validates must score (two copy effects, one candidate).

A base card ``copy red cards from left`` validated and then failed an assertion
in scoring at 7 players: with two such cards in one city and a left neighbour
holding a single red card, every combination of picks copied that card twice and
was rejected, leaving no best pick.  Each copy now chooses on its own, the same
card as another copy of the city too, and a copy with no card to copy copies nothing
(docs/language.md, "copy").
"""

from __future__ import annotations

import random
from pathlib import Path

import wonders
from wonders.dsl.loader import load
from wonders.engine.scoring import score_city
from wonders.engine.table import at

CARDS = """kind: cards
set: sweep
game: base
remove: [Altar, Baths]
cards:
  - {name: Copy One, age: 1, colour: blue, players: [3+, 5+], cost: free,
     effect: "copy red cards from left"}
  - {name: Copy Two, age: 1, colour: blue, players: [3+, 7+], cost: free,
     effect: "copy red cards from left"}
"""


def _data(tmp_path: Path):  # type: ignore[no-untyped-def]
    (tmp_path / "copy.yaml").write_text(CARDS, encoding="utf-8")
    result = load([tmp_path])
    assert result.game is not None, result.report.sorted()
    return result.game


def test_two_copies_one_candidate_both_copy_it(tmp_path: Path) -> None:
    data = _data(tmp_path)
    game = wonders.new_game(data, 7, 0)
    cards = {c.name: c for c in data.cards}
    cities = game.cities  # type: ignore[attr-defined]
    me = cities[0]
    left = at(cities, 0, ("left",))[0]  # the engine's own place lookup
    me.add_card(cards["Copy One"])
    me.add_card(cards["Copy Two"])
    lines, copied = score_city(me, cities, game.params, game.science)  # type: ignore[attr-defined]
    assert copied == []  # nothing to copy: both copy nothing
    left.add_card(cards["Barracks"])
    lines, copied = score_city(me, cities, game.params, game.science)  # type: ignore[attr-defined]
    assert copied == ["Barracks", "Barracks"]


def test_random_games_at_seven_players_score(tmp_path: Path) -> None:
    data = _data(tmp_path)
    for seed in range(40):  # seed 19 failed before the fix
        rng = random.Random(seed)
        game = wonders.new_game(data, 7, seed)
        while not game.over:
            game.play({s: rng.choice(game.legal_actions(s)) for s in game.to_move()})
        game.score_sheet()
