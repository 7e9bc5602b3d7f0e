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
from typing import Any, Final, Mapping, Sequence

from wonders.dsl import effects as fx
from wonders.dsl.model import Card, Game as GameData
from wonders.dsl.sheets_model import Board, DiceSet

from wonders.engine.contract import Decision
from wonders.engine.dice_actions import BuildWonderStage, CrossSpace, Decline, DiceAction, Pass, TakeBonus
from wonders.engine.errors import IllegalActionError, RuleError, check_seat
from wonders.engine.mechanisms.attacks import OPPOSITE, attack_points
from wonders.engine.mechanisms.end_trigger import EndTrigger
from wonders.engine.mechanisms.forum import DicePool
from wonders.engine.mechanisms.gates import compare_met
from wonders.engine.mechanisms.reserve import gained
from wonders.engine.mechanisms.sheet import first_open, groups, shortfall
from wonders.engine.randomness import SharedGenerator, sample, seeded
from wonders.engine.scoring import ScoreSheet

TURN = "turn"
BONUS = "bonus"
EXTRA = "extra"
OVER = "over"
ANY_ACTION = "any"      # a follow-up: any action with the forum as it lies
FREE_DIE = "free_die"   # a follow-up: cross with a die without paying its price
_WORDING = {TURN: "choosing a die, a wonder stage or to pass", BONUS: "choosing a bonus",
            EXTRA: "taking another action", OVER: "the game is over"}
WONDER_LINE = "wonder"
BONUS_LINE = "bonuses"
PASS: Final = Pass()        # actions are values: one object each
DECLINE: Final = Decline()
# the ability an effect names -> the follow-up it gives
ABILITIES = {"extra_action": ANY_ACTION, "free_die": FREE_DIE}


class _Tables:
    """What the loop computes once per data set: each die face's groups of spaces, each
    building's space costs and index by key, and the crossing actions already made
    (actions are values: one shared object per distinct crossing)."""

    def __init__(self, dice: DiceSet) -> None:
        self.dice = dice
        self.face_groups = [[groups(dice.buildings[f.building], f.symbol) for f in die.faces]
                            for die in dice.dice]
        self.any_groups = [groups(b, None) for b in dice.buildings]
        self.costs = [[s.cost for s in b.spaces] for b in dice.buildings]
        self.index = {b.key: i for i, b in enumerate(dice.buildings)}
        self.crossings: dict[int, CrossSpace] = {}
        self.stages: dict[int, BuildWonderStage] = {}
        self.takes: dict[int, TakeBonus] = {}

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

    def cross(self, b: int, i: int, slot: int, die: int, price: int, short: int) -> CrossSpace:
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


class DiceCity:
    """One seat's sheet: spaces crossed, Wonder stages, resources, coins, bonuses."""

    def __init__(self, seat: int, board: Board, dice: DiceSet | None, coins: int, *,
                 source: DiceCity | None = None) -> None:
        """A fresh sheet, or with ``source`` a copy of that one (what :meth:`clone` makes:
        a compiled class has no ``__new__`` trick, and an empty shell filled afterwards
        would make every container twice)."""
        self.seat = seat
        self.board = board
        self.coins = coins
        if source is not None:
            # the rows are shared: a row is never changed in place (``DiceGame._cross``
            # replaces the row it crosses a space of), and a greedy policy's trial changes one
            self.crossed: list[list[bool]] = list(source.crossed)
            self.counts: list[int] = list(source.counts)
            self.colours: dict[str, int] = dict(source.colours)
            self.stages: int = source.stages
            self.resources: list[str] = list(source.resources)
            self.bonuses: list[bool] = list(source.bonuses)
            self.unlocked: list[str] = list(source.unlocked)
            self.defences: dict[str, int] = dict(source.defences)
            self.attacks: dict[str, int] = dict(source.attacks)
            self.points: list[tuple[str, fx.Amount]] = list(source.points)
            self.discount: int = source.discount
            return
        assert dice is not None, "a fresh sheet needs the dice set"
        self.crossed = [[False] * len(b.spaces) for b in dice.buildings]
        self.counts = [0] * len(dice.buildings)
        self.colours = {}
        self.stages = 0
        self.resources = []
        self.bonuses = [False] * len(dice.bonuses)
        self.unlocked = []
        self.defences = {"left": 0, "right": 0}
        self.attacks = {}     # score line -> points noted (attacks, firsts)
        self.points = []   # end points: (line, amount)
        self.discount = 0

    def clone(self) -> "DiceCity":
        return DiceCity(self.seat, self.board, None, self.coins, source=self)

    @property
    def built(self) -> list[Card]:
        """No cards: a sheet's spaces are not cards (statistics read this)."""
        return []

    def wonder_states(self) -> list[tuple[str, str]]:
        """The board played, for statistics by board (boards have one side)."""
        return [(self.board.name, "A")]

    def label(self) -> str:
        return f"{self.seat}: {self.board.name}"

    def summary(self) -> dict[str, object]:
        return {"board": self.board.name, "stages": self.stages,
                "bonuses": sum(self.bonuses)}

    def to_json(self, dice: DiceSet) -> dict[str, object]:
        return {
            "seat": self.seat, "board": self.board.name, "coins": self.coins,
            "stages": self.stages, "resources": list(self.resources),
            "crossed": {b.key: [i for i, x in enumerate(self.crossed[k]) if x]
                        for k, b in enumerate(dice.buildings)},
            "bonuses": [dice.bonuses[i].name for i, x in enumerate(self.bonuses) if x],
            "unlocked": list(self.unlocked), "attacks": dict(self.attacks),
            "die_discount": self.discount,
        }


class DiceGame(SharedGenerator):
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
        self.seed = seed
        self._legal: dict[int, list[DiceAction]] = {}
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
        self.pending: list[list[str]] = []   # follow-ups by seat
        self.arriving: list[int] = []    # dice unlocked this turn, joining at its end
        self.phase = TURN
        self.seats: tuple[int, ...] = ()
        self.records: list[tuple[int, str, dict[int, DiceAction], tuple[int, ...]]] = []
        self._score: ScoreSheet | None = None
        self.snap_counts: list[list[int]] = []
        self.snap_defences: list[dict[str, int]] = []
        self.lying: list[tuple[int, int, str, int, int, int, tuple[tuple[int, ...], ...]]] = []
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
            options = ", ".join(str(a) for a in self.legal_actions(seat)[:8])
            raise IllegalActionError(seat, action, f"not one of the options ({options} …)")

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
        if phase != TURN:
            for seat in self.seats:
                self.pending[seat].pop(0)
        for seat in self.seats:
            self._apply(seat, chosen[seat])
        coins = [city.coins for city in self.sheets]
        self.records.append((self.turn, phase, chosen, tuple(coins)))
        self._legal = {}
        self._score = None
        self._advance()

    def score_sheet(self) -> ScoreSheet:
        if self._score is None:
            self._score = self._scores()
        return self._score

    def view(self, seat: int) -> dict[str, Any]:
        """Everything is public in a dice-forum game: the forum and every sheet."""
        check_seat(seat, self.players)
        return {"seat": seat, "turn": self.turn, "phase": self.phase,
                "to_move": list(self.seats), "forum": self.forum.to_json(),
                "last_turn": (self.trigger.triggered + self.trigger.extra
                              if self.trigger.triggered >= 0 else None),
                "cities": [c.to_json(self.dice) for c in self.sheets]}

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
        if other.phase != TURN:
            other.pending[seat].pop(0)
        other._apply(seat, action)
        other._score = None
        return other

    def points(self, seat: int) -> int:
        """``seat``'s points so far (its score-sheet total, counted now)."""
        city = self.sheets[seat]
        total = sum(city.attacks.values())
        for _, amount in city.points:
            total += self._amount(amount, seat)
        return total

    def space_cost(self, seat: int, cost: int) -> int:
        """Coins ``seat`` pays for a cost of ``cost`` different resource types."""
        return shortfall(cost, len(self.sheets[seat].resources))

    # --- the turn --------------------------------------------------------------------

    def _start_turn(self) -> None:
        self.forum.roll(self.generator())
        self._lay()
        snap = self.snap_counts
        if len(snap) == len(self.sheets):   # the start-of-turn counts, copied in place
            for seat, city in enumerate(self.sheets):
                snap[seat][:] = city.counts
                defences = self.snap_defences[seat]
                for side, n in city.defences.items():
                    defences[side] = n
        else:
            self.snap_counts = [list(c.counts) for c in self.sheets]
            self.snap_defences = [dict(c.defences) for c in self.sheets]
        self.phase = TURN
        self.seats = tuple(range(self.players))

    def _advance(self) -> None:
        """The next decision: follow-ups (bonuses first), else the end of the turn."""
        bonus: list[int] = []
        extra: list[int] = []
        for seat in range(self.players):
            queue = self.pending[seat]
            while queue and queue[0] == BONUS and not self._bonus_options(seat):
                queue.pop(0)   # nothing left to take
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
        if follow == FREE_DIE:
            found_free: list[DiceAction] = list(self._die_crosses(seat, True))
            found_free.append(DECLINE)
            return found_free
        found: list[DiceAction] = []
        for cross in self._die_crosses(seat, False):
            found.append(cross)
        city = self.sheets[seat]
        stages = city.board.stages
        if city.stages < len(stages):
            short = shortfall(stages[city.stages].cost, len(city.resources))
            if short <= city.coins:
                found.append(self.tables.stage(city.stages, short))
        found.append(PASS)
        return found

    def _gate(self, seat: int, building: int) -> bool:
        n = self.players
        counts = self.snap_counts
        if n == 2:
            return compare_met(counts[seat][building], [counts[1 - seat][building]],
                               self.dice.compare_two_players)
        return compare_met(counts[seat][building], [counts[(seat + 1) % n][building],
                                                    counts[(seat - 1) % n][building]],
                           self.dice.compare_neighbours)

    def _lay(self) -> None:
        """What the forum offers this turn, read once for every seat: per die, its slot,
        index, whether it must be unlocked (its colour), the building compared (-1: none),
        its price, the building its face crosses and the face's groups of spaces."""
        dice = self.dice.dice
        forum = self.forum
        prices = self.dice.quadrants
        groups = self.tables.face_groups
        lying: list[tuple[int, int, str, int, int, int, tuple[tuple[int, ...], ...]]] = []
        for k, index in enumerate(forum.slots):
            die = dice[index]
            face = die.faces[forum.faces[k]]
            lying.append((k, index, "" if die.start else die.colour,
                          -1 if face.compare is None else face.compare,
                          prices[forum.quadrants[k]], face.building,
                          groups[index][forum.faces[k]]))
        self.lying = lying

    def _die_crosses(self, seat: int, free: bool) -> list[CrossSpace]:
        city = self.sheets[seat]
        tables = self.tables
        unlocked = city.unlocked
        coins = city.coins
        crossed = city.crossed
        types = len(city.resources)
        discount = city.discount
        found: list[CrossSpace] = []
        seen: list[int] = []   # (a few keys: a list is cheaper to make than a set)
        for k, index, colour, compare, base, b, spaces in self.lying:
            if colour and colour not in unlocked:
                continue
            if compare >= 0 and not self._gate(seat, compare):
                continue
            price = 0 if free else (base - discount if base > discount else 0)
            if price > coins:
                continue
            costs = tables.costs[b]
            row = crossed[b]
            for group in spaces:
                for i in group:   # the first uncrossed space of each group (sheet.first_open)
                    if row[i]:
                        continue
                    cost = costs[i]
                    short = cost - types if cost > types else 0
                    pay = price + short
                    key = (b * 64 + i) * 1024 + pay
                    if pay <= coins and key not in seen:
                        seen.append(key)
                        found.append(tables.cross(b, i, k, index, price, short))
                    break
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

    def _apply(self, seat: int, action: DiceAction) -> None:
        city = self.sheets[seat]
        if isinstance(action, CrossSpace):
            self._pay(city, action.pay)
            b = action.index if action.index >= 0 else self.tables.index[action.building]
            self._cross(seat, b, action.space)
        elif isinstance(action, BuildWonderStage):
            self._pay(city, action.shortfall)
            stage = city.board.stages[city.stages]
            city.stages += 1
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
        self._effects(seat, stage.effects, WONDER_LINE, silent=True)
        self.invalidate()

    def start_position(self) -> None:
        """After a position is set by hand: the start-of-turn counts are the current ones."""
        self.snap_counts = [list(c.counts) for c in self.sheets]
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
        city.discount += space.die_discount
        self._effects(seat, space.effects, line, silent)
        if city.counts[b] == len(building.spaces) and not silent:
            self.pending[seat].append(BONUS)
            if building.first and all(counts[b] < len(building.spaces)
                                      for counts in self.snap_counts):
                # the first to complete it (all who do in the first turn anyone does)
                city.attacks[line] = city.attacks.get(line, 0) + building.first

    def _neighbour(self, seat: int, side: str) -> int:
        return (seat + 1) % self.players if side == "left" else (seat - 1) % self.players

    def _effects(self, seat: int, effects: fx.Effects, line: str, silent: bool = False) -> None:
        city = self.sheets[seat]
        for clause in effects.clauses:
            effect = clause.effect
            if isinstance(effect, fx.Produce):
                if effect.resources[0] not in city.resources:
                    city.resources.append(effect.resources[0])
            elif isinstance(effect, fx.Points):
                city.points.append((line, effect.amount))
            elif silent:   # a preset space: its coins and follow-ups were had
                continue
            elif isinstance(effect, fx.Coins):
                self._gain(city, self._amount(effect.amount, seat))
            elif isinstance(effect, fx.Ability):
                self.pending[seat].append(ABILITIES[effect.name])

    # --- counting and scoring --------------------------------------------------------

    def _places(self, seat: int, place: str) -> list[int]:
        n = self.players
        if place == "self":
            return [seat]
        if place == "left":
            return [(seat + 1) % n]
        if place == "right":
            return [(seat - 1) % n]
        return sorted({(seat + 1) % n, (seat - 1) % n} - {seat})   # neighbours

    def _count(self, seat: int, counted: object) -> int:
        city = self.sheets[seat]
        if isinstance(counted, fx.CountCards):
            if counted.colours is None:
                return sum(city.counts)
            return sum(city.colours.get(c, 0) for c in counted.colours)
        if isinstance(counted, fx.CountStages):
            return city.stages
        if isinstance(counted, fx.CountCoins):
            return city.coins
        return 0

    def _amount(self, amount: fx.Amount, seat: int) -> int:
        total = amount.fixed
        for term in amount.terms:
            n = 0
            for place in term.places:
                for other in self._places(seat, place):
                    n += self._count(other, term.counted)
            total += term.value * (n // term.divisor)
        return total

    def _scores(self) -> ScoreSheet:
        order = self.order
        lines: list[dict[str, int]] = []
        for seat, city in enumerate(self.sheets):
            row = {name: 0 for name in order}
            for line, amount in city.points:
                row[line if line in row else order[0]] += self._amount(amount, seat)
            for line, points in city.attacks.items():
                row[line] += points
            lines.append(row)
        return ScoreSheet(order=order, lines=lines, coins=[c.coins for c in self.sheets],
                          tie_break=self.tie_break)


__all__ = ["DiceCity", "DiceGame"]
