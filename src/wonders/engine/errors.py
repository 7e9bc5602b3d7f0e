"""Errors raised while playing: a rule the caller broke, with the reason in words."""

from __future__ import annotations

import operator
from typing import SupportsIndex, cast

from wonders.dsl.errors import WondersError


class RuleError(WondersError):
    """The game cannot do what was asked (bad setup, wrong phase, unknown card)."""


class IllegalActionError(RuleError):
    """An action a player may not take now; the message says why."""

    def __init__(self, player: int, action: object, reason: str) -> None:
        self.player = player
        self.action = action
        self.reason = reason
        super().__init__(f"player {player}: {action} is not allowed: {reason}")

    def __reduce__(self) -> tuple[type[IllegalActionError], tuple[int, object, str]]:
        # raised in a simulation's worker process, it travels back pickled: by its own
        # arguments (the action as its text: the parent has no use for the worker's cards)
        return (type(self), (self.player, str(self.action), self.reason))


def check_seat(seat: object, players: int) -> int:
    """Raise :class:`RuleError` unless ``seat`` is one of the game's seats (``view``'s
    argument; not on the hot path)."""
    if isinstance(seat, bool) or not hasattr(seat, "__index__"):
        raise RuleError(f"a seat is a number 0 to {players - 1}, not {seat!r}")
    if not 0 <= operator.index(cast(SupportsIndex, seat)) < players:
        raise RuleError(f"no seat {seat!r}: this game's seats are 0 to {players - 1}")
    return operator.index(cast(SupportsIndex, seat))
