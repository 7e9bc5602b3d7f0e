"""Seats that are cities: what the effect runtime acts on, and how such a game shows itself.

A flow whose offer builds cards into cities (``structure``) seats a
:class:`~wonders.engine.drafted_city.DraftedCity` per player: the cards, Wonders, tokens,
coins and production the effect runtime (:mod:`wonders.engine.runtime`) reads and changes.
This part owns the runtime's verbs on coins (``gain``, ``lose``, ``give``), the triggers,
the city list and the follow-up choices effects raise (a token, a card to destroy, a build
from the discard pile: asked in the order raised, after the turn's action), and what the
game shows of itself: the view (age, turn and phase, then every part's keys and the
cities), and the score sheet (:func:`wonders.engine.scoring.score` over the cities, with
the track's military line and the victory).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Sequence, cast

from wonders.dsl import effects as fx
from wonders.dsl.model import Card
from wonders.engine.drafted_city import DraftedCity
from wonders.engine.flow_state import Ask, Part
from wonders.engine.mechanisms import bank
from wonders.engine.mechanisms import track as track_mechanism
from wonders.engine.runtime import Pending
from wonders.engine.runtime import options as pending_options
from wonders.engine.runtime import resolve as runtime_resolve
from wonders.engine.scoring import ScoreSheet, score
from wonders.engine.structure_rules import StructureRules, structure_rules

if TYPE_CHECKING:
    from wonders.engine.flow import FlowGame

NAME: Final = "cities"
FOLLOW_UP: Final = "follow_up"   # the agenda's task: ask the next follow-up choice
#: the follow-up choices the runtime raises, in words
WORDING: Final = {"token": "choosing a token",
                  "destroy": "choosing a card of the opponent to destroy",
                  "discard_build": "building a card from the discard pile"}
OVER_WORDING: Final = "done: the game is over"


class Cities(Part):
    """The follow-up choices raised and not yet asked (``pending``, in order), and the
    score sheet of the finished game (kept: it no longer changes)."""

    VERBS = ("gain", "lose", "give", "triggers", "city_list", "follow_up", "view",
             "score_sheet")

    def __init__(self, setup: StructureRules, science: tuple[str, ...]) -> None:
        self.setup = setup
        self.science = science
        self.pending: list[Pending] = []
        self.final: ScoreSheet | None = None

    def copy(self) -> Cities:
        other = Cities(self.setup, self.science)
        other.pending = [p.copy() for p in self.pending]
        other.final = self.final
        return other

    def forget(self, game: FlowGame) -> None:
        for city in bank.cities_of(game):
            city.changed()
        self.final = None

    # --- the runtime's verbs -------------------------------------------------------------

    def gain(self, game: FlowGame, seat: int, coins: int) -> None:
        """The bank gives ``seat`` coins, at once (turns are sequential)."""
        game.seats[seat].coins += coins
        game.bank_gave += coins

    def lose(self, game: FlowGame, seat: int, coins: int) -> None:
        """``seat`` returns up to ``coins`` coins to the bank."""
        target = game.seats[seat]
        taken = min(coins, target.coins)
        target.coins -= taken
        game.bank_paid += taken

    def give(self, game: FlowGame, giver: int, taker: int, coins: int) -> None:
        """``giver`` gives ``taker`` up to ``coins`` of its coins, at once."""
        source = game.seats[giver]
        given = min(coins, source.coins)
        source.coins -= given
        game.seats[taker].coins += given

    def triggers(self, game: FlowGame, seat: int) -> list[tuple[object, fx.Clause]]:
        return game.seats[seat].triggers  # type: ignore[attr-defined, no-any-return]

    def city_list(self, game: FlowGame) -> list[DraftedCity]:
        return game.seats  # type: ignore[return-value]  # (cities; no cast: a call)

    def follow_up(self, game: FlowGame, kind: str, seat: int, effect: fx.Effect) -> None:
        """Queue a choice of ``seat``'s after what is being done (none when there is
        nothing to choose): its options are settled now, as the effect acts."""
        found = pending_options(game, kind, seat, effect)
        if found:
            self.pending.append(Pending(kind, seat, found, effect))
            game.agenda.append((FOLLOW_UP, seat, 0))

    # --- what the game shows -----------------------------------------------------------

    def view(self, game: FlowGame, seat: int, found: dict[str, Any]) -> None:
        found["cities"] = [city.to_json() for city in bank.cities_of(game)]

    def table_view(self, game: FlowGame, seat: int) -> dict[str, Any]:
        """The whole view: the round, the turn and the decision, then every part's keys."""
        found: dict[str, Any] = {"seat": seat, "age": game.age, "turn": game.turn,
                                 "phase": game.decision().kind,
                                 "to_move": list(game.to_move())}
        for part in game.parts.values():
            part.view(game, seat, found)
        return found

    def score_sheet(self, game: FlowGame) -> ScoreSheet:
        if game.finished and self.final is not None:
            return self.final
        track = game.parts.get(track_mechanism.NAME)
        military = (cast(track_mechanism.Track, track).points(game.players)
                    if track is not None else ())
        sheet = score(self.city_list(game), self.setup.base, self.science, military)
        if game.finished:
            sheet.victory = game.victory or game.program.victory
            if game.winner is not None:
                sheet.decided = (game.winner,)
            self.final = sheet
        return sheet

    def card_places(self, game: FlowGame, seat: int,
                    places: dict[str, tuple[bool, list[Card]]]) -> None:
        """Each city's cards, and the cards under its Wonders (its owner's)."""
        for s, city in enumerate(self.city_list(game)):
            places[f"city {s}"] = (True, list(city.built))
            places[f"wonder {s}"] = (s == seat, list(city.stage_cards))


def ask_next(game: FlowGame, seat: int, about: int) -> None:
    """The agenda's task: ask the oldest follow-up choice raised."""
    pending = state(game).pending.pop(0)
    game.wait(pending.kind, pending.seat, pending.options)


def resolve(game: FlowGame, asked: Ask, action: Any) -> None:
    """A follow-up answered: the runtime carries it out (a token arrives, a card is
    destroyed or built from the discard pile)."""
    runtime_resolve(game, asked.seat, action)


def seats(game: FlowGame) -> Sequence[DraftedCity]:
    """A city per seat, with the rule set's starting coins (and no trading effects yet:
    the bank's empty terms)."""
    setup = structure_rules(game.data)
    params = setup.base
    found = [DraftedCity(s, params.start_coins, params.buyable, setup.unlocks)
             for s in range(game.players)]
    bank.state(game).seed_cities(found)
    game.start_coins = sum(c.coins for c in found)
    return found


def make(game: FlowGame) -> Cities:
    return Cities(structure_rules(game.data), game.data.rules.vocabulary.science)


def state(game: FlowGame) -> Cities:
    """The game's cities part."""
    return game.parts[NAME]  # type: ignore[return-value]  # (no cast: a call)


__all__ = ["Cities", "FOLLOW_UP", "NAME", "OVER_WORDING", "WORDING", "ask_next", "make",
           "resolve", "seats", "state"]
