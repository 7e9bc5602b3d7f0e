"""The flow interpreter: one game loop that runs a rule set's ``flow:`` over the mechanisms.

A flow (:mod:`wonders.dsl.flow_model`) names its steps; this module maps each name to the
mechanism that does it (:data:`SETUP_STEPS`, :data:`CARD_STEPS`, :data:`TURN_STEPS`) and
runs them: set-up once, then turns in seat order, each turn the offer's decision, then
every card taken sets off the ``after_card`` steps, then the ``after`` steps, then the end
conditions.  A step that needs a player's choice asks it (:meth:`FlowGame.ask`) and the
interpreter waits: pending work is an **agenda** of small tasks, so a follow-up (which
piece to build, which token to take, one more card) is one decision of the one queue, and
the turn goes on where it stopped once it is answered.  A follow-up with a single legal
answer is not asked.  State lives in objects that copy themselves
(:mod:`wonders.engine.flow_state`): the seats, and one part per mechanism the flow names,
from whose contributions the view, the score sheet, the set-up record, the card places
and a determinization are assembled; the game is a
:class:`~wonders.engine.contract.GameState`.

``docs/flow.md`` says which flows run here today (``offer: decks``) and how the other
offers' loops move onto it.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Final, Mapping, Sequence, cast

from wonders.dsl.components_model import CENTRAL, CardKind, Components, PieceWonder, Progress
from wonders.dsl.flow_model import Flow
from wonders.dsl.model import Card
from wonders.dsl.model import Game as GameData
from wonders.engine.contract import Decision
from wonders.engine.errors import IllegalActionError, RuleError, check_seat
from wonders.engine.flow_actions import Move
from wonders.engine.flow_state import Ask, Part, Seat, SeatRecord, Task
from wonders.engine.mechanisms import (
    bank,
    cities,
    conflict,
    decks,
    pairs,
    pawn,
    pieces,
    pools,
    progress,
    structure,
    track,
    wonder_draft,
)
from wonders.engine.randomness import seeded
from wonders.engine.runtime import Table
from wonders.engine.scoring import ScoreSheet

OVER = "over"

_WORDING: Final = {**decks.WORDING, **pieces.WORDING, **progress.WORDING,
                   OVER: "the game is over"}


# --- the steps: each flow name, the mechanism that does it ---------------------------------

#: Set-up steps: ``(game, parameters)``.
SETUP_STEPS: Final[Mapping[str, Callable[[FlowGame, Mapping[str, Any]], None]]] = {
    "deal_boards": pieces.deal, "place_decks": decks.place,
    "lay_progress": progress.lay, "lay_conflict": conflict.lay,
    "deal_pools": pools.deal, "draft_wonders": wonder_draft.draft,
}


def _take_cat(game: FlowGame, seat: int, kind: int, parameters: Mapping[str, Any]) -> None:
    pawn.take(game, seat)


def _flip_conflict(game: FlowGame, seat: int, kind: int, parameters: Mapping[str, Any]) -> None:
    conflict.flip(game, game.kinds[kind].horns)


def _build_when_paid(game: FlowGame, seat: int, kind: int,
                     parameters: Mapping[str, Any]) -> None:
    pieces.build_when_paid(game, seat)


def _progress_on_sets(game: FlowGame, seat: int, kind: int,
                      parameters: Mapping[str, Any]) -> None:
    progress.on_sets(game, seat, parameters)


def _extra_card(game: FlowGame, seat: int, kind: int, parameters: Mapping[str, Any]) -> None:
    if kind >= 0:
        game.schedule([("extra_offer", seat, t)
                       for t in progress.triggered(game, seat, kind, piece=False)])


#: Which cards set each step off (a step not set off by a card kind is not run for it;
#: kind -1, a step looking again after a build or a token, always runs).
CARD_FILTERS: Final[Mapping[str, Callable[[CardKind], bool]]] = {
    "take_cat": lambda kind: kind.cat,
    "flip_conflict": lambda kind: kind.horns > 0,
    "build_when_paid": lambda kind: kind.resource is not None or kind.coins > 0,
    "progress_on_sets": lambda kind: kind.science is not None,
    "extra_card": lambda kind: True,
}

#: Steps after each card taken: ``(game, seat, card kind or -1, parameters)``.
CARD_STEPS: Final[Mapping[str, Callable[[FlowGame, int, int, Mapping[str, Any]], None]]] = {
    "take_cat": _take_cat, "flip_conflict": _flip_conflict,
    "build_when_paid": _build_when_paid, "progress_on_sets": _progress_on_sets,
    "extra_card": _extra_card,
}

#: Steps after each turn: ``(game, parameters)``.
TURN_STEPS: Final[Mapping[str, Callable[[FlowGame, Mapping[str, Any]], None]]] = {
    "battle_if_due": conflict.battle_if_due,
}

#: The mechanism each step and each offer belongs to: the game holds a part for each
#: mechanism its flow names (:class:`~wonders.engine.flow_state.Part`).
OWNERS: Final[Mapping[str, str]] = {
    "deal_boards": pieces.NAME, "place_decks": decks.NAME, "lay_progress": progress.NAME,
    "lay_conflict": conflict.NAME, "take_cat": pawn.NAME, "flip_conflict": conflict.NAME,
    "build_when_paid": pieces.NAME, "progress_on_sets": progress.NAME,
    "extra_card": progress.NAME, "battle_if_due": conflict.NAME, "decks": decks.NAME,
    "deal_pools": pools.NAME, "draft_wonders": wonder_draft.NAME,
    "lay_structure": structure.NAME, "choose_starter": track.NAME, "structure": structure.NAME,
}

#: Each mechanism's part, made for the table's size from the flow's step arguments (by
#: step name).
PARTS: Final[Mapping[str, Callable[[int, Mapping[str, Mapping[str, Any]]], Part]]] = {
    pieces.NAME: lambda players, arguments: pieces.Wonders(players),
    decks.NAME: lambda players, arguments: decks.DeckTable(),
    progress.NAME: lambda players, arguments: progress.Tokens(players),
    conflict.NAME: conflict.make, pawn.NAME: pawn.make,
}

#: Tasks the mechanisms put on the agenda besides the flow's steps: ``(game, seat, about)``.
_TASKS: Final[Mapping[str, Callable[[FlowGame, int, int], None]]] = {
    "progress_pick": lambda game, seat, _: progress.pick(game, seat),
    "extra_offer": lambda game, seat, token: progress.offer_extra(game, seat, token),
    wonder_draft.PICK: wonder_draft.ask, cities.FOLLOW_UP: cities.ask_next,
    track.STARTER: track.ask_starter,
}


def _take(game: FlowGame, asked: Ask, move: Move) -> None:
    decks.resolve(game, asked.seat, asked.kind, move, asked.about)


#: The mechanism that carries out the answer to each kind of decision: ``(game, ask, move)``.
RESOLVERS: Final[Mapping[str, Callable[[FlowGame, Ask, Move], None]]] = {
    decks.TURN: _take, decks.DECK: _take, decks.LOOK: _take, decks.KEEP: _take,
    pieces.BUILD: lambda game, asked, move: pieces.resolve(game, asked.seat, move),
    progress.PROGRESS: lambda game, asked, move: progress.resolve(game, asked.seat, move),
    progress.EXTRA: lambda game, asked, move: progress.resolve_extra(game, asked.seat, move,
                                                                     asked.about),
}

#: Each offer's turn: the decision's kind, and the moves it offers the seat to move (none:
#: the seat cannot move, and the game ends).
TURNS: Final[Mapping[str, tuple[str, Callable[[FlowGame, int], Sequence[Any]]]]] = {
    "decks": (decks.TURN, decks.turn_moves),
    "structure": (structure.TURN, structure.turn_moves),
}

#: End conditions checked after each turn (``no_card`` is checked when the next turn
#: would start: the seat to move has no card to take).
END_CONDITIONS: Final[Mapping[str, Callable[[FlowGame], bool]]] = {
    "wonder_complete": pieces.complete, "no_card": lambda game: False,
}


# --- rounds, cities and the effect runtime (the structure offer; docs/flow.md) -------------

#: Round-start steps: ``(game, parameters)``, run as each round begins.
ROUND_STEPS: Final[Mapping[str, Callable[[FlowGame, Mapping[str, Any]], None]]] = {
    "lay_structure": structure.lay, "choose_starter": track.choose_starter,
}

#: ``turn.until``: when a round's turns end (checked after each turn and its follow-ups).
UNTIL: Final[Mapping[str, Callable[[FlowGame], bool]]] = {
    "offer_empty": structure.offer_empty,
}

#: Parts made from the game (the rule set's compiled parameters), by mechanism.
GAME_PARTS: Final[Mapping[str, Callable[[FlowGame], Part]]] = {
    pools.NAME: pools.make, wonder_draft.NAME: wonder_draft.make, structure.NAME: structure.make,
    bank.NAME: bank.make, track.NAME: track.make, pairs.NAME: pairs.make,
    cities.NAME: cities.make,
}

#: The mechanisms a rule set's sections select beside the flow's steps, for an offer that
#: plays with them: ``(section, mechanism) -> part``.
SECTION_PARTS: Final[Mapping[str, Mapping[tuple[str, str], str]]] = {
    "structure": {("trade", "bank"): bank.NAME, ("military", "track"): track.NAME,
                  ("science", "pairs"): pairs.NAME},
}

#: The offers whose seats are cities (the effect runtime's), and the part that makes them.
SEAT_PARTS: Final[Mapping[str, tuple[str, Callable[[FlowGame], Sequence[Any]]]]] = {
    "structure": (cities.NAME, cities.seats),
}

#: Each offer's decisions: their wording and the mechanism that carries out each answer.
OFFER_WORDING: Final[Mapping[str, Mapping[str, str]]] = {
    "structure": {**structure.WORDING, **wonder_draft.WORDING, **track.WORDING,
                  **cities.WORDING, OVER: cities.OVER_WORDING},
}
OFFER_RESOLVERS: Final[Mapping[str, Mapping[str, Callable[[FlowGame, Ask, Any], None]]]] = {
    "structure": {structure.TURN: structure.resolve, wonder_draft.PICK: wonder_draft.resolve,
                  track.STARTER: track.resolve_starter,
                  **{kind: cities.resolve for kind in cities.WORDING}},
}


class _Program:
    """A flow made ready to run once per data set: its steps with their parameters."""

    def __init__(self, flow: Flow, kinds: Sequence[CardKind],
                 sections: Sequence[tuple[str, str]] = ()) -> None:
        self.flow = flow
        self.setup = flow.setup
        self.after_card = flow.after_card
        self.after = flow.after
        self.arguments = {step.name: step.arguments for step in
                           (*flow.setup, *flow.after_card, *flow.after)}
        self.end_when = tuple(END_CONDITIONS[name] for name in flow.end_when)
        self.turn_kind, self.turn_moves = TURNS[flow.offer]
        owners = [OWNERS[step.name] for step in flow.setup] + [OWNERS[flow.offer]] + [
            OWNERS[step.name] for step in (*flow.after_card, *flow.after)]
        # --- rounds (``rounds: {count: N}``, ``round.start``), ``again``, ``until``, the
        # at-once end, the offer's seats, decisions and companion parts
        self.rounds = flow.rounds
        self.round_start = flow.round_start
        self.again = flow.again
        self.until = UNTIL[flow.until_turns] if flow.until_turns else None
        self.at_once = flow.at_once
        self.victory = flow.victory
        self.wording = {**_WORDING, **OFFER_WORDING.get(flow.offer, {})}
        self.resolvers = {**RESOLVERS, **OFFER_RESOLVERS.get(flow.offer, {})}
        seats = SEAT_PARTS.get(flow.offer)
        self.seat_part = seats[0] if seats is not None else None
        self.make_seats = seats[1] if seats is not None else None
        companions = SECTION_PARTS.get(flow.offer, {})
        owners += [OWNERS[step.name] for step in flow.round_start]
        owners += [companions[s] for s in sections if s in companions]
        if self.seat_part is not None:
            owners.append(self.seat_part)
        #: the mechanisms whose parts a game holds, in the order the flow first names them
        self.mechanisms: tuple[str, ...] = tuple(dict.fromkeys(owners))
        # per card kind, the after_card steps it sets off, in the flow's order
        self.card_steps: list[tuple[str, ...]] = [
            tuple(step.name for step in flow.after_card if CARD_FILTERS[step.name](kind))
            for kind in kinds]


_PROGRAM = "flow.program"   # the program's entry in GameData.derived


def _random(sides: object) -> bool:
    """Whether ``sides`` asks for nothing but random sides (what a table without sides
    accepts)."""
    return sides == "random" or (isinstance(sides, (list, tuple))
                                 and all(s == "random" for s in sides))


def _program(data: GameData) -> _Program:
    kept = data.derived.get(_PROGRAM)
    if isinstance(kept, _Program):
        return kept
    flow = data.rules.model.flow
    if flow is None:
        raise RuleError(f"rule set '{data.rules.name}' has no flow: section to run")
    components = data.components
    model = data.rules.model
    sections = (("trade", model.trade.mechanism), ("military", model.military.mechanism),
                ("science", model.science.mechanism))
    program = _Program(flow, components.kinds if components is not None else (), sections)
    data.derived[_PROGRAM] = program
    return program


#: Each mechanism's every possible move, from the components and the steps' arguments
#: (in this order: the action ids of agents' environments and OpenSpiel keep it).
MOVES: Final[Mapping[str, Callable[[Components, Mapping[str, Mapping[str, Any]]],
                                   list[Move]]]] = {
    decks.NAME: lambda components, arguments: decks.every_move(components),
    pieces.NAME: lambda components, arguments: pieces.every_move(components),
    progress.NAME: progress.moves,
}


def every_move(data: GameData) -> list[Move]:
    """Every move a game of ``data`` can offer, from its components and flow alone (each
    mechanism the flow names lists its own): the fixed action ids of agents'
    environments and OpenSpiel."""
    components = data.components
    if components is None or data.rules.model.flow is None:
        return []
    program = _program(data)
    found: list[Move] = []
    for name, listed in MOVES.items():
        if name in program.mechanisms:
            found += listed(components, program.arguments)
    return found


# --- the game --------------------------------------------------------------------------

class FlowGame(Table):
    """A game of a rule set with a ``flow:`` (see the module's docstring); the table the
    effect runtime acts on, each verb done by the part that names it (``Part.VERBS``)."""

    def __init__(self, data: GameData, players: int, seed: int = 0, *,
                 sides: object = None, source: FlowGame | None = None,
                 **options: Any) -> None:
        rules = data.rules
        components = data.components
        self.program = _program(data)
        if components is None and self.program.seat_part is not None:
            components = Components((), (), -1, (), ())   # (cities: the data's cards)
        if components is None:
            raise RuleError(f"rule set '{rules.name}' has no components to play with")
        self.data = data
        self.players = players
        self.seed = seed
        self.options = options
        self.components: Components = components
        self.kinds: tuple[CardKind, ...] = components.kinds
        self.wonders: tuple[PieceWonder, ...] = components.wonders
        self.progress: tuple[Progress, ...] = components.progress
        self.age = 1 if self.program.rounds == 0 else 0
        self.bank_paid = 0
        self.bank_gave = 0
        self.start_coins = 0
        self._undo: list[Any] | None = None
        if source is not None:
            self._copy(source)
            return
        if not rules.min_players <= players <= rules.max_players:
            raise RuleError(f"{rules.title} is for {rules.min_players}–{rules.max_players} "
                            f"players, not {players}")
        if sides is not None and not (self.program.seat_part is not None and _random(sides)):
            raise RuleError(f"{rules.title}'s Wonders have no sides to choose ({sides!r})")
        if self.program.seat_part is None and len(self.wonders) < players:
            raise RuleError(f"{len(self.wonders)} Wonders for {players} players")
        self.turn = 0
        self.current = 0
        #: the state each mechanism the flow names owns, by mechanism
        self.parts: dict[str, Part] = {
            name: GAME_PARTS[name](self) if name in GAME_PARTS
            else PARTS[name](players, self.program.arguments)
            for name in self.program.mechanisms}
        self.seats: list[Seat] = []   # (or the offer's cities: SEAT_PARTS)
        self.agenda: list[Task] = []
        self.asking: Ask | None = None
        self.in_turn = False
        self.finished = False
        self.records: list[tuple[int, str, dict[int, Move]]] = []
        #: beside each record: the round it was made in and each seat's coins after it
        self.marks: list[tuple[int, tuple[int, ...]]] = []
        self._start_rounds()
        self.set_generator(seeded(seed))
        for step in self.program.setup:
            SETUP_STEPS[step.name](self, step.arguments)
        self.keep_setup()
        self._advance()

    def _copy(self, source: FlowGame) -> None:
        self.turn = source.turn
        self.current = source.current
        self.parts = {name: part.copy() for name, part in source.parts.items()}
        self.seats = [city.copy() for city in source.seats]
        self.agenda = list(source.agenda)
        self.asking = source.asking
        self.in_turn = source.in_turn
        self.finished = source.finished
        self.records = list(source.records)
        self.marks = list(source.marks)
        self._copy_rounds(source)
        source.share_generator(self)

    def keep_setup(self) -> None:
        """Each part remembers what set-up dealt (the set-up record's)."""
        for part in self.parts.values():
            part.keep_setup(self)

    # --- what the mechanisms call ---------------------------------------------------------

    def kind_index(self, name: str) -> int:
        return self.components.kind(name)

    def schedule(self, tasks: Sequence[Task]) -> None:
        """Put tasks at the front of the agenda, in order (they run before what waits)."""
        self.agenda[0:0] = tasks

    def take_card(self, seat: int, kind: int) -> None:
        """``seat`` takes a card of ``kind``: in front of it, then the ``after_card`` steps."""
        city = self.seats[seat]
        city.held[kind] += 1
        city.built.append(self.kinds[kind].card)
        self.agenda[0:0] = [(name, seat, kind) for name in self.program.card_steps[kind]]

    def ask(self, kind: str, seat: int, moves: Any, about: int = -1) -> None:
        """Wait for ``seat`` to choose one of ``moves`` (a follow-up with one choice is
        made at once); given an effect instead of moves, the effect runtime's ``ask``: a
        follow-up choice the effect raises, queued by the part that owns ``follow_up``."""
        if not isinstance(moves, tuple):
            self._verb("follow_up").follow_up(self, kind, seat, moves)
            return
        if len(moves) == 1 and kind != self.program.turn_kind:
            self._resolve(Ask(kind, seat, moves, about), moves[0])
            return
        self.asking = Ask(kind, seat, moves, about)


    # --- rounds, the at-once end and the effect runtime's table (the structure offer) ----

    def _start_rounds(self) -> None:
        """The round state of a new game, the seats the offer makes (cities) and which
        part does each verb."""
        self.round_due = self.program.rounds > 0   # the next round's start is due
        self.round_fresh = False   # the round's first turn has not begun
        self.again = False   # an effect granted the seat another turn (``again: replay``)
        self.victory: str | None = None
        self.winner: int | None = None
        self._verbs()
        make_seats = self.program.make_seats
        if make_seats is not None:
            self.seats = cast("list[Seat]", list(make_seats(self)))

    def _copy_rounds(self, source: FlowGame) -> None:
        self.age = source.age
        self.bank_paid = source.bank_paid
        self.bank_gave = source.bank_gave
        self.start_coins = source.start_coins
        self.round_due = source.round_due
        self.round_fresh = source.round_fresh
        self.again = source.again
        self.victory = source.victory
        self.winner = source.winner
        self._verbs()

    def _verbs(self) -> None:
        self.verbs: dict[str, Part] = {verb: part for part in self.parts.values()
                                       for verb in part.VERBS}
        self.arrival_ongoing = "shields" in self.verbs or "science_arrived" in self.verbs

    def _verb(self, verb: str) -> Part:
        """The part that does ``verb`` (a RuleError when no mechanism of the flow does)."""
        try:
            return self.verbs[verb]
        except KeyError:
            raise RuleError(f"no mechanism of this flow does '{verb}' (the parts: "
                            f"{', '.join(self.parts)})") from None

    def _start_round(self) -> None:
        """The next round: its number, turn 1, then its ``round.start`` steps."""
        self.round_due = False
        self.age += 1
        self.turn = 1
        self.round_fresh = True
        self.again = False
        for step in self.program.round_start:
            ROUND_STEPS[step.name](self, step.arguments)

    def _end_round_turn(self) -> None:
        """After a turn and its follow-ups (``turn.until``): the round goes on with the
        other seat (the same on ``again``), or the next round is due, or the last round
        ended the game.  A replay earned on a round's last card is lost."""
        if self.finished:
            return
        until = self.program.until
        if until is not None and until(self):
            self.again = False
            if self.age >= self.program.rounds:
                self.finished = True   # ``end.after: last_round``
                self.victory = self.program.victory
                return
            self.round_due = True
            return
        if not self.again:
            self.current = (self.current + 1) % self.players
        self.again = False

    def win(self, seat: int, victory: str) -> None:
        """An at-once victory (``end.at_once``): ``seat`` wins now, the agenda is dropped."""
        self.victory = victory
        self.winner = seat
        self.agenda.clear()
        self.asking = None
        self.finished = True

    def wait(self, kind: str, seat: int, moves: Sequence[Any], about: int = -1) -> None:
        """Ask ``seat`` to choose one of ``moves`` (always asked, even with one)."""
        self.asking = Ask(kind, seat, moves, about)   # type: ignore[arg-type]

    def resume(self, tasks: Sequence[Task], next_round: bool) -> None:
        """Go on from a position set by hand (scenarios): what is cached dropped, the agenda
        ``tasks``, then the round's turn of the seat to move (``next_round``: the next
        round's start), asked again."""
        self.invalidate()
        self.agenda = list(tasks)
        self.asking = None
        self.in_turn = False
        self.finished = False
        self.round_due = next_round
        self.round_fresh = not next_round
        self.again = False
        self._advance()

    def part(self, name: str) -> Part:
        """The part of mechanism ``name`` (a RuleError when the flow has none)."""
        found = self.parts.get(name)
        if found is None:
            raise RuleError(f"this flow has no '{name}' mechanism (its parts: "
                            f"{', '.join(self.parts)})")
        return found

    def gain(self, seat: int, coins: int) -> None:
        self._verb("gain").gain(self, seat, coins)

    def lose(self, seat: int, coins: int) -> None:
        self._verb("lose").lose(self, seat, coins)

    def give(self, giver: int, taker: int, coins: int) -> None:
        self._verb("give").give(self, giver, taker, coins)

    def shields(self, seat: int, count: int) -> None:
        self._verb("shields").shields(self, seat, count)

    def science_arrived(self, seat: int, symbol: str) -> None:
        self._verb("science_arrived").science_arrived(self, seat, symbol)

    def replay(self, seat: int) -> None:
        """``seat`` plays again after this turn (the flow's ``again: replay``)."""
        if self.program.again != "replay":
            raise RuleError("this flow grants no replay (turn.again: replay)")
        self.again = True

    def take_tokens(self, seat: int, kind: str, count: int) -> None:
        self._verb("take_tokens").take_tokens(self, seat, kind, count)

    def produced(self, seat: int, effect: Any) -> None:
        self._verb("produced").produced(self, seat, effect)

    def triggers(self, seat: int) -> Sequence[tuple[object, Any]]:
        return self._verb("triggers").triggers(self, seat)

    def city_list(self) -> Sequence[Any]:
        return self._verb("city_list").city_list(self)

    @property
    def pools(self) -> dict[str, list[Any]]:   # type: ignore[override]
        """The token pools effects take from."""
        return self._verb("pools").token_pools(self)

    # --- running the flow -------------------------------------------------------------------

    def _resolve(self, asked: Ask, move: Move) -> None:
        self.program.resolvers[asked.kind](self, asked, move)

    def _advance(self) -> None:
        """Run the agenda until a decision is asked or the game ends."""
        while self.asking is None and not self.finished:
            if self.agenda:
                name, seat, about = self.agenda.pop(0)
                runner = CARD_STEPS.get(name)
                if runner is not None:
                    runner(self, seat, about, self.program.arguments.get(name, {}))
                else:
                    _TASKS[name](self, seat, about)
                continue
            if self.in_turn:
                self._end_turn()
                continue
            if self.round_due:   # (rounds: the next round's start steps)
                self._start_round()
                continue
            moves = self.program.turn_moves(self, self.current)
            if not moves:
                self.finished = True   # the seat to move has no card to take (no_card)
                break
            if self.round_fresh:   # (rounds: a round's first turn is its turn 1)
                self.round_fresh = False
            else:
                self.turn += 1
            self.again = False
            self.in_turn = True
            self.asking = Ask(self.program.turn_kind, self.current, moves)  # type: ignore[arg-type]

    def _end_turn(self) -> None:
        for step in self.program.after:
            TURN_STEPS[step.name](self, step.arguments)
        self.in_turn = False
        if self.program.until is not None:
            self._end_round_turn()
            return
        for condition in self.program.end_when:
            if condition(self):
                self.finished = True
                return
        self.current = (self.current + 1) % self.players

    # --- the contract -----------------------------------------------------------------------

    @property
    def cities(self) -> Sequence[Any]:
        """Each seat as the contract shows it, assembled from the parts (made when asked;
        seats that are cities are shown as they are)."""
        if self.program.seat_part is not None:
            return self.seats
        found = []
        for s, city in enumerate(self.seats):
            summary: dict[str, object] = {"wonder": city.name}
            states: list[tuple[str, str]] = []
            for part in self.parts.values():
                part.summary(self, s, summary)
                part.board_states(self, s, states)
            found.append(SeatRecord(city, summary, states or [(city.name, "played")]))
        return found

    def count(self, seat: int, what: str) -> int:
        """A count of ``seat``'s an effect reads, from the part that knows it (0: none)."""
        for part in self.parts.values():
            found = part.count(self, seat, what)
            if found >= 0:
                return found
        return 0

    @property
    def discard(self) -> list[Card]:
        """The discard pile's cards (a fresh list: the decks keep kind indices; the
        offer's own pile where a part owns ``discard``)."""
        owner = self.verbs.get("discard")
        if owner is not None:
            return owner.discard_pile(self)
        return [self.kinds[k].card for k in decks.state(self).discard]

    @discard.setter
    def discard(self, cards: list[Card]) -> None:
        numbers = {id(kind.card): k for k, kind in enumerate(self.kinds)}
        decks.state(self).discard = [numbers[id(card)] for card in cards]

    @property
    def battles(self) -> list[list[int]]:
        """Each battle fought, the shields by seat (the recap's; none without conflict)."""
        found = self.parts.get(conflict.NAME)
        return found.battles if isinstance(found, conflict.Conflict) else []

    @property
    def over(self) -> bool:
        return self.finished

    @property
    def history(self) -> list[dict[str, Any]]:
        return [{"age": age, "turn": turn, "phase": phase,
                 "actions": {str(s): a.to_json() for s, a in sorted(actions.items())},
                 "coins": list(coins)}
                for (turn, phase, actions), (age, coins) in zip(self.records, self.marks)]

    def decision(self) -> Decision:
        wording = self.program.wording
        if self.finished or self.asking is None:
            return Decision(OVER, (), wording[OVER])
        return Decision(self.asking.kind, (self.asking.seat,), wording[self.asking.kind])

    def to_move(self) -> list[int]:
        asked = self.asking
        return [] if self.finished or asked is None else asked.seats

    def legal_actions(self, seat: int) -> Sequence[Move]:
        asked = self.asking
        if self.finished or asked is None or asked.seat != seat:
            return []
        return asked.moves

    def parse_action(self, seat: int, text: str) -> Move:
        from wonders.engine.notation import parse_action
        found: Move = parse_action(self, seat, text)
        return found

    def check(self, seat: int, action: Any) -> None:
        asked = self.asking
        if self.finished or asked is None:
            raise RuleError("the game is over")
        if seat != asked.seat:
            raise IllegalActionError(seat, action, "it is not this player's decision "
                                     f"({self.program.wording[asked.kind]}: seat {asked.seat})")
        owner = self.verbs.get("check")
        if owner is not None:   # (the offer says why, in its own words)
            for offered in asked.moves:
                if offered is action or offered == action:
                    return
            if asked.kind == self.program.turn_kind:
                owner.check(self, seat, action)
            raise IllegalActionError(seat, action, f"the player is "
                                     f"{self.program.wording[asked.kind]}; the options are: "
                                     + "; ".join(str(a) for a in asked.moves))
        if not isinstance(action, Move) or action not in asked.moves:
            listed = ", ".join(str(m) for m in asked.moves[:8]) + (
                " …" if len(asked.moves) > 8 else "")
            raise IllegalActionError(seat, action, f"not one of the options ({listed})")

    def play(self, actions: Mapping[int, Any]) -> None:
        asked = self.asking
        if self.finished or asked is None:
            raise RuleError("the game is over")
        if len(actions) != 1 or asked.seat not in actions:
            raise RuleError(f"expected one action from seat {asked.seat} "
                            f"({self.program.wording[asked.kind]}), got seats {sorted(actions)}")
        move = actions[asked.seat]
        known = False
        for offered in asked.moves:
            if offered is move:
                known = True
                break
        if not known:
            self.check(asked.seat, move)
        self.records.append((self.turn, asked.kind, {asked.seat: move}))
        age = self.age
        self.asking = None
        self._resolve(asked, move)
        self.marks.append((age, tuple([s.coins for s in self.seats])))
        self._advance()

    def push(self, actions: Mapping[int, Any]) -> None:
        from wonders.engine.undo import push
        push(self, actions)

    def pop(self) -> Mapping[int, Move]:
        from wonders.engine.undo import pop
        return pop(self)

    def undo(self, decisions: int = 1) -> Sequence[Mapping[int, Move]]:
        from wonders.engine.undo import undo
        return undo(self, decisions)

    def score_sheet(self) -> ScoreSheet:
        """Each seat's line from every part's points, in ``score.order`` (0 where none;
        the part that owns ``score_sheet`` scores cities)."""
        owner = self.verbs.get("score_sheet")
        if owner is not None:
            return owner.score_sheet(self)
        model = self.data.rules.model
        order = model.score.order
        parts = self.parts.values()
        lines = []
        for s in range(len(self.seats)):
            found: dict[str, int] = {}
            for part in parts:
                part.score(self, s, found)
            lines.append({name: found.get(name, 0) for name in order})
        counts: dict[str, list[int]] = {}
        for part in parts:
            part.counts(self, counts)
        return ScoreSheet(order, lines, [0] * self.players, tie_break=model.tie_break,
                          victory="points", counts=counts)

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` sees: the turn and decision, then every part's contribution (to
        the table and to each seat's entry), and its legal moves when it is asked."""
        owner = self.verbs.get("view")
        if owner is not None:   # (the contract's check: a seat is any index, np.int64 too)
            return owner.table_view(self, check_seat(seat, self.players))
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise RuleError(f"no player {seat!r}: seats are 0 to {self.players - 1}")
        parts = self.parts.values()
        entries: list[dict[str, Any]] = []
        for s in range(len(self.seats)):
            entry: dict[str, Any] = {"seat": s}
            for part in parts:
                part.seat_view(self, s, entry)
            entries.append(entry)
        found: dict[str, Any] = {
            "game": self.data.rules.name, "seat": seat, "turn": self.turn,
            "decision": self.decision().kind, "to_move": self.to_move(), "seats": entries}
        for part in parts:
            part.view(self, seat, found)
        asked = self.asking
        if asked is not None and asked.seat == seat:
            found["legal"] = [str(m) for m in asked.moves]
        return found

    def clone(self) -> FlowGame:
        return FlowGame(self.data, self.players, self.seed, source=self)

    def determinize(self, seat: int, rng: random.Random) -> FlowGame:
        """A clone in which every part deals again what ``seat`` cannot see (in the parts'
        order, from ``rng``), then a fresh generator for what is still to be dealt."""
        other = self.clone()
        for part in other.parts.values():
            part.determinize(other, self, seat, rng)
        other.set_generator(seeded(rng.getrandbits(64)))
        return other

    def setup_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {}
        for part in self.parts.values():
            part.setup_record(self, record)
        return record

    def invalidate(self) -> None:
        """Drop what the parts keep worked out (the state was changed by hand), and work
        the turn's options out again if a turn is asked."""
        for part in self.parts.values():
            part.forget(self)
        asked = self.asking
        if asked is not None and asked.kind == self.program.turn_kind and not self.finished:
            self.asking = Ask(asked.kind, asked.seat,
                              self.program.turn_moves(self, asked.seat),  # type: ignore[arg-type]
                              asked.about)

    def offer_cards(self) -> list[Card]:
        owner = self.verbs.get("offer_cards")
        if owner is not None:
            return owner.offer_cards(self)
        return [self.kinds[k].card for deck in decks.state(self).decks for k in deck]

    def card_places(self, seat: int) -> dict[str, tuple[bool, list[Card]]]:
        places: dict[str, tuple[bool, list[Card]]] = {}
        for part in self.parts.values():
            part.card_places(self, seat, places)
        return places


__all__ = ["CARD_STEPS", "CENTRAL", "FlowGame", "RESOLVERS", "SETUP_STEPS", "TURN_STEPS",
           "every_move"]
