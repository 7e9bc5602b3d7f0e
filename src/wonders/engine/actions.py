"""Actions a player can take: small frozen values, printable and serialisable."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Final, Union, cast

from wonders.dsl.model import Card, Token, Wonder
from wonders.engine import memo
from wonders.engine.payment import FREE, Payment, shared_payment

PAY: Final = "pay"
CHAIN: Final = "chain"
FREE_BUILD: Final = "free_build"


@dataclass(frozen=True, slots=True, init=False)
class Build:
    """Build ``card`` into the city, paying ``payment`` (or free by chain or a power)."""

    card: Card
    payment: Payment = FREE
    method: str = PAY

    def __init__(self, card: Card, payment: Payment = FREE, method: str = PAY) -> None:
        # The actions the loops make during play (builds, sales, wonders, destroys) write
        # their __init__ out, setting each frozen field with object.__setattr__: compiled,
        # that costs about a tenth of the __init__ the dataclasses module generates, which
        # runs as interpreted code (docs/engine.md, "Dataclass methods").  Equality,
        # hashing and printing stay generated, and the fields stay read-only.
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "payment", payment)
        object.__setattr__(self, "method", method)

    def __str__(self) -> str:
        return f"build {self.card.name}{_how(self.payment, self.method)}"

    def to_json(self) -> dict[str, object]:
        return {"action": "build", "card": self.card.name, "age": self.card.age,
                "method": self.method, "payment": self.payment.to_json()}


@dataclass(frozen=True, slots=True, init=False)
class BuildStage:
    """Build the next wonder stage, tucking ``card`` under the board."""

    card: Card
    payment: Payment = FREE

    def __init__(self, card: Card, payment: Payment = FREE) -> None:
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "payment", payment)

    def __str__(self) -> str:
        return f"build a wonder stage with {self.card.name}{_how(self.payment, PAY)}"

    def to_json(self) -> dict[str, object]:
        return {"action": "stage", "card": self.card.name, "age": self.card.age,
                "payment": self.payment.to_json()}


@dataclass(frozen=True, slots=True, init=False)
class Sell:
    """Discard ``card`` for coins (3 in the base game)."""

    card: Card

    def __init__(self, card: Card) -> None:
        object.__setattr__(self, "card", card)

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


@dataclass(frozen=True, slots=True, init=False)
class BuildWonder:
    """Build one of the city's drafted wonders, tucking ``card`` under it."""

    card: Card
    wonder: Wonder
    payment: Payment = FREE

    def __init__(self, card: Card, wonder: Wonder, payment: Payment = FREE) -> None:
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "wonder", wonder)
        object.__setattr__(self, "payment", payment)

    def __str__(self) -> str:
        return f"build {self.wonder.name} with {self.card.name}{_how(self.payment, PAY)}"

    def to_json(self) -> dict[str, object]:
        return {"action": "wonder", "card": self.card.name, "age": self.card.age,
                "wonder": self.wonder.name, "payment": self.payment.to_json()}


@dataclass(frozen=True, slots=True)
class ChooseWonder:
    """Take a wonder in the wonder draft."""

    wonder: Wonder

    def __str__(self) -> str:
        return f"choose {self.wonder.name}"

    def to_json(self) -> dict[str, object]:
        return {"action": "choose_wonder", "wonder": self.wonder.name}


@dataclass(frozen=True, slots=True)
class TakeToken:
    """Take a token (a science pair's reward, or one drawn by an effect)."""

    token: Token

    def __str__(self) -> str:
        return f"take {self.token.name}"

    def to_json(self) -> dict[str, object]:
        return {"action": "take_token", "token": self.token.name}


@dataclass(frozen=True, slots=True, init=False)
class DestroyCard:
    """Send ``card`` from the city at ``seat`` to the discard pile (a ``destroy`` effect).

    The seat says which city loses it: with several cities in play the same card may
    stand in two of them (-1, for a value made by hand: the only city that has it)."""

    card: Card
    seat: int = -1

    def __init__(self, card: Card, seat: int = -1) -> None:
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "seat", seat)

    def __str__(self) -> str:
        return f"destroy {self.card.name}"

    def to_json(self) -> dict[str, object]:
        found: dict[str, object] = {"action": "destroy", "card": self.card.name,
                                    "age": self.card.age}
        if self.seat >= 0:
            found["seat"] = self.seat
        return found


@dataclass(frozen=True, slots=True)
class CopyCard:
    """Copy ``card`` of the city at ``seat`` (a ``now: copy …`` effect): its whole effect is
    the copying city's from then on; the card stays where it is."""

    card: Card
    seat: int

    def __str__(self) -> str:
        return f"copy {self.card.name} (player {self.seat})"

    def to_json(self) -> dict[str, object]:
        return {"action": "copy", "card": self.card.name, "age": self.card.age,
                "seat": self.seat}


@dataclass(frozen=True, slots=True)
class PayOrTake:
    """Answer a ``loses N coins or KIND tokens``: pay ``coins`` of them to the bank and take
    ``tokens`` tokens of ``kind`` for the rest."""

    coins: int
    tokens: int
    kind: str

    def __str__(self) -> str:
        paid = f"pay {self.coins} {'coin' if self.coins == 1 else 'coins'}"
        if not self.tokens:
            return paid
        return f"{paid} and take {self.tokens} {self.kind} " \
               f"{'token' if self.tokens == 1 else 'tokens'}"

    def to_json(self) -> dict[str, object]:
        return {"action": "pay_or_take", "coins": self.coins, "tokens": self.tokens,
                "kind": self.kind}


@dataclass(frozen=True, slots=True)
class ChooseStarter:
    """Say which seat starts the next age."""

    seat: int

    def __str__(self) -> str:
        return f"player {self.seat} starts the age"

    def to_json(self) -> dict[str, object]:
        return {"action": "starter", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class ChooseSide:
    """Turn one's wonder board to ``side`` before Age I (``setup.wonder_side: choose``)."""

    side: str

    def __str__(self) -> str:
        return f"choose side {self.side}"

    def to_json(self) -> dict[str, object]:
        return {"action": "side", "side": self.side}


@dataclass(frozen=True, slots=True)
class Keep:
    """Keep ``card`` in the reserve draft before Age I (the rest of the hand is passed)."""

    card: Card

    def __str__(self) -> str:
        return f"keep {self.card.name}"

    def to_json(self) -> dict[str, object]:
        return {"action": "keep", "card": self.card.name, "age": self.card.age}


# The commonest kinds first: compiled code checks a value against the members in this
# order (each list item a game loop reads back), so a build or a sale matches at once.
Action = Union[Build, Sell, BuildWonder, BuildStage, BuildFromDiscard, Skip, ChooseWonder,
               TakeToken, DestroyCard, ChooseStarter, ChooseSide, PayOrTake, Keep, CopyCard]
#: The same kinds, for telling an action from any other value.
ACTION_KINDS: Final = (Build, Sell, BuildWonder, BuildStage, BuildFromDiscard, Skip,
                       ChooseWonder, TakeToken, DestroyCard, ChooseStarter, ChooseSide,
                       PayOrTake, Keep, CopyCard)


# Actions are values: the hot path shares one object per distinct action instead of
# building thousands of equal ones (and a bot's choice is then recognised by identity;
# compiled, a dataclass's generated ``__init__`` is interpreted: docs/engine.md).
# Keys are cards (hashed by identity) and plain ints, which hash fast.
# The tables are registered with :mod:`wonders.engine.memo` (bounded, clearable): values
# are only shared, never needed, so forgetting them is safe.
_BUILDS: Final[dict[tuple[Card, int, int, int, str], Build]] = memo.table("actions.builds",
                                                                          10_000)
_STAGES: Final[dict[tuple[Card, int, int, int], BuildStage]] = memo.table("actions.stages",
                                                                          5_000)
_SELLS: Final[dict[Card, Sell]] = memo.table("actions.sells", 2_000)


def build(card: Card, payment: Payment, method: str = PAY) -> Build:
    """The shared Build value for (card, payment, method)."""
    key = (card, payment.left, payment.right, payment.bank, method)
    found = _BUILDS.get(key)
    if found is None:
        found = memo.remember(_BUILDS, key, Build(card, shared_payment(*key[1:4]), method))
    return found


def build_stage(card: Card, payment: Payment) -> BuildStage:
    """The shared BuildStage value for (card, payment)."""
    key = (card, payment.left, payment.right, payment.bank)
    found = _STAGES.get(key)
    if found is None:
        found = memo.remember(_STAGES, key, BuildStage(card, shared_payment(*key[1:])))
    return found


def build_wonder(card: Card, wonder: Wonder, bank: int) -> BuildWonder:
    """A BuildWonder value for (card, wonder, coins paid to the bank).  Not kept here: the
    card-structure flow keeps the ones it offers, by (wonder, price) and then card."""
    return BuildWonder(card, wonder, shared_payment(0, 0, bank))


_DISCARD_BUILDS: Final[dict[Card, BuildFromDiscard]] = memo.table("actions.discard_builds",
                                                                   2_000)
_TOKENS: Final[dict[Token, TakeToken]] = memo.table("actions.tokens", 1_000)
_SIDES: Final[dict[str, ChooseSide]] = memo.table("actions.sides", 100)
_STARTERS: Final[dict[int, ChooseStarter]] = memo.table("actions.starters", 100)
_CHOICES: Final[dict[Wonder, ChooseWonder]] = memo.table("actions.wonder_choices", 1_000)


def _kept(table: dict[Any, Any], key: Any, make: Callable[[Any], Any]) -> Any:
    """The shared action of ``table`` for ``key``, made by ``make(key)`` the first time
    (the actions a game makes a few times: the hot ``sell`` and ``build`` look up their
    tables directly)."""
    found = table.get(key)
    if found is None:
        found = memo.remember(table, key, make(key))
    return found


def discard_build(card: Card) -> BuildFromDiscard:
    """The shared BuildFromDiscard value for a card."""
    return cast(BuildFromDiscard, _kept(_DISCARD_BUILDS, card, BuildFromDiscard))


def take_token(token: Token) -> TakeToken:
    """The shared TakeToken value for a token."""
    return cast(TakeToken, _kept(_TOKENS, token, TakeToken))


def choose_side(side: str) -> ChooseSide:
    """The shared ChooseSide value for a side's letter."""
    return cast(ChooseSide, _kept(_SIDES, side, ChooseSide))


def choose_starter(seat: int) -> ChooseStarter:
    """The shared ChooseStarter value for a seat."""
    return cast(ChooseStarter, _kept(_STARTERS, seat, ChooseStarter))


def choose_wonder(wonder: Wonder) -> ChooseWonder:
    """The shared ChooseWonder value for a wonder."""
    return cast(ChooseWonder, _kept(_CHOICES, wonder, ChooseWonder))


def sell(card: Card) -> Sell:
    """The shared Sell value for a card."""
    found = _SELLS.get(card)
    if found is None:
        found = memo.remember(_SELLS, card, Sell(card))
    return found


def _how(payment: Payment, method: str) -> str:
    if method == CHAIN:
        return " (free by chain)"
    if method == FREE_BUILD:
        return " (free by a power: a free build)"
    parts = []
    if payment.bank:
        parts.append(f"{payment.bank} to the bank")
    if payment.left:
        parts.append(f"{payment.left} to the left")
    if payment.right:
        parts.append(f"{payment.right} to the right")
    return f" paying {', '.join(parts)}" if parts else ""


Decision = tuple[int, int, str, dict[int, Action], tuple[int, ...]]  # age, turn, phase, …


def history_records(decisions: list[Decision]) -> list[dict[str, object]]:
    """Decisions (age, turn, phase, actions by seat, coins after) as JSON-ready records:
    what ``Game.history`` gives and logs hold, for every game loop."""
    return [{"age": age, "turn": turn, "phase": phase,
             "actions": {str(s): a.to_json() for s, a in sorted(actions.items())},
             "coins": list(coins)}
            for age, turn, phase, actions, coins in decisions]
