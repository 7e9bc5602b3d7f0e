"""Cards priced by a count of the city's cards (``price_by_count: {colours, per}``).

A card of ``colours`` costs its builder one coin for each card of ``per`` already in its
city, instead of its printed cost (the first is free); a city with the ``free_counted``
ability builds them for nothing.  The structure offer reads the price
(:func:`price_of`); the coins go to the bank (they are not trade).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Mapping

from wonders.dsl.model import Card
from wonders.dsl.model import Game as GameData
from wonders.engine.drafted_city import DraftedCity
from wonders.engine.flow_state import Part, part_index
from wonders.engine.mechanisms import structure

if TYPE_CHECKING:
    from wonders.engine.flow import FlowGame

NAME: Final = "counted_prices"
SLOT: Final = part_index(NAME)
FREE_ABILITY: Final = "free_counted"


class CountedPrices(Part):
    """Which colours are priced so, and which colours are counted (no state of its own)."""

    def __init__(self, colours: frozenset[str], per: frozenset[str]) -> None:
        self.colours = colours
        self.per = per

    def price_of(self, city: DraftedCity, card: Card) -> int:
        """What ``card`` costs ``city`` now."""
        if city.has_ability(FREE_ABILITY):
            return 0
        return city.cards_of(self.per)


def setup(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    """Set-up step ``price_by_count``: the structure prices those cards by this part."""
    structure.state(game).counted = state(game)


def make(data: GameData, players: int,
         arguments: Mapping[str, Mapping[str, Any]]) -> CountedPrices:
    given = arguments.get("price_by_count", {})
    return CountedPrices(frozenset(str(c) for c in given.get("colours", ())),
                         frozenset(str(c) for c in given.get("per", ())))


def state(game: FlowGame) -> CountedPrices:
    return game.slots[SLOT]  # type: ignore[return-value]  # (no cast: a call)


__all__ = ["CountedPrices", "FREE_ABILITY", "NAME", "make", "setup", "state"]
