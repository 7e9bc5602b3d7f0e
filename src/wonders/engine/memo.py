"""The one home of the engine's memo tables: every cache is registered, bounded and clearable.

The hot path answers the same questions over and over across games — what a
card costs a city with this production, which payments buy two wood from these
neighbours, which actions a card offers — so the engine keeps their answers in
module-level dictionaries shared by every game of the process.  A long-running
process (the web table, a million-game study, an agent's training run) cannot
let those grow for ever, nor keep the cards of data it reloaded an hour ago
alive, so every such dictionary is made here:

* :func:`table` makes a plain ``dict`` (the compiled hot path reads it as fast as
  any) and registers it by name with its bound;
* :func:`remember` stores an answer on a miss and empties the table first when it
  is full — a cache is an optimisation, so losing it costs time, never
  correctness (``tests/test_memo.py`` plays games with every table cleared after
  each decision and gets the same games);
* :func:`clear` empties every table (and the interned ids,
  :mod:`wonders.engine.interning`): call it after dropping a data set for good;
* :func:`sizes` says how full each table is (``benchmarks/memory.py`` reports it).

A value held by a cache must be a pure function of its key, and no code may look
a value up by an id it interned earlier (the id may have been dropped since):
functions taking ids take the values too.
"""

from __future__ import annotations

from typing import Any, Final

_TABLES: Final[dict[str, dict[Any, Any]]] = {}
_LIMITS: Final[dict[int, int]] = {}  # id(table) -> its bound (the tables live for ever)
_NAMES: Final[dict[int, str]] = {}
_EXTRA: Final[list[Any]] = []  # other clearable holders (objects with a ``clear()``)


def table(name: str, limit: int) -> dict[Any, Any]:
    """A new registered memo table holding at most ``limit`` entries."""
    if name in _TABLES:
        raise ValueError(f"memo table '{name}' is registered twice")
    if limit < 1:
        raise ValueError(f"memo table '{name}': the bound must be positive, not {limit}")
    found: dict[Any, Any] = {}
    _TABLES[name] = found
    _LIMITS[id(found)] = limit
    _NAMES[id(found)] = name
    return found


def register_clearable(holder: Any) -> None:
    """Also clear ``holder`` (anything with ``clear()``) in :func:`clear`."""
    _EXTRA.append(holder)


def remember(cache: dict[Any, Any], key: Any, value: Any) -> Any:
    """Store ``value`` under ``key`` (emptying a full table first); return ``value``."""
    if len(cache) >= _LIMITS[id(cache)]:
        cache.clear()
    cache[key] = value
    return value


def limit(cache: dict[Any, Any]) -> int:
    """The bound of a registered table."""
    return _LIMITS[id(cache)]


def set_limit(name: str, bound: int) -> int:
    """Change one table's bound (tests use small ones); returns the old bound."""
    cache = _TABLES[name]
    old = _LIMITS[id(cache)]
    if bound < 1:
        raise ValueError(f"memo table '{name}': the bound must be positive, not {bound}")
    _LIMITS[id(cache)] = bound
    if len(cache) > bound:
        cache.clear()
    return old


def names() -> list[str]:
    """Every registered table's name."""
    return sorted(_TABLES)


def sizes() -> dict[str, tuple[int, int]]:
    """Every table's (entries, bound), by name."""
    return {name: (len(cache), _LIMITS[id(cache)]) for name, cache in sorted(_TABLES.items())}


_WATCHED: Final = "memo_watched"  # this module's entry in GameData.derived
_DROPPED: Final[list[int]] = [0]  # how many watched data sets were freed


class _Watch:
    """Kept in a data set's ``derived`` dict: freed with the data, it empties the tables.

    A finalizer object rather than a weak reference, because compiled (mypyc) classes,
    the data model among them, cannot be weakly referenced.
    """

    def __del__(self) -> None:
        _DROPPED[0] += 1
        clear()


def watch(data: Any) -> None:
    """Empty every table once ``data`` (a loaded data set) is dropped and freed.

    Several tables are keyed by the data's cards, wonders and effects: without this, a
    process that reloads its data keeps old cards alive until the tables fill up.  The
    loops call it once per data set (idempotent); dropping one data set costs the
    others only recomputing what they use.
    """
    derived = data.derived
    if _WATCHED not in derived:
        derived[_WATCHED] = _Watch()


def dropped() -> int:
    """How many data sets the engine used have been freed so far (tests read it)."""
    return _DROPPED[0]


def clear() -> None:
    """Empty every memo table and the interned ids: the next games recompute what they need."""
    for cache in _TABLES.values():
        cache.clear()
    for holder in _EXTRA:
        holder.clear()


__all__ = ["clear", "limit", "names", "register_clearable", "remember", "set_limit", "sizes",
           "table", "watch", "dropped"]
