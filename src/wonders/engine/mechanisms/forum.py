"""A dice forum: dice shaken into priced quadrants, shared by every player, some unlockable.

Every turn each die in the forum gets a face and a quadrant at random; choosing a die
costs its quadrant's price (less a player's discount), and dice are never taken away,
so any number of players may choose the same die at once.  A die that waits in the box
joins the forum at the end of the turn in which a player first unlocks it, replacing a
die of the colour it names (one at random among those still in the forum).  Which dice,
faces, quadrants and prices exist is data (a ``forum`` file, :mod:`wonders.dsl.sheets`).

As a mechanism of the flow interpreter the forum is a part (:class:`RolledDice`): the turn's
start shakes it (step ``shake_forum``), what it offers is read once a turn for every
seat (:data:`Lying`), and the turn's end brings in the dice unlocked during it (step
``bring_in_dice``).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Final, Mapping

from wonders.dsl.model import Game as GameData
from wonders.dsl.sheets_model import DiceSet
from wonders.engine.flow_state import Part, part_index
from wonders.engine.mechanisms.sheet import groups
from wonders.engine.randomness import below

if TYPE_CHECKING:
    from wonders.engine.flow import FlowGame

NAME: Final = "forum"
SLOT: Final = part_index(NAME)   # (the part's index in a game's slots)

# What the forum offers a turn, per die: slot, die index, colour to unlock ("" none), the
# buildings compared (empty: no gate), price, colour, and per building its face may cross,
# (building, groups of spaces)
Lying = tuple[int, int, str, tuple[int, ...], int, str,
              tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]]   # (the last: FaceTargets)


class DicePool:
    """The dice in the forum (indices into ``DiceSet.dice``) with their rolled face and
    quadrant; the waiting dice are those not in ``slots``."""


    def __init__(self, dice: DiceSet, slots: list[int] | None = None,
                 faces: list[int] | None = None, quadrants: list[int] | None = None) -> None:
        self.dice = dice
        self.slots = slots if slots is not None else \
            [i for i, die in enumerate(dice.dice) if die.start]
        self.faces = faces if faces is not None else [0] * len(self.slots)
        self.quadrants = quadrants if quadrants is not None else [0] * len(self.slots)

    def clone(self) -> "DicePool":
        return DicePool(self.dice, list(self.slots), list(self.faces), list(self.quadrants))

    def roll(self, rng: random.Random) -> None:
        """Shake the box: a random face and quadrant for every die, in slot order."""
        dice = self.dice.dice
        count = len(self.dice.quadrants)
        faces = self.faces
        quadrants = self.quadrants
        for k, index in enumerate(self.slots):   # below(): rng.randrange's draws, compiled
            faces[k] = below(rng, len(dice[index].faces))
            quadrants[k] = below(rng, count)

    def price(self, slot: int, discount: int) -> int:
        """Coins to choose the die in ``slot``: its quadrant's price less ``discount``."""
        return max(0, self.dice.quadrants[self.quadrants[slot]] - discount)

    def bring_in(self, die: int, rng: random.Random) -> None:
        """An unlocked die joins the forum, replacing a random die of the colour it names
        (added beside them when none is left)."""
        wanted = self.dice.dice[die].replaces
        if die in self.slots:
            return
        candidates = [k for k, index in enumerate(self.slots)
                      if self.dice.dice[index].colour == wanted]
        if candidates:
            self.slots[candidates[below(rng, len(candidates))]] = die
        else:
            self.slots.append(die)
            self.faces.append(0)
            self.quadrants.append(0)

    def to_json(self) -> list[dict[str, object]]:
        dice = self.dice
        out: list[dict[str, object]] = []
        for k, index in enumerate(self.slots):
            die = dice.dice[index]
            face = die.faces[self.faces[k]]
            out.append({"die": die.name, "colour": die.colour,
                        "building": dice.buildings[face.building].key,
                        "buildings": [dice.buildings[b].key for b in face.buildings],
                        "symbol": face.symbol,
                        "compare": " + ".join(dice.key_of(b) for b in face.compare) or None,
                        "quadrant": self.quadrants[k],
                        "price": dice.quadrants[self.quadrants[k]]})
        return out



#: per building a face may cross, (building, groups of spaces)
FaceTargets = tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]


def face_groups(data: GameData, dice: DiceSet) -> list[list[FaceTargets]]:
    """Per die and face, the buildings it may cross with their groups of spaces (once per
    data set)."""
    found = data.derived.get("forum.face_groups")
    if not isinstance(found, list):
        found = [[tuple((b, groups(dice.buildings[b], f.symbol)) for b in f.buildings)
                  for f in die.faces] for die in dice.dice]
        data.derived["forum.face_groups"] = found
    return found


class RolledDice(Part):
    """The forum's dice (:class:`DicePool`), what they offer this turn (``lying``) and the
    dice unlocked this turn, which join the forum at its end (``arriving``)."""

    def __init__(self, data: GameData, dice: DiceSet, source: RolledDice | None = None) -> None:
        self.data = data
        self.dice = dice
        self.groups = face_groups(data, dice)
        self.pool: DicePool
        if source is not None:
            self.pool = source.pool.clone()
            self.arriving: list[int] = list(source.arriving)
            self.lying: list[Lying] = list(source.lying)
            return
        self.pool = DicePool(dice)
        self.arriving = []
        self.lying = []

    def copy(self) -> RolledDice:
        return RolledDice(self.data, self.dice, self)

    def lay(self) -> None:
        """What the forum offers this turn, read once for every seat (:data:`Lying`)."""
        dice = self.dice.dice
        pool = self.pool
        prices = self.dice.quadrants
        lying: list[Lying] = []
        for k, index in enumerate(pool.slots):
            die = dice[index]
            face = pool.faces[k]
            lying.append((k, index, "" if die.start else die.colour, die.faces[face].compare,
                          prices[pool.quadrants[k]], die.colour, self.groups[index][face]))
        self.lying = lying

    def unlock(self, colour: str) -> None:
        """A player unlocked ``colour``: its waiting dice join the forum at the turn's end."""
        for index, die in enumerate(self.dice.dice):
            if die.colour == colour and index not in self.pool.slots \
                    and index not in self.arriving:
                self.arriving.append(index)

    def refresh(self, game: FlowGame) -> None:
        self.lay()   # (a scenario may have set the forum by hand)

    def view(self, game: FlowGame, seat: int, found: dict[str, Any]) -> None:
        found["forum"] = self.pool.to_json()


def state(game: FlowGame) -> RolledDice:
    """The game's forum."""
    found = game.slots[SLOT]
    assert isinstance(found, RolledDice)
    return found


def make(data: GameData, players: int, arguments: Mapping[str, Mapping[str, Any]]) -> RolledDice:
    if data.dice is None:
        raise ValueError("a forum needs the rule set's dice")   # (refused at load: M909)
    return RolledDice(data, data.dice)


def shake(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    """Step ``shake_forum``: every die gets a face and a quadrant; the forum is laid."""
    forum = state(game)
    forum.pool.roll(game.generator())
    forum.lay()


def bring_in(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    """Step ``bring_in_dice``: the dice unlocked this turn join the forum."""
    forum = state(game)
    for die in forum.arriving:
        forum.pool.bring_in(die, game.generator())
    forum.arriving = []


__all__ = ["DicePool", "RolledDice", "Lying", "NAME", "bring_in", "face_groups", "make", "shake",
           "state"]
