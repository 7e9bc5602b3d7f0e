"""Seats that are cities: what the effect runtime acts on in a card-structure game.

A flow whose offer builds cards into cities (``structure``) seats a
:class:`~wonders.engine.drafted_city.DraftedCity` per player, kept by this part (the
flow's city keeper: :meth:`~wonders.engine.flow_state.Part.keeps_cities`).  It carries out
the effect runtime's verbs (:class:`~wonders.engine.flow_state.EffectTable`): coins
(``gain``, ``lose``, ``give``, through the bank's totals), shields (the ``track``'s push),
science as it arrives (``pairs``), a replay (the flow's ``again``), the triggers, and the
follow-up choices effects raise (a token, a card to destroy, a build from the discard
pile: asked in the order raised, after the turn's action).  Its score sheet is the
cities' (:func:`wonders.engine.scoring.score`, with the track's military line and the
victory).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Final, Mapping, Sequence

from wonders.dsl import effects as fx
from wonders.dsl.model import Card, Token
from wonders.dsl.model import Game as GameData
from wonders.engine.drafted_city import DraftedCity
from wonders.engine.errors import RuleError
from wonders.engine.flow_state import Ask, Part, part_index
from wonders.engine.mechanisms import bank, pairs, pools, structure, track
from wonders.engine.runtime import Pending
from wonders.engine.runtime import options as pending_options
from wonders.engine.runtime import resolve as runtime_resolve
from wonders.engine.scoring import ScoreSheet, amount, score
from wonders.engine.structure_rules import StructureRules, structure_rules

if TYPE_CHECKING:
    from wonders.engine.flow import FlowGame

NAME: Final = "cities"
SLOT: Final = part_index(NAME)   # (the part's index in a game's slots)
FOLLOW_UP: Final = "follow_up"   # the agenda's task: ask the next follow-up choice
#: the follow-up choices the runtime raises, in words
WORDING: Final[dict[str, str]] = {"token": "choosing a token",
                  "destroy": "choosing a card of the opponent to destroy",
                  "discard_build": "building a card from the discard pile"}
OVER_WORDING: Final = "done: the game is over"
#: the mechanisms whose parts add score lines of their own to the cities' sheet
SCORED_PARTS: Final = ("chambers",)
#: Follow-ups a mechanism beside the cities asks and carries out itself, by the runtime's
#: kind (filled in by those mechanisms' modules: ``activate`` by the priced row)
ROUTED: Final[dict[str, Callable[[FlowGame, str, int, fx.Effect], None]]] = {}
#: Follow-ups whose options are worked out when they are asked, not when raised (an
#: earlier follow-up of the same source may change them: a token discarded, then another
#: used), by kind; none left then: the follow-up lapses
LATE: Final[dict[str, Callable[[FlowGame, str, int, fx.Effect], list[Any]]]] = {}


class Cities(Part):
    """Each seat's city, the follow-up choices raised and not yet asked (``pending``, in
    order), and the score sheet of the finished game (kept: it no longer changes)."""

    def __init__(self, setup: StructureRules, science: tuple[str, ...],
                 cities: list[DraftedCity]) -> None:
        self.setup = setup
        self.science = science
        self.cities = cities
        self.pending: list[Pending] = []
        self.final: ScoreSheet | None = None

    def copy(self) -> Cities:
        other = Cities(self.setup, self.science, [city.clone() for city in self.cities])
        other.pending = [p.copy() for p in self.pending]
        other.final = self.final
        return other

    def keep_setup(self, game: FlowGame) -> None:
        game.start_coins = sum(city.coins for city in self.cities)

    def refresh(self, game: FlowGame) -> None:
        for city in self.cities:
            city.changed()
        self.final = None

    # --- the runtime's verbs -------------------------------------------------------------

    def keeps_cities(self) -> bool:
        return True

    def arrival(self) -> tuple[bool, bool]:
        return True, False   # shields and science act as they arrive; production is read

    def city_list(self, game: FlowGame) -> list[DraftedCity]:
        return self.cities

    def coins(self, game: FlowGame) -> tuple[int, ...]:
        # (the cities typed: compiled, each read is native; every decision's record asks)
        cities = self.cities
        if len(cities) == 2:   # (two seats: the tuple made at once, no list between)
            return (cities[0].coins, cities[1].coins)
        return tuple([city.coins for city in cities])

    def gain(self, game: FlowGame, seat: int, coins: int) -> None:
        """The bank gives ``seat`` coins, at once (turns are sequential)."""
        self.cities[seat].coins += coins
        game.bank_gave += coins

    def lose(self, game: FlowGame, seat: int, coins: int) -> None:
        """``seat`` returns up to ``coins`` coins to the bank."""
        target = self.cities[seat]
        taken = min(coins, target.coins)
        target.coins -= taken
        game.bank_paid += taken

    def give(self, game: FlowGame, giver: int, taker: int, coins: int) -> None:
        """``giver`` gives ``taker`` up to ``coins`` of its coins, at once."""
        source = self.cities[giver]
        given = min(coins, source.coins)
        source.coins -= given
        self.cities[taker].coins += given

    def shields(self, game: FlowGame, seat: int, count: int) -> None:
        found = game.parts.get(track.NAME)
        if found is None:
            raise RuleError("shields arrived, but the flow has no conflict track (military: "
                            "{mechanism: track})")
        found.shields(game, seat, count)

    def science_arrived(self, game: FlowGame, seat: int, symbol: str) -> None:
        found = game.parts.get(pairs.NAME)
        if found is not None:
            found.science_arrived(game, seat, symbol)

    def replay(self, game: FlowGame, seat: int) -> None:
        """``seat`` plays again after this turn (the flow's ``again: replay``)."""
        if game.program.again != "replay":
            raise RuleError("an effect gives another turn, but the flow grants none "
                            "(turn.again: replay)")
        game.again = True

    def ask(self, game: FlowGame, kind: str, seat: int, effect: fx.Effect) -> None:
        """Queue a choice of ``seat``'s after what is being done (none when there is
        nothing to choose): its options are settled now, as the effect acts."""
        routed = ROUTED.get(kind)
        if routed is not None:
            routed(game, kind, seat, effect)
            return
        found = pending_options(game.table, kind, seat, effect)
        if found:
            self.pending.append(Pending(kind, seat, found, effect))
            game.agenda.append((FOLLOW_UP, seat, 0))

    def triggers(self, game: FlowGame, seat: int) -> list[tuple[object, fx.Clause]]:
        return self.cities[seat].triggers

    # (by slot, not by name: an effect table is made about once a turn)
    def token_pools(self, game: FlowGame) -> dict[str, list[Token]]:
        found = game.slots[pools.SLOT]
        return found.pools if isinstance(found, pools.TokenPools) else {}

    def discard_pile(self, game: FlowGame) -> list[Card]:
        found = game.slots[structure.SLOT]
        return found.discard if isinstance(found, structure.StructureOffer) else []

    # --- what the game shows -----------------------------------------------------------

    def view(self, game: FlowGame, seat: int, found: dict[str, Any]) -> None:
        found["cities"] = [city.to_json() for city in self.cities]

    def score_sheet(self, game: FlowGame) -> ScoreSheet | None:
        if game.finished and self.final is not None:
            return self.final
        pawn = game.parts.get(track.NAME)
        military = pawn.points(game.players) if isinstance(pawn, track.Track) else ()
        scored = [game.parts[name] for name in SCORED_PARTS if name in game.parts]
        if scored:   # (other mechanisms' score lines: the chambers')
            lines = [dict(m) for m in military] or [{} for _ in self.cities]
            for part in scored:
                for s, line in enumerate(lines):
                    part.score(game, s, line)
            military = lines
        sheet = score(self.cities, self.setup.base, self.science, military)
        if game.finished:
            sheet.victory = game.victory or game.program.offer.victory
            if game.winner is not None:
                sheet.decided = (game.winner,)
            self.final = sheet
        return sheet

    def card_places(self, game: FlowGame, seat: int,
                    places: dict[str, tuple[bool, list[Card]]]) -> None:
        """Each city's cards, and the cards under its Wonders (its owner's)."""
        for s, city in enumerate(self.cities):
            places[f"city {s}"] = (True, list(city.built))
            places[f"wonder {s}"] = (s == seat, list(city.stage_cards))


def ask_next(game: FlowGame, seat: int, about: int) -> None:
    """The agenda's task: ask the oldest follow-up choice raised."""
    pending = state(game).pending.pop(0)
    late = LATE.get(pending.kind)
    if late is not None and pending.effect is not None:
        moves = late(game, pending.kind, pending.seat, pending.effect)
        if moves:
            game.wait(pending.kind, pending.seat, moves)
        return
    game.wait(pending.kind, pending.seat, pending.options)


def resolve(game: FlowGame, asked: Ask, action: Any) -> None:
    """A follow-up answered: the runtime carries it out (a token arrives, a card is
    destroyed or built from the discard pile)."""
    runtime_resolve(game.table, asked.seat, action)


def make(data: GameData, players: int, arguments: Mapping[str, Mapping[str, Any]]) -> Cities:
    """A city per seat, with the rule set's starting coins (and no trading effects yet:
    the bank's empty terms)."""
    setup = structure_rules(data)
    params = setup.base
    found = [DraftedCity(s, params.start_coins, params.buyable, setup.unlocks)
             for s in range(players)]
    bank.seed_cities(setup, found)
    return Cities(setup, data.rules.vocabulary.science, found)


def lay_aside(game: FlowGame, seat: int, effect: fx.CoinsAside) -> None:
    """``coins N aside``: N coins from the bank laid on the source, out of the treasury."""
    city = cities_of(game)[seat]
    coins = amount(effect.amount, seat, game.table.city_list())
    city.aside += coins
    game.bank_gave += coins


def state(game: FlowGame) -> Cities:
    """The game's cities part."""
    return game.slots[SLOT]  # type: ignore[return-value]  # (no cast: a call)


def cities_of(game: FlowGame) -> Sequence[DraftedCity]:
    return state(game).cities


__all__ = ["Cities", "FOLLOW_UP", "NAME", "OVER_WORDING", "WORDING", "ask_next", "cities_of",
           "make", "resolve", "state"]
