"""The 7 Wonders game loop: setup, simultaneous drafting, wonder powers, military, scoring.

A game is a function of (rule set + card sets, number of players, seed, the
actions taken): all randomness comes from one ``random.Random(seed)``.  Players
act in *decision points*: a regular turn (everyone at once), the last card of an
age (players with that power), and building from the discard pile (one player
at a time).  ``to_move()`` says who acts, ``legal_actions(seat)`` lists what they
may do with every payment option, and ``play({seat: action})`` resolves.
"""

from __future__ import annotations

import random
from enum import Enum
from typing import Any, Callable, Final, Iterable, Mapping, Sequence, cast

from wonders.dsl import effects as fx
from wonders.dsl.mechanisms import BANK_EVENT, BUY_EVENT, TOKEN_EVENT
from wonders.dsl.model import Card
from wonders.dsl.model import Game as GameData
from wonders.engine import memo
from wonders.engine.actions import (
    _BUILDS,
    ACTION_KINDS,
    CHAIN,
    FREE_BUILD,
    PAY,
    Action,
    Build,
    BuildFromDiscard,
    BuildStage,
    ChooseSide,
    CopyCard,
    DestroyCard,
    Keep,
    Sell,
    Skip,
    TakeToken,
    build,
    build_stage,
    choose_side,
    history_records,
    sell,
)
from wonders.engine.city import City
from wonders.engine.contract import Decision
from wonders.engine.errors import IllegalActionError, RuleError, check_seat
from wonders.engine.mechanisms import battles
from wonders.engine.mechanisms.card_reserve import CardReserve, keep_options
from wonders.engine.mechanisms.discounts import kinds as discount_kinds
from wonders.engine.mechanisms.free_builds import (
    FREE_BUILD_ABILITY,
    FREE_BY_USE,
    FreeBuilds,
    has_positional,
)
from wonders.engine.mechanisms.hands import AgeDecks, plays_last_card
from wonders.engine.mechanisms.hands import deal as deal_hands
from wonders.engine.mechanisms.hands import passed as passed_hands
from wonders.engine.mechanisms.neighbours import NeighbourTrade
from wonders.engine.payment import FREE, NeighbourMarket, Payment, TradeContext, shared_payment
from wonders.engine.pools import deal as deal_pools
from wonders.engine.pools import hidden as hidden_pools
from wonders.engine.randomness import below, seeded, shuffle
from wonders.engine.rules import Parameters, parameters
from wonders.engine.runtime import (
    AGE_END_EVENT,
    AGE_START_EVENT,
    CARD_EVENT,
    CHAIN_EVENT,
    DEBT,
    RESERVE_BUILD,
    WONDER_EVENT,
    Pending,
    Table,
    act,
    every_effects,
    has_triggers,
    resolve,
    trigger,
    triggers_of,
)
from wonders.engine.runtime import options as pending_options
from wonders.engine.scoring import ScoreSheet, score
from wonders.engine.sides import deal_boards
from wonders.engine.table import left_of, right_of

DISCARD_BUILD_ABILITY = "build_from_discard"
# the token kinds neighbour battles give (their arrival is announced: ``on victory token:``)
_BATTLE_TOKENS: Final = (battles.VICTORY, battles.DEFEAT)

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # not installed: the decorator only matters to the compiler (setup.py)
    def mypyc_attr(*_: object, **__: object) -> Callable[[Any], Any]:  # type: ignore[misc]
        return lambda cls: cls


class Phase(str, Enum):
    SIDE = "side"
    PICK = "reserve_draft"
    RESERVE = "reserve_turn"
    TURN = "turn"
    LAST_CARD = "last_card"
    DISCARD_BUILD = "discard_build"
    DESTROY = "destroy"
    TOKEN = "token"
    DEBT = "debt"
    RESERVE_BUILD = "reserve_build"
    COPY = "copy"
    OVER = "over"


_WORDING: Final[dict[Phase, str]] = {
    Phase.SIDE: "choosing the side of the wonder board",
    Phase.PICK: "choosing a card of the reserve to keep (the rest is passed on)",
    Phase.RESERVE: "playing a card of the reserve: build it, build a wonder stage with it "
                   "or sell it",
    Phase.TURN: "choosing a card to build, to sell or to build a wonder stage with",
    Phase.LAST_CARD: "playing the last card of the age",
    Phase.DISCARD_BUILD: "building a card from the discard pile",
    Phase.DESTROY: "choosing a card of another city to destroy",
    Phase.TOKEN: "choosing a token",
    Phase.DEBT: "choosing how many of the coins lost to pay (a token for each coin not paid)",
    Phase.RESERVE_BUILD: "building one more card of the reserve at once, paying its cost "
                         "(or skip)",
    Phase.COPY: "choosing a card of another city whose effect to copy",
    Phase.OVER: "done: the game is over",
}
# Each phase's name (the decision's kind in records), and back: an Enum's ``.value``
# and ``Phase(name)`` run Python code, which the compiled loop avoids.
_PHASE_NAMES: Final[dict[Phase, str]] = {phase: phase.value for phase in Phase}
# the decisions handed out, by (kind, seats): immutable, so shared
_DECISIONS: Final[dict[tuple[str, tuple[int, ...]], Decision]] = {}
_PHASES: Final[dict[str, Phase]] = {phase.value: phase for phase in Phase}
_DISCARD_BUILD: Final = "discard_build"  # Phase.DISCARD_BUILD.value


@mypyc_attr(allow_interpreted_subclasses=True)  # a new loop may extend this one
class Game(Table):
    """One game of 7 Wonders for 3–7 players, driven by the rule set and card data."""

    def __init__(self, data: GameData, players: int, seed: int = 0, *,
                 sides: str | Sequence[str] | None = None,
                 wonders: Sequence[str] | None = None, _shell: bool = False) -> None:
        """``_shell`` is for :meth:`clone` only: an object whose fields it then sets (a
        compiled class cannot be allocated without running ``__init__``)."""
        if _shell:
            return
        rules = data.rules
        if not rules.min_players <= players <= rules.max_players:
            raise RuleError(f"{rules.title} is for {rules.min_players}–{rules.max_players} "
                            f"players, not {players}")
        self.data = data
        self.params, self.decks = _prepared(data)
        self.players = players
        self.seed = seed
        self.set_generator(seeded(seed))
        self.science = rules.vocabulary.science
        self.cities, self.choosing = deal_boards(data, players, self.generator(), wonders,
                                                 sides, self.params.wonder_side,
                                                 self.params.start_coins)
        # each seat's side as set-up dealt it (None: the player chooses), for logs
        self.dealt_sides: list[str | None] = [
            None if seat in self.choosing else city.side.side
            for seat, city in enumerate(self.cities)]
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        # the rule set's ``reserve``: the cards each seat keeps, the unused ones, the age's
        # hands waiting during a reserve turn, the reserve cards sold out of the game
        self.card_reserve = CardReserve(rules.model.reserve, players)
        self.free_builds = FreeBuilds()   # the once-per-period free builds used
        # per seat, the last cards it played by a ``play_last_card once`` (one use each)
        self.last_card_uses: list[int] = [0] * players
        self.discard: list[Card] = []
        self.age = 0
        self.turn = 0
        self.phase = Phase.TURN
        self.movers: list[int] = []
        # follow-up choices effects asked for (discard builds, destructions, tokens), asked
        # one seat at a time after the turn that set them off, in the order asked
        self.pending: list[Pending] = []
        self.pools = deal_pools(data, self.generator())  # token pools (after the boards are dealt)
        self.arrival_ongoing = False  # ongoing shields count in battles, science at the end
        self._has_triggers = has_triggers(data)
        # whether any clause waits for ``on age start:`` (announced when an age is dealt)
        self._age_start = _has_event(data, AGE_START_EVENT)
        # ``on bank coins:``, announced once per city and turn: whether the data has any
        # such clause, the serial of the current turn (an age's end is one of its own) and
        # the last turn each city's was announced in
        self._bank_event = _has_event(data, BANK_EVENT)
        # whether any ``shields N per …`` clause exists (else battles look for none)
        self._counted_shields = _has_counted_shields(data)
        self._moment = 0
        self._bank_moment: list[int] = [-1] * players
        # what kinds of discount the data has at all (read at every decision)
        self.discounts = discount_kinds(data)
        self._credits: list[int] | None = None  # during a turn: coins arriving at its end
        self._debits: list[int] | None = None   # during a turn: coins lost at its end
        # during a turn: the coins cities give others (``PLACES gives N coins``), as (giver,
        # taker, coins) in the order the effects acted, settled at its end (None: none yet)
        self._gives: list[tuple[int, int, int]] | None = None
        # every decision: (age, turn, phase, actions, coins after); ``history`` is its JSON
        self.decisions: list[tuple[int, int, str, dict[int, Action], tuple[int, ...]]] = []
        self.bank_paid = 0  # coins the bank received (costs)
        self.bank_gave = 0  # coins the bank gave (selling, effects)
        self.start_coins = sum(c.coins for c in self.cities)
        self._last_card_done = False
        self._score: ScoreSheet | None = None
        self.trading = NeighbourTrade(self.params, self.discounts)
        self._legal: dict[int, list[Action]] = {}
        if self.card_reserve.active:  # (set-up deals the reserve draft's hands)
            self.hands = self.card_reserve.deal(data, self.generator())
        if self.choosing:  # the players who choose their side do so before Age I is dealt
            self.phase, self.movers = Phase.SIDE, list(self.choosing)
        else:
            self._begin()

    @classmethod
    def new(cls, game: str = "base", players: int = 3, seed: int = 0,
            paths: Sequence[str] = (), **options: Any) -> "Game":
        """Load a shipped game (plus optional files) and set up a game."""
        from wonders.dsl.loader import load_game  # the language stack, only when loading

        return cls(load_game(paths, game), players, seed, **options)

    # --- setup -----------------------------------------------------------------------

    def _side_options(self, seat: int) -> list[Action]:
        wonder = self.cities[seat].wonder
        return [choose_side(side) for side in sorted(wonder.sides)]

    def _resolve_sides(self, actions: dict[int, Action]) -> None:
        """Every choosing seat turns its board to the side it chose (all at once), then
        Age I is dealt."""
        for seat, action in actions.items():
            assert isinstance(action, ChooseSide)
            city = self.cities[seat]
            self.cities[seat] = City(seat, city.wonder, city.wonder.sides[action.side],
                                     city.coins)
        self.choosing = []
        self.trading.forget()
        self._begin()

    def _begin(self) -> None:
        """After set-up (and sides): the reserve draft of the dealt hands, else Age I."""
        if not self.card_reserve.active:
            self._start_age(1)
            return
        self.age, self.turn = 0, 1
        self.phase, self.movers = Phase.PICK, list(range(self.players))

    def _resolve_pick(self, actions: dict[int, Action]) -> None:
        """Each seat keeps its card and passes the rest on; once the draft is over, Age I
        starts (with its reserve turn)."""
        passed = self.card_reserve.pick(self.hands, [(seat, action) for seat, action
                                                      in actions.items()
                                                      if isinstance(action, Keep)])
        if passed is None:
            self.hands = [[] for _ in range(self.players)]
            self._start_age(1)
            return
        self.hands = passed
        self.turn += 1
        self.movers = list(range(self.players))

    def _start_age(self, age: int) -> None:
        """Deal ``age``; while seats keep reserve cards it starts with a reserve turn (turn
        0: the kept cards are the hands), the age's hands waiting face down until then."""
        self._deal_age(age)
        if any(self.card_reserve.kept):
            self.turn = 0
            self.hands = self.card_reserve.start_turn(self.hands)
            self.phase = Phase.RESERVE
            self.movers = [seat for seat in range(self.players) if self.hands[seat]]
        if self._age_start:  # "on age start:": dealt, before the first turn (reserve or not)
            self._moment += 1  # a turn of its own for ``on bank coins:``
            for seat in range(self.players):
                trigger(self, seat, AGE_START_EVENT, None, None)

    def _deal_age(self, age: int) -> None:
        self.age = age
        self.turn = 1
        self._last_card_done = False
        deck = self.decks.deck(age, self.players, self.generator())
        shuffle(self.generator(), deck)  # the order rng.shuffle gives, in compiled code
        self.hands = deal_hands(deck, self.players, self.params.hand_in(age))
        self.phase = Phase.TURN
        self.movers = list(range(self.players))

    def _end_reserve_turn(self) -> None:
        """After a reserve turn: the cards not played are kept, the age's hands taken up."""
        self.hands = self.card_reserve.end_turn(self.hands)
        self.turn = 1
        self.phase = Phase.TURN
        self.movers = list(range(self.players))

    def clone(self) -> "Game":
        """An independent copy of the game state (cards and data are shared, never copied).

        Every attribute is listed: the class may be compiled (mypyc), where instances
        have no ``__dict__`` to copy wholesale.  The copy is a :class:`Game` (as it
        always was), whatever subclass this is.
        """
        other = Game(self.data, self.players, self.seed, _shell=True)
        other.data = self.data
        other.params = self.params
        other.decks = self.decks
        other.players = self.players
        other.seed = self.seed
        self.share_generator(other)
        other.science = self.science
        other.cities = [city.clone() for city in self.cities]
        other.choosing = list(self.choosing)
        other.dealt_sides = list(self.dealt_sides)
        other.hands = [list(hand) for hand in self.hands]
        other.card_reserve = self.card_reserve.copy()
        other.free_builds = self.free_builds.copy()
        other.last_card_uses = list(self.last_card_uses)
        other.discard = list(self.discard)
        other.age = self.age
        other.turn = self.turn
        other.phase = self.phase
        other.movers = list(self.movers)
        other.pending = [p.copy() for p in self.pending]
        other.pools = {name: list(tokens) for name, tokens in self.pools.items()}
        other.arrival_ongoing = self.arrival_ongoing
        other._has_triggers = self._has_triggers
        other._age_start = self._age_start
        other._bank_event = self._bank_event
        other._counted_shields = self._counted_shields
        other._moment = self._moment
        other._bank_moment = list(self._bank_moment)
        other.discounts = self.discounts
        other._credits = None if self._credits is None else list(self._credits)
        other._debits = None if self._debits is None else list(self._debits)
        other._gives = None if self._gives is None else list(self._gives)
        other.decisions = list(self.decisions)
        other.bank_paid = self.bank_paid
        other.bank_gave = self.bank_gave
        other.start_coins = self.start_coins
        other._last_card_done = self._last_card_done
        other._score = self._score
        other.trading = self.trading.copy()
        other._legal = {}
        return other

    # --- questions -----------------------------------------------------------------------

    @property
    def history(self) -> list[dict[str, Any]]:
        """Every decision so far as JSON-ready records (what logs hold)."""
        return history_records(self.decisions)

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def to_move(self) -> list[int]:
        """The seats that must act at this decision point."""
        return [] if self.over else list(self.movers)

    def decision(self) -> Decision:
        """The pending decision: its kind (the phase), who decides it at once, in words."""
        kind = _PHASE_NAMES[self.phase]
        seats = tuple(self.to_move())
        key = (kind, seats)
        found = _DECISIONS.get(key)
        if found is None:  # (one shared record per phase and seats: it is immutable, and a
            # new frozen dataclass costs a few microseconds; the wording is the phase's)
            found = _DECISIONS[key] = Decision(kind, seats, _WORDING[self.phase])
        return found

    def phase_name(self) -> str:
        return _WORDING[self.phase]

    def setup_record(self) -> dict[str, Any]:
        """What set-up dealt: each seat's board and side."""
        return {"seats": [{"wonder": c.wonder.name, "side": side}
                          for c, side in zip(self.cities, self.dealt_sides)]}

    def offer_cards(self) -> list[Card]:
        """Every card still in a hand (the contract's cards on offer this age)."""
        return [card for hand in self.hands for card in hand]

    def card_places(self, seat: int) -> dict[str, tuple[bool, list[Card]]]:
        """Every card dealt so far by where it is, and whether ``seat`` sees it there:
        the hands (each its holder's), the discard pile (face down but while ``seat``
        builds from it), each city and the cards under its wonder (its owner's), the
        reserve cards each seat sold out of the game (its own)."""
        building = self.phase is Phase.DISCARD_BUILD and seat in self.movers
        reserve = self.card_reserve
        places: dict[str, tuple[bool, list[Card]]] = {"discard": (building, list(self.discard))}
        for s, (hand, city) in enumerate(zip(self.hands, self.cities)):
            places[f"hand {s}"] = (s == seat, list(hand))
            places[f"city {s}"] = (True, list(city.built))
            places[f"wonder {s}"] = (s == seat, list(city.stage_cards))
            places[f"reserve {s}"] = (s == seat, list(reserve.kept[s]))
            places[f"waiting {s}"] = (False, list(reserve.waiting[s]))
            places[f"out {s}"] = (s == seat, list(reserve.out[s]))
        places["unused"] = (False, list(reserve.unused))
        return places

    def market(self, seat: int) -> NeighbourMarket:
        """What ``seat`` can buy from its neighbours this turn, at its prices."""
        return self.trading.market(self.cities, seat)

    def trade(self, seat: int) -> TradeContext:
        """What the payment search of ``seat`` depends on now (kept until a city changes)."""
        return self.trading.context(self.cities, seat)

    def invalidate(self) -> None:
        """Drop cached answers; call after changing cities or hands by hand (scenarios)."""
        self.trading.forget()
        self._legal = {}
        for city in self.cities:
            city.changed()

    def chained(self, seat: int, card: Card) -> bool:
        """Whether ``seat`` may build ``card`` for free thanks to a card already built."""
        city = self.cities[seat]
        if card.name in city.made_free:
            return True
        names = city.names
        return any(name in names for name in card.free_if_built)

    def free_build_available(self, seat: int) -> bool:
        """Whether a free build of any card is available (:mod:`.mechanisms.free_builds`)."""
        return self.free_builds.available(self.cities[seat], seat, self.age)

    def free_power(self, seat: int, card: Card) -> int:
        """How ``seat`` may build ``card`` free now: 0 not at all; 1 by a power that
        uses nothing (the card or the moment, or a free build without a limit); 2 by the
        once-per-period free build, whose use it takes."""
        return self.free_builds.power(self.cities[seat], seat, card, self.age, self.turn,
                                      len(self.hands[seat]))

    def cost_for(self, seat: int, cost: fx.Cost, card: Card | None) -> fx.Cost:
        """``cost`` less ``seat``'s coin discounts for ``card`` (None: the next wonder
        stage; :mod:`.mechanisms.discounts`)."""
        return self.discounts.cost_for(self.cities, seat, cost, card)

    def _discounted_payments(self, seat: int, cost: fx.Cost, card: Card | None,
                             coins: int) -> list[Payment]:
        return self.trading.discounted_payments(self.cities, seat, cost, card, coins)

    def build_options(self, seat: int, card: Card) -> list[Build]:
        """Every way ``seat`` can build ``card`` now ([] if it cannot)."""
        city = self.cities[seat]
        if card.name in city.names:
            return []
        if self.chained(seat, card):
            return [Build(card, FREE, CHAIN)]
        cost = self.cost_for(seat, card.cost, card)
        options = [Build(card, p) for p in self._discounted_payments(seat, cost, card,
                                                                     city.coins)]
        if not card.cost.is_free and self.free_power(seat, card):
            options.append(Build(card, FREE, FREE_BUILD))
        return options

    def stage_options(self, seat: int, card: Card) -> list[BuildStage]:
        city = self.cities[seat]
        if city.stages >= len(city.side.stages):
            return []
        cost = self.cost_for(seat, city.side.stages[city.stages].cost, None)
        return [BuildStage(card, p) for p in self._discounted_payments(seat, cost, None,
                                                                       city.coins)]

    # what push() kept to take decisions back (None: nothing pushed); see engine/undo.py
    _undo: list[Any] | None = None

    def push(self, actions: Mapping[int, Action]) -> None:
        """Play ``actions`` as :meth:`play` does, keeping what :meth:`pop` needs to take
        them back (:mod:`wonders.engine.undo`)."""
        from wonders.engine.undo import push
        push(self, actions)

    def pop(self) -> dict[int, Action]:
        """Take the last pushed decision back, in place; the actions it played."""
        from wonders.engine.undo import pop
        return pop(self)

    def undo(self, decisions: Any = 1) -> list[dict[int, Action]]:
        """Take the last ``decisions`` pushed decisions back; their actions, newest first."""
        from wonders.engine.undo import undo
        return undo(self, decisions)

    def parse_action(self, seat: Any, text: Any) -> Action:
        """The legal action of ``seat`` that ``text`` writes in the action notation
        (:mod:`wonders.engine.notation`), e.g. ``build <card> pay L2 R1``.  (Typed Any:
        compiled, a wrong type is then the notation's error, not a bare TypeError.)"""
        from wonders.engine.notation import parse_action
        found: Action = parse_action(self, seat, text)
        return found

    def legal_actions(self, seat: Any) -> list[Action]:
        """Everything ``seat`` may do now, each build with every Pareto-optimal payment.

        The list is computed once per decision point and shared: treat it as read-only.
        (Typed Any at the contract's door: compiled, a seat that is no number would be a
        bare TypeError; it is asked nothing.)
        """
        if not isinstance(seat, int):
            return []
        return self._legal_actions(seat)

    def _legal_actions(self, seat: int) -> list[Action]:
        found = self._legal.get(seat)
        if found is not None:
            return found
        if seat not in self.movers or self.phase is Phase.OVER:
            return []
        actions: list[Action]
        if self.pending and self.phase is not Phase.TURN and self.phase is not Phase.LAST_CARD:
            actions = self._pending_options()
        elif self.phase is Phase.SIDE:
            actions = self._side_options(seat)
        elif self.phase is Phase.PICK:
            actions = keep_options(self.hands[seat])
        else:
            actions = self._play_options(seat)
        self._legal[seat] = actions
        return actions

    def random_action(self, seat: int, rng: random.Random) -> Action:
        """One legal action of ``seat``, drawn with ``rng`` without listing them all: the
        ``quick`` policy of whole-game playouts (:mod:`wonders.engine.playout`), where
        listing every action with every payment at every decision is most of the cost.

        On a turn (and the last card of an age): a card of the hand uniformly (copies of
        a card count once), then uniformly one of the kinds of action it allows —
        building it (a payment, its chain or a free build), the next wonder stage with
        it, selling it — then uniformly one of that kind's options
        (:meth:`build_options`, :meth:`stage_options`).  Only that card's or the stage's
        payments are computed, so the draw is not uniform over :meth:`legal_actions`: a
        card built in many ways is no likelier than one with a single way.  Any other
        decision draws uniformly from :meth:`legal_actions`.  The action is always one
        of :meth:`legal_actions`' (equal, not necessarily the same object)."""
        phase = self.phase
        if ((phase is not Phase.TURN and phase is not Phase.LAST_CARD)
                or seat not in self.movers or seat in self._legal):
            actions = self._legal_actions(seat)
            if not actions:
                raise RuleError(f"seat {seat} has no legal action now")
            return actions[below(rng, len(actions))]
        cards: list[Card] = []
        for card in self.hands[seat]:
            if card not in cards:
                cards.append(card)
        card = cards[below(rng, len(cards))]
        kinds = [0, 1, 2]  # build the card, build a stage with it, sell it
        while True:  # a kind without options is dropped and the draw made again
            kind = kinds[below(rng, len(kinds))]
            if kind == 2:
                return sell(card)
            if kind == 0:
                builds = self.build_options(seat, card)
                if builds:
                    return builds[below(rng, len(builds))]
            else:
                stages = self.stage_options(seat, card)
                if stages:
                    return stages[below(rng, len(stages))]
            kinds.remove(kind)

    def _play_options(self, seat: int) -> list[Action]:
        """The hot path: every build, stage and sale for one hand, with shared lookups."""
        city = self.cities[seat]
        coins = city.coins
        # a base city's sets are frozensets (City.names, City.made_free): typed so, compiled
        # code tests membership natively instead of through the generic protocol
        names = cast(frozenset[str], city.names)
        made_free = cast(frozenset[str], city.made_free)
        trade = self.trade(seat)
        free_build = self.free_build_available(seat)
        positional = not free_build and has_positional(city)
        discounts = self.discounts.coins
        left_off, right_off = self.discounts.trade_off(city)
        trade_off = left_off + right_off
        if self.discounts.resources:
            trade_off = 1  # (each card's payments through _discounted_payments)
        stage_payments: list[Payment] = []
        if city.stages < len(city.side.stages):
            stage_cost = self.cost_for(seat, city.side.stages[city.stages].cost, None)
            # (without discounts on trade or resources, _discounted_payments is this)
            stage_payments = (self._discounted_payments(seat, stage_cost, None, coins)
                              if trade_off else trade.payments(stage_cost, coins))
        actions: list[Action] = []
        builds = _BUILDS
        seen: set[Card] = set()  # cards hash by identity: a second copy of the same card
        for card in self.hands[seat]:
            if card in seen:
                continue
            seen.add(card)
            if card.name not in names:
                chained = card.name in made_free
                # (a loop, not names.isdisjoint or any(): compiled, those are Python calls)
                for name in card.free_if_built:
                    if name in names:
                        chained = True
                        break
                if chained:
                    actions.append(build(card, FREE, CHAIN))
                else:
                    cost = card.cost
                    if discounts:
                        cost = self.cost_for(seat, cost, card)
                    bank = cost.coins
                    if trade_off:  # the neighbours' coins less the discount (rare)
                        for payment in self._discounted_payments(seat, cost, card, coins):
                            actions.append(build(card, payment))
                    elif bank <= coins:
                        budget = coins - bank
                        for left, right in trade.pairs(cost.resources):
                            if left + right <= budget:
                                key = (card, left, right, bank, PAY)
                                action = builds.get(key)
                                actions.append(action if action is not None else
                                               build(card, shared_payment(left, right, bank)))
                    if not cost.is_free and (free_build or (
                            positional and self.free_power(seat, card) > 0)):
                        actions.append(build(card, FREE, FREE_BUILD))
            for payment in stage_payments:
                actions.append(build_stage(card, payment))
            actions.append(sell(card))
        return actions

    # --- checking an action ---------------------------------------------------------------

    def check(self, seat: Any, action: Any) -> None:
        """Raise :class:`IllegalActionError` saying why ``action`` is not allowed now
        (typed Any: compiled, a seat or an action of another type is refused in words)."""
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise IllegalActionError(seat, action, f"a seat is a number 0 to "
                                     f"{self.players - 1}, not {seat!r}")
        if not isinstance(action, ACTION_KINDS):
            raise IllegalActionError(seat, action, f"not an action of this game: {action!r} "
                                     "(build, build a wonder stage, sell …: docs/engine.md)")
        self._check(seat, action)

    def _check(self, seat: int, action: Action) -> None:
        for offered in self._legal.get(seat, ()):
            if offered is action:
                return  # one of the very objects legal_actions returned
        if seat not in self.to_move():
            waiting = self.to_move() or "nobody: the game is over"
            raise IllegalActionError(seat, action, f"it is not this player's move "
                                     f"(waiting for {waiting})")
        if self.phase is Phase.DISCARD_BUILD:
            if isinstance(action, Skip):
                return
            if not isinstance(action, BuildFromDiscard):
                raise IllegalActionError(seat, action, "the player is choosing a card from the "
                                         "discard pile (or skip)")
            if action.card not in self.discard:
                raise IllegalActionError(seat, action, "that card is not in the discard pile")
            if action.card.name in self.cities[seat].names:
                raise IllegalActionError(seat, action, f"the city already has {action.card.name}")
            return
        if (self.phase is Phase.DESTROY or self.phase is Phase.TOKEN or self.phase is Phase.DEBT
                or self.phase is Phase.RESERVE_BUILD or self.phase is Phase.COPY):
            self._check_pending(seat, action)
            return
        if self.phase is Phase.SIDE:
            sides = sorted(self.cities[seat].wonder.sides)
            if not isinstance(action, ChooseSide):
                raise IllegalActionError(seat, action, "the player is choosing the side of "
                                         f"the wonder board ({' or '.join(sides)})")
            if action.side not in sides:
                raise IllegalActionError(seat, action, f"{self.cities[seat].wonder.name} has "
                                         f"no side '{action.side}' (sides: {', '.join(sides)})")
            return
        if self.phase is Phase.PICK:
            if not isinstance(action, Keep):
                raise IllegalActionError(seat, action, "the player is choosing a card of the "
                                         "reserve to keep (keep CARD)")
            if not any(c is action.card for c in self.hands[seat]):
                raise IllegalActionError(seat, action, f"{action.card.name} is not in the hand")
            return
        if isinstance(action, Keep):
            raise IllegalActionError(seat, action, "cards are kept only in the reserve draft "
                                     "before Age I")
        if isinstance(action, ChooseSide):
            raise IllegalActionError(seat, action, "sides are chosen before Age I")
        if isinstance(action, (BuildFromDiscard, Skip)):
            raise IllegalActionError(seat, action, "only possible when building from the "
                                     "discard pile")
        if not isinstance(action, (Build, BuildStage, Sell)):
            raise IllegalActionError(seat, action, "this game has no such action (build, "
                                     "build a wonder stage or sell a card)")
        if not any(c is action.card for c in self.hands[seat]):
            raise IllegalActionError(seat, action, f"{action.card.name} is not in the hand")
        if isinstance(action, Sell):
            return
        city = self.cities[seat]
        options: Sequence[Action]  # compiled, a value must be what its annotation says
        if isinstance(action, Build):
            if action.card.name in city.names:
                raise IllegalActionError(seat, action, f"the city already has "
                                         f"{action.card.name} (no two identical buildings)")
            if action.method == FREE_BUILD and not self.free_power(seat, action.card):
                powers = [a for a in city.abilities() if a.name == FREE_BUILD_ABILITY]
                fits = [a for a in powers if a.colours is None
                        or action.card.colour in a.colours]
                colours = sorted({c for a in powers for c in a.colours or ()})
                raise IllegalActionError(seat, action, (
                    "the free build was already used this age" if fits else
                    f"the free build power is only for {' or '.join(colours)} cards"
                    if powers else "this city has no free build power"))
            options = self.build_options(seat, action.card)
            what = f"{action.card.name}"
        else:
            if city.stages >= len(city.side.stages):
                raise IllegalActionError(seat, action, "every wonder stage is already built")
            options = self.stage_options(seat, action.card)
            what = f"stage {city.stages + 1}"
        if action not in options:
            if not options:
                raise IllegalActionError(seat, action, f"{what} cannot be paid for with "
                                         f"{city.coins} coins and this production")
            listed = "; ".join(str(o) for o in options)
            raise IllegalActionError(seat, action, f"not a valid way to build {what}; "
                                     f"the options are: {listed}")

    # --- playing --------------------------------------------------------------------------

    def play(self, actions: Mapping[int, Action]) -> None:
        """Resolve one decision point: every seat in ``to_move()`` gives exactly one action."""
        if self.over:
            raise RuleError("the game is over")
        if not isinstance(actions, dict) and not isinstance(actions, Mapping):
            raise RuleError("play takes each asked seat's action by seat (a mapping of seat "
                            f"to action), not {type(actions).__name__}")
        moves = dict(actions)  # what history records; compiled, a dict is read natively
        movers = self.to_move()
        if len(moves) != len(movers) or any(seat not in moves for seat in movers):
            expected = set(movers)
            missing, extra = expected - set(moves), set(moves) - expected
            raise RuleError(f"expected one action from each of seats {sorted(expected)}"
                            + (f"; missing {sorted(missing)}" if missing else "")
                            + (f"; not expected from {sorted(extra)}" if extra else ""))
        for seat, action in moves.items():
            self.check(seat, action)   # (any key: a seat of text is refused in words)
        age, turn, phase = self.age, self.turn, self.phase
        if phase is Phase.SIDE:
            self._resolve_sides(moves)
        elif phase is Phase.PICK:
            self._resolve_pick(moves)
        elif self.pending and phase is not Phase.TURN and phase is not Phase.LAST_CARD:
            self._resolve_pending(moves)
        else:
            self._resolve_turn(moves)
        self._legal = {}
        if phase is not Phase.SIDE and phase is not Phase.PICK:  # (they start Age I)
            self._continue()
        # the coins once everything the decision set off is done (an age's end: coins of
        # "on age end:" or "on victory token:" clauses), as a replay sees them
        self.decisions.append((age, turn, _PHASE_NAMES[phase], moves,
                               tuple(city.coins for city in self.cities)))

    def _resolve_turn(self, actions: dict[int, Action]) -> None:
        self._moment += 1  # a new turn (``on bank coins:`` once per turn)
        credits = [0] * self.players
        debits = [0] * self.players
        self._credits, self._debits = credits, debits
        # (seat, source, its effects, the trigger event, the card's colour)
        built: list[tuple[int, object, fx.Effects, str, str | None]] = []
        sold: list[int] = []
        bought: list[int] = []  # a seat once per neighbour it bought from ("on buy:")
        for seat, action in sorted(actions.items()):
            city = self.cities[seat]
            assert isinstance(action, (Build, BuildStage, Sell))
            # a free build uses the once-per-period power only when no free build of the
            # card or the moment applies (asked before the card leaves the hand)
            uses_power = isinstance(action, Build) and action.method == FREE_BUILD and (
                self.free_power(seat, action.card) == FREE_BY_USE)
            self.hands[seat].remove(action.card)  # cards compare by identity
            if isinstance(action, Sell):
                reserve = self.card_reserve
                (reserve.out[seat] if reserve.sold_out(action.card) else self.discard).append(
                    action.card)
                sold.append(seat)
                continue
            assert isinstance(action, (Build, BuildStage))
            self._pay(seat, action.payment, credits)
            if self._has_triggers:
                bought.extend(seat for paid in (action.payment.left, action.payment.right)
                              if paid)
            if isinstance(action, Build):
                if uses_power:
                    self.free_builds.use(city, seat, action.card, self.age)
                city.add_card(action.card)
                built.append((seat, action.card, action.card.effects,
                              CHAIN_EVENT if action.method == CHAIN else CARD_EVENT,
                              action.card.colour))
            else:
                stage = city.side.stages[city.stages]
                city.add_stage(action.card)
                built.append((seat, stage, stage.effects, WONDER_EVENT, None))
        # immediate effects see every card built this turn (the effect runtime: coins go to
        # ``credits``, losses to ``debits``, choices wait in ``pending``), then coins arrive
        # all at once, and losses are taken from what the cities then hold
        for seat, source, effects, event, colour in built:
            act(self, seat, effects, False)
            if self._has_triggers:
                if event == CHAIN_EVENT:  # a chain build is a card built, and a chain
                    trigger(self, seat, CARD_EVENT, colour, source)
                trigger(self, seat, event, colour, source)
        for seat in bought:
            trigger(self, seat, BUY_EVENT, None, None)
        sell = self.params.sell
        if sell is not None:
            for seat in sold:
                act(self, seat, sell, False)
        self._credits = self._debits = None
        gives = self._gives  # (made by the turn's first give only)
        self._gives = None
        for seat, coins in enumerate(credits):
            self.cities[seat].coins += coins
        if gives is not None:  # after the turn's coins, before its losses
            for giver, taker, coins in gives:
                self.give(giver, taker, coins)
        for seat, coins in enumerate(debits):
            if coins:
                self.lose(seat, coins)

    def _pay(self, seat: int, payment: Payment, credits: list[int]) -> None:
        city = self.cities[seat]
        city.coins -= payment.total
        self.bank_paid += payment.bank
        credits[left_of(seat, self.players)] += payment.left
        credits[right_of(seat, self.players)] += payment.right

    # --- the table the effect runtime plays on (wonders.engine.runtime) ----------------

    def gain(self, seat: int, coins: int) -> None:
        """The bank gives ``seat`` coins: at the end of the turn during one (all coins of a
        turn arrive together), at once after it (a card built from the discard pile)."""
        self.bank_gave += coins
        if self._credits is not None:
            self._credits[seat] += coins
        else:
            self.cities[seat].coins += coins
        if self._bank_event and coins > 0 and self._bank_moment[seat] != self._moment:
            # ``on bank coins:`` the first time in the turn (the coins it gives are from
            # the bank too, and not announced again); coins paid by neighbours for their
            # resources are not the bank's (``_pay``)
            self._bank_moment[seat] = self._moment
            trigger(self, seat, BANK_EVENT, None, None)

    def lose(self, seat: int, coins: int) -> None:
        """``seat`` returns up to ``coins`` coins to the bank (never below 0): at the end of
        the turn during one, after the coins of the turn arrived."""
        if self._debits is not None:
            self._debits[seat] += coins
            return
        city = self.cities[seat]
        taken = min(coins, city.coins)
        city.coins -= taken
        self.bank_paid += taken

    def give(self, giver: int, taker: int, coins: int) -> None:
        """``giver`` gives ``taker`` up to ``coins`` of its coins: during a turn at its end
        (after the turn's coins arrived, before its losses to the bank, one give after
        the other in the order the effects acted), at once outside one (an age's start or
        end).  The taker receives what the giver had to give, never more."""
        if self._debits is not None:  # during a turn
            if self._gives is None:
                self._gives = []
            self._gives.append((giver, taker, coins))
            return
        city = self.cities[giver]
        given = min(coins, city.coins)
        city.coins -= given
        self.cities[taker].coins += given

    def shields(self, seat: int, count: int) -> None:
        """Shields gained once count in every later battle (a lasting bonus)."""
        self.cities[seat].bonus_shields += count

    def science_arrived(self, seat: int, symbol: str) -> None:
        """Never called: science sets are counted at the final scoring."""

    def replay(self, seat: int) -> None:
        raise RuleError("'replay' needs sequential turns; this game's turns are simultaneous "
                        "(wonders validate refuses such data)")

    def ask(self, kind: str, seat: int, effect: fx.Effect) -> None:
        """Queue a choice of ``seat``: asked after the turn, its options worked out then."""
        self.pending.append(Pending(kind, seat, [], effect))

    def kept(self, seat: int, name: str) -> int:
        """``per age``: the current age (the only count this loop keeps)."""
        return self.age

    def triggers(self, seat: int) -> list[tuple[object, fx.Clause]]:
        return triggers_of(self.cities[seat])

    def take_tokens(self, seat: int, kind: str, count: int) -> None:
        """Counter tokens from the supply, each worth its kind's ``score.worth``; a battle's
        kind the rule set gives no worth is worth what a battle of this age gives (a
        victory token this age's victory points, a defeat token the defeat's), and its
        arrival is announced as a battle's is (``on victory token:``)."""
        worth = self.params.token_worth.get(kind)
        if worth is None:
            if kind == battles.VICTORY:
                worth = self.data.rules.model.military.battles.victory_in(max(1, self.age))
            elif kind == battles.DEFEAT:
                worth = self.params.defeat
            else:
                worth = 0
        self.cities[seat].tokens.extend([(kind, worth)] * count)
        if self._has_triggers and kind in _BATTLE_TOKENS:
            for _ in range(count):
                trigger(self, seat, kind + TOKEN_EVENT, None, None)

    def city_list(self) -> list[City]:
        return self.cities

    def reserve_hand(self, seat: int) -> list[Card]:
        """``seat``'s reserve hand: during a reserve turn (and the choices after it) its
        hand, else the reserve cards it keeps."""
        return self.hands[seat] if self.turn == 0 else self.card_reserve.kept[seat]

    def draw_reserve(self, seat: int, count: int) -> None:
        """``draw N reserve cards``: the first ``count`` unused reserve cards (shuffled at
        set-up) join ``seat``'s reserve hand, as many as are left."""
        self.card_reserve.draw(self.reserve_hand(seat), count)

    def reserve_builds(self, seat: int) -> list[Action]:
        """The builds of the cards of ``seat``'s reserve hand it can pay for now (each
        payment; by chain; not by a free-build power, whose uses are the turns')."""
        found: list[Action] = []
        for card in _unique(self.reserve_hand(seat)):
            for option in self.build_options(seat, card):
                if option.method != FREE_BUILD:
                    found.append(option)
        return found

    def build_reserve(self, seat: int, action: Build) -> None:
        """``seat`` builds a card of its reserve hand at once (``build N reserve cards``):
        it pays (the neighbours' coins arrive at once), the card arrives with its
        effects and the owner's triggers."""
        card = action.card
        self.reserve_hand(seat).remove(card)
        credits = [0] * self.players
        self._pay(seat, action.payment, credits)
        for other, coins in enumerate(credits):
            self.cities[other].coins += coins
        self.cities[seat].add_card(card)
        act(self, seat, card.effects, False)
        if self._has_triggers:
            if action.method == CHAIN:
                trigger(self, seat, CARD_EVENT, card.colour, card)
            trigger(self, seat, CHAIN_EVENT if action.method == CHAIN else CARD_EVENT,
                    card.colour, card)
            for paid in (action.payment.left, action.payment.right):
                if paid:
                    trigger(self, seat, BUY_EVENT, None, None)

    def _pending_options(self) -> list[Action]:
        """The choices of the pending decision (a discard build may be declined)."""
        pending = self.pending[0]
        if pending.kind == _DISCARD_BUILD or pending.kind == RESERVE_BUILD:
            return [*pending.options, Skip()]
        return list(pending.options)

    def _check_pending(self, seat: int, action: Action) -> None:
        options = self._pending_options()
        if action in options:
            return
        what = _WORDING[self.phase]
        listed = "; ".join(str(o) for o in options)
        if isinstance(action, DestroyCard):
            reason = f"{action.card.name} is not a card this effect can destroy"
        elif isinstance(action, TakeToken):
            reason = f"the {action.token.name} token is not one this effect offers"
        elif isinstance(action, CopyCard):
            reason = f"{action.card.name} is not a card this effect can copy"
        elif isinstance(action, Build) and self.phase is Phase.RESERVE_BUILD:
            reason = (f"{action.card.name} is not a card of the reserve hand built that way "
                      "now")
        else:
            reason = f"the player is {what}"
        raise IllegalActionError(seat, action, f"{reason}; the options are: {listed}")

    def _resolve_pending(self, actions: dict[int, Action]) -> None:
        (seat, action), = actions.items()
        self.pending.pop(0)
        resolve(self, seat, action)

    def _continue(self) -> None:
        """Move to the next decision point: last cards, discard builds, next turn or age."""
        if self.turn == 0:  # a reserve turn: its choices, then the rest is kept, and the age dealt
            if self._ask_pending():
                return
            self._end_reserve_turn()
            return
        longest = max(len(h) for h in self.hands)
        if longest == 1 and not self._last_card_done:
            self._last_card_done = True
            holders = [s for s in range(self.players) if self.hands[s] and (
                self.params.last_card == "play"
                or plays_last_card(self.cities[s], self.last_card_uses, s))]
            if holders:
                self.phase, self.movers = Phase.LAST_CARD, holders
                return
        if longest == 1 and self._last_card_done:
            for hand in self.hands:
                self.discard.extend(hand)
                hand.clear()
        if self._ask_pending():
            return
        if all(not hand for hand in self.hands):
            self._moment += 1  # the age's end: a turn of its own for ``on bank coins:``
            self._military()
            if self._has_triggers:  # "on age end:" clauses, after the battles
                for seat in range(self.players):
                    trigger(self, seat, AGE_END_EVENT, None, None)
            if self.age >= self.data.rules.ages:
                self.phase, self.movers = Phase.OVER, []
                return
            self._start_age(self.age + 1)
            return
        self._pass_hands()
        self.turn += 1
        self.phase, self.movers = Phase.TURN, list(range(self.players))

    def _ask_pending(self) -> bool:
        """Ask the first pending choice that has options (True), dropping those without."""
        while self.pending:
            pending = self.pending[0]
            pending.options = pending_options(self, pending.kind, pending.seat, pending.effect)
            if pending.kind == DEBT and len(pending.options) == 1:
                self.pending.pop(0)  # nothing to choose (no coin to pay): taken as it is
                resolve(self, pending.seat, pending.options[0])
                continue
            if pending.options:
                self.phase, self.movers = _PHASES[pending.kind], [pending.seat]
                return True
            self.pending.pop(0)
        return False

    def _pass_hands(self) -> None:
        self.hands = passed_hands(self.hands,
                                   self.params.passes[(self.age - 1) % len(self.params.passes)])

    def _military(self) -> None:
        """The age's military: the rule set's battles (:mod:`.mechanisms.battles`), then
        ``on victory token:`` for each token received, in seat order."""
        received = battles.age_end(self.cities, self.data.rules.model.military.battles,
                                   self.age, self._counted_shields)
        if self._has_triggers:
            for seat in range(self.players):
                for kind, _ in received[seat]:
                    trigger(self, seat, kind + TOKEN_EVENT, None, None)

    # --- results -------------------------------------------------------------------------

    def score_sheet(self) -> ScoreSheet:
        """The score sheet (final once the game is over; the standing so far before)."""
        if self.over and self._score is not None:
            return self._score
        sheet = score(self.cities, self.params, self.science)
        if self.over:
            self._score = sheet
        return sheet

    def determinize(self, seat: int, rng: random.Random) -> "Game":
        """A clone in which everything ``seat`` cannot see is resampled.

        Hidden are the other players' hands and the face-down discard pile (except the cards
        this seat sold itself, and all of it while this seat builds from it).  Those cards
        are pooled, put in a canonical order (so the sample cannot depend on where they
        really are) and dealt again at random into the same places and sizes; the seat's own
        hand and every city stay as they are.  The clone's generator is reseeded from
        ``rng`` so future deals (guilds, later ages) are not the real ones either.  Search
        bots play out determinizations instead of the real game.
        """
        other = self.clone()
        others = [s for s in range(self.players) if s != seat]
        own_sales = [action.card for _, _, _, actions, _ in self.decisions
                     for s, action in actions.items() if s == seat and isinstance(action, Sell)]
        hidden_discard = list(other.discard)
        known_discard: list[Card] = []
        if self.phase is Phase.DISCARD_BUILD and seat in self.movers:
            hidden_discard, known_discard = [], hidden_discard  # looking through it now
        for card in own_sales:
            if card in hidden_discard:
                hidden_discard.remove(card)
                known_discard.append(card)
        reserve = other.card_reserve
        waiting = [card for hand in reserve.waiting for card in hand]  # nobody has seen them
        pool = [card for s in others for card in other.hands[s]] + hidden_discard + waiting
        pool.sort(key=lambda card: (card.age, card.name))
        rng.shuffle(pool)
        start = _deal_back(pool, other.hands, others, 0)
        start = _deal_back(pool, reserve.waiting, range(self.players), start)
        other.discard = known_discard + pool[start:]
        # others' reserves, the unused reserve cards and the reserve cards others sold out
        # of the game (nobody but their sellers has seen them)
        kept = [card for s in others
                for card in reserve.kept[s] + reserve.out[s]] + reserve.unused
        if kept:
            kept.sort(key=lambda card: card.name)
            rng.shuffle(kept)
            start = _deal_back(kept, reserve.kept, others, 0)
            start = _deal_back(kept, reserve.out, others, start)
            reserve.unused = kept[start:]
        other.set_generator(seeded(rng.getrandbits(64)))
        if ((other.phase is Phase.DISCARD_BUILD or other.phase is Phase.RESERVE_BUILD)
                and other.pending):
            pending = other.pending[0]  # its options are cards of the (resampled) pile
            pending.options = pending_options(other, pending.kind, pending.seat, pending.effect)
        other.invalidate()
        return other

    def view(self, seat: Any) -> dict[str, Any]:
        """What the player at ``seat`` may see: their hand, every city, hand sizes."""
        return self._view(check_seat(seat, self.players))

    def _view(self, seat: int) -> dict[str, Any]:
        return {
            "seat": seat,
            "age": self.age,
            "turn": self.turn,
            "phase": _PHASE_NAMES[self.phase],
            "to_move": self.to_move(),
            "hand": [c.name for c in self.hands[seat]],
            "reserve": [c.name for c in self.card_reserve.kept[seat]],
            "sides": (sorted(self.cities[seat].wonder.sides)
                      if self.phase is Phase.SIDE and seat in self.movers else None),
            "hand_sizes": [len(h) for h in self.hands],
            "discard_pile": len(self.discard),
            "discard_cards": ([c.name for c in self.discard]
                              if self.phase is Phase.DISCARD_BUILD and seat in self.movers
                              else None),
            "cities": [city.to_json() for city in self.cities],
            "tokens": {pool: [t.name for t in tokens] for pool, tokens in self.pools.items()
                       if pool not in hidden_pools(self.data)},
            "trade": self.trade_view(seat),
        }

    def trade_view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may buy from each neighbour this turn and at what price, for
        people (:meth:`.mechanisms.neighbours.NeighbourTrade.trade_view`)."""
        return self.trading.trade_view(self.cities, seat)


_DERIVED_KEY: Final = "engine_prepared"  # this module's entry in GameData.derived
_Prepared = tuple[Parameters, AgeDecks]


def _prepared(data: GameData) -> _Prepared:
    """Rule parameters and the ages' decks, worked out once per loaded data.

    Kept in the data's ``derived`` cache, so thousands of games on the same
    data share them and nothing outlives the data.
    """
    cached = data.derived.get(_DERIVED_KEY)
    if cached is not None:
        return cast(_Prepared, cached)
    params = parameters(data.rules)
    prepared: _Prepared = (params, AgeDecks(data, params))
    data.derived[_DERIVED_KEY] = prepared
    memo.watch(data)  # the memo tables keep its cards: empty them when it is dropped
    return prepared


def _unique(cards: Iterable[Card]) -> list[Card]:
    seen: set[int] = set()
    result = []
    for card in cards:
        if id(card) not in seen:
            seen.add(id(card))
            result.append(card)
    return result




def _deal_back(pool: list[Card], piles: list[list[Card]], seats: Iterable[int],
               start: int) -> int:
    """Give each of ``seats`` as many cards of ``pool`` (from ``start`` on) as its pile
    holds now, in seat order (a determinized game's unseen cards dealt again); return
    where the next deal starts."""
    for seat in seats:
        size = len(piles[seat])
        if size:
            piles[seat] = pool[start:start + size]
            start += size
    return start




def _has_event(data: GameData, event: str) -> bool:
    """Whether any card, stage or token of the data has an ``on …:`` clause set off by
    ``event`` (worked out once per loaded data)."""
    key = "game_event:" + event
    cached = data.derived.get(key)
    if isinstance(cached, bool):
        return cached
    found = False
    for effects in every_effects(data):
        for clause in effects.clauses:
            if clause.trigger is not None and clause.trigger.event == event:
                found = True
    data.derived[key] = found
    return found


def _has_counted_shields(data: GameData) -> bool:
    """Whether any card, stage or token of the data has a ``shields N per …`` clause
    (worked out once per loaded data)."""
    cached = data.derived.get("game_counted_shields")
    if isinstance(cached, bool):
        return cached
    found = False
    for effects in every_effects(data):
        for clause in effects.clauses:
            if isinstance(clause.effect, fx.Shields) and clause.effect.each is not None:
                found = True
    data.derived["game_counted_shields"] = found
    return found
