"""A dice forum: dice shaken into priced quadrants, shared by every player, some unlockable.

Every turn each die in the forum gets a face and a quadrant at random; choosing a die
costs its quadrant's price (less a player's discount), and dice are never taken away,
so any number of players may choose the same die at once.  A die that waits in the box
joins the forum at the end of the turn in which a player first unlocks it, replacing a
die of the colour it names (one at random among those still in the forum).  Which dice,
faces, quadrants and prices exist is data (a ``forum`` file, :mod:`wonders.dsl.sheets`).
"""

from __future__ import annotations

import random

from wonders.dsl.sheets_model import DiceSet
from wonders.engine.randomness import below


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


__all__ = ["DicePool"]
