"""Actions a player can take: small frozen values, printable and serialisable."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from wonders.dsl.model import Card

from .payment import FREE, Payment

PAY = "pay"
CHAIN = "chain"
FREE_BUILD = "free_build"


@dataclass(frozen=True, slots=True)
class Build:
    """Build ``card`` into the city, paying ``payment`` (or free by chain or a power)."""

    card: Card
    payment: Payment = FREE
    method: str = PAY

    def __str__(self) -> str:
        return f"build {self.card.name}{_how(self.payment, self.method)}"

    def to_json(self) -> dict[str, object]:
        return {"action": "build", "card": self.card.name, "age": self.card.age,
                "method": self.method, "payment": self.payment.to_json()}


@dataclass(frozen=True, slots=True)
class BuildStage:
    """Build the next wonder stage, tucking ``card`` under the board."""

    card: Card
    payment: Payment = FREE

    def __str__(self) -> str:
        return f"build a wonder stage with {self.card.name}{_how(self.payment, PAY)}"

    def to_json(self) -> dict[str, object]:
        return {"action": "stage", "card": self.card.name, "age": self.card.age,
                "payment": self.payment.to_json()}


@dataclass(frozen=True, slots=True)
class Sell:
    """Discard ``card`` for coins (3 in the base game)."""

    card: Card

    def __str__(self) -> str:
        return f"sell {self.card.name}"

    def to_json(self) -> dict[str, object]:
        return {"action": "sell", "card": self.card.name, "age": self.card.age}


@dataclass(frozen=True, slots=True)
class BuildFromDiscard:
    """Build ``card`` from the discard pile for free (a wonder power)."""

    card: Card

    def __str__(self) -> str:
        return f"build {self.card.name} from the discard pile"

    def to_json(self) -> dict[str, object]:
        return {"action": "discard_build", "card": self.card.name, "age": self.card.age}


@dataclass(frozen=True, slots=True)
class Skip:
    """Decline an optional power (building from the discard pile)."""

    def __str__(self) -> str:
        return "skip"

    def to_json(self) -> dict[str, object]:
        return {"action": "skip"}


Action = Union[Build, BuildStage, Sell, BuildFromDiscard, Skip]


_INTERNED: dict[tuple[object, ...], Action] = {}
_INTERNED_LIMIT = 200_000


def _intern(key: tuple[object, ...], make: type, *args: object) -> Action:
    found = _INTERNED.get(key)
    if found is None:
        if len(_INTERNED) >= _INTERNED_LIMIT:
            _INTERNED.clear()
        found = _INTERNED[key] = make(*args)
    return found


def build(card: Card, payment: Payment, method: str = PAY) -> Build:
    """A shared Build value: actions are values, so the hot path reuses them."""
    found = _intern((card, payment.left, payment.right, payment.bank, method), Build, card,
                    payment, method)
    assert isinstance(found, Build)
    return found


def build_stage(card: Card, payment: Payment) -> BuildStage:
    found = _intern((card, payment.left, payment.right, payment.bank, "stage"), BuildStage,
                    card, payment)
    assert isinstance(found, BuildStage)
    return found


def sell(card: Card) -> Sell:
    found = _intern((card, "sell"), Sell, card)
    assert isinstance(found, Sell)
    return found


def _how(payment: Payment, method: str) -> str:
    if method == CHAIN:
        return " (free by chain)"
    if method == FREE_BUILD:
        return " (free: once-per-age power)"
    parts = []
    if payment.bank:
        parts.append(f"{payment.bank} to the bank")
    if payment.left:
        parts.append(f"{payment.left} to the left")
    if payment.right:
        parts.append(f"{payment.right} to the right")
    return f" paying {', '.join(parts)}" if parts else ""
