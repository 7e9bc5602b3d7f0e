"""Duel with Pantheon and Agora together (expansions/pantheon-agora): both parents' rules
joined, the tokens on Agora's structures (reference P7), and whole games that play."""

from __future__ import annotations

from pathlib import Path

import pytest

from wonders.bots import make_bot
from wonders.dsl.loader import load_game
from wonders.engine.mechanisms import chambers, held, priced_row, structure
from wonders.engine.registry import new_game

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "expansions" / "pantheon-agora"


@pytest.fixture(scope="module")
def data():  # type: ignore[no-untyped-def]
    return load_game([FOLDER])


def test_both_boards_are_laid(data) -> None:  # type: ignore[no-untyped-def]
    game = new_game(data, 2, 0)
    assert {priced_row.NAME, chambers.NAME, held.NAME} <= set(game.parts)
    assert len(held.state(game).stack) == len([t for t in data.tokens
                                               if t.kind == "conspiracy"])
    assert [t.name for c in chambers.state(game).tokens for t in c][:1]   # decrees laid


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_age_one_tokens_lie_on_the_flattened_cards_of_p7(data, seed: int) -> None:  # type: ignore[no-untyped-def]
    """P7 (low: BGA only): Age I's mythology tokens on cards 4, 6, 12, 14 and 17 of
    Agora's structure (top left 0), each of them face down."""
    game = new_game(data, 2, seed)
    bots = [make_bot("random", seed), make_bot("random", seed + 1)]
    while game.decision().kind != "turn":   # (the draft, and its picks' follow-ups)
        decision = game.decision()
        game.play({s: bots[s].choose(game, s) for s in decision.seats})
    laid = structure.state(game).structure
    assert laid is not None
    tokens = priced_row.state(game).on_slots
    assert sorted(tokens) == [4, 6, 12, 14, 17]
    assert {t.kind for t in tokens.values()} == {"mythology"}
    assert all(not laid.face_up[slot] for slot in tokens)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_whole_games_play(data, seed: int) -> None:  # type: ignore[no-untyped-def]
    game = new_game(data, 2, seed)
    bots = [make_bot("greedy" if seed % 2 else "random", seed * 10 + s) for s in range(2)]
    for _ in range(3000):
        if game.over:
            break
        decision = game.decision()
        game.play({s: bots[s].choose(game, s) for s in decision.seats})
    assert game.over
    assert game.score_sheet().to_json()
