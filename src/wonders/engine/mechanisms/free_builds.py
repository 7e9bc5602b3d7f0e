"""Free builds: the abilities that let a city build a card without paying for it.

``ability free_build [once per age|game] [on COLOURS]`` builds any card (or one of those
colours) free, each use counted per period (an age, or the whole game); free builds from
several sources add up, each use matched to a different ability that allows it.  The
positional ones depend on the card or the moment, not on a use: ``free_first_of_colour``
(the first card of its colour in the city), ``free_first_of_age`` (the age's first turn),
``free_last_of_age`` (the turn the hand holds two cards).  The part :class:`FreeBuilds`
keeps the uses made.
"""

from __future__ import annotations

from typing import Final

from wonders.dsl.model import Card
from wonders.engine.city import City
from wonders.engine.flow_state import Part

NAME: Final = "free_builds"
FREE_BUILD_ABILITY: Final = "free_build"
FREE_FIRST_OF_COLOUR: Final = "free_first_of_colour"
FREE_FIRST_OF_AGE: Final = "free_first_of_age"
FREE_LAST_OF_AGE: Final = "free_last_of_age"
_POSITIONAL: Final = (FREE_FIRST_OF_COLOUR, FREE_FIRST_OF_AGE, FREE_LAST_OF_AGE)

#: How a card may be built free now (:meth:`FreeBuilds.power`).
NOT_FREE: Final = 0
FREE_NOW: Final = 1       # by a power that uses nothing (the card, the moment, no limit)
FREE_BY_USE: Final = 2    # by a once-per-period free build, whose use it takes


class FreeBuilds(Part):
    """``uses``: (seat, period: an age, 0 for the game) -> the colours of the cards built
    with a once-per-period free build then (None: a use a scenario set by hand)."""

    def __init__(self) -> None:
        self.uses: dict[tuple[int, int], list[str | None]] = {}

    def copy(self) -> FreeBuilds:
        other = FreeBuilds()
        other.uses = {key: list(used) for key, used in self.uses.items()}
        return other

    def available(self, city: City, seat: int, age: int) -> bool:
        """Whether a free build of any card is available (abilities limited to some
        colours count per card: :meth:`power`)."""
        for ability in city.abilities():
            if ability.name == FREE_BUILD_ABILITY and ability.colours is None:
                if ability.once_per is None or self.period(city, seat, age, None) is not None:
                    return True
        return False

    def used(self, city: City, seat: int, period: int) -> list[str | None]:
        """The colours of the cards ``seat`` built with once-per-period free builds in
        ``period``; a city a scenario marked (``free_build_ages``) has one use of unknown
        colour."""
        used = self.uses.get((seat, period))
        if used is None and not any(key[0] == seat for key in self.uses):
            marked = period in city.free_build_ages if period else bool(city.free_build_ages)
            return [None] if marked else []
        return used or []

    def period(self, city: City, seat: int, age: int, colour: str | None) -> int | None:
        """The period (this age, else 0 for the game) whose once-per-period free builds
        can still take a card of ``colour`` (None: of any colour, by an unlimited one)
        besides the uses already made; None if neither can."""
        for period, per in ((age, "age"), (0, "game")):
            scopes = [a.colours for a in city.abilities()
                      if a.name == FREE_BUILD_ABILITY and a.once_per == per]
            if not scopes:
                continue
            if colour is None:  # the abilities for any colour first
                unscoped: list[frozenset[str] | None] = [None] * scopes.count(None)
                scopes = unscoped + [scope for scope in scopes if scope is not None]
            if assignable([*self.used(city, seat, period), colour], scopes, colour is None):
                return period
        return None

    def power(self, city: City, seat: int, card: Card, age: int, turn: int,
              hand: int) -> int:
        """How ``seat`` may build ``card`` free now (:data:`NOT_FREE`, :data:`FREE_NOW`,
        :data:`FREE_BY_USE`), on ``turn`` with ``hand`` cards in hand."""
        if positional(city, card, turn, hand):
            return FREE_NOW
        for ability in city.abilities():
            if (ability.name == FREE_BUILD_ABILITY and ability.once_per is None
                    and (ability.colours is None or card.colour in ability.colours)):
                return FREE_NOW
        return NOT_FREE if self.period(city, seat, age, card.colour) is None else FREE_BY_USE

    def use(self, city: City, seat: int, card: Card, age: int) -> None:
        """``seat`` built ``card`` with a once-per-period free build: the use is taken."""
        period = self.period(city, seat, age, card.colour)
        assert period is not None
        self.uses[(seat, period)] = [*self.used(city, seat, period), card.colour]
        city.free_build_ages.add(age)


def positional(city: City, card: Card, turn: int, hand: int) -> bool:
    """Whether a free-build ability that depends on the card or the moment lets ``city``
    build ``card`` free now: the first card of its colour in the city, the first card of
    the age (turn 1), the last card of the age (two in hand; turn 0 is a reserve turn)."""
    for ability in city.abilities():
        name = ability.name
        if name == FREE_FIRST_OF_COLOUR:
            if all(built.colour != card.colour for built in city.built):
                return True
        elif name == FREE_FIRST_OF_AGE:
            if turn == 1:
                return True
        elif name == FREE_LAST_OF_AGE:
            if hand == 2 and turn > 0:
                return True
    return False


def has_positional(city: City) -> bool:
    """Whether a free build may depend on the card or the moment (see :meth:`power`)."""
    return any(a.name in _POSITIONAL or (a.name == FREE_BUILD_ABILITY
                                         and a.colours is not None)
               for a in city.abilities())


def assignable(colours: list[str | None], scopes: list[frozenset[str] | None],
               unscoped: bool = False) -> bool:
    """Whether each use (a card's colour; None: a use of unknown colour, which any ability
    may have made) can be matched to a different ability whose colours allow it (None:
    any colour).  ``unscoped``: the last use needs an ability without colours."""
    def fits(colour: str | None, scope: frozenset[str] | None, last: bool) -> bool:
        if last and unscoped:
            return scope is None
        return scope is None or colour is None or colour in scope

    def place(i: int, free: list[int]) -> bool:
        if i == len(colours):
            return True
        last = i == len(colours) - 1
        for j in free:
            if fits(colours[i], scopes[j], last) and place(i + 1, [k for k in free if k != j]):
                return True
        return False

    return len(colours) <= len(scopes) and place(0, list(range(len(scopes))))
