"""The state of a game run by the flow interpreter, in small objects that copy themselves.

A :class:`Seat` is what one player has in front of them; the :class:`Centre` is what lies
between the players (the decks, the progress tokens, the conflict tokens, the cat); an
:class:`Ask` is one decision waiting for its answer.  Each copies itself (``copy``), so a
game's clone is its objects' copies, never a hand-kept list of fields.
"""

from __future__ import annotations

from wonders.dsl.model import Card
from wonders.engine.flow_actions import Move


class Seat:
    """One player: the Wonder and the pieces raised, the cards held (a count per card
    kind), the progress tokens held (token indices, in the order taken) and the military
    victory tokens won; ``built`` is every card taken (the name the statistics read of
    every game's cities)."""

    def __init__(self, seat: int, wonder: int, pieces: int, kinds: int, name: str = "") -> None:
        self.seat = seat
        self.wonder = wonder
        self.name = name   # the Wonder's
        self.raised = [False] * pieces   # per piece of the Wonder, whether it is built
        self.held = [0] * kinds
        self.progress: list[int] = []
        self.victories = 0
        self.coins = 0   # (the contract's coins: a decks game has none, only coin cards)
        self.built: list[Card] = []   # every card taken, in order (statistics read it)

    def copy(self) -> Seat:
        other = Seat(self.seat, self.wonder, 0, 0, self.name)
        other.raised = list(self.raised)
        other.held = list(self.held)
        other.progress = list(self.progress)
        other.victories = self.victories
        other.built = list(self.built)
        return other

    def label(self) -> str:
        """The seat for people: ``player 1 (WONDER)``."""
        return f"player {self.seat} ({self.name})" if self.name else f"player {self.seat}"

    def wonder_states(self) -> list[tuple[str, str]]:
        """The Wonder played and whether it was completed, for statistics by Wonder."""
        return [(self.name, "complete" if self.complete else "unfinished")]

    def summary(self) -> dict[str, object]:
        """What a score sheet row in JSON says of the seat beyond its points."""
        return {"wonder": self.name, "pieces": self.pieces_built,
                "progress_tokens": len(self.progress), "victories": self.victories}

    @property
    def pieces_built(self) -> int:
        return sum(self.raised)

    @property
    def complete(self) -> bool:
        return all(self.raised)


class Centre:
    """What lies between the players.

    ``decks``: by slot, the cards of each deck as kind indices, top last (slot ``i`` < the
    number of players is seat ``i``'s Wonder deck, on that seat's left; the last slot is the
    central deck); ``face_up``/``stack``: the progress tokens (token indices; the stack's top
    last); ``peace``/``conflict``: the conflict tokens peace side up, and in all; ``battle``:
    whether a battle is due at the end of this turn; ``cat``: the cat pawn's holder (-1:
    nobody); ``discard``: the cards discarded, kind indices in order; ``looking``: cards
    taken off a deck to choose from, and the deck's slot (-1: none).
    """

    def __init__(self) -> None:
        self.decks: list[list[int]] = []
        self.face_up: list[int] = []
        self.stack: list[int] = []
        self.peace = 0
        self.conflict = 0
        self.battle = False
        self.cat = -1
        self.discard: list[int] = []
        self.looking: list[int] = []
        self.looking_slot = -1

    def copy(self) -> Centre:
        other = Centre()
        other.decks = [list(d) for d in self.decks]
        other.face_up = list(self.face_up)
        other.stack = list(self.stack)
        other.peace = self.peace
        other.conflict = self.conflict
        other.battle = self.battle
        other.cat = self.cat
        other.discard = list(self.discard)
        other.looking = list(self.looking)
        other.looking_slot = self.looking_slot
        return other


class Ask:
    """A decision waiting for ``seat``: its kind (the history's phase), the legal moves, and
    what the mechanism that asked needs to resolve it (``about``: a piece, a token …).
    Never changed once made, so clones share it; ``seats`` is the one-seat list
    ``to_move`` hands out (read only)."""

    def __init__(self, kind: str, seat: int, moves: tuple[Move, ...], about: int = -1) -> None:
        self.kind = kind
        self.seat = seat
        self.moves = moves
        self.about = about
        self.seats = [seat]


#: A task on the agenda: (the runner's name, the seat, what it is about: a card kind, a token).
Task = tuple[str, int, int]

__all__ = ["Ask", "Centre", "Seat", "Task"]
