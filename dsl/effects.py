"""Compiled effects: small frozen values the engine evaluates.

These are what the engine sees; it never sees YAML, Lark trees or source
positions.  Each effect keeps only what it needs to act, and ``Effects.text``
keeps the source string for display.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Union


class Timing(str, Enum):
    """When an effect acts: all the time, once when built, or at final scoring."""

    ONGOING = "ongoing"
    NOW = "now"
    END = "end"
    ON = "on"  # each time a trigger happens later (``on red card: shields 1``)


@dataclass(frozen=True, slots=True)
class Trigger:
    """What sets off an ``on …:`` clause: the owner later builds a card of ``colours``
    (``event="card"``; None = any colour), builds a wonder stage (``"wonder"``), builds
    a card free by chain (``"chain"``), or a period of the rule set ends
    (``"age_end"`` for ``on age end:``)."""

    event: str
    colours: frozenset[str] | None = None


@dataclass(frozen=True, slots=True)
class CountCards:
    colours: frozenset[str] | None  # None: every colour


@dataclass(frozen=True, slots=True)
class CountStages:
    pass


@dataclass(frozen=True, slots=True)
class CountTokens:
    kind: str


@dataclass(frozen=True, slots=True)
class CountCoins:
    pass


Counted = Union[CountCards, CountStages, CountTokens, CountCoins]


@dataclass(frozen=True, slots=True)
class PerTerm:
    """``value`` for every ``divisor`` of ``counted`` summed over ``places``."""

    value: int
    divisor: int
    counted: Counted
    places: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Amount:
    fixed: int
    terms: tuple[PerTerm, ...] = ()

    @property
    def is_fixed(self) -> bool:
        return not self.terms


@dataclass(frozen=True, slots=True)
class Produce:
    """Produces ``amount`` of one of ``resources`` each turn (a choice if several)."""

    resources: tuple[str, ...]
    amount: int = 1
    buyable: bool = True


@dataclass(frozen=True, slots=True)
class Points:
    amount: Amount


@dataclass(frozen=True, slots=True)
class Coins:
    amount: Amount


@dataclass(frozen=True, slots=True)
class Shields:
    count: int


@dataclass(frozen=True, slots=True)
class Science:
    """One science symbol; several mean a choice made for the best score."""

    symbols: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TradePrice:
    """Buy ``resources`` from ``places`` at ``price`` coins each (``places`` empty: from every seller)."""

    resources: frozenset[str]
    places: tuple[str, ...]
    price: int


@dataclass(frozen=True, slots=True)
class Ability:
    """A named power the engine implements (``free_build``, ``play_last_card`` …)."""

    name: str
    once_per: str | None = None  # "age": once per age; "game": once
    colours: frozenset[str] | None = None  # "… on red cards": only for those (None: any)
    

@dataclass(frozen=True, slots=True)
class CopyCard:
    """Copy one card of ``colours`` built in one of ``places`` (scored as your own)."""

    colours: frozenset[str]
    places: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LoseCoins:
    """The cities at ``places`` lose ``amount`` coins each (to the bank; never below 0)."""

    places: tuple[str, ...]
    amount: Amount


@dataclass(frozen=True, slots=True)
class Replay:
    """The owner takes another turn straight after this one (sequential turns)."""


@dataclass(frozen=True, slots=True)
class Destroy:
    """The owner chooses one card of ``colours`` built in ``places``; it goes to the discard pile."""

    colours: frozenset[str]
    places: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TakeToken:
    """The owner chooses one ``kind`` token from ``pool`` (from ``draw`` drawn at random, if set)."""

    kind: str
    pool: str
    draw: int | None = None


@dataclass(frozen=True, slots=True)
class Discount:
    """Later builds of a kind need ``count`` fewer resource units, chosen for the best price
    (``unit`` "resources"), or ``count`` fewer coins of their cost (``unit`` "coins").

    ``target`` is ``"wonder"`` (wonder stages) or ``"card"`` with ``colours``.
    """

    count: int
    target: str
    colours: frozenset[str] | None = None
    unit: str = "resources"  # "coins": the coins of the cost (never below 0)


Effect = Union[Produce, Points, Coins, Shields, Science, TradePrice, Ability, CopyCard,
               LoseCoins, Replay, Destroy, TakeToken, Discount]


@dataclass(frozen=True, slots=True)
class Condition:
    """When a clause acts at all (``points 7 if wonder complete``): checked for the owner
    when the clause would act — on arrival (``now:``), when its trigger fires
    (``on …:``), at final scoring (``end:``).

    ``kind`` is ``"wonder"`` (every stage of the owner's board built) or ``"at_least"``
    (``amount``, a count, is at least ``count``: ``if at least 3 blue cards``)."""

    kind: str
    count: int = 0
    amount: Amount | None = None


@dataclass(frozen=True, slots=True)
class Clause:
    timing: Timing
    effect: Effect
    trigger: Trigger | None = None  # set exactly when ``timing`` is ON
    condition: Condition | None = None  # None: always acts


@dataclass(frozen=True, slots=True)
class Effects:
    clauses: tuple[Clause, ...]
    text: str = ""

    def of_type(self, kind: type) -> tuple[Effect, ...]:
        return tuple(c.effect for c in self.clauses if isinstance(c.effect, kind))


NO_EFFECTS = Effects(())


@dataclass(frozen=True, slots=True)
class Cost:
    coins: int
    resources: tuple[tuple[str, int], ...]  # in the order written, each name once

    @property
    def is_free(self) -> bool:
        return self.coins == 0 and not self.resources

    def resource_count(self) -> int:
        return sum(n for _, n in self.resources)


FREE = Cost(0, ())
