"""Small integers standing for hashable values (productions, price lists).

Caches on the hot path are keyed by tuples of these ids instead of the values
themselves: hashing and comparing two ints is cheap, hashing a production's
nested tuples is not.  Ids are never reused, so an id stays valid for the whole
process.
"""

from __future__ import annotations

from typing import Final

_IDS: Final[dict[object, int]] = {}
_VALUES: Final[list[object]] = []


def intern(value: object) -> int:
    """The id of ``value`` (equal values share one)."""
    found = _IDS.get(value)
    if found is None:
        found = len(_VALUES)
        _IDS[value] = found
        _VALUES.append(value)
    return found


def interned(ident: int) -> object:
    """The value an :func:`intern` id stands for."""
    return _VALUES[ident]
