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
    """One face of a die: the building it crosses a space of, the symbol it matches
    (None: any next space), and the building compared with the neighbours (None: no gate)."""

    building: int
    symbol: str | None
    compare: int | None = None


@dataclass(frozen=True)
class Die:
    name: str
    colour: str
    faces: tuple[Face, ...]
    start: bool = True
    replaces: str | None = None   # an unlockable die: the colour of the die it replaces
    confidence: str = ""


@dataclass(frozen=True)
class Space:
    """One space of a building: crossed in its building's order, paying ``cost`` (the
    number of different resource types needed; one coin per type lacking)."""

    index: int
    symbol: str
    cost: int
    effects: Effects
    attack: int = 0          # points against the neighbour on the building's side
    defence: bool = False    # a defence against that neighbour
    unlock: str | None = None  # the colour of a waiting die it unlocks
    die_discount: int = 0
    confidence: str = ""


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

    def building(self, key: str) -> int | None:
        for i, b in enumerate(self.buildings):
            if b.key == key:
                return i
        return None


__all__ = ["ANY", "LISTED", "Board", "Bonus", "Building", "DiceSet", "Die", "Face", "Space",
           "Stage"]
