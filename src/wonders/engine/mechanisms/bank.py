"""Bank trade: what a seat pays the bank for what it lacks, and the records a turn reads.

A seat buys each resource it lacks from the bank at a price that the rival's production
raises (``trade: {mechanism: bank}``; the cheapest purchase is :mod:`wonders.engine.bank`,
the prices per city :mod:`wonders.engine.bank_terms`).  The terms a seat trades on are
shared by every game (keyed by the productions and the seat's own trading effects), and so
are the records of what each card offers at each price (:class:`Priced`, :class:`Tuck`):
a turn of the ``structure`` offer finds a card's actions with a list index.  The part
:class:`BankTrade` keeps each seat's terms and the versions of the cities they were found
for; the bank's part of a payment (trade a rival with ``trade_income`` receives instead)
is :meth:`BankTrade.pay`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Mapping, Sequence, TypeVar, cast

from wonders.dsl import effects as fx
from wonders.dsl.model import Card, Wonder
from wonders.dsl.model import Game as GameData
from wonders.engine import memo
from wonders.engine.actions import CHAIN, Action, build, build_wonder, sell
from wonders.engine.bank_terms import TradeTerms, price_rates, terms
from wonders.engine.city import TERMS_CACHE as BANK_TERMS
from wonders.engine.drafted_city import DraftedCity, stage_cost
from wonders.engine.flow_state import Part, part_index
from wonders.engine.interning import intern
from wonders.engine.payment import FREE, shared_payment
from wonders.engine.production import Production
from wonders.engine.runtime import WONDER_EVENT
from wonders.engine.structure_rules import StructureRules, card_number, place, structure_rules

if TYPE_CHECKING:
    from wonders.engine.flow import FlowGame

NAME: Final = "bank"
SLOT: Final = part_index(NAME)   # (the part's index in a game's slots)
TRADE_INCOME_ABILITY: Final = "trade_income"
# the chains of the rival's built cards make cards free for the owner too
OPPONENT_CHAINS_ABILITY: Final = "opponent_chains"

CANNOT: Final = -1    # the card cannot be built now (already there, or too dear)
CHAINED: Final = -2   # free by chain


class Priced:
    """What one card offers when building it costs ``paid`` coins: build and sell when the
    city has the coins, sell alone when it has not.

    One per card and price, shared by every game and terms (in :data:`OFFERS`), and what
    a terms' ``offers`` list holds at the card's number (:func:`card_number`): a turn then
    finds a card's actions with one list index and one comparison with the city's coins.
    A native class rather than a tuple: compiled, its fields are read without unpacking
    or type checks.
    """

    __slots__ = ("paid", "offers", "refused")

    def __init__(self, paid: int, offers: tuple[Any, ...], refused: tuple[Any, ...]) -> None:
        self.paid = paid
        self.offers = offers
        self.refused = refused


class Tuck:
    """One wonder at one price, and the action tucking each card under it at that price
    (made as a card is first offered): shared by every game, in :data:`TUCKS`."""

    __slots__ = ("wonder", "paid", "by_card", "by_card_from")

    def __init__(self, wonder: Wonder, paid: int) -> None:
        self.wonder = wonder
        self.paid = paid
        # the action tucking a card, at the card's number (:func:`card_number`) minus
        # ``by_card_from`` (``None`` until first offered; see structure_rules.place)
        self.by_card: list[Any] = []
        self.by_card_from = 0


# card -> its offers by what building it costs: index ``paid - CHAINED`` (so 0 is free
# by chain, 1 cannot be built, 2 + n costs n coins); a list, as prices are small ints.
# Only for a card its data set did not number: the others' lists are in the data set's
# StructureRules.records (a list index is cheaper than a lookup; docs/engine.md).
OFFERS: Final[dict[Card, list[Priced | None]]] = memo.table("bank.offers", 2_000)
# (the rival's production for sale id, own terms id) -> the prices, their id and their rates
PRICES: Final[dict[tuple[int, int], tuple[dict[str, int], int, dict[str, int] | None]]] = (
    memo.table("bank.prices", 10_000))
# wonder -> by price (list index) -> its tucks at that price
TUCKS: Final[dict[Wonder, list[Tuck | None]]] = memo.table("bank.tucks", 1_000)
# (own production id, the rival's production for sale id, own terms id) -> the shared terms:
# one lookup when a city's context changed (the prices and terms tables behind it share
# the terms between rival productions selling the same).  The own terms id names the data
# set's bank price and resources too (a process may hold two rule sets).  While the three
# ids are below 2**20 the key is one int packing them (:func:`context_key`), else the tuple.
CONTEXTS: Final[dict[object, TradeTerms]] = memo.table("bank.contexts", 20_000)
ID_BITS: Final = 20
ID_BOUND: Final = 1 << ID_BITS


def context_key(own_id: int, sale_id: int, terms_id: int) -> object:
    """The :data:`CONTEXTS` key of these ids: one int packing them while they fit (ids
    come from one process-wide counter, so small for a long while), else their tuple.
    Compiled, the tuple costs three boxed ints, a tuple, its hash and an item-by-item
    comparison on a hit; the packed int one boxed int hashed and compared as a number.
    An int never equals a tuple, so the two kinds of key cannot collide."""
    if own_id < ID_BOUND and sale_id < ID_BOUND and terms_id < ID_BOUND:
        return (own_id << (2 * ID_BITS)) | (sale_id << ID_BITS) | terms_id
    return (own_id, sale_id, terms_id)


def items_of(values: dict[str, int]) -> tuple[tuple[str, int], ...]:
    """``values``' items in a canonical order (sorting only when there are two or more)."""
    if not values:
        return ()
    if len(values) == 1:
        return tuple(values.items())
    return tuple(sorted(values.items()))


K = TypeVar("K")
V = TypeVar("V")


def by_price_list(table: dict[K, list[V | None]], key: K, index: int) -> list[V | None]:
    """``key``'s values by price (a list, as prices are small ints), long enough to
    hold ``index``."""
    found = table.get(key)
    if found is None:
        found = memo.remember(table, key, [])
    while len(found) <= index:
        found.append(None)
    return found


def card_record(setup: StructureRules, card: Card, paid: int) -> Priced:
    """The shared record of ``card`` at ``paid`` (``CHAINED``: free by chain;
    ``CANNOT``: it cannot be built, only sold)."""
    records = setup.records
    at = card.number - setup.first_number
    by_price: list[Priced | None]
    if 0 <= at < len(records):
        kept = records[at]  # (Any: None until the card's first record)
        if kept is None:
            kept = records[at] = []
        by_price = kept
    else:  # (a card its data set did not number)
        by_price = by_price_list(OFFERS, card, 0)
    index = paid - CHAINED
    found = by_price[index] if index < len(by_price) else None
    if found is not None:
        return found
    sold: tuple[Action, ...] = (sell(card),)
    if paid == CHAINED:
        found = Priced(CHAINED, (build(card, FREE, CHAIN), sell(card)), sold)
    elif paid >= 0:
        found = Priced(paid, (build(card, shared_payment(0, 0, paid)), sell(card)), sold)
    else:
        found = Priced(0, sold, sold)
    while len(by_price) <= index:
        by_price.append(None)
    by_price[index] = found
    return found


def first_offer(setup: StructureRules, terms: TradeTerms, card: Card) -> Priced:
    """Price ``card`` on ``terms`` the first time they are asked about it, and keep its
    record in them (at its number, which it gets here if it has none yet)."""
    discounts = terms.discounts  # (most terms have none: a length test, not a lookup)
    discount = discounts.get(card.colour, 0) if discounts else 0
    paid = terms.cost(card.cost, discount)
    if terms.waived and card.cost.coins and card.colour in terms.waived:
        paid = min(paid, waived_cost(terms, card, discount))
    if terms.chain_price >= 0 and paid > terms.chain_price and card in terms.chain_shown:
        paid = terms.chain_price   # ("build chain cards for N coins": the cheaper)
    found = card_record(setup, card, paid)
    number = card_number(card)
    offers = terms.offers
    index = number - terms.offers_from
    if 0 <= index < len(offers):  # (its age has slots already: most cards)
        offers[index] = found
    else:
        terms.offers_from = place(offers, terms.offers_from, number, found)
    return found


def waived_cost(terms: TradeTerms, card: Card, discount: int) -> int:
    """What ``card`` costs on ``terms`` paying none of its cost's coins, the resources of
    the discount that allows it given up (``discount 1 resource or every coin on …``)."""
    given_up = terms.waived.get(card.colour, 0)
    return terms.cost(fx.Cost(0, card.cost.resources), max(0, discount - given_up))


def coin_part(terms: TradeTerms, card: Card, paid: int) -> int:
    """The coins of ``card``'s cost in a build paying ``paid`` (the rest is trade): none when
    the build was paid with its cost's coins waived, as the cheaper way."""
    coins = card.cost.coins
    if not coins or card.colour not in terms.waived:
        return coins
    discounts = terms.discounts
    discount = discounts.get(card.colour, 0) if discounts else 0
    if terms.cost(card.cost, discount) > paid:
        return 0
    return coins


def chain_priced(terms: TradeTerms, card: Card, paid: int) -> bool:
    """Whether a build of ``card`` paying ``paid`` on ``terms`` is one at the price of
    ``build chain cards for N coins`` (those coins go to the bank: none of it is trade)."""
    return terms.chain_price == paid and card in terms.chain_shown


def tuck_of(wonder: Wonder, paid: int) -> Tuck:
    """The shared record of ``wonder`` at ``paid`` coins."""
    by_price = TUCKS.get(wonder)
    found = by_price[paid] if by_price is not None and paid < len(by_price) else None
    if found is None:
        found = by_price_list(TUCKS, wonder, paid)[paid] = Tuck(wonder, paid)
    return found


def tuck_card(tuck: Tuck, card: Card) -> Any:
    """The action tucking ``card`` under ``tuck``'s wonder at its price, made the first
    time it is offered (typed Any: see :func:`wonders.engine.mechanisms.structure.turn_moves`)."""
    number = card_number(card)
    by_card = tuck.by_card
    index = number - tuck.by_card_from
    found = by_card[index] if 0 <= index < len(by_card) else None
    if found is None:
        found = build_wonder(card, tuck.wonder, tuck.paid)
        tuck.by_card_from = place(by_card, tuck.by_card_from, number, found)
    return found




class OwnTerms:
    """A city's own trading terms (kept in its cache until its effects change): fixed
    prices, discounts per colour and on wonders, and an interned id of all three and the
    game's bank price and resources (the shared tables' keys need them all).  A native
    class rather than a tuple: compiled, a tuple read from the cache is checked item by item
    and unpacked."""

    __slots__ = ("fixed", "discounts", "wonder_discount", "ident", "less", "waived",
                 "chain_price", "chain_shown")

    def __init__(self, fixed: dict[str, int], discounts: dict[str, int], wonder_discount: int,
                 ident: int, less: dict[str, int] | None = None,
                 waived: dict[str, int] | None = None, chain_price: int = -1,
                 chain_shown: frozenset[Card] = frozenset()) -> None:
        self.fixed = fixed
        self.discounts = discounts
        self.wonder_discount = wonder_discount
        self.ident = ident
        # "buy … at N coins less": coins off each resource's bank price (never below 1)
        self.less: dict[str, int] = less if less is not None else {}
        # "discount N resources or every coin on COLOURS cards": by colour, the resources
        # given up when a build pays none of its cost's coins instead
        self.waived: dict[str, int] = waived if waived is not None else {}
        # "build chain cards for N coins": N (-1: none), and the cards showing a chain
        self.chain_price = chain_price
        self.chain_shown = chain_shown


# the data set's bank price and resources (bank_key) -> a city's own terms when it has no
# trading effects (read only: shared by every new city)
NO_TERMS: Final[dict[int, OwnTerms]] = memo.table("bank.no_terms", 100)
NO_TUCKS: Final[list[Tuck]] = []  # (never changed)


class KeptTerms:
    """A seat's trading terms and the versions of the two cities (and the tokens held)
    they were found for, and its unbuilt wonders priced on those terms: read on every
    turn, so fields rather than a tuple in a dict (compiled, a tuple read from a dict is
    unpacked and its ints boxed)."""

    __slots__ = ("own", "rival", "tokens", "terms", "tucks", "tucks_terms", "wonders")

    def __init__(self) -> None:
        self.own = -1
        self.rival = -1
        self.tokens = -1
        self.terms: TradeTerms | None = None
        # every unbuilt wonder at its price on ``tucks_terms``, for a city that had
        # ``wonders`` unbuilt wonders (a list replaced, never changed: clones share it)
        self.tucks: list[Tuck] = []
        self.tucks_terms: TradeTerms | None = None
        self.wonders = -1

    def copy(self) -> "KeptTerms":
        other = KeptTerms()
        other.own = self.own
        other.rival = self.rival
        other.tokens = self.tokens
        other.terms = self.terms
        other.tucks = self.tucks
        other.tucks_terms = self.tucks_terms
        other.wonders = self.wonders
        return other


def cities_of(game: FlowGame) -> list[DraftedCity]:
    """The cities the flow's city keeper holds (an offer whose seats are cities)."""
    keeper = game.keeper()
    assert keeper is not None
    # (native calls when compiled, where an Any attribute read is a lookup by name)
    return keeper.city_list(game)  # type: ignore[return-value]


def own_terms(game: FlowGame, bank_key: int, city: DraftedCity) -> OwnTerms:
    """The city's own trading terms: fixed prices, discounts per colour, on wonders, and
    an interned id of all three and the game's bank price and resources (kept in the
    city's cache until its effects change)."""
    cached = city._cache.get(BANK_TERMS)
    if cached is not None:
        return cast(OwnTerms, cached)
    fixed: dict[str, int] = {}
    discounts: dict[str, int] = {}
    less: dict[str, int] = {}
    waived: dict[str, int] = {}
    wonder_discount = 0
    chain_price = -1
    for _, _, effect in city.clause_list(fx.Timing.ONGOING):
        if isinstance(effect, fx.ChainPrice):   # (the lowest, when several)
            if chain_price < 0 or effect.coins < chain_price:
                chain_price = effect.coins
        elif isinstance(effect, fx.TradePrice) and not effect.places:
            for resource in effect.resources:
                if effect.less:
                    less[resource] = less.get(resource, 0) + effect.price
                else:
                    fixed[resource] = min(fixed.get(resource, effect.price), effect.price)
        elif isinstance(effect, fx.Discount):
            if effect.target == WONDER_EVENT:
                wonder_discount += effect.count
            else:
                for colour in effect.colours or game.data.rules.vocabulary.colours:
                    discounts[colour] = discounts.get(colour, 0) + effect.count
                    if effect.or_coins:
                        waived[colour] = min(waived.get(colour, effect.count), effect.count)
    key: tuple[object, ...] = ((items_of(fixed), items_of(discounts), wonder_discount, bank_key)
                               if not less and not waived else
                               (items_of(fixed), items_of(discounts), wonder_discount, bank_key,
                                items_of(less), items_of(waived)))
    shown: frozenset[Card] = frozenset()
    if chain_price >= 0:   # (the cards showing a chain are the data set's: in the key)
        setup = structure_rules(game.data)
        shown = setup.chain_shown
        key += (chain_price, setup.chain_key)
    found = OwnTerms(fixed, discounts, wonder_discount, intern(key), less, waived,
                     chain_price, shown)
    city._cache[BANK_TERMS] = found
    return found


class BankTrade(Part):
    """Each seat's trading terms as last found (:class:`KeptTerms`), and what the bank
    sells at: the rule set's price and resources (``bank_key`` names both, for the shared
    tables: a process may hold two rule sets)."""

    def __init__(self, setup: StructureRules, players: int) -> None:
        self.setup = setup
        self.bank_key = intern((setup.bank.price, setup.base.resources))
        self.kept = [KeptTerms() for _ in range(players)]

    def copy(self) -> BankTrade:
        other = BankTrade(self.setup, 0)   # (compiled: no allocation without __init__)
        other.kept = [kept.copy() for kept in self.kept]
        return other

    def refresh(self, game: FlowGame) -> None:
        """Drop the terms found (the cities were changed by hand)."""
        self.kept = [KeptTerms() for _ in self.kept]

    def context(self, game: FlowGame, seat: int) -> TradeTerms:
        """What ``seat`` pays for things now (shared terms, looked up again only when
        either city's production or trading effects change)."""
        cities = cities_of(game)
        city = cities[seat]
        rival = cities[1 - seat]
        kept = self.kept[seat]
        known = kept.terms
        if (known is not None and kept.own == city.version and kept.rival == rival.version
                and kept.tokens == len(city.owned_tokens)):
            return known
        params = self.setup.base
        own = city.production(params)[0]
        sale = rival.production(params)[1]
        mine = own_terms(game, self.bank_key, city)
        key = context_key(own.ident, sale.ident, mine.ident)
        found = CONTEXTS.get(key)
        if found is None:
            found = memo.remember(CONTEXTS, key, self.priced(own, sale, mine))
        kept.own = city.version
        kept.rival = rival.version
        kept.tokens = len(city.owned_tokens)
        kept.terms = found
        return found

    def priced(self, own: Production, sale: Production, mine: OwnTerms) -> TradeTerms:
        """The shared terms of a city producing ``own``, whose rival sells ``sale`` (its
        prices kept per rival production and own terms, shared by every own production)."""
        terms_id = mine.ident
        key = (sale.ident, terms_id)
        found = PRICES.get(key)
        if found is None:
            units = sale.units()
            base = self.setup.bank.price
            resources = self.setup.base.resources
            prices = {r: base + units.get(r, 0) for r in resources}
            for resource, off in mine.less.items():   # ("at N coins less": never below 1)
                if resource in prices:
                    prices[resource] = max(1, prices[resource] - off)
            for resource, price in mine.fixed.items():
                if price < prices[resource]:
                    prices[resource] = price
            # the id names the resources too: shared terms are found by it, across rule sets
            found = (prices, intern((resources, tuple(prices[r] for r in resources))),
                     price_rates(prices))
            memo.remember(PRICES, key, found)
        return terms(own, own.ident, found[0], found[1], mine.discounts,
                     mine.wonder_discount, terms_id, found[2], mine.waived, mine.chain_price,
                     mine.chain_shown)

    def cost_of(self, game: FlowGame, seat: int, cost: fx.Cost, discount: int) -> int:
        """Coins ``seat`` pays for ``cost`` now: its coins plus the cheapest trade."""
        return self.context(game, seat).cost(cost, discount)

    def card_cost(self, game: FlowGame, seat: int, card: Card) -> int:
        """Coins ``seat`` pays for ``card`` now, as a turn prices it (its colour's discounts,
        and a cost's coins waived where that is cheaper: :func:`first_offer`)."""
        terms = self.context(game, seat)
        discounts = terms.discounts
        discount = discounts.get(card.colour, 0) if discounts else 0
        paid = terms.cost(card.cost, discount)
        if terms.waived and card.cost.coins and card.colour in terms.waived:
            paid = min(paid, waived_cost(terms, card, discount))
        if terms.chain_price >= 0 and paid > terms.chain_price and card in terms.chain_shown:
            paid = terms.chain_price
        return paid

    def prices(self, game: FlowGame, seat: int) -> dict[str, int]:
        """What one unit of each resource costs ``seat`` at the bank now."""
        return dict(self.context(game, seat).prices)

    def tucks(self, game: FlowGame, seat: int, terms: TradeTerms) -> list[Tuck]:
        """Every unbuilt wonder of ``seat``'s at its price on ``terms``, in the city's order
        (the turn offers those it can pay for); kept per seat until the terms or the
        wonders change."""
        kept = self.kept[seat]
        wonders = cities_of(game)[seat].wonders
        if kept.tucks_terms is terms and kept.wonders == len(wonders):
            return kept.tucks
        priced = terms.tucks
        found: list[Tuck] = []
        for wonder in wonders:
            tuck = priced.get(wonder)
            if tuck is None:
                tuck = priced[wonder] = tuck_of(wonder, terms.cost(stage_cost(wonder),
                                                                   terms.wonder_discount))
            found.append(tuck)
        kept.tucks = found
        kept.tucks_terms = terms
        kept.wonders = len(wonders)
        return found

    def pay(self, game: FlowGame, seat: int, total: int, fixed: int) -> None:
        """Pay ``total``; the part above the card's coin cost is trade, which a rival with
        the trade-income ability receives instead of the bank."""
        cities = cities_of(game)
        cities[seat].spend(total)
        if total <= fixed:  # no trade (or a chain build): all of it to the bank
            game.bank_paid += total
            return
        trade = total - fixed
        rival = cities[1 - seat]
        if trade and rival.has_ability(TRADE_INCOME_ABILITY):
            rival.coins += trade
            game.bank_paid += fixed
        else:
            game.bank_paid += total

    def view(self, game: FlowGame, seat: int, found: dict[str, Any]) -> None:
        # what one unit of each resource costs the seat at the bank now (the rival's
        # production raises it): the same prices its payments are worked out with
        found["trade"] = {"bank": {"prices": self.prices(game, seat)}}


def state(game: FlowGame) -> BankTrade:
    """The game's bank trade part."""
    return game.slots[SLOT]  # type: ignore[return-value]  # (no cast: a call)


__all__ = ["BankTrade", "CANNOT", "CHAINED", "KeptTerms", "NAME", "NO_TUCKS",
           "OPPONENT_CHAINS_ABILITY", "OwnTerms", "Priced", "TRADE_INCOME_ABILITY", "Tuck",
           "card_record", "chain_priced", "cities_of", "coin_part", "first_offer", "make",
           "own_terms", "seed_cities", "state", "tuck_card", "tuck_of", "waived_cost"]


def seed_cities(setup: StructureRules, cities: Sequence[DraftedCity]) -> None:
    """A new city has no trading effects: its own terms are the data set's empty ones (kept
    per bank price and resources), not worked out again for each city and game."""
    bank_key = intern((setup.bank.price, setup.base.resources))
    empty = NO_TERMS.get(bank_key)
    if empty is None:
        empty = memo.remember(NO_TERMS, bank_key,
                              OwnTerms({}, {}, 0, intern(((), (), 0, bank_key))))
    for city in cities:
        city._cache[BANK_TERMS] = empty


def make(data: GameData, players: int, arguments: Mapping[str, Mapping[str, Any]]) -> BankTrade:
    return BankTrade(structure_rules(data), players)
