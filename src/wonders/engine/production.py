"""What a city produces each turn, split into what it may use and what neighbours may buy.

Production is a multiset of fixed units (``produce 2 ore``) plus a list of
choices (``produce wood | clay``: one unit of one of them per turn).  Values are
immutable and hashable so payment searches can be cached by them.
"""

from __future__ import annotations

from typing import Final, Iterable

from wonders.dsl import effects as fx
from wonders.engine import memo
from wonders.engine.interning import intern


class Production:
    """Fixed units (sorted ``(resource, units)``) and choices (sorted, each sorted).

    A value: equal productions are interchangeable and nothing assigns to a field
    after construction.  Not a frozen dataclass because of :attr:`ident`, which is
    worked out once per object and then kept on it.
    """

    __slots__ = ("fixed", "choices", "_ident")

    def __init__(self, fixed: tuple[tuple[str, int], ...] = (),
                 choices: tuple[tuple[str, ...], ...] = ()) -> None:
        self.fixed = fixed
        self.choices = choices
        self._ident = -1

    @staticmethod
    def build(units: dict[str, int], choices: Iterable[tuple[str, ...]]) -> "Production":
        return _built(units, choices)

    @property
    def ident(self) -> int:
        """The interned id of this value (:func:`~wonders.engine.interning.intern`): cache
        keys use it instead of hashing the nested tuples again."""
        found = self._ident
        if found < 0:
            found = self._ident = intern(self)
        return found

    def __hash__(self) -> int:
        return hash((self.fixed, self.choices))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Production):
            return NotImplemented
        return self.fixed == other.fixed and self.choices == other.choices

    def __repr__(self) -> str:
        return f"Production(fixed={self.fixed!r}, choices={self.choices!r})"

    def units(self) -> dict[str, int]:
        return dict(self.fixed)

    def can_supply(self, need: dict[str, int]) -> bool:
        """Whether this production covers ``need`` (one unit per choice, assigned freely)."""
        fixed = dict(self.fixed)
        rest: list[str] = []
        for resource, count in need.items():
            short = count - fixed.get(resource, 0)
            rest.extend([resource] * max(short, 0))
        if not rest:
            return True
        if len(rest) > len(self.choices):
            return False
        return _match(tuple(sorted(rest)), self.choices)

    def __add__(self, other: "Production") -> "Production":
        """The sum, merged from the two sorted values (what :meth:`build` of their summed
        units and joined choices gives, without a dict and two sorts)."""
        return Production(_merged(self.fixed, other.fixed),
                          tuple(sorted(self.choices + other.choices)) if other.choices
                          else self.choices)


def _built(units: dict[str, int], choices: Iterable[tuple[str, ...]]) -> Production:
    """:meth:`Production.build`, from lists sorted in place (compiled, ``sorted`` of a
    generator expression makes a generator object and walks it generically)."""
    fixed = [(r, n) for r, n in units.items() if n > 0]
    fixed.sort()
    listed = [tuple(sorted(c)) for c in choices]
    listed.sort()
    return Production(tuple(fixed), tuple(listed))


def _merged(first: tuple[tuple[str, int], ...],
            second: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    """Two sorted ``(resource, units)`` tuples summed by resource, still sorted, without
    resources of no units (as :meth:`Production.build` leaves them out)."""
    if not second:
        return first
    found: list[tuple[str, int]] = []
    i = j = 0
    while i < len(first) and j < len(second):
        a = first[i]
        b = second[j]
        if a[0] == b[0]:
            if a[1] + b[1] > 0:
                found.append((a[0], a[1] + b[1]))
            i += 1
            j += 1
        elif a[0] < b[0]:
            found.append(a)
            i += 1
        else:
            if b[1] > 0:
                found.append(b)
            j += 1
    while i < len(first):
        found.append(first[i])
        i += 1
    while j < len(second):
        b = second[j]
        if b[1] > 0:
            found.append(b)
        j += 1
    return tuple(found)


def _match(rest: tuple[str, ...], choices: tuple[tuple[str, ...], ...]) -> bool:
    """Can each needed unit get its own choice producer that offers it? (tiny bipartite matching)"""
    if not rest:
        return True
    first, others = rest[0], rest[1:]
    tried: set[tuple[str, ...]] = set()
    for i, choice in enumerate(choices):
        if first in choice and choice not in tried:
            tried.add(choice)
            if _match(others, choices[:i] + choices[i + 1:]):
                return True
    return False


EMPTY: Final = Production()


def produced(effects: Iterable[tuple[fx.Produce, bool]]) -> tuple[Production, Production]:
    """(everything produced, what may be bought) from ``produce`` effects, each with
    whether its source sells (the effect must also be buyable)."""
    units: dict[str, int] = {}
    choices: list[tuple[str, ...]] = []
    sale_units: dict[str, int] = {}
    sale_choices: list[tuple[str, ...]] = []
    for effect, sells in effects:
        sells = sells and effect.buyable
        if len(effect.resources) == 1:
            resource = effect.resources[0]
            units[resource] = units.get(resource, 0) + effect.amount
            if sells:
                sale_units[resource] = sale_units.get(resource, 0) + effect.amount
        else:
            choices.append(effect.resources)
            if sells:
                sale_choices.append(effect.resources)
    return _built(units, choices), _built(sale_units, sale_choices)


# (source, sellable) -> what the source adds; the ids of (own, for sale, own added, for sale
# added) -> the sum
_ADDED: Final[dict[tuple[object, bool], tuple[Production, Production]]] = memo.table(
    "production.sources", 2_000)
_SUMS: Final[dict[tuple[int, int, int, int], tuple[Production, Production]]] = memo.table(
    "production.sums", 10_000)


def plus_source(production: tuple[Production, Production], source: object,
                effects: fx.Effects, sellable: bool) -> tuple[Production, Production]:
    """(own, for sale) production once ``source`` with ``effects`` is added: kept up to date
    as cities grow instead of summed again from every source (each sum is shared, so the
    payment caches keyed by a production's id keep working across games).

    ``source`` only keys the caches: anything hashable whose equality implies equal
    ``effects`` (a card, a wonder, a stage)."""
    key = (source, sellable)
    added = _ADDED.get(key)
    if added is None:
        added = memo.remember(_ADDED, key, produced(
            (c.effect, sellable) for c in effects.clauses
            if c.timing is fx.Timing.ONGOING and isinstance(c.effect, fx.Produce)))
    return plus_added(production, added)


def plus_added(production: tuple[Production, Production],
               added: tuple[Production, Production]) -> tuple[Production, Production]:
    """(own, for sale) production plus what a new source adds (``added``: (own, for sale)
    as :func:`produced` makes them).  Sums are shared by value: sources that add the
    same find the same sum."""
    own, sale = production
    add_own, add_sale = added
    if not (add_own.fixed or add_own.choices or add_sale.fixed or add_sale.choices):
        return production
    total = (own.ident, sale.ident, add_own.ident, add_sale.ident)
    found = _SUMS.get(total)
    if found is None:
        found = memo.remember(_SUMS, total, (
            own + add_own if add_own.fixed or add_own.choices else own,
            sale + add_sale if add_sale.fixed or add_sale.choices else sale))
    return found
