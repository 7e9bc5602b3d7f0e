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
(:mod:`wonders.engine.flow_state`); the game is a :class:`~wonders.engine.contract.GameState`.

``docs/flow.md`` says which flows run here today (``offer: decks``) and how the other
offers' loops move onto it.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Final, Mapping, Sequence

from wonders.dsl.components_model import CENTRAL, CardKind, Components, PieceWonder, Progress
from wonders.dsl.flow_model import Flow
from wonders.dsl.model import Card
from wonders.dsl.model import Game as GameData
from wonders.engine.contract import Decision
from wonders.engine.errors import IllegalActionError, RuleError
from wonders.engine.flow_actions import Move
from wonders.engine.flow_state import Ask, Centre, Seat, Task
from wonders.engine.mechanisms import conflict, decks, pieces, progress
from wonders.engine.randomness import SharedGenerator, sample, seeded, shuffle
from wonders.engine.scoring import ScoreSheet

OVER = "over"

_WORDING: Final = {
    decks.TURN: "taking a card", decks.DECK: "choosing a deck to take from",
    decks.LOOK: "choosing a deck to look into", decks.KEEP: "keeping one of the cards looked at",
    pieces.BUILD: "building a Wonder piece", progress.PROGRESS: "taking a progress token",
    progress.EXTRA: "taking one more card (or not)", OVER: "the game is over",
}


# --- the steps: each flow name, the mechanism that does it ---------------------------------

def _deal_boards(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    chosen = sample(game.generator(), range(len(game.wonders)), game.players)
    game.seats = [Seat(s, w, len(game.wonders[w].pieces), len(game.kinds), game.wonders[w].name)
                  for s, w in enumerate(chosen)]


def _place_decks(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    components = game.components
    slots = [components.decks[game.wonders[city.wonder].deck] for city in game.seats]
    slots.append(components.decks[components.central])
    game.deck_names = tuple(deck.name for deck in slots)
    game.table.decks = []
    for deck in slots:
        cards = list(deck.cards)
        shuffle(game.generator(), cards)
        game.table.decks.append(cards)
    game.central = len(slots) - 1


def _lay_progress(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    progress.lay(game, parameters)


def _lay_conflict(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    conflict.lay(game, parameters)


#: Set-up steps: ``(game, parameters)``.
SETUP_STEPS: Final[Mapping[str, Callable[[FlowGame, Mapping[str, Any]], None]]] = {
    "deal_boards": _deal_boards, "place_decks": _place_decks,
    "lay_progress": _lay_progress, "lay_conflict": _lay_conflict,
}


def _take_cat(game: FlowGame, seat: int, kind: int, parameters: Mapping[str, Any]) -> None:
    game.table.cat = seat


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


def _battle_if_due(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    if game.table.battle:
        conflict.battle(game, int(parameters.get("double", 2)))


#: Steps after each turn: ``(game, parameters)``.
TURN_STEPS: Final[Mapping[str, Callable[[FlowGame, Mapping[str, Any]], None]]] = {
    "battle_if_due": _battle_if_due,
}

#: Tasks the mechanisms put on the agenda besides the flow's steps: ``(game, seat, about)``.
_TASKS: Final[Mapping[str, Callable[[FlowGame, int, int], None]]] = {
    "progress_pick": lambda game, seat, _: progress.pick(game, seat),
    "extra_offer": lambda game, seat, token: progress.offer_extra(game, seat, token),
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


def _check_end(game: FlowGame, condition: str) -> bool:
    if condition == "wonder_complete":
        return game.completed
    return False   # no_card: checked when the next turn would start


class _Program:
    """A flow made ready to run once per data set: its steps with their parameters."""

    def __init__(self, flow: Flow, kinds: Sequence[CardKind]) -> None:
        self.flow = flow
        self.setup = flow.setup
        self.after_card = flow.after_card
        self.after = flow.after
        self.arguments = {step.name: step.arguments for step in
                           (*flow.setup, *flow.after_card, *flow.after)}
        self.end_when = flow.end_when
        # per card kind, the after_card steps it sets off, in the flow's order
        self.card_steps: list[tuple[str, ...]] = [
            tuple(step.name for step in flow.after_card if CARD_FILTERS[step.name](kind))
            for kind in kinds]


_PROGRAM = "flow.program"   # the program's entry in GameData.derived


def _program(data: GameData) -> _Program:
    kept = data.derived.get(_PROGRAM)
    if isinstance(kept, _Program):
        return kept
    flow = data.rules.model.flow
    if flow is None:
        raise RuleError(f"rule set '{data.rules.name}' has no flow: section to run")
    components = data.components
    program = _Program(flow, components.kinds if components is not None else ())
    data.derived[_PROGRAM] = program
    return program


def every_move(data: GameData) -> list[Move]:
    """Every move a game of ``data`` can offer, from its components and flow alone (each
    mechanism lists its own): the fixed action ids of agents' environments and OpenSpiel."""
    components = data.components
    flow = data.rules.model.flow
    if components is None or flow is None:
        return []
    sets = flow.step("progress_on_sets")
    same = int(sets.arguments.get("same", 2)) if sets is not None else 0
    different = int(sets.arguments.get("different", 3)) if sets is not None else 0
    return (decks.every_move(components) + pieces.every_move(components)
            + progress.every_move(components, same, different))


# --- the game --------------------------------------------------------------------------

class FlowGame(SharedGenerator):
    """A game of a rule set with a ``flow:`` (see the module's docstring)."""

    def __init__(self, data: GameData, players: int, seed: int = 0, *,
                 sides: object = None, source: FlowGame | None = None) -> None:
        rules = data.rules
        components = data.components
        if components is None:
            raise RuleError(f"rule set '{rules.name}' has no components to play with")
        self.data = data
        self.players = players
        self.seed = seed
        self.components: Components = components
        self.kinds: tuple[CardKind, ...] = components.kinds
        self.wonders: tuple[PieceWonder, ...] = components.wonders
        self.progress: tuple[Progress, ...] = components.progress
        self.program = _program(data)
        self.age = 1
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
        if sides is not None:
            raise RuleError(f"{rules.title}'s Wonders have no sides to choose ({sides!r})")
        if len(self.wonders) < players:
            raise RuleError(f"{len(self.wonders)} Wonders for {players} players")
        self.turn = 0
        self.current = 0
        self.table = Centre()   # what lies on the table between the players
        self.seats: list[Seat] = []
        self.deck_names: tuple[str, ...] = ()
        self.central = -1
        self.agenda: list[Task] = []
        self.asking: Ask | None = None
        self.used: list[int] = []          # tokens whose extra card this turn has used
        self.in_turn = False
        self.finished = False
        self.completed = False             # a seat has built its whole Wonder
        self.records: list[tuple[int, str, dict[int, Move]]] = []
        self.battles: list[list[int]] = []  # each battle's shields, by seat
        self.set_generator(seeded(seed))
        for step in self.program.setup:
            SETUP_STEPS[step.name](self, step.arguments)
        self.dealt = ([list(d) for d in self.table.decks], list(self.table.face_up),
                      list(self.table.stack))
        self._advance()

    def _copy(self, source: FlowGame) -> None:
        self.turn = source.turn
        self.current = source.current
        self.table = source.table.copy()
        self.seats = [city.copy() for city in source.seats]
        self.deck_names = source.deck_names
        self.central = source.central
        self.agenda = list(source.agenda)
        self.asking = source.asking
        self.used = list(source.used)
        self.in_turn = source.in_turn
        self.finished = source.finished
        self.completed = source.completed
        self.records = list(source.records)
        self.battles = list(source.battles)
        self.dealt = source.dealt
        source.share_generator(self)

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

    def built_piece(self, seat: int) -> None:
        """A piece was built: the tokens whose extra card that sets off."""
        if self.seats[seat].complete:
            self.completed = True
        self.schedule([("extra_offer", seat, t)
                       for t in progress.triggered(self, seat, -1, piece=True)])

    def ask(self, kind: str, seat: int, moves: tuple[Move, ...], about: int = -1) -> None:
        """Wait for ``seat`` to choose one of ``moves`` (a follow-up with one choice is
        made at once)."""
        if len(moves) == 1 and kind != decks.TURN:
            self._resolve(Ask(kind, seat, moves, about), moves[0])
            return
        self.asking = Ask(kind, seat, moves, about)

    def token_flag(self, seat: int, what: str) -> bool:
        """Whether a progress token of ``seat`` lifts a payment rule (``coin_value``,
        ``any_resources``)."""
        for token in self.seats[seat].progress:
            found = self.progress[token]
            if (found.coin_value > 1) if what == "coin_value" else found.any_resources:
                return True
        return False

    def token_shields(self, seat: int) -> int:
        return sum(self.progress[t].shields for t in self.seats[seat].progress)

    def piece_shields(self, seat: int) -> int:
        return pieces.shields(self, seat)

    def count(self, seat: int, what: str) -> int:
        """A count an end-of-game token reads (``cat_icon``, ``victory_token``,
        ``progress_token``, ``piece``)."""
        city = self.seats[seat]
        if what == "cat_icon":
            return sum(city.held[k] for k, kind in enumerate(self.kinds) if kind.cat)
        if what == "victory_token":
            return city.victories
        if what == "progress_token":
            return len(city.progress)
        return city.pieces_built

    # --- running the flow -------------------------------------------------------------------

    def _resolve(self, asked: Ask, move: Move) -> None:
        RESOLVERS[asked.kind](self, asked, move)

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
            moves = decks.turn_moves(self, self.current)
            if not moves:
                self.finished = True   # the seat to move has no card to take (no_card)
                break
            self.turn += 1
            self.in_turn = True
            self.used = []
            self.asking = Ask(decks.TURN, self.current, moves)

    def _end_turn(self) -> None:
        for step in self.program.after:
            TURN_STEPS[step.name](self, step.arguments)
        self.in_turn = False
        for condition in self.program.end_when:
            if _check_end(self, condition):
                self.finished = True
                return
        self.current = (self.current + 1) % self.players

    # --- the contract -----------------------------------------------------------------------

    @property
    def cities(self) -> Sequence[Any]:
        return self.seats

    @property
    def discard(self) -> list[Card]:
        """The discard pile's cards (a fresh list: the table keeps kind indices)."""
        return [self.kinds[k].card for k in self.table.discard]

    @discard.setter
    def discard(self, cards: list[Card]) -> None:
        numbers = {id(kind.card): k for k, kind in enumerate(self.kinds)}
        self.table.discard = [numbers[id(card)] for card in cards]

    @property
    def over(self) -> bool:
        return self.finished

    @property
    def history(self) -> list[dict[str, Any]]:
        return [{"age": 1, "turn": turn, "phase": phase,
                 "actions": {str(s): a.to_json() for s, a in sorted(actions.items())},
                 "coins": [0] * self.players} for turn, phase, actions in self.records]

    def decision(self) -> Decision:
        if self.finished or self.asking is None:
            return Decision(OVER, (), _WORDING[OVER])
        return Decision(self.asking.kind, (self.asking.seat,), _WORDING[self.asking.kind])

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
                                     f"({_WORDING[asked.kind]}: seat {asked.seat})")
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
                            f"({_WORDING[asked.kind]}), got seats {sorted(actions)}")
        move = actions[asked.seat]
        known = False
        for offered in asked.moves:
            if offered is move:
                known = True
                break
        if not known:
            self.check(asked.seat, move)
        self.records.append((self.turn, asked.kind, {asked.seat: move}))
        self.asking = None
        self._resolve(asked, move)
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
        model = self.data.rules.model
        order = model.score.order
        victory = int(self.program.arguments.get("battle_if_due", {}).get("victory", 3))
        cat = int(self.program.arguments.get("take_cat", {}).get("points", 2))
        lines = []
        for s, city in enumerate(self.seats):
            found = {"wonder": pieces.points(self, s),
                     "civilian": sum(kind.points * city.held[k]
                                     for k, kind in enumerate(self.kinds)),
                     "military": victory * city.victories,
                     "progress": progress.points(self, s),
                     "cat": cat if self.table.cat == s else 0}
            lines.append({name: found.get(name, 0) for name in order})
        return ScoreSheet(order, lines, [0] * self.players, tie_break=model.tie_break,
                          victory="points",
                          counts={"pieces": [c.pieces_built for c in self.seats]})

    def _deck_view(self, slot: int, seat: int) -> dict[str, Any]:
        deck = self.table.decks[slot]
        face_up = slot != self.central
        peek = (slot == self.central and seat == self.table.cat and self.asking is not None
                and self.asking.kind == decks.TURN and self.asking.seat == seat)
        top = self.kinds[deck[-1]].name if deck and (face_up or peek) else None
        owner = slot if slot < self.players else None
        return {"name": self.deck_names[slot], "owner": owner, "cards": len(deck),
                "top": top, "face_up": face_up}

    def view(self, seat: int) -> dict[str, Any]:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise RuleError(f"no player {seat!r}: seats are 0 to {self.players - 1}")
        table = self.table
        asked = self.asking
        found: dict[str, Any] = {
            "game": self.data.rules.name, "seat": seat, "turn": self.turn,
            "decision": self.decision().kind, "to_move": self.to_move(),
            "seats": [{"seat": s, "wonder": self.wonders[c.wonder].name,
                       "built": list(c.raised),
                       "cards": {self.kinds[k].name: n for k, n in enumerate(c.held) if n},
                       "shields": conflict.shields(self, s),
                       "progress": [self.progress[t].name for t in c.progress],
                       "victories": c.victories, "cat": table.cat == s}
                      for s, c in enumerate(self.seats)],
            "decks": [self._deck_view(slot, seat) for slot in range(len(table.decks))],
            "progress": {"face_up": [self.progress[t].name for t in table.face_up],
                         "stack": len(table.stack)},
            "conflict": {"peace": table.peace, "battle": table.conflict - table.peace},
            "discard": [self.kinds[k].name for k in table.discard],
        }
        if asked is not None and asked.seat == seat and table.looking:
            found["looking"] = [self.kinds[k].name for k in table.looking]
        if asked is not None and asked.seat == seat:
            found["legal"] = [str(m) for m in asked.moves]
        return found

    def clone(self) -> FlowGame:
        return FlowGame(self.data, self.players, self.seed, source=self)

    def determinize(self, seat: int, rng: random.Random) -> FlowGame:
        """A clone in which every card and token ``seat`` cannot see is dealt again: each
        deck's cards below its visible top (each deck's make-up is printed, so cards stay
        in their deck), the central deck, the stack of tokens and cards looked at by another,
        each dealt from a sorted pool, so the deal depends only on what ``seat`` may see."""
        other = self.clone()
        table = other.table
        table.decks = [list(d) for d in table.decks]
        for slot, deck in enumerate(table.decks):
            hidden = len(deck) - (1 if deck and self._deck_view(slot, seat)["top"] is not None
                                  else 0)
            if slot == table.looking_slot and self.asking is not None \
                    and self.asking.seat != seat:
                pool = sorted(deck[:hidden] + table.looking)   # (canonical, then dealt)
                shuffle(rng, pool)
                table.looking = pool[:len(table.looking)]
                deck[:hidden] = pool[len(table.looking):]
                asked = self.asking   # the chooser's options: the cards now looked at
                names = sorted({self.kinds[k].name for k in table.looking})
                other.asking = Ask(asked.kind, asked.seat,
                                   tuple(Move("keep", (n,)) for n in names), asked.about)
                continue
            part = sorted(deck[:hidden])   # (canonical: the deal ignores the hidden order)
            shuffle(rng, part)
            deck[:hidden] = part
        table.stack.sort()
        shuffle(rng, table.stack)
        other.set_generator(seeded(rng.getrandbits(64)))
        return other

    def setup_record(self) -> dict[str, Any]:
        decks_dealt, face_up, stack = self.dealt
        return {"wonders": [self.wonders[c.wonder].name for c in self.seats],
                "decks": {self.deck_names[s]: [self.kinds[k].name for k in d]
                          for s, d in enumerate(decks_dealt)},
                "progress": [self.progress[t].name for t in face_up],
                "stack": [self.progress[t].name for t in stack]}

    def invalidate(self) -> None:
        """Nothing is cached: every answer is worked out from the state."""

    def offer_cards(self) -> list[Card]:
        return [self.kinds[k].card for deck in self.table.decks for k in deck]

    def card_places(self, seat: int) -> dict[str, tuple[bool, list[Card]]]:
        table = self.table
        places: dict[str, tuple[bool, list[Card]]] = {}
        for slot, deck in enumerate(table.decks):
            seen = self._deck_view(slot, seat)["top"] is not None
            name = self.deck_names[slot]
            places[f"{name} deck, top"] = (seen, [self.kinds[k].card for k in deck[-1:]])
            places[f"{name} deck"] = (False, [self.kinds[k].card for k in deck[:-1]])
        for s, city in enumerate(self.seats):
            places[f"seat {s}"] = (True, [self.kinds[k].card for k, n in enumerate(city.held)
                                          for _ in range(n)])
        places["discard"] = (True, self.discard)
        asked = self.asking
        places["looked at"] = (asked is not None and asked.seat == seat,
                               [self.kinds[k].card for k in table.looking])
        return places


__all__ = ["CARD_STEPS", "CENTRAL", "FlowGame", "RESOLVERS", "SETUP_STEPS", "TURN_STEPS",
           "every_move"]
