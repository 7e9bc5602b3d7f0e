"""Loading a shipped game plus a small card file written by a test, and finding its cards.

Tests of effects (the effect × game matrix, the greedy bot's valuation) add a few
cards to a shipped game; this is the one way they do it.
"""

from __future__ import annotations

from pathlib import Path

from wonders.dsl.loader import load
from wonders.dsl.model import Card
from wonders.dsl.model import Game as GameData


def load_extra(folder: Path, text: str, game: str = "base") -> GameData:
    """``game`` plus the cards of ``text`` (a card file), which must load without errors."""
    path = folder / "extra.yaml"
    path.write_text(text, encoding="utf-8")
    result = load([path], game)
    assert result.game is not None, [d.render() for d in result.report.sorted()]
    return result.game


def card_named(data: GameData, name: str) -> Card:
    found = data.card(name)
    assert found is not None, name
    return found
