"""Game speeds and the players' clocks.

Real-time speeds give each player a time bank and an increment per decision
(:data:`SPEEDS`): when a decision opens, every seat that has to choose gets the
increment added to its bank and its clock runs (all of them at once in a
simultaneous decision) until it has chosen.  Turn-based gives each seat
``hours`` for every decision, whatever it used before.  A seat whose time runs out
is played by a stand-in bot until its player comes back (the page's "take my seat
back", which gives them one increment, or a turn-based decision's whole time, to
play the decision at hand).  Untimed tables have no clocks.

Time is read from the function the server is given (``Tables.clock``), so tests
move it by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# speed -> (time bank, increment per decision), in seconds
SPEEDS: dict[str, tuple[float, float]] = {
    "fast": (120.0, 10.0),
    "normal": (300.0, 20.0),
    "slow": (900.0, 45.0),
}
UNTIMED = "untimed"
TURN_BASED = "turn-based"
SPEED_NAMES = (UNTIMED, *SPEEDS, TURN_BASED)
MAX_HOURS = 336   # two weeks a move


@dataclass
class Clocks:
    """Each seat's time left and whose clock runs since when."""

    bank: list[float]   # seconds left, as of when the seat's clock started (or stopped)
    increment: float   # added to a seat's bank when a decision it takes part in opens
    per_move: float | None = None   # turn-based: each decision's time, no bank kept
    running: dict[int, float] = field(default_factory=dict)   # seat -> since when

    @classmethod
    def for_speed(cls, speed: str, players: int, hours: int = 24) -> Clocks | None:
        """The clocks of a speed (None: untimed)."""
        if speed == TURN_BASED:
            return cls([0.0] * players, 0.0, per_move=hours * 3600.0)
        if speed in SPEEDS:
            bank, increment = SPEEDS[speed]
            return cls([bank] * players, increment)
        return None

    def begin(self, seats: list[int], now: float) -> None:
        """A decision opens for ``seats``: their clocks start (the others are stopped)."""
        self.running = {}
        for seat in seats:
            self.bank[seat] = self.per_move if self.per_move is not None \
                else self.bank[seat] + self.increment
            self.running[seat] = now

    def stop(self, seat: int, now: float) -> None:
        """``seat`` has chosen: its clock stops with what it has left."""
        since = self.running.pop(seat, None)
        if since is not None:
            self.bank[seat] = max(0.0, self.bank[seat] - (now - since))

    def left(self, seat: int, now: float) -> float:
        since = self.running.get(seat)
        spent = 0.0 if since is None else now - since
        return max(0.0, self.bank[seat] - spent)

    def expired(self, now: float) -> list[int]:
        """The seats whose clock runs and has no time left."""
        return [seat for seat in sorted(self.running) if self.left(seat, now) <= 0.0]

    def next_deadline(self, now: float) -> float | None:
        """When the next running clock runs out (None: none runs)."""
        if not self.running:
            return None
        return now + min(self.left(seat, now) for seat in self.running)

    def restart(self, now: float) -> None:
        """The running clocks start again from ``now``, their banks as they were: the
        decision just opened was stored (and its players told) only now, and the time
        the server took to store it is not the players' to pay."""
        for seat, since in self.running.items():
            self.running[seat] = max(since, now)

    def resume(self, seat: int, now: float) -> None:
        """A player back at their seat: one increment (turn-based: a whole decision's
        time) to play the decision at hand if their clock runs."""
        if seat in self.running:
            self.bank[seat] = max(self.left(seat, now), self.per_move if self.per_move
                                  is not None else self.increment)
            self.running[seat] = now

    def public(self, now: float) -> dict[str, Any]:
        """What every page is told: each seat's time left, whose clock runs."""
        return {"left": [round(self.left(s, now), 1) for s in range(len(self.bank))],
                "running": sorted(self.running), "increment": self.increment,
                "per_move": self.per_move}

    def to_json(self) -> dict[str, Any]:
        return {"bank": list(self.bank), "increment": self.increment,
                "per_move": self.per_move,
                "running": {str(s): t for s, t in sorted(self.running.items())}}

    @classmethod
    def from_json(cls, value: Any, players: int) -> Clocks | None:
        """The clocks of a stored record (None if it holds none, or not of this game)."""
        if not isinstance(value, dict):
            return None
        bank = value.get("bank")
        if not isinstance(bank, list) or len(bank) != players:
            return None
        per_move = value.get("per_move")
        running = value.get("running") or {}
        return cls([float(b) for b in bank], float(value.get("increment") or 0.0),
                   None if per_move is None else float(per_move),
                   {int(s): float(t) for s, t in running.items()})

    def copy(self) -> Clocks:
        return Clocks(list(self.bank), self.increment, self.per_move, dict(self.running))


__all__ = ["Clocks", "MAX_HOURS", "SPEEDS", "SPEED_NAMES", "TURN_BASED", "UNTIMED"]
