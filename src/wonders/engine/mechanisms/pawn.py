"""A pawn that passes to each seat taking a card marked for it, and scores for its holder.

Whoever takes a card showing the pawn's icon takes the pawn from whoever holds it; at the
end its holder scores ``points``, and while it is that seat's turn to take a card it may
look at the top of the central deck (:mod:`.decks`).  Which cards show the icon is data
(a card kind's ``cat``); the points are the ``take_cat`` step's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Mapping, cast

from wonders.engine.flow_state import Part, part_index

if TYPE_CHECKING:
    from wonders.engine.flow import FlowGame

NAME = "pawn"
SLOT: Final = part_index(NAME)   # (the part's index in a game's slots)


class Pawn(Part):
    """Who holds the pawn (-1: nobody) and what it scores."""

    def __init__(self, points: int, holder: int = -1) -> None:
        self.points = points
        self.holder = holder

    def copy(self) -> Pawn:
        return Pawn(self.points, self.holder)

    def seat_view(self, game: FlowGame, s: int, entry: dict[str, Any]) -> None:
        entry["cat"] = self.holder == s

    def score(self, game: FlowGame, s: int, line: dict[str, int]) -> None:
        line["cat"] = self.points if self.holder == s else 0


def make(players: int, arguments: Mapping[str, Mapping[str, Any]]) -> Pawn:
    """The pawn of a flow whose steps have ``arguments`` (by step name)."""
    return Pawn(int(arguments.get("take_cat", {}).get("points", 2)))


def state(game: FlowGame) -> Pawn:
    """The game's pawn (the part this mechanism owns)."""
    return cast(Pawn, game.slots[SLOT])


def holder(game: FlowGame) -> int:
    """The seat holding the pawn (-1: nobody, or no pawn in this game)."""
    found = game.parts.get(NAME)
    return found.holder if isinstance(found, Pawn) else -1


def take(game: FlowGame, seat: int) -> None:
    """``seat`` took a card with the icon: the pawn is its."""
    state(game).holder = seat


__all__ = ["NAME", "Pawn", "holder", "make", "state", "take"]
