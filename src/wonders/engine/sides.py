"""Wonder-board sides: how a table says which side each seat plays.

A rule set says how sides are settled (``setup.wonder_side``: ``random``, a side,
or ``choose``, where each player chooses the side of the board dealt to them
before Age I) and may give the sides other names (``setup.side_names``, such as
the 2nd edition's Day and Night for A and B).  A table may override it per seat.
"""

from __future__ import annotations

import random
from typing import Final, Mapping, Sequence

from wonders.dsl.model import Game as GameData
from wonders.dsl.model import Wonder
from wonders.engine.city import City
from wonders.engine.errors import RuleError
from wonders.engine.randomness import sample

RANDOM_SIDE: Final = "random"
CHOOSE_SIDE: Final = "choose"


def side_names(data: GameData) -> dict[str, str]:
    """The rule set's names for sides (``setup.side_names``), side letter -> name."""
    return dict(data.rules.model.setup.side_names)


def side_aliases(data: GameData) -> dict[str, str]:
    """Lower-cased side name -> side letter, so a table can say ``--side night``."""
    return {name.lower(): side for side, name in side_names(data).items()}


def resolve_side(wonder: Wonder, mode: str, aliases: Mapping[str, str]) -> str:
    """A seat's side option as a side of ``wonder``, or ``random``/``choose``.

    Accepts a side letter in any case, the rule set's name for a side, ``random`` and
    ``choose``; anything else is a :class:`RuleError` listing what it could be.
    """
    if mode in wonder.sides or mode in (RANDOM_SIDE, CHOOSE_SIDE):
        return mode
    side = aliases.get(mode.lower(), mode.upper())
    if side in wonder.sides:
        return side
    named = [f"{letter} ({name.capitalize()})" if name else letter
             for letter in sorted(wonder.sides)
             for name in [next((n for n, s in aliases.items() if s == letter), "")]]
    raise RuleError(f"{wonder.name} has no side '{mode}' (sides: {', '.join(named)}; or "
                    f"{RANDOM_SIDE}, {CHOOSE_SIDE})")


def deal_boards(data: GameData, players: int, generator: random.Random,
                names: Sequence[str] | None, sides: str | Sequence[str] | None,
                default: str, coins: int) -> tuple[list[City], list[int]]:
    """Deal one board per seat and settle its side: the cities (a choosing seat's city
    starts on its first side until it chooses) and the seats that choose.

    ``names``: the board of each seat, instead of dealing them.  ``sides`` is one mode for
    every seat or one per seat: a side (``A``, or a name the rule set gives it in
    ``setup.side_names``, such as ``Day``), ``random``, or ``choose``; ``None`` is
    ``default`` (the rule set's ``setup.wonder_side``).  Random sides are drawn in seat
    order right after the boards.
    """
    boards = sorted(data.wonders, key=lambda w: w.name)
    if names is not None:
        chosen: list[Wonder] = []
        for name in names:
            wonder = data.wonder(name)
            if wonder is None:
                raise RuleError(f"no wonder named '{name}'")
            chosen.append(wonder)
        if len(chosen) != players:
            raise RuleError(f"{len(chosen)} wonders named for {players} players")
    else:
        if len(boards) < players:
            raise RuleError(f"{len(boards)} wonder boards for {players} players")
        chosen = sample(generator, boards, players)
    if sides is None or isinstance(sides, str):
        modes = [sides or default] * players
    else:
        modes = list(sides)
        if len(modes) != players:
            raise RuleError(f"{len(modes)} sides named for {players} players")
    aliases = side_aliases(data)
    cities: list[City] = []
    choosing: list[int] = []
    for seat, (wonder, mode) in enumerate(zip(chosen, modes)):
        side = resolve_side(wonder, mode, aliases)
        if side == CHOOSE_SIDE:
            if len(wonder.sides) > 1:
                choosing.append(seat)
            side = sorted(wonder.sides)[0]
        elif side == RANDOM_SIDE:
            side = generator.choice(sorted(wonder.sides))
        cities.append(City(seat, wonder, wonder.sides[side], coins))
    return cities, choosing
