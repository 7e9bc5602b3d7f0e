"""An end trigger: once a player reaches N of something, finish the turn, play M more.

Dice's bonuses end the game this way (the third bonus crossed: the current turn ends,
one more turn is played, then scoring).  The counts and the extra turns are data
(``end: {bonuses: N, extra_turns: M}``), and ``turns`` bounds the game in any case.  In
a flow the trigger is a part (its end condition: ``end: {when: [end_trigger]}``; the
view's ``last_turn``); the mechanism that counts calls :meth:`EndTrigger.note`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Mapping

from wonders.dsl.model import Game as GameData
from wonders.engine.flow_state import Part, part_index

if TYPE_CHECKING:
    from wonders.engine.flow import FlowGame

NAME: Final = "end_trigger"
SLOT: Final = part_index(NAME)   # (the part's index in a game's slots)


class EndTrigger(Part):

    def __init__(self, needed: int, extra: int, limit: int, triggered: int = -1) -> None:
        self.needed = needed
        self.extra = extra
        self.limit = limit
        self.triggered = triggered   # the turn the trigger was reached in (-1: not yet)

    def copy(self) -> EndTrigger:
        return EndTrigger(self.needed, self.extra, self.limit, self.triggered)

    def note(self, count: int, turn: int) -> None:
        """A player now has ``count``: the trigger fires on the first turn it reaches N."""
        if self.triggered < 0 and count >= self.needed:
            self.triggered = turn

    def ends_after(self, turn: int) -> bool:
        """Whether the game ends once ``turn`` (1-based) is over."""
        if turn >= self.limit:
            return True
        return self.triggered >= 0 and turn >= self.triggered + self.extra

    def view(self, game: FlowGame, seat: int, found: dict[str, Any]) -> None:
        found["last_turn"] = self.triggered + self.extra if self.triggered >= 0 else None


def state(game: FlowGame) -> EndTrigger:
    found = game.slots[SLOT]
    assert isinstance(found, EndTrigger)
    return found


def make(data: GameData, players: int, arguments: Mapping[str, Mapping[str, Any]]) -> EndTrigger:
    """The trigger a sheets file sets (its bonuses, extra turns and turn limit)."""
    if data.dice is None:
        raise ValueError("an end trigger needs the rule set's sheets file")
    return EndTrigger(data.dice.end_bonuses, data.dice.extra_turns, data.dice.max_turns)


def reached(game: FlowGame) -> bool:
    """End condition ``end_trigger``: the trigger's turns are played (or the limit)."""
    return state(game).ends_after(game.turn)


__all__ = ["EndTrigger", "NAME", "make", "reached", "state"]
