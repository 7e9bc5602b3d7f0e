"""The decks offer: cards taken from the top of the decks that lie between neighbours.

Each seat's Wonder deck lies face up on that seat's left, so a seat draws from its own
deck (``left``), from its right neighbour's (``right``) and from the central deck, face
down (``central``).  A take names a deck by where it lies from the taker, or, for a take
from any deck, by its Wonder (``central`` for the central one).  Taking a card puts it in
front of the taker and sets off the flow's ``after_card`` steps
(:meth:`wonders.engine.flow.FlowGame.gain`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from wonders.dsl.components_model import ANY_DECK, CENTRAL, Components, Take
from wonders.engine.flow_actions import Move
from wonders.engine.randomness import shuffle
from wonders.engine.table import right_of

if TYPE_CHECKING:
    from wonders.engine.flow import FlowGame

TURN = "turn"        # the turn's decision: which deck to take from
DECK = "deck"        # a follow-up take: which deck
LOOK = "look"        # a follow-up take that looks at several cards: which deck
KEEP = "keep"        # which of the cards looked at to keep
RELATIVE = ("left", "right", CENTRAL)


def slot_of(game: FlowGame, seat: int, place: str) -> int:
    """The slot of the deck at ``place`` seen from ``seat`` (a relative place or a name)."""
    if place == "left":
        return seat
    if place == "right":
        return right_of(seat, game.players)
    if place == CENTRAL:
        return game.central
    return game.deck_names.index(place)


def places_of(game: FlowGame, seat: int, decks: tuple[str, ...]) -> list[str]:
    """The places a take may name, in order, each deck once (``any``: every deck, by its
    name), leaving out empty decks."""
    places: list[str] = []
    slots: set[int] = set()
    for deck in decks:
        names = list(game.deck_names) if deck == ANY_DECK else [deck]
        for name in names:
            slot = slot_of(game, seat, name)
            if slot not in slots and game.table.decks[slot]:
                slots.add(slot)
                places.append(name)
    return places


_TAKES: Final = {place: Move("take", (place,)) for place in RELATIVE}


def take_move(place: str) -> Move:
    """The move that takes from ``place`` (one shared value for each relative place)."""
    found = _TAKES.get(place)
    return found if found is not None else Move("take", (place,))


def turn_moves(game: FlowGame, seat: int) -> tuple[Move, ...]:
    """The turn's takes: the left, right and central decks that still hold a card."""
    table = game.table.decks
    left, right, central = table[seat], table[right_of(seat, game.players)], table[game.central]
    moves = []
    if left:
        moves.append(_TAKES["left"])
    if right and right is not left:
        moves.append(_TAKES["right"])
    if central:
        moves.append(_TAKES[CENTRAL])
    return tuple(moves)


def take_top(game: FlowGame, seat: int, slot: int) -> None:
    """Take the top card of the deck in ``slot`` (empty: nothing)."""
    deck = game.table.decks[slot]
    if deck:
        game.gain(seat, deck.pop())


def take(game: FlowGame, seat: int, spec: Take) -> None:
    """What a piece's ``take`` does: the top card of each deck, or of one (asked), or
    several looked at of one (asked) and one kept."""
    places = places_of(game, seat, spec.decks)
    if spec.each:
        for place in places:
            take_top(game, seat, slot_of(game, seat, place))
        return
    if not places:
        return
    kind = LOOK if spec.look > 1 else DECK
    game.ask(kind, seat, tuple(take_move(p) for p in places), spec.look)


def resolve(game: FlowGame, seat: int, kind: str, move: Move, about: int) -> None:
    """Carry out a take (the turn's, a follow-up's, a look's or a keep)."""
    if kind == KEEP:
        table = game.table
        index = game.kind_index(move.words[0])
        table.looking.remove(index)
        deck = table.decks[table.looking_slot]
        deck.extend(table.looking)
        shuffle(game.generator(), deck)
        table.looking, table.looking_slot = [], -1
        game.gain(seat, index)
        return
    slot = slot_of(game, seat, move.words[0])
    if kind != LOOK:
        take_top(game, seat, slot)
        return
    table = game.table
    deck = table.decks[slot]
    count = min(about, len(deck))
    table.looking = deck[len(deck) - count:][::-1]
    del deck[len(deck) - count:]
    table.looking_slot = slot
    names = sorted({game.kinds[k].name for k in table.looking})
    game.ask(KEEP, seat, tuple(Move("keep", (n,)) for n in names))


def every_move(components: Components) -> list[Move]:
    """Every move a take can be (by relative place or by deck name) or a keep."""
    places = ["left", "right", *(deck.name for deck in components.decks)]
    return ([take_move(p) for p in dict.fromkeys(places)]
            + [Move("keep", (kind.name,)) for kind in components.kinds])


__all__ = ["DECK", "KEEP", "LOOK", "TURN", "every_move", "places_of", "resolve", "slot_of", "take",
           "take_move", "take_top", "turn_moves"]
