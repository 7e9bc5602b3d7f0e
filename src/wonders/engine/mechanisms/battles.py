"""Neighbour battles (``military: {mechanism: battles}``): at the end of each age every
city compares its shields with each of its two neighbours.

More shields than a neighbour wins a victory token worth the age's ``victory``
points; fewer takes a defeat token worth ``defeat``; a tie takes nothing.  The
rule set's typed section (:class:`wonders.dsl.rules_model.Battles`) holds the
values and their defaults.  Token kinds are the rule set's vocabulary names
``victory`` and ``defeat``, which effects count (``points 1 per defeat token in
left, right``).

Compilable by mypyc (plain typed functions): the hand-draft loop calls
:func:`age_end` once per age.
"""

from __future__ import annotations

from typing import Final, Sequence

from wonders.dsl.rules_model import Battles
from wonders.engine.city import City
from wonders.engine.scoring import amount
from wonders.engine.table import left_of, right_of

VICTORY: Final = "victory"
DEFEAT: Final = "defeat"
# the defeat tokens of the city's lost battles go to the neighbour that won them
DEFEATS_TO_VICTOR_ABILITY: Final = "defeats_to_victor"


def _nearest(seat: int, players: int, out: Sequence[int], step: int) -> int:
    """The nearest seat from ``seat`` in direction ``step`` (+1 left, -1 right) that is not
    sitting out (``seat`` itself when every other seat is)."""
    other = (seat + step) % players
    while other in out and other != seat:
        other = (other + step) % players
    return other


def tokens_won(shields: Sequence[int], battles: Battles, age: int,
               out: Sequence[int] = ()) -> list[list[tuple[str, int]]]:
    """Per seat, the tokens its two battles give in ``age`` (left neighbour first).

    The seats in ``out`` sit these battles out (a ``sit_out`` token): they fight nobody,
    and each of their neighbours fights the nearest seat beyond them instead.  Two seats
    left alone fight once (each is the other's left and right neighbour)."""
    players = len(shields)
    victory = battles.victory_in(age)
    found: list[list[tuple[str, int]]] = []
    if not battles.fought_in(age):  # military.ages leaves this age out: nobody fights
        return [[] for _ in range(players)]
    for seat in range(players):
        won: list[tuple[str, int]] = []
        if seat in out:
            found.append(won)
            continue
        if out:
            left, right = _nearest(seat, players, out, 1), _nearest(seat, players, out, -1)
            others = [s for s in dict.fromkeys((left, right)) if s != seat]
        else:
            others = [left_of(seat, players), right_of(seat, players)]
        for other in others:
            if shields[seat] > shields[other]:
                won.append((VICTORY, victory))
            elif shields[seat] < shields[other]:
                won.append((DEFEAT, battles.defeat))
        found.append(won)
    return found


def battle_shields(cities: Sequence[City], counted: bool = True) -> list[int]:
    """Each city's shields in a battle: its shields, plus those its ongoing ``shields N
    per …`` clauses count from what the cities hold now (``shields 1 per defeat token``:
    the defeat tokens of earlier battles). ``counted`` False: the data has no such
    clause (the loop knows it once per game), so none is looked for."""
    shields = [city.shields() for city in cities]
    if not counted:
        return shields
    for seat, city in enumerate(cities):
        for effect in city.counted_shields():  # (cached: almost always none)
            each = effect.each
            if each is not None:
                shields[seat] += amount(each, seat, cities)
    return shields


def fight(cities: Sequence[City], battles: Battles, age: int,
          shields: list[int] | None = None) -> list[list[tuple[str, int]]]:
    """Resolve the end-of-age battles: each city takes the tokens it won or lost; returns
    them, per seat (what ``on victory token:`` triggers and the defeat hand-over read).

    With ``military.sit_out``, a city holding such a token sits these battles out and
    gives one back (only when the age has battles: the token waits for the next ones).
    ``shields``: each city's shields in these battles, when the caller has them already
    (:func:`battle_shields`)."""
    if shields is None:
        shields = battle_shields(cities)
    out: list[int] = []
    kind = battles.sit_out
    if kind is not None and battles.fought_in(age):
        for city in cities:
            for i, (held, _) in enumerate(city.tokens):
                if held == kind:
                    out.append(city.seat)
                    del city.tokens[i]
                    break
    received = tokens_won(shields, battles, age, out)
    for city, won in zip(cities, received):
        city.tokens.extend(won)
    return received


def age_end(cities: Sequence[City], battles: Battles, age: int,
            counted: bool) -> list[list[tuple[str, int]]]:
    """The age's battles (``counted``: the data has ``shields N per …`` clauses), then
    each defeat token of a city with ``ability defeats_to_victor`` handed to the
    neighbour that beat it; the tokens each city ends up receiving, per seat (what ``on
    victory token:`` triggers read, in seat order)."""
    shields = battle_shields(cities, counted)
    received = fight(cities, battles, age, shields)
    for seat, city in enumerate(cities):
        if city.has_ability(DEFEATS_TO_VICTOR_ABILITY):
            _hand_over_defeats(cities, seat, shields, received)
    return received


def _hand_over_defeats(cities: Sequence[City], seat: int, shields: list[int],
                       received: list[list[tuple[str, int]]]) -> None:
    """Each defeat token ``seat`` just received goes to the neighbour that beat it (the one
    with more shields), who then holds it."""
    players = len(cities)
    beaters = [other for other in (left_of(seat, players), right_of(seat, players))
               if shields[other] > shields[seat]]
    for token in [t for t in received[seat] if t[0] == DEFEAT]:
        if not beaters:
            break
        winner = beaters.pop(0)
        cities[seat].tokens.remove(token)
        received[seat].remove(token)
        cities[winner].tokens.append(token)
        received[winner].append(token)
