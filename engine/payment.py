"""The payment search: every Pareto-optimal way to pay a cost.

A cost is coins (to the bank) plus resources.  A player first uses their own
production (every choice card assigned as best helps), then buys what is
missing from the left and right neighbours' *buyable* production (the rule
set says whose: the board's resource and brown/grey cards in the base game),
at a per-neighbour, per-resource price that trading effects lower.  Each unit
a neighbour produces can be bought once per turn.  The result lists every
non-dominated split of coins between the two neighbours: no option pays both
neighbours at least as much as another option.

Results are cached by (cost, productions, prices): during a game the same
questions repeat constantly.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from wonders.dsl.effects import Cost

from .production import Production


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


FREE = Payment()

Prices = tuple[tuple[int, ...], tuple[int, ...]]  # per resource index: (left prices, right prices)


@dataclass(frozen=True, slots=True)
class Market:
    """What can be bought from each neighbour this turn, and at what price."""

    resources: tuple[str, ...]  # the vocabulary's resources, fixing price indexes
    left: Production
    right: Production
    left_prices: tuple[int, ...]
    right_prices: tuple[int, ...]

    def price(self, side: str, resource: str) -> int:
        index = self.resources.index(resource)
        return (self.left_prices if side == "left" else self.right_prices)[index]


def payment_options(cost: Cost, own: Production, coins: int, market: Market) -> list[Payment]:
    """Every affordable Pareto-optimal payment of ``cost``, cheapest total first ([] if none)."""
    if cost.coins > coins:
        return []
    options = _options(cost.resources, own, market)
    result = [Payment(left, right, cost.coins) for left, right in options
              if left + right + cost.coins <= coins]
    return result


def cheapest(cost: Cost, own: Production, coins: int, market: Market) -> Payment | None:
    options = payment_options(cost, own, coins, market)
    return options[0] if options else None


@lru_cache(maxsize=200_000)
def _options(resources: tuple[tuple[str, int], ...], own: Production,
             market: Market) -> tuple[tuple[int, int], ...]:
    need = {r: n for r, n in resources}
    fixed = dict(own.fixed)
    for resource in list(need):
        need[resource] -= fixed.get(resource, 0)
        if need[resource] <= 0:
            del need[resource]
    if not need:
        return ((0, 0),)
    # own choices that can help, each assigned to one needed resource or left unused
    useful = [tuple(r for r in choice if r in need) for choice in own.choices]
    useful = [u for u in useful if u]
    best: set[tuple[int, int]] = set()
    seen: set[tuple[tuple[str, int], ...]] = set()
    for assignment in product(*[u + ("",) for u in useful]) if useful else [()]:
        remaining = dict(need)
        for resource in assignment:
            if resource and remaining.get(resource, 0) > 0:
                remaining[resource] -= 1
        key = tuple(sorted((r, n) for r, n in remaining.items() if n > 0))
        if key in seen:
            continue
        seen.add(key)
        best.update(_buy(key, market))
    return _pareto(best)


@lru_cache(maxsize=200_000)
def _buy(need: tuple[tuple[str, int], ...], market: Market) -> tuple[tuple[int, int], ...]:
    """Pareto-optimal (left, right) coins to buy ``need`` from the neighbours."""
    if not need:
        return ((0, 0),)
    resources = [r for r, _ in need]
    counts = [n for _, n in need]
    found: set[tuple[int, int]] = set()
    for split in product(*[range(n + 1) for n in counts]):
        from_left = {r: k for r, k in zip(resources, split) if k}
        from_right = {r: n - k for r, n, k in zip(resources, counts, split) if n - k}
        if not market.left.can_supply(from_left) or not market.right.can_supply(from_right):
            continue
        left = sum(market.price("left", r) * k for r, k in from_left.items())
        right = sum(market.price("right", r) * k for r, k in from_right.items())
        found.add((left, right))
    return _pareto(found)


def _pareto(points: set[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Non-dominated (left, right) pairs, cheapest total first, then least to the left."""
    ordered = sorted(points, key=lambda p: (p[0] + p[1], p[0]))
    kept: list[tuple[int, int]] = []
    for point in ordered:
        if not any(k[0] <= point[0] and k[1] <= point[1] for k in kept):
            kept.append(point)
    return tuple(kept)
