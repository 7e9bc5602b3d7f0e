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
from wonders.engine import memo
from wonders.engine.bank import shortfall
from wonders.engine.production import Production

# registered with :mod:`wonders.engine.memo` (bounded, clearable).  New terms keep turning up
# (Duel: ~6 a game at first, ~2 after 30,000 games), each with the costs asked of it; with
# 20,000 rather than 5,000, random Duel games 5,000-15,000 work out a third fewer terms and a
# quarter fewer costs again, for 17 MB more resident memory
_TERMS: Final[dict[tuple[int, int, int], "TradeTerms"]] = memo.table("bank_terms.terms", 20_000)
# own production id -> what the terms read of it (:func:`_own`), the same for every price list
_OWN: Final[dict[int, tuple[dict[str, int], dict[str, int] | None, int, tuple[int, ...] | None,
                            dict[str, int] | None]]] = memo.table("bank_terms.own", 5_000)

# A resource's rate packs what :meth:`TradeTerms.cost` reads of it into one small int, so a
# cost line is one dict lookup (not three: units produced, price, offering group): bits
# 0-9 its group of equal choices plus one (0: no choice offers it), 10-19 the units
# produced, 20-29 its price.  Values that do not fit leave the terms without rates (the
# general search then answers); below 2**30 an int is one CPython digit, cheap to unbox.
_MASK: Final = 1023
_FIXED: Final = 10
_PRICE: Final = 20


class TradeTerms:
    """Prices, own production and discounts of one city; the cards and wonders priced so far."""

    __slots__ = ("own", "own_id", "prices", "prices_id", "discounts", "wonder_discount",
                 "fixed", "offer", "groups", "copies", "rates", "tucks", "offers", "offers_from",
                 "waived", "chain_price", "chain_shown")

    def __init__(self, own: Production, own_id: int, prices: dict[str, int], prices_id: int,
                 discounts: dict[str, int], wonder_discount: int,
                 priced: dict[str, int] | None = None,
                 waived: dict[str, int] | None = None, chain_price: int = -1,
                 chain_shown: frozenset[Any] = frozenset()) -> None:
        """``priced`` is :func:`price_rates` of ``prices`` when the caller keeps it;
        ``waived``: by colour, the resources of a discount given up when a build pays none
        of its cost's coins instead (``discount 1 resource or every coin on …``);
        ``chain_price``: what a card of ``chain_shown`` (showing a chain symbol) costs at
        most (``build chain cards for N coins``; -1: no such price)."""
        self.waived: dict[str, int] = waived if waived is not None else {}
        self.chain_price = chain_price
        self.chain_shown = chain_shown
        self.own = own
        self.own_id = own_id
        self.prices = prices
        self.prices_id = prices_id
        self.discounts = discounts
        self.wonder_discount = wonder_discount
        self.fixed, self.offer, self.groups, self.copies, bits = _own(own, own_id)
        self.rates = _rates(bits, priced if priced is not None else price_rates(prices))
        # what the card-structure loop offers for a card on these terms (its shared record
        # of the card at its price; ``None`` until asked), at the card's number
        # (structure_rules.card_number) minus ``offers_from``: one list index per card and
        # turn.  Only the ages asked about have slots (structure_rules.place): the
        # collector visits every slot of the thousands of terms kept on each full pass.
        self.offers: list[Any] = []
        self.offers_from = 0
        # wonder -> the loop's shared record of the wonder at its price on these terms
        self.tucks: dict[Any, Any] = {}

    def cost(self, cost: fx.Cost, discount: int) -> int:
        """Coins for ``cost``: its coins plus the cheapest purchase of what is missing.

        Without a discount, when the choices fall into groups of equal choices that
        share no resource (``rates`` is set), each group covers as many units as it has
        choices, the dearest missing ones it offers, whatever the others do: one pass
        over the cost.  Otherwise the general search
        (:func:`~wonders.engine.bank.shortfall`) answers.
        """
        paid = cost.coins
        resources = cost.resources
        if not resources:
            return paid
        rates = self.rates
        if discount or rates is None:
            return paid + shortfall(resources, self.fixed, self.own.choices, self.prices,
                                    discount)
        copies = self.copies
        if copies is None and self.groups <= 2:
            # at most two choices: the dearest each offers, kept in two locals (no list to
            # make and free, as for more groups below)
            first = second = 0
            for resource, units in resources:
                rate = rates[resource]
                short = units - ((rate >> _FIXED) & _MASK)
                if short > 0:
                    price = rate >> _PRICE
                    paid += short * price
                    which = rate & _MASK
                    if which == 1:
                        if price > first:
                            first = price
                    elif which == 2 and price > second:
                        second = price
            return paid - first - second
        if copies is None:  # one choice per group: the dearest missing resource it offers
            best = [0] * self.groups
            for resource, units in resources:
                rate = rates[resource]
                short = units - ((rate >> _FIXED) & _MASK)
                if short > 0:
                    price = rate >> _PRICE
                    paid += short * price
                    which = (rate & _MASK) - 1
                    if which >= 0 and price > best[which]:
                        best[which] = price
            for saved in best:
                paid -= saved
            return paid
        # per group, the prices of the dearest missing units it offers, dearest first
        dearest = [[0] * count for count in copies]
        for resource, units in resources:
            rate = rates[resource]
            short = units - ((rate >> _FIXED) & _MASK)
            if short > 0:
                price = rate >> _PRICE
                paid += short * price
                which = (rate & _MASK) - 1
                if which >= 0:
                    _keep(dearest[which], price, short)
        for kept in dearest:
            for saved in kept:
                paid -= saved
        return paid


def price_rates(prices: dict[str, int]) -> dict[str, int] | None:
    """The price part of each resource's rate (see ``_PRICE``), ``None`` if one does not
    fit: kept with the prices, so new terms only add their own production's bits."""
    rates: dict[str, int] = {}
    for resource, price in prices.items():
        if not 0 <= price <= _MASK:
            return None
        rates[resource] = price << _PRICE
    return rates


def _rates(bits: dict[str, int] | None, priced: dict[str, int] | None
           ) -> dict[str, int] | None:
    """Each priced resource's rate: its price part (``priced``) and its ``bits`` (units
    produced and group, :func:`_own`); ``None`` when the one-pass costs do not apply
    (``bits`` is ``None``) or a value does not fit.  A resource produced but not priced
    also leaves ``None``: the general search then treats it as it always did.  A copy of
    the price parts with the few produced resources changed: cheaper than a new dict."""
    if bits is None or priced is None:
        return None
    rates = priced.copy()
    for resource, own in bits.items():
        rate = rates.get(resource, -1)
        if rate < 0:
            return None
        rates[resource] = rate | own
    return rates


def _keep(kept: list[int], price: int, units: int) -> None:
    """Put ``units`` units at ``price`` among the dearest ``kept`` (dearest first, as long
    as it is), dropping the cheapest."""
    last = len(kept) - 1
    for _ in range(units):
        if price <= kept[last]:
            return
        at = last
        while at > 0 and kept[at - 1] < price:
            kept[at] = kept[at - 1]
            at -= 1
        kept[at] = price


def _own(own: Production, own_id: int
         ) -> tuple[dict[str, int], dict[str, int] | None, int, tuple[int, ...] | None,
                    dict[str, int] | None]:
    """(units produced by resource, the group of equal choices offering each resource, how
    many groups, how many choices each group has, the rate bits of each resource produced
    or offered) of ``own``, kept per production (read only).  The offers are ``None`` when
    two different choices offer one resource, as covering one unit can then block another
    and only the general search is exact; the counts are ``None`` when each group is one
    choice; the bits (units produced, group plus one: see ``_PRICE``) are ``None`` with the
    offers or when a value does not fit."""
    found = _OWN.get(own_id)
    if found is not None:
        return found
    offer: dict[str, int] | None = {}
    groups: list[tuple[str, ...]] = []
    copies: list[int] = []
    for choice in own.choices:
        if choice in groups:
            copies[groups.index(choice)] += 1
            continue
        groups.append(choice)
        copies.append(1)
        for resource in choice:
            if offer is not None and resource not in offer:
                offer[resource] = len(groups) - 1
            else:
                offer = None
    fixed = dict(own.fixed)
    bits: dict[str, int] | None = None
    if offer is not None and len(groups) < _MASK:
        bits = {}
        for resource, group in offer.items():
            bits[resource] = group + 1
        for resource, units in fixed.items():
            if not 0 <= units <= _MASK:
                bits = None
                break
            if units:
                bits[resource] = bits.get(resource, 0) | (units << _FIXED)
    found = (fixed, offer, len(groups),
             tuple(copies) if len(groups) < len(own.choices) else None, bits)
    return memo.remember(_OWN, own_id, found)  # type: ignore[no-any-return]


def terms(own: Production, own_id: int, prices: dict[str, int], prices_id: int,
          discounts: dict[str, int], wonder_discount: int, discounts_id: int,
          priced: dict[str, int] | None, waived: dict[str, int] | None = None,
          chain_price: int = -1, chain_shown: frozenset[Any] = frozenset()) -> TradeTerms:
    """The shared terms for this combination (``discounts_id`` interns the discounts;
    ``priced`` is :func:`price_rates` of ``prices``)."""
    key = (own_id, prices_id, discounts_id)
    found = _TERMS.get(key)
    if found is None:
        found = memo.remember(_TERMS, key, TradeTerms(own, own_id, prices, prices_id,
                                                      discounts, wonder_discount, priced,
                                                      waived, chain_price, chain_shown))
    return found
