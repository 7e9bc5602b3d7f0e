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
from typing import Any, Callable, Final, Mapping, Sequence

from wonders.dsl import effects as fx
from wonders.dsl.components_model import CENTRAL, CardKind, Components, PieceWonder, Progress
from wonders.dsl.flow_model import Flow
from wonders.dsl.model import Card
from wonders.dsl.model import Game as GameData
from wonders.engine.contract import Decision
from wonders.engine.errors import IllegalActionError, RuleError, check_seat
from wonders.engine.flow_actions import Move
from wonders.engine.flow_state import (
    Ask,
    AskAll,
    Choice,
    EffectTable,
    Part,
    Seat,
    SeatRecord,
    Task,
    TurnRule,
    part_count,
    part_index,
)
from wonders.engine.mechanisms import (
    bank,
    chambers,
    cities,
    city_moves,
    conflict,
    counted_prices,
    decks,
    either,
    end_trigger,
    forum,
    held,
    pairs,
    pawn,
    pieces,
    pools,
    priced_row,
    progress,
    sheets,
    spread,
    structure,
    track,
    wonder_draft,
)
from wonders.engine.randomness import SharedGenerator, seeded
from wonders.engine.scoring import ScoreSheet

OVER = "over"

_WORDING: Final = {**decks.WORDING, **pieces.WORDING, **progress.WORDING,
                   OVER: "the game is over"}   # (the decisions asked one seat at a time)


# --- the steps: each flow name, the mechanism that does it ---------------------------------

#: Set-up steps: ``(game, parameters)``.
SETUP_STEPS: Final[Mapping[str, Callable[[FlowGame, Mapping[str, Any]], None]]] = {
    "deal_boards": pieces.deal, "place_decks": decks.place,
    "lay_progress": progress.lay, "lay_conflict": conflict.lay, "deal_sheets": sheets.deal,
    "deal_pools": pools.deal, "draft_wonders": wonder_draft.draft,
    "lay_chambers": chambers.lay, "stack_held": held.stack, "spread_cards": spread.deal,
    "price_by_count": counted_prices.setup, "lay_track_tokens": track.lay_tokens,
    "stack_decks": priced_row.stack,
}

#: Steps as each turn starts, before anyone decides: ``(game, parameters)``.
START_STEPS: Final[Mapping[str, Callable[[FlowGame, Mapping[str, Any]], None]]] = {
    "shake_forum": forum.shake, "note_counts": sheets.note_counts,
    "offer_held": held.offer,
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
    "battle_if_due": conflict.battle_if_due, "bring_in_dice": forum.bring_in,
}

#: The mechanism each step and each offer belongs to: the game holds a part for each
#: mechanism its flow names (:class:`~wonders.engine.flow_state.Part`).
OWNERS: Final[Mapping[str, str]] = {
    "deal_boards": pieces.NAME, "place_decks": decks.NAME, "lay_progress": progress.NAME,
    "lay_conflict": conflict.NAME, "take_cat": pawn.NAME, "flip_conflict": conflict.NAME,
    "build_when_paid": pieces.NAME, "progress_on_sets": progress.NAME,
    "extra_card": progress.NAME, "battle_if_due": conflict.NAME, "decks": decks.NAME,
    "deal_sheets": sheets.NAME, "shake_forum": forum.NAME, "note_counts": sheets.NAME,
    "bring_in_dice": forum.NAME, "dice": sheets.NAME, "end_trigger": end_trigger.NAME,
    "deal_pools": pools.NAME, "draft_wonders": wonder_draft.NAME,
    "lay_structure": structure.NAME, "choose_starter": track.NAME, "structure": structure.NAME,
    "lay_chambers": chambers.NAME, "stack_held": held.NAME, "offer_held": held.NAME,
    "spread_cards": spread.NAME, "price_by_count": counted_prices.NAME,
    "lay_track_tokens": track.NAME,
    "stack_decks": priced_row.NAME, "lay_structure_tokens": priced_row.NAME,
    "fill_row": priced_row.NAME, "reveal_row": priced_row.NAME, priced_row.NAME: priced_row.NAME,
}

#: Each mechanism's part, made for the data set and the table's size from the flow's step
#: arguments (by step name).
PARTS: Final[Mapping[str, Callable[[GameData, int, Mapping[str, Mapping[str, Any]]], Part]]] = {
    pieces.NAME: lambda data, players, arguments: pieces.Wonders(players),
    decks.NAME: lambda data, players, arguments: decks.DeckTable(),
    progress.NAME: lambda data, players, arguments: progress.Tokens(players),
    conflict.NAME: lambda data, players, arguments: conflict.make(players, arguments),
    pawn.NAME: lambda data, players, arguments: pawn.make(players, arguments),
    sheets.NAME: sheets.make, forum.NAME: forum.make, end_trigger.NAME: end_trigger.make,
    pools.NAME: pools.make, wonder_draft.NAME: wonder_draft.make, structure.NAME: structure.make,
    bank.NAME: bank.make, track.NAME: track.make, pairs.NAME: pairs.make,
    cities.NAME: cities.make, chambers.NAME: chambers.make, held.NAME: held.make,
    spread.NAME: spread.make, counted_prices.NAME: counted_prices.make, either.NAME: either.make,
    priced_row.NAME: priced_row.make,
}

#: Tasks the mechanisms put on the agenda besides the flow's steps: ``(game, seat, about)``.
_TASKS: Final[Mapping[str, Callable[[FlowGame, int, int], None]]] = {
    "progress_pick": lambda game, seat, _: progress.pick(game, seat),
    "extra_offer": lambda game, seat, token: progress.offer_extra(game, seat, token),
    wonder_draft.PICK: wonder_draft.ask, cities.FOLLOW_UP: cities.ask_next,
    track.STARTER: track.ask_starter, priced_row.TOKENS_TASK: priced_row.hand_over,
    priced_row.ASK_TASK: priced_row.ask_waiting,
    chambers.INFLUENCE: chambers.ask_next, held.CONSPIRE: held.conspire,
    held.TRIGGER: held.ask_any, either.CHOOSE: either.ask_next,
}

#: The effects the flow's mechanisms carry out (``fx.BY_MECHANISM``), by class.
EFFECTS: Final[Mapping[type, Callable[[FlowGame, int, Any], None]]] = {
    fx.Influence: chambers.carry_out, fx.Conspire: held.carry_out,
    fx.TriggerHeld: held.trigger_effect, fx.Either: either.carry_out,
    fx.CoinsAside: cities.lay_aside,
}
#: The mechanism whose part each of those effects needs.
EFFECT_OWNERS: Final[Mapping[type, str]] = {
    fx.Influence: chambers.NAME, fx.Conspire: held.NAME, fx.TriggerHeld: held.NAME,
    fx.Either: either.NAME, fx.CoinsAside: cities.NAME,
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

def _head_with_seats(game: FlowGame, seat: int) -> dict[str, Any]:
    """A view's head where each seat has an entry the parts fill (and the asked seat's
    legal moves)."""
    entries: list[dict[str, Any]] = []
    parts = game.parts.values()
    for s in range(game.players):
        entry: dict[str, Any] = {"seat": s}
        for part in parts:
            part.seat_view(game, s, entry)
        entries.append(entry)
    found: dict[str, Any] = {
        "game": game.data.rules.name, "seat": seat, "turn": game.turn,
        "decision": game.decision().kind, "to_move": game.to_move(), "seats": entries}
    asked = game.asking
    if asked is not None and asked.seat == seat:
        found["legal"] = [str(m) for m in asked.moves]
    return found


def _head_with_phase(game: FlowGame, seat: int) -> dict[str, Any]:
    """A view's head naming the decision ``phase`` (the parts show the seats)."""
    return {"seat": seat, "turn": game.turn, "phase": game.decision().kind,
            "to_move": game.to_move()}


def _head_with_round(game: FlowGame, seat: int) -> dict[str, Any]:
    """A view's head naming the round (``age``) and the decision ``phase``."""
    return {"seat": seat, "age": game.age, "turn": game.turn, "phase": game.decision().kind,
            "to_move": list(game.to_move())}


class Offer:
    """What an offer's turn is: the decision's kind; the moves it offers the seat to move
    when seats are asked one at a time (none: the seat cannot move, and the game ends); a
    view's head; and the score sheet's word for a win on points.  (A plain class: its
    fields are native reads when compiled, a named tuple's are not.)"""

    def __init__(self, kind: str, moves: Callable[[FlowGame, int], tuple[Any, ...]],
                 head: Callable[[FlowGame, int], dict[str, Any]], victory: str,
                 rule: TurnRule | None = None) -> None:
        self.kind = kind
        self.moves = moves
        self.head = head
        self.victory = victory
        self.rule = rule   # (the offer's own class for its turn, called natively)


def _asked_together(game: FlowGame, seat: int) -> tuple[Any, ...]:
    raise RuleError("this offer asks every seat at once (decide: all)")


#: Each offer's turn (:class:`Offer`).
TURNS: Final[Mapping[str, Offer]] = {
    "decks": Offer(decks.TURN, decks.turn_moves, _head_with_seats, "points"),
    "dice": Offer(sheets.TURN, _asked_together, _head_with_phase, "civilian"),
    "structure": Offer(structure.TURN, structure.turn_moves, _head_with_round, "civilian",
                       structure.StructureTurn()),
}


#: Per offer asked of every seat at once, its decisions by kind (a ``flow_state.Choice``
#: each): the turn's and the follow-ups' (a seat's follow-ups wait in its own queue,
#: :meth:`FlowGame.follow_up`).
CHOICES: Final[Mapping[str, Mapping[str, Choice]]] = {"dice": sheets.CHOICES}

#: End conditions checked after each turn (``no_card`` is checked when the next turn
#: would start: the seat to move has no card to take).
END_CONDITIONS: Final[Mapping[str, Callable[[FlowGame], bool]]] = {
    "wonder_complete": pieces.complete, "no_card": lambda game: False,
    "end_trigger": end_trigger.reached,
}


# --- rounds, and the structure offer's seats and decisions (docs/flow.md) ----------------

#: Round-start steps: ``(game, parameters)``, run as each round begins.
ROUND_STEPS: Final[Mapping[str, Callable[[FlowGame, Mapping[str, Any]], None]]] = {
    "lay_structure": structure.lay, "choose_starter": track.choose_starter,
    "lay_structure_tokens": priced_row.lay_structure_tokens, "fill_row": priced_row.fill,
    "reveal_row": priced_row.reveal,
}

#: ``turn.until``: when a round's turns end (checked after each turn and its follow-ups).
UNTIL: Final[Mapping[str, Callable[[FlowGame], bool]]] = {
    "offer_empty": structure.offer_empty,
}

#: The mechanisms a rule set's sections select beside the flow's steps, for an offer that
#: plays with them: ``(section, mechanism) -> part``; and the part keeping the cities.
SECTION_PARTS: Final[Mapping[str, Mapping[tuple[str, str], str]]] = {
    "structure": {("trade", "bank"): bank.NAME, ("military", "track"): track.NAME,
                  ("science", "pairs"): pairs.NAME},
}
CITY_PARTS: Final[Mapping[str, str]] = {"structure": cities.NAME}

#: Each offer asked one seat at a time: its decisions' wording, the mechanism that carries
#: out each answer, and why a turn's move is refused (in the words scenarios match).
OFFER_WORDING: Final[Mapping[str, Mapping[str, str]]] = {
    "structure": {**structure.WORDING, **wonder_draft.WORDING, **track.WORDING,
                  **cities.WORDING, **city_moves.WORDING, **chambers.WORDING, **held.WORDING,
                  **either.WORDING, OVER: cities.OVER_WORDING},
}
OFFER_RESOLVERS: Final[Mapping[str, Mapping[str, Callable[[FlowGame, Ask, Any], None]]]] = {
    "structure": {structure.TURN: structure.resolve, wonder_draft.PICK: wonder_draft.resolve,
                  track.STARTER: track.resolve_starter,
                  **{kind: cities.resolve for kind in cities.WORDING},
                  chambers.INFLUENCE: chambers.resolve, held.KEEP: held.resolve_keep,
                  held.RETURN: held.resolve_keep, held.TRIGGER: held.resolve_trigger,
                  either.CHOOSE: either.resolve,
                  **{kind: city_moves.resolve for kind in city_moves.WORDING}},
}
OFFER_CHECKS: Final[Mapping[str, Callable[[FlowGame, int, Any], None]]] = {
    "structure": structure.check,
}


class ExtraTurn:
    """An extra offer (``turn.offer: [OFFER, {NAME: …}]``): the turn's moves with the
    offer's, the turn's resolver, its follow-ups' resolvers and wording, the refusals."""

    def __init__(self, moves: Callable[[FlowGame, int], tuple[Any, ...]],
                 resolve: Callable[[FlowGame, Ask, Any], None],
                 resolvers: Mapping[str, Callable[[FlowGame, Ask, Any], None]],
                 wording: Mapping[str, str],
                 check: Callable[[FlowGame, int, Any], None]) -> None:
        self.moves = moves
        self.resolve = resolve
        self.resolvers = resolvers
        self.wording = wording
        self.check = check


#: The extra offers a turn may make (``turn.offer``'s later items).
EXTRA_TURNS: Final[Mapping[str, ExtraTurn]] = {
    priced_row.NAME: ExtraTurn(priced_row.turn_moves, priced_row.resolve_turn,
                               priced_row.RESOLVERS, priced_row.WORDING, priced_row.check),
}


class _Program:
    """A flow made ready to run once per data set: its steps with their parameters."""

    def __init__(self, flow: Flow, kinds: Sequence[CardKind],
                 sections: Sequence[tuple[str, str]] = ()) -> None:
        self.flow = flow
        self.setup = flow.setup
        self.start = flow.start
        self.after_card = flow.after_card
        self.after = flow.after
        self.arguments = {step.name: step.arguments for step in
                           (*flow.setup, *flow.start, *flow.after_card, *flow.after,
                            *flow.also)}
        self.end_when = tuple(END_CONDITIONS[name] for name in flow.end_when)
        # each turn's steps with their arguments, looked up once
        self.start_steps = tuple((START_STEPS[step.name], step.arguments) for step in flow.start)
        self.after_steps = tuple((TURN_STEPS[step.name], step.arguments) for step in flow.after)
        self.offer = TURNS[flow.offer]
        self.turn_kind, self.turn_moves = self.offer.kind, self.offer.moves
        #: several seats asked at once: the offer's decisions, and the order follow-ups
        #: are asked in (all seats whose next follow-up is of the first kind due)
        self.together = flow.decide == "all"
        self.choices: Mapping[str, Choice] = CHOICES.get(flow.offer, {})
        self.follow_ups: tuple[str, ...] = flow.follow_ups
        self.wording: dict[str, str] = {kind: choice.wording
                                        for kind, choice in self.choices.items()} \
            if self.together else dict(_WORDING)
        self.wording[OVER] = _WORDING[OVER]
        self._decisions: dict[tuple[str, tuple[int, ...]], Decision] = {}
        owners = [OWNERS[step.name] for step in flow.setup] + [
            OWNERS[step.name] for step in flow.start] + [OWNERS[flow.offer]] + [
            OWNERS[step.name] for step in (*flow.after_card, *flow.after)] + [
            OWNERS[name] for name in flow.end_when if name in OWNERS]
        # --- rounds (``rounds: {count: N}``, ``round.start``), ``again``, ``until``, the
        # at-once end, and the offer's own decisions and companion parts
        self.rounds = flow.rounds
        self.round_start = flow.round_start
        self.again = flow.again
        self.until = UNTIL[flow.until_turns] if flow.until_turns else None
        self.at_once = flow.at_once
        self.wording.update(OFFER_WORDING.get(flow.offer, {}))
        self.resolvers: dict[str, Callable[[FlowGame, Ask, Any], None]] = {
            **RESOLVERS, **OFFER_RESOLVERS.get(flow.offer, {})}
        self.check = OFFER_CHECKS.get(flow.offer)
        companions = SECTION_PARTS.get(flow.offer, {})
        owners += [OWNERS[step.name] for step in flow.round_start]
        owners += [OWNERS[step.name] for step in flow.also]
        for step in flow.also:   # (an extra offer: its moves beside the offer's, its answers)
            extra = EXTRA_TURNS[step.name]
            self.turn_moves = extra.moves
            self.resolvers[self.turn_kind] = extra.resolve
            self.resolvers.update(extra.resolvers)
            self.wording.update(extra.wording)
            self.check = extra.check
        owners += [companions[s] for s in sections if s in companions]
        #: the turn's moves and resolution, called natively (an extra offer's by its
        #: functions)
        self.turn_rule: TurnRule = self.offer.rule if (
            self.offer.rule is not None and not flow.also) else TurnRule(
            self.turn_moves, self.resolvers.get(self.turn_kind))
        if flow.offer in CITY_PARTS:
            owners.append(CITY_PARTS[flow.offer])
            if any(name in owners for name in (chambers.NAME, held.NAME)):
                owners.append(either.NAME)   # (a choice of two effects: "… or …")
        #: the mechanisms whose parts a game holds, in the order the flow first names them
        self.mechanisms: tuple[str, ...] = tuple(dict.fromkeys(owners))
        # per card kind, the after_card steps it sets off, in the flow's order
        self.card_steps: list[tuple[str, ...]] = [
            tuple(step.name for step in flow.after_card if CARD_FILTERS[step.name](kind))
            for kind in kinds]

    def decision(self, kind: str, seats: tuple[int, ...]) -> Decision:
        """The decision of ``kind`` asked of ``seats`` (one shared value each: a decision
        is asked for at every step of every game)."""
        key = (kind, seats)
        found = self._decisions.get(key)
        if found is None:
            found = self._decisions[key] = Decision(kind, seats, self.wording[kind])
        return found


_PROGRAM = "flow.program"   # the program's entry in GameData.derived

#: The effect table last made, kept for its game (about one a turn was made before: made
#: at each use).  Not kept on the game: the two would hold each other, and every game
#: would then wait for the collector (a full pass more in 1,000 Duel games, measured).
#: One entry keeps at most one game alive after it is dropped.
_LAST_TABLE: Final[list[EffectTable | None]] = [None]


def _forget_table(game: FlowGame) -> None:
    """Drop ``game``'s kept table (it holds lists a position set by hand may replace)."""
    found = _LAST_TABLE[0]
    if found is not None and found.game is game:
        _LAST_TABLE[0] = None


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
    if data.rules.model.flow is None:
        return []
    program = _program(data)
    found: list[Move] = []
    if cities.NAME in program.mechanisms:   # (a structure game: the effects' moves)
        found += city_moves.every_move(data, data.rules.max_players)
    if priced_row.NAME in program.mechanisms:
        found += priced_row.every_move(data, program.arguments)
    for mechanism, moves in ((chambers.NAME, chambers.every_move),
                             (held.NAME, held.every_move)):
        if mechanism in program.mechanisms:
            found += [m for m in moves(data, program.arguments) if m not in found]
    if either.NAME in program.mechanisms:
        found += list(either.CHOICES)
    if components is None:
        return found
    for name, listed in MOVES.items():
        if name in program.mechanisms:
            found += listed(components, program.arguments)
    return found


# --- the game --------------------------------------------------------------------------

#: A flow whose mechanisms deal no cards, Wonders or tokens (its data is another file's:
#: a dice forum and sheets) has none of these components.
_NO_COMPONENTS: Final = Components((), (), 0, (), ())


def _random(sides: object) -> bool:
    """Whether ``sides`` asks for nothing but random sides (what boards without sides
    accept)."""
    return sides == "random" or (isinstance(sides, (list, tuple))
                                 and all(s == "random" for s in sides))


def _refuse_no_number(seat: object, action: Any, players: int) -> None:
    """Refuse a seat that is no number (text from a JSON key, say) as such: "not this
    player's decision" would print it as the very seat that is asked."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise IllegalActionError(seat, action,   # type: ignore[arg-type]
                                 f"a seat is a number 0 to {players - 1}, not {seat!r}")


def with_actions(record: tuple[int, str, int, Any, tuple[int, ...], int]
                  ) -> tuple[int, str, dict[int, Any], tuple[int, ...], int]:
    """A record with its actions by seat: (turn, kind, actions, coins, round)."""
    turn, kind, seat, answer, coins, age = record
    return turn, kind, (answer if seat < 0 else {seat: answer}), coins, age


class FlowGame(SharedGenerator):
    """A game of a rule set with a ``flow:`` (see the module's docstring)."""

    def __init__(self, data: GameData, players: int, seed: int = 0, *,
                 sides: object = None, source: FlowGame | None = None,
                 **options: Any) -> None:
        rules = data.rules
        components = data.components if data.components is not None else _NO_COMPONENTS
        self.data = data
        self.players = players
        self.seed = seed
        self.components: Components = components
        self.kinds: tuple[CardKind, ...] = components.kinds
        self.wonders: tuple[PieceWonder, ...] = components.wonders
        self.progress: tuple[Progress, ...] = components.progress
        self.program = _program(data)
        self.options = options   # (a structure game's fixed ``wonders`` lists: scenarios)
        self.age = 1 if not self.program.rounds else 0
        self.bank_paid = 0
        self.bank_gave = 0
        self.start_coins = 0
        self._undo: list[Any] | None = None
        self._no_coins = (0,) * players   # (Seat objects hold none: a decks game's are cards)
        if source is not None:
            self._copy(source)
            return
        if not rules.min_players <= players <= rules.max_players:
            raise RuleError(f"{rules.title} is for {rules.min_players}–{rules.max_players} "
                            f"players, not {players}")
        if sides is not None and not (self.program.rounds and _random(sides)):
            raise RuleError(f"{rules.title}'s Wonders have no sides to choose ({sides!r})")
        self.turn = 0
        self.current = 0
        #: the state each mechanism the flow names owns, by mechanism
        self.parts: dict[str, Part] = {
            name: PARTS[name](data, players, self.program.arguments)
            for name in self.program.mechanisms}
        #: the parts again, each at its mechanism's index (``flow_state.part_index``): what
        #: the mechanisms read
        self.slots = self._slots()
        #: the part that keeps the seats' cities (None: the seats are Seat objects)
        self._keeper: Part | None = next((part for part in self.parts.values()
                                          if part.keeps_cities()), None)
        self.seats: list[Seat] = []
        self.agenda: list[Task] = []
        self.follow_ups: list[list[tuple[str, Any]]] = [[] for _ in range(players)]
        self.asking: Ask | None = None
        self.asking_all: AskAll | None = None
        self.in_turn = False
        self.finished = False
        #: (turn, decision kind, the seat and its action — or -1 and the actions by seat,
        #: when several seats answered —, each seat's coins after, the round): flat, as a
        #: dict of one seat made at every decision is most of a record's cost
        self.records: list[tuple[int, str, int, Any, tuple[int, ...], int]] = []
        self._legal: dict[int, list[Any]] = {}
        self._start_rounds()
        self.set_generator(seeded(seed))
        try:
            for step in self.program.setup:
                SETUP_STEPS[step.name](self, step.arguments)
        except ValueError as error:   # (what the table's size cannot be dealt)
            raise RuleError(str(error)) from None
        _forget_table(self)   # (set-up steps may have replaced the lists it holds)
        self.keep_setup()
        self._advance()

    def _copy(self, source: FlowGame) -> None:
        self.age = source.age
        self.bank_paid = source.bank_paid
        self.bank_gave = source.bank_gave
        self.start_coins = source.start_coins
        self.turn = source.turn
        self.current = source.current
        self.parts = {name: part.copy() for name, part in source.parts.items()}
        self.slots = self._slots()
        self._keeper = next((part for part in self.parts.values() if part.keeps_cities()),
                            None)
        self.seats = [city.copy() for city in source.seats]
        self.agenda = list(source.agenda)
        self.follow_ups = [list(queue) for queue in source.follow_ups]
        self.asking = source.asking
        self.asking_all = source.asking_all
        self.in_turn = source.in_turn
        self.finished = source.finished
        self.records = list(source.records)
        self._legal = {}
        self._copy_rounds(source)
        source.share_generator(self)

    def _slots(self) -> list[Part | None]:
        found: list[Part | None] = [None] * part_count()
        for name, part in self.parts.items():
            found[part_index(name)] = part
        return found

    @property
    def table(self) -> EffectTable:
        """What effects act on (:class:`~wonders.engine.runtime.Table`): the part that keeps
        the seats' cities carries out the runtime's verbs.  The last one made is kept for
        the game that asked for it (:data:`_LAST_TABLE`), until :meth:`invalidate`: it
        holds the parts' pools and pile."""
        found = _LAST_TABLE[0]
        if found is not None and found.game is self:
            return found
        keeper = self._keeper
        if keeper is None:
            raise RuleError("no mechanism of this flow keeps cities for effects to act on")
        found = _LAST_TABLE[0] = EffectTable(self, keeper)
        return found

    def keeper(self) -> Part | None:
        """The part that keeps the seats' cities (None: the seats are the interpreter's)."""
        return self._keeper

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

    def gain(self, seat: int, kind: int) -> None:
        """``seat`` takes a card of ``kind``: in front of it, then the ``after_card`` steps."""
        city = self.seats[seat]
        city.held[kind] += 1
        city.built.append(self.kinds[kind].card)
        self.agenda[0:0] = [(name, seat, kind) for name in self.program.card_steps[kind]]

    def carry_out(self, seat: int, effect: fx.Effect) -> None:
        """A now-effect one of the flow's mechanisms carries out (:data:`EFFECTS`)."""
        owner = EFFECT_OWNERS[type(effect)]
        if owner not in self.parts:
            raise RuleError(f"an effect needs the {owner} mechanism, which this flow does "
                            "not select")
        EFFECTS[type(effect)](self, seat, effect)

    def follow_up(self, seat: int, kind: str, about: Any, first: bool = False) -> None:
        """A follow-up decision of ``kind`` waits in ``seat``'s queue (``first``: before
        the others), when every seat is asked at once; ``about`` is what its options and
        resolution read."""
        if first:
            self.follow_ups[seat].insert(0, (kind, about))
        else:
            self.follow_ups[seat].append((kind, about))

    def ask(self, kind: str, seat: int, moves: tuple[Any, ...], about: int = -1) -> None:
        """Wait for ``seat`` to choose one of ``moves`` (a follow-up with one choice is
        made at once)."""
        if len(moves) == 1 and kind != self.program.turn_kind:
            self._resolve(Ask(kind, seat, moves, about), moves[0])
            return
        self.asking = Ask(kind, seat, moves, about)

    # --- rounds and the at-once end (``rounds: {count: N}``, ``round.start``, ``again``,
    # ``until``, ``end.at_once``) -----------------------------------------------------------

    def _start_rounds(self) -> None:
        self.round_due = self.program.rounds > 0   # the next round's start is due
        self.round_fresh = False   # the round's first turn has not begun
        self.turn_begun = False   # the turn's number is counted and its start steps run
        self.again = False   # an effect granted the seat another turn (``again: replay``)
        self.victory: str | None = None
        self.winner: int | None = None

    def _copy_rounds(self, source: FlowGame) -> None:
        self.options = source.options
        self.round_due = source.round_due
        self.round_fresh = source.round_fresh
        self.turn_begun = source.turn_begun
        self.again = source.again
        self.victory = source.victory
        self.winner = source.winner

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
                self.victory = self.program.offer.victory
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
        self.asking = Ask(kind, seat, tuple(moves), about)

    def resume(self, tasks: Sequence[Task], next_round: bool) -> None:
        """Go on from a position set by hand (scenarios): what parts derive worked out
        again, the agenda ``tasks``, then the round's turn of the seat to move
        (``next_round``: the next round's start), asked again."""
        self.invalidate()
        self.agenda = list(tasks)
        self.asking = None
        self.in_turn = False
        self.finished = False
        self.round_due = next_round
        self.round_fresh = not next_round
        self.turn_begun = False
        self.again = False
        self._advance()

    # --- running the flow -------------------------------------------------------------------

    def _resolve(self, asked: Ask, move: Any) -> None:
        program = self.program
        if asked.kind == program.turn_kind:
            program.turn_rule.resolve(self, asked, move)
        else:
            program.resolvers[asked.kind](self, asked, move)

    def _advance(self) -> None:
        """Run the agenda until a decision is asked or the game ends."""
        if self.program.together:
            self._advance_together()
            return
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
            moves = self.program.turn_rule.moves(self, self.current)
            if not moves:
                until = self.program.until
                if self.turn_begun and until is not None and until(self):
                    # the turn's start steps emptied the offer (a conspiracy discarded or
                    # built its last card): the round ends there, as after a turn
                    self.turn_begun = False
                    self._end_round_turn()
                    continue
                self.finished = True   # the seat to move has no card to take (no_card)
                break
            if not self.turn_begun:
                if self.round_fresh:   # (rounds: a round's first turn is its turn 1)
                    self.round_fresh = False
                else:
                    self.turn += 1
                self.turn_begun = True
                if self.program.start_steps:   # (``turn.start``: may ask before the turn)
                    for run, arguments in self.program.start_steps:
                        run(self, arguments)
                    continue
            self.turn_begun = False
            self.again = False
            self.in_turn = True
            self.asking = Ask(self.program.turn_kind, self.current, moves)
        if self.finished:   # (a finished game's table is not kept: the game is freed)
            _forget_table(self)

    def _advance_together(self) -> None:
        """Every seat at once: the turn, then its follow-ups (all seats whose next is of the
        first kind due), then the turn's end and the next turn's start."""
        program = self.program
        while not self.finished:
            if self.in_turn:
                asked = self._next_follow_ups()
                if asked is not None:
                    self.asking_all = asked
                    return
                self._end_turn()
                continue
            self.turn += 1
            self.in_turn = True
            for run, arguments in program.start_steps:
                run(self, arguments)
            self.asking_all = AskAll(program.turn_kind, tuple(range(self.players)))
            return
        self.asking_all = None
        _forget_table(self)

    def _next_follow_ups(self) -> AskAll | None:
        """The seats whose next follow-up is of the first kind (in the flow's order) that
        any seat has due; follow-ups no longer due are dropped first."""
        for queue in self.follow_ups:
            if queue:
                break
        else:
            return None   # (most decisions: nobody has a follow-up)
        choices = self.program.choices
        heads: dict[str, list[int]] = {}
        for seat, queue in enumerate(self.follow_ups):
            while queue:
                kind, about = queue[0]
                if choices[kind].due(self, seat, about):
                    heads.setdefault(kind, []).append(seat)
                    break
                queue.pop(0)
        for kind in self.program.follow_ups:
            found = heads.get(kind)
            if found:
                return AskAll(kind, tuple(found))
        return None

    def _about(self, seat: int, kind: str) -> Any:
        """What ``seat``'s answer in a decision of ``kind`` is about (its follow-up's)."""
        return None if kind == self.program.turn_kind else self.follow_ups[seat][0][1]

    def trial(self, seat: int, action: Any) -> FlowGame:
        """A clone in which ``seat`` alone has answered with ``action`` (the decision stays
        open: for valuing one seat's options)."""
        if self.finished:
            raise RuleError("the game is over")
        other = self.clone()
        asked = other.asking_all
        if asked is None:
            raise RuleError("a trial needs a decision of every seat at once")
        if seat not in asked.seats:
            raise RuleError(f"player {seat} is not asked ({self.program.wording[asked.kind]}: "
                            f"seats {list(asked.seats)})")
        about = None
        if asked.kind != other.program.turn_kind:
            about = other.follow_ups[seat].pop(0)[1]
        other.program.choices[asked.kind].resolve(other, seat, action, about)
        return other

    def _coins(self) -> tuple[int, ...]:
        """Each seat's coins (the history's and the score sheet's)."""
        keeper = self._keeper
        if keeper is None:
            return self._no_coins
        return keeper.coins(self)

    def _end_turn(self) -> None:
        for run, arguments in self.program.after_steps:
            run(self, arguments)
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
        """Each seat as the contract shows it: the cities a part keeps, or else assembled
        from the parts (made when asked)."""
        keeper = self.keeper()
        if keeper is not None:
            return keeper.city_list(self)
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
        """The discard pile's cards (a fresh list: the decks keep kind indices; none
        without decks)."""
        if structure.NAME in self.parts:   # (the structure's own pile)
            return structure.state(self).discard
        if decks.NAME not in self.parts:
            return []
        return [self.kinds[k].card for k in decks.state(self).discard]

    @discard.setter
    def discard(self, cards: list[Card]) -> None:
        numbers = {id(kind.card): k for k, kind in enumerate(self.kinds)}
        decks.state(self).discard = [numbers[id(card)] for card in cards]
        _forget_table(self)

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
                for turn, phase, actions, coins, age in map(with_actions, self.records)]

    def decision(self) -> Decision:
        together = self.asking_all
        if together is not None:
            return self.program.decision(together.kind, together.seats)
        asked = self.asking
        if self.finished or asked is None:
            return self.program.decision(OVER, ())
        return self.program.decision(asked.kind, (asked.seat,))

    def to_move(self) -> list[int]:
        together = self.asking_all
        if together is not None:
            return list(together.seats)
        asked = self.asking
        return [] if self.finished or asked is None else asked.seats

    def legal_actions(self, seat: Any) -> Sequence[Any]:
        # (typed Any at the contract's door: compiled, a seat that is no number would be a
        # bare TypeError; it is asked nothing)
        if not isinstance(seat, int):
            return []
        return self._legal_actions(seat)

    def _legal_actions(self, seat: int) -> Sequence[Any]:
        together = self.asking_all
        if together is not None:
            return self._options(together, seat)
        asked = self.asking
        if self.finished or asked is None or asked.seat != seat:
            return []
        return asked.moves

    def parse_action(self, seat: Any, text: Any) -> Any:
        from wonders.engine.notation import parse_action
        return parse_action(self, seat, text)

    def check(self, seat: Any, action: Any) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int):
            _refuse_no_number(seat, action, self.players)
        self._check(seat, action)

    def _check(self, seat: int, action: Any) -> None:
        together = self.asking_all
        if together is not None:
            self._check_together(together, seat, action)
            return
        asked = self.asking
        if self.finished or asked is None:
            raise RuleError("the game is over")
        if seat != asked.seat:
            _refuse_no_number(seat, action, self.players)
            raise IllegalActionError(seat, action, "it is not this player's decision "
                                     f"({self.program.wording[asked.kind]}: seat "
                                     f"{asked.seat})")
        checker = self.program.check
        if checker is not None:   # (the offer says why, in its own words)
            for offered in asked.moves:
                if offered is action or offered == action:
                    return
            if asked.kind == self.program.turn_kind:
                checker(self, seat, action)
            raise IllegalActionError(seat, action, f"the player is "
                                     f"{self.program.wording[asked.kind]}; the options are: "
                                     + "; ".join(str(a) for a in asked.moves))
        if not isinstance(action, Move) or action not in asked.moves:
            listed = ", ".join(str(m) for m in asked.moves[:8]) + (
                " …" if len(asked.moves) > 8 else "")
            raise IllegalActionError(seat, action, f"not one of the options ({listed})")

    def _options(self, together: AskAll, seat: int) -> list[Any]:
        """``seat``'s options in a decision of several seats (kept until it is answered)."""
        found = self._legal.get(seat)
        if found is None:
            if seat not in together.seats:
                return []
            found = self._legal[seat] = self.program.choices[together.kind].options(
                self, seat, self._about(seat, together.kind))
        return found

    def _check_together(self, together: AskAll, seat: int, action: Any) -> None:
        kind = together.kind
        if seat not in together.seats:
            _refuse_no_number(seat, action, self.players)
            raise IllegalActionError(seat, action, "it is not this player's decision "
                                     f"({self.program.wording[kind]}: seats "
                                     f"{list(together.seats)})")
        options = self._legal_actions(seat)
        if action not in options:
            raise IllegalActionError(seat, action, self.program.choices[kind].why(
                self, seat, action, kind, self._about(seat, kind), options))

    def _play_together(self, together: AskAll, actions: Mapping[int, Any]) -> None:
        """Every asked seat's answer, checked, then resolved in seat order (a follow-up's
        answers after each seat's follow-up is taken from its queue)."""
        seats = together.seats
        kind = together.kind
        if len(actions) != len(seats) or any(s not in actions for s in seats):
            raise RuleError(f"expected one action from each of seats {list(seats)} "
                            f"({self.program.wording[kind]}), got seats {sorted(actions)}")
        given: dict[int, Any] = actions if isinstance(actions, dict) else dict(actions)
        chosen: dict[int, Any] = {}
        for seat in seats:
            action = given[seat]
            known = False
            for offered in self._options(together, seat):
                if offered is action:
                    known = True
                    break
            if not known:
                self._check(seat, action)
            chosen[seat] = action
        choice = self.program.choices[kind]
        if kind == self.program.turn_kind:
            for seat in seats:
                choice.resolve(self, seat, chosen[seat], None)
        else:
            abouts = [self.follow_ups[seat].pop(0)[1] for seat in seats]
            for k, seat in enumerate(seats):
                choice.resolve(self, seat, chosen[seat], abouts[k])
        self.records.append((self.turn, kind, -1, chosen, self._coins(), self.age))
        self._legal = {}
        self.asking_all = None
        self._advance()

    def play(self, actions: Mapping[int, Any]) -> None:
        # a list or one action is a caller's slip (a dict asked first: an ABC check is slow)
        if not isinstance(actions, dict) and not isinstance(actions, Mapping):
            raise RuleError("play takes each asked seat's action by seat (a mapping of seat "
                            f"to action), not {type(actions).__name__}")
        together = self.asking_all
        if together is not None:
            self._play_together(together, actions)
            return
        asked = self.asking
        if self.finished or asked is None:
            raise RuleError("the game is over")
        given: dict[int, Any] = actions if isinstance(actions, dict) else dict(actions)
        seat = asked.seat
        if len(given) != 1 or seat not in given:
            raise RuleError(f"expected one action from seat {seat} "
                            f"({self.program.wording[asked.kind]}), got seats "
                            f"{sorted(given)}")
        move = given[seat]
        known = False
        for offered in asked.moves:
            if offered is move:
                known = True
                break
        if not known:
            self._check(seat, move)
        turn, age = self.turn, self.age
        self.asking = None
        self._resolve(asked, move)
        self.records.append((turn, asked.kind, seat, move, self._coins(), age))
        self._advance()

    def push(self, actions: Mapping[int, Any]) -> None:
        from wonders.engine.undo import push
        push(self, actions)

    def pop(self) -> Mapping[int, Any]:
        from wonders.engine.undo import pop
        return pop(self)

    def undo(self, decisions: int = 1) -> Sequence[Mapping[int, Any]]:
        from wonders.engine.undo import undo
        return undo(self, decisions)

    def score_sheet(self) -> ScoreSheet:
        """Each seat's line from every part's points, in ``score.order`` (0 where none)."""
        keeper = self.keeper()
        whole = keeper.score_sheet(self) if keeper is not None else None
        if whole is not None:   # (cities scored as cities are: scoring.score)
            return whole
        model = self.data.rules.model
        order = model.score.order
        parts = self.parts.values()
        lines = []
        for s in range(self.players):
            found: dict[str, int] = {}
            for part in parts:
                part.score(self, s, found)
            lines.append({name: found.get(name, 0) for name in order})
        counts: dict[str, list[int]] = {}
        for part in parts:
            part.counts(self, counts)
        return ScoreSheet(order, lines, list(self._coins()), tie_break=model.tie_break,
                          victory=self.program.offer.victory, counts=counts)

    def view(self, seat: Any) -> dict[str, Any]:
        """What ``seat`` sees: the turn and decision, then every part's contribution (to
        the table and to each seat's entry), and its legal moves when it is asked."""
        seat = check_seat(seat, self.players)
        found = self.program.offer.head(self, seat)
        for part in self.parts.values():
            part.view(self, seat, found)
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
        """After a position set by hand: the options asked and what parts derive from
        their state are worked out again."""
        self._legal = {}
        _forget_table(self)
        for part in self.parts.values():
            part.refresh(self)
        asked = self.asking
        if asked is not None and asked.kind == self.program.turn_kind and not self.finished:
            self.asking = Ask(asked.kind, asked.seat,   # (the turn's options again)
                              self.program.turn_moves(self, asked.seat), asked.about)

    def offer_cards(self) -> list[Card]:
        if structure.NAME in self.parts:
            return structure.state(self).offer_cards(self)
        if decks.NAME not in self.parts:
            return []
        return [self.kinds[k].card for deck in decks.state(self).decks for k in deck]

    def card_places(self, seat: int) -> dict[str, tuple[bool, list[Card]]]:
        places: dict[str, tuple[bool, list[Card]]] = {}
        for part in self.parts.values():
            part.card_places(self, seat, places)
        return places


__all__ = ["CARD_STEPS", "CENTRAL", "FlowGame", "RESOLVERS", "SETUP_STEPS", "TURN_STEPS",
           "every_move", "with_actions"]
