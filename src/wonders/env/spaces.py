"""The fixed action space of a game, derived from its loaded data alone.

The slots are a function of the rule set, its card sets and the player count: every
card (told apart by name and age) crossed with what an action may do with it, every
wonder, wonder side, token, token kind, seat, and — for a dice-forum game — every
building space crossed with every die, every Wonder stage and bonus.  No game is
played to find them, so an action the engine offers always has a slot (a test plays
random games of every shipped game to check it).  See ``docs/env.md``.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Final, Iterator, Sequence, cast

from wonders.dsl.errors import WondersError
from wonders.engine.actions import (
    FREE_BUILD,
    Action,
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
)
from wonders.engine.dice_actions import BuildWonderStage, CrossSpace, Decline, Pass, TakeBonus
from wonders.engine.flow_actions import Move
from wonders.engine.randomness import mypyc_attr

if TYPE_CHECKING:
    from wonders.dsl.model import Game as GameData

Slot = tuple[Any, ...]  # one action slot: its kind and what it names

# Every decision kind the loops name (docs/engine.md), in a fixed order: the one-hot of
# the pending decision in an observation.  A kind a future loop adds gets no bit.
KNOWN_KINDS: Final = ("side", "reserve_draft", "reserve_turn", "turn", "last_card",
                      "discard_build", "destroy", "token", "debt", "reserve_build", "copy",
                      "wonder_draft", "starter", "bonus", "extra")

# More tokens than this in one ``loses N coins or KIND tokens`` answer share the last slot
# (the amount owed is the effect's plus what is counted in the losing city: below this).
DEBT_SLACK: Final = 12


class EnvError(WondersError, ValueError):
    """A misuse of the environment (an unknown agent or seat, an action index out of
    range, a wrong type, a step before ``reset()`` or after the end); the message says
    what to do instead."""


@mypyc_attr(native_class=False)  # (compiled, a RuntimeError subclass is a Python class)
class UnmappedActionError(WondersError, RuntimeError):
    """The game offered an action the action space has no slot for: a new action type
    the catalogue (:mod:`wonders.env.spaces`) must learn."""


def slot_of(action: object) -> Slot:
    """The slot an engine action fills: its kind and names, without the payment.

    Different payments for one slot are one choice of the agent (the environment pays
    the cheapest, see :meth:`ActionCatalogue.legal`); everything else is kept apart."""
    if isinstance(action, Build):
        card = action.card
        return ("build", card.name, card.age, FREE_BUILD if action.method == FREE_BUILD
                else "pay")
    if isinstance(action, Sell):
        return ("sell", action.card.name, action.card.age)
    if isinstance(action, BuildStage):
        return ("stage", action.card.name, action.card.age)
    if isinstance(action, BuildWonder):
        return ("wonder", action.card.name, action.card.age, action.wonder.name)
    if isinstance(action, BuildFromDiscard):
        return ("discard_build", action.card.name, action.card.age)
    if isinstance(action, Skip):
        return ("skip",)
    if isinstance(action, ChooseWonder):
        return ("choose_wonder", action.wonder.name)
    if isinstance(action, TakeToken):
        return ("take_token", action.token.name)
    if isinstance(action, DestroyCard):
        return ("destroy", action.card.name, action.card.age, action.seat)
    if isinstance(action, CopyCard):
        return ("copy", action.card.name, action.card.age, action.seat)
    if isinstance(action, Keep):
        return ("keep", action.card.name, action.card.age)
    if isinstance(action, PayOrTake):
        return ("pay_or_take", action.kind, action.tokens)
    if isinstance(action, ChooseStarter):
        return ("starter", action.seat)
    if isinstance(action, ChooseSide):
        return ("side", action.side)
    if isinstance(action, CrossSpace):
        return ("cross", action.building, action.space, action.die)
    if isinstance(action, TakeBonus):
        cross = action.cross
        return ("bonus", action.bonus, "" if cross is None else cross.building,
                -1 if cross is None else cross.space)
    if isinstance(action, BuildWonderStage):
        return ("dice_stage", action.stage)
    if isinstance(action, Pass):
        return ("pass",)
    if isinstance(action, Decline):
        return ("decline",)
    if isinstance(action, Move):   # a flow game's move: its verb and what it names first
        return ("move", action.verb, *action.words[:1])
    raise UnmappedActionError(f"the environment has no action slot for {action!r} (a new "
                              "action type: teach wonders/env/spaces.py's slot_of and "
                              "ActionCatalogue about it)")


def _walk(value: object, seen: set[int]) -> Iterator[object]:
    """Every object inside compiled effects (dataclasses, tuples, lists, dicts)."""
    if id(value) in seen or isinstance(value, (str, int, float, bool)) or value is None:
        return
    seen.add(id(value))
    yield value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from _walk(getattr(value, field.name, None), seen)
    elif isinstance(value, (tuple, list, frozenset, set)):
        for item in value:
            yield from _walk(item, seen)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _walk(item, seen)


def effect_objects(data: GameData) -> Iterator[object]:
    """Everything inside the compiled effects of the data's cards, tokens and wonders."""
    roots: list[object] = [card.effects for card in data.cards]
    roots += [token.effects for token in data.tokens]
    for wonder in data.wonders:
        for side in wonder.sides.values():
            roots.append(side.start)
            roots += [stage.effects for stage in side.stages]
    seen: set[int] = set()
    for root in roots:
        yield from _walk(root, seen)


def debt_slots(data: GameData) -> list[Slot]:
    """The ``pay_or_take`` slots: per token kind a ``loses N coins or KIND tokens`` names,
    one per number of tokens taken, 0 to the most coins owed (plus slack for amounts
    counted in the losing city)."""
    from wonders.dsl import effects as fx

    most: dict[str, int] = {}
    for found in effect_objects(data):
        if isinstance(found, fx.LoseCoins) and found.debt is not None:
            owed = getattr(found.amount, "fixed", 0) or 0
            most[found.debt] = max(most.get(found.debt, 0), int(owed) + DEBT_SLACK)
    return [("pay_or_take", kind, tokens) for kind in sorted(most)
            for tokens in range(most[kind] + 1)]


def targeted_colours(data: GameData) -> tuple[frozenset[str], frozenset[str]]:
    """The card colours a ``destroy`` effect and a ``copy`` effect may name: only cards of
    those colours get destroy and copy slots."""
    from wonders.dsl import effects as fx

    destroyed: set[str] = set()
    copied: set[str] = set()
    for found in effect_objects(data):
        if isinstance(found, fx.Destroy):
            destroyed |= found.colours
        elif isinstance(found, fx.CopyCard):
            copied |= found.colours
    return frozenset(destroyed), frozenset(copied)


def dice_slots(data: GameData) -> list[Slot]:
    """The slots of a dice-forum game (``data.dice``): cross each space of each building
    with each die, or with no die (a free crossing); build
    each Wonder stage; take each bonus (crossing the next space of one of its buildings);
    pass; decline."""
    dice = data.dice
    if dice is None:
        return []
    slots: list[Slot] = []
    names = [die.name for die in dice.dice]  # (a power may let any die cross anything)
    for building in dice.buildings:
        for space in range(len(building.spaces)):
            slots += [("cross", building.key, space, die) for die in ["", *names]]
    stages = max((len(board.stages) for board in dice.boards), default=0)
    slots += [("dice_stage", stage) for stage in range(stages)]
    for bonus in dice.bonuses:
        slots.append(("bonus", bonus.name, "", -1))
        for index in bonus.cross:
            building = dice.buildings[index]
            slots += [("bonus", bonus.name, building.key, space)
                      for space in range(len(building.spaces))]
    slots += [("pass",), ("decline",)]
    return slots


def flow_slots(data: GameData) -> list[Slot]:
    """The slots of a game the flow interpreter plays with components (``data.components``):
    take from each deck (where it lies from the taker, or by its Wonder), keep each card
    kind, decline, build each piece (by number; of several payments, the first offered),
    take each progress token or the stack's top (whatever cards a set spends)."""
    components = data.components
    if components is None:
        return []
    slots: list[Slot] = [("move", "take", place) for place in
                         ("left", "right", *(deck.name for deck in components.decks))]
    slots += [("move", "keep", kind.name) for kind in components.kinds]
    slots.append(("move", "decline"))
    pieces = max((len(w.pieces) for w in components.wonders), default=0)
    slots += [("move", "build", str(i + 1)) for i in range(pieces)]
    slots += [("move", "progress", name) for name in
              (*dict.fromkeys(t.name for t in components.progress), "stack")]
    return slots


def _cost(action: object) -> tuple[int, int]:
    payment = getattr(action, "payment", None)
    if payment is None:
        pay = getattr(action, "pay", None)  # a dice action's coins
        return (pay, pay) if isinstance(pay, int) else (0, 0)
    return (payment.left + payment.right + payment.bank, payment.bank)


class ActionCatalogue:
    """Every action slot of a game, in a fixed order: ``index -> slot`` and back.

    Cards are told apart by name and age (a name may come back in a later age).  In
    order: for every card, build it (paying or by chain), build it by a free-build
    power, build a wonder stage with it, sell it, build it from the discard pile, build
    each wonder with it, keep it in the reserve draft (reserve cards only); then skip,
    choose each wonder, take each token — those ids depend on the data alone; then the
    per-seat slots: destroy each card in each seat's city, copy each card from each
    seat's city (cards of the colours a ``destroy`` / ``copy`` effect names only), let
    each seat start; then choose each wonder side, pay-or-take per debt token kind and
    number of tokens, and a dice-forum game's slots (:func:`dice_slots`).
    """

    def __init__(self, data: GameData, players: int) -> None:
        cards: list[tuple[str, int]] = []
        colours: dict[tuple[str, int], str] = {}
        for card in data.cards:
            if (card.name, card.age) not in cards:
                cards.append((card.name, card.age))
                colours[(card.name, card.age)] = card.colour
        destroyed, copied = targeted_colours(data)
        reserve = {(card.name, card.age) for card in data.reserve_cards()}
        wonders = [wonder.name for wonder in data.wonders]
        tokens = [token.name for token in data.tokens]
        sides = sorted({side for wonder in data.wonders for side in wonder.sides})
        slots: list[Slot] = []
        for name, age in cards:  # (legal() reads the first five and the wonders by offset)
            slots += [("build", name, age, "pay"), ("build", name, age, FREE_BUILD),
                      ("stage", name, age), ("sell", name, age), ("discard_build", name, age)]
            slots += [("wonder", name, age, wonder) for wonder in wonders]
            if (name, age) in reserve:
                slots.append(("keep", name, age))
        slots.append(("skip",))
        slots += [("choose_wonder", wonder) for wonder in wonders]
        slots += [("take_token", token) for token in tokens]
        # the slots of a table size: after those of the data alone, which keep their ids
        for name, age in cards:
            if colours[(name, age)] in destroyed:
                slots += [("destroy", name, age, seat) for seat in range(players)]
        for name, age in cards:
            if colours[(name, age)] in copied:
                slots += [("copy", name, age, seat) for seat in range(players)]
        slots += [("starter", seat) for seat in range(players)]
        slots += [("side", side) for side in sides]
        debts = debt_slots(data)
        slots += debts
        slots += dice_slots(data)
        slots += flow_slots(data)
        self.slots: tuple[Slot, ...] = tuple(slots)
        self.index: dict[Slot, int] = {slot: i for i, slot in enumerate(slots)}
        # a card object -> the index of its first slot (build), for the common actions'
        # fast path in legal(): copies of one card are one object, hashed by identity
        self._card_base: dict[object, int] = {
            card: self.index[("build", card.name, card.age, "pay")] for card in data.cards}
        self._wonder_at: dict[object, int] = {w: i for i, w in enumerate(data.wonders)}
        # a card object -> its slots from build on (build, free build, stage, sell, from
        # the discard pile, then each wonder), boxed once: compiled, an index computed
        # above 256 would be a new int object for every legal action
        self._card_slots: dict[object, tuple[Any, ...]] = {
            card: tuple(range(base, base + 5 + len(wonders)))
            for card, base in self._card_base.items()}
        self.players = players
        # the last pay-or-take slot of each kind takes any larger number of tokens
        self._debt_last = {slot[1]: slot[2] for slot in debts}
        # engine action -> (the action, its index, its cost), by identity: the loops share
        # one object per distinct action, so a game meets few, and looking one up is cheap
        self._known: dict[int, tuple[object, int, tuple[int, int]]] = {}

    def __len__(self) -> int:
        return len(self.slots)

    def index_of(self, action: object) -> int:
        """The index of an engine action's slot (UnmappedActionError when it has none)."""
        known = self._known.get(id(action))
        if known is not None and known[0] is action:
            return known[1]
        slot = slot_of(action)
        if slot[0] == "pay_or_take":
            slot = (slot[0], slot[1], min(slot[2], self._debt_last.get(slot[1], slot[2])))
        index = self.index.get(slot)
        if index is None:
            raise UnmappedActionError(f"the action space has no slot {slot} for {action} "
                                      "(the data or the engine offers an action the "
                                      "catalogue in wonders/env/spaces.py does not derive)")
        if len(self._known) > 200_000:  # (a bound: the loops' own action tables are)
            self._known.clear()
        self._known[id(action)] = (action, index, _cost(action))
        return index

    def legal(self, actions: Sequence[Action] | Sequence[object]) -> dict[int, Any]:
        """The legal actions by slot index; of several payments for one slot, the
        cheapest in coins (then the least to the bank, then the engine's order)."""
        found: dict[Any, Any] = {}
        slots = self._card_slots
        # (a list iterated as one: compiled, natively)
        listed: list[Any] = actions if isinstance(actions, list) else list(actions)
        for action in listed:
            kind = type(action)
            index: Any
            # (each action cast to its class: compiled, its fields are then read natively)
            if kind is Build:  # (the commonest first: slots as __init__ lays them out)
                build = cast(Build, action)
                index = slots[build.card][1 if build.method == FREE_BUILD else 0]
            elif kind is Sell:
                index = slots[cast(Sell, action).card][3]
            elif kind is BuildStage:
                index = slots[cast(BuildStage, action).card][2]
            elif kind is BuildWonder:
                tuck = cast(BuildWonder, action)
                index = slots[tuck.card][5 + self._wonder_at[tuck.wonder]]
            else:
                index = self.index_of(action)
            held = found.get(index)
            if held is None:
                found[index] = action
            elif _cost(action) < _cost(held):
                found[index] = action
        return found

    def describe(self, index: int) -> str:
        """A slot in words, for people (``sell NAME (age 2)``)."""
        slot = self.slots[index]
        kind, rest = slot[0], slot[1:]
        if kind in ("build", "stage", "sell", "discard_build", "wonder", "destroy", "copy",
                    "keep"):
            text = f"{kind} {rest[0]} (age {rest[1]})"
            if kind == "build" and rest[2] == FREE_BUILD:
                text += " free"
            elif kind == "wonder":
                text += f" for {rest[2]}"
            elif kind in ("destroy", "copy"):
                text += f" of seat {rest[2]}"
            return text
        if kind == "cross":
            return f"cross {rest[0]} space {rest[1] + 1}" + (f" with the {rest[2]} die"
                                                             if rest[2] else " (no die)")
        if kind == "bonus" and rest[1]:
            return f"bonus {rest[0]}: cross {rest[1]} space {rest[2] + 1}"
        if kind == "bonus":
            return f"bonus {rest[0]}"
        return " ".join(str(part) for part in slot)

    def groups(self) -> dict[str, int]:
        """How many slots of each kind, for people (docs/env.md's table)."""
        counts: dict[str, int] = {}
        for slot in self.slots:
            counts[slot[0]] = counts.get(slot[0], 0) + 1
        return counts
