"""The dice-forum game loop: a shared forum of dice, simultaneous turns, player sheets.

A thin orchestrator of generic mechanisms (:mod:`.mechanisms.forum` shakes the dice
into priced quadrants, :mod:`.mechanisms.sheet` finds the spaces a face may cross and
what they cost, :mod:`.mechanisms.reserve` bounds the coins a player holds,
:mod:`.mechanisms.gates` compares progress with the neighbours,
:mod:`.mechanisms.attacks` scores attacks against defences, :mod:`.mechanisms.
end_trigger` ends the game some turns after a count is reached), playing the data of a
rule set with ``offer: dice`` (its ``forum`` and ``sheets`` files, ``Game.dice``).

A turn: the forum is shaken, then every seat decides at once (``turn``): cross a space
with a die of the forum (paying the die's price and one coin per resource type
lacking), build the next Wonder stage, or pass.  Actions resolve in seat order, but
nothing one seat does this turn changes another's options: gates and defences are read
from the counts at the start of the turn.  Follow-ups come next, each a decision of the
seats concerned: a completed building lets its owner take a bonus (``bonus``), an
ability gives another action (``extra``).  At the end of the turn dice unlocked for the
first time join the forum; the end trigger decides whether another turn is played.

It implements the game contract (:mod:`.contract`); everything a seat could know is
public, so a view is the whole table and a determinization only reseeds the future
shakes of the forum.
"""

from __future__ import annotations

import random
from typing import Any, Final, Iterator, Mapping, Sequence, Union

from wonders.dsl import effects as fx
from wonders.dsl.model import Card, Token
from wonders.dsl.model import Game as GameData
from wonders.dsl.sheets_model import Board, Crossing, DiceSet, Gains
from wonders.engine import runtime
from wonders.engine.city import City
from wonders.engine.contract import Decision
from wonders.engine.dice_actions import (
    BuildWonderStage,
    CrossSpace,
    Decline,
    DiceAction,
    Pass,
    TakeBonus,
)
from wonders.engine.drafted_city import NO_BOARD, NO_SIDE
from wonders.engine.errors import IllegalActionError, RuleError, check_seat
from wonders.engine.mechanisms.attacks import OPPOSITE, attack_points
from wonders.engine.mechanisms.end_trigger import EndTrigger
from wonders.engine.mechanisms.forum import DicePool
from wonders.engine.mechanisms.gates import compare_met
from wonders.engine.mechanisms.reserve import gained
from wonders.engine.mechanisms.sheet import first_open, groups, shortfall
from wonders.engine.randomness import sample, seeded
from wonders.engine.scoring import ScoreSheet, amount

# (Final: compiled, each use is a constant rather than a look-up in the module's dict)
TURN: Final = "turn"
BONUS: Final = "bonus"
EXTRA: Final = "extra"
OVER: Final = "over"
ANY_ACTION: Final = "any"      # a follow-up: any action with the forum as it lies
FREE_DIE: Final = "free_die"   # a follow-up: cross with a die without paying its price
_WORDING = {TURN: "choosing a die, a wonder stage or to pass", BONUS: "choosing a bonus",
            EXTRA: "taking another action", OVER: "the game is over"}
WONDER_LINE: Final = "wonder"
BONUS_LINE: Final = "bonuses"
PASS: Final = Pass()        # actions are values: one object each
DECLINE: Final = Decline()
_END: Final = fx.Timing.END
NO_CAP: Final = 1 << 40   # a die price without a cap (DiceCity.die_cap)
# the ability an effect names -> the follow-up it gives
ABILITIES = {"extra_action": ANY_ACTION, "free_die": FREE_DIE}
# a follow-up waiting for a seat: a bonus, an ability's action, or spaces to cross
FollowUp = Union[str, Crossing]
# what the forum offers a turn, per die: slot, die index, colour to unlock ("" none), the
# buildings compared (empty: no gate), price, colour, and per building its face may cross,
# (building, groups of spaces)
Lying = tuple[int, int, str, tuple[int, ...], int, str,
              tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]]


class _Tables:
    """What the loop computes once per data set: each die face's groups of spaces, each
    building's space costs and index by key, and the actions already made (actions are
    values: one shared object per distinct action)."""

    def __init__(self, dice: DiceSet) -> None:
        self.dice = dice
        self.face_groups = [[tuple((b, groups(dice.buildings[b], f.symbol)) for b in f.buildings)
                             for f in die.faces] for die in dice.dice]
        self.any_groups = [groups(b, None) for b in dice.buildings]
        self.costs = [[s.cost for s in b.spaces] for b in dice.buildings]
        self.index = {b.key: i for i, b in enumerate(dice.buildings)}
        self.crossings: dict[int, CrossSpace] = {}
        self.stages: dict[int, BuildWonderStage] = {}
        self.takes: dict[int, TakeBonus] = {}
        self.follows: dict[int, CrossSpace] = {}
        # the crossing actions of dice in a grid of lists (an int key of a dict is boxed
        # on every look-up): per building, space and die a row, made when first needed,
        # indexed by slot, price and shortfall; anything outside its bounds (a position
        # set by hand) goes through ``crossings``
        self.spaces = max((len(b.spaces) for b in dice.buildings), default=0)
        self.kinds = len(dice.dice)
        self.slots = len(dice.dice)
        self.prices = max(dice.quadrants, default=0) + 1
        self.shorts = max((s.cost for b in dice.buildings for s in b.spaces), default=0) + 1
        self.grid: list[list[CrossSpace | None] | None] = \
            [None] * (len(dice.buildings) * self.spaces * self.kinds)

    def stage(self, stage: int, short: int) -> BuildWonderStage:
        """The shared action building Wonder stage ``stage`` for ``short`` coins (one was
        made at every decision of every seat: 7 % of a game's instructions)."""
        key = stage * 1024 + short
        found = self.stages.get(key)
        if found is None:
            found = self.stages[key] = BuildWonderStage(stage, short)
        return found

    def take(self, bonus: int, b: int, i: int, short: int) -> TakeBonus:
        """The shared action taking bonus ``bonus`` (crossing space ``i`` of building ``b``
        for ``short`` coins when it crosses one; ``b`` is -1 when it does not)."""
        key = ((bonus * 32 + b + 1) * 32 + i) * 1024 + short
        found = self.takes.get(key)
        if found is None:
            name = self.dice.bonuses[bonus].name
            if b < 0:
                found = TakeBonus(name)
            else:
                building = self.dice.buildings[b]
                found = TakeBonus(name, CrossSpace(building.key, i, None, "", 0, short))
            self.takes[key] = found
        return found

    def follow(self, b: int, i: int, short: int) -> CrossSpace:
        """The shared action crossing space ``i`` of building ``b`` without a die, for
        ``short`` coins (a crossing follow-up's)."""
        key = (b * 32 + i) * 1024 + short
        found = self.follows.get(key)
        if found is None:
            found = self.follows[key] = CrossSpace(self.dice.buildings[b].key, i, None, "",
                                                   0, short, b)
        return found

    def cross(self, b: int, i: int, slot: int, die: int, price: int, short: int) -> CrossSpace:
        """The shared action crossing space ``i`` of building ``b`` with die ``die`` lying
        in forum slot ``slot``, for ``price`` + ``short`` coins."""
        if 0 <= slot < self.slots and 0 <= price < self.prices and 0 <= short < self.shorts \
                and 0 <= i < self.spaces:
            where = (b * self.spaces + i) * self.kinds + die
            row = self.grid[where]
            if row is None:
                row = [None] * (self.slots * self.prices * self.shorts)
                self.grid[where] = row
            at = (slot * self.prices + price) * self.shorts + short
            made = row[at]
            if made is None:
                made = CrossSpace(self.dice.buildings[b].key, i, slot, self.dice.dice[die].name,
                                  price, short, b)
                row[at] = made
            return made
        # one int for the six small numbers (schema bounds: 30 buildings and dice, 30
        # spaces, prices below 100, shortfalls below 10): no tuple to build and hash
        key = ((((b * 32 + i) * 32 + slot) * 32 + die) * 128 + price) * 16 + short
        found = self.crossings.get(key)
        if found is None:
            if len(self.crossings) > 100_000:
                self.crossings.clear()
            found = self.crossings[key] = CrossSpace(self.dice.buildings[b].key, i, slot,
                                                     self.dice.dice[die].name, price, short,
                                                     b)
        return found


def _tables(data: GameData, dice: DiceSet) -> _Tables:
    found = data.derived.get("dice_tables")
    if not isinstance(found, _Tables):
        found = _Tables(dice)
        data.derived["dice_tables"] = found
    return found


# A sheet has no cards, tokens or copies: the city fields it inherits share these (never
# changed: nothing adds a card to a sheet), so a sheet and its copies make none.
_NO_CARDS: Final[list[Card]] = []
_NO_TOKENS: Final[list[tuple[str, int]]] = []
_NO_AGES: Final[set[int]] = set()
_NO_OWNED: Final[list[Token]] = []


class DiceCity(City):
    """One seat's sheet: spaces crossed, Wonder stages, resources, coins, bonuses.

    A :class:`~wonders.engine.city.City` for the effect runtime and scoring, which count
    in it (:meth:`count`): a crossed space counts as a card of its building's colour."""

    def __init__(self, seat: int, board: Board, dice: DiceSet | None, coins: int, *,
                 source: DiceCity | None = None) -> None:
        """A fresh sheet, or with ``source`` a copy of that one (what :meth:`clone` makes:
        a compiled class has no ``__new__`` trick, and an empty shell filled afterwards
        would make every container twice)."""
        super().__init__(seat, NO_BOARD, NO_SIDE, coins, _NO_CARDS, 0, _NO_TOKENS, _NO_AGES,
                         _NO_CARDS, None, 0, 0, _NO_OWNED, _NO_CARDS)
        self.board = board
        if source is not None:
            # the rows are shared: a row is never changed in place (``DiceGame._cross``
            # replaces the row it crosses a space of), and a greedy policy's trial changes one
            self.crossed: list[list[bool]] = list(source.crossed)
            self.counts: list[int] = list(source.counts)
            self.colours: dict[str, int] = dict(source.colours)
            self.stages = source.stages
            self.resources: list[str] = list(source.resources)
            self.bonuses: list[bool] = list(source.bonuses)
            self.unlocked: list[str] = list(source.unlocked)
            self.defences: dict[str, int] = dict(source.defences)
            self.attacks: dict[str, int] = dict(source.attacks)
            self.points: list[tuple[str, fx.Amount]] = list(source.points)
            self.discount: int = source.discount
            self.colour_less: dict[str, int] = dict(source.colour_less)
            self.colour_most: dict[str, int] = dict(source.colour_most)
            self.die_gains: dict[str, int] = dict(source.die_gains)
            self.die_off: list[int] = source.die_off   # (never changed in place: shared)
            self.die_cap: list[int] = source.die_cap
            return
        assert dice is not None, "a fresh sheet needs the dice set"
        self.crossed = [[False] * len(b.spaces) for b in dice.buildings]
        self.counts = [0] * len(dice.buildings)
        self.colours = {}
        self.resources = []
        self.bonuses = [False] * len(dice.bonuses)
        self.unlocked = []
        self.defences = {"left": 0, "right": 0}
        self.attacks = {}     # score line -> points noted (attacks, firsts)
        self.points = []   # end points: (line, amount)
        self.discount = 0     # coins off every die
        self.colour_less = {}   # die colour -> coins off
        self.colour_most = {}   # die colour -> the most such a die costs
        self.die_gains = {}     # die colour -> coins gained on choosing one
        # by die (index into the dice set), what the above make of its price: coins off
        # (every die's and its colour's) and the most it costs (NO_CAP: no cap)
        self.die_off = [0] * len(dice.dice)
        self.die_cap = [NO_CAP] * len(dice.dice)

    def count(self, counted: fx.Counted) -> int:
        """What an amount counts on a sheet: crossed spaces (of some colours), Wonder
        stages, coins; nothing else is on a sheet."""
        if isinstance(counted, fx.CountCards):
            return self.cards_of(counted.colours)
        if isinstance(counted, fx.CountStages):
            return self.stages
        if isinstance(counted, fx.CountCoins):
            return self.coins
        return 0

    def sources(self) -> Iterator[tuple[str, object, fx.Effects]]:
        """None: a sheet's effects act as its spaces and stages are crossed, and its end
        points are noted on it (a city's sources would read a board's stages it has not)."""
        yield from ()

    def cards_of(self, colours: frozenset[str] | None) -> int:
        """Crossed spaces of buildings of these colours (None: every building's)."""
        if colours is None:
            return sum(self.counts)
        return sum(self.colours.get(c, 0) for c in colours)

    def clone(self) -> "DiceCity":
        return DiceCity(self.seat, self.board, None, self.coins, source=self)

    def wonder_states(self) -> list[tuple[str, str]]:
        """The board played, for statistics by board (boards have one side)."""
        return [(self.board.name, "A")]

    def label(self) -> str:
        return f"{self.seat}: {self.board.name}"

    def summary(self) -> dict[str, object]:
        return {"board": self.board.name, "stages": self.stages,
                "bonuses": sum(self.bonuses)}

    def sheet_json(self, dice: DiceSet) -> dict[str, object]:
        return {
            "seat": self.seat, "board": self.board.name, "coins": self.coins,
            "stages": self.stages, "resources": list(self.resources),
            "crossed": {b.key: [i for i, x in enumerate(self.crossed[k]) if x]
                        for k, b in enumerate(dice.buildings)},
            "bonuses": [dice.bonuses[i].name for i, x in enumerate(self.bonuses) if x],
            "unlocked": list(self.unlocked), "attacks": dict(self.attacks),
            "die_discount": self.discount,
            "die_discounts": dict(self.colour_less), "die_at_most": dict(self.colour_most),
            "die_gains": dict(self.die_gains),
        }


class DiceGame(runtime.Table):
    """A game of a rule set with ``offer: dice`` (see the module's docstring)."""

    def __init__(self, data: GameData, players: int, seed: int = 0, *,
                 sides: object = None, source: DiceGame | None = None) -> None:
        """Set up a game, or with ``source`` copy that one (what :meth:`clone` makes: a
        compiled class has no ``__new__`` trick and no ``__dict__``, and an empty game
        filled afterwards would make every part twice)."""
        rules = data.rules
        dice = data.dice
        if dice is None:
            raise RuleError(f"rule set '{rules.name}' has no forum and sheets to play with")
        self.data = data
        self.dice = dice
        self.players = players
        # the effect runtime's table (runtime.Table): coins, resource types and abilities
        # act as their space or stage is crossed; no shields, science, pools
        self.arrival_ongoing = False
        self.arrival_lasting = True
        self.pools = {}
        self.quiet = False   # a preset space (preset): its coins and follow-ups were had
        self.seed = seed
        self._legal: dict[int, list[DiceAction]] = {}
        self._everyone: tuple[int, ...] = tuple(range(players))   # a turn's seats
        if source is not None:
            self._copy(source)
            return
        self.tables = _tables(data, dice)
        self.age = 1
        self.turn = 1
        self.discard: list[Card] = []
        self.bank_paid = 0
        self.bank_gave = 0
        model = rules.model
        self.order: tuple[str, ...] = model.score.order
        self.lines: tuple[str, ...] = ()
        self.tie_break: tuple[str, ...] = model.tie_break
        self.start_coins = 0
        self.sheets: list[DiceCity] = []
        self.forum = DicePool(dice)
        self.trigger = EndTrigger(dice.end_bonuses, dice.extra_turns, dice.max_turns)
        self.pending: list[list[FollowUp]] = []   # follow-ups by seat
        self.arriving: list[int] = []    # dice unlocked this turn, joining at its end
        self.phase = TURN
        self.seats: tuple[int, ...] = ()
        self.records: list[tuple[int, str, dict[int, DiceAction], tuple[int, ...]]] = []
        self._score: ScoreSheet | None = None
        self.snap_counts: list[list[int]] = []
        self.snap_defences: list[dict[str, int]] = []
        self.lying: list[Lying] = []
        self.set_generator(seeded(seed))
        if not rules.min_players <= players <= rules.max_players:
            raise RuleError(f"{rules.title} is for {rules.min_players}–{rules.max_players} "
                            f"players, not {players}")
        if sides is not None:
            raise RuleError(f"{rules.title}'s boards have no sides to choose ({sides!r})")
        if len(dice.boards) < players:
            raise RuleError(f"{len(dice.boards)} boards for {players} players")
        # each building's score line (score.colours by its colour; the first line else)
        self.lines = tuple(self._line(model.score.colours.get(b.colour))
                           for b in dice.buildings)
        start = gained(0, model.setup.coins, dice.reserve)
        self.start_coins = start * players
        boards = sample(self.generator(), range(len(dice.boards)), players)
        self.sheets = [DiceCity(s, dice.boards[b], dice, start) for s, b in enumerate(boards)]
        self.pending = [[] for _ in range(players)]
        self.seats = tuple(range(players))
        self._start_turn()

    # --- the contract ----------------------------------------------------------------

    @property
    def cities(self) -> Sequence[Any]:
        return self.sheets

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def history(self) -> list[dict[str, Any]]:
        return [{"age": 1, "turn": turn, "phase": phase,
                 "actions": {str(s): a.to_json() for s, a in sorted(actions.items())},
                 "coins": list(coins)} for turn, phase, actions, coins in self.records]

    def decision(self) -> Decision:
        return Decision(self.phase, self.seats, _WORDING[self.phase])

    def to_move(self) -> list[int]:
        return list(self.seats)

    # what push() kept to take decisions back (None: nothing pushed); see engine/undo.py
    _undo: list[Any] | None = None

    def push(self, actions: Mapping[int, DiceAction]) -> None:
        """Play ``actions`` as :meth:`play` does, keeping what :meth:`pop` needs to take
        them back (:mod:`wonders.engine.undo`)."""
        from wonders.engine.undo import push
        push(self, actions)

    def pop(self) -> dict[int, DiceAction]:
        """Take the last pushed decision back, in place; the actions it played."""
        from wonders.engine.undo import pop
        return pop(self)

    def undo(self, decisions: Any = 1) -> list[dict[int, DiceAction]]:
        """Take the last ``decisions`` pushed decisions back; their actions, newest first."""
        from wonders.engine.undo import undo
        return undo(self, decisions)

    def parse_action(self, seat: Any, text: Any) -> DiceAction:
        """The legal action of ``seat`` that ``text`` writes in the action notation
        (:mod:`wonders.engine.notation`), e.g. ``build <card> pay L2 R1``.  (Typed Any:
        compiled, a wrong type is then the notation's error, not a bare TypeError.)"""
        from wonders.engine.notation import parse_action
        found: DiceAction = parse_action(self, seat, text)
        return found

    def legal_actions(self, seat: int) -> list[DiceAction]:
        found = self._legal.get(seat)
        if found is None:
            if seat not in self.seats:
                return []
            found = self._legal[seat] = self._options(seat)
        return found

    def check(self, seat: int, action: object) -> None:
        if seat not in self.seats:
            raise IllegalActionError(seat, action, "it is not this player's decision "
                                     f"({_WORDING[self.phase]}: seats {list(self.seats)})")
        if action not in self.legal_actions(seat):
            raise IllegalActionError(seat, action, self._why(seat, action))

    # --- why an action is refused -------------------------------------------------------

    def _why(self, seat: int, action: object) -> str:
        """The reason ``action`` is not one of ``seat``'s options (as the other loops say
        theirs): the decision, the die, its gate, the space, the coins."""
        options = self.legal_actions(seat)
        listed = ", ".join(str(a) for a in options[:8]) + (" …" if len(options) > 8 else "")
        fallback = f"not one of the options ({listed})"
        follow = self.pending[seat][0] if self.phase != TURN and self.pending[seat] else None
        if self.phase == BONUS:
            if not isinstance(action, TakeBonus):
                return f"a completed building's bonus is chosen now ({listed})"
            return self._why_bonus(seat, action) or fallback
        if isinstance(action, TakeBonus):
            return "a bonus is taken only after completing a building"
        if isinstance(action, Decline):
            return "there is nothing to decline: " + _WORDING[self.phase]
        if isinstance(follow, Crossing):
            if not isinstance(action, CrossSpace) or action.slot is not None:
                return (f"a space of {self._names(follow.buildings)} is crossed now, without "
                        f"a die, or declined ({listed})")
            b = self.tables.index.get(action.building)
            if b is None or b not in follow.buildings:
                return f"this crossing takes a space of {self._names(follow.buildings)}"
            return self._why_space(seat, b, action, None) or fallback
        if follow == FREE_DIE and not isinstance(action, CrossSpace):
            return "a die of the forum is chosen now without paying its price, or declined"
        if isinstance(action, BuildWonderStage):
            return self._why_stage(seat, action) or fallback
        if isinstance(action, CrossSpace):
            return self._why_cross(seat, action, follow == FREE_DIE) or fallback
        return fallback

    def _names(self, buildings: Sequence[int]) -> str:
        return " or ".join(self.dice.buildings[b].key for b in buildings)

    def _why_stage(self, seat: int, action: BuildWonderStage) -> str | None:
        city = self.sheets[seat]
        stages = city.board.stages
        if city.stages >= len(stages):
            return f"every stage of {city.board.name}'s Wonder is built"
        if action.stage != city.stages:
            return (f"stages are built in order: the next is stage {city.stages + 1}, not "
                    f"{action.stage + 1}")
        return self._why_coins(seat, 0, stages[city.stages].cost, action.shortfall)

    def _why_coins(self, seat: int, price: int, cost: int, claimed: int) -> str | None:
        """Too few coins for a die's ``price`` and a cost of ``cost`` types, or a payment
        that is not what it costs (``claimed``: the shortfall the action says it pays)."""
        city = self.sheets[seat]
        short = shortfall(cost, len(city.resources))
        pay = price + short
        parts = [f"the die's price {price}"] if price else []
        parts.append(f"{short} resource type{'s' if short != 1 else ''} lacking of {cost}")
        if pay > city.coins:
            return (f"it costs {pay} coin{'s' if pay != 1 else ''} ({' + '.join(parts)}) and "
                    f"player {seat} has {city.coins}")
        if claimed != short:
            return f"it costs {pay} coins ({' + '.join(parts)}), not {price + claimed}"
        return None

    def _why_space(self, seat: int, b: int, action: CrossSpace,
                   spaces: tuple[tuple[int, ...], ...] | None,
                   symbol: str | None = None) -> str | None:
        """Why space ``action.space`` of building ``b`` cannot be crossed (by a face with
        ``symbol`` whose groups are ``spaces``; None: the next space of any symbol)."""
        building = self.dice.buildings[b]
        city = self.sheets[seat]
        i = action.space
        if not 0 <= i < len(building.spaces):
            return f"{building.key} has spaces 1 to {len(building.spaces)}"
        if city.crossed[b][i]:
            return f"{building.key} space {i + 1} is crossed already"
        allowed = first_open(spaces if spaces is not None else self.tables.any_groups[b],
                             city.crossed[b])
        if i not in allowed:
            taking = f"taking {symbol}" if symbol else "of each symbol"
            if not allowed:
                return f"no space of {building.key} {taking} is left to cross"
            which = ", ".join(str(j + 1) for j in sorted(allowed))
            order = f"any space {taking}" if building.order == "any" else \
                f"the next space in order {taking}"
            return (f"it may cross {building.key} space {which} ({order}), not space {i + 1}")
        return None

    def _why_cross(self, seat: int, action: CrossSpace, free: bool) -> str | None:
        b = self.tables.index.get(action.building)
        if b is None:
            return f"there is no building '{action.building}'"
        slot = action.slot
        forum = self.forum
        if slot is None or not 0 <= slot < len(forum.slots):
            return "a space is crossed with a die of the forum (or a bonus, or a follow-up)"
        lying = self.lying[slot]
        die = self.dice.dice[lying[1]]
        if die.name != action.die:
            return f"the die in forum slot {slot + 1} is the {die.name} die, not {action.die}"
        city = self.sheets[seat]
        lock, compare = lying[2], lying[3]
        if lock and lock not in city.unlocked:
            return (f"the {die.name} die is locked: only a player who unlocked it may choose "
                    "it")
        if compare and not self._gate(seat, compare):
            gated = self._names([t for t, _ in lying[6]])
            return self._why_gate(seat, f"the {die.name} die's gate to {gated}", compare)
        face = die.faces[forum.faces[slot]]
        targets = dict(lying[6])
        if b not in targets:
            return (f"the {die.name} die shows {self.dice.face_words(face)}: it does not "
                    f"cross {action.building}")
        refused = self._why_space(seat, b, action, targets[b], face.symbol)
        if refused is not None:
            return refused
        price = 0 if free else self.die_price(seat, lying[4], lying[5])
        if action.die_price != price:
            return (f"the {die.name} die costs player {seat} {price} coin"
                    f"{'s' if price != 1 else ''}, not {action.die_price}")
        return self._why_coins(seat, price, self.dice.buildings[b].spaces[action.space].cost,
                               action.shortfall)

    def _why_gate(self, seat: int, gate: str, compare: tuple[int, ...]) -> str:
        what = " + ".join(self.dice.key_of(b) for b in compare)
        counts = self.snap_counts
        mine = sum(counts[seat][b] for b in compare)
        n = self.players
        if n == 2:
            theirs = sum(counts[1 - seat][b] for b in compare)
            rule = self.dice.compare_two_players
            return (f"{gate}: {what} needs "
                    f"{'strictly more than' if rule == 'more' else 'at least as many as'} the "
                    f"opponent's at the start of the turn ({mine} against {theirs})")
        left = sum(counts[(seat + 1) % n][b] for b in compare)
        right = sum(counts[(seat - 1) % n][b] for b in compare)
        rule = self.dice.compare_neighbours
        return (f"{gate}: {what} needs "
                f"{'strictly more than' if rule == 'more' else 'at least as many as'} each "
                f"neighbour's at the start of the turn ({mine} against {left} on the left and "
                f"{right} on the right)")

    def _why_bonus(self, seat: int, action: TakeBonus) -> str | None:
        dice = self.dice
        names = [b.name for b in dice.bonuses]
        if action.bonus not in names:
            return f"there is no bonus '{action.bonus}' ({', '.join(names)})"
        j = names.index(action.bonus)
        city = self.sheets[seat]
        if city.bonuses[j]:
            return f"bonus {action.bonus} is crossed already (each is taken once)"
        bonus = dice.bonuses[j]
        if not bonus.cross:
            return None
        if action.cross is None:
            return f"bonus {action.bonus} crosses a space of {self._names(bonus.cross)}"
        b = self.tables.index.get(action.cross.building)
        if b is None or b not in bonus.cross:
            return f"bonus {action.bonus} crosses a space of {self._names(bonus.cross)}"
        return self._why_space(seat, b, action.cross, None) or self._why_coins(
            seat, 0, dice.buildings[b].spaces[action.cross.space].cost, action.cross.shortfall)

    def play(self, actions: Mapping[int, Any]) -> None:
        if self.phase == OVER:
            raise RuleError("the game is over")
        if len(actions) != len(self.seats) or any(s not in actions for s in self.seats):
            raise RuleError(f"expected one action from each of seats {list(self.seats)} "
                            f"({_WORDING[self.phase]}), got seats {sorted(actions)}")
        chosen: dict[int, DiceAction] = {}
        given: dict[int, Any] = actions if isinstance(actions, dict) else dict(actions)
        for seat in self.seats:
            action = given[seat]   # (compiled: a native dict lookup, not Mapping's)
            known = False
            for offered in self.legal_actions(seat):
                if offered is action:
                    known = True
                    break
            if not known:
                self.check(seat, action)
            chosen[seat] = action
        phase = self.phase
        if phase == TURN:
            for seat in self.seats:
                self._apply(seat, chosen[seat], None)
        else:
            follows = [self.pending[seat].pop(0) for seat in self.seats]
            for k, seat in enumerate(self.seats):
                self._apply(seat, chosen[seat], follows[k])
        coins = [city.coins for city in self.sheets]
        self.records.append((self.turn, phase, chosen, tuple(coins)))
        self._legal = {}
        self._score = None
        self._advance()

    def score_sheet(self) -> ScoreSheet:
        if self._score is None:
            self._score = self._scores()
        return self._score

    def view(self, seat: Any) -> dict[str, Any]:
        """Everything is public in a dice-forum game: the forum and every sheet."""
        return self._view(check_seat(seat, self.players))

    def _view(self, seat: int) -> dict[str, Any]:
        return {"seat": seat, "turn": self.turn, "phase": self.phase,
                "to_move": list(self.seats), "forum": self.forum.to_json(),
                "last_turn": (self.trigger.triggered + self.trigger.extra
                              if self.trigger.triggered >= 0 else None),
                "cities": [c.sheet_json(self.dice) for c in self.sheets]}

    def clone(self) -> "DiceGame":
        """An independent copy (made by :meth:`_copy`)."""
        return DiceGame(self.data, self.players, self.seed, source=self)

    def _copy(self, source: DiceGame) -> None:
        """Every field of ``source`` not set by the constructor already, copied
        (tests/test_clone_fields.py)."""
        source.share_generator(self)
        self.tables = source.tables
        self.age = source.age
        self.turn = source.turn
        self.discard = list(source.discard)
        self.bank_paid = source.bank_paid
        self.bank_gave = source.bank_gave
        self.order = source.order
        self.lines = source.lines
        self.tie_break = source.tie_break
        self.start_coins = source.start_coins
        self.sheets = [c.clone() for c in source.sheets]
        self.forum = source.forum.clone()
        self.trigger = EndTrigger(source.trigger.needed, source.trigger.extra,
                                  source.trigger.limit, source.trigger.triggered)
        self.pending = [list(p) for p in source.pending]
        self.arriving = list(source.arriving)
        self.phase = source.phase
        self.seats = source.seats
        self.records = list(source.records)
        self._score = source._score
        self.snap_counts = [list(c) for c in source.snap_counts]
        self.snap_defences = [dict(d) for d in source.snap_defences]
        self.lying = list(source.lying)

    def determinize(self, seat: int, rng: random.Random) -> "DiceGame":
        """Nothing is hidden but the future: the clone shakes the forum with a new seed."""
        other = self.clone()
        other.set_generator(seeded(rng.getrandbits(64)))
        return other

    def setup_record(self) -> dict[str, Any]:
        return {"seats": [{"seat": c.seat, "board": c.board.name} for c in self.sheets]}

    def invalidate(self) -> None:
        self._lay()   # (a scenario may have set the forum by hand)
        self._legal = {}
        self._score = None

    def offer_cards(self) -> list[Card]:
        return []

    def card_places(self, seat: int) -> dict[str, tuple[bool, list[Card]]]:
        return {}

    # --- for bots and people --------------------------------------------------------

    def trial(self, seat: int, action: DiceAction) -> "DiceGame":
        """A clone in which ``seat`` alone has taken ``action`` (the decision stays open:
        for valuing one seat's options; its follow-ups wait in ``pending``)."""
        other = self.clone()
        follow = other.pending[seat].pop(0) if other.phase != TURN else None
        other._apply(seat, action, follow)
        other._score = None
        return other

    def points(self, seat: int) -> int:
        """``seat``'s points so far (its score-sheet total, counted now)."""
        city = self.sheets[seat]
        total = sum(city.attacks.values())
        for _, value in city.points:
            total += amount(value, seat, self.sheets)
        return total

    def space_cost(self, seat: int, cost: int) -> int:
        """Coins ``seat`` pays for a cost of ``cost`` different resource types."""
        return shortfall(cost, len(self.sheets[seat].resources))

    # --- the turn --------------------------------------------------------------------

    def _start_turn(self) -> None:
        self.forum.roll(self.generator())
        self._lay()
        snap = self.snap_counts
        if len(snap) == len(self.sheets):   # the start-of-turn counts and defences
            snap_defences = self.snap_defences
            for seat, city in enumerate(self.sheets):   # (copies: never shared nor changed)
                row = list(city.counts)
                row.append(city.stages)   # (what a face comparing the Wonder counts)
                snap[seat] = row
                snap_defences[seat] = dict(city.defences)
        else:
            self.snap_counts = [[*c.counts, c.stages] for c in self.sheets]
            self.snap_defences = [dict(c.defences) for c in self.sheets]
        self.phase = TURN
        self.seats = self._everyone

    def _advance(self) -> None:
        """The next decision: follow-ups (bonuses first), else the end of the turn."""
        bonus: list[int] = []
        extra: list[int] = []
        for seat in range(self.players):
            queue = self.pending[seat]
            while queue and (queue[0] == BONUS and not self._bonus_options(seat) or (
                    isinstance(queue[0], Crossing) and not self._follow_crosses(seat, queue[0]))):
                queue.pop(0)   # nothing left to take or to cross
            if queue:
                (bonus if queue[0] == BONUS else extra).append(seat)
        if bonus:
            self.phase, self.seats = BONUS, tuple(bonus)
            return
        if extra:
            self.phase, self.seats = EXTRA, tuple(extra)
            return
        for die in self.arriving:
            self.forum.bring_in(die, self.generator())
        self.arriving = []
        if self.trigger.ends_after(self.turn):
            self.phase, self.seats = OVER, ()
            return
        self.turn += 1
        self._start_turn()

    # --- options ---------------------------------------------------------------------

    def _options(self, seat: int) -> list[DiceAction]:
        if self.phase == BONUS:
            return self._bonus_options(seat)
        follow = self.pending[seat][0] if self.phase == EXTRA else ANY_ACTION
        if isinstance(follow, Crossing):
            found_follow: list[DiceAction] = list(self._follow_crosses(seat, follow))
            found_follow.append(DECLINE)
            return found_follow
        if follow == FREE_DIE:
            found_free = self._die_crosses(seat, True)
            found_free.append(DECLINE)
            return found_free
        found = self._die_crosses(seat, False)
        city = self.sheets[seat]
        stages = city.board.stages
        if city.stages < len(stages):
            short = shortfall(stages[city.stages].cost, len(city.resources))
            if short <= city.coins:
                found.append(self.tables.stage(city.stages, short))
        found.append(PASS)
        return found

    def _gate(self, seat: int, compare: tuple[int, ...]) -> bool:
        """Whether ``seat``'s start-of-turn count of ``compare`` (buildings counted
        together; the last index: Wonder stages) meets the forum's rule against each
        neighbour's."""
        n = self.players
        counts = self.snap_counts
        mine = sum(counts[seat][b] for b in compare)
        if n == 2:
            return compare_met(mine, [sum(counts[1 - seat][b] for b in compare)],
                               self.dice.compare_two_players)
        return compare_met(mine, [sum(counts[(seat + 1) % n][b] for b in compare),
                                  sum(counts[(seat - 1) % n][b] for b in compare)],
                           self.dice.compare_neighbours)

    def _lay(self) -> None:
        """What the forum offers this turn, read once for every seat (:data:`Lying`)."""
        dice = self.dice.dice
        forum = self.forum
        prices = self.dice.quadrants
        groups = self.tables.face_groups
        lying: list[Lying] = []
        for k, index in enumerate(forum.slots):
            die = dice[index]
            face = die.faces[forum.faces[k]]
            lying.append((k, index, "" if die.start else die.colour, face.compare,
                          prices[forum.quadrants[k]], die.colour,
                          groups[index][forum.faces[k]]))
        self.lying = lying

    def die_price(self, seat: int, base: int, colour: str) -> int:
        """What ``seat`` pays to choose a die of ``colour`` lying in a quadrant of price
        ``base``: less its discounts (every die's and the colour's), at most the colour's cap."""
        city = self.sheets[seat]
        price = base - city.discount - city.colour_less.get(colour, 0)
        most = city.colour_most.get(colour)
        if most is not None and price > most:
            price = most
        return price if price > 0 else 0

    def _die_crosses(self, seat: int, free: bool) -> list[DiceAction]:
        """The crossings ``seat`` may make with a die of the forum (``free``: without
        paying its price), one per space and pay, in the forum's order."""
        city = self.sheets[seat]
        tables = self.tables
        unlocked = city.unlocked
        coins = city.coins
        crossed = city.crossed
        types = len(city.resources)
        off = city.die_off
        caps = city.die_cap
        found: list[DiceAction] = []
        for k, index, lock, compare, base, _colour, targets in self.lying:
            if lock and lock not in unlocked:
                continue
            if compare and not self._gate(seat, compare):
                continue
            price = 0
            if not free:   # what die_price() says, from the sheet's prices by die
                price = base - off[index]
                cap = caps[index]
                if price > cap:
                    price = cap
                if price < 0:
                    price = 0
            if price > coins:
                continue
            for b, spaces in targets:
                costs = tables.costs[b]
                row = crossed[b]
                for group in spaces:
                    for i in group:   # the first uncrossed space of each group (first_open)
                        if row[i]:
                            continue
                        cost = costs[i]
                        short = cost - types if cost > types else 0
                        pay = price + short
                        if pay <= coins:
                            # one action per space and pay: the first die offering it (the
                            # fields compared natively; boxed keys in a list cost more)
                            for other in found:
                                assert isinstance(other, CrossSpace)
                                if other.index == b and other.space == i \
                                        and other.die_price + other.shortfall == pay:
                                    break
                            else:
                                found.append(tables.cross(b, i, k, index, price, short))
                        break
        return found

    def _follow_crosses(self, seat: int, crossing: Crossing) -> list[CrossSpace]:
        """The spaces a crossing follow-up may cross now: the next of each building it
        names, paying the space's cost (no die)."""
        city = self.sheets[seat]
        types = len(city.resources)
        found: list[CrossSpace] = []
        for b in crossing.buildings:
            building = self.dice.buildings[b]
            for i in first_open(self.tables.any_groups[b], city.crossed[b]):
                short = shortfall(building.spaces[i].cost, types)
                if short <= city.coins:
                    found.append(self.tables.follow(b, i, short))
        return found

    def _bonus_options(self, seat: int) -> list[DiceAction]:
        city = self.sheets[seat]
        dice = self.dice
        found: list[DiceAction] = []
        types = len(city.resources)
        for j, bonus in enumerate(dice.bonuses):
            if city.bonuses[j]:
                continue
            if not bonus.cross:
                found.append(self.tables.take(j, -1, 0, 0))
                continue
            for b in bonus.cross:
                building = dice.buildings[b]
                for i in first_open(self.tables.any_groups[b], city.crossed[b]):
                    short = shortfall(building.spaces[i].cost, types)
                    if short <= city.coins:
                        found.append(self.tables.take(j, b, i, short))
        return found

    # --- resolving -------------------------------------------------------------------

    def _apply(self, seat: int, action: DiceAction, follow: FollowUp | None = None) -> None:
        """Resolve ``seat``'s ``action``; ``follow`` is the follow-up it answers (None: a
        turn's action)."""
        city = self.sheets[seat]
        if isinstance(action, CrossSpace):
            self._pay(city, action.pay)
            if action.slot is not None and city.die_gains:   # coins on choosing this colour
                colour = self.dice.dice[self.forum.slots[action.slot]].colour
                self._gain(city, city.die_gains.get(colour, 0))
            b = action.index if action.index >= 0 else self.tables.index[action.building]
            if isinstance(follow, Crossing) and follow.up_to > 1:   # up to N: the next one
                self.pending[seat].insert(0, Crossing(follow.buildings, follow.up_to - 1))
            self._cross(seat, b, action.space)
        elif isinstance(action, BuildWonderStage):
            self._pay(city, action.shortfall)
            stage = city.board.stages[city.stages]
            city.stages += 1
            self._gains(seat, stage.gains)
            self._effects(seat, stage.effects, WONDER_LINE)
        elif isinstance(action, Pass):
            self._effects(seat, self.dice.pass_effects, BONUS_LINE)
        elif isinstance(action, TakeBonus):
            dice = self.dice
            j = next(i for i, b in enumerate(dice.bonuses) if b.name == action.bonus)
            city.bonuses[j] = True
            self.trigger.note(sum(city.bonuses), self.turn)
            self._effects(seat, dice.bonuses[j].effects, BONUS_LINE)
            if action.cross is not None:
                self._pay(city, action.cross.pay)
                self._cross(seat, self.tables.index[action.cross.building], action.cross.space)

    def _pay(self, city: DiceCity, coins: int) -> None:
        city.coins -= coins
        self.bank_paid += coins

    def _gain(self, city: DiceCity, coins: int) -> None:
        taken = gained(city.coins, coins, self.dice.reserve)
        city.coins += taken
        self.bank_gave += taken

    def _line(self, line: str | None) -> str:
        return line if line is not None and line in self.order else self.order[0]

    def preset(self, seat: int, b: int, i: int) -> None:
        """Cross a space as if in an earlier turn, for scenarios: what lasts (resources,
        defences, discounts, end points, unlocked dice) counts; its coins, attack points
        and follow-ups are taken as had (a position states coins and attacks itself)."""
        self._cross(seat, b, i, silent=True)
        self.invalidate()

    def preset_stage(self, seat: int) -> None:
        """Build the next Wonder stage as if in an earlier turn (see :meth:`preset`)."""
        city = self.sheets[seat]
        stage = city.board.stages[city.stages]
        city.stages += 1
        self._gains(seat, stage.gains, silent=True)
        self._effects(seat, stage.effects, WONDER_LINE, silent=True)
        self.invalidate()

    def start_position(self) -> None:
        """After a position is set by hand: the start-of-turn counts are the current ones."""
        self.snap_counts = [[*c.counts, c.stages] for c in self.sheets]
        self.snap_defences = [dict(c.defences) for c in self.sheets]
        self.invalidate()

    def _cross(self, seat: int, b: int, i: int, silent: bool = False) -> None:
        city = self.sheets[seat]
        building = self.dice.buildings[b]
        space = building.spaces[i]
        row = list(city.crossed[b])   # a new row: clones share the old one (DiceCity.clone)
        row[i] = True
        city.crossed[b] = row
        city.counts[b] += 1
        city.colours[building.colour] = city.colours.get(building.colour, 0) + 1
        line = self.lines[b]
        side = building.side
        if side is not None:
            if space.defence:
                city.defences[side] += 1
            if space.attack and not silent:
                target = self._neighbour(seat, side)
                facing = self.snap_defences[target][OPPOSITE[side]]
                city.attacks[line] = city.attacks.get(line, 0) + attack_points(space.attack,
                                                                                facing)
        if space.unlock is not None and space.unlock not in city.unlocked:
            city.unlocked.append(space.unlock)
            for index, die in enumerate(self.dice.dice):
                if die.colour == space.unlock and index not in self.forum.slots \
                        and index not in self.arriving and not silent:
                    self.arriving.append(index)
        if space.gains.prices or space.gains.die_gains or space.gains.cross is not None:
            self._gains(seat, space.gains, silent)
        self._effects(seat, space.effects, line, silent)
        if city.counts[b] == len(building.spaces) and not silent:
            self.pending[seat].append(BONUS)
            if building.first and all(counts[b] < len(building.spaces)
                                      for counts in self.snap_counts):
                # the first to complete it (all who do in the first turn anyone does)
                city.attacks[line] = city.attacks.get(line, 0) + building.first

    def _gains(self, seat: int, gains: Gains, silent: bool = False) -> None:
        """What a space or stage gives beyond its effects: lasting die prices and coins on
        choosing a colour; spaces to cross at once (a follow-up, not for a preset space)."""
        city = self.sheets[seat]
        for price in gains.prices:
            if price.colour is None:
                city.discount += price.less
            elif price.less:
                city.colour_less[price.colour] = city.colour_less.get(price.colour, 0) + price.less
            if price.most is not None:
                colours = [price.colour] if price.colour is not None else \
                    list(dict.fromkeys(d.colour for d in self.dice.dice))
                for colour in colours:
                    held = city.colour_most.get(colour)
                    city.colour_most[colour] = price.most if held is None else min(held,
                                                                                   price.most)
        if gains.prices:
            city.die_off = [city.discount + city.colour_less.get(d.colour, 0)
                            for d in self.dice.dice]
            city.die_cap = [city.colour_most.get(d.colour, NO_CAP) for d in self.dice.dice]
        for gain in gains.die_gains:
            city.die_gains[gain.colour] = city.die_gains.get(gain.colour, 0) + gain.coins
        if gains.cross is not None and not silent:
            self.pending[seat].append(gains.cross)

    def _neighbour(self, seat: int, side: str) -> int:
        return (seat + 1) % self.players if side == "left" else (seat - 1) % self.players

    def _effects(self, seat: int, effects: fx.Effects, line: str, silent: bool = False) -> None:
        """A space's, stage's, bonus's or pass's effects: what acts now through the effect
        runtime; its end points noted on the sheet's ``line`` (``silent``: a preset space,
        whose coins and follow-ups were had)."""
        city = self.sheets[seat]
        for clause in effects.clauses:
            if clause.timing is _END and isinstance(clause.effect, fx.Points):
                city.points.append((line, clause.effect.amount))
        self.quiet = silent
        runtime.act(self, seat, effects, False)
        self.quiet = False

    # --- the effect runtime's table (runtime.Table) ----------------------------------

    def city_list(self) -> Sequence[City]:
        return self.sheets

    def gain(self, seat: int, coins: int) -> None:
        if not self.quiet:
            self._gain(self.sheets[seat], coins)

    def ask(self, kind: str, seat: int, effect: fx.Effect) -> None:
        """An ability's follow-up (``extra_action``, ``free_die``) waits for ``seat``."""
        if not self.quiet:
            self.pending[seat].append(ABILITIES[kind])

    def produced(self, seat: int, effect: fx.Produce) -> None:
        """A resource type joins the sheet (a sheet counts the types it has)."""
        resources = self.sheets[seat].resources
        if effect.resources[0] not in resources:
            resources.append(effect.resources[0])

    def triggers(self, seat: int) -> Sequence[tuple[object, fx.Clause]]:
        return ()   # (no ``on …:`` clause on a sheet: runtime.act is called, not arrive)

    # --- counting and scoring --------------------------------------------------------

    def _scores(self) -> ScoreSheet:
        order = self.order
        lines: list[dict[str, int]] = []
        for seat, city in enumerate(self.sheets):
            row = {name: 0 for name in order}
            for line, value in city.points:
                row[line if line in row else order[0]] += amount(value, seat, self.sheets)
            for line, points in city.attacks.items():
                row[line] += points
            lines.append(row)
        return ScoreSheet(order=order, lines=lines, coins=[c.coins for c in self.sheets],
                          tie_break=self.tie_break)


__all__ = ["DiceCity", "DiceGame"]
