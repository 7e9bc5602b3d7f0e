"""The integer action ids of a game for OpenSpiel, derived from its loaded data alone.

OpenSpiel numbers a game's actions ``0 .. num_distinct_actions - 1``, the same numbers
at every state.  Here a number names a *slot* (what the action does: build this card,
sell it, take this token, cross this space with the die in this forum slot …) and,
for the actions that pay coins to neighbours, a *way* of paying: the engine offers
every Pareto-optimal split of a price between the two neighbours, and way ``k`` is the
``k``-th of them, cheapest total first, then least to the left.  The slots come from
the rule set's cards, wonders, wonder sides, tokens, dice sheets and the table size;
nothing is learnt from sample games, and nothing here knows which game it serves.
See ``docs/openspiel.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Sequence

from wonders.dsl.effects import CountStages, CountTokens, LoseCoins
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
)
from wonders.engine.dice_actions import BuildWonderStage, CrossSpace, Decline, Pass, TakeBonus
from wonders.engine.errors import RuleError
from wonders.engine.flow_actions import Move
from wonders.engine.payment import FREE, Payment

if TYPE_CHECKING:
    from wonders.dsl.effects import Effects
    from wonders.dsl.model import Game as GameData
    from wonders.engine.contract import AnyAction

Slot = tuple[object, ...]  # what an action does, without how it pays

#: The slot of a seat that does not decide at a simultaneous node (OpenSpiel asks every
#: player for an action there; the seats outside the engine's decision give this one).
WAIT: Final[Slot] = ("wait",)


class UnmappedActionError(RuleError):
    """A legal action the catalogue has no id for (a kind of action it does not know, or
    more ways to pay than the data allows for): the catalogue must learn it."""


def _effects(data: GameData) -> list[Effects]:
    """Every effect list of the data: cards', wonder sides' and stages', tokens'."""
    found: list[Effects] = [card.effects for card in data.cards]
    for wonder in data.wonders:
        for side in wonder.sides.values():
            found.append(side.start)
            found += [stage.effects for stage in side.stages]
    found += [token.effects for token in data.tokens]
    return found


def payment_ways(data: GameData) -> int:
    """How many ways one price can be paid at most: with neighbours, the Pareto-optimal
    (left, right) splits have distinct coins to the left, each at most the most resource
    units of any cost times the trade price; bought from the bank, a price is one sum."""
    trade = data.rules.model.trade
    if trade.mechanism != "neighbours":
        return 1
    costs = [card.cost for card in data.cards]
    costs += [stage.cost for wonder in data.wonders for side in wonder.sides.values()
              for stage in side.stages]
    units = max((cost.resource_count() for cost in costs), default=0)
    return 1 + units * trade.price


def _count_bound(counted: object, data: GameData, players: int) -> int:
    """The most a ``per …`` term can count in one city: a wonder's stages; tokens, at most
    one a seat per age (victory tokens: a battle with each neighbour, ages x players is
    more); anything else, every card of the data."""
    if isinstance(counted, CountStages):
        return max((len(side.stages) for wonder in data.wonders
                    for side in wonder.sides.values()), default=0)
    if isinstance(counted, CountTokens):
        return data.rules.model.ages.count * players
    return len(data.cards)


def _cities(places: tuple[str, ...], players: int) -> int:
    """How many cities ``places`` can name at most (one for a single seat, else all)."""
    return sum(1 if place in ("self", "left", "right") else players for place in places)


def _debts(data: GameData, players: int) -> dict[str, int]:
    """Each token kind a ``loses N coins or KIND tokens`` names, with the most coins one
    such loss can ask for (its fixed part and its ``per …`` terms counted at their most)."""
    found: dict[str, int] = {}
    for effects in _effects(data):
        for effect in effects.of_type(LoseCoins):
            assert isinstance(effect, LoseCoins)
            if effect.debt is None:
                continue
            owed = 0
            for amount in (effect.amount, effect.each):
                if amount is not None:
                    owed += amount.fixed + sum(
                        term.value * _count_bound(term.counted, data, players)
                        * _cities(term.places, players) // max(term.divisor, 1)
                        for term in amount.terms)
            found[effect.debt] = max(found.get(effect.debt, 0), owed)
    return found


def slot_of(action: AnyAction) -> Slot:
    """The slot an engine action fills: its kind and what it names, without the payment."""
    if isinstance(action, Build):
        return ("build", action.card.name, action.card.age, action.method)
    if isinstance(action, Sell):
        return ("sell", action.card.name, action.card.age)
    if isinstance(action, BuildStage):
        return ("stage", action.card.name, action.card.age)
    if isinstance(action, BuildWonder):
        return ("wonder", action.card.name, action.card.age, action.wonder.name)
    if isinstance(action, BuildFromDiscard):
        return ("discard_build", action.card.name, action.card.age)
    if isinstance(action, Keep):
        return ("keep", action.card.name, action.card.age)
    if isinstance(action, DestroyCard):
        return ("destroy", action.card.name, action.card.age, action.seat)
    if isinstance(action, CopyCard):
        return ("copy", action.card.name, action.card.age, action.seat)
    if isinstance(action, Skip):
        return ("skip",)
    if isinstance(action, ChooseWonder):
        return ("choose_wonder", action.wonder.name)
    if isinstance(action, TakeToken):
        return ("take_token", action.token.name)
    if isinstance(action, ChooseStarter):
        return ("starter", action.seat)
    if isinstance(action, ChooseSide):
        return ("side", action.side)
    if isinstance(action, PayOrTake):
        return ("pay_or_take", action.kind, action.tokens)
    if isinstance(action, CrossSpace):
        return ("cross", action.building, action.space, action.slot)
    if isinstance(action, TakeBonus):
        cross = action.cross
        return ("bonus", action.bonus, None if cross is None else cross.building,
                None if cross is None else cross.space)
    if isinstance(action, BuildWonderStage):
        return ("dice_stage", action.stage)
    if isinstance(action, Pass):
        return ("pass",)
    if isinstance(action, Decline):
        return ("decline",)
    if isinstance(action, Move):   # a flow game's move: every one its own id
        return ("move", action.verb, *action.words)
    raise UnmappedActionError(f"OpenSpiel has no action id for {action!r}: a kind of action "
                              "wonders.openspiel.actions does not know yet")


def _payment(action: AnyAction) -> Payment:
    payment = getattr(action, "payment", FREE)
    assert isinstance(payment, Payment)
    return payment


def _order(action: AnyAction) -> tuple[int, int, int, int]:
    """The order of the ways to pay one slot: cheapest total, then least to the left."""
    payment = _payment(action)
    return (payment.total, payment.left, payment.right, payment.bank)


class ActionCatalogue:
    """Every action id of a game and table size: ``id -> (slot, way)`` and back.

    For every card (told apart by name and age): build it paying (one id per way to
    pay), by chain, by a free-build power; build a wonder stage with it (one id per
    way); sell it; build it from the discard pile; keep it in a reserve draft; build
    each wonder with it; destroy or copy it in each seat's city.  Then skip, each
    wonder, token, starting seat and wonder side; each number of a debt kind's tokens;
    for a dice game each space of each building crossed with the die of each forum
    slot (or with none), each bonus (and the space it crosses), each Wonder stage,
    pass and decline; last, ``wait``."""

    def __init__(self, data: GameData, players: int) -> None:
        self.ways = payment_ways(data)
        entries: list[tuple[Slot, int]] = []
        cards: list[tuple[str, int]] = []
        for card in data.cards:
            if (card.name, card.age) not in cards:
                cards.append((card.name, card.age))
        wonders = [wonder.name for wonder in data.wonders]
        for name, age in cards:
            entries += [(("build", name, age, PAY), self.ways), (("build", name, age, CHAIN), 1),
                        (("build", name, age, FREE_BUILD), 1), (("stage", name, age), self.ways),
                        (("sell", name, age), 1), (("discard_build", name, age), 1),
                        (("keep", name, age), 1)]
            entries += [(("wonder", name, age, wonder), 1) for wonder in wonders]
            entries += [((kind, name, age, seat), 1) for kind in ("destroy", "copy")
                        for seat in range(players)]
        entries.append((("skip",), 1))
        entries += [(("choose_wonder", wonder), 1) for wonder in wonders]
        entries += [(("take_token", token.name), 1) for token in data.tokens]
        entries += [(("starter", seat), 1) for seat in range(players)]
        entries += [(("side", side), 1)
                    for side in sorted({s for wonder in data.wonders for s in wonder.sides})]
        for kind, owed in sorted(_debts(data, players).items()):
            entries += [(("pay_or_take", kind, tokens), 1) for tokens in range(owed + 1)]
        dice = data.dice
        if dice is not None:
            slots: list[int | None] = [None, *range(len(dice.dice))]
            for building in dice.buildings:
                entries += [(("cross", building.key, space, slot), 1)
                            for space in range(len(building.spaces)) for slot in slots]
            for bonus in dice.bonuses:
                entries.append((("bonus", bonus.name, None, None), 1))
                for index in bonus.cross:
                    building = dice.buildings[index]
                    entries += [(("bonus", bonus.name, building.key, space), 1)
                                for space in range(len(building.spaces))]
            stages = max((len(board.stages) for board in dice.boards), default=0)
            entries += [(("dice_stage", stage), 1) for stage in range(stages)]
            entries += [(("pass",), 1), (("decline",), 1)]
        from wonders.engine.flow import every_move  # (a flow game's moves, from its data)
        entries += [(slot_of(move), 1) for move in every_move(data)]
        entries.append((WAIT, 1))
        self.first: dict[Slot, tuple[int, int]] = {}   # slot -> (its first id, its ways)
        self.slots: list[tuple[Slot, int]] = []        # id -> (slot, way)
        for slot, ways in entries:
            if slot in self.first:
                continue
            self.first[slot] = (len(self.slots), ways)
            self.slots += [(slot, way) for way in range(ways)]
        self.wait = self.first[WAIT][0]

    def __len__(self) -> int:
        return len(self.slots)

    def legal(self, actions: Sequence[AnyAction]) -> dict[int, AnyAction]:
        """The legal actions by id, in increasing id order; raises
        :class:`UnmappedActionError` for one the catalogue has no id for."""
        by_slot: dict[Slot, list[AnyAction]] = {}
        for action in actions:
            by_slot.setdefault(slot_of(action), []).append(action)
        found: dict[int, AnyAction] = {}
        for slot, group in by_slot.items():
            entry = self.first.get(slot)
            if entry is None:
                raise UnmappedActionError(f"OpenSpiel has no action id for {group[0]} "
                                          f"(slot {slot}): the data does not name it")
            first, ways = entry
            if len(group) > ways:
                raise UnmappedActionError(
                    f"{len(group)} ways to pay for {slot} but the data allows for {ways}: "
                    f"{', '.join(str(a) for a in group)}")
            group.sort(key=_order)
            for way, action in enumerate(group):
                found[first + way] = action
        return dict(sorted(found.items()))

    def describe(self, action_id: int) -> str:
        """An id in words, whatever the state (``sell NAME (age 1)``, ``… (way 2 of paying)``)."""
        if not 0 <= action_id < len(self.slots):
            raise UnmappedActionError(f"action id {action_id} is outside 0..{len(self.slots) - 1}")
        slot, way = self.slots[action_id]
        kind, rest = str(slot[0]), slot[1:]
        if kind in ("build", "stage", "sell", "discard_build", "keep", "wonder", "destroy",
                    "copy"):
            text = f"{kind} {rest[0]} (age {rest[1]})"
            if kind == "build" and rest[2] != PAY:
                text += f" by {rest[2]}"
            elif kind == "wonder":
                text += f" for {rest[2]}"
            elif kind in ("destroy", "copy"):
                text += f" of seat {rest[2]}"
        elif kind == "cross":
            text = f"cross {rest[0]} space {int(str(rest[1])) + 1}"
            if rest[2] is not None:
                text += f" with the die in forum slot {rest[2]}"
        else:
            text = " ".join(str(part) for part in slot if part is not None)
        ways = self.first[slot][1]
        return text + (f" (way {way + 1} of paying)" if ways > 1 else "")


__all__ = ["WAIT", "ActionCatalogue", "UnmappedActionError", "payment_ways", "slot_of"]
