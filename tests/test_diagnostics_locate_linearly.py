"""Locating diagnostics is linear (one walk per string, not one per diagnostic).

An effect repeating a name 4,000 times gives 3,999 T404 diagnostics; locating each
walked the string from its start, 8.5 s (quadratic).  See benchmarks/validate_speed.py.
"""

from __future__ import annotations

import time
from pathlib import Path

from wonders.dsl.loader import load


def test_thousands_of_diagnostics_in_one_string_are_located_fast(tmp_path: Path) -> None:
    names = 4000
    effect = "produce " + " | ".join(["wood"] * names)
    path = tmp_path / "repeat.yaml"
    path.write_text("kind: cards\nset: bench\ngame: base\ncards:\n  - name: Bench Guild\n"
                    "    age: 3\n    colour: purple\n    cost: free\n"
                    f"    effect: {effect}\n", encoding="utf-8")
    load(game="base")  # warm the parser and schemas
    started = time.process_time()  # CPU, not wall: the other test workers share the cores
    result = load([path])
    elapsed = time.process_time() - started
    found = [d for d in result.report.sorted() if d.code == "T404"]
    assert len(found) == names - 1
    line = "    effect: " + effect
    assert (found[-1].location.line, found[-1].location.column) == (9, line.rindex("wood") + 1)
    assert elapsed < 2.0, f"{elapsed:.2f} s"
