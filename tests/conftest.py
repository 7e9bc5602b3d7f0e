"""Shared fixtures for the error, check and CLI tests.

``diagnose(text)`` writes YAML text into a temporary folder and returns the
diagnostics of loading it together with a small, self-contained rule set
(``mini``), so tests of messages and positions do not depend on the shipped
base game.  ``MINI_RULES`` is that rule set; ``card_file(...)`` builds a card
file around a list of card entries.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Callable, Iterable

import pytest

from wonders.dsl.errors import Diagnostic
from wonders.dsl.loader import LoadResult, load

MINI_RULES = """\
kind: rules
name: mini
title: A minimal game for tests
players: {min: 3, max: 4}
vocabulary:
  resources:
    raw: [wood, stone, ore, clay]
    manufactured: [glass, papyrus, loom]
  colours: [brown, grey, yellow, blue, green, red, purple]
  science: [compass, wheel, tablet]
  tokens: [victory, defeat]
  places: [self, left, right, neighbours]
  abilities: [free_build, build_from_discard, play_last_card]
  periods: [age]
ages:
  count: 3
"""

CARDS_HEADER = """\
kind: cards
set: mini
game: mini
cards:
"""

MINI_CARD = """\
  - name: Well
    age: 1
    colour: blue
    players: [3+]
    cost: free
    effect: points 1
"""


def card_file(*cards: str, header: str = CARDS_HEADER) -> str:
    """A cards file: the header, then each card entry (already indented by two)."""
    return header + "".join(cards)


def card(name: str = "Well", *, age: int = 1, colour: str = "blue", players: str = "[3+]",
         cost: str = "free", effect: str = "points 1", extra: str = "") -> str:
    """One card entry, indented for ``cards:``; ``extra`` adds raw lines (indented by 4)."""
    text = (f"  - name: {name}\n    age: {age}\n    colour: {colour}\n"
            + (f"    players: {players}\n" if players else "")
            + f"    cost: {cost}\n")
    text += textwrap.indent(textwrap.dedent(extra), "    ") if extra else ""
    return text + f"    effect: {effect}\n"


class Workspace:
    """A temporary folder to write data files into and load them."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def write(self, name: str, text: str | bytes) -> Path:
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return path

    def rules(self, text: str = MINI_RULES, name: str = "rules.yaml") -> Path:
        return self.write(name, text)

    def load(self, *paths: Path | str, game: str | None = None) -> LoadResult:
        return load([Path(p) for p in paths], game)

    def diagnose(self, text: str | bytes, name: str = "cards.yaml", *, rules: str | None = MINI_RULES,
                 game: str | None = None) -> list[Diagnostic]:
        """Write ``text`` (and the mini rule set unless ``rules`` is None) and load them."""
        paths = []
        if rules is not None:
            paths.append(self.rules(rules))
        if text is not None:
            paths.append(self.write(name, text))
        return self.load(*paths, game=game).report.sorted()


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    return Workspace(tmp_path)


@pytest.fixture
def mini_rules() -> str:
    """The text of a minimal valid rule set named ``mini`` (no deck sizes)."""
    return MINI_RULES


@pytest.fixture
def diagnose(ws: Workspace) -> Callable[..., list[Diagnostic]]:
    """``diagnose(text, name='cards.yaml', rules=MINI_RULES)`` → sorted diagnostics."""
    return ws.diagnose


def codes(diagnostics: Iterable[Diagnostic]) -> list[str]:
    return [d.code for d in diagnostics]


def only(diagnostics: Iterable[Diagnostic], code: str) -> Diagnostic:
    """The single diagnostic with ``code`` (fails the test when there are none or several)."""
    found = [d for d in diagnostics if d.code == code]
    assert len(found) == 1, f"expected one {code}, got: " + "; ".join(
        d.render() for d in diagnostics)
    return found[0]


def at(diagnostic: Diagnostic) -> tuple[int, int]:
    return diagnostic.location.line, diagnostic.location.column
