"""A city without a board: it owns drafted one-stage wonders and tokens taken in play.

7 Wonders Duel gives each player four wonders chosen in a draft instead of one
board, and lets them take progress tokens; both are effect sources like built
cards.  Everything else (production, prices, counting, scoring) is the
ordinary :class:`City`'s, which reads effects only through ``sources()``.
"""

from __future__ import annotations

from typing import Final, Iterator, cast

from wonders.dsl import effects as fx
from wonders.dsl.model import Card, Token, Wonder, WonderSide
from wonders.engine import memo
from wonders.engine.city import ARRIVALS, CARD, STAGE, TOKEN, Arrival, City, arrival_of
from wonders.engine.production import EMPTY, Production, plus_added

NO_UNLOCKS: Final[dict[str, tuple[Card, ...]]] = {}  # shared, never changed
NO_SIDE: Final = WonderSide("", fx.NO_EFFECTS, ())
NO_BOARD: Final = Wonder("", {})
# The abilities of a city that has none yet, shared by all of them (most Duel cities never
# get one, so a set per city would be made and freed for nothing): never added to;
# _count gives a city its own set at its first ability.
_NO_ABILITIES: Final[set[str]] = set()
# The once-per-age power's ages, shared by every drafted city: no loop of drafted cities
# has that power (the base loop's, which writes the set, plays boards).  Never added to.
_NO_AGES: Final[set[int]] = set()
BUILT: Final = "built"          # a drafted wonder's state in statistics (its "side")
NOT_BUILT: Final = "not built"


class DraftedCity(City):
    """A city whose wonders are a hand of single-stage wonders (built in any order)."""

    def __init__(self, seat: int, coins: int, sale_colours: frozenset[str] = frozenset(),
                 unlocks: dict[str, tuple[Card, ...]] = NO_UNLOCKS, *,
                 source: DraftedCity | None = None) -> None:
        """A new city, or with ``source`` a copy of that one (what :meth:`clone` makes: a
        compiled class has no ``__new__`` trick and no ``__dict__`` to copy wholesale, and
        an empty city filled afterwards would make every container twice)."""
        if source is not None:
            super().__init__(seat, source.wonder, source.side, coins, list(source.built),
                             source.stages, list(source.tokens),
                             (_NO_AGES if source.free_build_ages is _NO_AGES
                              else set(source.free_build_ages)),
                             list(source.stage_cards), dict(source._cache), source.version,
                             source.bonus_shields, list(source.owned_tokens))
            self.sale_colours: frozenset[str] = source.sale_colours
            self.unlocks: dict[str, tuple[Card, ...]] = source.unlocks
            self.wonders: list[Wonder] = list(source.wonders)
            self.built_wonders: list[Wonder] = list(source.built_wonders)
            self.triggers: list[tuple[object, fx.Clause]] = list(source.triggers)
            self._names: set[str] = set(source._names)
            self._chain_names: set[str] = set(source._chain_names)
            self._chain_cards: set[Card] = set(source._chain_cards)
            self._marked: set[str] = set(source._marked)
            self._tally: list[int] = list(source._tally)
            self._symbols: dict[str, int] = dict(source._symbols)
            self.copied_symbols: list[str] = list(source.copied_symbols)
            self.aside: int = source.aside
            self._units: int = source._units
            # (the shared empty set stays shared: see _NO_ABILITIES)
            self._abilities: set[str] = (set(source._abilities) if source._abilities
                                         else _NO_ABILITIES)
            return
        super().__init__(seat, NO_BOARD, NO_SIDE, coins, free_build_ages=_NO_AGES)
        self.sale_colours = sale_colours  # cards whose production counts for the rival
        self.unlocks = unlocks  # a card's name -> the cards it makes free (``free_if_built``)
        self.wonders = []        # drafted, not built yet
        self.built_wonders = []
        self.triggers = []  # (source, ``on …:`` clause)
        # Kept up to date by every addition and rebuilt by ``changed``, because the hot
        # path reads them on every decision; ``clone`` copies them.  Read-only outside.
        self._names = set()  # of built cards
        self._chain_names = set()  # made free by built cards' ``makes_free``
        self._chain_cards = set()  # whose ``free_if_built`` names a built card
        self._marked = set()  # every name of the three: see ``marked``
        self._tally = []  # built cards per colour, by colour number (_colour_number)
        self._symbols = {}  # science symbols held
        # symbols of other cities' cards made the city's own (``science of …``): no source
        # of the city's shows them
        self.copied_symbols = []
        self.aside = 0   # coins laid on its sources (``coins N aside``): not the treasury
        self._units = 0  # resources produced each turn, a choice counting as its amount
        self._abilities = _NO_ABILITIES  # names of the ongoing abilities of every source
        # Nothing built yet: nothing produced (additions then update this incrementally)
        self._cache["production"] = (EMPTY, EMPTY)

    def clone(self) -> "DraftedCity":
        return DraftedCity(self.seat, self.coins, source=self)

    def add_card(self, card: Card) -> None:
        """Add a built card, updating what the city keeps instead of dropping it (this
        runs on every turn of every simulated game, so what the card changes is worked
        out once per card: its :class:`Arrival`)."""
        arrival = ARRIVALS.get(card)
        if arrival is None:
            arrival = arrival_of(card, card.effects)
        self.built.append(card)
        self._note_card(card, arrival)
        self._arrive(card, arrival, arrival.produces and card.colour in self.sale_colours)

    def _arrive(self, source: object, arrival: Arrival, sellable: bool) -> None:
        """Take in a new effect source (already added to its list): drop the caches it
        changes, add its production to the kept sum, and count it.  The production is
        replaced rather than dropped (``arrival.others``: the caches but the production):
        a city of this class keeps its production from the start (unless ``changed`` left
        it to be worked out in full; then there is none to replace)."""
        cache = self._cache
        for key in arrival.others:  # ``in`` and ``del``: see City._forget
            if key in cache:
                del cache[key]
        self.version += arrival.steps
        if arrival.produces:
            production = cache.get("production")
            if production is not None:
                cache["production"] = _sum_with(production, arrival, sellable)
        if arrival.counts:
            self._count(source, arrival)

    def _count(self, source: object, arrival: Arrival) -> None:
        """Count a source's resources, science symbols and abilities, and note its
        ``on …:`` clauses."""
        if arrival.units:
            self._units += arrival.units
        if arrival.symbols:
            symbols = self._symbols
            for symbol in arrival.symbols:
                symbols[symbol] = symbols.get(symbol, 0) + 1
        if arrival.abilities:
            abilities = self._abilities
            if abilities is _NO_ABILITIES:  # the city's first ability: its own set now
                abilities = self._abilities = set()
            for name in arrival.abilities:
                abilities.add(name)
        if arrival.triggers:
            for clause in arrival.triggers:
                self.triggers.append((source, clause))

    def _note_card(self, card: Card, arrival: Arrival) -> None:
        """Count a built card in the name, chain and colour tallies (what it adds to the
        chain sets is worked out once per card and chain table: its :class:`_Marks`, kept
        on its ``arrival``)."""
        marks = arrival.marks
        if not isinstance(marks, _Marks) or marks.unlocks is not self.unlocks:
            marks = _Marks(card, self.unlocks)
            arrival.marks = marks
        self._names.add(card.name)
        marked = self._marked
        for name in marks.marked:  # (one by one: compiled, ``set.update`` is a generic call)
            marked.add(name)
        if marks.made_free:
            chain_names = self._chain_names
            for other in marks.made_free:
                chain_names.add(other)
        if marks.unlocked:
            chain_cards = self._chain_cards
            for unlocked in marks.unlocked:
                chain_cards.add(unlocked)
        tally = self._tally
        colour = marks.colour
        while len(tally) <= colour:
            tally.append(0)
        # (not ``+=``: compiled, an augmented item assignment is a generic number addition)
        tally[colour] = tally[colour] + 1

    def add_wonder(self, wonder: Wonder, card: Card) -> fx.Effects:
        """Build ``wonder`` with ``card`` tucked under it; its stage's effects are returned
        (what arrived, for the caller to act on: found with what it changes, at no
        further lookup)."""
        wonders = self.wonders
        for index in range(len(wonders)):  # (wonders compare by identity: no ``==`` calls)
            if wonders[index] is wonder:
                wonders.pop(index)  # (compiled, ``del`` of an item is a generic call)
                break
        else:
            raise ValueError(f"{wonder.name} is not an unbuilt wonder of this city")
        self.built_wonders.append(wonder)
        self.stages += 1
        self.stage_cards.append(card)
        arrival = ARRIVALS.get(wonder)
        if arrival is None:
            arrival = arrival_of(wonder, stage_effects(wonder))
        self._arrive(wonder, arrival, False)
        return arrival.effects

    def add_token(self, token: Token) -> None:
        self.owned_tokens.append(token)
        arrival = arrival_of(token, token.effects)
        self._arrive(token, arrival, False)
        self._note_token(token)

    def _note_token(self, token: Token) -> None:
        """A token that a ``free_if_built`` names makes those cards free by chain."""
        unlocked = self.unlocks.get(token.name)
        if unlocked:
            for card in unlocked:
                self._chain_cards.add(card)
                self._marked.add(card.name)

    def has_ability(self, name: str) -> bool:
        """Whether a source of the city has the ongoing ability ``name`` (kept up to
        date as sources arrive: asked on every trade; most cities have none, and an
        empty set is told at once)."""
        abilities = self._abilities
        return bool(abilities) and name in abilities

    @property
    def names(self) -> set[str]:
        """Names of the built cards (kept up to date; read-only: typed as the set it is, so
        compiled code tests membership natively rather than through the generic protocol)."""
        return self._names

    @property
    def made_free(self) -> set[str]:
        """Names the built cards' ``makes_free`` lists (kept up to date; read-only)."""
        return self._chain_names

    @property
    def unlocked(self) -> set[Card]:
        """The cards whose ``free_if_built`` names a built card: free by chain here (with
        the names in ``made_free``)."""
        return self._chain_cards

    @property
    def marked(self) -> set[str]:
        """The names of :attr:`names` and :attr:`made_free` and of the :attr:`unlocked`
        cards, in one set (kept up to date; read-only): a card whose name is not in it is
        neither built nor free by chain here, which is what a turn asks of nearly every
        card it offers, in one lookup instead of three."""
        return self._marked

    def remove_card(self, card: Card) -> None:
        self.built.remove(card)
        self.changed()

    def changed(self) -> None:
        """Forget cached answers and count everything again (after any change that is
        not an addition: a destroyed card, a position set up by hand)."""
        super().changed()
        self.triggers = []
        self._names = set()
        self._chain_names = set()
        self._chain_cards = set()
        self._marked = set()
        self._tally = []
        self._symbols = {}
        self._units = 0
        self._abilities = _NO_ABILITIES
        # the sources listed directly, each Arrival found once (``sources`` is a generator:
        # compiled, each item costs a generic call; a destroyed card comes here).  The
        # production is summed again as additions sum it (shared sums of each source's
        # part) rather than left to ``production``, which lists and sums every clause:
        # but where a source produces relative to the others (``produce any produced``)
        production: tuple[Production, Production] | None = (EMPTY, EMPTY)
        sale_colours = self.sale_colours
        for card in self.built:
            arrival = arrival_of(card, card.effects)
            self._note_card(card, arrival)
            self._count(card, arrival)
            production = _plus(production, arrival, card.colour in sale_colours)
        for wonder in self.built_wonders:
            arrival = arrival_of(wonder, stage_effects(wonder))
            self._count(wonder, arrival)
            production = _plus(production, arrival, False)
        for token in self.owned_tokens:
            arrival = arrival_of(token, token.effects)
            self._count(token, arrival)
            production = _plus(production, arrival, False)
            self._note_token(token)
        for symbol in self.copied_symbols:
            self._symbols[symbol] = self._symbols.get(symbol, 0) + 1
        if production is not None:
            self._cache["production"] = production

    def add_symbol(self, symbol: str) -> None:
        """A science symbol of another city's card becomes the city's own too."""
        self.copied_symbols.append(symbol)   # (science_symbols adds them to its cache's)
        self._symbols[symbol] = self._symbols.get(symbol, 0) + 1

    def spendable(self) -> int:
        """The coins it can pay with: the treasury and those laid aside."""
        return self.coins + self.aside

    def spend(self, total: int) -> None:
        """Pay ``total``: from the treasury first, then from the coins laid aside (an
        aside coin is safe from losses and may score: the treasury's go first)."""
        treasury = self.coins
        if total <= treasury:
            self.coins = treasury - total
            return
        self.coins = 0
        self.aside -= total - treasury

    def science_symbols(self) -> tuple[dict[str, int], list[tuple[str, ...]]]:
        fixed, choices = super().science_symbols()
        for symbol in self.copied_symbols:
            fixed[symbol] = fixed.get(symbol, 0) + 1
        return fixed, choices

    def sources(self) -> Iterator[tuple[str, object, fx.Effects]]:
        for card in self.built:
            yield CARD, card, card.effects
        for wonder in self.built_wonders:
            yield STAGE, wonder, stage_effects(wonder)
        for token in self.owned_tokens:
            yield TOKEN, token, token.effects

    def clause_list(self, timing: fx.Timing) -> list[tuple[str, object, fx.Effect]]:
        """:meth:`City.clause_list` from the sources listed directly (no generator)."""
        found: list[tuple[str, object, fx.Effect]] = []
        for card in self.built:
            for clause in card.effects.clauses:
                if clause.timing is timing:
                    found.append((CARD, card, clause.effect))
        for wonder in self.built_wonders:
            for clause in stage_effects(wonder).clauses:
                if clause.timing is timing:
                    found.append((STAGE, wonder, clause.effect))
        for token in self.owned_tokens:
            for clause in token.effects.clauses:
                if clause.timing is timing:
                    found.append((TOKEN, token, clause.effect))
        return found

    def count(self, counted: fx.Counted) -> int:
        if isinstance(counted, fx.CountCards):  # sold cards and guilds ask often
            return self.cards_of(counted.colours)
        if isinstance(counted, fx.CountTokens):
            return (sum(1 for t in self.owned_tokens if t.kind == counted.kind)
                    + sum(1 for kind, _ in self.tokens if kind == counted.kind))
        if isinstance(counted, fx.CountAsideCoins):
            return self.aside
        return super().count(counted)

    def cards_of(self, colours: frozenset[str] | None) -> int:
        """Built cards of these colours (None: all)."""
        if colours is None:
            return len(self.built)
        tally = self._tally
        last = _LAST_LISTED  # (_listed's own first test, without the call)
        listed = last.listed if colours is last.colours else _listed(colours)
        found = 0
        held = len(tally)
        for colour in listed:
            if colour < held:
                found += tally[colour]
        return found

    def produced_units(self) -> int:
        """Units of resources produced each turn, a choice counting as its amount (kept up
        to date: what the greedy policy values production by, for every action it tries)."""
        return self._units

    def symbols(self) -> dict[str, int]:
        """Science symbols held (each ongoing ``science`` effect's first symbol; choices are
        not used here).  Kept up to date: treat as read-only."""
        return self._symbols

    def summary(self) -> dict[str, object]:
        """Wonders built and not (yet) built, and the tokens taken."""
        return {"wonders": [w.name for w in self.built_wonders],
                "unbuilt_wonders": [w.name for w in self.wonders],
                "tokens": [t.name for t in self.owned_tokens]}

    def wonder_states(self) -> list[tuple[str, str]]:
        """Each wonder the city holds, built or not (a city without a board has no sides)."""
        return ([(w.name, BUILT) for w in self.built_wonders]
                + [(w.name, NOT_BUILT) for w in self.wonders])

    def to_json(self) -> dict[str, object]:
        data = super().to_json()
        del data["side"]
        data["wonder"] = None
        data["wonders"] = [w.name for w in self.wonders]
        data["built_wonders"] = [w.name for w in self.built_wonders]
        data["owned_tokens"] = [t.name for t in self.owned_tokens]
        if self.copied_symbols:
            data["copied_symbols"] = list(self.copied_symbols)
        if self.aside:
            data["aside"] = self.aside
        return data


def _plus(production: tuple[Production, Production] | None, arrival: Arrival,
          sellable: bool) -> tuple[Production, Production] | None:
    """A city's production with a source's added (None: to be worked out in full, as a
    source produces relative to the others; see ``DraftedCity.changed``)."""
    if production is None or arrival.relative:
        return None
    if not arrival.produces:
        return production
    return plus_added(production, arrival.sold if sellable else arrival.kept)


# A production's two parts' ids in one key: own << 24 | sale, for a sale id below 2 ** 24
# (compiled, a shift of small ints is native; a multiplication by a constant above 32 bits
# took the generic path)
_SALE_BITS: Final = 24
_SALE_IDS: Final = 16_777_216
_SUMS_KEPT: Final = 256  # sums one source keeps (a bound, as a memo table has)


def _sum_with(production: object, arrival: Arrival, sellable: bool) -> object:
    """``plus_added`` for a city's kept production (``production``: (own, for sale)) and
    an arriving source's part, looked up on the source's Arrival by one int made of the
    two parts' ids (interned ids are never reused, so the key names the value; a source
    meets few productions, nearly always one met before): compiled, ``plus_added``'s key
    of four boxed ids hashed as a tuple costs several times as much, and its pair typed
    as a tuple is unpacked and boxed again as it is returned."""
    pair = cast("tuple[Production, Production]", production)
    sale = pair[1].ident
    if sale >= _SALE_IDS:  # (not met in practice: ids count up from 0, one per value)
        return plus_added(pair, arrival.sold if sellable else arrival.kept)
    sums = arrival.sold_sums if sellable else arrival.kept_sums
    key = (pair[0].ident << _SALE_BITS) | sale
    found = sums.get(key)
    if found is None:
        found = plus_added(pair, arrival.sold if sellable else arrival.kept)
        if len(sums) >= _SUMS_KEPT:
            sums.clear()
        sums[key] = found
    return found


class _Marks:
    """What building one card adds to a drafted city's chain sets (``DraftedCity.marked``
    and the two it sums up), for one chain table (``unlocks``): the same for every city
    and game of a rule set, so worked out once rather than looked up on every build."""

    def __init__(self, card: Card, unlocks: dict[str, tuple[Card, ...]]) -> None:
        self.unlocks = unlocks
        self.colour = _colour_number(card.colour)
        self.made_free = card.makes_free  # names it makes free (``makes_free``)
        self.unlocked = unlocks.get(card.name, ())  # cards whose ``free_if_built`` names it
        # its name, then those names: the order the sets were filled in before
        self.marked = ((card.name,) + card.makes_free
                       + tuple(unlocked.name for unlocked in self.unlocked))


def stage_effects(wonder: Wonder) -> fx.Effects:
    """The effects of a one-stage wonder (its first side's only stage)."""
    found = _STAGE_EFFECTS.get(wonder)
    if found is None:
        side = next(iter(wonder.sides.values()))
        found = memo.remember(_STAGE_EFFECTS, wonder, side.stages[0].effects)
    return found


_STAGE_EFFECTS: Final[dict[Wonder, fx.Effects]] = memo.table("drafted_city.stage_effects",
                                                              1_000)


def stage_cost(wonder: Wonder) -> fx.Cost:
    """The cost of a one-stage wonder (its first side's only stage): asked whenever a
    turn's legal actions price the wonders, so kept per wonder like its effects."""
    found = _STAGE_COSTS.get(wonder)
    if found is None:
        side = next(iter(wonder.sides.values()))
        found = memo.remember(_STAGE_COSTS, wonder, side.stages[0].cost)
    return found


_STAGE_COSTS: Final[dict[Wonder, fx.Cost]] = memo.table("drafted_city.stage_costs", 1_000)


def _listed(colours: frozenset[str]) -> tuple[int, ...]:
    """A set of colours as a tuple (kept per set): compiled, a tuple is walked natively,
    a frozenset through a generic iterator.  The last set asked for
    is kept apart and recognised by identity (the sets come from the effects, and most
    questions are a sale's, always the same set): no hashing, no lookup."""
    last = _LAST_LISTED
    if colours is last.colours:
        return last.listed
    found = _LISTED.get(colours)
    if found is None:
        found = memo.remember(_LISTED, colours, tuple(_colour_number(c) for c in colours))
    last.colours = colours
    last.listed = found
    return found


class _LastListed:
    """The last set of colours :func:`_listed` gave a tuple for, and that tuple (it holds
    the set, so identity cannot be mistaken; cleared with the memo tables)."""

    def __init__(self) -> None:
        self.colours: frozenset[str] | None = None
        self.listed: tuple[int, ...] = ()

    def clear(self) -> None:
        self.colours = None
        self.listed = ()


_LISTED: Final[dict[frozenset[str], tuple[int, ...]]] = memo.table("drafted_city.colours", 500)


def _colour_number(colour: str) -> int:
    """A small number standing for a colour, the same for the whole process (tallies
    are lists indexed by it).  Not a memo table: never cleared, as live cities' tallies
    depend on the numbers; bounded by the colour names of the data sets loaded."""
    found = _COLOURS.get(colour)
    if found is None:
        found = _COLOURS[colour] = len(_COLOURS)
    return found


_COLOURS: Final[dict[str, int]] = {}
_LAST_LISTED: Final = _LastListed()
memo.register_clearable(_LAST_LISTED)
