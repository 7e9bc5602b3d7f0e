"""Errors raised while playing: a rule the caller broke, with the reason in words."""

from __future__ import annotations

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
