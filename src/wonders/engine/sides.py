"""Wonder-board sides: how a table says which side each seat plays.

A rule set says how sides are settled (``setup.wonder_side``: ``random``, a side,
or ``choose``, where each player chooses the side of the board dealt to them
before Age I) and may give the sides other names (``setup.side_names``, such as
the 2nd edition's Day and Night for A and B).  A table may override it per seat.
"""

from __future__ import annotations

from typing import Final, Mapping

from wonders.dsl.model import Game as GameData
from wonders.dsl.model import Wonder
from wonders.engine.errors import RuleError

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
