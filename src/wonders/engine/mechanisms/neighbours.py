"""Trade with neighbours: what a seat buys from the cities beside it, at its prices.

``trade: {mechanism: neighbours}``: a seat lacking resources for a build buys them from
its left and right neighbours' production, at prices its own effects set; every
Pareto-optimal split of the coins between the two is a payment
(:mod:`wonders.engine.payment`).  The part :class:`NeighbourTrade` keeps, per seat, the
trade context the payment search reads (its production, the neighbours' sales, its
prices), found again only when one of the three cities has changed since.
"""

from __future__ import annotations

from typing import Any, Final, Sequence

from wonders.dsl import effects as fx
from wonders.dsl.model import Card
from wonders.engine.city import City
from wonders.engine.flow_state import Part
from wonders.engine.interning import intern
from wonders.engine.mechanisms.discounts import Discounts, pareto
from wonders.engine.payment import NeighbourMarket, Payment, TradeContext, shared_payment
from wonders.engine.rules import Parameters
from wonders.engine.table import left_of, right_of

NAME: Final = "neighbours"


class NeighbourTrade(Part):
    """Each seat's trade context and the city versions it was found for."""

    def __init__(self, params: Parameters, discounts: Discounts) -> None:
        self.params = params
        self.discounts = discounts
        self.names_id = intern(params.resources)
        self.contexts: dict[int, tuple[tuple[int, int, int], TradeContext]] = {}

    def copy(self) -> NeighbourTrade:
        other = NeighbourTrade(self.params, self.discounts)
        other.contexts = dict(self.contexts)
        return other

    def forget(self) -> None:
        """Drop every context (a position set by hand, a board turned)."""
        self.contexts = {}

    def context(self, cities: Sequence[City], seat: int) -> TradeContext:
        """What the payment search of ``seat`` depends on now (kept until one of the three
        cities changes)."""
        players = len(cities)
        city = cities[seat]
        left = cities[left_of(seat, players)]
        right = cities[right_of(seat, players)]
        versions = (city.version, left.version, right.version)
        kept = self.contexts.get(seat)
        if kept is not None and kept[0] == versions:
            return kept[1]
        params = self.params
        own_id, _, prices_id = city.trade_ids(params)
        left_id, right_id = left.trade_ids(params)[1], right.trade_ids(params)[1]
        found = TradeContext(city.production(params)[0], own_id,
                             left.production(params)[1], left_id,
                             right.production(params)[1], right_id,
                             city.prices(params), prices_id, params.resources,
                             self.names_id)
        self.contexts[seat] = (versions, found)
        return found

    def market(self, cities: Sequence[City], seat: int) -> NeighbourMarket:
        """What ``seat`` can buy from its neighbours now, at its prices."""
        trade = self.context(cities, seat)
        return NeighbourMarket(trade.resources, trade.left, trade.right, trade.prices[0],
                               trade.prices[1])

    def payments(self, cities: Sequence[City], seat: int, cost: fx.Cost,
                 coins: int) -> list[Payment]:
        """The affordable Pareto-optimal payments of ``cost``, with the coins a trade
        discount takes off what each neighbour is paid."""
        trade = self.context(cities, seat)
        left_off, right_off = self.discounts.trade_off(cities[seat])
        if not left_off and not right_off:
            return trade.payments(cost, coins)
        found = [shared_payment(max(0, p.left - left_off), max(0, p.right - right_off), p.bank)
                 for p in trade.payments(cost, coins + left_off + right_off)]
        return pareto([p for p in found if p.total <= coins])

    def discounted_payments(self, cities: Sequence[City], seat: int, cost: fx.Cost,
                            card: Card | None, coins: int) -> list[Payment]:
        """:meth:`payments` of every cost the resource discounts allow, Pareto-optimal over
        all of them (a paid discount's coins go to the bank)."""
        costs = self.discounts.resource_costs(cities[seat], cost, card)
        if len(costs) == 1:
            return self.payments(cities, seat, costs[0], coins)
        found = [p for each in costs for p in self.payments(cities, seat, each, coins)]
        return [p for p in pareto(found)
                if not any(q.left <= p.left and q.right <= p.right and q.bank <= p.bank
                           and q != p for q in found)]

    def trade_view(self, cities: Sequence[City], seat: int) -> dict[str, Any]:
        """What ``seat`` may buy from each neighbour now and at what price, for people (the
        table's city panels): per side (``left``, ``right``) the neighbour's ``seat``, the
        coins ``prices`` per resource that seat pays it, and the ``offers``: each unit the
        neighbour makes for sale, as the resources it may be (one for a fixed unit,
        several for a choice).  Read from the payment search's own context, so the page
        shows exactly what payments use."""
        trade = self.context(cities, seat)
        names = trade.resources
        players = len(cities)
        found: dict[str, Any] = {}
        sides = (("left", left_of(seat, players), trade.left, trade.prices[0]),
                 ("right", right_of(seat, players), trade.right, trade.prices[1]))
        for side, neighbour, sale, prices in sides:
            offers: list[list[str]] = []
            for resource, units in sale.fixed:
                offers.extend([resource] for _ in range(units))
            offers.extend(list(choice) for choice in sale.choices)
            found[side] = {"seat": neighbour,
                           "prices": {name: prices[i] for i, name in enumerate(names)},
                           "offers": offers}
        return found
