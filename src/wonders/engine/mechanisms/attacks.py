"""Attacks between neighbours: points scored against one side, reduced by its defences.

A building faces one neighbour (its ``side``).  Crossing one of its attack spaces notes
the points shown, less one for each defence space the neighbour on that side has
crossed, before this turn, in its building facing back; crossing a defence space
defends against that neighbour.  Noted points are kept: later defences do not change
them.
"""

from __future__ import annotations

OPPOSITE = {"left": "right", "right": "left"}


def attack_points(points: int, defences: int) -> int:
    """The points an attack of ``points`` scores against ``defences`` defences."""
    return points - defences if points > defences else 0


__all__ = ["OPPOSITE", "attack_points"]
