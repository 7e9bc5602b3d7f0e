"""Small integers standing for hashable values (productions, price lists).

Caches on the hot path are keyed by tuples of these ids instead of the values
themselves: hashing and comparing two ints is cheap, hashing a production's
nested tuples is not.  Ids are never reused — they come from one counter for the
whole process — so an id held by a live object stays a valid, unambiguous cache
key even after the table below was emptied (:mod:`wonders.engine.memo` bounds
and clears it); an equal value interned afterwards merely gets a new id.  That is
also why there is no way back from an id to its value: code that needs the value
is given it alongside the id.
"""

from __future__ import annotations

from itertools import count
from typing import Final

from wonders.engine import memo

_IDS: Final[dict[object, int]] = memo.table("interning.ids", 20_000)
_COUNTER: Final = count()


def intern(value: object) -> int:
    """The id of ``value`` (equal values interned since the last clearing share one)."""
    found = _IDS.get(value)
    if found is None:
        found = memo.remember(_IDS, value, next(_COUNTER))
    return found
