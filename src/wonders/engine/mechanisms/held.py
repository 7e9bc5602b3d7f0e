"""Held tokens: drawn in secret, prepared with a card taken from the offer, triggered once.

Set-up step ``stack_held: {kind}`` shuffles the tokens of ``kind`` (conspiracies) into a
face-down stack.  The effect ``conspire`` draws two: the seat keeps one face down (both
with the ``keep_drawn`` ability) and puts the other on the top or the bottom of the stack.
A turn may take a card of the structure to **prepare** a held token (``prepare TOKEN with
CARD``: the card is tucked under it, at no cost).  Turn-start step ``offer_held: {kind}``:
before the seat to move takes a card, it may **trigger** one prepared token it has not
triggered (or ``skip``); the token's effects act once, as a card's do when it arrives
(``now:`` clauses and ongoing shields), then the turn goes on.  ``trigger KIND token``
(an effect) triggers one of the seat's held tokens at once, prepared or not.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Final, Mapping, Sequence

from wonders.dsl.model import Card, Token
from wonders.dsl.model import Game as GameData
from wonders.engine.flow_actions import Move
from wonders.engine.flow_state import Ask, Part, part_index
from wonders.engine.mechanisms import structure
from wonders.engine.mechanisms.bank import cities_of
from wonders.engine.randomness import shuffle
from wonders.engine.runtime import act

if TYPE_CHECKING:
    from wonders.engine.flow import FlowGame

NAME: Final = "held"
SLOT: Final = part_index(NAME)
KEEP: Final = "keep"          # which drawn token to keep
RETURN: Final = "return"      # the other one to the top or the bottom of the stack
TRIGGER: Final = "trigger"    # a prepared token triggered (or skip), as a turn starts
CONSPIRE: Final = "conspire"  # the agenda task drawing two tokens
PREPARE: Final = "prepare"    # the structure's third use of a taken card
KEEP_DRAWN: Final = "keep_drawn"
WORDING: Final[dict[str, str]] = {KEEP: "keeping a drawn token", RETURN:
                                  "putting the other drawn token on the top or the bottom",
                                  TRIGGER: "triggering a prepared token (or not)"}
SKIP: Final = Move("skip")
UNPREPARED, PREPARED, USED = 0, 1, 2


class HeldTokens(Part):
    """The face-down ``stack`` (top first), each seat's held tokens with their state
    (0 unprepared, 1 prepared, 2 triggered) and the card under each prepared one, and the
    tokens drawn and not yet kept or returned."""

    def __init__(self, kind: str, players: int) -> None:
        self.kind = kind
        self.stack: list[Token] = []
        self.held: list[list[tuple[Token, int]]] = [[] for _ in range(players)]
        self.under: dict[str, Card] = {}
        self.drawn: list[Token] = []

    def copy(self) -> HeldTokens:
        other = HeldTokens(self.kind, 0)
        other.stack = list(self.stack)
        other.held = [list(h) for h in self.held]
        other.under = dict(self.under)
        other.drawn = list(self.drawn)
        return other

    def set(self, stack: list[Token], held: list[list[tuple[Token, int]]]) -> None:
        """What a position says (scenarios)."""
        self.stack = list(stack)
        self.held = [list(h) for h in held]

    def view(self, game: FlowGame, seat: int, found: dict[str, Any]) -> None:
        """The tokens' ``kind``, the stack's size, each seat's held tokens (a name to its
        owner only, or to all once triggered; prepared, triggered), and the tokens drawn
        (their names to the seat choosing among them, else their number)."""
        found[NAME] = {
            "kind": self.kind, "stack": len(self.stack),
            "seats": [[{"name": token.name if s == seat or state == USED else None,
                        "prepared": state >= PREPARED, "triggered": state == USED}
                       for token, state in self.held[s]] for s in range(len(self.held))],
            "drawn": [t.name for t in self.drawn] if game.asking is not None
            and game.asking.seat == seat and game.asking.kind in (KEEP, RETURN) else
            len(self.drawn)}

    def card_places(self, game: FlowGame, seat: int,
                    places: dict[str, tuple[bool, list[Card]]]) -> None:
        places["under held tokens"] = (False, list(self.under.values()))

    def determinize(self, game: FlowGame, source: FlowGame, seat: int,
                    rng: random.Random) -> None:
        """The stack and the rival's untriggered tokens, dealt again."""
        rival = 1 - seat
        secret = [i for i, (_, state) in enumerate(self.held[rival]) if state != USED]
        pool = [self.held[rival][i][0] for i in secret] + self.stack
        pool.sort(key=lambda t: t.name)
        rng.shuffle(pool)
        for index, token in zip(secret, pool):
            self.held[rival][index] = (token, self.held[rival][index][1])
        self.stack = pool[len(secret):]


def stack(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    """Set-up step ``stack_held``: the tokens of ``kind`` shuffled face down; the structure
    offers to prepare them."""
    part = state(game)
    tokens = sorted((t for t in game.data.tokens if t.kind == part.kind), key=lambda t: t.name)
    shuffle(game.generator(), tokens, game.drawer())
    part.stack = tokens
    structure.state(game).uses = ((PREPARE, prepare_moves, prepare),)


# --- conspire: draw two, keep one -------------------------------------------------------

def carry_out(game: FlowGame, seat: int, effect: Any) -> None:
    """``conspire``: two tokens drawn, asked after what waits."""
    game.agenda.append((CONSPIRE, seat, 0))


def conspire(game: FlowGame, seat: int, about: int) -> None:
    part = state(game)
    part.drawn = part.stack[:2]
    del part.stack[:2]
    if not part.drawn:
        return
    if len(part.drawn) == 1 or cities_of(game)[seat].has_ability(KEEP_DRAWN):
        part.held[seat] += [(token, UNPREPARED) for token in part.drawn]
        part.drawn = []
        return
    game.ask(KEEP, seat, tuple(Move(KEEP, (t.name,)) for t in part.drawn))


def resolve_keep(game: FlowGame, asked: Ask, action: Any) -> None:
    move: Move = action
    part = state(game)
    seat = asked.seat
    if move.verb == KEEP:
        kept = next(t for t in part.drawn if t.name == move.words[0])
        part.held[seat].append((kept, UNPREPARED))
        part.drawn = [t for t in part.drawn if t is not kept]
        game.wait(RETURN, seat, [Move(RETURN, ("top",)), Move(RETURN, ("bottom",))])
        return
    if move.words[0] == "top":
        part.stack[0:0] = part.drawn
    else:
        part.stack += part.drawn
    part.drawn = []


# --- preparing (a use of the structure's card) and triggering --------------------------

def prepare_moves(game: FlowGame, seat: int, cards: Sequence[Card]) -> list[Any]:
    """``prepare TOKEN with CARD`` for each unprepared held token and accessible card."""
    part = state(game)
    waiting = [token for token, state_ in part.held[seat] if state_ == UNPREPARED]
    return [Move(PREPARE, (token.name, card.name)) for token in waiting for card in cards]


def prepare(game: FlowGame, seat: int, move: Move, card: Card) -> None:
    part = state(game)
    held = part.held[seat]
    for index, (token, state_) in enumerate(held):
        if token.name == move.words[0] and state_ == UNPREPARED:
            held[index] = (token, PREPARED)
            part.under[token.name] = card
            return


def offer(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    """Turn-start step ``offer_held``: the seat to move may trigger a prepared token."""
    _ask_trigger(game, game.current, (PREPARED,))


def _ask_trigger(game: FlowGame, seat: int, states: tuple[int, ...]) -> None:
    part = state(game)
    ready = [Move(TRIGGER, (token.name,)) for token, state_ in part.held[seat]
             if state_ in states]
    if ready:
        game.wait(TRIGGER, seat, ready + [SKIP])


def trigger_effect(game: FlowGame, seat: int, effect: Any) -> None:
    """``trigger KIND token``: any untriggered held token, at once (asked after what waits)."""
    game.agenda.append((TRIGGER, seat, 0))


def ask_any(game: FlowGame, seat: int, about: int) -> None:
    _ask_trigger(game, seat, (UNPREPARED, PREPARED))


def resolve_trigger(game: FlowGame, asked: Ask, action: Any) -> None:
    move: Move = action
    if move.verb != TRIGGER:
        return
    part = state(game)
    held = part.held[asked.seat]
    for index, (token, _) in enumerate(held):
        if token.name == move.words[0]:
            held[index] = (token, USED)
            act(game.table, asked.seat, token.effects, True)
            return


def make(data: GameData, players: int, arguments: Mapping[str, Mapping[str, Any]]) -> HeldTokens:
    return HeldTokens(str(arguments.get("stack_held", {}).get("kind", "conspiracy")), players)


def every_move(data: GameData, arguments: Mapping[str, Mapping[str, Any]]) -> list[Move]:
    """Every move held tokens can offer (the fixed action ids of agents and OpenSpiel):
    keep or trigger each token, prepare it with any card, return to the top or bottom,
    skip."""
    kind = str(arguments.get("stack_held", {}).get("kind", "conspiracy"))
    names = [t.name for t in data.tokens if t.kind == kind]
    cards = list(dict.fromkeys(c.name for c in data.cards))
    found = [SKIP, Move(RETURN, ("top",)), Move(RETURN, ("bottom",))]
    found += [Move(verb, (name,)) for verb in (KEEP, TRIGGER) for name in names]
    found += [Move(PREPARE, (name, card)) for name in names for card in cards]
    return found


def state(game: FlowGame) -> HeldTokens:
    return game.slots[SLOT]  # type: ignore[return-value]  # (no cast: a call)


__all__ = ["CONSPIRE", "HeldTokens", "KEEP", "KEEP_DRAWN", "NAME", "PREPARE", "RETURN",
           "TRIGGER", "WORDING", "ask_any", "carry_out", "conspire", "every_move", "make", "offer",
           "prepare", "prepare_moves", "resolve_keep", "resolve_trigger", "stack", "state",
           "trigger_effect"]
