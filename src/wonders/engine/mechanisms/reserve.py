"""Coins kept in a bounded reserve: a player holds at most a fixed number of coins.

A reserve of slots where coins gained are marked and coins spent crossed out: when the
slots are full, spent coins are erased to make room, so what a player can hold is the
number of slots; coins gained beyond it are not taken (they stay in the bank).  The
size is data (``reserve: {size: N}`` in a ``sheets`` file).
"""

from __future__ import annotations


def room(coins: int, size: int) -> int:
    """How many more coins a reserve of ``size`` slots holding ``coins`` can take."""
    return max(0, size - coins)


def gained(coins: int, amount: int, size: int) -> int:
    """The coins a gain of ``amount`` actually adds to a reserve holding ``coins``."""
    return min(max(0, amount), room(coins, size))


__all__ = ["gained", "room"]
