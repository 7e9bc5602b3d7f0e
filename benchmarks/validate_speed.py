"""How long validation takes on large inputs (issue 16, "validation scales").

Generates, in a temporary folder, and validates with :func:`wonders.dsl.loader.load`:

* ``cards``: a card file of just under 2 MB (the size limit) holding ~25,000
  generated guilds of the base game (``game: base``, so the shipped game loads
  with it), each with its own cost and effect;
* ``repeat``: one effect repeating a name 4,000 times (``produce wood | wood | …``),
  which gives 3,999 diagnostics (T404) in one string.

Run: ``python benchmarks/validate_speed.py``.  Figures on the development machine,
same session, loaded by other engineers' work (so they vary by some 30 %):

=========================================  ==========  =========
input                                      before      after
=========================================  ==========  =========
cards (2.00 MB, 15,000 generated guilds)   3.95 s      2.01 s
repeat (4,000 names, 3,999 diagnostics)    6.03 s      0.10 s
=========================================  ==========  =========

Then (2026-12-01, a quiet machine, load under 1, three interleaved runs each of the
tree of 57f5b51 and of this change): cards 2.04 / 2.09 / 1.99 s -> 1.80 / 1.81 /
1.77 s; repeat 0.10 s both.  What changed: positions are kept as the YAML nodes and
turned into offsets only when a diagnostic asks; the resolver cache answers every
node (lists and maps too) with one look-up.

What changed: a string's character positions are aligned with its source once and
kept (locating each diagnostic walked the string from its start: quadratic); valid
documents skip jsonschema through a quick check compiled from the same schema
(wonders/dsl/schema.py: 1.96 s -> 0.24 s on the card file); YAML implicit tags are
cached by text; the depth pre-pass runs only when brackets and line prefixes
could nest beyond the limit.  Most of what remains is PyYAML composing 90,000
nodes.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from wonders.dsl.loader import load
from wonders.dsl.source import MAX_BYTES

RESOURCES = ("wood", "stone", "ore", "clay", "glass", "papyrus", "loom")


def card_file(limit: int = MAX_BYTES - 4096) -> str:
    lines = ["kind: cards", "set: bench", "game: base", "cards:"]
    size = sum(len(line) + 1 for line in lines)
    i = 0
    while True:
        card = (f"  - name: Bench Guild {i}\n    age: 3\n    colour: purple\n"
                f"    cost: {1 + i % 3} {RESOURCES[i % 7]}, {1 + i % 2} {RESOURCES[(i + 3) % 7]}\n"
                f"    effect: \"end: points {1 + i % 4} per {('brown', 'grey', 'blue')[i % 3]} "
                f"card in left, right\"\n")
        if size + len(card) > limit:
            break
        lines.append(card.rstrip("\n"))
        size += len(card)
        i += 1
    return "\n".join(lines) + "\n"


def repeat_file(names: int = 4000) -> str:
    effect = "produce " + " | ".join(["wood"] * names)
    return ("kind: cards\nset: bench\ngame: base\ncards:\n  - name: Bench Guild\n    age: 3\n"
            f"    colour: purple\n    cost: free\n    effect: {effect}\n")


def timed(text: str) -> tuple[float, int, int]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.yaml"
        path.write_text(text, encoding="utf-8")
        started = time.perf_counter()
        result = load([path])
        return time.perf_counter() - started, len(result.report.sorted()), path.stat().st_size


def main() -> int:
    load(game="base")  # warm: the parser and schemas are built once per process
    for name, text in (("cards", card_file()), ("repeat", repeat_file())):
        seconds, diagnostics, size = timed(text)
        print(f"{name:8} {size / 1048576:5.2f} MB  {seconds:6.2f} s  {diagnostics} diagnostics")
    return 0


if __name__ == "__main__":
    sys.exit(main())
