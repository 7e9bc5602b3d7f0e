"""The decks offer: cards taken from the top of the decks that lie between neighbours.

Each seat's Wonder deck lies face up on that seat's left, so a seat draws from its own
deck (``left``), from its right neighbour's (``right``) and from the central deck, face
down (``central``).  A take names a deck by where it lies from the taker, or, for a take
from any deck, by its Wonder (``central`` for the central one).  Taking a card puts it in
front of the taker and sets off the flow's ``after_card`` steps
(:meth:`wonders.engine.flow.FlowGame.gain`).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Final, Mapping, cast

from wonders.dsl.components_model import ANY_DECK, CENTRAL, Components, Take
from wonders.dsl.model import Card
from wonders.engine.flow_actions import Move
from wonders.engine.flow_state import Ask, Part, part_index
from wonders.engine.mechanisms import pawn
from wonders.engine.randomness import shuffle
from wonders.engine.table import right_of

if TYPE_CHECKING:
    from wonders.engine.flow import FlowGame

NAME = "decks"
SLOT: Final = part_index(NAME)   # (the part's index in a game's slots)

TURN = "turn"        # the turn's decision: which deck to take from
DECK = "deck"        # a follow-up take: which deck
LOOK = "look"        # a follow-up take that looks at several cards: which deck
KEEP = "keep"        # which of the cards looked at to keep
RELATIVE = ("left", "right", CENTRAL)
WORDING: Final = {TURN: "taking a card", DECK: "choosing a deck to take from",
                  LOOK: "choosing a deck to look into",
                  KEEP: "keeping one of the cards looked at"}


class DeckTable(Part):
    """The cards between the players.

    ``decks``: by slot, the cards of each deck as kind indices, top last (slot ``i`` < the
    number of players is seat ``i``'s Wonder deck, on that seat's left; the last slot,
    ``central``, is the central deck), ``names`` each deck's; ``discard``: the cards
    discarded, kind indices in order; ``looking``: cards taken off a deck to choose from,
    and the deck's slot (-1: none); ``dealt``: the decks as set-up dealt them.
    """

    def __init__(self) -> None:
        self.decks: list[list[int]] = []
        self.names: tuple[str, ...] = ()
        self.central = -1
        self.discard: list[int] = []
        self.looking: list[int] = []
        self.looking_slot = -1
        self.dealt: list[list[int]] = []

    def copy(self) -> DeckTable:
        other = DeckTable()
        other.decks = [list(d) for d in self.decks]
        other.names = self.names
        other.central = self.central
        other.discard = list(self.discard)
        other.looking = list(self.looking)
        other.looking_slot = self.looking_slot
        other.dealt = self.dealt
        return other

    def keep_setup(self, game: FlowGame) -> None:
        self.dealt = [list(d) for d in self.decks]

    def slot(self, players: int, seat: int, place: str) -> int:
        """The slot of the deck at ``place`` seen from ``seat`` (a relative place or a
        name)."""
        if place == "left":
            return seat
        if place == "right":
            return right_of(seat, players)
        if place == CENTRAL:
            return self.central
        return self.names.index(place)

    def top_seen(self, game: FlowGame, slot: int, seat: int) -> bool:
        """Whether ``seat`` sees the top card of the deck in ``slot``: a Wonder deck's lies
        face up; the central deck's is seen by the seat taking a card that holds the pawn."""
        if slot != self.central:
            return True
        asked = game.asking
        return (seat == pawn.holder(game) and asked is not None and asked.kind == TURN
                and asked.seat == seat)

    def deck_view(self, game: FlowGame, slot: int, seat: int) -> dict[str, Any]:
        deck = self.decks[slot]
        top = game.kinds[deck[-1]].name if deck and self.top_seen(game, slot, seat) else None
        owner = slot if slot < game.players else None
        return {"name": self.names[slot], "owner": owner, "cards": len(deck),
                "top": top, "face_up": slot != self.central}

    def view(self, game: FlowGame, seat: int, found: dict[str, Any]) -> None:
        kinds = game.kinds
        found["decks"] = [self.deck_view(game, slot, seat) for slot in range(len(self.decks))]
        found["discard"] = [kinds[k].name for k in self.discard]
        asked = game.asking
        if asked is not None and asked.seat == seat and self.looking:
            found["looking"] = [kinds[k].name for k in self.looking]

    def seat_view(self, game: FlowGame, s: int, entry: dict[str, Any]) -> None:
        kinds = game.kinds
        entry["cards"] = {kinds[k].name: n for k, n in enumerate(game.seats[s].held) if n}

    def score(self, game: FlowGame, s: int, line: dict[str, int]) -> None:
        held = game.seats[s].held
        line["civilian"] = sum(kind.points * held[k] for k, kind in enumerate(game.kinds))

    def count(self, game: FlowGame, s: int, what: str) -> int:
        if what != "cat_icon":
            return -1
        held = game.seats[s].held
        return sum(held[k] for k, kind in enumerate(game.kinds) if kind.cat)

    def setup_record(self, game: FlowGame, record: dict[str, Any]) -> None:
        kinds = game.kinds
        record["decks"] = {self.names[s]: [kinds[k].name for k in d]
                           for s, d in enumerate(self.dealt)}

    def card_places(self, game: FlowGame, seat: int,
                    places: dict[str, tuple[bool, list[Card]]]) -> None:
        kinds = game.kinds
        for slot, deck in enumerate(self.decks):
            name = self.names[slot]
            places[f"{name} deck, top"] = (self.top_seen(game, slot, seat),
                                           [kinds[k].card for k in deck[-1:]])
            places[f"{name} deck"] = (False, [kinds[k].card for k in deck[:-1]])
        for s, city in enumerate(game.seats):
            places[f"seat {s}"] = (True, [kinds[k].card for k, n in enumerate(city.held)
                                          for _ in range(n)])
        places["discard"] = (True, [kinds[k].card for k in self.discard])
        asked = game.asking
        places["looked at"] = (asked is not None and asked.seat == seat,
                               [kinds[k].card for k in self.looking])

    def determinize(self, game: FlowGame, source: FlowGame, seat: int,
                    rng: random.Random) -> None:
        """Each deck's cards below its visible top are dealt again (each deck's make-up is
        printed, so cards stay in their deck), and the cards another seat is looking at
        with their deck, each from a sorted pool, so the deal depends only on what
        ``seat`` may see."""
        asked = source.asking
        for slot, deck in enumerate(self.decks):
            hidden = len(deck) - (1 if deck and self.top_seen(source, slot, seat) else 0)
            if slot == self.looking_slot and asked is not None and asked.seat != seat:
                pool = sorted(deck[:hidden] + self.looking)   # (canonical, then dealt)
                shuffle(rng, pool)
                self.looking = pool[:len(self.looking)]
                deck[:hidden] = pool[len(self.looking):]
                names = sorted({game.kinds[k].name for k in self.looking})
                game.asking = Ask(asked.kind, asked.seat,
                                  tuple(Move("keep", (n,)) for n in names), asked.about)
                continue
            part = sorted(deck[:hidden])   # (canonical: the deal ignores the hidden order)
            shuffle(rng, part)
            deck[:hidden] = part


def state(game: FlowGame) -> DeckTable:
    """The game's decks (the part this mechanism owns)."""
    return cast(DeckTable, game.slots[SLOT])


def place(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    """Set-up: each seat's Wonder deck on its left, the central deck last, each shuffled."""
    components = game.components
    table = state(game)
    slots = [components.decks[game.wonders[city.wonder].deck] for city in game.seats]
    slots.append(components.decks[components.central])
    table.names = tuple(deck.name for deck in slots)
    table.decks = []
    for deck in slots:
        cards = list(deck.cards)
        shuffle(game.generator(), cards)
        table.decks.append(cards)
    table.central = len(slots) - 1


def slot_of(game: FlowGame, seat: int, place: str) -> int:
    """The slot of the deck at ``place`` seen from ``seat`` (a relative place or a name)."""
    return state(game).slot(game.players, seat, place)


def places_of(game: FlowGame, seat: int, decks: tuple[str, ...]) -> list[str]:
    """The places a take may name, in order, each deck once (``any``: every deck, by its
    name), leaving out empty decks."""
    places: list[str] = []
    slots: set[int] = set()
    table = state(game)
    for deck in decks:
        names = list(table.names) if deck == ANY_DECK else [deck]
        for name in names:
            slot = table.slot(game.players, seat, name)
            if slot not in slots and table.decks[slot]:
                slots.add(slot)
                places.append(name)
    return places


_TAKES: Final = {place: Move("take", (place,)) for place in RELATIVE}
_TAKE_LEFT: Final = _TAKES["left"]   # (module constants: no look-up by name each turn)
_TAKE_RIGHT: Final = _TAKES["right"]
_TAKE_CENTRAL: Final = _TAKES[CENTRAL]


def take_move(place: str) -> Move:
    """The move that takes from ``place`` (one shared value for each relative place)."""
    found = _TAKES.get(place)
    return found if found is not None else Move("take", (place,))


def turn_moves(game: FlowGame, seat: int) -> tuple[Move, ...]:
    """The turn's takes: the left, right and central decks that still hold a card."""
    found = state(game)
    table = found.decks
    left, right, central = table[seat], table[right_of(seat, game.players)], table[found.central]
    moves = []
    if left:
        moves.append(_TAKE_LEFT)
    if right and right is not left:
        moves.append(_TAKE_RIGHT)
    if central:
        moves.append(_TAKE_CENTRAL)
    return tuple(moves)


def take_top(game: FlowGame, seat: int, slot: int) -> None:
    """Take the top card of the deck in ``slot`` (empty: nothing)."""
    deck = state(game).decks[slot]
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
    table = state(game)
    if kind == KEEP:
        index = game.kind_index(move.words[0])
        table.looking.remove(index)
        deck = table.decks[table.looking_slot]
        deck.extend(table.looking)
        shuffle(game.generator(), deck)
        table.looking, table.looking_slot = [], -1
        game.gain(seat, index)
        return
    slot = table.slot(game.players, seat, move.words[0])
    deck = table.decks[slot]
    if kind != LOOK:
        if deck:
            game.gain(seat, deck.pop())
        return
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


__all__ = ["DECK", "KEEP", "LOOK", "NAME", "TURN", "WORDING", "DeckTable", "every_move", "place",
           "places_of", "resolve", "slot_of", "state", "take", "take_move", "take_top",
           "turn_moves"]
