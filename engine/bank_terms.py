"""What things cost a city trading with the bank, shared between games.

A city's bank prices depend on its rival's brown/grey production and on its
own fixed-price cards; what a card costs it depends on those prices, its own
production and its discounts.  These combinations repeat across thousands of
games, so a :class:`TradeTerms` value is interned by (own production, prices,
discounts) and keeps, for every card and wonder it was asked about, the coins
it costs.  A game only looks the terms up again when a city's production or
trading effects change.
"""

from __future__ import annotations

from typing import Any, Final

from wonders.dsl import effects as fx

from . import memo
from .bank import shortfall
from .production import Production

# registered with :mod:`wonders.engine.memo` (bounded, clearable)
_TERMS: Final[dict[tuple[int, int, int], "TradeTerms"]] = memo.table("bank_terms.terms", 5_000)


class TradeTerms:
    """Prices, own production and discounts of one city; the costs asked so far."""

    __slots__ = ("own", "own_id", "prices", "prices_id", "discounts", "wonder_discount",
                 "simple", "fixed", "costs")

    def __init__(self, own: Production, own_id: int, prices: dict[str, int], prices_id: int,
                 discounts: dict[str, int], wonder_discount: int) -> None:
        self.own = own
        self.own_id = own_id
        self.prices = prices
        self.prices_id = prices_id
        self.discounts = discounts
        self.wonder_discount = wonder_discount
        self.simple = not own.choices
        self.fixed = dict(own.fixed)
        self.costs: dict[Any, int] = {}  # card or wonder -> coins

    def cost(self, cost: fx.Cost, discount: int) -> int:
        """Coins for ``cost``: its coins plus the cheapest purchase of what is missing."""
        paid = cost.coins
        if not cost.resources:
            return paid
        if self.simple and not discount:  # no choice production: count what is short
            fixed = self.fixed
            prices = self.prices
            for resource, units in cost.resources:
                short = units - fixed.get(resource, 0)
                if short > 0:
                    paid += short * prices[resource]
            return paid
        return paid + shortfall(cost.resources, self.fixed, self.own.choices, self.prices,
                                discount)


def terms(own: Production, own_id: int, prices: dict[str, int], prices_id: int,
          discounts: dict[str, int], wonder_discount: int, discounts_id: int) -> TradeTerms:
    """The shared terms for this combination (``discounts_id`` interns the discounts)."""
    key = (own_id, prices_id, discounts_id)
    found = _TERMS.get(key)
    if found is None:
        found = memo.remember(_TERMS, key, TradeTerms(own, own_id, prices, prices_id,
                                                      discounts, wonder_discount))
    return found
