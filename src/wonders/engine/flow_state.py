"""The state of a game run by the flow interpreter, in small objects that copy themselves.

A :class:`Seat` is what one player has in front of them; a :class:`Part` is the state one
mechanism owns (what lies between the players: the decks, the tokens …); an :class:`Ask` is
one decision waiting for its answer.  Each copies itself (``copy``), so a game's clone is
its objects' copies, never a hand-kept list of fields.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Sequence

from wonders.dsl.model import Card
from wonders.engine.errors import RuleError
from wonders.engine.flow_actions import Move

if TYPE_CHECKING:
    from wonders.engine.flow import FlowGame
    from wonders.engine.scoring import ScoreSheet


class Seat:
    """One player: the board dealt (``wonder``, an index, and its ``name``), the cards held
    (a count per card kind) and ``built``, every card taken (the name the statistics read
    of every game's cities).  What a mechanism keeps per seat beyond this is in its part."""

    def __init__(self, seat: int, wonder: int, kinds: int, name: str = "") -> None:
        self.seat = seat
        self.wonder = wonder
        self.name = name   # the board's
        self.held = [0] * kinds
        self.coins = 0   # (the contract's coins: a flow game's are cards, if any)
        self.built: list[Card] = []   # every card taken, in order (statistics read it)

    def copy(self) -> Seat:
        other = Seat(self.seat, self.wonder, 0, self.name)
        other.held = list(self.held)
        other.built = list(self.built)
        return other

    def label(self) -> str:
        """The seat for people: ``player 1 (WONDER)``."""
        return f"player {self.seat} ({self.name})" if self.name else f"player {self.seat}"


class SeatRecord:
    """A seat as the contract's ``cities`` show it, assembled from the parts when asked:
    its label, coins and cards taken, what a score sheet row in JSON says of it beyond its
    points (``summary``), and its boards' states for statistics by board."""

    def __init__(self, seat: Seat, summary: dict[str, object],
                 states: list[tuple[str, str]]) -> None:
        self.seat = seat.seat
        self.name = seat.name
        self.coins = seat.coins
        self.built = seat.built
        self._label = seat.label()
        self._summary = summary
        self._states = states

    def label(self) -> str:
        return self._label

    def summary(self) -> dict[str, object]:
        return dict(self._summary)

    def wonder_states(self) -> list[tuple[str, str]]:
        return list(self._states)


class Part:
    """The state one mechanism owns in a game, and what it adds to what the game shows.

    The interpreter makes one part for each mechanism its flow selects (in the order the
    flow first names them), copies a game by copying its parts, and assembles the view,
    the score sheet, the set-up record, the card places and a determinization from each
    part's contribution; a contribution a mechanism does not make is left out (the
    defaults add nothing).  A part without state of its own is shared by copies.
    """

    def copy(self) -> Part:
        return self

    def keep_setup(self, game: FlowGame) -> None:
        """Remember what set-up dealt (for :meth:`setup_record`)."""

    def view(self, game: FlowGame, seat: int, found: dict[str, Any]) -> None:
        """Add what ``seat`` sees of this part's table state to a view."""

    def seat_view(self, game: FlowGame, s: int, entry: dict[str, Any]) -> None:
        """Add what everybody sees of seat ``s`` to its entry in a view."""

    def score(self, game: FlowGame, s: int, line: dict[str, int]) -> None:
        """Add seat ``s``'s points from this part to its score line (keys: ``score.order``)."""

    def counts(self, game: FlowGame, found: dict[str, list[int]]) -> None:
        """Add the per-seat counts ties are broken by to a score sheet."""

    def setup_record(self, game: FlowGame, record: dict[str, Any]) -> None:
        """Add what set-up dealt to the set-up record."""

    def summary(self, game: FlowGame, s: int, found: dict[str, object]) -> None:
        """Add what a score sheet row in JSON says of seat ``s`` from this part."""

    def count(self, game: FlowGame, s: int, what: str) -> int:
        """A count of seat ``s``'s that effects read (``what``: a name this part knows;
        -1: not this part's)."""
        return -1

    def board_states(self, game: FlowGame, s: int, found: list[tuple[str, str]]) -> None:
        """Add seat ``s``'s boards and their states (statistics by board)."""

    def card_places(self, game: FlowGame, seat: int,
                    places: dict[str, tuple[bool, list[Card]]]) -> None:
        """Add the places of this part's cards: (whether ``seat`` sees them, the cards)."""

    def determinize(self, game: FlowGame, source: FlowGame, seat: int,
                    rng: random.Random) -> None:
        """Deal again in ``game`` (a clone of ``source``) what ``seat`` cannot see."""

    def forget(self, game: FlowGame) -> None:
        """Drop what this part keeps worked out (the state was changed by hand)."""

    # --- the effect runtime's verbs (runtime.Table) and the game's own answers, for the
    # part that owns them: the game hands each verb a part names in VERBS to that part;
    # these defaults say which verb a part was handed but does not do.

    #: the verbs this part does for the game (``gain``, ``shields``, ``view`` …)
    VERBS: tuple[str, ...] = ()

    def _refuse(self, verb: str) -> RuleError:
        return RuleError(f"mechanism part {type(self).__name__} names '{verb}' but does "
                         "not do it")

    def gain(self, game: FlowGame, seat: int, coins: int) -> None:
        raise self._refuse("gain")

    def lose(self, game: FlowGame, seat: int, coins: int) -> None:
        raise self._refuse("lose")

    def give(self, game: FlowGame, giver: int, taker: int, coins: int) -> None:
        raise self._refuse("give")

    def shields(self, game: FlowGame, seat: int, count: int) -> None:
        raise self._refuse("shields")

    def science_arrived(self, game: FlowGame, seat: int, symbol: str) -> None:
        raise self._refuse("science_arrived")

    def follow_up(self, game: FlowGame, kind: str, seat: int, effect: Any) -> None:
        """A choice an effect raises (the runtime's ``ask``)."""
        raise self._refuse("follow_up")

    def take_tokens(self, game: FlowGame, seat: int, kind: str, count: int) -> None:
        raise self._refuse("take_tokens")

    def produced(self, game: FlowGame, seat: int, effect: Any) -> None:
        raise self._refuse("produced")

    def triggers(self, game: FlowGame, seat: int) -> Sequence[tuple[object, Any]]:
        raise self._refuse("triggers")

    def city_list(self, game: FlowGame) -> Sequence[Any]:
        raise self._refuse("city_list")

    def token_pools(self, game: FlowGame) -> dict[str, list[Any]]:
        """The token pools effects take from (the runtime's ``pools``)."""
        raise self._refuse("pools")

    def discard_pile(self, game: FlowGame) -> list[Card]:
        """The discard pile effects build from and add to (the runtime's ``discard``)."""
        raise self._refuse("discard")

    def offer_cards(self, game: FlowGame) -> list[Card]:
        raise self._refuse("offer_cards")

    def check(self, game: FlowGame, seat: int, action: Any) -> None:
        """Raise why ``action`` of ``seat`` is refused (it is not one of the options)."""
        raise self._refuse("check")

    def table_view(self, game: FlowGame, seat: int) -> dict[str, Any]:
        """The whole view of ``seat`` (for a part that owns ``view``)."""
        raise self._refuse("view")

    def score_sheet(self, game: FlowGame) -> ScoreSheet:
        raise self._refuse("score_sheet")


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

__all__ = ["Ask", "Part", "Seat", "SeatRecord", "Task"]
