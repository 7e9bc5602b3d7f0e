"""The compiled data of a dice-forum game: dice, quadrants, player sheets and boards.

A dice-forum game (``offer: dice``) reads two more kinds of file beside its rule set:
a **forum** (the dice shaken each turn, each face naming the building it crosses, and
the price of each quadrant a die can land in) and **sheets** (the buildings every
player crosses spaces of, the bonuses, the bounded coin reserve, the end trigger and
the boards, each a Wonder of stages).  Everything here is immutable and free of YAML;
effects are compiled.  The engine indexes buildings, spaces and dice by position.
"""

from __future__ import annotations

from dataclasses import dataclass

from wonders.dsl.effects import Effects

LISTED = "listed"   # a face crosses the first uncrossed space with its symbol
ANY = "any"         # a face crosses any uncrossed space with its symbol


@dataclass(frozen=True)
class Face:
    """One face of a die: the buildings it may cross a space of (one, or a choice of
    several), the symbol it matches (None: any next space), and the buildings whose
    crossed spaces, counted together, are compared with the neighbours' (empty: no gate;
    the index ``len(DiceSet.buildings)`` counts the Wonder stages built)."""

    buildings: tuple[int, ...]
    symbol: str | None
    compare: tuple[int, ...] = ()

    @property
    def building(self) -> int:
        """The first building it crosses (the only one but for a choice face)."""
        return self.buildings[0]


@dataclass(frozen=True)
class Die:
    name: str
    colour: str
    faces: tuple[Face, ...]
    start: bool = True
    replaces: str | None = None   # an unlockable die: the colour of the die it replaces
    confidence: str = ""


@dataclass(frozen=True)
class DiePrice:
    """A lasting change to what one player pays to choose dice of ``colour`` (None: every
    die): ``less`` coins off the quadrant's price, and at most ``most`` coins (None: no
    cap; 0: those dice are free for that player)."""

    colour: str | None
    less: int = 0
    most: int | None = None


@dataclass(frozen=True)
class DieGain:
    """Coins a player gains whenever they choose a die of ``colour`` from now on."""

    colour: str
    coins: int


@dataclass(frozen=True)
class Crossing:
    """A follow-up: cross up to ``up_to`` spaces, one at a time, each the next space of
    one of ``buildings`` (paying its cost, following the building's order; the player may
    stop early)."""

    buildings: tuple[int, ...]
    up_to: int = 1


@dataclass(frozen=True)
class Gains:
    """What a crossed space or a built Wonder stage gives beyond its effects: die
    prices, coins on choosing a die colour, spaces crossed at once."""

    prices: tuple[DiePrice, ...] = ()
    die_gains: tuple[DieGain, ...] = ()
    cross: Crossing | None = None


NO_GAINS = Gains()


@dataclass(frozen=True)
class Space:
    """One space of a building: crossed in its building's order, paying ``cost`` (the
    number of different resource types needed; one coin per type lacking) by a face
    with one of its ``symbols`` (empty: the building's symbol-less spaces)."""

    index: int
    symbols: tuple[str, ...]
    cost: int
    effects: Effects
    attack: int = 0          # points against the neighbour on the building's side
    defence: bool = False    # a defence against that neighbour
    unlock: str | None = None  # the colour of a waiting die it unlocks
    gains: Gains = NO_GAINS
    confidence: str = ""

    @property
    def symbol(self) -> str:
        """The first symbol ("" for none), for display."""
        return self.symbols[0] if self.symbols else ""

    @property
    def die_discount(self) -> int:
        """Coins off every die from now on (the colour-free part of ``gains.prices``)."""
        return sum(p.less for p in self.gains.prices if p.colour is None)


@dataclass(frozen=True)
class Building:
    key: str
    name: str
    colour: str
    order: str
    side: str | None
    spaces: tuple[Space, ...]
    symbols: tuple[str, ...]   # distinct space symbols, in the order first listed
    confidence: str = ""
    first: int = 0             # points for the first to complete it


@dataclass(frozen=True)
class Stage:
    cost: int
    effects: Effects
    confidence: str = ""
    gains: Gains = NO_GAINS


@dataclass(frozen=True)
class Board:
    name: str
    stages: tuple[Stage, ...]
    confidence: str = ""


@dataclass(frozen=True)
class Bonus:
    name: str
    effects: Effects
    cross: tuple[int, ...] = ()   # buildings whose next space it crosses (paying its cost)
    confidence: str = ""


@dataclass(frozen=True)
class DiceSet:
    """A dice-forum game's components (``Game.dice``)."""

    quadrants: tuple[int, ...]
    dice: tuple[Die, ...]
    compare_neighbours: str      # "at_least" or "more"
    compare_two_players: str
    reserve: int                 # coins a player can hold
    reserve_confidence: str
    pass_effects: Effects
    end_bonuses: int
    extra_turns: int
    max_turns: int
    bonuses: tuple[Bonus, ...]
    buildings: tuple[Building, ...]
    boards: tuple[Board, ...]

    @property
    def wonder(self) -> int:
        """The index a face's ``compare`` uses for the Wonder stages built."""
        return len(self.buildings)

    def key_of(self, index: int) -> str:
        """A building's key, or ``wonder`` for the index :attr:`wonder` (a face's compare)."""
        return self.buildings[index].key if index < len(self.buildings) else "wonder"

    def face_words(self, face: Face, names: bool = False) -> str:
        """A face in words: the building(s) it crosses, its symbol, its gate."""
        def name(i: int) -> str:
            if not names:
                return self.key_of(i)
            return self.buildings[i].name if i < len(self.buildings) else "the Wonder"
        text = " or ".join(name(b) for b in face.buildings)
        text += f" ({face.symbol})" if face.symbol else " (any next space)"
        if face.compare:
            text += f", if ahead in {' + '.join(name(b) for b in face.compare)}"
        return text

    def building(self, key: str) -> int | None:
        for i, b in enumerate(self.buildings):
            if b.key == key:
                return i
        return None


__all__ = ["ANY", "LISTED", "NO_GAINS", "Board", "Bonus", "Building", "Crossing", "DiceSet", "Die",
           "DieGain", "DiePrice", "Face", "Gains", "Space", "Stage"]
