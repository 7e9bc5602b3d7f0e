"""Gated choices that compare a player's progress with their neighbours'.

A die face may be chosen only when its player has crossed at least as many spaces
(``at_least``) or strictly more (``more``) of a named building than each neighbour;
the rule for two players (one opponent on both sides) is separate data.  Counts are
taken at the start of the turn: what is crossed during it does not count.
"""

from __future__ import annotations

from typing import Sequence

AT_LEAST = "at_least"
MORE = "more"


def compare_met(mine: int, theirs: Sequence[int], rule: str) -> bool:
    """Whether ``mine`` beats every count in ``theirs`` by ``rule``."""
    if rule == MORE:
        return all(mine > other for other in theirs)
    return all(mine >= other for other in theirs)


__all__ = ["AT_LEAST", "MORE", "compare_met"]
