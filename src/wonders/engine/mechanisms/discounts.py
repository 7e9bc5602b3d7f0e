"""Discounts on what a city pays: coins off a cost, resources off it, coins off trade.

The effect language's ``discount`` (``discount N coins on …``, ``discount every resource
on …``, ``discount N resources on … [for P coins]``, ``discount N coins on trade from
PLACES``; docs/language.md) lowers what one build costs a city, or what it pays its
neighbours for one build's resources.  Which kinds a data set has at all is worked out
once per loaded data (:func:`kinds`): without any, costs are paid as printed, which is
most games, and each question below answers at once.
"""

from __future__ import annotations

from typing import Final, Sequence

from wonders.dsl import effects as fx
from wonders.dsl.model import Card
from wonders.dsl.model import Game as GameData
from wonders.engine.city import City
from wonders.engine.payment import Payment
from wonders.engine.runtime import every_effects
from wonders.engine.table import seats_at

_KINDS: Final = "draft_discount_kinds"   # this module's entry in GameData.derived
NO_TRADE_OFF: Final = (0, 0)


class Discounts:
    """The kinds of discount a data set has (fixed for it: games share one)."""

    __slots__ = ("coins", "trade", "resources", "shared")

    def __init__(self, coins: bool, trade: bool, resources: bool, shared: bool) -> None:
        self.coins = coins          # ``discount N coins on …`` or ``… every resource …``
        self.trade = trade          # ``discount N coins on trade …``
        self.resources = resources  # ``discount N resources on …``
        self.shared = shared        # a coin discount lowering other cities' costs

    def cost_for(self, cities: Sequence[City], seat: int, cost: fx.Cost,
                 card: Card | None) -> fx.Cost:
        """``cost`` less ``seat``'s coin discounts for ``card`` (None: the next wonder
        stage), never below 0 coins, and without its resources under ``discount every
        resource on …``."""
        if not self.coins:
            return cost
        off = shared_off(cities, seat, card) if self.shared else 0
        every = False
        for _, _, effect in cities[seat].clause_list(fx.Timing.ONGOING):
            if not isinstance(effect, fx.Discount) or effect.target == "trade" or not (
                    effect.unit == "coins" or effect.every) or effect.cities:
                continue
            if not covers(effect, card):
                continue
            if effect.every:
                every = True
            else:
                off += effect.count
        if off == 0 and not (every and cost.resources):
            return cost
        return fx.Cost(max(0, cost.coins - off), () if every else cost.resources)

    def trade_off(self, city: City) -> tuple[int, int]:
        """Coins off what ``city`` pays its (left, right) neighbour for one build's
        resources (``discount N coins on trade from PLACES``; never below 0)."""
        if not self.trade:
            return NO_TRADE_OFF
        left = right = 0
        for _, _, effect in city.clause_list(fx.Timing.ONGOING):
            if isinstance(effect, fx.Discount) and effect.target == "trade":
                for place in effect.places:
                    if place in ("left", "neighbours"):
                        left += effect.count
                    if place in ("right", "neighbours"):
                        right += effect.count
        return left, right

    def resource_costs(self, city: City, cost: fx.Cost, card: Card | None) -> list[fx.Cost]:
        """The costs ``city`` may pay instead of ``cost`` for ``card`` (None: the next
        wonder stage) under its resource discounts (``discount N resources on …``: N units
        fewer, any of the cost's, all of them taken; ``… for P coins``: at most N units
        fewer for P coins each, to the bank, if the player likes).  ``[cost]`` without
        any."""
        if not cost.resources or not self.resources:
            return [cost]
        free = 0
        paid: list[int] = []  # the price of each unit a paid discount may take off
        for _, _, effect in city.clause_list(fx.Timing.ONGOING):
            if (not isinstance(effect, fx.Discount) or effect.unit != "resources"
                    or effect.every or effect.target == "trade"):
                continue
            if not covers(effect, card):
                continue
            if effect.price:
                paid.extend([effect.price] * effect.count)
            else:
                free += effect.count
        if not free and not paid:
            return [cost]
        variants = {cost}
        for _ in range(free):  # a free unit off is never worse: every variant takes it
            variants = {less for v in variants for less in one_less(v, 0)} or variants
        for price in paid:  # a paid one is optional
            variants |= {less for v in variants for less in one_less(v, price)}
        return sorted(variants, key=lambda c: (c.coins, c.resources))


def kinds(data: GameData) -> Discounts:
    """The kinds of discount any card, stage or token of ``data`` has, in one pass, worked
    out once per loaded data."""
    cached = data.derived.get(_KINDS)
    if isinstance(cached, Discounts):
        return cached
    coins = trade = resources = shared = False
    for effects in every_effects(data):
        for clause in effects.clauses:
            effect = clause.effect
            if not isinstance(effect, fx.Discount):
                continue
            if effect.target == "trade":
                trade = True
            elif effect.unit == "coins" or effect.every:
                coins = True
                shared = shared or bool(effect.cities)
            elif effect.unit == "resources":
                resources = True
    found = Discounts(coins, trade, resources, shared)
    data.derived[_KINDS] = found
    return found


def covers(effect: fx.Discount, card: Card | None) -> bool:
    """Whether a discount's target is ``card`` (None: the next wonder stage)."""
    if card is None:
        return effect.target == "wonder"
    return effect.target == "card" and (effect.colours is None
                                        or card.colour in effect.colours)


def shared_off(cities: Sequence[City], seat: int, card: Card | None) -> int:
    """Coins off ``seat``'s cost of ``card`` (None: its next wonder stage) by discounts of
    the cities at some places (``discount 1 coin on white cards in left, right``: the
    owner's neighbours pay 1 coin less), the owner's own among them."""
    off = 0
    players = len(cities)
    for owner, city in enumerate(cities):
        for effect in city.shared_discounts():
            if not covers(effect, card):
                continue
            for place in effect.cities:
                if seat in seats_at(owner, place, players):
                    off += effect.count
                    break
    return off


def one_less(cost: fx.Cost, price: int) -> list[fx.Cost]:
    """``cost`` with one unit fewer of each of its resources in turn, ``price`` coins more."""
    found: list[fx.Cost] = []
    for i, (name, count) in enumerate(cost.resources):
        rest = list(cost.resources)
        if count > 1:
            rest[i] = (name, count - 1)
        else:
            del rest[i]
        found.append(fx.Cost(cost.coins + price, tuple(rest)))
    return found


def pareto(payments: list[Payment]) -> list[Payment]:
    """The payments no other one beats on both neighbours' coins (same bank), in order,
    each once."""
    kept: list[Payment] = []
    for p in payments:
        if p in kept:
            continue
        if any(q.bank == p.bank and q.left <= p.left and q.right <= p.right and q != p
               for q in payments):
            continue
        kept.append(p)
    return kept
