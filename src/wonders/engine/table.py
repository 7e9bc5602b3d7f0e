"""Seating: who sits left and right of whom, and which cities a place names.

Players sit in seat order clockwise; the left neighbour of seat ``i`` is
``i + 1`` and the right neighbour ``i - 1`` (modulo the number of players).
Passing "left" hands your cards to your left neighbour.
"""

from __future__ import annotations

from typing import Sequence, TypeVar

T = TypeVar("T")


def left_of(seat: int, players: int) -> int:
    return (seat + 1) % players


def right_of(seat: int, players: int) -> int:
    return (seat - 1) % players


def seats_at(seat: int, place: str, players: int) -> tuple[int, ...]:
    """The seats an effect's place names, seen from ``seat``."""
    if place == "self":
        return (seat,)
    if place == "left":
        return (left_of(seat, players),)
    if place == "right":
        return (right_of(seat, players),)
    if place == "neighbours":
        return (left_of(seat, players), right_of(seat, players))
    if place == "all":
        return tuple(range(players))
    if place == "others":
        return tuple(s for s in range(players) if s != seat)
    if place == "opponent" and players == 2:
        return (1 - seat,)
    raise ValueError(f"place '{place}' has no meaning in a game with neighbours")


def at(items: Sequence[T], seat: int, places: Sequence[str]) -> list[T]:
    """The items (cities) at every seat the places name, in order (a seat may repeat)."""
    result: list[T] = []
    for place in places:
        result.extend(items[s] for s in seats_at(seat, place, len(items)))
    return result
