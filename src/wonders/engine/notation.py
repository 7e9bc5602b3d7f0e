"""Action notation: one short text form per action, printed and parsed, and a JSON form.

The grammar (``docs/engine.md``, "Action notation", has examples for every game):

* a verb first, then names as the data spells them (card, wonder, token, bonus and
  building keys), then modifiers: ``build <card> pay L2 R1``, ``sell <card>``;
* a payment is ``pay`` and its nonzero parts: a bare number to the bank, ``L<n>`` to the
  left neighbour, ``R<n>`` to the right (``build <card> pay 1``,
  ``wonder <wonder> with <card> pay 8``); nothing is written for a free action;
* a card taken from a hand is named alone; one in the discard pile or in a city, where
  several ages mix, with its age as :attr:`Card.key` writes it (``<card> (2)``);
* seats are ``player N``; dice spaces count from 1, like the sheets.

:func:`notation` prints; :meth:`GameState.parse_action` (every loop calls
:func:`parse_action`) reads a text back by matching it against the notation of the
seat's legal actions, so parsing is exact and never disagrees with printing: case and
runs of spaces do not matter, and the longer wording ``str(action)`` prints is accepted
too when it names one action.  :func:`to_json` and :func:`from_json` give the JSON-ready
form (the log's ``to_json`` record, and for a dice crossing its ``shortfall`` as well, so
that every value comes back equal without a game).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, Sequence

from wonders.dsl.errors import closest
from wonders.dsl.model import Card, Token, Wonder
from wonders.dsl.model import Game as GameData
from wonders.engine.actions import (
    CHAIN,
    FREE_BUILD,
    PAY,
    Build,
    BuildFromDiscard,
    BuildStage,
    BuildWonder,
    ChooseSide,
    ChooseStarter,
    ChooseWonder,
    CopyCard,
    DestroyCard,
    Keep,
    PayOrTake,
    Sell,
    Skip,
    TakeToken,
    build,
    build_stage,
    choose_side,
    choose_starter,
    choose_wonder,
    discard_build,
    sell,
    take_token,
)
from wonders.engine.contract import AnyAction
from wonders.engine.dice_actions import (
    BuildWonderStage,
    CrossSpace,
    Decline,
    Pass,
    TakeBonus,
)
from wonders.engine.errors import RuleError
from wonders.engine.flow_actions import Move
from wonders.engine.payment import Payment, shared_payment

if TYPE_CHECKING:
    from wonders.engine.contract import Decision


_METHOD_WORDS = {CHAIN: "chain", FREE_BUILD: "free"}
_SHOWN = 8   # legal actions an error lists


class Deciding(Protocol):
    """What parsing reads of a game: any loop's (the dice loop's actions are its own)."""

    players: int

    @property
    def over(self) -> bool: ...

    def decision(self) -> Decision: ...

    def legal_actions(self, seat: int) -> Sequence[Any]: ...


class NotationError(RuleError):
    """A text or JSON record that names no action (or no legal one); the message says
    what would have been understood ("did you mean …")."""


# --- printing ----------------------------------------------------------------------------

def _pay(payment: Payment) -> str:
    parts = [str(payment.bank)] if payment.bank else []
    if payment.left:
        parts.append(f"L{payment.left}")
    if payment.right:
        parts.append(f"R{payment.right}")
    return " pay " + " ".join(parts) if parts else ""


def _coins(coins: int) -> str:
    return f" pay {coins}" if coins else ""


def _kept(card: Card) -> str:
    """A card in the discard pile or a city: its name and age (ages mix there)."""
    return card.key


def _build(action: Build) -> str:
    method = _METHOD_WORDS.get(action.method)
    return f"build {action.card.name}" + (f" {method}" if method else "") + _pay(action.payment)


def _cross(action: CrossSpace) -> str:
    die = f" with {action.die}" if action.die else ""
    return f"cross {action.building} {action.space + 1}{die}{_coins(action.pay)}"


def _pay_or_take(action: PayOrTake) -> str:
    taken = f" take {action.tokens} {action.kind}" if action.tokens else ""
    return f"pay {action.coins}{taken}"


def _bonus(action: TakeBonus) -> str:
    return f"bonus {action.bonus}" + (f" {_cross(action.cross)}" if action.cross else "")


_PRINTERS: dict[type, Callable[[Any], str]] = {
    Build: _build,
    BuildStage: lambda a: f"stage {a.card.name}{_pay(a.payment)}",
    Sell: lambda a: f"sell {a.card.name}",
    BuildFromDiscard: lambda a: f"build {_kept(a.card)} from discard",
    Skip: lambda a: "skip",
    BuildWonder: lambda a: f"wonder {a.wonder.name} with {a.card.name}{_pay(a.payment)}",
    ChooseWonder: lambda a: f"choose {a.wonder.name}",
    TakeToken: lambda a: f"take {a.token.name}",
    DestroyCard: lambda a: f"destroy {_kept(a.card)}" + (
        f" of player {a.seat}" if a.seat >= 0 else ""),
    CopyCard: lambda a: f"copy {_kept(a.card)} of player {a.seat}",
    PayOrTake: _pay_or_take,
    ChooseStarter: lambda a: f"starter player {a.seat}",
    ChooseSide: lambda a: f"side {a.side}",
    Keep: lambda a: f"keep {a.card.name}",
    CrossSpace: _cross,
    Move: str,
    BuildWonderStage: lambda a: f"stage {a.stage + 1}{_coins(a.shortfall)}",
    Pass: lambda a: "pass",
    TakeBonus: _bonus,
    Decline: lambda a: "decline",
}


def notation(action: AnyAction) -> str:
    """The action's notation: ``build <card> pay L2 R1``, ``side B``, ``pass``."""
    printer = _PRINTERS.get(type(action))
    if printer is None:
        raise NotationError(f"{action!r} is not an action of this engine")
    return printer(action)


def normal(text: str) -> str:
    """A notation as parsing compares it: case folded, runs of white space one space."""
    return " ".join(text.split()).casefold()


# --- parsing -----------------------------------------------------------------------------

def legal_notations(game: Deciding, seat: int) -> dict[str, AnyAction]:
    """The seat's legal actions by their notation (in the order the loop offers them)."""
    return {notation(action): action for action in game.legal_actions(seat)}


def parse_action(game: Deciding, seat: int, text: str) -> Any:
    """The legal action of ``seat`` that ``text`` writes: the very object
    ``legal_actions(seat)`` holds, so playing it costs what a bot's choice costs.

    Raises :class:`NotationError` when ``text`` names no legal action now, with the
    closest legal notation and the options."""
    if not isinstance(text, str):
        raise NotationError(f"an action's notation is a string (e.g. 'sell <card>' or 'skip'), "
                            f"not {type(text).__name__}")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise NotationError(f"a seat is a number from 0 to {game.players - 1}, "
                            f"not {seat!r}")
    if not 0 <= seat < game.players:
        raise NotationError(f"no player {seat}: seats are 0 to {game.players - 1}")
    if game.over:
        raise NotationError(f"cannot play '{text}': the game is over")
    decision = game.decision()
    if seat not in decision.seats:
        raise NotationError(f"cannot play '{text}': player {seat} has no decision now "
                            f"({decision.wording}: seats {list(decision.seats)})")
    legal = legal_notations(game, seat)
    wanted = normal(text)
    for written, action in legal.items():
        if normal(written) == wanted:
            return action
    worded = [action for action in legal.values() if normal(str(action)) == wanted]
    if len(worded) == 1:
        return worded[0]
    if worded:
        raise NotationError(f"'{text}' is {len(worded)} actions of player {seat}: write one "
                            f"of {', '.join(repr(notation(a)) for a in worded)}")
    hint = closest(" ".join(text.split()), legal)
    shown = ", ".join(list(legal)[:_SHOWN]) + (" …" if len(legal) > _SHOWN else "")
    raise NotationError(f"player {seat} cannot play '{text}' now ({decision.wording})"
                        + (f"; did you mean '{hint}'?" if hint else "")
                        + f" ({len(legal)} legal: {shown})")


# --- JSON --------------------------------------------------------------------------------

def to_json(action: AnyAction) -> dict[str, object]:
    """The action as a JSON-ready dict: the record logs hold (``action.to_json()``), with a
    dice crossing's ``shortfall`` added (the log keeps only the sum it pays)."""
    if isinstance(action, CrossSpace):
        return _cross_json(action)
    if isinstance(action, TakeBonus):
        return {"action": "bonus", "bonus": action.bonus,
                "cross": None if action.cross is None else _cross_json(action.cross)}
    if type(action) not in _PRINTERS:
        raise NotationError(f"{action!r} is not an action of this engine")
    return action.to_json()


def _cross_json(action: CrossSpace) -> dict[str, object]:
    found = action.to_json()
    found["shortfall"] = action.shortfall
    return found


class _Record:
    """Reads the fields of one JSON record, each checked, for :func:`from_json`."""

    def __init__(self, record: Mapping[str, Any], data: GameData) -> None:
        self.record = record
        self.data = data
        self.kind = record.get("action")

    def fail(self, message: str) -> NotationError:
        return NotationError(f"action record {dict(self.record)!r}: {message}")

    def get(self, key: str, kind: type, default: Any = ...) -> Any:
        if key not in self.record:
            if default is not ...:
                return default
            raise self.fail(f"'{self.kind}' needs '{key}'")
        value = self.record[key]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)) \
                or kind is not int and not isinstance(value, kind):
            raise self.fail(f"'{key}' is a {kind.__name__}, not {value!r}")
        return value

    def seat(self, key: str = "seat", default: Any = ...) -> int:
        value: int = self.get(key, int, default)
        if value >= 0 and value >= self.data.rules.max_players:
            raise self.fail(f"no seat {value}: {self.data.rules.title} seats at most "
                            f"{self.data.rules.max_players} players")
        return value

    def card(self) -> Card:
        name: str = self.get("card", str)
        age: int = self.get("age", int)
        named = [card for card in self.data.cards if card.name == name]
        for card in named:
            if card.age == age:
                return card
        if named:
            ages = ", ".join(str(card.age) for card in named)
            raise self.fail(f"no card '{name}' of age {age} (its ages: {ages})")
        hint = closest(name, {card.name for card in self.data.cards})
        raise self.fail(f"no card '{name}' in {self.data.rules.title}"
                        + (f"; did you mean '{hint}'?" if hint else ""))

    def named(self, key: str, items: tuple[Any, ...], what: str) -> Any:
        name: str = self.get(key, str)
        for item in items:
            if item.name == name:
                return item
        hint = closest(name, [item.name for item in items])
        raise self.fail(f"no {what} '{name}' in {self.data.rules.title}"
                        + (f"; did you mean '{hint}'?" if hint else ""))

    def wonder(self) -> Wonder:
        found: Wonder = self.named("wonder", self.data.wonders, "wonder")
        return found

    def token(self) -> Token:
        found: Token = self.named("token", self.data.tokens, "token")
        return found

    def payment(self) -> Payment:
        paid = self.record.get("payment")
        if not isinstance(paid, Mapping):
            raise self.fail("'payment' is a record of left, right and bank coins")
        values = []
        for key in ("left", "right", "bank"):
            value = paid.get(key, 0)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise self.fail(f"payment '{key}' is a number of coins, not {value!r}")
            values.append(value)
        return shared_payment(*values)

    def count(self, key: str) -> int:
        value: int = self.get(key, int)
        if value < 0:
            raise self.fail(f"'{key}' is a count, not {value}")
        return value

    def cross(self) -> CrossSpace:
        building: str = self.get("building", str)
        dice = self.data.dice
        keys = [b.key for b in dice.buildings] if dice is not None else []
        if building not in keys:
            hint = closest(building, keys)
            raise self.fail(f"no building '{building}' in {self.data.rules.title}"
                            + (f"; did you mean '{hint}'?" if hint else ""))
        slot = self.record.get("slot")
        if slot is not None:
            slot = self.count("slot")
        pay = self.count("pay")
        short = self.count("shortfall") if "shortfall" in self.record else (
            pay if slot is None else -1)
        if short < 0 or short > pay:
            raise self.fail("a crossing with a die needs its 'shortfall' (the coins the "
                            "sheet's resources lack) beside 'pay': to_json() of the "
                            "notation module writes both")
        return CrossSpace(building, self.count("space"), slot, self.get("die", str, ""),
                          pay - short, short)


def _bonus_from(read: _Record) -> TakeBonus:
    bonus: str = read.get("bonus", str)
    names = [b.name for b in read.data.dice.bonuses] if read.data.dice is not None else []
    if bonus not in names:
        hint = closest(bonus, names)
        raise read.fail(f"no bonus '{bonus}' in {read.data.rules.title}"
                        + (f"; did you mean '{hint}'?" if hint else ""))
    crossed = read.record.get("cross")
    if crossed is None:
        return TakeBonus(bonus)
    if not isinstance(crossed, Mapping):
        raise read.fail("'cross' is a crossing record or null")
    return TakeBonus(bonus, _Record(crossed, read.data).cross())


def _wonder_from(read: _Record) -> AnyAction:
    """``wonder`` is a drafted wonder built with a card, or a dice sheet's next stage."""
    if "stage" in read.record:
        return BuildWonderStage(read.count("stage"), read.count("pay"))
    return BuildWonder(read.card(), read.wonder(), read.payment())


_READERS: dict[str, Callable[[_Record], AnyAction]] = {
    "build": lambda r: build(r.card(), r.payment(), r.get("method", str, PAY)),
    "stage": lambda r: build_stage(r.card(), r.payment()),
    "sell": lambda r: sell(r.card()),
    "discard_build": lambda r: discard_build(r.card()),
    "skip": lambda r: Skip(),
    "wonder": _wonder_from,
    "choose_wonder": lambda r: choose_wonder(r.wonder()),
    "take_token": lambda r: take_token(r.token()),
    "destroy": lambda r: DestroyCard(r.card(), r.seat(default=-1)),
    "copy": lambda r: CopyCard(r.card(), r.seat()),
    "pay_or_take": lambda r: PayOrTake(r.count("coins"), r.count("tokens"), r.get("kind", str)),
    "starter": lambda r: choose_starter(r.seat()),
    "side": lambda r: choose_side(r.get("side", str)),
    "keep": lambda r: Keep(r.card()),
    "cross": lambda r: r.cross(),
    "pass": lambda r: Pass(),
    "bonus": _bonus_from,
    "decline": lambda r: Decline(),
}


def from_json(data: GameData, record: Mapping[str, Any]) -> Any:
    """The action a :func:`to_json` record (or a log's ``to_json()`` record) describes,
    its cards, wonders and tokens those of ``data``; equal to the action written.

    Raises :class:`NotationError` for a record that describes no action."""
    if not isinstance(record, Mapping):
        raise NotationError(f"an action record is a JSON object, not {type(record).__name__}")
    if "words" in record:   # a move of a game the flow interpreter runs
        move = Move.from_json(record)
        if move is None:
            raise NotationError(f"action record {dict(record)!r}: a move is "
                                "{'action': VERB, 'words': [WORD, …]}, every word a string")
        return move
    read = _Record(record, data)
    kind = read.kind
    reader = _READERS.get(kind) if isinstance(kind, str) else None
    if reader is None:
        hint = closest(kind, _READERS) if isinstance(kind, str) else None
        raise read.fail(f"'action' names no kind of action ({kind!r})"
                        + (f"; did you mean '{hint}'?" if hint else "")
                        + f"; kinds: {', '.join(_READERS)}")
    if kind == "build" and read.get("method", str, PAY) not in (PAY, CHAIN, FREE_BUILD):
        raise read.fail(f"'method' is one of {PAY}, {CHAIN}, {FREE_BUILD}")
    return reader(read)


__all__ = ["AnyAction", "NotationError", "from_json", "legal_notations", "normal", "notation",
           "parse_action", "to_json"]
