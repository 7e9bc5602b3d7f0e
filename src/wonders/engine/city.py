"""A player's city: wonder board, built cards, stages, coins and tokens.

The city also answers the questions the rules ask of it, with caches that are
dropped whenever the city changes: what it produces (for itself and for sale),
at what price it buys from each neighbour, and how many of a thing it has.
"""

from __future__ import annotations

from itertools import product
from typing import AbstractSet, Final, Iterator, cast

from wonders.dsl import effects as fx
from wonders.dsl.model import Card, Token, Wonder, WonderSide
from wonders.engine import memo
from wonders.engine.interning import intern
from wonders.engine.production import Production, plus_added, plus_source, produced
from wonders.engine.rules import Parameters

START: Final = "start"
CARD: Final = "card"
STAGE: Final = "stage"
TOKEN: Final = "token"
COPIED: Final = "copied"  # a card of another city whose whole effect the city copied
# the cached answers each kind of trading effect changes (``ids`` holds both others' ids)
_PRODUCTION_CACHES: Final = ("production", "ids")
_PRICE_CACHES: Final = ("prices", "ids")
_POWER_CACHES: Final = ("abilities", "shields")
# The caches each kind of ongoing effect changes (``science``: the symbols and wildcards
# ``science_symbols`` keeps; a drafted city also counts its symbols as they arrive)
COUNTED_CACHE: Final = "counted_shields"  # its ``shields N per …`` clauses
_CACHED_BY: Final[dict[type, tuple[str, ...]]] = {fx.Ability: ("abilities",),
                                                  fx.Shields: ("shields", COUNTED_CACHE),
                                                  fx.Science: ("science",)}
_TRADE_EFFECTS: Final = (fx.Produce, fx.TradePrice, fx.Discount)
_EVERY_SELLER: Final = ("neighbours",)  # ``buy … at N`` with neighbours to buy from
_SELLERS: Final = "sellers"  # trade.buyable, for adding a card's production (add_card)
_NO_SELLERS: Final[frozenset[str]] = frozenset()
TERMS_CACHE: Final = "bank_terms"  # a city's own fixed prices and discounts (bank trading)
SHARED_CACHE: Final = "shared_discounts"  # its discounts of other cities' costs
_NO_DISCOUNTS: Final[tuple[fx.Discount, ...]] = ()
_NO_SHIELDS: Final[tuple[fx.Shields, ...]] = ()
_NO_KEYS: Final[tuple[str, ...]] = ()  # (no cache is kept under "counts" any more)


class City:
    """One player's city.  A plain class rather than a dataclass: compiled (mypyc), a
    dataclass's generated ``__init__`` runs as interpreted Python, and cities are made
    for every game and every copy a search bot plays on."""

    def __init__(self, seat: int, wonder: Wonder, side: WonderSide, coins: int,
                 built: list[Card] | None = None, stages: int = 0,
                 tokens: list[tuple[str, int]] | None = None,
                 free_build_ages: set[int] | None = None,
                 stage_cards: list[Card] | None = None,
                 _cache: dict[str, object] | None = None, version: int = 0,
                 bonus_shields: int = 0, owned_tokens: list[Token] | None = None,
                 copied: list[Card] | None = None) -> None:
        self.seat = seat
        self.wonder = wonder
        self.side = side
        self.coins = coins
        self.built: list[Card] = [] if built is None else built
        self.stages = stages
        self.tokens: list[tuple[str, int]] = [] if tokens is None else tokens  # (kind, points)
        # ages the once-per-age power was used
        self.free_build_ages: set[int] = set() if free_build_ages is None else free_build_ages
        # cards tucked under built stages
        self.stage_cards: list[Card] = [] if stage_cards is None else stage_cards
        self._cache: dict[str, object] = {} if _cache is None else _cache
        self.version = version  # changes when production or prices may
        # shields gained once (``now: shields 2``, ``on …: shields 1``) where shields are
        # compared in battles: they count in every later battle, like ongoing ones
        self.bonus_shields = bonus_shields
        # taken from pools: effect sources
        self.owned_tokens: list[Token] = [] if owned_tokens is None else owned_tokens
        # cards of other cities copied whole (``now: copy …``): effect sources, not built
        # here (not counted, not sold to neighbours, never chains)
        self.copied: list[Card] = [] if copied is None else copied

    def __repr__(self) -> str:
        return (f"City(seat={self.seat}, wonder={self.wonder.name!r}, coins={self.coins}, "
                f"built={[c.name for c in self.built]}, stages={self.stages})")

    def clone(self) -> "City":
        """An independent copy; cached answers are immutable, so the copy keeps them."""
        return City(self.seat, self.wonder, self.side, self.coins, list(self.built), self.stages,
                    list(self.tokens), set(self.free_build_ages), list(self.stage_cards),
                    dict(self._cache), self.version, self.bonus_shields,
                    list(self.owned_tokens), list(self.copied))

    # --- changes -----------------------------------------------------------------

    def changed(self) -> None:
        """Forget every cached answer (after changing the city by hand)."""
        self._cache.clear()
        self.version += 1

    def add_card(self, card: Card) -> None:
        """Add a built card: what it changes is worked out once per card (its
        :class:`Arrival`), and the caches it leaves valid are updated, not dropped."""
        cache = self._cache
        production = cache.get("production")
        names = cache.get("names")
        made_free = cache.get("made_free")
        arrival = ARRIVALS.get(card)
        if arrival is None:
            arrival = arrival_of(card, card.effects)
        shields = cache.get("shields") if arrival.drops_shields else None
        self.built.append(card)
        for key in arrival.forget:  # (as in _forget)
            if key in cache:
                del cache[key]
        self.version += arrival.steps
        if shields is not None:  # the sum grows by the card's (battles ask after each)
            cache["shields"] = cast(int, shields) + arrival.shields
        # The built names and the chain names grow with the card rather than being
        # listed again from every built card on the next question (each turn asks)
        if names is not None:
            cache["names"] = cast(frozenset[str], names) | frozenset((card.name,))
        if made_free is not None and card.makes_free:
            cache["made_free"] = cast(frozenset[str], made_free).union(card.makes_free)
        # its production added to the known sum (as _add_production does for a stage)
        if arrival.produces and production is not None and _SELLERS in cache:
            if arrival.relative:
                del cache[_SELLERS]
            else:
                cache["production"] = plus_added(
                    production,  # type: ignore[arg-type]
                    arrival.sold if card.colour in self._sellers() else arrival.kept)

    def add_token(self, token: Token) -> None:
        """Take a token from a pool: its effects are the city's from now on."""
        self.owned_tokens.append(token)
        self._forget(token.effects, _NO_KEYS)

    def add_copy(self, card: Card) -> None:
        """Copy ``card`` of another city (``now: copy …``): its effects are the city's from
        now on, as a source of its own; the card stays where it is."""
        self.copied.append(card)
        self._forget(card.effects, _NO_KEYS)

    def remove_card(self, card: Card) -> None:
        """Take a built card away (a ``destroy`` effect): every cached answer may change."""
        self.built.remove(card)
        self.changed()

    def add_stage(self, card: Card) -> None:
        production = self._cache.get("production")
        stage = self.side.stages[self.stages]
        self.stages += 1
        self.stage_cards.append(card)
        self._forget(stage.effects, _NO_KEYS)
        self._add_production(production, stage, stage.effects, False)

    def _sellers(self) -> AbstractSet[str]:
        """The colours of card whose production neighbours may buy (the rule set's
        ``trade.buyable``, kept when production is first worked out; none before)."""
        found = self._cache.get(_SELLERS)
        return found if found is not None else _NO_SELLERS  # type: ignore[return-value]

    def _add_production(self, before: object, source: object, effects: fx.Effects,
                        sellable: bool) -> None:
        """After a new source was added: if production was known and the source changed
        it, add the source's production to it (rather than summing every source again on
        the next question).  Not where ``produce any produced`` is involved: that depends
        on every other source, so the sum is made again in full."""
        cache = self._cache
        if before is None or "production" in cache or _SELLERS not in cache:
            return
        for clause in effects.clauses:
            effect = clause.effect
            if isinstance(effect, fx.Produce) and effect.relative:
                del cache[_SELLERS]
                return
        cache["production"] = plus_source(before, source, effects,  # type: ignore[arg-type]
                                          sellable)

    def _forget(self, effects: fx.Effects, always: tuple[str, ...]) -> None:
        """Drop the caches a new effect source can change (one pass over its clauses).

        Each kind of ongoing effect changes at most one cached answer (shields,
        abilities); production, prices and discounts change the trade caches,
        and then ``version`` moves on, which tells the game its payment contexts are
        stale.  An effect kind not listed here drops every power cache.
        """
        cache = self._cache
        for key in always:  # ``in`` and ``del``: compiled, dict.pop(key, None) is a Python call
            if key in cache:
                del cache[key]
        plan = forget_plan(effects)
        for key in plan[1]:
            if key in cache:
                del cache[key]
        self.version += plan[2]

    # --- what the city holds ----------------------------------------------------------

    @property
    def names(self) -> AbstractSet[str]:
        cached = self._cache.get("names")
        if cached is None:
            cached = frozenset(c.name for c in self.built)
            self._cache["names"] = cached
        return cached  # type: ignore[return-value]

    def sources(self) -> Iterator[tuple[str, object, fx.Effects]]:
        """Every effect source of the city: (kind, what, effects)."""
        yield START, self.side, self.side.start
        for card in self.built:
            yield CARD, card, card.effects
        for index in range(self.stages):
            yield STAGE, index, self.side.stages[index].effects
        for token in self.owned_tokens:
            yield TOKEN, token, token.effects
        for card in self.copied:
            yield COPIED, card, card.effects

    def clauses(self, timing: fx.Timing) -> Iterator[tuple[str, object, fx.Effect]]:
        """Every effect of the city with this timing: (kind, what, effect)."""
        return iter(self.clause_list(timing))

    def clause_list(self, timing: fx.Timing) -> list[tuple[str, object, fx.Effect]]:
        """:meth:`clauses` as a new list: compiled, a generator's every step costs several
        times a list item, and a caller typed with the list walks it natively."""
        found: list[tuple[str, object, fx.Effect]] = []
        for kind, what, effects in self.sources():
            for clause in effects.clauses:
                if clause.timing is timing:
                    found.append((kind, what, clause.effect))
        return found

    def abilities(self) -> list[fx.Ability]:
        cached = self._cache.get("abilities")
        if cached is None:
            cached = [e for _, _, e in self.clause_list(fx.Timing.ONGOING)
                      if isinstance(e, fx.Ability)]
            self._cache["abilities"] = cached
        return cached  # type: ignore[return-value]

    def shared_discounts(self) -> tuple[fx.Discount, ...]:
        """The city's discounts of the costs of cities at some places (``discount N coins
        on … in PLACES``), kept until a discount arrives."""
        cached = self._cache.get(SHARED_CACHE)
        if cached is None:
            found = [e for _, _, e in self.clause_list(fx.Timing.ONGOING)
                     if isinstance(e, fx.Discount) and e.cities]
            cached = tuple(found) if found else _NO_DISCOUNTS
            self._cache[SHARED_CACHE] = cached
        return cached  # type: ignore[return-value]

    def has_ability(self, name: str) -> bool:
        for ability in self.abilities():
            if ability.name == name:
                return True
        return False

    def counted_shields(self) -> tuple[fx.Shields, ...]:
        """The city's ongoing ``shields N per …`` effects (worked out at each battle from
        what the cities hold then), kept until a shields effect arrives: the battles of
        every age ask, and almost every city has none."""
        cached = self._cache.get(COUNTED_CACHE)
        if cached is None:
            found = [e for _, _, e in self.clause_list(fx.Timing.ONGOING)
                     if isinstance(e, fx.Shields) and e.each is not None]
            cached = tuple(found) if found else _NO_SHIELDS
            self._cache[COUNTED_CACHE] = cached
        return cached  # type: ignore[return-value]

    def shields(self) -> int:
        cached = self._cache.get("shields")
        if cached is None:
            cached = sum(e.count for _, _, e in self.clause_list(fx.Timing.ONGOING)
                         if isinstance(e, fx.Shields))
            self._cache["shields"] = cached
        return cached + self.bonus_shields  # type: ignore[operator]

    # --- production and prices ---------------------------------------------------

    def production(self, params: Parameters) -> tuple[Production, Production]:
        """(everything the city can use, what neighbours may buy from it)."""
        cached = self._cache.get("production")
        if cached is None:
            found = [(effect, (kind == START and START in params.buyable)
                      or (kind == CARD and isinstance(what, Card)
                          and what.colour in params.buyable))
                     for kind, what, effect in self.clause_list(fx.Timing.ONGOING)
                     if isinstance(effect, fx.Produce)]
            if any(effect.relative for effect, _ in found):
                found = _relative_resolved(found, params.resources)
            else:  # later sources may be added to this sum (add_card)
                self._cache[_SELLERS] = params.buyable
            cached = produced(found)
            self._cache["production"] = cached
        return cached  # type: ignore[return-value]

    def trade_ids(self, params: Parameters) -> tuple[int, int, int]:
        """Interned ids of (own production, production for sale, prices), for payment caches."""
        cached = self._cache.get("ids")
        if cached is None:
            own, sale = self.production(params)
            cached = (own.ident, sale.ident, intern(self.prices(params)))
            self._cache["ids"] = cached
        return cached  # type: ignore[return-value]

    @property
    def made_free(self) -> AbstractSet[str]:
        """Names of cards this city may build free by chain (its cards' ``makes_free``)."""
        cached = self._cache.get("made_free")
        if cached is None:
            cached = frozenset(name for card in self.built for name in card.makes_free)
            self._cache["made_free"] = cached
        return cached  # type: ignore[return-value]

    def prices(self, params: Parameters) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Price per resource (vocabulary order) when buying from the left and the right."""
        cached = self._cache.get("prices")
        if cached is None:
            left = [params.trade_price] * len(params.resources)
            right = list(left)
            for _, _, effect in self.clause_list(fx.Timing.ONGOING):
                if not isinstance(effect, fx.TradePrice):
                    continue
                for i, resource in enumerate(params.resources):
                    if resource not in effect.resources:
                        continue
                    # without places the price holds whoever sells: both neighbours
                    for place in effect.places or _EVERY_SELLER:
                        if place in ("left", "neighbours"):
                            left[i] = min(left[i], effect.price)
                        if place in ("right", "neighbours"):
                            right[i] = min(right[i], effect.price)
            cached = (tuple(left), tuple(right))
            self._cache["prices"] = cached
        return cached  # type: ignore[return-value]

    # --- counting ------------------------------------------------------------------

    def count(self, counted: fx.Counted) -> int:
        if isinstance(counted, fx.CountCards):
            return self.cards_of(counted.colours)
        if isinstance(counted, fx.CountStages):
            return self.stages
        if isinstance(counted, fx.CountScienceSets):  # wildcards chosen for the most sets
            fixed, choices = self.science_symbols()
            best = 0
            for picks in product(*choices) if choices else [()]:
                counts = with_picks(fixed, picks)
                best = max(best, min((counts.get(s, 0) for s in counted.symbols), default=0))
            return best
        if isinstance(counted, fx.CountSets):  # one card of each colour, as often as held
            return min((self.count(fx.CountCards(frozenset((colour,))))
                        for colour in counted.colours), default=0)
        if isinstance(counted, fx.CountTokens):
            return (sum(1 for kind, _ in self.tokens if kind == counted.kind)
                    + sum(1 for t in self.owned_tokens if t.kind == counted.kind))
        if isinstance(counted, (fx.CountAsideCoins, fx.CountKept)):   # (a drafted city's
            # aside coins: none here; a kept count is the game's: runtime.value)
            return 0
        return self.coins

    def cards_of(self, colours: frozenset[str] | None) -> int:
        """Built cards of these colours (None: all): ``count`` of a ``CountCards``, which
        amounts ask directly (the commonest count)."""
        if colours is None:
            return len(self.built)
        return sum(1 for c in self.built if c.colour in colours)

    def science_symbols(self) -> tuple[dict[str, int], list[tuple[str, ...]]]:
        """Fixed symbols and wildcard choices (new containers: the caller may add to them).

        Kept until a ``science`` effect arrives (every score reads them, and a greedy
        policy scores a city for every action it values); plain dicts, not
        ``collections.Counter``, whose methods run interpreted."""
        cached = self._cache.get("science")
        if cached is None:
            fixed: dict[str, int] = {}
            choices: list[tuple[str, ...]] = []
            for _, _, effect in self.clause_list(fx.Timing.ONGOING):
                if isinstance(effect, fx.Science):
                    if len(effect.symbols) == 1:
                        symbol = effect.symbols[0]
                        fixed[symbol] = fixed.get(symbol, 0) + 1
                    else:
                        choices.append(effect.symbols)
            cached = (fixed, tuple(choices))
            self._cache["science"] = cached
        found = cast(tuple[dict[str, int], tuple[tuple[str, ...], ...]], cached)
        return dict(found[0]), list(found[1])

    # --- a seat in a few words (score sheets, statistics) -------------------------------

    def label(self) -> str:
        """A column heading for the seat: its board and side, or the seat alone without one."""
        if not self.wonder.name:
            return f"seat {self.seat}"
        return f"{self.seat}: {self.wonder.name} {self.side.side}"

    def summary(self) -> dict[str, object]:
        """What a score-sheet row says about the city beyond its points (JSON-ready)."""
        return {"wonder": self.wonder.name, "side": self.side.side}

    def wonder_states(self) -> list[tuple[str, str]]:
        """Each wonder the seat plays with and its state, for statistics: the board and
        the side it is played on (a drafted wonder says whether it was built)."""
        return [(self.wonder.name, self.side.side)]

    def to_json(self) -> dict[str, object]:
        found: dict[str, object] = {
            "seat": self.seat,
            "wonder": self.wonder.name,
            "side": self.side.side,
            "coins": self.coins,
            "stages": self.stages,
            "built": [c.name for c in self.built],
            "tokens": [list(t) for t in self.tokens],
            "shields": self.shields(),
        }
        if self.copied:  # (only then: a city without copies shows what it always showed)
            found["copied"] = [c.name for c in self.copied]
        return found


def with_picks(fixed: dict[str, int], picks: tuple[str, ...]) -> dict[str, int]:
    """Science symbol counts: ``fixed`` plus one of each symbol picked for a wildcard
    (``fixed`` itself when nothing is picked: read, never changed)."""
    if not picks:
        return fixed
    counts = dict(fixed)
    for symbol in picks:
        counts[symbol] = counts.get(symbol, 0) + 1
    return counts


def _relative_resolved(found: list[tuple[fx.Produce, bool]],
                       resources: tuple[str, ...]) -> list[tuple[fx.Produce, bool]]:
    """``produce any produced`` / ``any unproduced`` made concrete for one city: a choice
    among the resource types its sellable sources (start resource, cards of the buyable
    colours) make, or among those none of them makes (left out when there is none)."""
    made = {r for effect, sellable in found if sellable and not effect.relative
            for r in effect.resources}
    resolved: list[tuple[fx.Produce, bool]] = []
    for effect, sellable in found:
        if not effect.relative:
            resolved.append((effect, sellable))
            continue
        wanted = effect.relative == "produced"
        choice = tuple(r for r in resources if (r in made) == wanted)
        if choice:
            resolved.append((fx.Produce(choice, 1, effect.buyable), sellable))
    return resolved


# id(effects) -> (the effects, cache keys they drop, version steps): kept with the effects
# object itself, so an id reused after the object is gone is recognised as new.
_FORGET_PLANS: Final[dict[int, tuple[fx.Effects, tuple[str, ...], int]]] = memo.table(
    "city.forget_plans", 5_000)


def forget_plan(effects: fx.Effects) -> tuple[fx.Effects, tuple[str, ...], int]:
    """(``effects``, the cache keys adding a source with them drops, version steps):
    worked out once per effects object."""
    plan = _FORGET_PLANS.get(id(effects))
    if plan is None or plan[0] is not effects:
        plan = _forget_plan(effects)
    return plan


def _forget_plan(effects: fx.Effects) -> tuple[fx.Effects, tuple[str, ...], int]:
    """What adding a source with ``effects`` drops from a city's caches: each kind of
    ongoing effect its one cache; production, prices and discounts the trade caches
    and a version step each."""
    keys: list[str] = []
    steps = 0
    for clause in effects.clauses:
        if clause.timing is not fx.Timing.ONGOING:
            continue
        kind = type(clause.effect)
        cached = _CACHED_BY.get(kind)
        if cached is not None:
            keys.extend(cached)
        elif kind not in _TRADE_EFFECTS:
            keys.extend(_POWER_CACHES)
        if kind in _TRADE_EFFECTS:
            if kind is fx.Produce:
                keys.extend(_PRODUCTION_CACHES)
            else:  # the city's own trading terms
                if kind is fx.TradePrice:
                    keys.extend(_PRICE_CACHES)
                else:
                    keys.append(SHARED_CACHE)
                keys.append(TERMS_CACHE)
            steps += 1
    plan = (effects, tuple(dict.fromkeys(keys)), steps)
    memo.remember(_FORGET_PLANS, id(effects), plan)
    return plan


class Arrival:
    """What adding one effect source (a card; a drafted city's wonder or token) changes in
    a city, worked out once per source: adding it is then a few list and dict updates
    instead of several passes over its clauses."""

    def __init__(self, forget: tuple[str, ...], steps: int, kept: tuple[Production, Production],
                 sold: tuple[Production, Production], units: int, symbols: tuple[str, ...],
                 abilities: tuple[str, ...], triggers: tuple[fx.Clause, ...],
                 relative: bool, shields: int, effects: fx.Effects = fx.NO_EFFECTS) -> None:
        self.effects = effects  # the source's effects (what arrives)
        self.forget = forget  # the cache keys it drops (``City._forget``)
        self.steps = steps  # how far ``version`` moves on
        self.produces = "production" in forget  # (then it adds to the kept sum)
        self.kept = kept  # (own, for sale) production it adds, from a source not sold
        self.sold = sold  # the same from a card whose production counts for the rival
        self.units = units  # resources produced each turn, a choice counting as its amount
        self.symbols = symbols  # the first symbol of each ongoing ``science`` effect
        self.abilities = abilities  # names of its ongoing abilities
        self.triggers = triggers  # its ``on …:`` clauses
        # a ``produce any produced`` / ``any unproduced`` (of any timing): a base city
        # then sums its production again in full (City._add_production)
        self.relative = relative
        self.shields = shields  # the count of its ongoing ``shields`` effects
        self.drops_shields = "shields" in forget
        # ``forget`` but the production, for a city that replaces the production it keeps
        # rather than dropping it (DraftedCity: deleting a key it sets again at once costs)
        self.others = tuple(key for key in forget if key != "production")
        # whether it adds to what a drafted city counts (DraftedCity._count): most do not
        self.counts = bool(units or symbols or abilities or triggers)
        # what a drafted city derives from a card's names once (DraftedCity._note_card):
        # filled there on first use, with the chain table it was worked out from
        self.marks: object = None
        # a drafted city's production after this source arrives, by the production before
        # (DraftedCity._sum_with: the ids of its two parts in one int), one table each for
        # ``kept`` and ``sold``; bounded there
        self.kept_sums: dict[int, object] = {}
        self.sold_sums: dict[int, object] = {}


def arrival_of(source: object, effects: fx.Effects) -> Arrival:
    """What adding ``source`` with ``effects`` changes (kept per source: ``source`` must
    be hashable, its equality implying equal ``effects``; cards, wonders and tokens are
    compared by identity)."""
    found = ARRIVALS.get(source)
    if found is None:
        found = _arrival(source, effects)
    return found


def _arrival(source: object, effects: fx.Effects) -> Arrival:
    plan = forget_plan(effects)
    ongoing = [c.effect for c in effects.clauses if c.timing is fx.Timing.ONGOING]
    produce = [e for e in ongoing if isinstance(e, fx.Produce)]
    found = Arrival(
        plan[1], plan[2],
        produced((e, False) for e in produce), produced((e, True) for e in produce),
        sum(e.amount for e in produce),
        tuple(e.symbols[0] for e in ongoing if isinstance(e, fx.Science)),
        tuple(e.name for e in ongoing if isinstance(e, fx.Ability)),
        tuple(c for c in effects.clauses if c.timing is fx.Timing.ON),
        any(isinstance(c.effect, fx.Produce) and c.effect.relative for c in effects.clauses),
        sum(e.count for e in ongoing if isinstance(e, fx.Shields)), effects)
    memo.remember(ARRIVALS, source, found)
    return found


# source -> what adding it changes (read-only outside this module but for ``get``)
ARRIVALS: Final[dict[object, Arrival]] = memo.table("city.arrivals", 2_000)
