"""Compiled effects: small frozen values the engine evaluates.

These are what the engine sees; it never sees YAML, Lark trees or source
positions.  Each effect keeps only what it needs to act, and ``Effects.text``
keeps the source string for display.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final, Union


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
    (``"age_end"`` for ``on age end:``), the owner receives a token of a kind
    (``"victory_token"`` for ``on victory token:``), or starts (``"age_start"`` for
    ``on age start:``), or the owner buys resources from a
    neighbour (``"buy"``, once per neighbour bought from in a build), or the owner's shields
    push the conflict pawn at least one space (``"advance"``)."""

    event: str
    colours: frozenset[str] | None = None
    # "on blue card in self, opponent:": the builds of the cities at these places, seen
    # from the owner, set it off (a card or a wonder); the default: the owner's own
    places: tuple[str, ...] = ("self",)

    @property
    def watches(self) -> bool:
        """Whether another city's arrivals set it off (``… in opponent``)."""
        return self.places != ("self",)


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


@dataclass(frozen=True, slots=True)
class CountAsideCoins:
    """The coins laid aside on a city's sources (``coins N aside``)."""


@dataclass(frozen=True, slots=True)
class CountSets:
    """How many complete sets of one card of each of ``colours`` a city has (the fewest
    of any of them): ``points 3 per set of blue, red, green cards``."""

    colours: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CountScienceSets:
    """Complete sets of one of each of ``symbols`` (the rule set's science symbols) a city
    scores: ``end: points 3 per science set``.  At the final scoring the wildcards are
    chosen for the best science and these points together."""

    symbols: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CountKept:
    """A count a mechanism of the flow keeps rather than a city: the number of the current
    period (``per age``: 1, 2, 3; ``name`` the period) or the pieces a city has on a board
    of chambers (``per influence``) or the spaces the pawn just moved (``per space``, in an
    ``on advance:`` clause).  Read by the effect runtime when a clause acts in
    play (the table knows the game); a count at the final scoring cannot name it."""

    name: str


Counted = Union[CountCards, CountStages, CountTokens, CountCoins, CountAsideCoins, CountSets,
                CountScienceSets, CountKept]


@dataclass(frozen=True, slots=True)
class PerTerm:
    """``value`` for every ``divisor`` of ``counted`` summed over ``places``."""

    value: int
    divisor: int
    counted: Counted
    places: tuple[str, ...]
    up: bool = False  # "… rounded up": a part of ``divisor`` counts as a whole one


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
    # "produced": a choice among the types the city's sellable sources (its start
    # resource and the cards of the rule set's ``trade.buyable`` colours) already make;
    # "unproduced": among the types none of them makes (``resources`` then empty: the
    # city's production decides, whenever it changes)
    relative: str = ""


@dataclass(frozen=True, slots=True)
class Points:
    amount: Amount


@dataclass(frozen=True, slots=True)
class Coins:
    amount: Amount


@dataclass(frozen=True, slots=True)
class Shields:
    count: int
    # "shields 1 per defeat token": the counted part, worked out whenever the shields
    # are (an ongoing clause: at each battle, from what the city then holds); None: none
    each: Amount | None = None


@dataclass(frozen=True, slots=True)
class Science:
    """One science symbol; several mean a choice made for the best score."""

    symbols: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TradePrice:
    """Buy ``resources`` from ``places`` at ``price`` coins each (``places`` empty: from
    every seller)."""

    resources: frozenset[str]
    places: tuple[str, ...]
    price: int
    # "… at 1 coin less": ``price`` off the price whoever sells asks, never below 1
    # (rather than a price of its own)
    less: bool = False


@dataclass(frozen=True, slots=True)
class Ability:
    """A named power the engine implements (``free_build``, ``play_last_card`` …)."""

    name: str
    once_per: str | None = None  # "age": once per age; "game": once
    colours: frozenset[str] | None = None  # "… on red cards": only for those (None: any)


@dataclass(frozen=True, slots=True)
class CopyCard:
    """Copy one card of ``colours`` built in one of ``places``: at the end (``end:``, the
    default) the best card for the score, its end-of-game scoring counted as your own;
    ``now:`` one the owner chooses at once, whose whole effect is the owner's from then on
    (its ``now:`` clauses act for the owner when the copy is made; its ongoing, triggered
    and end-of-game clauses act for the owner; the card's owner keeps it unchanged)."""

    colours: frozenset[str]
    places: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LoseCoins:
    """The cities at ``places`` lose ``amount`` coins each (to the bank; never below 0).

    ``each`` is more coins counted in each losing city itself (``others loses 1 coin per
    victory token in them``).  ``debt`` names a token kind: then each losing city chooses
    how many of the coins to pay, and takes one such token for every coin not paid
    (``others loses 2 coins or debt tokens``)."""

    places: tuple[str, ...]
    amount: Amount
    each: Amount | None = None
    debt: str | None = None


@dataclass(frozen=True, slots=True)
class GainCoins:
    """The cities at ``places`` receive ``amount`` coins each from the bank (``left, right
    gains 1 coin``: the owner's effect pays other cities)."""

    places: tuple[str, ...]
    amount: Amount


@dataclass(frozen=True, slots=True)
class GiveCoins:
    """The cities at ``places`` each give the owner ``amount`` coins (``left, right gives 1
    coin``): each gives what it has, up to that many (never below 0), and the owner receives
    exactly what was given (not the bank's coins).  ``each`` is more coins counted in each
    giving city itself (``… per victory token in them``)."""

    places: tuple[str, ...]
    amount: Amount
    each: Amount | None = None


@dataclass(frozen=True, slots=True)
class Replay:
    """The owner takes another turn straight after this one (sequential turns)."""


@dataclass(frozen=True, slots=True)
class Destroy:
    """The owner chooses one card of ``colours`` built in ``places``; it goes to the
    discard pile."""

    colours: frozenset[str]
    places: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TakeToken:
    """The owner chooses one ``kind`` token from ``pool`` (from ``draw`` drawn at random, if set).

    With ``pool`` empty (``take 1 diplomacy token``) the owner simply takes ``count``
    tokens of ``kind`` from an unlimited supply: counters, worth the points the rule set's
    ``score.worth`` gives the kind (0 without), that effects count and mechanisms read."""

    kind: str
    pool: str
    draw: int | None = None
    count: int = 1


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
    every: bool = False  # "discount every resource on …": no resource of the cost is paid
    # target "trade": the coins paid to the neighbours at these places for one build
    # ("discount 1 coin on trade from left": the first unit bought there each turn)
    places: tuple[str, ...] = ()
    # "… for N coins": each use costs ``price`` coins, paid to the bank, and is made at
    # most once per build (``discount 1 resource on cards for 1 coin``); 0: free
    price: int = 0
    # "… in PLACES" (coins only): the costs of the cities at these places, seen from the
    # owner, are lowered instead of the owner's (``discount 1 coin on white cards in left,
    # right``); empty: the owner's own costs
    cities: tuple[str, ...] = ()
    # "discount 1 resource or every coin on …": each build chooses either the ``count``
    # resources off or no coin of its cost (whichever is cheaper)
    or_coins: bool = False


@dataclass(frozen=True, slots=True)
class ActivationDiscount:
    """Activations of a priced row (``priced_row``) cost the owner ``count`` coins less,
    never below 0; ``once``: the source (a token) is spent on the activation it lowers,
    chosen by the owner (``discount 3 coins on activation once``)."""

    count: int
    once: bool = False


@dataclass(frozen=True, slots=True)
class Activate:
    """The owner activates, free, an item of ``kind`` of a priced row's stacks: one of
    the stacks' tops (``source`` "tops"), or any item of one stack it chooses and sees
    whole (``source`` "deck"); the rest go back face down."""

    kind: str
    source: str


@dataclass(frozen=True, slots=True)
class TakeCard:
    """The owner chooses a card of ``colours`` built in ``places``: it leaves that city
    and joins the owner's, as built there (its ``now:`` clauses do not act again)."""

    colours: frozenset[str]
    places: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MoveWonder:
    """A wonder moved: ``verb`` "take" (an unbuilt wonder of a city at ``places`` becomes
    the owner's), "unbuild" (a built wonder of a city at ``places`` is unbuilt again, its
    card to the discard pile; what it gave once stays), "remove" (``destroy wonder in
    PLACES``: the same, but the wonder leaves the game), "build" (a card of the discard
    pile builds one of the owner's wonders, free)."""

    verb: str
    places: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class DiscardStructure:
    """The owner puts a card of the structure not taken yet (any: covered, face down; with
    ``accessible`` only one that could be taken now) on the discard pile; what it uncovers
    turns face up.  ``upto`` N: N such choices, each may be skipped (0: one, not
    skipped)."""

    accessible: bool = False
    upto: int = 0


@dataclass(frozen=True, slots=True)
class TrackPiece:
    """The conflict track's pieces: ``verb`` "block" (the owner puts a blocker on a space
    the pawn is not on: the pawn stops before it, once, and it is removed), "discard" (a
    military token still on the track, discarded without its effect), "use" (one applied
    as if the pawn entered its zone, then discarded)."""

    verb: str


@dataclass(frozen=True, slots=True)
class CoinsAside:
    """``coins N aside``: the owner lays N coins from the bank on the source, out of its
    treasury: spent after the treasury's, untouched by losses, not treasury points."""

    amount: Amount


@dataclass(frozen=True, slots=True)
class CopyScience:
    """``science of COLOURS card in PLACES``: the owner chooses a built card of those
    colours in those cities; its science symbol becomes the owner's for the game (pairs
    and supremacy count it), the card's city keeping its own."""

    colours: frozenset[str]
    places: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DrawReserve:
    """The owner draws ``count`` cards from the unused cards of the rule set's reserve (those
    never dealt) into its reserve hand (as many as are left)."""

    count: int


@dataclass(frozen=True, slots=True)
class ChainPrice:
    """``build chain cards for N coins``: the owner may build any card that shows a chain
    symbol (a card or token of the data makes it free by chain) for ``coins`` coins paid to
    the bank instead of its cost, without owning what makes it free."""

    coins: int


@dataclass(frozen=True, slots=True)
class BuildReserve:
    """The owner may at once build ``count`` cards of its reserve hand, one at a time, each
    paying its cost (a follow-up choice; it may decline)."""

    count: int


@dataclass(frozen=True, slots=True)
class Influence:
    """Pieces of the owner's on a board of chambers (``lay_chambers``): ``verb`` "place"
    (``count`` pieces, each in a chamber of ``where``: ``any`` or a section's name),
    "remove" (``count`` of the rival's, ``where`` "opponent"), "move" (``count`` optional
    moves of one of the owner's pieces to an adjacent chamber; ``what`` "decree": a
    chamber's decree moved under another's), "act" (the chambers' number of actions, each a
    placement in section ``where`` or a move) or "bonus" (ongoing: ``count`` more cards
    counted for that number)."""

    verb: str
    count: int = 1
    where: str = ""
    what: str = ""


@dataclass(frozen=True, slots=True)
class Conspire:
    """The owner draws two held tokens (``stack_held``), keeps one (both with the
    ``keep_drawn`` ability) and puts the other on the top or the bottom of the stack."""


@dataclass(frozen=True, slots=True)
class TriggerHeld:
    """The owner may trigger one of its held tokens of ``kind`` at once, prepared or not."""

    kind: str


@dataclass(frozen=True, slots=True)
class Either:
    """The owner chooses ``first`` or ``second`` as the clause acts (each a now-effect)."""

    first: "Effect"
    second: "Effect"


@dataclass(frozen=True, slots=True)
class RemoveToken:
    """The owner puts a token of ``kind`` out of the game: one of a pool in ``pools`` or
    one a city at ``places`` owns (whose effects then stop for it: abilities, points)."""

    kind: str
    pools: tuple[str, ...]
    places: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BuildFree:
    """The owner builds, free, a card of ``colours`` (None: any) from ``source``: "last
    row" (the structure's bottom row, cards not taken yet) or "removed" (the cards set-up
    removed unseen, from every age so far)."""

    colours: frozenset[str] | None
    source: str


@dataclass(frozen=True, slots=True)
class Swap:
    """The owner gives a built card of one of ``colours`` to a city at ``places`` and takes
    one of the same colour of that city's (neither's ``now:`` clauses act again)."""

    colours: frozenset[str]
    places: tuple[str, ...]


Effect = Union[Produce, Points, Coins, Shields, Science, TradePrice, Ability, CopyCard,
               LoseCoins, Replay, Destroy, TakeToken, Discount, GainCoins, DrawReserve,
               BuildReserve, GiveCoins, Influence, Conspire, TriggerHeld, Either,
               ActivationDiscount, Activate, TakeCard, MoveWonder, DiscardStructure, TrackPiece,
               CopyScience, CoinsAside, ChainPrice, RemoveToken, BuildFree, Swap]

#: The effects a mechanism of the flow carries out (the runtime hands them to the table).
BY_MECHANISM: Final = (Influence, Conspire, TriggerHeld, Either, CoinsAside)


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
