"""The card-structure offer: each round a layout of overlapping rows, cards taken from it.

``offer: {mechanism: structure, layouts: {...}}`` (``turn.offer: structure`` in the flow):
the round-start step ``lay_structure`` builds the round's deck (shuffled, some removed
unseen, ``ages.draw`` candidates inserted) and lays it out; a turn takes an accessible
card and builds it, sells it, or tucks it under one of the seat's unbuilt Wonders.  The
cards a taken card uncovers turn face up as it is taken.  The round's turns end when the
structure is empty (``turn.until: offer_empty``).

The turn's options are the hot path: what a card offers depends only on the card, what it
costs now (or that it is free by chain, or cannot be built) and which Wonders are
affordable at what price, so each card's actions are shared records found through the
seat's bank terms (:mod:`.bank`).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Final, Mapping

from wonders.dsl.model import Card
from wonders.dsl.model import Game as GameData
from wonders.engine.actions import CHAIN, Build, BuildWonder, Sell
from wonders.engine.bank_terms import TradeTerms
from wonders.engine.drafted_city import DraftedCity, stage_cost
from wonders.engine.errors import IllegalActionError, RuleError
from wonders.engine.flow_actions import Move
from wonders.engine.flow_state import Ask, Part, TurnRule, part_index
from wonders.engine.mechanisms import bank
from wonders.engine.mechanisms.bank import CANNOT, CHAINED, NO_TUCKS, Priced, Tuck
from wonders.engine.randomness import below, sample, shuffle
from wonders.engine.runtime import (
    BUILD_FREE,
    CARD_EVENT,
    CHAIN_EVENT,
    SELL_EVENT,
    WONDER_EVENT,
    act,
    trigger,
    watched,
)
from wonders.engine.structure import Structure
from wonders.engine.structure_rules import StructureRules, structure_rules

if TYPE_CHECKING:
    from wonders.engine.flow import FlowGame

NAME: Final = "structure"
SLOT: Final = part_index(NAME)   # (the part's index in a game's slots)
TURN: Final = "turn"
WORDING: Final[dict[str, str]] = {TURN: "taking a card from the structure"}
SPREAD: Final = "spread"   # the part of cards spread over the rounds (mechanisms/spread.py)


class StructureOffer(Part):
    """The round's ``structure`` (None before the first is laid), the cards ``removed``
    unseen from this round's deck and ``removed_before`` from the earlier ones, and the
    ``discard`` pile (sold cards; the runtime builds from it and adds destroyed cards)."""

    def __init__(self, setup: StructureRules) -> None:
        self.setup = setup
        self.structure: Structure | None = None
        self.removed: list[Card] = []
        self.removed_before: list[Card] = []
        self.discard: list[Card] = []
        #: what other mechanisms of the flow add (set by their set-up steps): the price of
        #: cards priced by a count (``counted``), other uses of a taken card (verb, its
        #: moves, its resolver); cards spread over the rounds are the ``spread`` part's
        self.counted: Any = None
        self.uses: tuple[tuple[str, Any, Any], ...] = ()
        #: the colours a free build from the removed cards being asked allows (None: any)
        self.free_colours: frozenset[str] | None = None

    def copy(self) -> StructureOffer:
        other = StructureOffer(self.setup)   # (compiled: no allocation without __init__)
        other.uses = self.uses
        other.counted = self.counted   # (no state of its own)
        other.structure = self.structure.clone() if self.structure is not None else None
        other.removed = list(self.removed)
        other.removed_before = list(self.removed_before)
        other.discard = list(self.discard)
        other.free_colours = self.free_colours
        return other

    def place_offer(self, structure: Structure | None, removed: list[Card] | None = None) -> None:
        """Lay the structure (and the cards removed) a position says (scenarios): those of
        an earlier age than the structure's go to ``removed_before``."""
        self.structure = structure
        if removed is not None:
            age = max((card.age for card in structure.cards), default=0) if structure else 0
            self.removed = [card for card in removed if card.age >= age]
            self.removed_before = [card for card in removed if card.age < age]

    def deck(self, game: FlowGame, age: int) -> list[Card]:
        """The round's cards in random order: some removed unseen, drawn cards shuffled in.

        One shuffle, then each drawn card inserted at a random place: the order is as
        uniform as shuffling again, for a fraction of the random numbers.
        """
        setup = self.setup
        deck = list(setup.decks.get(age, ()))
        rng = game.generator()
        shuffle(rng, deck, game.drawer())
        remove = setup.remove
        self.removed_before += self.removed
        self.removed = deck[:remove]
        del deck[:remove]
        for candidates, count in setup.draws.get(age, ()):
            for card in sample(rng, candidates, count):
                deck.insert(below(rng, len(deck) + 1), card)
        spread: Any = game.parts.get(SPREAD)
        if spread is not None:   # (``spread_cards``: the round's share of the stack)
            for card in spread.take(age):
                deck.insert(below(rng, len(deck) + 1), card)
        return deck

    def empty(self) -> bool:
        structure = self.structure
        return structure is None or structure.empty

    def view(self, game: FlowGame, seat: int, found: dict[str, Any]) -> None:
        found["structure"] = self.structure.to_json() if self.structure is not None else []
        found["discard_cards"] = [c.name for c in self.discard]

    def card_places(self, game: FlowGame, seat: int,
                    places: dict[str, tuple[bool, list[Card]]]) -> None:
        """The structure's face-up and face-down cards, those removed unseen (every
        round) and the discard pile."""
        up: list[Card] = []
        down: list[Card] = []
        structure = self.structure
        if structure is not None:
            for slot, card in enumerate(structure.cards):
                if not structure.taken[slot]:
                    (up if structure.face_up[slot] else down).append(card)
        places["structure"] = (True, up)
        places["structure face down"] = (False, down)
        places["removed"] = (False, self.removed_before + self.removed)
        places["discard"] = (True, list(self.discard))

    def offer_cards(self, game: FlowGame) -> list[Card]:  # (the contract's offer_cards)
        """The structure's cards not taken yet, face-down ones included."""
        structure = self.structure
        if structure is None:
            return []
        return [card for card, taken in zip(structure.cards, structure.taken) if not taken]

    def determinize(self, game: FlowGame, source: FlowGame, seat: int,
                    rng: random.Random) -> None:
        """The face-down cards and the cards removed unseen, resampled (the removed ones
        kept while ``seat`` itself is choosing one to build: it sees them then; another
        seat's copy of that choice is asked again from the cards dealt here).  Earlier
        ages' removed cards are kept: every other card of those ages has been seen."""
        structure = self.structure
        if structure is None:
            return
        asking = game.asking
        choosing = isinstance(asking, Ask) and asking.kind == BUILD_FREE["removed"]
        seen = choosing and asking is not None and asking.seat == seat
        hidden = structure.hidden_slots()
        pool = [structure.cards[s] for s in hidden] + ([] if seen else self.removed)
        pool.sort(key=lambda card: (card.age, card.name))
        rng.shuffle(pool)
        for slot, card in zip(hidden, pool):
            structure.cards[slot] = card
        if not seen:
            self.removed = pool[len(hidden):]
        if choosing and not seen and asking is not None:
            moves = removed_moves(game, asking.seat, self.free_colours)
            game.asking = Ask(asking.kind, asking.seat, tuple(moves), asking.about)


def removed_moves(game: FlowGame, seat: int, colours: frozenset[str] | None) -> list[Move]:
    """``build free … card from removed``: each card removed unseen so far (every age's)
    that ``seat`` may build, of ``colours`` (None: any), as a move."""
    part = state(game)
    names = bank.cities_of(game)[seat].names
    return [Move("build", (card.name, "from", "removed"))
            for card in dict.fromkeys(part.removed_before + part.removed)
            if (colours is None or card.colour in colours) and card.name not in names]


def lay(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    """Round-start step ``lay_structure``: the round's deck laid out in its layout (the
    rulebook does this before anyone chooses who starts, so the chooser sees the cards)."""
    part = state(game)
    age = game.age
    part.structure = Structure(part.setup.layouts[age], part.deck(game, age))


def offer_empty(game: FlowGame) -> bool:
    """``turn.until: offer_empty``: no card is left in the structure (after every turn:
    read inline)."""
    part: StructureOffer = game.slots[SLOT]  # type: ignore[assignment]  # (no cast: a call)
    structure = part.structure
    return structure is None or not structure.left


def turn_moves(game: FlowGame, seat: int) -> tuple[Any, ...]:
    """The hot path: build, sell or tuck under a Wonder, for each accessible card.

    Typed Any, like the offers read into it: compiled, every ``Action`` read or stored
    is checked against each class of the union; these are the engine's own objects.
    """
    parts = game.slots
    part: StructureOffer = parts[SLOT]  # type: ignore[assignment]  # (no cast: a call)
    setup = part.setup
    cities = bank.cities_of(game)
    city = cities[seat]
    coins = city.coins + city.aside   # (what it can pay with)
    # built, or free by chain: looked at closely (a set lookup on the name)
    marked = city.marked
    trade: bank.BankTrade = parts[bank.SLOT]  # type: ignore[assignment]
    terms = trade.context(game, seat)
    tucks: list[Tuck] = NO_TUCKS
    if city.wonders:
        limit = setup.wonder_limit
        built = 0
        for other in cities:
            built += other.stages
        if not limit or built < limit:
            tucks = trade.tucks(game, seat, terms)
    offers = terms.offers  # (grown in place by first_offer, from either end)
    actions: list[Any] = []
    structure = part.structure
    assert structure is not None
    cards = structure.cards
    counted = part.counted
    # "ability opponent_chains": the rival's chains make cards free here too
    rival: DraftedCity | None = (cities[1 - seat] if city.has_ability(
        bank.OPPONENT_CHAINS_ABILITY) else None)
    for slot in structure.accessible:
        card = cards[slot]
        number = card.number
        if counted is not None and card.colour in counted.colours:
            priced = bank.card_record(setup, card, counted.price_of(city, card)
                                      if card.name not in city.names else CANNOT)
        elif card.name in marked or (rival is not None and _chained_by(rival, card)):
            priced = _marked_offers(setup, city, card, terms, rival)
        else:
            index = number - terms.offers_from  # (read again: first_offer may move it)
            found = offers[index] if 0 <= index < len(offers) else None
            priced = found if found is not None else bank.first_offer(setup, terms, card)
        for offered in priced.offers if priced.paid <= coins else priced.refused:
            actions.append(offered)
        for tuck in tucks:
            if tuck.paid <= coins:
                by_card = tuck.by_card
                index = number - tuck.by_card_from
                action = by_card[index] if 0 <= index < len(by_card) else None
                actions.append(action if action is not None else bank.tuck_card(tuck, card))
    if part.uses:   # (other uses of a taken card: a held token prepared with it)
        offered = [cards[slot] for slot in structure.accessible]
        for _, moves, _ in part.uses:
            actions += moves(game, seat, offered)
    return tuple(actions)   # (an Ask holds a tuple)


def chained(game: FlowGame, seat: int, card: Card) -> bool:
    """Whether ``card`` is free by chain for ``seat`` now (its own chains, and the rival's
    with ``ability opponent_chains``)."""
    cities = bank.cities_of(game)
    city = cities[seat]
    if _chained_by(city, card):
        return True
    return (city.has_ability(bank.OPPONENT_CHAINS_ABILITY) and len(cities) == 2
            and _chained_by(cities[1 - seat], card))


def _chained_by(city: DraftedCity, card: Card) -> bool:
    """Whether ``city``'s built cards (or tokens) make ``card`` free by chain."""
    return card.name in city.made_free or card in city.unlocked


def _marked_offers(setup: StructureRules, city: DraftedCity, card: Card,
                   terms: TradeTerms, rival: DraftedCity | None = None) -> Priced:
    """The offers of a card whose name the city has marked (about 3 % of those offered):
    built already, free by chain (the ``rival``'s chains too, when given), or neither
    (another card's chain name)."""
    name = card.name
    if name in city.names:
        return bank.card_record(setup, card, CANNOT)
    if _chained_by(city, card) or (rival is not None and _chained_by(rival, card)):
        return bank.card_record(setup, card, CHAINED)
    offers = terms.offers
    index = card.number - terms.offers_from
    found = offers[index] if 0 <= index < len(offers) else None
    return found if found is not None else bank.first_offer(setup, terms, card)


def wonders_built(game: FlowGame) -> int:
    """Wonders built in all, by every seat."""
    found = 0
    for city in bank.cities_of(game):
        found += city.stages
    return found


def resolve(game: FlowGame, asked: Ask, action: Any) -> None:
    """Take the card and build it, sell it or tuck it under a Wonder (``action`` is one of
    the offered objects: its class is tested once)."""
    seat = asked.seat
    parts = game.slots
    part: StructureOffer = parts[SLOT]  # type: ignore[assignment]  # (no cast: a call)
    structure = part.structure
    assert structure is not None
    cities = bank.cities_of(game)
    city = cities[seat]
    kind = type(action)
    built: Build | None = None
    tucked: BuildWonder | None = None
    card: Card
    # (narrowed before any read: compiled, an attribute of an Any is looked up by name)
    if kind is Sell:
        sold: Sell = action
        card = sold.card
    elif kind is Build:
        built = action
        card = built.card
    elif kind is BuildWonder:
        tucked = action
        card = tucked.card
    elif kind is Move and part.uses:
        used: Move = action
        _use(game, part, seat, used)
        return
    else:
        raise RuleError(f"{action} is not a turn's action")
    accessible = structure.accessible
    cards = structure.cards
    for index in range(len(accessible)):
        if cards[accessible[index]] is card:
            structure.take_at(index)  # (by place: take would look for the slot again)
            break
    else:
        raise RuleError(f"{card.name} is not an accessible card of the structure")
    trade: bank.BankTrade = parts[bank.SLOT]  # type: ignore[assignment]
    if built is not None:
        chained = built.method == CHAIN
        counted = part.counted
        # a chain build pays nothing, so nothing of it is trade (nor a price by count)
        fixed = card.cost.coins   # (the cost's coins: what is not trade)
        if fixed and not chained:
            terms = trade.context(game, seat)
            if terms.waived:   # ("… or every coin": a build that paid none of them)
                fixed = bank.coin_part(terms, card, built.payment.total)
        if part.setup.chain_shown and not chained and card in part.setup.chain_shown:
            terms = trade.context(game, seat)   # ("build chain cards for N coins")
            if bank.chain_priced(terms, card, built.payment.total):
                fixed = built.payment.total
        trade.pay(game, seat, built.payment.total, 0 if chained else built.payment.total
                  if counted is not None and card.colour in counted.colours
                  else fixed)
        city.add_card(card)
        arrived(game, seat, card, card.effects, CARD_EVENT, card.colour)
        if chained and city.triggers:
            trigger(game.table, seat, CHAIN_EVENT, None, card)
        return
    if tucked is None:  # sold
        part.discard.append(card)
        sell = part.setup.base.sell
        if sell is not None:
            act(game.table, seat, sell, True)
        if city.triggers and not game.finished:   # "on sell: coins 2"
            trigger(game.table, seat, SELL_EVENT, None, card)
        return
    wonder = tucked.wonder
    trade.pay(game, seat, tucked.payment.total, stage_cost(wonder).coins)
    arrived(game, seat, wonder, city.add_wonder(wonder, card), WONDER_EVENT, None)
    limit = part.setup.wonder_limit
    if limit and wonders_built(game) >= limit:
        for other in cities:
            other.wonders.clear()  # the rest leave the game


def _use(game: FlowGame, part: StructureOffer, seat: int, move: Move) -> None:
    """Another mechanism's use of a taken card (its name is the move's last word)."""
    structure = part.structure
    assert structure is not None
    for index, slot in enumerate(structure.accessible):
        card = structure.cards[slot]
        if card.name == move.words[-1]:
            structure.take_at(index)
            break
    else:
        raise RuleError(f"{move.words[-1]} is not an accessible card of the structure")
    for verb, _, resolve_use in part.uses:
        if verb == move.verb:
            resolve_use(game, seat, move, card)
            return
    raise RuleError(f"{move} is not a turn's action")


def arrived(game: FlowGame, seat: int, source: object, effects: Any, event: str,
            colour: str | None) -> None:
    """Apply what a new card or Wonder does as it arrives, then its owner's triggers."""
    table = game.table
    if act(table, seat, effects, True) and game.finished:
        return
    if bank.cities_of(game)[seat].triggers:
        trigger(table, seat, event, colour, source)
    if table.watching and not game.finished:   # "on card in opponent:" of other cities
        watched(table, seat, event, colour)


def check(game: FlowGame, seat: int, action: Any) -> None:
    """Why a turn's ``action`` is refused (the words scenarios match)."""
    part = state(game)
    legal = game.legal_actions(seat)
    card = getattr(action, "card", None)
    if not isinstance(card, Card) or part.structure is None:
        return
    if part.structure.slot_of(card) is None:
        raise IllegalActionError(seat, action, f"{card.name} is not an accessible card "
                                 "of the structure")
    same = [a for a in legal if getattr(a, "card", None) is card and type(a) is type(action)]
    city = bank.cities_of(game)[seat]
    if isinstance(action, BuildWonder) and action.wonder not in city.wonders:
        raise IllegalActionError(seat, action, f"{action.wonder.name} is not an unbuilt "
                                 "wonder of this city")
    if not same:
        raise IllegalActionError(seat, action, "it cannot be paid for with "
                                 f"{city.spendable()} coins and this production")
    raise IllegalActionError(seat, action, "not a valid way to do it; the options are: "
                             + "; ".join(str(a) for a in same))


class StructureTurn(TurnRule):
    """The structure's turn, called natively by the interpreter."""

    def __init__(self) -> None:
        super().__init__(turn_moves, resolve)

    def moves(self, game: FlowGame, seat: int) -> tuple[Any, ...]:
        return turn_moves(game, seat)

    def resolve(self, game: FlowGame, asked: Ask, move: Any) -> None:
        resolve(game, asked, move)


def make(data: GameData, players: int,
         arguments: Mapping[str, Mapping[str, Any]]) -> StructureOffer:
    return StructureOffer(structure_rules(data))


def state(game: FlowGame) -> StructureOffer:
    """The game's structure offer."""
    return game.slots[SLOT]  # type: ignore[return-value]  # (no cast: a call)


__all__ = ["NAME", "StructureOffer", "StructureTurn", "TURN", "WORDING", "chained", "check",
           "lay", "make", "offer_empty", "removed_moves", "resolve", "state", "turn_moves",
           "wonders_built"]
