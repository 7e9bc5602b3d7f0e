"""A rule set's sections as typed values, read once from the document; every default lives here.

A rule set (``kind: rules``) fills the slots of the engine's mechanisms: how the
game is set up, how ages deal their cards, how cards are offered, who plays
when, what selling gives, how resources are bought, how military and science
score, the score sheet and the tie-breaks.  The loader checks the document's
shape (the JSON Schema) and its sense (located ``file:line:col`` diagnostics),
then :func:`read_rules` turns it into one :class:`RuleModel` kept on
:attr:`RuleSet.model <wonders.dsl.model.RuleSet.model>`.  Mechanisms read only
that: no module reads a raw section again with a default of its own, so a
default changes here and nowhere else.

The defaults (what a rule set that leaves a key out gets; see also
``docs/language.md``, "Rule sets"):

============================  ====================================================
key                           default
============================  ====================================================
``setup.coins``               3
``setup.wonder_side``         ``random``
``setup.side_names``          none (sides are called by their letters)
``setup.wonders.mechanism``   ``deal`` (one board each); ``draft``: pools 1, size 0,
                              order empty (the loader asks a draft for all three)
``setup.tokens``              no token pools are filled
``ages.count``                3
``ages.hand``                 none (a draft offer needs it: D601 checks decks by it)
``ages.pass``                 left, right, left, … alternating, one per age
``ages.last_card``            ``discard``
``ages.remove``               0
``ages.draw``                 none
``reserve``                   none (no reserve deck, no reserve draft or turns)
``reserve.hand`` / ``pass``   4 / ``right``
``reserve.sold``              ``discard`` (a sold reserve card goes on the discard pile)
``offer.mechanism``           ``draft``; ``structure`` reads ``offer.layouts``
``turns.mechanism``,          the mechanism the offer's game loop plays by default
``trade.mechanism``,          (:mod:`.mechanisms`): with ``draft`` simultaneous,
``military.mechanism``,       neighbours, battles, sets; with ``structure``
``science.mechanism``         sequential, bank, track, pairs
``turns.next_age``            ``weaker_military``
``sell``                      none (a sold card gives nothing)
``trade.price``               2
``trade.buyable``             the colours of ``trade.add`` when given, else start,
                              brown, grey
``trade.add``                 no colours (the price never rises); ``place``: ``opponent``
``military`` (battles)        ``victory`` 1, 3, 5, … (2 × age − 1), ``defeat`` −1
``military`` (track)          ``supremacy`` 9, no zones
``science`` (sets)            ``set`` 7
``science`` (pairs)           no ``pair`` effect, ``supremacy`` 0 (never)
``wonders.limit``             0 (no limit)
``treasury``                  none (coins score nothing)
``score.order``               military, treasury, wonder, civilian, science,
                              commercial, guilds
``score.colours``             blue civilian, yellow commercial, purple guilds,
                              green science, red military
``score.tokens``              a token kind's points go to the line of its name
``tie_break``                 coins
``flow``                      none (the offer's own loop); see :mod:`.flow_model`
============================  ====================================================

Reading never fails: a value of the wrong type (already a schema error, reported
at its place) is read as the default, so the loader can go on collecting
diagnostics.  The values are plain frozen dataclasses, cheap to share by every
game on the same data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Final, Mapping

from wonders.dsl.effects import Effects
from wonders.dsl.errors import Location
from wonders.dsl.flow_model import Flow, read_flow
from wonders.dsl.formula import Formula
from wonders.dsl.mechanisms import capabilities

DEFAULT_SCORE_ORDER: Final = ("military", "treasury", "wonder", "civilian", "science",
                              "commercial", "guilds")
DEFAULT_COLOUR_LINES: Final = {"blue": "civilian", "yellow": "commercial", "purple": "guilds",
                               "green": "science", "red": "military"}
DEFAULT_BUYABLE: Final = ("start", "brown", "grey")
DIRECTIONS: Final = ("left", "right")


def default_passes(ages: int) -> tuple[str, ...]:
    """Hands go left, right, left … one direction per age."""
    return tuple(DIRECTIONS[i % 2] for i in range(ages))


def default_victory(ages: int) -> tuple[int, ...]:
    """A victory token is worth 1, 3, 5 … points: 2 × age − 1."""
    return tuple(2 * age - 1 for age in range(1, ages + 1))


# --- setup -------------------------------------------------------------------------------

@dataclass(frozen=True)
class WonderDeal:
    """``setup.wonders``: one board dealt to each player, or boards drafted from pools."""

    mechanism: str = "deal"
    pools: int = 1                 # draft: pools laid out one after the other
    size: int = 0                  # draft: wonders in each pool
    order: tuple[int, ...] = ()    # draft: the seat that makes each pick, over all pools


@dataclass(frozen=True)
class Setup:
    """``setup``: what each player starts with and how boards and tokens are laid out."""

    coins: int = 3
    wonder_side: str = "random"    # random, A, B (any side letter) or choose
    side_names: dict[str, str] = field(default_factory=dict)    # letter -> other name
    wonders: WonderDeal = WonderDeal()
    tokens: dict[str, dict[str, int]] = field(default_factory=dict)  # kind -> pool -> count


# --- ages and the offer --------------------------------------------------------------------

@dataclass(frozen=True)
class DrawPool:
    """``ages.draw``: ``count`` cards of ``colour`` drawn at random into ``age``'s deck."""

    age: int
    colour: str
    count: Formula
    location: Location = field(default=Location(""), compare=False)


@dataclass(frozen=True)
class Ages:
    """``ages``: how many, and how their cards are dealt and passed."""

    count: int = 3
    hand: int | None = None               # cards dealt to each player per age (Age I's)
    passes: tuple[str, ...] = default_passes(3)   # one direction per age
    last_card: str = "discard"            # discard or play
    remove: int = 0                       # cards removed unseen from each deck
    draws: tuple[DrawPool, ...] = ()      # compiled by the loader
    hands: tuple[int, ...] = ()           # ``hand: [7, 7, 8]``: one per age (else hand)

    def hand_in(self, age: int) -> int | None:
        """The cards dealt to each player in ``age`` (a list's last value beyond it)."""
        if self.hands:
            return self.hands[min(age, len(self.hands)) - 1]
        return self.hand


SOLD_TO = ("discard", "out")   # where a sold reserve card goes (``reserve.sold``)


@dataclass(frozen=True)
class Reserve:
    """``reserve``: a second deck, of the cards of ``colour`` (never in an age's deck).

    Before Age I each player is dealt ``hand`` of them, keeps one and passes the rest
    (``pass``), until each holds ``hand``; each age then starts with a reserve turn in
    which every player plays one kept card as a turn's card (build it at its cost, build
    a wonder stage with it, or sell it).  Cards still kept at the end do nothing.
    ``sold``: where a reserve card sold goes, ``discard`` (the discard pile, where a
    build-from-discard power may take it) or ``out`` (out of the game).
    ``colour`` None: the rule set has no reserve."""

    colour: str | None = None
    hand: int = 4
    pass_to: str = "right"
    sold: str = "discard"


@dataclass(frozen=True)
class StructureLayout:
    """One age's card structure: rows from the top, each a list of half-card columns."""

    rows: tuple[tuple[int, ...], ...]
    face_down: tuple[int, ...] = ()       # row numbers (1 = the top row)


@dataclass(frozen=True)
class Offer:
    """``offer``: how cards reach the players (the mechanism selects the game loop)."""

    mechanism: str = "draft"
    layouts: dict[int, StructureLayout] = field(default_factory=dict)  # structure: by age


@dataclass(frozen=True)
class Turns:
    """``turns``: everyone at once, or one after the other."""

    mechanism: str = "simultaneous"
    next_age: str = "weaker_military"     # sequential: who chooses the next age's first player


# --- trade, military, science, wonders -----------------------------------------------------

@dataclass(frozen=True)
class BankAdd:
    """``trade.add``: a unit's bank price rises by the units of it these cards produce."""

    colours: tuple[str, ...] = ()         # none: the price never rises
    place: str = "opponent"


@dataclass(frozen=True)
class Trade:
    """``trade``: buying resources from neighbours or from the bank."""

    mechanism: str = "neighbours"
    price: int = 2
    buyable: tuple[str, ...] = DEFAULT_BUYABLE   # whose production others may buy
    add: BankAdd = BankAdd()


@dataclass(frozen=True)
class Battles:
    """``military`` with ``battles``: each city fights its neighbours at the end of an age."""

    victory: tuple[int, ...] = default_victory(3)   # points of a victory token, per age
    defeat: int = -1
    ages: tuple[int, ...] | None = None   # the ages that end in battles (None: every age)
    # a token kind whose holder sits out the next battles (its neighbours fight each other
    # instead) and gives one such token back (Cities' diplomacy); None: no such kind
    sit_out: str | None = None

    def fought_in(self, age: int) -> bool:
        """Whether ``age`` ends in battles (``military.ages``; a house rule may skip one)."""
        return self.ages is None or age in self.ages

    def victory_in(self, age: int) -> int:
        """The points of a victory token won in ``age`` (the last value beyond the list)."""
        return self.victory[min(age, len(self.victory)) - 1] if self.victory else 0


@dataclass(frozen=True)
class Zone:
    """A conflict-track zone: from ``start`` spaces out, ``points`` at the end; ``lose``
    coins once, for the trailing city, on entering it."""

    start: int
    points: int = 0
    lose: int = 0


@dataclass(frozen=True)
class Track:
    """``military`` with ``track``: one pawn between two capitals."""

    supremacy: int = 9
    zones: tuple[Zone, ...] = ()          # in the document's order


@dataclass(frozen=True)
class Military:
    """``military``: the mechanism, and the parameters of each."""

    mechanism: str = "battles"
    battles: Battles = Battles()
    track: Track = Track()


@dataclass(frozen=True)
class Science:
    """``science``: points for sets of symbols, or pairs that grant an effect."""

    mechanism: str = "sets"
    set: int = 7                          # sets: points per set of all different symbols
    pair: Effects | None = None           # pairs: what a pair of one symbol gives (compiled)
    supremacy: int = 0                    # pairs: different symbols that win at once (0: never)


@dataclass(frozen=True)
class Wonders:
    """``wonders``: at most ``limit`` wonders are built in all (0: no limit)."""

    limit: int = 0


@dataclass(frozen=True)
class Score:
    """``score``: the score sheet's lines and where card and token points go."""

    order: tuple[str, ...] = DEFAULT_SCORE_ORDER
    colours: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_COLOUR_LINES))
    tokens: dict[str, str] = field(default_factory=dict)   # token kind -> line
    # token kind -> the points of each counter token of it (``take N KIND tokens``, the
    # tokens of a ``loses … or KIND tokens``); 0 for a kind not listed
    worth: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class RuleModel:
    """Every section of a rule set, typed: what the engine's mechanisms read."""

    setup: Setup = Setup()
    ages: Ages = Ages()
    offer: Offer = Offer()
    turns: Turns = Turns()
    sell: Effects | None = None           # what selling a card gives (compiled)
    trade: Trade = Trade()
    military: Military = Military()
    science: Science = Science()
    wonders: Wonders = Wonders()
    treasury: Effects | None = None       # points for coins at the end (compiled)
    score: Score = Score()
    tie_break: tuple[str, ...] = ("coins",)
    reserve: Reserve = Reserve()
    flow: Flow | None = None              # the flow interpreter's flow (offer: decks)

    def compiled(self, draws: tuple[DrawPool, ...], sell: Effects | None,
                 treasury: Effects | None, pair: Effects | None) -> "RuleModel":
        """The model with the parts the loader compiles (effects, formulas) filled in."""
        return replace(self, ages=replace(self.ages, draws=draws), sell=sell, treasury=treasury,
                       science=replace(self.science, pair=pair))


# --- reading -----------------------------------------------------------------------------

def read_rules(data: Mapping[str, Any]) -> RuleModel:
    """The typed sections of a rule-set document (effect and formula slots left empty:
    the loader compiles them, with located diagnostics, and fills them in with
    :meth:`RuleModel.compiled`)."""
    ages = _read_ages(_map(data, "ages"))
    trade = _map(data, "trade")
    add_data = _map(trade, "add")
    add = BankAdd(_strs(add_data.get("colours")) or (), _str(add_data, "place", BankAdd.place))
    buyable = _strs(trade.get("buyable")) or add.colours
    military = _map(data, "military")
    science = _map(data, "science")
    score = _map(data, "score")
    offer = _read_offer(_map(data, "offer"))

    def mechanism(section: dict[str, Any], slot: str, fallback: str) -> str:
        """The slot's mechanism as written, else the one the offer's loop plays by default."""
        caps = capabilities(offer.mechanism)
        allowed = caps.slots.get(slot) if caps is not None else None
        return _str(section, "mechanism", allowed[0] if allowed else fallback)

    return RuleModel(
        setup=_read_setup(_map(data, "setup")),
        ages=ages,
        offer=offer,
        turns=Turns(mechanism(_map(data, "turns"), "turns", Turns.mechanism),
                    _str(_map(data, "turns"), "next_age", Turns.next_age)),
        trade=Trade(mechanism(trade, "trade", Trade.mechanism), _int(trade, "price", Trade.price),
                    buyable or DEFAULT_BUYABLE, add),
        military=Military(
            mechanism(military, "military", Military.mechanism),
            Battles(_ints(military.get("victory")) or default_victory(ages.count),
                    _int(military, "defeat", Battles.defeat),
                    _ages(military.get("ages")),
                    _str(military, "sit_out", "") or None),
            Track(_int(military, "supremacy", Track.supremacy),
                  tuple(Zone(_int(z, "from", 0), _int(z, "points", 0), _int(z, "lose", 0))
                        for z in _list(military.get("zones"))
                        if isinstance(z, dict) and _is_int(z.get("from"))))),
        science=Science(mechanism(science, "science", Science.mechanism),
                        _int(science, "set", Science.set), None,
                        _int(science, "supremacy", Science.supremacy)),
        wonders=Wonders(_int(_map(data, "wonders"), "limit", Wonders.limit)),
        score=Score(_strs(score.get("order")) or DEFAULT_SCORE_ORDER,
                    _str_map(score.get("colours")) or dict(DEFAULT_COLOUR_LINES),
                    _str_map(score.get("tokens")),
                    _int_map(score.get("worth"))),
        tie_break=_strs(data.get("tie_break")) or RuleModel.tie_break,
        reserve=_read_reserve(data.get("reserve")),
        flow=read_flow(data.get("flow")),
    )


def _read_reserve(value: Any) -> Reserve:
    """``reserve`` (absent, or without a colour: no reserve)."""
    if not isinstance(value, dict) or not isinstance(value.get("colour"), str):
        return Reserve()
    passed = _str(value, "pass", Reserve.pass_to)
    sold = _str(value, "sold", Reserve.sold)
    return Reserve(value["colour"], _int(value, "hand", Reserve.hand),
                   passed if passed in DIRECTIONS else Reserve.pass_to,
                   sold if sold in SOLD_TO else Reserve.sold)


def _ages(value: Any) -> tuple[int, ...] | None:
    """``military.ages``: the ages listed (an empty list: none), None when not given."""
    if not isinstance(value, list):
        return None
    return tuple(v for v in value if _is_int(v))


def _read_setup(setup: dict[str, Any]) -> Setup:
    wonders = _map(setup, "wonders")
    tokens: dict[str, dict[str, int]] = {}
    for kind, pools in _map(setup, "tokens").items():
        if isinstance(pools, dict):
            tokens[str(kind)] = {str(pool): count for pool, count in pools.items()
                                 if _is_int(count)}
    return Setup(
        coins=_int(setup, "coins", Setup.coins),
        wonder_side=_str(setup, "wonder_side", Setup.wonder_side),
        side_names=_str_map(setup.get("side_names")),
        wonders=WonderDeal(_str(wonders, "mechanism", WonderDeal.mechanism),
                           _int(wonders, "pools", WonderDeal.pools),
                           _int(wonders, "size", WonderDeal.size),
                           _ints(wonders.get("order")) or ()),
        tokens=tokens,
    )


def _read_ages(ages: dict[str, Any]) -> Ages:
    count = _int(ages, "count", Ages.count)
    passes = tuple(p for p in _strs(ages.get("pass")) or () if p in DIRECTIONS)
    hand = ages.get("hand")
    hands = _ints(hand) if isinstance(hand, list) else None
    first = hands[0] if hands else hand
    return Ages(count=count, hand=first if _is_int(first) else None,
                passes=passes or default_passes(count),
                last_card=_str(ages, "last_card", Ages.last_card),
                remove=_int(ages, "remove", Ages.remove), hands=hands or ())


_DECIMAL = re.compile(r"[0-9]{1,6}")


def decimal(text: object) -> int | None:
    """The number a text of ASCII digits writes (at most six), or such a number, else None.

    Not ``str.isdigit``: it accepts '²' or '٣', which ``int`` then refuses (or
    reads), so a layout key '²' raised ValueError."""
    if isinstance(text, str) and _DECIMAL.fullmatch(text):
        return int(text)
    if isinstance(text, int) and not isinstance(text, bool) and 0 <= text <= 999999:
        return text  # a key given as a number (data built in Python, not read from YAML)
    return None


def _read_offer(offer: dict[str, Any]) -> Offer:
    layouts: dict[int, StructureLayout] = {}
    for key, layout in _map(offer, "layouts").items():
        age = decimal(key)
        if age is None or not isinstance(layout, dict):
            continue
        rows = tuple(tuple(c for c in row if _is_int(c))
                     for row in _list(layout.get("rows")) if isinstance(row, list))
        layouts[age] = StructureLayout(rows, _ints(layout.get("face_down")) or ())
    return Offer(_str(offer, "mechanism", Offer.mechanism), layouts)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _map(data: Mapping[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _int(data: Mapping[str, Any], key: str, default: int) -> int:
    value = data.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _str(data: Mapping[str, Any], key: str, default: str) -> str:
    value = data.get(key)
    return value if isinstance(value, str) else default


def _strs(value: object) -> tuple[str, ...] | None:
    """A list of names, or None when absent, empty or not a list (the default applies)."""
    if not isinstance(value, list) or not value:
        return None
    return tuple(v for v in value if isinstance(v, str))


def _ints(value: object) -> tuple[int, ...] | None:
    if not isinstance(value, list) or not value:
        return None
    return tuple(v for v in value if _is_int(v))


def _int_map(value: object) -> dict[str, int]:
    if not isinstance(value, dict):
        return {}
    return {str(k): v for k, v in value.items() if isinstance(v, int)
            and not isinstance(v, bool)}


def _str_map(value: object) -> dict[str, str]:
    if not isinstance(value, dict):
        return {}
    return {str(k): v for k, v in value.items() if isinstance(v, str)}


__all__ = ["Ages", "BankAdd", "Battles", "DEFAULT_BUYABLE", "DEFAULT_COLOUR_LINES",
           "DEFAULT_SCORE_ORDER", "DrawPool", "Military", "Offer", "Reserve", "RuleModel",
           "Science", "Score", "Setup", "StructureLayout", "Track", "Trade", "Turns",
           "WonderDeal", "Wonders", "Zone", "default_passes", "default_victory", "read_rules"]
