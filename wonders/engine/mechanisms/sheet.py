"""Player sheets: buildings whose spaces are crossed in order, or in any order.

A die face (or a bonus) names a building and optionally a symbol.  In a building
crossed in its listed order the face crosses the first uncrossed space with that
symbol; in a building crossed in any order, any uncrossed space with it; a face
without a symbol may take the next space of each symbol.  A space's cost is the
number of *different* resource types it needs: each type the player lacks costs one
coin, and resources are never used up.  The buildings are data (a ``sheets`` file).
"""

from __future__ import annotations

from wonders.dsl.sheets_model import ANY, Building


def open_spaces(building: Building, crossed: list[bool], symbol: str | None) -> list[int]:
    """The spaces of ``building`` a face with ``symbol`` (None: any) may cross now."""
    found: list[int] = []
    seen: list[str] = []
    anywhere = building.order == ANY
    for space in building.spaces:
        i = space.index
        if crossed[i]:
            continue
        if symbol is not None and space.symbol != symbol:
            continue
        if anywhere:
            found.append(i)
        elif space.symbol not in seen:   # the first uncrossed space of its symbol
            seen.append(space.symbol)
            found.append(i)
    return found


def groups(building: Building, symbol: str | None) -> tuple[tuple[int, ...], ...]:
    """The spaces a face with ``symbol`` (None: any) chooses among, as groups in order:
    the face may cross the first uncrossed space of each group (computed once per face;
    :func:`first_open` then answers what :func:`open_spaces` does, faster)."""
    if building.order == ANY:
        return tuple((s.index,) for s in building.spaces
                     if symbol is None or s.symbol == symbol)
    found: dict[str, list[int]] = {}
    for space in building.spaces:
        if symbol is None or space.symbol == symbol:
            found.setdefault(space.symbol, []).append(space.index)
    return tuple(tuple(g) for g in found.values())


def first_open(spaces: tuple[tuple[int, ...], ...], crossed: list[bool]) -> list[int]:
    """The first uncrossed space of each group (see :func:`groups`)."""
    found: list[int] = []
    for group in spaces:
        for i in group:
            if not crossed[i]:
                found.append(i)
                break
    return found


def shortfall(cost: int, resource_types: int) -> int:
    """Coins for the resource types lacking: a cost of ``cost`` different types."""
    return cost - resource_types if cost > resource_types else 0


__all__ = ["first_open", "groups", "open_spaces", "shortfall"]
