"""The validated, compiled data the engine plays with: rules, cards, wonders.

Everything here is immutable and free of YAML and Lark: effects and costs are
compiled (:mod:`wonders.dsl.effects`), names are checked, positions are kept
only as a :class:`Location` for messages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from wonders.dsl.effects import Cost, Effects
from wonders.dsl.errors import Location
from wonders.dsl.rules_model import DrawPool, RuleModel
from wonders.dsl.sheets_model import DiceSet
from wonders.dsl.vocabulary import Vocabulary

if TYPE_CHECKING:
    from wonders.dsl.components_model import Components


@dataclass(frozen=True, eq=False)
class Card:
    """One card of a set; physical copies in a game are the same object (identity = card)."""

    name: str
    age: int
    colour: str
    players: tuple[int, ...]  # one entry per physical copy: the smallest player count; () = drawn
    cost: Cost
    effects: Effects
    free_if_built: tuple[str, ...] = ()
    makes_free: tuple[str, ...] = ()
    set: str = ""
    location: Location = field(default=Location(""), compare=False)
    replaces: str = ""  # the card it stands in for in a balance comparison ('' for none)
    # The engine's number for this card object (-1 until it has one): small, dense and
    # unique in the process, so the card-structure loop's shared tables find a card's
    # records by list index instead of hashing the card (see
    # :func:`wonders.engine.structure_rules.card_number`, which hands them out).
    # Not an ``__init__`` argument, so dataclasses.replace() makes a card without one.
    number: int = field(default=-1, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        # (compiled, the generated ``__init__`` leaves a field without ``init`` unset)
        object.__setattr__(self, "number", -1)

    @property
    def drawn(self) -> bool:
        """Cards without player markers are drawn at random (the base game's guilds)."""
        return not self.players

    def copies(self, players: int) -> int:
        return sum(1 for p in self.players if p <= players)

    @property
    def key(self) -> str:
        """A unique id: the name, with the age when the name recurs in another age."""
        return f"{self.name} ({self.age})"


@dataclass(frozen=True)
class Stage:
    cost: Cost
    effects: Effects


@dataclass(frozen=True)
class WonderSide:
    side: str
    start: Effects
    stages: tuple[Stage, ...]


@dataclass(frozen=True, eq=False)
class Wonder:
    name: str
    sides: dict[str, WonderSide]
    set: str = ""
    location: Location = field(default=Location(""), compare=False)


@dataclass(frozen=True, eq=False)
class Token:
    """A token a city can take during the game (Duel's progress tokens): its effects act
    from the moment it is taken, like a built card's."""

    name: str
    kind: str
    effects: Effects
    set: str = ""
    location: Location = field(default=Location(""), compare=False)


@dataclass(frozen=True)
class RuleSet:
    """A rule set: its name, player counts, vocabulary and its typed sections.

    ``model`` is what the engine's mechanisms read (:mod:`wonders.dsl.rules_model`
    holds every default); ``parameters`` is the schema-valid document as written,
    kept for tools that show it, never for a mechanism to read again.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    vocabulary: Vocabulary
    model: RuleModel
    parameters: dict[str, Any]  # the document as written (not read by mechanisms)
    location: Location = field(default=Location(""), compare=False)
    # the rule sets it extends (``extends:``), nearest first: their card files' ``game:``
    # names are its own
    lineage: tuple[str, ...] = ()

    @property
    def player_counts(self) -> range:
        return range(self.min_players, self.max_players + 1)

    @property
    def ages(self) -> int:
        """``ages.count``."""
        return self.model.ages.count

    @property
    def hand(self) -> int | None:
        """``ages.hand``: cards dealt to each player per age (None: not a hand draft)."""
        return self.model.ages.hand

    @property
    def draws(self) -> tuple[DrawPool, ...]:
        """``ages.draw``: the pools of cards drawn at random into an age."""
        return self.model.ages.draws

    @property
    def sell(self) -> Effects | None:
        """``sell``: what selling a card gives."""
        return self.model.sell

    @property
    def treasury(self) -> Effects | None:
        """``treasury``: points for coins at the end."""
        return self.model.treasury

    @property
    def science_pair(self) -> Effects | None:
        """``science.pair``: what a pair of one symbol gives."""
        return self.model.science.pair


@dataclass(frozen=True)
class Game:
    """A rule set with the card sets loaded for it."""

    rules: RuleSet
    cards: tuple[Card, ...]
    wonders: tuple[Wonder, ...]
    sets: tuple[str, ...]
    removed: frozenset[str] = frozenset()
    files: tuple[str, ...] = ()
    tokens: tuple[Token, ...] = ()
    content_hash: str = ""  # sha256 over every loaded file's text: logs record it
    dice: DiceSet | None = None  # a dice-forum game's forum and sheets (offer: dice)
    # a decks game's card kinds, decks, Wonders in pieces and progress tokens (offer: decks)
    components: Components | None = None
    # What engine mechanisms compute once from this data (parameters, decks by age, a
    # flow's set-up), under keys each mechanism owns: shared by every game on the data,
    # gone with it.  A field, not attributes set later: compiled classes have no __dict__.
    derived: dict[str, object] = field(default_factory=dict, compare=False, repr=False)

    def deck_cards(self) -> tuple[Card, ...]:
        """The cards that go into the age decks (those named by a ``remove:`` list are out,
        and so are the reserve's: ``reserve.colour``)."""
        reserve = self.rules.model.reserve.colour
        spread = self.spread_colours()
        return tuple(c for c in self.cards if c.name not in self.removed
                     and c.colour != reserve and c.colour not in spread)

    def spread_colours(self) -> frozenset[str]:
        """The colours the flow's ``spread_cards`` step deals over the rounds (their cards
        are in no age deck of their own)."""
        flow = self.rules.model.flow
        step = flow.step("spread_cards") if flow is not None else None
        colours = step.arguments.get("colours") if step is not None else None
        return frozenset(str(c) for c in colours) if isinstance(colours, list) else frozenset()

    def spread_counts(self) -> tuple[int, ...]:
        """The cards ``spread_cards`` deals into each round's deck, round 1 first."""
        flow = self.rules.model.flow
        step = flow.step("spread_cards") if flow is not None else None
        counts = step.arguments.get("counts") if step is not None else None
        return tuple(c for c in counts if isinstance(c, int)) if isinstance(counts, list) else ()

    def reserve_cards(self) -> tuple[Card, ...]:
        """The cards of the reserve deck (``reserve.colour``; none without a reserve)."""
        reserve = self.rules.model.reserve.colour
        if reserve is None:
            return ()
        return tuple(c for c in self.cards if c.name not in self.removed
                     and c.colour == reserve)

    def card(self, name: str) -> Card | None:
        for card in self.cards:
            if card.name == name:
                return card
        return None

    def wonder(self, name: str) -> Wonder | None:
        for wonder in self.wonders:
            if wonder.name == name:
                return wonder
        return None
