"""The actions of a dice-forum game: small frozen values, printable and serialisable.

``to_json`` is what logs record and replays match against the legal actions, so it
names buildings, dice and bonuses by their data keys and holds the coins paid.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union


def _numbers(*values: object) -> bool:
    """Whether every value is an int (a hand-made action may hold anything: its text then
    is its repr, so the refusal that prints it says what it holds)."""
    return all(isinstance(v, int) and not isinstance(v, bool) for v in values)


@dataclass(frozen=True, slots=True)
class CrossSpace:
    """Choose the die in forum slot ``slot`` (None: no die, a bonus or a free crossing)
    and cross space ``space`` of ``building``, paying ``die_price`` + ``shortfall``."""

    building: str
    space: int
    slot: int | None
    die: str
    die_price: int
    shortfall: int
    index: int = field(default=-1, compare=False, repr=False)   # the building's position

    @property
    def pay(self) -> int:
        return self.die_price + self.shortfall

    def __str__(self) -> str:
        if not _numbers(self.space, self.die_price, self.shortfall):
            return repr(self)
        with_die = f" with the {self.die} die" if self.die else ""
        return f"cross {self.building} space {self.space + 1}{with_die} (pay {self.pay})"

    def to_json(self) -> dict[str, object]:
        return {"action": "cross", "building": self.building, "space": self.space,
                "slot": self.slot, "die": self.die, "pay": self.pay}


@dataclass(frozen=True, slots=True)
class BuildWonderStage:
    """Build the next stage of the board's Wonder, paying ``shortfall`` coins."""

    stage: int
    shortfall: int

    def __str__(self) -> str:
        if not _numbers(self.stage, self.shortfall):
            return repr(self)
        return f"build wonder stage {self.stage + 1} (pay {self.shortfall})"

    def to_json(self) -> dict[str, object]:
        return {"action": "wonder", "stage": self.stage, "pay": self.shortfall}


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass: gain what the sheets' ``pass`` effect gives."""

    def __str__(self) -> str:
        return "pass"

    def to_json(self) -> dict[str, object]:
        return {"action": "pass"}


@dataclass(frozen=True, slots=True)
class TakeBonus:
    """Cross bonus ``bonus``; a bonus that crosses a space names it in ``cross``."""

    bonus: str
    cross: CrossSpace | None = None

    def __str__(self) -> str:
        return f"take bonus {self.bonus}" + (f": {self.cross}" if self.cross else "")

    def to_json(self) -> dict[str, object]:
        return {"action": "bonus", "bonus": self.bonus,
                "cross": self.cross.to_json() if self.cross is not None else None}


@dataclass(frozen=True, slots=True)
class Decline:
    """Decline an optional follow-up (a free crossing)."""

    def __str__(self) -> str:
        return "decline"

    def to_json(self) -> dict[str, object]:
        return {"action": "decline"}


DiceAction = Union[CrossSpace, BuildWonderStage, Pass, TakeBonus, Decline]

__all__ = ["BuildWonderStage", "CrossSpace", "Decline", "DiceAction", "Pass", "TakeBonus"]
