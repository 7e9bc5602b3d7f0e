"""The state of a game run by the flow interpreter, in small objects that copy themselves.

A :class:`Seat` is what one player has in front of them; a :class:`Part` is the state one
mechanism owns (what lies between the players: the decks, the tokens …); an :class:`Ask` is
one decision waiting for its answer.  Each copies itself (``copy``), so a game's clone is
its objects' copies, never a hand-kept list of fields.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Callable, Final, Sequence

from wonders.dsl import effects as fx
from wonders.dsl.model import Card
from wonders.engine import runtime
from wonders.engine.city import City
from wonders.engine.errors import RuleError

if TYPE_CHECKING:
    from wonders.engine.flow import FlowGame
    from wonders.engine.scoring import ScoreSheet


_SLOTS: dict[str, int] = {}


def part_index(name: str) -> int:
    """The fixed index of mechanism ``name``'s part in a game's ``slots``, given once per
    mechanism when its module is imported: a mechanism reaches its part by a list read
    (a dict look-up by name there was 6 % of an Architects game, docs/engine.md).  The
    indices are this process's own: a game is copied by ``clone``, never pickled."""
    return _SLOTS.setdefault(name, len(_SLOTS))


def part_count() -> int:
    """How many mechanisms have a slot (the length of a game's ``slots``)."""
    return len(_SLOTS)


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

    def refresh(self, game: FlowGame) -> None:
        """Work out again what this part derives from its state (a scenario set it by
        hand: :meth:`FlowGame.invalidate`)."""

    # --- the effect runtime's verbs: the part that keeps the seats' cities carries them out

    def keeps_cities(self) -> bool:
        """Whether this part keeps the seats' cities (the contract's ``cities``, what
        effects act on); a flow's parts have at most one that does."""
        return False

    def arrival(self) -> tuple[bool, bool]:
        """``runtime.Table``'s (``arrival_ongoing``, ``arrival_lasting``) for the cities."""
        return False, False

    def city_list(self, game: FlowGame) -> Sequence[City]:
        raise _cannot("keep cities")

    def gain(self, game: FlowGame, seat: int, coins: int) -> None:
        raise _cannot("give coins")

    def lose(self, game: FlowGame, seat: int, coins: int) -> None:
        raise _cannot("take coins")

    def give(self, game: FlowGame, giver: int, taker: int, coins: int) -> None:
        raise _cannot("move coins between players")

    def shields(self, game: FlowGame, seat: int, count: int) -> None:
        raise _cannot("count shields as they arrive")

    def science_arrived(self, game: FlowGame, seat: int, symbol: str) -> None:
        raise _cannot("count science as it arrives")

    def replay(self, game: FlowGame, seat: int) -> None:
        raise _cannot("give another turn")

    def take_tokens(self, game: FlowGame, seat: int, kind: str, count: int) -> None:
        raise _cannot("give counter tokens")

    def ask(self, game: FlowGame, kind: str, seat: int, effect: fx.Effect) -> None:
        raise _cannot(f"ask a follow-up ({kind})")

    def produced(self, game: FlowGame, seat: int, effect: fx.Produce) -> None:
        raise _cannot("note production as it arrives")

    def triggers(self, game: FlowGame, seat: int) -> Sequence[tuple[object, fx.Clause]]:
        return ()

    def token_pools(self, game: FlowGame) -> dict[str, list[Any]]:
        """The token pools effects take from (the runtime's ``pools``; none by default)."""
        return {}

    def discard_pile(self, game: FlowGame) -> list[Card]:
        """The discard pile effects build from and add to (the runtime's ``discard``)."""
        return []

    def score_sheet(self, game: FlowGame) -> ScoreSheet | None:
        """The whole score sheet, for the part that keeps cities scored as cities are
        (None: the interpreter assembles it from every part's lines)."""
        return None

    def coins(self, game: FlowGame) -> tuple[int, ...]:
        """Each seat's coins, from the cities this part keeps."""
        return tuple([city.coins for city in self.city_list(game)])


def _cannot(what: str) -> RuleError:
    return RuleError(f"no mechanism of this flow can {what}: an effect needs one that does")


#: the counts ``per NAME`` reads from a part of the flow (``Part.count``) rather than the
#: round's number (the compiler's ``KEPT_COUNTS``)
KEPT_BY_PARTS: Final = ("influence", "space")


class EffectTable(runtime.Table):
    """What the effect runtime acts on in a flow game (:class:`runtime.Table`): the seats'
    cities and the verbs, each carried out by the part that keeps the cities.  A view of
    the game, made again for each copy; the random numbers are the game's own."""

    def __init__(self, game: FlowGame, keeper: Part) -> None:
        self.game = game
        self.keeper = keeper
        self.arrival_ongoing, self.arrival_lasting = keeper.arrival()
        self.watching = runtime.has_watchers(game.data)
        self.pools = keeper.token_pools(game)   # (the lists themselves: effects change them)
        self.discard = keeper.discard_pile(game)

    def generator(self) -> random.Random:
        return self.game.generator()

    def drawer(self) -> Any:
        return self.game.drawer()

    def city_list(self) -> Sequence[City]:
        return self.keeper.city_list(self.game)

    @property
    def over(self) -> bool:
        return self.game.finished

    def gain(self, seat: int, coins: int) -> None:
        self.keeper.gain(self.game, seat, coins)

    def lose(self, seat: int, coins: int) -> None:
        self.keeper.lose(self.game, seat, coins)

    def shields(self, seat: int, count: int) -> None:
        self.keeper.shields(self.game, seat, count)

    def give(self, giver: int, taker: int, coins: int) -> None:
        self.keeper.give(self.game, giver, taker, coins)

    def science_arrived(self, seat: int, symbol: str) -> None:
        self.keeper.science_arrived(self.game, seat, symbol)

    def replay(self, seat: int) -> None:
        self.keeper.replay(self.game, seat)

    def take_tokens(self, seat: int, kind: str, count: int) -> None:
        self.keeper.take_tokens(self.game, seat, kind, count)

    def ask(self, kind: str, seat: int, effect: fx.Effect) -> None:
        self.keeper.ask(self.game, kind, seat, effect)

    def produced(self, seat: int, effect: fx.Produce) -> None:
        self.keeper.produced(self.game, seat, effect)

    def triggers(self, seat: int) -> Sequence[tuple[object, fx.Clause]]:
        return self.keeper.triggers(self.game, seat)

    def carry_out(self, seat: int, effect: fx.Effect) -> None:
        self.game.carry_out(seat, effect)

    def kept(self, seat: int, name: str) -> int:
        """``per influence`` (and any count a part keeps): the part's; a period (``per
        age``): the number of the current round."""
        found = self.game.count(seat, name) if name in KEPT_BY_PARTS else -1
        return found if found >= 0 else self.game.age


class Ask:
    """A decision waiting for ``seat``: its kind (the history's phase), the legal moves (the
    offer's action type: a :class:`~wonders.engine.flow_actions.Move` or another), and
    what the mechanism that asked needs to resolve it (``about``: a piece, a token …).
    Never changed once made, so clones share it; ``seats`` is the one-seat list
    ``to_move`` hands out (read only)."""

    def __init__(self, kind: str, seat: int, moves: tuple[Any, ...], about: int = -1) -> None:
        self.kind = kind
        self.seat = seat
        self.moves = moves
        self.about = about
        while len(_ONE_SEAT) <= seat:
            _ONE_SEAT.append([len(_ONE_SEAT)])
        self.seats = _ONE_SEAT[seat] if seat >= 0 else [seat]


#: the one-seat lists ``Ask.seats`` hands out, one per seat, shared (read only, as the
#: structure loop's were: not a list made at every decision)
_ONE_SEAT: Final[list[list[int]]] = []


class TurnRule:
    """An offer's turn asked of one seat at a time: the moves it offers and how a move is
    carried out.  An offer's own class overrides both (compiled, the interpreter then calls
    them natively: a stored function is called through Python's protocol, a few hundred
    instructions a call); this one calls the functions it is given."""

    def __init__(self, moves: Callable[[FlowGame, int], tuple[Any, ...]],
                 resolve: Callable[[FlowGame, Ask, Any], None] | None) -> None:
        self._moves = moves
        self._resolve = resolve

    def moves(self, game: FlowGame, seat: int) -> tuple[Any, ...]:
        return self._moves(game, seat)

    def resolve(self, game: FlowGame, asked: Ask, move: Any) -> None:
        resolve = self._resolve
        if resolve is None:
            raise RuleError(f"no mechanism of this flow carries out a {asked.kind}")
        resolve(game, asked, move)


class Choice:
    """A decision several seats are asked at once (``decide: all``), as the mechanism that
    offers it answers for it: a seat's options (from what its follow-up is ``about``;
    None for the turn), whether a follow-up is still asked, how an answer resolves, why a
    move is refused.  Each mechanism overrides the methods (compiled, the interpreter
    then calls them natively rather than through a stored function)."""

    def __init__(self, wording: str) -> None:
        self.wording = wording

    def options(self, game: FlowGame, seat: int, about: Any) -> list[Any]:
        raise NotImplementedError

    def resolve(self, game: FlowGame, seat: int, action: Any, about: Any) -> None:
        raise NotImplementedError

    def due(self, game: FlowGame, seat: int, about: Any) -> bool:
        """Whether a follow-up about ``about`` is still asked (else it is dropped unasked)."""
        return True

    def why(self, game: FlowGame, seat: int, action: object, kind: str, about: Any,
            options: Sequence[object]) -> str:
        """Why ``action`` is not one of ``options``."""
        return "not one of the options"


class AskAll:
    """A decision waiting for several seats at once (a flow that ``decide: all``): its
    kind and the seats, in seat order; each seat's options are worked out when asked (for a
    follow-up, from what the head of its queue is about).  Never changed once made."""

    def __init__(self, kind: str, seats: tuple[int, ...]) -> None:
        self.kind = kind
        self.seats = seats


#: A task on the agenda: (the runner's name, the seat, what it is about: a card kind, a token).
Task = tuple[str, int, int]

__all__ = ["Ask", "AskAll", "Choice", "EffectTable", "Part", "Seat", "SeatRecord", "Task",
           "TurnRule", "part_count", "part_index"]
