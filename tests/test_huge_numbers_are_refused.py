"""Huge and senseless numbers give located errors, fast, never a traceback.

Before: ages.count, players.max or a card count of 10^9 made validation run for
minutes (the schema reported S106, then the deck checks used the value); a
number of 4,400 digits in an effect, a rule or a player marker raised Python's
int-conversion ValueError; a layout key or a marker written with '²' raised
ValueError (str.isdigit accepts it); a cost of 394310778480787074 glass
validated and then exhausted memory in the bank's payment search.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from wonders.dsl.loader import load, shipped_games

HUGE = "9" * 4400


def _game(tmp_path: Path, name: str, edit: dict[str, tuple[str, str]]) -> Path:
    folder = tmp_path / name
    shutil.copytree(shipped_games()[name], folder)
    for file, (old, new) in edit.items():
        path = folder / file
        text = path.read_text(encoding="utf-8")
        assert old in text, (file, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


CASES = {
    "ages-count": ("base", {"rules.yaml": ("count: 3\n", "count: 1000000000\n")}, "S106",
                   "rules.yaml"),
    "ages-count-zero": ("base", {"rules.yaml": ("count: 3\n", "count: 0\n")}, "S106",
                        "rules.yaml"),
    "players-max": ("base", {"rules.yaml": ("max: 7}", "max: 1000000000}")}, "S106",
                    "rules.yaml"),
    "players-min-negative": ("base", {"rules.yaml": ("min: 3,", "min: -1,")}, "S106",
                             "rules.yaml"),
    "hand": ("base", {"rules.yaml": ("hand: 7", "hand: 1000000000")}, "S106", "rules.yaml"),
    "start-coins": ("base", {"rules.yaml": ("coins: 3", "coins: 1000000000")}, "S106",
                    "rules.yaml"),
    "card-count": ("duel", {"age1.yaml": ("    count: 1\n", "    count: 1000000000\n")}, "S106",
                   "age1.yaml"),
    "card-count-negative": ("duel", {"age1.yaml": ("    count: 1\n", "    count: -1\n")}, "S106",
                            "age1.yaml"),
    "marker-huge": ("base", {"age1.yaml": ("players: [3+, 5+]", f"players: [3+, '{HUGE}+']")},
                    "S105", "age1.yaml"),
    "marker-int-huge": ("base", {"age1.yaml": ("players: [3+, 5+]", f"players: [3+, {HUGE}]")},
                        "S105", "age1.yaml"),
    "marker-superscript": ("base", {"age1.yaml": ("players: [3+, 5+]", "players: [3+, '²+']")},
                           "S105", "age1.yaml"),
    "effect-huge": ("base", {"age1.yaml": ("effect: points 3", f"effect: points {HUGE}")},
                    "E204", "age1.yaml"),
    "rule-huge": ("base", {"rules.yaml": ("sell: coins 3", f"sell: coins {HUGE}")}, "E204",
                  "rules.yaml"),
    "formula-huge": ("base", {"rules.yaml": ("count: players + 2", f"count: players + {HUGE}")},
                     "E204", "rules.yaml"),
    "cost-huge": ("base", {"guilds.yaml": ("cost: 2 stone, 2 ore",
                                           "cost: 5 coins, 394310778480787074 glass")},
                  "E204", "guilds.yaml"),
    "layout-superscript": ("duel", {"rules.yaml": ("    1:\n", "    '²':\n")}, "S105",
                           "rules.yaml"),
    "layout-column": ("duel", {"rules.yaml": ("[[5, 7],", "[[5, 1000000000],")}, "S106",
                      "rules.yaml"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_number_is_a_located_error(tmp_path: Path, case: str) -> None:
    game, edit, code, file = CASES[case]
    folder = _game(tmp_path, game, edit)
    started = time.perf_counter()
    result = load([folder])
    elapsed = time.perf_counter() - started
    assert result.game is None
    found = [d for d in result.report.sorted() if d.code == code]
    assert found, [d.render() for d in result.report.sorted()]
    assert Path(found[0].location.file).name == file and found[0].location.line > 0
    assert elapsed < 5, f"{elapsed:.1f} s"
