"""Reading the reference fact tables in tests/reference/ (copies of shared/reference/)."""

from __future__ import annotations

import csv
from pathlib import Path

REFERENCE = Path(__file__).parent / "reference"


def rows(name: str) -> list[dict[str, str]]:
    """The rows of a tab-separated table, by column name."""
    with open(REFERENCE / name, encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def cost(text: str) -> tuple[int, dict[str, int]]:
    """A printed cost ("free", "2 coin", "1 stone, 2 wood") as (coins, resources)."""
    if text == "free":
        return 0, {}
    coins, resources = 0, {}
    for part in text.split(","):
        count, what = part.split()
        if what.startswith("coin"):
            coins += int(count)
        else:
            resources[what] = int(count)
    return coins, resources
