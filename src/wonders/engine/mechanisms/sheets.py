"""Player sheets crossed with dice: the cities of a dice-forum game, their options and rules.

Each seat has a sheet (:class:`DiceCity`): buildings whose spaces are crossed
(:mod:`.sheet` finds which and what they cost), Wonder stages, resource types, coins in a
bounded reserve (:mod:`.reserve`), bonuses.  A turn every seat decides at once (the
flow's ``decide: all``): cross a space with a die of the forum (:mod:`.forum`; paying
the die's price and one coin per resource type lacking), build the next Wonder stage, or
pass.  Answers resolve in seat order, but nothing one seat does this turn changes
another's options: gates (:mod:`.gates`) and defences (:mod:`.attacks`) read the counts
noted at the turn's start (step ``note_counts``).  Follow-ups wait in each seat's queue
(the interpreter's): a completed building's ``bonus``, an ability's or a space's
``extra`` action.  The sheets are the part that keeps the cities: effects act on them
through the effect runtime (coins through the reserve, abilities as follow-ups,
resource types as they arrive).  Which buildings, spaces and bonuses exist is data (a
``sheets`` file, :mod:`wonders.dsl.sheets`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Iterator, Mapping, Sequence, Union

from wonders.dsl import effects as fx
from wonders.dsl.model import Card, Token
from wonders.dsl.model import Game as GameData
from wonders.dsl.sheets_model import Board, Crossing, DiceSet, Gains
from wonders.engine import runtime
from wonders.engine.city import City
from wonders.engine.dice_actions import (
    BuildWonderStage,
    CrossSpace,
    Decline,
    DiceAction,
    Pass,
    TakeBonus,
)
from wonders.engine.drafted_city import NO_BOARD, NO_SIDE
from wonders.engine.flow_state import Choice, Part, part_index
from wonders.engine.mechanisms import end_trigger, forum
from wonders.engine.mechanisms.attacks import OPPOSITE, attack_points
from wonders.engine.mechanisms.gates import compare_met
from wonders.engine.mechanisms.reserve import gained
from wonders.engine.mechanisms.sheet import first_open, groups, shortfall
from wonders.engine.randomness import sample
from wonders.engine.scoring import amount

if TYPE_CHECKING:
    from wonders.engine.flow import FlowGame

NAME: Final = "sheets"
SLOT: Final = part_index(NAME)   # (the part's index in a game's slots)
TURN: Final = "turn"
BONUS: Final = "bonus"
EXTRA: Final = "extra"
ANY_ACTION: Final = "any"      # an extra follow-up: any action with the forum as it lies
FREE_DIE: Final = "free_die"   # an extra follow-up: cross with a die without paying its price
WORDING: Final = {TURN: "choosing a die, a wonder stage or to pass", BONUS: "choosing a bonus",
                  EXTRA: "taking another action"}
WONDER_LINE: Final = "wonder"
BONUS_LINE: Final = "bonuses"
PASS: Final = Pass()        # actions are values: one object each
DECLINE: Final = Decline()
_END: Final = fx.Timing.END
NO_CAP: Final = 1 << 40   # a die price without a cap (DiceCity.die_cap)
# the ability an effect names -> the extra follow-up it gives
ABILITIES: Final = {"extra_action": ANY_ACTION, "free_die": FREE_DIE}
# what an extra follow-up is about: another action, a free die, or spaces to cross
FollowUp = Union[str, Crossing]


class _Tables:
    """What the loop computes once per data set: each die face's groups of spaces, each
    building's space costs and index by key, and the actions already made (actions are
    values: one shared object per distinct action)."""

    def __init__(self, dice: DiceSet) -> None:
        self.dice = dice
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
    found = data.derived.get("sheets.tables")
    if not isinstance(found, _Tables):
        found = _Tables(dice)
        data.derived["sheets.tables"] = found
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
            # the rows are shared: a row is never changed in place (:func:`cross`
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


class Sheets(Part):
    """Every seat's sheet, and what the sheets' rules read of the turn: the counts and
    defences noted at its start (``snap_counts``: per building, then the Wonder stages),
    each building's score line."""

    def __init__(self, data: GameData, dice: DiceSet, source: Sheets | None = None) -> None:
        self.data = data
        self.dice = dice
        self.tables = _tables(data, dice)
        self.quiet = False   # a preset space (preset): its coins and follow-ups were had
        self.order: tuple[str, ...] = ()
        self.lines: tuple[str, ...] = ()   # each building's score line
        if source is not None:
            self.order = source.order
            self.lines = source.lines
            self.cities: list[DiceCity] = [c.clone() for c in source.cities]
            self.snap_counts: list[list[int]] = [list(c) for c in source.snap_counts]
            self.snap_defences: list[dict[str, int]] = [dict(d) for d in source.snap_defences]
            return
        model = data.rules.model
        self.order = model.score.order
        # each building's score line (score.colours by its colour; the first line else)
        self.lines = tuple(
            self._line(model.score.colours.get(b.colour)) for b in dice.buildings)
        self.cities = []
        self.snap_counts = []
        self.snap_defences = []

    def _line(self, line: str | None) -> str:
        return line if line is not None and line in self.order else self.order[0]

    def copy(self) -> Sheets:
        return Sheets(self.data, self.dice, self)

    # --- what the game shows ---------------------------------------------------------

    def view(self, game: FlowGame, seat: int, found: dict[str, Any]) -> None:
        found["cities"] = [c.sheet_json(self.dice) for c in self.cities]

    def score(self, game: FlowGame, s: int, line: dict[str, int]) -> None:
        city = self.cities[s]
        first = self.order[0]
        for name, value in city.points:
            key = name if name in self.order else first
            line[key] = line.get(key, 0) + amount(value, s, self.cities)
        for name, points in city.attacks.items():
            line[name] = line.get(name, 0) + points

    def setup_record(self, game: FlowGame, record: dict[str, Any]) -> None:
        record["seats"] = [{"seat": c.seat, "board": c.board.name} for c in self.cities]

    # --- the effect runtime's verbs (the sheets keep the cities) ---------------------

    def keeps_cities(self) -> bool:
        return True

    def arrival(self) -> tuple[bool, bool]:
        # coins, resource types and abilities act as their space or stage is crossed; no
        # shields, science or pools
        return False, True

    def city_list(self, game: FlowGame) -> Sequence[City]:
        return self.cities

    def gain(self, game: FlowGame, seat: int, coins: int) -> None:
        if not self.quiet:
            _gain(game, self, self.cities[seat], coins)

    def ask(self, game: FlowGame, kind: str, seat: int, effect: fx.Effect) -> None:
        """An ability's follow-up (``extra_action``, ``free_die``) waits for ``seat``."""
        if not self.quiet:
            game.follow_up(seat, EXTRA, ABILITIES[kind])

    def produced(self, game: FlowGame, seat: int, effect: fx.Produce) -> None:
        """A resource type joins the sheet (a sheet counts the types it has)."""
        resources = self.cities[seat].resources
        if effect.resources[0] not in resources:
            resources.append(effect.resources[0])

    def coins(self, game: FlowGame) -> tuple[int, ...]:
        return tuple([city.coins for city in self.cities])


def state(game: FlowGame) -> Sheets:
    """The game's sheets."""
    found = game.slots[SLOT]
    assert isinstance(found, Sheets)
    return found


def make(data: GameData, players: int, arguments: Mapping[str, Mapping[str, Any]]) -> Sheets:
    if data.dice is None:
        raise ValueError("sheets need the rule set's sheets file")   # (refused at load)
    return Sheets(data, data.dice)


# --- the steps -----------------------------------------------------------------------

def deal(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    """Step ``deal_sheets``: each seat a board at random and the starting coins."""
    sheets = state(game)
    dice = sheets.dice
    players = game.players
    if len(dice.boards) < players:
        raise ValueError(f"{len(dice.boards)} boards for {players} players")
    start = gained(0, game.data.rules.model.setup.coins, dice.reserve)
    game.start_coins = start * players
    boards = sample(game.generator(), range(len(dice.boards)), players)
    sheets.cities = [DiceCity(s, dice.boards[b], dice, start) for s, b in enumerate(boards)]


def note_counts(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    """Step ``note_counts``: the counts and defences gates and attacks read this turn."""
    sheets = state(game)
    snap = sheets.snap_counts
    if len(snap) == len(sheets.cities):
        snap_defences = sheets.snap_defences
        for seat, city in enumerate(sheets.cities):   # (copies: never shared nor changed)
            row = list(city.counts)
            row.append(city.stages)   # (what a face comparing the Wonder counts)
            snap[seat] = row
            snap_defences[seat] = dict(city.defences)
    else:
        start_position(game)


def start_position(game: FlowGame) -> None:
    """The start-of-turn counts are the current ones (also after a position set by hand)."""
    sheets = state(game)
    sheets.snap_counts = [[*c.counts, c.stages] for c in sheets.cities]
    sheets.snap_defences = [dict(c.defences) for c in sheets.cities]


# --- options -----------------------------------------------------------------------

def turn_options(game: FlowGame, seat: int, about: Any = None) -> list[DiceAction]:
    """A turn's options: a crossing with a die, the next Wonder stage, or to pass."""
    sheets = state(game)
    found = _die_crosses(game, sheets, seat, False)
    city = sheets.cities[seat]
    stages = city.board.stages
    if city.stages < len(stages):
        short = shortfall(stages[city.stages].cost, len(city.resources))
        if short <= city.coins:
            found.append(sheets.tables.stage(city.stages, short))
    found.append(PASS)
    return found


def extra_options(game: FlowGame, seat: int, about: Any) -> list[DiceAction]:
    """An extra follow-up's options: spaces to cross (or decline), a free die (or decline),
    or another turn's action."""
    if isinstance(about, Crossing):
        found_follow: list[DiceAction] = list(_follow_crosses(game, seat, about))
        found_follow.append(DECLINE)
        return found_follow
    if about == FREE_DIE:
        found_free = _die_crosses(game, state(game), seat, True)
        found_free.append(DECLINE)
        return found_free
    return turn_options(game, seat)


def extra_due(game: FlowGame, seat: int, about: Any) -> bool:
    """Whether an extra follow-up is still asked: spaces to cross only while one is left."""
    return not isinstance(about, Crossing) or bool(_follow_crosses(game, seat, about))


def bonus_options(game: FlowGame, seat: int, about: Any = None) -> list[DiceAction]:
    sheets = state(game)
    city = sheets.cities[seat]
    dice = sheets.dice
    tables = sheets.tables
    found: list[DiceAction] = []
    types = len(city.resources)
    for j, bonus in enumerate(dice.bonuses):
        if city.bonuses[j]:
            continue
        if not bonus.cross:
            found.append(tables.take(j, -1, 0, 0))
            continue
        for b in bonus.cross:
            building = dice.buildings[b]
            for i in first_open(tables.any_groups[b], city.crossed[b]):
                short = shortfall(building.spaces[i].cost, types)
                if short <= city.coins:
                    found.append(tables.take(j, b, i, short))
    return found


def bonus_due(game: FlowGame, seat: int, about: Any) -> bool:
    """A completed building's bonus is asked while a bonus is left to take."""
    return bool(bonus_options(game, seat))


def gate(game: FlowGame, seat: int, compare: tuple[int, ...]) -> bool:
    """Whether ``seat``'s start-of-turn count of ``compare`` (buildings counted together;
    the last index: Wonder stages) meets the forum's rule against each neighbour's."""
    return _gate(state(game), game.players, seat, compare)


def _gate(sheets: Sheets, n: int, seat: int, compare: tuple[int, ...]) -> bool:
    counts = sheets.snap_counts
    mine = sum(counts[seat][b] for b in compare)
    if n == 2:
        return compare_met(mine, [sum(counts[1 - seat][b] for b in compare)],
                           sheets.dice.compare_two_players)
    return compare_met(mine, [sum(counts[(seat + 1) % n][b] for b in compare),
                              sum(counts[(seat - 1) % n][b] for b in compare)],
                       sheets.dice.compare_neighbours)


def die_price(game: FlowGame, seat: int, base: int, colour: str) -> int:
    """What ``seat`` pays to choose a die of ``colour`` lying in a quadrant of price
    ``base``: less its discounts (every die's and the colour's), at most the colour's cap."""
    city = state(game).cities[seat]
    price = base - city.discount - city.colour_less.get(colour, 0)
    most = city.colour_most.get(colour)
    if most is not None and price > most:
        price = most
    return price if price > 0 else 0


def space_cost(game: FlowGame, seat: int, cost: int) -> int:
    """Coins ``seat`` pays for a cost of ``cost`` different resource types."""
    return shortfall(cost, len(state(game).cities[seat].resources))


def points(game: FlowGame, seat: int) -> int:
    """``seat``'s points so far (its score-sheet total, counted now)."""
    sheets = state(game)
    city = sheets.cities[seat]
    total = sum(city.attacks.values())
    for _, value in city.points:
        total += amount(value, seat, sheets.cities)
    return total


def _die_crosses(game: FlowGame, sheets: Sheets, seat: int, free: bool) -> list[DiceAction]:
    """The crossings ``seat`` may make with a die of the forum (``free``: without paying
    its price), one per space and pay, in the forum's order."""
    players = game.players
    city = sheets.cities[seat]
    tables = sheets.tables
    unlocked = city.unlocked
    coins = city.coins
    crossed = city.crossed
    types = len(city.resources)
    off = city.die_off
    caps = city.die_cap
    gains = city.die_gains
    found: list[DiceAction] = []
    # with coins on choosing a colour, what each found action gains: two dice crossing the
    # same space for the same coins are one move only if they gain the same
    found_gains: list[int] = []
    for k, index, lock, compare, base, colour, targets in forum.state(game).lying:
        if lock and lock not in unlocked:
            continue
        gain = gains.get(colour, 0) if gains else 0
        if compare and not _gate(sheets, players, seat, compare):
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
                        n = 0
                        for other in found:
                            assert isinstance(other, CrossSpace)
                            if other.index == b and other.space == i \
                                    and other.die_price + other.shortfall == pay \
                                    and (not gains or found_gains[n] == gain):
                                break
                            n += 1
                        else:
                            found.append(tables.cross(b, i, k, index, price, short))
                            if gains:
                                found_gains.append(gain)
                    break
    return found


def _follow_crosses(game: FlowGame, seat: int, crossing: Crossing) -> list[CrossSpace]:
    """The spaces a crossing follow-up may cross now: the next of each building it names,
    paying the space's cost (no die)."""
    sheets = state(game)
    city = sheets.cities[seat]
    types = len(city.resources)
    found: list[CrossSpace] = []
    for b in crossing.buildings:
        building = sheets.dice.buildings[b]
        for i in first_open(sheets.tables.any_groups[b], city.crossed[b]):
            short = shortfall(building.spaces[i].cost, types)
            if short <= city.coins:
                found.append(sheets.tables.follow(b, i, short))
    return found


# --- resolving -----------------------------------------------------------------------

def resolve(game: FlowGame, seat: int, action: Any, follow: Any) -> None:
    """Resolve ``seat``'s ``action``; ``follow`` is what the follow-up it answers is about
    (None: a turn's action or a bonus)."""
    sheets = state(game)
    city = sheets.cities[seat]
    if isinstance(action, CrossSpace):
        _pay(game, city, action.pay)
        if action.slot is not None and city.die_gains:   # coins on choosing this colour
            colour = sheets.dice.dice[forum.state(game).pool.slots[action.slot]].colour
            _gain(game, sheets, city, city.die_gains.get(colour, 0))
        b = action.index if action.index >= 0 else sheets.tables.index[action.building]
        if isinstance(follow, Crossing) and follow.up_to > 1:   # up to N: the next one
            game.follow_up(seat, EXTRA, Crossing(follow.buildings, follow.up_to - 1),
                           first=True)
        _cross(game, sheets, seat, b, action.space, False)
    elif isinstance(action, BuildWonderStage):
        _pay(game, city, action.shortfall)
        stage = city.board.stages[city.stages]
        city.stages += 1
        _gains(game, sheets, seat, stage.gains, False)
        _effects(game, sheets, seat, stage.effects, WONDER_LINE, False)
    elif isinstance(action, Pass):
        _effects(game, sheets, seat, sheets.dice.pass_effects, BONUS_LINE, False)
    elif isinstance(action, TakeBonus):
        dice = sheets.dice
        j = next(i for i, b in enumerate(dice.bonuses) if b.name == action.bonus)
        city.bonuses[j] = True
        end_trigger.state(game).note(sum(city.bonuses), game.turn)
        _effects(game, sheets, seat, dice.bonuses[j].effects, BONUS_LINE, False)
        if action.cross is not None:
            _pay(game, city, action.cross.pay)
            _cross(game, sheets, seat, sheets.tables.index[action.cross.building],
                   action.cross.space, False)


def _pay(game: FlowGame, city: DiceCity, coins: int) -> None:
    city.coins -= coins
    game.bank_paid += coins


def _gain(game: FlowGame, sheets: Sheets, city: DiceCity, coins: int) -> None:
    taken = gained(city.coins, coins, sheets.dice.reserve)
    city.coins += taken
    game.bank_gave += taken


def preset(game: FlowGame, seat: int, b: int, i: int) -> None:
    """Cross a space as if in an earlier turn, for scenarios: what lasts (resources,
    defences, discounts, end points, unlocked dice) counts; its coins, attack points and
    follow-ups are taken as had (a position states coins and attacks itself)."""
    cross(game, seat, b, i, silent=True)
    game.invalidate()


def preset_stage(game: FlowGame, seat: int) -> None:
    """Build the next Wonder stage as if in an earlier turn (see :func:`preset`)."""
    sheets = state(game)
    city = sheets.cities[seat]
    stage = city.board.stages[city.stages]
    city.stages += 1
    _gains(game, sheets, seat, stage.gains, True)
    _effects(game, sheets, seat, stage.effects, WONDER_LINE, True)
    game.invalidate()


def cross(game: FlowGame, seat: int, b: int, i: int, silent: bool = False) -> None:
    """Cross space ``i`` of building ``b``: what it gives, its attack, a completed
    building's bonus (``silent``: a preset space, whose coins and follow-ups were had)."""
    _cross(game, state(game), seat, b, i, silent)


def _cross(game: FlowGame, sheets: Sheets, seat: int, b: int, i: int, silent: bool) -> None:
    city = sheets.cities[seat]
    building = sheets.dice.buildings[b]
    space = building.spaces[i]
    row = list(city.crossed[b])   # a new row: clones share the old one (DiceCity.clone)
    row[i] = True
    city.crossed[b] = row
    city.counts[b] += 1
    city.colours[building.colour] = city.colours.get(building.colour, 0) + 1
    line = sheets.lines[b]
    side = building.side
    if side is not None:
        if space.defence:
            city.defences[side] += 1
        if space.attack and not silent:
            n = game.players
            target = (seat + 1) % n if side == "left" else (seat - 1) % n
            facing = sheets.snap_defences[target][OPPOSITE[side]]
            city.attacks[line] = city.attacks.get(line, 0) + attack_points(space.attack,
                                                                            facing)
    if space.unlock is not None and space.unlock not in city.unlocked:
        city.unlocked.append(space.unlock)
        if not silent:
            forum.state(game).unlock(space.unlock)
    if space.gains.prices or space.gains.die_gains or space.gains.cross is not None:
        _gains(game, sheets, seat, space.gains, silent)
    _effects(game, sheets, seat, space.effects, line, silent)
    if city.counts[b] == len(building.spaces) and not silent:
        game.follow_up(seat, BONUS, None)
        if building.first and all(counts[b] < len(building.spaces)
                                  for counts in sheets.snap_counts):
            # the first to complete it (all who do in the first turn anyone does)
            city.attacks[line] = city.attacks.get(line, 0) + building.first


def _gains(game: FlowGame, sheets: Sheets, seat: int, gains: Gains, silent: bool) -> None:
    """What a space or stage gives beyond its effects: lasting die prices and coins on
    choosing a colour; spaces to cross at once (a follow-up, not for a preset space)."""
    city = sheets.cities[seat]
    dice = sheets.dice.dice
    for price in gains.prices:
        if price.colour is None:
            city.discount += price.less
        elif price.less:
            city.colour_less[price.colour] = city.colour_less.get(price.colour, 0) + price.less
        if price.most is not None:
            colours = [price.colour] if price.colour is not None else \
                list(dict.fromkeys(d.colour for d in dice))
            for colour in colours:
                held = city.colour_most.get(colour)
                city.colour_most[colour] = price.most if held is None else min(held, price.most)
    if gains.prices:
        city.die_off = [city.discount + city.colour_less.get(d.colour, 0) for d in dice]
        city.die_cap = [city.colour_most.get(d.colour, NO_CAP) for d in dice]
    for gain in gains.die_gains:
        city.die_gains[gain.colour] = city.die_gains.get(gain.colour, 0) + gain.coins
    if gains.cross is not None and not silent:
        game.follow_up(seat, EXTRA, gains.cross)


def _effects(game: FlowGame, sheets: Sheets, seat: int, effects: fx.Effects, line: str,
             silent: bool) -> None:
    """A space's, stage's, bonus's or pass's effects: what acts now through the effect
    runtime; its end points noted on the sheet's ``line`` (``silent``: a preset space,
    whose coins and follow-ups were had)."""
    if not effects.clauses:
        return
    city = sheets.cities[seat]
    for clause in effects.clauses:
        if clause.timing is _END and isinstance(clause.effect, fx.Points):
            city.points.append((line, clause.effect.amount))
    sheets.quiet = silent
    runtime.act(game.table, seat, effects, False)
    sheets.quiet = False


# --- the decisions, as the interpreter asks them of every seat at once ----------------

class _Turn(Choice):
    """A turn: a crossing with a die, the next Wonder stage, or to pass."""

    def options(self, game: FlowGame, seat: int, about: Any) -> list[Any]:
        return turn_options(game, seat, about)

    def resolve(self, game: FlowGame, seat: int, action: Any, about: Any) -> None:
        resolve(game, seat, action, about)

    def why(self, game: FlowGame, seat: int, action: object, kind: str, about: Any,
            options: Sequence[object]) -> str:
        return why(game, seat, action, kind, about, options)


class _Bonus(_Turn):
    """A completed building's bonus, asked while one is left to take."""

    def options(self, game: FlowGame, seat: int, about: Any) -> list[Any]:
        return bonus_options(game, seat, about)

    def due(self, game: FlowGame, seat: int, about: Any) -> bool:
        return bonus_due(game, seat, about)


class _Extra(_Turn):
    """Another action: spaces to cross, a free die, or any turn's action."""

    def options(self, game: FlowGame, seat: int, about: Any) -> list[Any]:
        return extra_options(game, seat, about)

    def due(self, game: FlowGame, seat: int, about: Any) -> bool:
        return extra_due(game, seat, about)


#: The offer's decisions by kind (the flow's ``follow_ups`` orders the last two).
CHOICES: Final[Mapping[str, Choice]] = {
    TURN: _Turn(WORDING[TURN]), BONUS: _Bonus(WORDING[BONUS]), EXTRA: _Extra(WORDING[EXTRA]),
}


# --- why a move is refused ---------------------------------------------------------

def why(game: FlowGame, seat: int, action: object, kind: str, about: Any,
        options: Sequence[object]) -> str:
    """The reason ``action`` is not one of ``seat``'s ``options`` in a decision of
    ``kind`` (a follow-up's: about ``about``): the decision, the die, its gate, the space,
    the coins."""
    if not isinstance(action, (CrossSpace, BuildWonderStage, Pass, TakeBonus, Decline)):
        return (f"a dice action is a CrossSpace, BuildWonderStage, Pass, TakeBonus or "
                f"Decline, not {action!r}")
    wrong = malformed(action)
    if wrong is not None:
        return wrong
    listed = ", ".join(str(a) for a in options[:8]) + (" …" if len(options) > 8 else "")
    fallback = f"not one of the options ({listed})"
    follow = about if kind == EXTRA else None
    if kind == BONUS:
        if not isinstance(action, TakeBonus):
            return f"a completed building's bonus is chosen now ({listed})"
        return _why_bonus(game, seat, action) or fallback
    if isinstance(action, TakeBonus):
        return "a bonus is taken only after completing a building"
    if isinstance(action, Decline):
        return "there is nothing to decline: " + WORDING[kind]
    if isinstance(follow, Crossing):
        if not isinstance(action, CrossSpace) or action.slot is not None:
            return (f"a space of {_names(game, follow.buildings)} is crossed now, without "
                    f"a die, or declined ({listed})")
        b = state(game).tables.index.get(action.building)
        if b is None or b not in follow.buildings:
            return f"this crossing takes a space of {_names(game, follow.buildings)}"
        return _why_space(game, seat, b, action, None) or _why_dieless(
            game, seat, b, action, "this crossing") or fallback
    if follow == FREE_DIE and not isinstance(action, CrossSpace):
        return "a die of the forum is chosen now without paying its price, or declined"
    if isinstance(action, BuildWonderStage):
        return _why_stage(game, seat, action) or fallback
    if isinstance(action, CrossSpace):
        return _why_cross(game, seat, action, follow == FREE_DIE) or _why_same(
            action, options) or fallback
    return fallback


def _why_same(action: CrossSpace, options: Sequence[object]) -> str | None:
    """A crossing refused only because another die makes the same move: the same space
    for the same coins, gaining the same (one action each; :func:`_die_crosses`)."""
    for offered in options:
        if isinstance(offered, CrossSpace) and offered.building == action.building \
                and offered.space == action.space and offered.pay == action.pay \
                and offered.slot is not None:
            return (f"the same crossing for the same coins is offered as '{offered}' (one "
                    f"action for each space and payment: choose that one)")
    return None


def _why_dieless(game: FlowGame, seat: int, b: int, action: CrossSpace,
                 what: str) -> str | None:
    """Why a crossing without a die (a follow-up's, a bonus's) is refused: a die named or
    priced, or the coins for the space's cost."""
    if action.slot is not None or action.die:
        return f"{what} crosses a space without a die: no die is chosen"
    if action.die_price:
        return f"{what} crosses a space without a die: it has no die price, not " \
               f"{action.die_price}"
    return _why_coins(game, seat, 0, state(game).dice.buildings[b].spaces[action.space].cost,
                      action.shortfall)


_FIELDS: dict[type, tuple[tuple[str, type | tuple[type, ...], str], ...]] = {
    CrossSpace: (("building", str, "a building's key"), ("space", int, "a number"),
                 ("slot", (int, type(None)), "a number or None"), ("die", str, "a die's name"),
                 ("die_price", int, "a number"), ("shortfall", int, "a number")),
    BuildWonderStage: (("stage", int, "a number"), ("shortfall", int, "a number")),
    TakeBonus: (("bonus", str, "a bonus's name"), ("cross", (CrossSpace, type(None)),
                                                   "a CrossSpace or None")),
}


def malformed(action: object) -> str | None:
    """Which field of a dice action holds a value of the wrong type (a hand-made action:
    refused with a reason, where the checks after it would raise a TypeError)."""
    fields = _FIELDS.get(type(action))
    if fields is None:
        return None
    for name, kinds, what in fields:
        value = getattr(action, name)
        if isinstance(value, bool) or not isinstance(value, kinds):
            return f"{type(action).__name__}.{name} is {what}, not {value!r}"
    cross = getattr(action, "cross", None)
    return None if cross is None else malformed(cross)


def _names(game: FlowGame, buildings: Sequence[int]) -> str:
    return " or ".join(state(game).dice.buildings[b].key for b in buildings)


def _why_stage(game: FlowGame, seat: int, action: BuildWonderStage) -> str | None:
    city = state(game).cities[seat]
    stages = city.board.stages
    if city.stages >= len(stages):
        return f"every stage of {city.board.name}'s Wonder is built"
    if action.stage != city.stages:
        return (f"stages are built in order: the next is stage {city.stages + 1}, not "
                f"{action.stage + 1}")
    return _why_coins(game, seat, 0, stages[city.stages].cost, action.shortfall)


def _why_coins(game: FlowGame, seat: int, price: int, cost: int, claimed: int) -> str | None:
    """Too few coins for a die's ``price`` and a cost of ``cost`` types, or a payment that
    is not what it costs (``claimed``: the shortfall the action says it pays)."""
    city = state(game).cities[seat]
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


def _why_space(game: FlowGame, seat: int, b: int, action: CrossSpace,
               spaces: tuple[tuple[int, ...], ...] | None,
               symbol: str | None = None) -> str | None:
    """Why space ``action.space`` of building ``b`` cannot be crossed (by a face with
    ``symbol`` whose groups are ``spaces``; None: the next space of any symbol)."""
    sheets = state(game)
    building = sheets.dice.buildings[b]
    city = sheets.cities[seat]
    i = action.space
    if not 0 <= i < len(building.spaces):
        return f"{building.key} has spaces 1 to {len(building.spaces)}"
    if city.crossed[b][i]:
        return f"{building.key} space {i + 1} is crossed already"
    allowed = first_open(spaces if spaces is not None else sheets.tables.any_groups[b],
                         city.crossed[b])
    if i not in allowed:
        taking = f"taking {symbol}" if symbol else "of each symbol"
        if not allowed:
            return f"no space of {building.key} {taking} is left to cross"
        which = ", ".join(str(j + 1) for j in sorted(allowed))
        order = f"any space {taking}" if building.order == "any" else \
            f"the next space in order {taking}"
        return f"it may cross {building.key} space {which} ({order}), not space {i + 1}"
    return None


def _why_cross(game: FlowGame, seat: int, action: CrossSpace, free: bool) -> str | None:
    sheets = state(game)
    dice = sheets.dice
    b = sheets.tables.index.get(action.building)
    if b is None:
        return f"there is no building '{action.building}'"
    slot = action.slot
    laid = forum.state(game)
    if slot is None or not 0 <= slot < len(laid.pool.slots):
        return "a space is crossed with a die of the forum (or a bonus, or a follow-up)"
    lying = laid.lying[slot]
    die = dice.dice[lying[1]]
    if die.name != action.die:
        return f"the die in forum slot {slot + 1} is the {die.name} die, not {action.die}"
    city = sheets.cities[seat]
    lock, compare = lying[2], lying[3]
    if lock and lock not in city.unlocked:
        return f"the {die.name} die is locked: only a player who unlocked it may choose it"
    if compare and not gate(game, seat, compare):
        gated = _names(game, [t for t, _ in lying[6]])
        return _why_gate(game, seat, f"the {die.name} die's gate to {gated}", compare)
    face = die.faces[laid.pool.faces[slot]]
    targets = dict(lying[6])
    if b not in targets:
        return (f"the {die.name} die shows {dice.face_words(face)}: it does not cross "
                f"{action.building}")
    refused = _why_space(game, seat, b, action, targets[b], face.symbol)
    if refused is not None:
        return refused
    price = 0 if free else die_price(game, seat, lying[4], lying[5])
    if action.die_price != price:
        return (f"the {die.name} die costs player {seat} {price} coin"
                f"{'s' if price != 1 else ''}, not {action.die_price}")
    return _why_coins(game, seat, price, dice.buildings[b].spaces[action.space].cost,
                      action.shortfall)


def _why_gate(game: FlowGame, seat: int, gate_name: str, compare: tuple[int, ...]) -> str:
    sheets = state(game)
    dice = sheets.dice
    what = " + ".join(dice.key_of(b) for b in compare)
    counts = sheets.snap_counts
    mine = sum(counts[seat][b] for b in compare)
    n = game.players
    if n == 2:
        theirs = sum(counts[1 - seat][b] for b in compare)
        rule = dice.compare_two_players
        return (f"{gate_name}: {what} needs "
                f"{'strictly more than' if rule == 'more' else 'at least as many as'} the "
                f"opponent's at the start of the turn ({mine} against {theirs})")
    left = sum(counts[(seat + 1) % n][b] for b in compare)
    right = sum(counts[(seat - 1) % n][b] for b in compare)
    rule = dice.compare_neighbours
    return (f"{gate_name}: {what} needs "
            f"{'strictly more than' if rule == 'more' else 'at least as many as'} each "
            f"neighbour's at the start of the turn ({mine} against {left} on the left and "
            f"{right} on the right)")


def _why_bonus(game: FlowGame, seat: int, action: TakeBonus) -> str | None:
    sheets = state(game)
    dice = sheets.dice
    names = [b.name for b in dice.bonuses]
    if action.bonus not in names:
        return f"there is no bonus '{action.bonus}' ({', '.join(names)})"
    j = names.index(action.bonus)
    city = sheets.cities[seat]
    if city.bonuses[j]:
        return f"bonus {action.bonus} is crossed already (each is taken once)"
    bonus = dice.bonuses[j]
    if not bonus.cross:
        if action.cross is not None:
            return f"bonus {action.bonus} crosses no space (take it without a crossing)"
        return None
    if action.cross is None:
        return f"bonus {action.bonus} crosses a space of {_names(game, bonus.cross)}"
    b = sheets.tables.index.get(action.cross.building)
    if b is None or b not in bonus.cross:
        return f"bonus {action.bonus} crosses a space of {_names(game, bonus.cross)}"
    return _why_space(game, seat, b, action.cross, None) or _why_dieless(
        game, seat, b, action.cross, f"bonus {action.bonus}")


__all__ = ["ABILITIES", "BONUS", "CHOICES", "DiceCity", "EXTRA", "NAME", "Sheets", "TURN",
           "WORDING",
           "bonus_due", "bonus_options", "cross", "deal", "die_price", "extra_due",
           "extra_options", "make", "malformed", "note_counts", "points", "preset",
           "preset_stage", "resolve", "space_cost", "start_position", "state", "turn_options",
           "why"]
