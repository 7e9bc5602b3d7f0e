"""Cards spread over the rounds: one shuffled stack of some colours, a count dealt into each
round's deck (``spread_cards: {colours, counts}``).

Set-up step ``spread_cards`` shuffles the cards of ``colours`` (their ``age`` is not read:
write 0) into one stack; as each round's structure is laid out, the next ``counts[round -
1]`` cards of the stack join its deck, each at a random place (as ``ages.draw``'s cards do).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Mapping

from wonders.dsl.model import Card
from wonders.dsl.model import Game as GameData
from wonders.engine.flow_state import Part, part_index
from wonders.engine.mechanisms import structure
from wonders.engine.randomness import shuffle

if TYPE_CHECKING:
    from wonders.engine.flow import FlowGame

NAME: Final = structure.SPREAD
SLOT: Final = part_index(NAME)


class Spread(Part):
    """The stack of cards still to be dealt into later rounds (top first)."""

    def __init__(self, counts: list[int]) -> None:
        self.per_round = counts
        self.stack: list[Card] = []

    def copy(self) -> Spread:
        other = Spread(self.per_round)
        other.stack = list(self.stack)
        return other

    def take(self, age: int) -> list[Card]:
        """The cards that join round ``age``'s deck."""
        count = self.per_round[age - 1] if 0 < age <= len(self.per_round) else 0
        found = self.stack[:count]
        del self.stack[:count]
        return found


def colours_of(data: GameData) -> frozenset[str]:
    """The colours the flow's ``spread_cards`` step deals (none without one)."""
    flow = data.rules.model.flow
    step = flow.step("spread_cards") if flow is not None else None
    return frozenset(str(c) for c in step.arguments.get("colours", ())) if step else frozenset()


def deal(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    """Set-up step ``spread_cards``: the cards of ``colours`` shuffled into one stack."""
    part = state(game)
    colours = colours_of(game.data)
    cards = sorted((c for c in game.data.cards if c.colour in colours
                    and c.name not in game.data.removed), key=lambda c: c.name)
    shuffle(game.generator(), cards, game.drawer())
    part.stack = cards


def make(data: GameData, players: int, arguments: Mapping[str, Mapping[str, Any]]) -> Spread:
    return Spread([int(n) for n in arguments.get("spread_cards", {}).get("counts", [])])


def state(game: FlowGame) -> Spread:
    return game.slots[SLOT]  # type: ignore[return-value]  # (no cast: a call)


__all__ = ["NAME", "Spread", "colours_of", "deal", "make", "state"]
