"""Neighbour battles (``military: {mechanism: battles}``): at the end of each age every
city compares its shields with each of its two neighbours.

More shields than a neighbour wins a victory token worth the age's ``victory``
points; fewer takes a defeat token worth ``defeat``; a tie takes nothing.  The
rule set's typed section (:class:`wonders.dsl.rules_model.Battles`) holds the
values and their defaults.  Token kinds are the rule set's vocabulary names
``victory`` and ``defeat``, which effects count (``points 1 per defeat token in
left, right``).

Compilable by mypyc (plain typed functions): the hand-draft loop calls it once
per age.
"""

from __future__ import annotations

from typing import Final, Sequence

from wonders.dsl.rules_model import Battles

from ..city import City
from ..table import left_of, right_of

VICTORY: Final = "victory"
DEFEAT: Final = "defeat"


def tokens_won(shields: Sequence[int], battles: Battles,
               age: int) -> list[list[tuple[str, int]]]:
    """Per seat, the tokens its two battles give in ``age`` (left neighbour first)."""
    players = len(shields)
    victory = battles.victory_in(age)
    found: list[list[tuple[str, int]]] = []
    if not battles.fought_in(age):  # military.ages leaves this age out: nobody fights
        return [[] for _ in range(players)]
    for seat in range(players):
        won: list[tuple[str, int]] = []
        for other in (left_of(seat, players), right_of(seat, players)):
            if shields[seat] > shields[other]:
                won.append((VICTORY, victory))
            elif shields[seat] < shields[other]:
                won.append((DEFEAT, battles.defeat))
        found.append(won)
    return found


def fight(cities: Sequence[City], battles: Battles, age: int) -> None:
    """Resolve the end-of-age battles: each city takes the tokens it won or lost."""
    shields = [city.shields() for city in cities]
    for city, won in zip(cities, tokens_won(shields, battles, age)):
        city.tokens.extend(won)
