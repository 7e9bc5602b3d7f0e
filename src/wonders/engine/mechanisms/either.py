"""A choice of two effects (``EFFECT or EFFECT``): the owner picks one as the clause acts.

The effect runtime hands ``fx.Either`` to the flow (``carry_out``): the choice waits on the
agenda after what was raised before it (``choose 1`` / ``choose 2``, the first or the second
effect as written), and the chosen effect then acts as a now-effect of the owner's.  While
it is asked the view's ``either`` says whose it is and both effects in words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Mapping

from wonders.dsl import describe
from wonders.dsl import effects as fx
from wonders.dsl.model import Game as GameData
from wonders.engine.flow_actions import Move
from wonders.engine.flow_state import Ask, Part, part_index
from wonders.engine.runtime import now

if TYPE_CHECKING:
    from wonders.engine.flow import FlowGame

NAME: Final = "either"
SLOT: Final = part_index(NAME)
CHOOSE: Final = "choose"   # the decision, and its agenda task
WORDING: Final[dict[str, str]] = {CHOOSE: "choosing one of two effects"}
CHOICES: Final = (Move(CHOOSE, ("1",)), Move(CHOOSE, ("2",)))


class Choices(Part):
    """The choices raised and not yet asked, in order: (seat, the two effects)."""

    def __init__(self) -> None:
        self.pending: list[tuple[int, fx.Either]] = []
        self.asked: fx.Either | None = None

    def copy(self) -> Choices:
        other = Choices()
        other.pending = list(self.pending)
        other.asked = self.asked
        return other

    def view(self, game: FlowGame, seat: int, found: dict[str, Any]) -> None:
        """While a choice is asked: whose it is and the two effects in words (``choose 1``
        the first, ``choose 2`` the second); public, as the clause that raised it is."""
        asking = game.asking
        if self.asked is not None and asking is not None and asking.kind == CHOOSE:
            found[NAME] = {"seat": asking.seat, "choices": [
                describe.effect(self.asked.first), describe.effect(self.asked.second)]}


def carry_out(game: FlowGame, seat: int, effect: Any) -> None:
    state(game).pending.append((seat, effect))
    game.agenda.append((CHOOSE, seat, 0))


def ask_next(game: FlowGame, seat: int, about: int) -> None:
    part = state(game)
    owner, part.asked = part.pending.pop(0)
    game.wait(CHOOSE, owner, CHOICES)


def resolve(game: FlowGame, asked: Ask, action: Any) -> None:
    move: Move = action
    part = state(game)
    chosen = part.asked
    part.asked = None
    if chosen is not None:
        now(game.table, asked.seat, chosen.first if move.words[0] == "1" else chosen.second)


def make(data: GameData, players: int, arguments: Mapping[str, Mapping[str, Any]]) -> Choices:
    return Choices()


def state(game: FlowGame) -> Choices:
    return game.slots[SLOT]  # type: ignore[return-value]  # (no cast: a call)


__all__ = ["CHOOSE", "Choices", "NAME", "WORDING", "ask_next", "carry_out", "make", "resolve",
           "state"]
