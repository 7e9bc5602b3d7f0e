"""An end trigger: once a player reaches N of something, finish the turn, play M more.

Dice's bonuses end the game this way (the third bonus crossed: the current turn ends,
one more turn is played, then scoring).  The counts and the extra turns are data
(``end: {bonuses: N, extra_turns: M}``), and ``turns`` bounds the game in any case.
"""

from __future__ import annotations


class EndTrigger:

    def __init__(self, needed: int, extra: int, limit: int, triggered: int = -1) -> None:
        self.needed = needed
        self.extra = extra
        self.limit = limit
        self.triggered = triggered   # the turn the trigger was reached in (-1: not yet)

    def note(self, count: int, turn: int) -> None:
        """A player now has ``count``: the trigger fires on the first turn it reaches N."""
        if self.triggered < 0 and count >= self.needed:
            self.triggered = turn

    def ends_after(self, turn: int) -> bool:
        """Whether the game ends once ``turn`` (1-based) is over."""
        if turn >= self.limit:
            return True
        return self.triggered >= 0 and turn >= self.triggered + self.extra


__all__ = ["EndTrigger"]
