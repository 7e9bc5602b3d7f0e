"""The parameters of the card-structure flow, gathered once from the rule set's typed model.

The rule set selects this flow with ``offer: {mechanism: structure}`` and fills
its slots: the layouts per age, cards removed unseen, the wonder draft, token
pools, bank trading, a conflict track, science pairs and supremacy, the wonder
limit.  The dsl parsed those sections once (:mod:`wonders.dsl.rules_model`, with
every default) and checked them at their place in the file; here they become the
compiled record the flow reads on every decision, and a rule set that picks a
companion mechanism the flow does not run is refused (a :class:`RuleError`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Final

from wonders.dsl import effects as fx
from wonders.dsl.mechanisms import LOOPS
from wonders.dsl.model import Card, Token, Wonder
from wonders.dsl.model import Game as GameData
from wonders.engine import memo
from wonders.engine.bank import BankRules
from wonders.engine.errors import RuleError
from wonders.engine.interning import intern
from wonders.engine.rules import Parameters, parameters
from wonders.engine.structure import Layout
from wonders.engine.track import TrackRules

# The companion mechanisms this loop plays with, per slot: declared once, in the catalogue
# ``wonders validate`` checks rule sets against (M905), so a valid rule set never trips the
# guard below; it only stops a rule set built without the loader.
SUPPORTED: Final = LOOPS["structure"].slots
FACE_UP_POOL: Final = "board"  # the token pool whose tokens lie face up, open to take


@dataclass(frozen=True)
class WonderDraft:
    pools: int
    size: int
    order: tuple[int, ...]  # the seat that picks, pick by pick


@dataclass(frozen=True)
class StructureRules:
    base: Parameters
    layouts: dict[int, Layout]
    remove: int
    draft: WonderDraft
    token_board: dict[str, int]   # token kind -> how many start face up on the board
    bank: BankRules
    track: TrackRules
    pair: fx.Effects | None       # what a pair of one science symbol gives
    science_supremacy: int        # different symbols that win at once (0: never)
    wonder_limit: int             # wonders built in all (0: no limit)
    next_age: str                 # who chooses the next age's first player
    cards_by_age: dict[int, tuple[Card, ...]]
    sell: tuple[fx.Amount, ...]   # coins a sold card gives
    decks: dict[int, tuple[Card, ...]]                       # dealt cards per age (2 players)
    draws: dict[int, tuple[tuple[tuple[Card, ...], int], ...]]  # per age: (candidates, count)
    tokens_by_kind: tuple[tuple[str, tuple[Token, ...]], ...]   # canonical order
    wonders: tuple[Wonder, ...]                              # by name
    track_tokens: frozenset[tuple[int, int]]                 # (zone, side) with a coin token
    unlocks: dict[str, tuple[Card, ...]]  # a card's name -> the cards it makes free by chain
    # the cards showing a chain symbol (a card or token of the data makes them free by
    # chain), which ``build chain cards for N coins`` prices (empty when no source of the
    # data has that effect), and an interned id of them (the shared trading terms of a city
    # with that effect are kept per id)
    chain_shown: frozenset[Card]
    chain_key: int
    # The loop's shared records of each card this data set numbered, by price
    # (mechanisms.bank.card_record), at the card's number minus ``first_number``: a list
    # index where a memo table keyed by the card costs a lookup, and gone with the data.
    first_number: int
    records: list[Any]


_DERIVED_KEY: Final = "structure_rules"  # this module's entry in GameData.derived

# the card numbers handed out so far (next() on it is atomic: no two cards share one)
_NUMBERS: Final = itertools.count()
# card number -> the first number of the card's age in the data set that numbered it, and
# one past the last (a card numbered alone: its own number and the next).  A terms' list
# of offers is made a whole age at a time (:func:`place`): one list made per terms and
# age rather than one grown card by card.
AGE_FROM: Final[list[int]] = []
AGE_TO: Final[list[int]] = []


def card_number(card: Card) -> int:
    """``card``'s number: small, dense and unique among the process's cards.

    The card-structure loop's shared tables (a terms' offers, a tuck's actions, the
    records by price) are lists indexed by it rather than dicts keyed by the card:
    compiled, a list index is native, a dict lookup hashes the card's address.  The numbers are
    process-wide, not per data set: trading terms are shared by every rule set with the same bank
    price and resources, and a card object
    may sit in several data sets, so only a number no other card of the process has can
    index those shared lists.  They are handed out when a data set is compiled
    (:func:`structure_rules`: its cards age by age, so the cards a terms is asked about,
    mostly of one or two ages, have near numbers and its list is short) or, for a card
    reaching the loop some other way, when it is first priced.  So one data set uses about
    as many numbers as it has cards (Duel: 73); a process that reloads its data gives the
    new cards new numbers (the tables holding the old ones are emptied when the old data
    is dropped: :func:`wonders.engine.memo.watch`), and a list by number holds only the
    ages stored in it (:func:`place`), so old numbers leave no long runs of empty slots.
    """
    number = card.number
    if number < 0:
        number = next(_NUMBERS)
        _age(number, number, number + 1)
        object.__setattr__(card, "number", number)  # (frozen: a field the engine owns)
    return number


def _age(number: int, first: int, end: int) -> None:
    """Note that card ``number``'s age has the numbers ``first`` to ``end`` - 1."""
    if number >= len(AGE_FROM):
        AGE_FROM.extend([0] * (number + 1 - len(AGE_FROM)))
        AGE_TO.extend([0] * (number + 1 - len(AGE_TO)))
    AGE_FROM[number] = first
    AGE_TO[number] = end


def place(values: list[Any], first: int, number: int, value: Any) -> int:
    """Store ``value`` at card ``number`` in ``values`` (a list by card number holding
    number ``first`` at index 0) and return the number then at index 0.

    The list covers the whole age of ``number`` (:data:`AGE_FROM`) as soon as one card of
    it is stored: grown once per age (in place: a turn holds it), not card by card, and
    only over the ages stored (the collector visits every slot of the thousands of lists
    the shared terms keep).  Here, not in the loop's module: compiled, a module-level name
    read from another module is a dict lookup each time."""
    low = AGE_FROM[number]
    end = AGE_TO[number]
    if not values:
        first = low
        values.extend([None] * (end - low))
    else:
        if low < first:  # (an earlier age: rare)
            values[0:0] = [None] * (first - low)
            first = low
        if end - first > len(values):
            values.extend([None] * (end - first - len(values)))
    values[number - first] = value
    return first


def structure_rules(data: GameData) -> StructureRules:
    """Read and check the rule set's structure-flow parameters (kept in the data's
    ``derived`` cache)."""
    cached = data.derived.get(_DERIVED_KEY)
    if isinstance(cached, StructureRules):
        return cached
    memo.watch(data)  # the memo tables keep its cards: empty them when it is dropped
    rules = data.rules
    model = rules.model
    for slot, chosen in (("turns", model.turns.mechanism), ("trade", model.trade.mechanism),
                         ("military", model.military.mechanism),
                         ("science", model.science.mechanism)):
        allowed = SUPPORTED.get(slot, ())
        if chosen not in allowed:
            raise RuleError(f"rule set '{rules.name}': the structure offer plays with "
                            f"{slot} mechanism {' or '.join(allowed)}, not '{chosen}'")
    # the loader checked one layout per age (D610) and the draft's picks (R804)
    layouts = {age: Layout.from_model(layout) for age, layout in model.offer.layouts.items()}
    wonders = model.setup.wonders
    draft = WonderDraft(wonders.pools, wonders.size, wonders.order)
    tokens = {kind: pools.get(FACE_UP_POOL, 0) for kind, pools in model.setup.tokens.items()}
    by_age: dict[int, list[Card]] = {}
    for card in data.deck_cards():
        by_age.setdefault(card.age, []).append(card)
    numbered: list[int] = []
    for age in sorted(by_age):  # (see card_number)
        numbers = [card_number(card) for card in by_age[age] if card.number < 0]
        if numbers:
            first, end = min(numbers), max(numbers) + 1
            for number in numbers:
                _age(number, first, end)
        numbered += numbers
    first_number = min(numbered) if numbered else 0
    track = TrackRules.from_model(model.military.track)
    shown = _chain_shown(data.cards) if _prices_chains(data) else frozenset()
    found = StructureRules(
        base=parameters(rules),
        layouts=layouts,
        remove=model.ages.remove,
        draft=draft,
        token_board=tokens,
        bank=BankRules.from_model(model.trade),
        track=track,
        pair=model.science.pair,
        science_supremacy=model.science.supremacy,
        wonder_limit=model.wonders.limit,
        next_age=model.turns.next_age,
        cards_by_age={age: tuple(cards) for age, cards in by_age.items()},
        sell=tuple(c.effect.amount for c in (model.sell.clauses if model.sell else ())
                   if isinstance(c.effect, fx.Coins)),
        decks={age: tuple(c for c in cards if not c.drawn for _ in range(c.copies(2)))
               for age, cards in by_age.items()},
        draws={age: tuple((tuple(c for c in by_age.get(age, ()) if c.drawn
                                 and c.colour == pool.colour),
                           pool.count.evaluate({"players": 2}))
                          for pool in model.ages.draws if pool.age == age)
               for age in range(1, model.ages.count + 1)},
        tokens_by_kind=tuple((kind, tuple(sorted((t for t in data.tokens if t.kind == kind),
                                                 key=lambda t: t.name)))
                             for kind in sorted({t.kind for t in data.tokens})),
        wonders=tuple(sorted(data.wonders, key=lambda w: w.name)),
        track_tokens=frozenset((i, side) for i, zone in enumerate(track.zones) if zone.lose
                               for side in (0, 1)),
        unlocks=_unlocks(data.cards),
        chain_shown=shown,
        chain_key=intern(("chain_shown", tuple(sorted(c.key for c in shown)))),
        first_number=first_number,
        records=[None] * (max(numbered) + 1 - first_number if numbered else 0),
    )
    data.derived[_DERIVED_KEY] = found
    return found


def _prices_chains(data: GameData) -> bool:
    """Whether any source of the data has ``build chain cards for N coins`` (without one,
    no build asks whether its card shows a chain: Duel's hot path stays as it was)."""
    effects = [c.effects for c in data.cards] + [t.effects for t in data.tokens]
    for wonder in data.wonders:
        for side in wonder.sides.values():
            effects += [side.start] + [stage.effects for stage in side.stages]
    return any(isinstance(clause.effect, fx.ChainPrice)
               for found in effects for clause in found.clauses)


def _chain_shown(cards: tuple[Card, ...]) -> frozenset[Card]:
    """The cards that show a chain symbol under their cost: a ``free_if_built`` of their own
    (a card's or a token's name), or named by another card's ``makes_free``."""
    named = {name for card in cards for name in card.makes_free}
    return frozenset(card for card in cards if card.free_if_built or card.name in named)


def _unlocks(cards: tuple[Card, ...]) -> dict[str, tuple[Card, ...]]:
    """For each name a ``free_if_built`` list mentions, the cards it makes free: a city
    then keeps the set of cards its buildings make free instead of testing every
    offered card's list against its names."""
    found: dict[str, list[Card]] = {}
    for card in cards:
        for name in card.free_if_built:
            found.setdefault(name, []).append(card)
    return {name: tuple(freed) for name, freed in found.items()}

