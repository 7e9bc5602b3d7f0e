"""Player sheets: buildings whose spaces are crossed in order, or in any order.

A die face (or a bonus) names a building and optionally a symbol.  In a building
crossed in its listed order the face crosses the first uncrossed space with that
symbol; in a building crossed in any order, any uncrossed space with it; a face
without a symbol may take the next space of each symbol.  A space may carry several
symbols (any of them crosses it).  A space's cost is the
number of *different* resource types it needs: each type the player lacks costs one
coin, and resources are never used up.  The buildings are data (a ``sheets`` file).
"""

from __future__ import annotations

from wonders.dsl.sheets_model import ANY, Building


def _matches(symbols: tuple[str, ...], symbol: str) -> bool:
    """Whether a space with ``symbols`` is one of the spaces of ``symbol`` ("": the
    spaces without a symbol)."""
    return symbol in symbols if symbol else not symbols


def groups(building: Building, symbol: str | None) -> tuple[tuple[int, ...], ...]:
    """The spaces a face with ``symbol`` (None: any) chooses among, as groups in order:
    the face may cross the first uncrossed space of each group (computed once per face;
    :func:`first_open` then answers which spaces it may cross now).  A space may carry
    several symbols: it is in the group of each."""
    wanted = building.symbols if symbol is None else (symbol,)
    if building.order == ANY:
        return tuple((s.index,) for s in building.spaces
                     if any(_matches(s.symbols, w) for w in wanted))
    found: dict[tuple[int, ...], None] = {}   # distinct groups, in order
    for w in wanted:
        group = tuple(s.index for s in building.spaces if _matches(s.symbols, w))
        if group:
            found[group] = None
    return tuple(found)


def open_spaces(building: Building, crossed: list[bool], symbol: str | None) -> list[int]:
    """The spaces of ``building`` a face with ``symbol`` (None: any) may cross now."""
    return sorted(set(first_open(groups(building, symbol), crossed)))


def first_open(spaces: tuple[tuple[int, ...], ...], crossed: list[bool]) -> list[int]:
    """The first uncrossed space of each group (see :func:`groups`)."""
    found: list[int] = []
    for group in spaces:
        for i in group:
            if not crossed[i]:
                if i not in found:   # (groups of several symbols may share a space)
                    found.append(i)
                break
    return found


def shortfall(cost: int, resource_types: int) -> int:
    """Coins for the resource types lacking: a cost of ``cost`` different types."""
    return cost - resource_types if cost > resource_types else 0


__all__ = ["first_open", "groups", "open_spaces", "shortfall"]
