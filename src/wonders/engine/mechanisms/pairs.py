"""Science pairs: a second symbol of a kind sets off the rule set's pair effect; enough
different symbols win at once.

``science: {mechanism: pairs, pair: EFFECT, supremacy: N}``: as a symbol arrives (the
effect runtime's ``science_arrived``), the seat that now holds N different symbols wins a
science victory at once when the flow lists ``science_supremacy`` in ``end.at_once``;
otherwise a symbol held twice runs the pair effect (``take progress token from board``),
once per symbol.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Mapping

from wonders.dsl import effects as fx
from wonders.dsl.model import Game as GameData
from wonders.engine.flow_state import Part, part_index
from wonders.engine.mechanisms.bank import cities_of
from wonders.engine.runtime import now
from wonders.engine.structure_rules import structure_rules

if TYPE_CHECKING:
    from wonders.engine.flow import FlowGame

NAME: Final = "pairs"
SLOT: Final = part_index(NAME)   # (the part's index in a game's slots)
SUPREMACY: Final = "science_supremacy"   # the end.at_once condition this part raises
VICTORY: Final = "science"               # the victory it is, on the score sheet


class Pairs(Part):
    """No state of its own (the symbols are the cities'): the pair effect and how many
    different symbols win (0: never)."""

    def __init__(self, pair: fx.Effects | None, supremacy: int) -> None:
        self.pair = pair
        self.supremacy = supremacy

    def science_arrived(self, game: FlowGame, seat: int, symbol: str) -> None:
        symbols = cities_of(game)[seat].symbols()
        supremacy = self.supremacy
        if supremacy and len(symbols) >= supremacy:
            game.win(seat, VICTORY)
            return
        if symbols[symbol] == 2 and self.pair is not None:
            for clause in self.pair.clauses:
                now(game.table, seat, clause.effect)


__all__ = ["NAME", "Pairs", "SUPREMACY", "VICTORY"]


def make(data: GameData, players: int, arguments: Mapping[str, Mapping[str, Any]]) -> Pairs:
    setup = structure_rules(data)
    flow = data.rules.model.flow
    at_once = flow is not None and SUPREMACY in flow.at_once
    return Pairs(setup.pair, setup.science_supremacy if at_once else 0)
