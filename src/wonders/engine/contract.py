"""The one game contract: what every game loop offers, and all that the rest of the engine uses.

Bots, logs and replays, simulations, rule scenarios, the terminal UI, the command
line (and later the web table and agent environments) speak to a game only
through this protocol.  Which loop plays a rule set is chosen by
:mod:`wonders.engine.registry`, the only place that knows the concrete loops.

The shape follows OpenSpiel's ``State``: one object for simultaneous and
sequential games alike.  At every point of a game there is one **pending
decision** (:class:`Decision`): its kind (``turn``, ``last_card``,
``discard_build``, ``side``, ``wonder_draft``, ``token``, ``destroy``,
``starter``, ``reserve_build``, ``copy`` …), the seats that decide it *at once*
(every seat on a drafting turn; one seat on a Duel turn or a follow-up choice)
and, per seat, the legal actions.  ``play`` takes one action from each of those
seats and resolves them together.  A game is a function of (data, players, seed,
actions): the loop owns its random generator, and ``history`` records every
decision the same way for every loop, which is what logs hold and replays check.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping, Protocol, Sequence, Union, runtime_checkable

from wonders.engine.actions import Action
from wonders.engine.dice_actions import DiceAction
from wonders.engine.flow_actions import Move

if TYPE_CHECKING:
    from wonders.dsl.model import Card
    from wonders.dsl.model import Game as GameData
    from wonders.engine.city import City
    from wonders.engine.scoring import ScoreSheet

#: An action of any loop: what :meth:`GameState.legal_actions` hands out and ``play`` takes.
AnyAction = Union[Action, DiceAction, Move]


@dataclass(frozen=True)
class Decision:
    """The decision a game waits for: its kind, who decides it at once, and its wording.

    ``kind`` is the name recorded in history and logs (``turn``, ``side`` …);
    ``seats`` are the seats that each give one action to :meth:`GameState.play`
    (several for a simultaneous decision, one for a sequential one, none when
    the game is over); ``wording`` says it in words for people ("choosing a
    wonder side").
    """

    kind: str
    seats: tuple[int, ...]
    wording: str


@runtime_checkable
class GameState(Protocol):
    """One game in progress, whatever its loop: set-up is done by the constructor.

    A loop is constructed as ``Loop(data, players, seed, **options)`` (see
    :func:`wonders.engine.registry.new_game`); an option it does not take is a
    ``TypeError`` (as for any call), a bad value for one a
    :class:`~wonders.engine.errors.RuleError`.
    """

    data: GameData
    players: int
    seed: int
    age: int
    turn: int
    discard: list[Card]
    bank_paid: int   # coins the bank received
    bank_gave: int   # coins the bank gave
    start_coins: int

    @property
    def cities(self) -> Sequence[City]:
        """Every seat's city, in seat order (public information)."""

    @property
    def over(self) -> bool:
        """Whether the game has ended (no decision pending)."""

    @property
    def history(self) -> list[dict[str, Any]]:
        """Every decision so far as JSON-ready records: age, turn, phase (the
        decision's kind), the actions by seat, everyone's coins after."""

    def decision(self) -> Decision:
        """The pending decision: its kind, who decides it at once, its wording."""

    def to_move(self) -> list[int]:
        """The seats that decide now (``decision().seats`` as a list); read it only: a
        loop may hand the same list every time (the structure loop does)."""

    def legal_actions(self, seat: int) -> Sequence[AnyAction]:
        """Everything ``seat`` may do now ([] when it is not deciding); a shared list."""

    def parse_action(self, seat: int, text: str) -> AnyAction:
        """The legal action of ``seat`` written ``text`` in the action notation (``build
        <card> pay L2 R1``, ``side B``: :mod:`wonders.engine.notation`): the very object
        :meth:`legal_actions` holds.  Every loop answers with
        :func:`wonders.engine.notation.parse_action`; a text naming no legal action is a
        :class:`~wonders.engine.notation.NotationError` with a "did you mean"."""

    def check(self, seat: int, action: Any) -> None:
        """Raise :class:`~wonders.engine.errors.IllegalActionError` saying why not (any
        value may be asked about: one that is no legal action of ``seat`` is refused)."""

    def play(self, actions: Mapping[int, Any]) -> None:
        """Resolve the pending decision: one action from each seat of ``to_move()`` (any
        other value is refused with :class:`~wonders.engine.errors.IllegalActionError`)."""

    def push(self, actions: Mapping[int, Any]) -> None:
        """:meth:`play`, keeping a clone taken before it so that :meth:`pop` can take the
        decision back (:mod:`wonders.engine.undo`); ``play`` itself keeps nothing."""

    def pop(self) -> Mapping[int, AnyAction]:
        """Take the last pushed decision back, in place (the game equals the clone
        :meth:`push` took); the actions it played.  :class:`~wonders.engine.undo.UndoError`
        when nothing was pushed."""

    def undo(self, decisions: int = 1) -> Sequence[Mapping[int, AnyAction]]:
        """Take the last ``decisions`` pushed decisions back (:meth:`pop` each); their
        actions, newest first."""

    def score_sheet(self) -> ScoreSheet:
        """The score sheet: final once over, the standing so far before."""

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see, JSON-ready: nothing another seat keeps hidden."""

    def clone(self) -> GameState:
        """An independent copy (data and cards are shared, never copied)."""

    def determinize(self, seat: int, rng: random.Random) -> GameState:
        """A clone in which everything ``seat`` cannot see is dealt again at random."""

    def setup_record(self) -> dict[str, Any]:
        """What set-up dealt, JSON-ready (logs record it, replays compare it)."""

    def invalidate(self) -> None:
        """Drop cached answers after changing the state by hand (scenarios)."""

    def offer_cards(self) -> list[Card]:
        """Every card of the current age still on offer, hidden ones included (the hands;
        the cards of a structure not taken yet): at an age's first decision, all it dealt.

        Statistics read it to know which cards were in a game; a bot must not (what a
        seat may see is :meth:`view`).
        """

    def card_places(self, seat: int) -> dict[str, tuple[bool, list[Card]]]:
        """Every card dealt so far, by where it is now, and whether ``seat`` may see it:
        place name -> (visible to ``seat``, its cards), fresh lists.

        A card is listed as often as it is in the game (copies are one object), so the
        places together hold exactly what set-up and the ages dealt, cards removed unseen
        included; a place is wholly visible or wholly hidden (a structure's face-up and
        face-down cards are two places).  The conformance suite checks with it that
        cards are conserved and that :meth:`view` shows no hidden card; players must
        not read it.
        """


__all__ = ["AnyAction", "Decision", "GameState"]
