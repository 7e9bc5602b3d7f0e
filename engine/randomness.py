"""Shuffles and draws on a ``random.Random``, in compiled code.

The game loops shuffle decks and draw positions with the game's own generator.
``random.Random.shuffle`` and ``randrange`` are written in Python, and in a
compiled hot path they cost more than everything else a turn does; these
functions make the same draws with the same ``getrandbits`` calls (the
algorithm of CPython's ``random`` module), so a seed still gives the very
same game, and a log replays the same, whichever is used.
"""

from __future__ import annotations

import random
from typing import Final, TypeVar

T = TypeVar("T")


# The C method itself: calling it skips looking ``getrandbits`` up on each call.
_GETRANDBITS: Final = random.Random.getrandbits
_RANDOM: Final = random.Random  # compiled, a module attribute lookup costs more than a draw


def below(rng: random.Random, n: int) -> int:
    """A random int in ``[0, n)``, ``n > 0``: what ``rng.randrange(n)`` returns."""
    k = n.bit_length()
    if type(rng) is not _RANDOM:  # a subclass may draw its bits another way
        r = rng.getrandbits(k)
        while r >= n:
            r = rng.getrandbits(k)
        return r
    r = _GETRANDBITS(rng, k)
    while r >= n:
        r = _GETRANDBITS(rng, k)
    return r


def shuffle(rng: random.Random, items: list[T]) -> None:
    """Shuffle ``items`` in place: the order ``rng.shuffle(items)`` gives."""
    for i in range(len(items) - 1, 0, -1):
        j = below(rng, i + 1)
        items[i], items[j] = items[j], items[i]


def copy_of(rng: random.Random) -> random.Random:
    """An independent generator in ``rng``'s state: what a game's ``clone`` needs.

    ``random.Random()`` first seeds itself from the operating system's entropy (a
    system call and a full seeding, about four times what the copy costs), only for
    ``setstate`` to overwrite it; a bare instance skips that.
    """
    other: random.Random = _RANDOM.__new__(_RANDOM)
    other.setstate(rng.getstate())
    return other
