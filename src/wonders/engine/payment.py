"""The payment search: every Pareto-optimal way to pay a cost.

A cost is coins (to the bank) plus resources.  A player first uses their own
production (every choice card assigned as best helps), then buys what is
missing from the left and right neighbours' *buyable* production (the rule
set says whose: the board's resource and brown/grey cards in the base game),
at a per-neighbour, per-resource price that trading effects lower.  Each unit
a neighbour produces can be bought once per turn.  The result lists every
non-dominated split of coins between the two neighbours: no option pays both
neighbours at least as much as another option.

How it is fast: resources are counted as vectors over the vocabulary's
resources; a production's choices are folded into the few *maximal supply
vectors* it can reach; own production turns a need into the few *minimal
residual needs* left to buy.  Each step is cached by small interned ids, so
the same question (a card, a city's production, its neighbours' and its
prices) is answered from a dictionary after the first time.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Final

from wonders.dsl.effects import Cost
from wonders.engine import memo
from wonders.engine.interning import intern
from wonders.engine.production import Production

Vector = tuple[int, ...]
Pairs = tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Payment:
    """Coins to the left neighbour, the right neighbour and the bank."""

    left: int = 0
    right: int = 0
    bank: int = 0

    @property
    def total(self) -> int:
        return self.left + self.right + self.bank

    def to_json(self) -> dict[str, int]:
        return {"left": self.left, "right": self.right, "bank": self.bank}


FREE: Final = Payment()
_SHARED_PAYMENTS: Final[dict[tuple[int, int, int], Payment]] = memo.table("payment.shared",
                                                                          2_000)


def shared_payment(left: int, right: int, bank: int) -> Payment:
    """Payments are values: one shared object per (left, right, bank) (equal, not identical,
    to one made before the table was emptied: compare payments with ``==``)."""
    key = (left, right, bank)
    found = _SHARED_PAYMENTS.get(key)
    if found is None:
        found = memo.remember(_SHARED_PAYMENTS, key, FREE if key == (0, 0, 0)
                              else Payment(left, right, bank))
    return found


@dataclass(frozen=True, slots=True)
class NeighbourMarket:
    """What can be bought from each neighbour this turn, and at what price."""

    resources: tuple[str, ...]  # the vocabulary's resources, fixing price indexes
    left: Production
    right: Production
    left_prices: tuple[int, ...]
    right_prices: tuple[int, ...]

    def price(self, side: str, resource: str) -> int:
        index = self.resources.index(resource)
        return (self.left_prices if side == "left" else self.right_prices)[index]


# --- interning and caches ------------------------------------------------------------------

# Every table is registered with :mod:`wonders.engine.memo` (bounded, clearable); the
# functions below take each value along with its interned id, since an id cannot be
# turned back into its value.
_BUY: Final[dict[tuple[Vector, int, int, int], Pairs]] = memo.table("payment.buy", 20_000)
_BUY_SHORT: Final[dict[tuple[object, ...], Pairs]] = memo.table("payment.buy_short", 20_000)
_RESIDUALS: Final[dict[tuple[Vector, tuple[int, ...]], tuple[Vector, ...]]] = memo.table(
    "payment.residuals", 20_000)
_SUPPLY: Final[dict[tuple[int, int], tuple[Vector, ...]]] = memo.table("payment.supply", 10_000)
_NEEDS: Final[dict[tuple[tuple[tuple[str, int], ...], int], Vector]] = memo.table(
    "payment.needs", 10_000)
_SPARSE: Final[dict[tuple[tuple[tuple[str, int], ...], int],
                    tuple[Vector, tuple[tuple[int, int], ...], int]]] = memo.table(
    "payment.sparse", 10_000)


def _need_vector(resources: tuple[tuple[str, int], ...], names: tuple[str, ...],
                 names_id: int) -> Vector:
    key = (resources, names_id)
    found = _NEEDS.get(key)
    if found is None:
        counts = dict(resources)
        found = memo.remember(_NEEDS, key, tuple(counts.get(name, 0) for name in names))
    return found


def _sparse_need(resources: tuple[tuple[str, int], ...], names: tuple[str, ...],
                 names_id: int) -> tuple[Vector, tuple[tuple[int, int], ...], int]:
    """A cost's need as a vector, as (index, units) pairs, and as a bit mask."""
    key = (resources, names_id)
    found = _SPARSE.get(key)
    if found is None:
        vector = _need_vector(resources, names, names_id)
        items = tuple((i, n) for i, n in enumerate(vector) if n)
        mask = 0
        for i, _ in items:
            mask |= 1 << i
        found = memo.remember(_SPARSE, key, (vector, items, mask))
    return found


_INDEXES: Final[dict[int, dict[str, int]]] = memo.table("payment.indexes", 100)


def _resource_index(names: tuple[str, ...], names_id: int) -> dict[str, int]:
    """Each resource's position in the vocabulary's order (shared per vocabulary)."""
    found = _INDEXES.get(names_id)
    if found is None:
        found = memo.remember(_INDEXES, names_id, {name: i for i, name in enumerate(names)})
    return found


def _choice_indexes(production: Production, names: tuple[str, ...],
                    names_id: int) -> tuple[Vector, list[tuple[int, ...]]]:
    index = _resource_index(names, names_id)
    fixed = [0] * len(names)
    for resource, units in production.fixed:
        if resource in index:
            fixed[index[resource]] += units
    choices = [tuple(index[r] for r in choice if r in index) for choice in production.choices]
    return tuple(fixed), [c for c in choices if c]


def _total(vector: Vector) -> int:
    """The units in a vector.  (Sorting by ``(total, vector)`` pairs rather than with
    ``key=sum``: compiled, a key function is a Python call per item.  Vectors of equal
    totals cannot cover one another, so the tie order changes nothing kept.)"""
    found = 0
    for units in vector:
        found += units
    return found


def _maximal(vectors: set[Vector]) -> tuple[Vector, ...]:
    """Drop vectors another one covers (componentwise ≥)."""
    ordered = [vector for _, vector in sorted(((_total(v), v) for v in vectors), reverse=True)]
    kept: list[Vector] = []
    for vector in ordered:
        if not any(all(k >= v for k, v in zip(other, vector)) for other in kept):
            kept.append(vector)
    return tuple(kept)


def _minimal(vectors: set[Vector]) -> tuple[Vector, ...]:
    """Drop vectors that are componentwise ≥ another one (never cheaper to buy)."""
    ordered = [vector for _, vector in sorted((_total(v), v) for v in vectors)]
    kept: list[Vector] = []
    for vector in ordered:
        if not any(all(k <= v for k, v in zip(other, vector)) for other in kept):
            kept.append(vector)
    return tuple(kept)


def _supply(production: Production, production_id: int, names: tuple[str, ...],
            names_id: int) -> tuple[Vector, ...]:
    """The maximal supply vectors a (neighbour's) production can reach in one turn."""
    key = (production_id, names_id)
    found = _SUPPLY.get(key)
    if found is None:
        fixed, choices = _choice_indexes(production, names, names_id)
        reached: set[Vector] = {fixed}
        for choice in choices:
            grown: set[Vector] = set()
            for vector in reached:
                for i in choice:
                    grown.add(vector[:i] + (vector[i] + 1,) + vector[i + 1:])
            reached = set(_maximal(grown))
        found = memo.remember(_SUPPLY, key, _maximal(reached))
    return found


def _residuals(start: Vector, masks: tuple[int, ...]) -> tuple[Vector, ...]:
    """The minimal needs left to buy of ``start`` (a need less the fixed units that cover
    it) once choices offering the resources in ``masks`` (bit masks, each restricted to
    what is still needed) give one unit each.

    Keyed by exactly that, not by the city's whole production: random games repeat
    "two units of stone left, a stone-or-ore and a stone-or-clay card" far more often
    than a city's production, and the answer (sets of vectors pruned to the minimal ones
    after each choice; order-independent) is the dearest step of the payment search."""
    key = (start, masks)
    found = _RESIDUALS.get(key)
    if found is None:
        current: set[Vector] = {start}
        size = len(start)
        for mask in masks:
            grown: set[Vector] = set()
            for vector in current:
                grown.add(vector)
                for i in range(size):
                    if mask >> i & 1 and vector[i]:
                        grown.add(vector[:i] + (vector[i] - 1,) + vector[i + 1:])
            current = set(_minimal(grown))
        found = memo.remember(_RESIDUALS, key, _minimal(current))
    return found


def _own_residuals(need: Vector, fixed: Vector, choices: tuple[int, ...]) -> tuple[Vector, ...]:
    """What own production leaves of ``need``: :func:`_residuals` of the need less the
    fixed units, with the choices that offer something still needed."""
    start = tuple(n - f if n > f else 0 for n, f in zip(need, fixed))
    support = 0
    for i, units in enumerate(start):
        if units:
            support |= 1 << i
    if not support:
        return (start,)
    masks = sorted(mask & support for mask in choices if mask & support)
    return _residuals(start, tuple(masks))


_PROFILES: Final[dict[tuple[int, int], tuple[Vector, tuple[int, ...], Vector]]] = memo.table(
    "payment.profiles", 10_000)


def _profile(production: Production, production_id: int, names: tuple[str, ...],
             names_id: int) -> tuple[Vector, tuple[int, ...], Vector]:
    """(units of each resource it can make in one turn, each choice as a bit mask, the
    fixed units alone)."""
    key = (production_id, names_id)
    found = _PROFILES.get(key)
    if found is None:
        fixed, choices = _choice_indexes(production, names, names_id)
        available = list(fixed)
        masks = []
        for choice in choices:
            mask = 0
            for i in choice:
                available[i] += 1
                mask |= 1 << i
            masks.append(mask)
        found = memo.remember(_PROFILES, key, (tuple(available), tuple(masks), fixed))
    return found


def _coupled(mask: int, choices: tuple[int, ...]) -> bool:
    """Whether some choice offers two of the resources in ``mask``."""
    for choice in choices:
        shared = choice & mask
        if shared & (shared - 1):
            return True
    return False


def _one_resource(units: int, least_left: int, most_left: int, price_left: int,
                  price_right: int) -> Pairs:
    """The front of buying ``units`` of one resource, ``k`` of them from the left for ``k``
    in ``least_left … most_left``, in :func:`_pareto`'s order.

    With positive prices every split is optimal (more from the left is dearer there and
    cheaper on the right) and the totals change by ``price_left - price_right`` a unit,
    so the front is the range itself, walked from the cheaper side: no set and no sort
    (the commonest question of a random game)."""
    if price_left <= 0 or price_right <= 0:
        return _pareto({(k * price_left, (units - k) * price_right)
                        for k in range(least_left, most_left + 1)})
    if price_left < price_right:  # each unit more from the left lowers the total
        return tuple((k * price_left, (units - k) * price_right)
                     for k in range(most_left, least_left - 1, -1))
    return tuple((k * price_left, (units - k) * price_right)
                 for k in range(least_left, most_left + 1))


def _buy_independent(missing: list[tuple[int, int]], left: Vector, right: Vector,
                     prices: tuple[Vector, Vector]) -> Pairs:
    """Pareto-optimal (left, right) coins when each missing resource is bought on its own
    (no neighbour's choice offers two of them): per resource, any split between what the
    left and the right neighbour make; the front of the sums over resources.

    Not cached: measured compiled, building a key of what matters (units, supply and
    prices per resource) cost as much as this arithmetic."""
    left_prices, right_prices = prices
    if len(missing) == 1:
        i, units = missing[0]
        most_left = left[i] if left[i] < units else units
        least_left = units - right[i] if units > right[i] else 0
        if least_left > most_left:
            return ()
        return _one_resource(units, least_left, most_left, left_prices[i], right_prices[i])
    points: list[tuple[int, int]] = [(0, 0)]
    for i, units in missing:
        most_left = left[i] if left[i] < units else units
        least_left = units - right[i]
        if least_left < 0:
            least_left = 0
        if least_left > most_left:
            return ()
        price_left, price_right = left_prices[i], right_prices[i]
        if least_left == most_left:
            extra_left, extra_right = least_left * price_left, (units - least_left) * price_right
            points = [(a + extra_left, b + extra_right) for a, b in points]
            continue
        options = [(k * price_left, (units - k) * price_right)
                   for k in range(least_left, most_left + 1)]
        points = list(_pareto({(a + c, b + d) for a, b in points for c, d in options}))
    return _pareto(set(points))


def _covers(vectors: tuple[Vector, ...], need: Vector) -> bool:
    return any(all(s >= n for s, n in zip(vector, need)) for vector in vectors)


def _capped(vectors: tuple[Vector, ...], needed: list[int], residual: Vector) -> tuple[Vector, ...]:
    """Supply vectors reduced to the needed resources, capped at the amounts needed."""
    return _maximal({tuple(min(v[i], residual[i]) for i in needed) for v in vectors})


def _buy(residual: Vector, left: Production, left_id: int, right: Production, right_id: int,
         prices: tuple[Vector, Vector], prices_id: int, names: tuple[str, ...],
         names_id: int) -> Pairs:
    """Pareto-optimal (left, right) coins to buy ``residual`` from the two neighbours.

    Looked up first by exact ids, then by what matters: the needed resources, what
    each neighbour can supply of them (capped at the need) and their prices — many
    different neighbours give the same answer to "1 wood and 1 clay".
    """
    key = (residual, left_id, right_id, prices_id)
    found = _BUY.get(key)
    if found is None:
        needed = [i for i, n in enumerate(residual) if n]
        if not needed:
            found = ((0, 0),)
        else:
            amounts = tuple(residual[i] for i in needed)
            from_left = _capped(_supply(left, left_id, names, names_id), needed, residual)
            from_right = _capped(_supply(right, right_id, names, names_id), needed, residual)
            left_prices = tuple(prices[0][i] for i in needed)
            right_prices = tuple(prices[1][i] for i in needed)
            short_key = (amounts, from_left, from_right, left_prices, right_prices)
            found = _BUY_SHORT.get(short_key)
            if found is None:
                found = memo.remember(_BUY_SHORT, short_key, _split(
                    amounts, from_left, from_right, left_prices, right_prices))
        memo.remember(_BUY, key, found)
    return found


def _split(amounts: Vector, left: tuple[Vector, ...], right: tuple[Vector, ...],
           left_prices: Vector, right_prices: Vector) -> Pairs:
    """Every split of ``amounts`` between the neighbours that both can supply, priced.

    Each resource's share from the left ranges only over what the left can make and
    what leaves the right no more than it can make, so the search is bounded by the
    neighbours' production, never by the cost (a card asking 999,999 glass is
    answered at once: nothing)."""
    ranges = []
    for i, units in enumerate(amounts):
        most_left = max((v[i] for v in left), default=0)
        most_right = max((v[i] for v in right), default=0)
        low, high = max(units - most_right, 0), min(units, most_left)
        if low > high:
            return ()
        ranges.append(range(low, high + 1))
    points: set[tuple[int, int]] = set()
    for split in product(*ranges):
        from_right = tuple(n - k for n, k in zip(amounts, split))
        if _covers(left, split) and _covers(right, from_right):
            points.add((sum(k * p for k, p in zip(split, left_prices)),
                        sum(k * p for k, p in zip(from_right, right_prices))))
    return _pareto(points)


_NOTHING_TO_BUY: Final[Pairs] = ((0, 0),)


def _pareto(points: set[tuple[int, int]]) -> Pairs:
    """Non-dominated (left, right) pairs, cheapest total first, then least to the left."""
    if len(points) == 1:
        return tuple(points)
    kept: list[tuple[int, int]] = []
    lowest_right = None
    for point in sorted(points):  # by left, then right: a point survives if its right is
        if lowest_right is None or point[1] < lowest_right:  # below every earlier one
            kept.append(point)
            lowest_right = point[1]
    if len(kept) == 1:  # the commonest answer: one way to pay
        return (kept[0],)
    kept.sort(key=_total_then_left)  # cheapest total first, then least to the left
    return tuple(kept)


def _total_then_left(point: tuple[int, int]) -> tuple[int, int]:
    return point[0] + point[1], point[0]


class TradeContext:
    """Everything a seat's payment search depends on at one decision point.

    A value in all but name: nothing assigns to a field after construction except
    ``known`` (answers found so far).  A plain class rather than a frozen dataclass
    with a ``__post_init__``: compiled, a dataclass's generated ``__init__`` runs as
    interpreted Python; this one is native (docs/engine.md).
    """

    __slots__ = ("own", "own_id", "left", "left_id", "right", "right_id", "prices",
                 "prices_id", "resources", "names_id", "known", "profiles", "index")

    def __init__(self, own: Production, own_id: int, left: Production, left_id: int,
                 right: Production, right_id: int,
                 prices: tuple[tuple[int, ...], tuple[int, ...]], prices_id: int,
                 resources: tuple[str, ...], names_id: int) -> None:
        self.own = own
        self.own_id = own_id
        self.left = left
        self.left_id = left_id
        self.right = right
        self.right_id = right_id
        self.prices = prices
        self.prices_id = prices_id
        self.resources = resources
        self.names_id = names_id
        self.known: dict[tuple[tuple[str, int], ...], Pairs] = {}
        self.index = _resource_index(resources, names_id)
        self.profiles: tuple[tuple[Vector, tuple[int, ...], Vector], ...] = (
            _profile(own, own_id, resources, names_id),
            _profile(left, left_id, resources, names_id),
            _profile(right, right_id, resources, names_id))

    def pairs(self, resources: tuple[tuple[str, int], ...]) -> Pairs:
        """Pareto-optimal (left, right) coins for ``resources``, ignoring the purse; cached."""
        if not resources:
            return _NOTHING_TO_BUY
        found = self.known.get(resources)
        if found is None:
            # no global cache here: measured over random games, two thirds of these
            # questions are new and only one in twenty repeats an earlier context
            # arguments passed one by one: compiled, a call with *args is a Python call
            if len(resources) == 1:
                resource, units = resources[0]
                found = self._single(resource, units)
            else:
                need, items, mask = _sparse_need(resources, self.resources, self.names_id)
                found = self._search(need, items, mask)
            self.known[resources] = found
        return found

    def _single(self, resource: str, units: int) -> Pairs:
        """One kind of resource: every own choice offering it gives one unit, then any split
        of the rest between what the left and the right neighbour make (no coupling)."""
        i = self.index[resource]  # (compiled, tuple.index would be a Python method call)
        (own, _, _), (left, _, _), (right, _, _) = self.profiles
        missing = units - own[i]
        if missing <= 0:
            return _NOTHING_TO_BUY
        least_left = missing - right[i] if missing > right[i] else 0
        most_left = left[i] if left[i] < missing else missing
        if least_left > most_left:
            return ()
        return _one_resource(missing, least_left, most_left, self.prices[0][i],
                             self.prices[1][i])

    def _search(self, need: Vector, items: tuple[tuple[int, int], ...], mask: int) -> Pairs:
        """Own production first (every assignment of its choices when they matter), then
        the neighbours: the fast independent purchase unless their choices couple."""
        (own_units, own_choices, own_fixed), (left_units, left_choices, _), \
            (right_units, right_choices, _) = self.profiles
        size = len(need)
        if not _coupled(mask, own_choices):
            # each own choice helps at most one needed resource: give it to that one (the
            # common case, written out: no list of lists, no set of points)
            missing: list[tuple[int, int]] = []
            wanted = 0
            for i, n in items:
                short = n - own_units[i]
                if short > 0:
                    missing.append((i, short))
                    wanted |= 1 << i
            if not missing:
                return _NOTHING_TO_BUY
            if not (_coupled(wanted, left_choices) or _coupled(wanted, right_choices)):
                return _buy_independent(missing, left_units, right_units, self.prices)
            residual = [0] * size
            for i, n in missing:
                residual[i] = n
            return _buy(tuple(residual), self.left, self.left_id, self.right, self.right_id,
                        self.prices, self.prices_id, self.resources, self.names_id)
        missings = [[(i, n) for i, n in enumerate(residual) if n]
                    for residual in _own_residuals(need, own_fixed, own_choices)]
        points: set[tuple[int, int]] = set()
        for missing in missings:
            if not missing:
                return _NOTHING_TO_BUY
            wanted = 0
            for i, _ in missing:
                wanted |= 1 << i
            if _coupled(wanted, left_choices) or _coupled(wanted, right_choices):
                residual = [0] * size
                for i, n in missing:
                    residual[i] = n
                found = _buy(tuple(residual), self.left, self.left_id, self.right,
                             self.right_id, self.prices, self.prices_id, self.resources,
                             self.names_id)
            else:
                found = _buy_independent(missing, left_units, right_units, self.prices)
            if len(missings) == 1:
                return found  # already a sorted front
            points.update(found)
        return _pareto(points)

    def payments(self, cost: Cost, coins: int) -> list[Payment]:
        """Every affordable Pareto-optimal payment of ``cost`` with ``coins`` in the purse."""
        bank = cost.coins
        if bank > coins:
            return []
        budget = coins - bank
        return [shared_payment(left, right, bank) for left, right in self.pairs(cost.resources)
                if left + right <= budget]


def trade_context(own: Production, market: NeighbourMarket) -> TradeContext:
    prices = (market.left_prices, market.right_prices)
    return TradeContext(own, own.ident, market.left, market.left.ident, market.right,
                        market.right.ident, prices, intern(prices), market.resources,
                        intern(market.resources))


def payment_options(cost: Cost, own: Production, coins: int,
                    market: NeighbourMarket) -> list[Payment]:
    """Every affordable Pareto-optimal payment of ``cost``, cheapest total first ([] if none)."""
    return trade_context(own, market).payments(cost, coins)
