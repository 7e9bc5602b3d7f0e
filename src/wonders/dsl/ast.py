"""Typed syntax tree of the effect language, each node with its source span.

The parser builds these from Lark's parse tree; the compiler checks names
against a vocabulary and turns them into :mod:`wonders.dsl.effects`.  Spans are
0-based ``[start, end)`` offsets into the effect string, so the loader can put
a diagnostic on the exact column inside the YAML file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union


@dataclass(frozen=True)
class Span:
    start: int
    end: int


@dataclass(frozen=True)
class Name:
    text: str
    span: Span


# --- amounts -----------------------------------------------------------------

@dataclass(frozen=True)
class CountCards:
    colours: tuple[Name, ...]  # empty: cards of every colour
    span: Span


@dataclass(frozen=True)
class CountStages:
    span: Span


@dataclass(frozen=True)
class CountTokens:
    kind: Name
    span: Span


@dataclass(frozen=True)
class CountCoins:
    span: Span


@dataclass(frozen=True)
class CountAsideCoins:
    """``aside coin(s)``: the coins laid aside on the city's sources."""

    span: Span


@dataclass(frozen=True)
class CountSets:
    """``set of blue, red, green cards``: how many times the city has one of each."""

    colours: tuple[Name, ...]
    span: Span


@dataclass(frozen=True)
class CountScienceSets:
    """``science set``: complete sets of the rule set's science symbols."""

    span: Span


@dataclass(frozen=True)
class CountKept:
    """``per age``, ``per influence``: a count a mechanism of the flow keeps (a period's
    number, the pieces on a board of chambers), named by ``name``."""

    name: Name
    span: Span


Countable = Union[CountCards, CountStages, CountTokens, CountCoins, CountAsideCoins, CountSets,
                  CountScienceSets, CountKept]


@dataclass(frozen=True)
class Fixed:
    value: int
    span: Span


@dataclass(frozen=True)
class Per:
    """``value per [divisor] countable [in places]``."""

    value: int
    divisor: int
    counted: Countable
    places: tuple[Name, ...]  # empty: the default place (self)
    span: Span
    up: bool = False  # "… rounded up": a part of a divisor counts as a whole


Term = Union[Fixed, Per]


@dataclass(frozen=True)
class Amount:
    terms: tuple[Term, ...]
    span: Span


# --- effects -----------------------------------------------------------------

@dataclass(frozen=True)
class Produce:
    quantity: int
    choices: tuple[Name, ...]  # alternatives; one of them each turn
    any_of: Name | None  # "any raw": a category of resources
    unbuyable: bool
    span: Span
    relative: str = ""  # "any produced" / "any unproduced": decided by the city's production


@dataclass(frozen=True)
class Points:
    amount: Amount
    span: Span
    negative: bool = False  # "points -2": the amount is taken away


@dataclass(frozen=True)
class Coins:
    amount: Amount
    span: Span


@dataclass(frozen=True)
class CoinsAside:
    """``coins N aside``: coins laid on the source, out of the treasury."""

    amount: Amount
    span: Span


@dataclass(frozen=True)
class Shields:
    amount: Amount  # "shields 2", "shields 1 per defeat token"
    span: Span


@dataclass(frozen=True)
class Science:
    symbols: tuple[Name, ...]  # empty with any=True: a wildcard
    any: bool
    span: Span


@dataclass(frozen=True)
class ScienceOf:
    """``science of COLOURS card in PLACES``: a copied symbol, chosen at once."""

    colours: tuple[Name, ...]
    places: tuple[Name, ...]
    span: Span


@dataclass(frozen=True)
class Trade:
    resources: tuple[Name, ...]
    places: tuple[Name, ...]  # empty: from every seller
    price: int
    span: Span
    less: bool = False  # "… at 1 coin less": the price lowered by ``price`` (never below 1)


@dataclass(frozen=True)
class Ability:
    name: Name
    once: bool
    per: Name | None
    span: Span
    colours: tuple[Name, ...] = ()  # "… on red | blue cards": only for those colours


@dataclass(frozen=True)
class Copy:
    colours: tuple[Name, ...]
    places: tuple[Name, ...]
    span: Span


@dataclass(frozen=True)
class Replay:
    span: Span


@dataclass(frozen=True)
class Lose:
    """``PLACES loses AMOUNT coins``."""

    places: tuple[Name, ...]
    amount: Amount
    span: Span
    debt: Name | None = None  # "… or debt tokens": the token kind of each coin not paid


@dataclass(frozen=True)
class Gain:
    """``PLACES gains AMOUNT coins``."""

    places: tuple[Name, ...]
    amount: Amount
    span: Span


@dataclass(frozen=True)
class Give:
    """``PLACES gives AMOUNT coins``: those cities give their coins to the owner."""

    places: tuple[Name, ...]
    amount: Amount
    span: Span
    debt: Name | None = None  # "… or KIND tokens": parsed only to be refused (T409)


@dataclass(frozen=True)
class Destroy:
    """``destroy COLOURS card in PLACES``."""

    colours: tuple[Name, ...]
    places: tuple[Name, ...]
    span: Span


@dataclass(frozen=True)
class Take:
    """``take KIND token from POOL [draw N]``."""

    kind: Name
    pool: Name | None  # None: "take N KIND tokens", counters from the supply
    draw: int | None
    span: Span
    count: int = 1


@dataclass(frozen=True)
class Discount:
    """``discount N resources on wonder`` / ``… on COLOURS card``."""

    count: int
    target: str  # "wonder" or "card"
    colours: tuple[Name, ...]  # for "card"; empty: any colour
    span: Span
    unit: str = "resources"  # or "coins": the coins of the cost
    every: bool = False  # "discount every resource on …"
    places: tuple[Name, ...] = ()  # target "trade": "… on trade from PLACES"
    price: int = 0  # "… for N coins": coins each use costs (0: free)
    cities: tuple[Name, ...] = ()  # "… in PLACES": whose costs it lowers (empty: the owner's)
    or_coins: bool = False  # "discount 1 resource or every coin on …": or the cost's coins


@dataclass(frozen=True)
class DrawReserve:
    """``draw N reserve cards``: from the unused cards of the rule set's reserve."""

    count: int
    span: Span


@dataclass(frozen=True)
class ChainPrice:
    """``build chain cards for N coins``: a card showing a chain symbol, for N coins."""

    coins: int
    span: Span


@dataclass(frozen=True)
class BuildReserve:
    """``build N reserve cards``: from the owner's reserve hand, at once, paying."""

    count: int
    span: Span


@dataclass(frozen=True)
class Influence:
    """``influence VERB [N | WHAT] [in WHERE]``: pieces placed, removed or moved on a board
    of chambers (the verb and where are checked by the compiler)."""

    verb: Name
    count: int | None
    what: Name | None
    where: Name | None
    span: Span


@dataclass(frozen=True)
class Conspire:
    """``conspire``: draw two held tokens, keep one."""

    span: Span


@dataclass(frozen=True)
class TriggerHeld:
    """``trigger KIND token``: trigger one held token of that kind, prepared or not."""

    kind: Name
    span: Span


@dataclass(frozen=True)
class ActivationDiscount:
    """``discount N coins on activation [once]``: activations of a priced row cost less
    (``once``: the source is spent on the activation it lowers)."""

    count: int
    once: bool
    span: Span


@dataclass(frozen=True)
class Activate:
    """``activate KIND token from tops|deck``: an item of a priced row's stacks, free."""

    kind: Name
    source: Name
    span: Span


@dataclass(frozen=True)
class TakeCard:
    """``take COLOURS card from PLACES``."""

    colours: tuple[Name, ...]
    places: tuple[Name, ...]
    span: Span


@dataclass(frozen=True)
class MoveWonder:
    """``take unbuilt wonder from PLACES`` (``verb`` take), ``unbuild wonder in PLACES``
    (unbuild), ``build wonder with discarded card`` (build, no places)."""

    verb: str
    places: tuple[Name, ...]
    span: Span


@dataclass(frozen=True)
class DiscardStructure:
    """``discard any structure card``; ``discard [up to N] accessible structure card``."""

    span: Span
    accessible: bool = False  # only a card that can be taken now
    upto: int = 0  # "up to N": N cards, each may be skipped (0: one, not skipped)


@dataclass(frozen=True)
class TrackPiece:
    """``place blocker on track`` (verb block), ``discard military token`` (discard),
    ``use military token`` (use); ``kind``: the token kind named (military)."""

    verb: str
    kind: Name | None
    span: Span


@dataclass(frozen=True)
class RemoveToken:
    """``remove KIND token from SOURCES`` (token pools or places)."""

    kind: Name
    sources: tuple[Name, ...]
    span: Span


@dataclass(frozen=True)
class BuildFree:
    """``build free [COLOURS] card from SOURCE`` (``last row``, ``removed``); ``source``
    spans the words after ``from``."""

    colours: tuple[Name, ...]
    source: Name
    span: Span


@dataclass(frozen=True)
class Swap:
    """``swap COLOURS card with PLACES``."""

    colours: tuple[Name, ...]
    places: tuple[Name, ...]
    span: Span


Effect = Union[Produce, Points, Coins, Shields, Science, Trade, Ability, Copy, Replay, Lose,
               Destroy, Take, Discount, Gain, DrawReserve, BuildReserve, Give, Influence,
               Conspire, TriggerHeld, ActivationDiscount, Activate, TakeCard, MoveWonder,
               DiscardStructure, TrackPiece, ScienceOf, CoinsAside, ChainPrice, RemoveToken,
               BuildFree, Swap, "Either"]


@dataclass(frozen=True)
class Either:
    """``EFFECT or EFFECT``: the owner chooses one when the clause acts."""

    first: Effect
    second: Effect
    span: Span


@dataclass(frozen=True)
class Trigger:
    """What an ``on …:`` clause waits for: ``card`` (of ``colours``; empty: any),
    ``wonder`` or ``chain``."""

    event: str
    colours: tuple[Name, ...]
    span: Span
    places: tuple[Name, ...] = ()  # "… in self, opponent": whose builds (empty: the owner's)


@dataclass(frozen=True)
class Condition:
    """``if wonder complete`` (``kind`` "wonder") or ``if at least N COUNTED [in PLACES]``
    (``kind`` "at_least")."""

    kind: str
    count: int
    counted: "Countable | None"
    places: tuple[Name, ...]
    span: Span


@dataclass(frozen=True)
class Clause:
    timing: str | None  # "now", "end", "on" or None (the effect's default)
    timing_span: Span | None
    effect: Effect
    span: Span
    trigger: Trigger | None = None  # set when timing is "on"
    condition: Condition | None = None


@dataclass(frozen=True)
class Effects:
    clauses: tuple[Clause, ...]
    span: Span


# --- costs ---------------------------------------------------------------------

@dataclass(frozen=True)
class CostItem:
    count: int
    resource: Name | None  # None: coins
    span: Span


@dataclass(frozen=True)
class Cost:
    items: tuple[CostItem, ...]  # empty: free
    span: Span


# --- formulas ----------------------------------------------------------------

@dataclass(frozen=True)
class Number:
    value: int
    span: Span


@dataclass(frozen=True)
class Variable:
    name: Name
    span: Span


@dataclass(frozen=True)
class BinaryOp:
    op: str
    left: "Expression"
    right: "Expression"
    span: Span


Expression = Union[Number, Variable, BinaryOp]
