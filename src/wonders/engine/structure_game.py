"""The card-structure flow: two players take turns taking cards from a layout.

This is the game loop a rule set selects with ``offer: {mechanism: structure}``
(7 Wonders Duel is one such rule set).  Its slots are filled from data
(:mod:`wonders.engine.structure_rules`):

* a **wonder draft** from pools, in the rule set's pick order;
* **card structures** per age (:mod:`wonders.engine.structure`), with cards
  removed unseen and random draws (guilds) shuffled in;
* **sequential turns**: take an accessible card and build it, sell it, or tuck it
  under one of your wonders; ``replay`` effects give another turn;
* **bank trading** (:mod:`wonders.engine.bank`) and cost discounts;
* a **conflict track** (:mod:`wonders.engine.track`) with coin-loss tokens;
* **science pairs** (the rule set's ``science.pair`` effect, e.g. take a token)
  and **supremacy**: the game ends at once on the track's last space or with
  enough different science symbols; otherwise after the last age, on points;
* follow-up **choices** effects ask for: a token to take, a card to destroy, a
  card to build from the discard pile, and who starts the next age.

The interface is :class:`wonders.engine.game.Game`'s: ``to_move()``,
``legal_actions(seat)``, ``play({seat: action})``, ``score_sheet()``, ``clone()``,
``determinize()``, ``view()``.  No card, wonder or token is named here.
"""

from __future__ import annotations

import random
from enum import Enum
from typing import Any, Final, Mapping, Sequence, cast

from wonders.dsl import effects as fx
from wonders.dsl.model import Card, Token, Wonder
from wonders.dsl.model import Game as GameData
from wonders.engine import memo
from wonders.engine.actions import (
    CHAIN,
    Action,
    Build,
    BuildWonder,
    ChooseStarter,
    ChooseWonder,
    Sell,
    choose_starter,
    choose_wonder,
    history_records,
)
from wonders.engine.bank_terms import TradeTerms, price_rates, terms
from wonders.engine.city import TERMS_CACHE as BANK_TERMS
from wonders.engine.city import TOKEN
from wonders.engine.contract import Decision
from wonders.engine.drafted_city import DraftedCity, stage_cost
from wonders.engine.errors import IllegalActionError, RuleError, check_seat
from wonders.engine.interning import intern
from wonders.engine.mechanisms.bank import CANNOT as _CANNOT
from wonders.engine.mechanisms.bank import CHAINED as _CHAINED
from wonders.engine.mechanisms.bank import CONTEXTS as _CONTEXTS
from wonders.engine.mechanisms.bank import NO_TERMS as _NO_TERMS
from wonders.engine.mechanisms.bank import NO_TUCKS as _NO_TUCKS
from wonders.engine.mechanisms.bank import PRICES as _PRICES
from wonders.engine.mechanisms.bank import KeptTerms as _KeptTerms
from wonders.engine.mechanisms.bank import OwnTerms as _OwnTerms
from wonders.engine.mechanisms.bank import Priced as _Priced
from wonders.engine.mechanisms.bank import Tuck as _Tuck
from wonders.engine.mechanisms.bank import card_record as _card_record
from wonders.engine.mechanisms.bank import context_key as _context_key
from wonders.engine.mechanisms.bank import first_offer as _first_offer
from wonders.engine.mechanisms.bank import items_of as _items
from wonders.engine.mechanisms.bank import tuck_card as _tuck_card
from wonders.engine.mechanisms.bank import tuck_of as _tuck
from wonders.engine.pools import deal as deal_pools
from wonders.engine.pools import hidden as hidden_pools
from wonders.engine.production import Production
from wonders.engine.randomness import below, sample, seeded, shuffle
from wonders.engine.runtime import (
    CARD_EVENT,
    CHAIN_EVENT,
    WONDER_EVENT,
    Pending,
    Table,
    act,
    now,
    resolve,
    trigger,
)
from wonders.engine.runtime import options as pending_options
from wonders.engine.scoring import ScoreSheet, score
from wonders.engine.structure import Structure
from wonders.engine.structure_rules import StructureRules, structure_rules
from wonders.engine.track import entered, push

TRADE_INCOME_ABILITY: Final = "trade_income"
MILITARY: Final = "military"
SCIENCE: Final = "science"
CIVILIAN: Final = "civilian"
WEAKER_MILITARY: Final = "weaker_military"  # a value of ``turns.next_age``



def _offered(legal: list[Any], action: object) -> bool:
    """Whether ``action`` is one of the offered objects (by identity; the items typed Any:
    compiled, an ``Action`` read from the list is checked against each class of the union)."""
    for offered in legal:
        if offered is action:
            return True
    return False


_TURN: Final = "turn"  # StructurePhase.TURN.value, for the decision records


class StructurePhase(str, Enum):
    WONDERS = "wonder_draft"
    TURN = "turn"
    TOKEN = "token"
    DESTROY = "destroy"
    DISCARD_BUILD = "discard_build"
    STARTER = "starter"
    OVER = "over"


# The pending decision in words (``phase_name``; made once: the agent environment asks
# for the decision at every step)
_WORDING: Final[dict[StructurePhase, str]] = {
    StructurePhase.WONDERS: "choosing a wonder",
    StructurePhase.TURN: "taking a card from the structure",
    StructurePhase.TOKEN: "choosing a token",
    StructurePhase.DESTROY: "choosing a card of the opponent to destroy",
    StructurePhase.DISCARD_BUILD: "building a card from the discard pile",
    StructurePhase.STARTER: "choosing who starts the next age",
    StructurePhase.OVER: "done: the game is over"}

# What ``to_move`` answers, shared by every game (two seats: see ``__init__``); read-only.
# Lists typed Final are module statics when compiled (a Final tuple would be rebuilt).
_SEATS: Final[list[list[int]]] = [[0], [1]]
_NOBODY: Final[list[int]] = []
# the decisions handed out, by (kind, seat deciding or -1): immutable, so shared
_DECISIONS: Final[dict[tuple[str, int], Decision]] = {}

# Each phase's name, for the decision records (an Enum's ``.value`` runs Python code).
_PHASE_NAMES: Final[dict[StructurePhase, str]] = {phase: phase.value for phase in StructurePhase}


class StructureGame(Table):
    """One game on a card-structure rule set, for two players."""

    def __init__(self, data: GameData, players: int = 2, seed: int = 0, *,
                 wonders: Sequence[Sequence[str]] | None = None,
                 sides: object = None, _shell: bool = False) -> None:
        """``_shell`` is for :meth:`clone` only: an object whose fields it then sets (a
        compiled class cannot be allocated without running ``__init__``)."""
        if _shell:
            return
        rules = data.rules
        if not rules.min_players <= players <= rules.max_players:
            raise RuleError(f"{rules.title} is for {rules.min_players}–{rules.max_players} "
                            f"players, not {players}")
        if players != 2:
            raise RuleError("the card-structure flow is for two players")
        if not (sides is None or sides == "random"
                or (isinstance(sides, (list, tuple)) and all(s == "random" for s in sides))):
            raise RuleError(f"{rules.title}'s wonders have no sides to choose ({sides!r})")
        self.data = data
        self.setup: StructureRules = structure_rules(data)
        self.params = self.setup.base
        # what the shared price tables depend on besides the productions and own terms:
        # the data set's bank price and resources (a process may hold two rule sets)
        self.bank_key = intern((self.setup.bank.price, self.params.resources))
        self.players = players
        self.seed = seed
        self.set_generator(seeded(seed))  # random.Random(seed), for less
        self.science = rules.vocabulary.science
        self.cities = [DraftedCity(s, self.params.start_coins, self.params.buyable,
                                   self.setup.unlocks)
                       for s in range(players)]
        # a new city has no trading effects: its own terms are the data set's empty ones
        # (kept per bank price and resources), not worked out again for each city and game
        empty = _NO_TERMS.get(self.bank_key)
        if empty is None:
            empty = memo.remember(_NO_TERMS, self.bank_key,
                                  _OwnTerms({}, {}, 0, intern(((), (), 0, self.bank_key))))
        for city in self.cities:
            city._cache[BANK_TERMS] = empty
        self.discard: list[Card] = []
        self.removed: list[Card] = []          # removed unseen from the current age
        self.removed_before: list[Card] = []   # ... and from the ages before
        self.structure: Structure | None = None
        self.age = 0
        self.turn = 0
        self.phase = StructurePhase.WONDERS
        self.current = 0                        # whose turn it is
        self.last_actor = 0
        self.position = 0                       # conflict pawn, + = towards seat 1
        self.track_tokens = set(self.setup.track_tokens)
        self.pools: dict[str, list[Token]] = {}
        self.wonder_pools: list[list[Wonder]] = []
        self.picks = 0
        self.pending: list[Pending] = []
        self.again = False                      # a ``replay`` effect: the same seat plays next
        self.arrival_ongoing = True             # shields and science act as they arrive
        self.victory: str | None = None
        self.winner: int | None = None
        # (age, turn, phase, seat, action, coins of seat 0 and 1 after): one flat tuple per
        # decision, made on every turn; ``history`` gives the records every loop shares
        self.decisions: list[tuple[int, int, str, int, Any, int, int]] = []  # (Any: see _checked)
        self.bank_paid = 0
        self.bank_gave = 0
        self.start_coins = sum(c.coins for c in self.cities)
        self._score: ScoreSheet | None = None
        # the one seat whose legal actions are kept (-1: none; turns are sequential, so
        # at most one seat has any), and those actions
        self._legal_seat = -1
        self._legal: list[Action] = []
        # per seat: the terms it trades on, and the city versions they were found for
        self._trade = [_KeptTerms() for _ in range(players)]
        self._deal_tokens()
        self._deal_wonders(wonders)

    @classmethod
    def new(cls, game: str = "duel", players: int = 2, seed: int = 0,
            paths: Sequence[str] = (), **options: Any) -> "StructureGame":
        from wonders.dsl.loader import load_game  # the language stack, only when loading

        return cls(load_game(paths, game), players, seed, **options)

    # --- setup -----------------------------------------------------------------------

    def _deal_tokens(self) -> None:
        self.pools = deal_pools(self.data, self.generator(), self.drawer())

    def _deal_wonders(self, names: Sequence[Sequence[str]] | None) -> None:
        if names is not None:
            if len(names) != self.players:
                raise RuleError(f"{len(names)} wonder lists for {self.players} players")
            for seat, seat_names in enumerate(names):
                for name in seat_names:
                    wonder = self.data.wonder(name)
                    if wonder is None:
                        raise RuleError(f"no wonder named '{name}'")
                    self.cities[seat].wonders.append(wonder)
            self._start_age(1, starter=0)
            return
        draft = self.setup.draft
        boards = self.setup.wonders
        wanted = draft.pools * draft.size
        if len(boards) < wanted:
            raise RuleError(f"{len(boards)} wonders for a draft of {wanted}")
        if not wanted:
            self._start_age(1, starter=0)
            return
        chosen = list(boards)
        shuffle(self.generator(), chosen, self.drawer())
        del chosen[wanted:]
        self.wonder_pools = [chosen[i * draft.size:(i + 1) * draft.size]
                             for i in range(draft.pools)]
        self.phase = StructurePhase.WONDERS
        self.current = draft.order[0]

    def _deck(self, age: int) -> list[Card]:
        """The age's cards in random order: some removed unseen, drawn cards shuffled in.

        One shuffle, then each drawn card inserted at a random place: the order is as
        uniform as shuffling again, for a fraction of the random numbers.
        """
        deck = list(self.setup.decks.get(age, ()))
        rng = self.generator()
        shuffle(rng, deck, self.drawer())
        remove = self.setup.remove
        self.removed_before += self.removed
        self.removed = deck[:remove]
        del deck[:remove]
        for candidates, count in self.setup.draws.get(age, ()):
            for card in sample(rng, candidates, count):
                deck.insert(below(rng, len(deck) + 1), card)
        return deck

    def _start_age(self, age: int, starter: int) -> None:
        self._deal_age(age)
        self._first_turn(starter)

    def _deal_age(self, age: int) -> None:
        """Lay out ``age``'s structure (the rulebook does this before anyone chooses who
        starts it, so the chooser sees the new cards)."""
        self.age = age
        self.turn = 1
        self.structure = Structure(self.setup.layouts[age], self._deck(age))

    def _first_turn(self, starter: int) -> None:
        self.current = starter
        self.phase = StructurePhase.TURN

    def clone(self) -> "StructureGame":
        """An independent copy of the game state (cards and data are shared, never copied).

        Every attribute is listed: the class may be compiled (mypyc), where instances
        have no ``__dict__`` to copy wholesale.
        """
        other = StructureGame(self.data, self.players, self.seed, _shell=True)
        other.data = self.data
        other.setup = self.setup
        other.params = self.params
        other.bank_key = self.bank_key
        other.players = self.players
        other.seed = self.seed
        self.share_generator(other)
        other.science = self.science
        other.cities = [city.clone() for city in self.cities]
        other.discard = list(self.discard)
        other.removed = list(self.removed)
        other.removed_before = list(self.removed_before)
        other.structure = self.structure.clone() if self.structure is not None else None
        other.age = self.age
        other.turn = self.turn
        other.phase = self.phase
        other.current = self.current
        other.last_actor = self.last_actor
        other.position = self.position
        other.track_tokens = set(self.track_tokens)
        other.pools = {name: list(tokens) for name, tokens in self.pools.items()}
        other.wonder_pools = [list(pool) for pool in self.wonder_pools]
        other.picks = self.picks
        other.pending = [p.copy() for p in self.pending]
        other.again = self.again
        other.arrival_ongoing = self.arrival_ongoing
        other.victory = self.victory
        other.winner = self.winner
        other.decisions = list(self.decisions)
        other.bank_paid = self.bank_paid
        other.bank_gave = self.bank_gave
        other.start_coins = self.start_coins
        other._score = self._score
        other._legal_seat = -1
        other._legal = []
        other._trade = [kept.copy() for kept in self._trade]
        return other

    # --- questions -------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase is StructurePhase.OVER

    @property
    def history(self) -> list[dict[str, Any]]:
        """Every decision so far as JSON-ready records (what logs hold)."""
        return history_records([(age, turn, phase, {seat: action}, (coins0, coins1))
                                for age, turn, phase, seat, action, coins0, coins1
                                in self.decisions])

    def to_move(self) -> list[int]:
        """The one seat that decides now, or none: a shared list (read it only), as
        ``legal_actions``' is (a harness asks before every decision)."""
        if self.phase is StructurePhase.OVER:
            return _NOBODY
        if self.pending:
            return _SEATS[self.pending[0].seat]
        return _SEATS[self.current]

    def decision(self) -> Decision:
        """The pending decision: its kind, the one seat that decides it, in words (one
        shared record per kind and seat: a new frozen dataclass costs as much as a turn)."""
        kind = self.pending[0].kind if self.pending else _PHASE_NAMES[self.phase]
        moving = self.to_move()
        key = (kind, moving[0] if moving else -1)
        found = _DECISIONS.get(key)
        if found is None:  # (the wording is a function of the kind: phase_name())
            found = _DECISIONS[key] = Decision(kind, tuple(moving), self.phase_name())
        return found

    def setup_record(self) -> dict[str, Any]:
        """What set-up dealt: each seat's wonders before the draft, the draft's pools and
        the tokens on the board (read from a fresh game: the deal is a function of the
        data, the player count and the seed)."""
        fresh = self if not self.decisions else StructureGame(self.data, self.players,
                                                              self.seed)
        return {
            "seats": [{"seat": c.seat, "wonders": [w.name for w in c.wonders]}
                      for c in fresh.cities],
            "wonder_pools": [[w.name for w in pool] for pool in fresh.wonder_pools],
            "board_tokens": {pool: [t.name for t in tokens]
                             for pool, tokens in sorted(fresh.pools.items())
                             if pool not in hidden_pools(self.data)},
        }

    def offer_cards(self) -> list[Card]:
        """The structure's cards not taken yet, face-down ones included (the contract's
        cards on offer this age)."""
        structure = self.structure
        if structure is None:
            return []
        return [card for card, taken in zip(structure.cards, structure.taken) if not taken]

    def card_places(self, seat: int) -> dict[str, tuple[bool, list[Card]]]:
        """Every card dealt so far by where it is, and whether ``seat`` sees it there: the
        structure's face-up and face-down cards, those removed unseen (every age), the
        discard pile, each city and the cards under its wonders (its owner's)."""
        up: list[Card] = []
        down: list[Card] = []
        structure = self.structure
        if structure is not None:
            for slot, card in enumerate(structure.cards):
                if not structure.taken[slot]:
                    (up if structure.face_up[slot] else down).append(card)
        places: dict[str, tuple[bool, list[Card]]] = {
            "structure": (True, up), "structure face down": (False, down),
            "removed": (False, self.removed_before + self.removed),
            "discard": (True, list(self.discard))}
        for s, city in enumerate(self.cities):
            places[f"city {s}"] = (True, list(city.built))
            places[f"wonder {s}"] = (s == seat, list(city.stage_cards))
        return places

    def invalidate(self) -> None:
        """Drop cached answers; call after changing cities by hand (scenarios)."""
        self._trade = [_KeptTerms() for _ in range(self.players)]
        self._legal_seat = -1
        for city in self.cities:
            city.changed()

    def chained(self, seat: int, card: Card) -> bool:
        city = self.cities[seat]
        return card.name in city.made_free or card in city.unlocked

    def _context(self, seat: int) -> TradeTerms:
        """What ``seat`` pays for things now (shared terms, looked up again only when
        either city's production or trading effects change)."""
        city = self.cities[seat]
        rival = self.cities[1 - seat]
        kept = self._trade[seat]
        known = kept.terms
        if (known is not None and kept.own == city.version and kept.rival == rival.version
                and kept.tokens == len(city.owned_tokens)):
            return known
        params = self.params
        own = city.production(params)[0]
        sale = rival.production(params)[1]
        own_terms = self._terms(city)
        key = _context_key(own.ident, sale.ident, own_terms.ident)
        found = _CONTEXTS.get(key)
        if found is None:
            found = memo.remember(_CONTEXTS, key, self._priced(own, sale, own_terms))
        kept.own = city.version
        kept.rival = rival.version
        kept.tokens = len(city.owned_tokens)
        kept.terms = found
        return found

    def _priced(self, own: Production, sale: Production,
                own_terms: "_OwnTerms") -> TradeTerms:
        """The shared terms of a city producing ``own``, whose rival sells ``sale``
        (its prices kept per rival production and own terms, shared by every own
        production)."""
        fixed_prices = own_terms.fixed
        terms_id = own_terms.ident
        key = (sale.ident, terms_id)
        priced = _PRICES.get(key)
        if priced is None:
            units = sale.units()
            base = self.setup.bank.price
            resources = self.params.resources
            prices = {r: base + units.get(r, 0) for r in resources}
            for resource, price in fixed_prices.items():
                if price < prices[resource]:
                    prices[resource] = price
            # the id names the resources too: shared terms are found by it, across rule sets
            priced = (prices, intern((resources, tuple(prices[r] for r in resources))),
                      price_rates(prices))
            memo.remember(_PRICES, key, priced)
        return terms(own, own.ident, priced[0], priced[1], own_terms.discounts,
                     own_terms.wonder_discount, terms_id, priced[2])

    def _terms(self, city: DraftedCity) -> "_OwnTerms":
        """The city's own trading terms: fixed prices, discounts per colour, on wonders,
        and an interned id of all three and the game's bank price and resources."""
        cached = city._cache.get(BANK_TERMS)
        if cached is not None:
            return cast(_OwnTerms, cached)
        fixed: dict[str, int] = {}
        discounts: dict[str, int] = {}
        wonder_discount = 0
        for _, _, effect in city.clause_list(fx.Timing.ONGOING):
            if isinstance(effect, fx.TradePrice) and not effect.places:
                for resource in effect.resources:
                    fixed[resource] = min(fixed.get(resource, effect.price), effect.price)
            elif isinstance(effect, fx.Discount):
                if effect.target == WONDER_EVENT:
                    wonder_discount += effect.count
                else:
                    for colour in effect.colours or self.data.rules.vocabulary.colours:
                        discounts[colour] = discounts.get(colour, 0) + effect.count
        found = _OwnTerms(fixed, discounts, wonder_discount,
                          intern((_items(fixed), _items(discounts), wonder_discount,
                                  self.bank_key)))
        city._cache[BANK_TERMS] = found
        return found

    def cost_of(self, seat: int, cost: fx.Cost, discount: int) -> int:
        """Coins ``seat`` pays for ``cost`` now: its coins plus the cheapest trade."""
        return self._context(seat).cost(cost, discount)

    def prices(self, seat: int) -> dict[str, int]:
        """What one unit of each resource costs ``seat`` at the bank now."""
        return dict(self._context(seat).prices)

    def _tucks(self, seat: int, terms: TradeTerms) -> list[_Tuck]:
        """Every unbuilt wonder of ``seat``'s at its price on ``terms``, in the city's order
        (the turn offers those it can pay for).  Kept per seat until the terms or the
        wonders change: a turn then reads a list instead of pricing each wonder again.
        """
        kept = self._trade[seat]
        wonders = self.cities[seat].wonders
        if kept.tucks_terms is terms and kept.wonders == len(wonders):
            return kept.tucks
        priced = terms.tucks
        found: list[_Tuck] = []
        for wonder in wonders:
            tuck = priced.get(wonder)
            if tuck is None:
                tuck = priced[wonder] = _tuck(wonder, terms.cost(stage_cost(wonder),
                                                                 terms.wonder_discount))
            found.append(tuck)
        kept.tucks = found
        kept.tucks_terms = terms
        kept.wonders = len(wonders)
        return found

    def wonders_built(self) -> int:
        first, second = self.cities
        return first.stages + second.stages

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

    def legal_actions(self, seat: int) -> list[Action]:
        """Everything ``seat`` may do now (shared list: treat it as read-only)."""
        if seat == self._legal_seat and seat >= 0:  # (-1: nothing kept, not a seat)
            return self._legal
        if self.phase is StructurePhase.OVER:
            return []
        if seat != (self.pending[0].seat if self.pending else self.current):
            return []
        if self.pending:
            actions = self.pending[0].options
        elif self.phase is StructurePhase.WONDERS:
            pool = self.wonder_pools[self.picks // self.setup.draft.size]
            actions = [choose_wonder(w) for w in pool]
        elif self.phase is StructurePhase.STARTER:
            actions = [choose_starter(s) for s in range(self.players)]
        else:
            actions = self._turn_options(seat)
        self._legal_seat = seat
        self._legal = actions
        return actions

    def _turn_options(self, seat: int) -> list[Action]:
        """The hot path: build, sell or tuck under a wonder, for each accessible card.

        What a card offers depends only on the card, what building it costs (or that
        it is free by chain, or cannot be built) and which wonders are affordable at
        what price, so each card's actions are shared records (:class:`_Priced`,
        :class:`_Tuck`), found through the seat's terms.
        """
        assert self.structure is not None
        city = self.cities[seat]
        coins = city.coins
        # built, or free by chain: looked at closely (a set lookup on the name: flags by
        # number cost more, docs/engine.md "Measured and dropped")
        marked = city.marked
        terms = self._context(seat)
        tucks: list[_Tuck] = _NO_TUCKS
        if city.wonders:
            limit = self.setup.wonder_limit
            first, second = self.cities
            if not limit or first.stages + second.stages < limit:
                tucks = self._tucks(seat, terms)
        offers = terms.offers  # (grown in place by _first_offer, from either end)
        # Typed Any, like the offers read into it: compiled, every ``Action`` read or stored
        # is checked against each class of the union; these are the engine's own objects.
        actions: list[Any] = []
        structure = self.structure
        cards = structure.cards
        for slot in structure.accessible:
            card = cards[slot]
            # (-1 for a card the data set did not number: the lists miss and the slow paths
            # number it)
            number = card.number
            if card.name in marked:
                priced = self._marked_offers(city, card, terms)
            else:
                index = number - terms.offers_from  # (read again: _first_offer may move it)
                found = offers[index] if 0 <= index < len(offers) else None
                priced = found if found is not None else _first_offer(self.setup, terms, card)
            for offered in priced.offers if priced.paid <= coins else priced.refused:
                actions.append(offered)  # one or two: cheaper than extend
            for tuck in tucks:
                if tuck.paid <= coins:
                    by_card = tuck.by_card
                    index = number - tuck.by_card_from
                    action = by_card[index] if 0 <= index < len(by_card) else None
                    actions.append(action if action is not None else _tuck_card(tuck, card))
        return actions

    def _marked_offers(self, city: DraftedCity, card: Card, terms: TradeTerms) -> _Priced:
        """The offers of a card whose name the city has marked (about 3 % of those
        offered): built already, free by chain, or neither (another card's chain name)."""
        name = card.name
        if name in city.names:
            return _card_record(self.setup, card, _CANNOT)
        if name in city.made_free or card in city.unlocked:
            return _card_record(self.setup, card, _CHAINED)
        number = card.number
        offers = terms.offers
        index = number - terms.offers_from
        found = offers[index] if 0 <= index < len(offers) else None
        return found if found is not None else _first_offer(self.setup, terms, card)

    # --- checking --------------------------------------------------------------------

    def check(self, seat: int, action: Action) -> None:
        """Raise :class:`IllegalActionError` saying why ``action`` is not allowed now."""
        legal = self.legal_actions(seat)
        for offered in legal:
            if offered is action or offered == action:
                return
        if seat not in self.to_move():
            raise IllegalActionError(seat, action, "it is not this player's move (waiting for "
                                     f"{self.to_move() or 'nobody: the game is over'})")
        what = self.phase_name()
        card = getattr(action, "card", None)
        if self.phase is StructurePhase.TURN and not self.pending and isinstance(card, Card):
            assert self.structure is not None
            if self.structure.slot_of(card) is None:
                raise IllegalActionError(seat, action, f"{card.name} is not an accessible card "
                                         "of the structure")
            same = [a for a in legal if getattr(a, "card", None) is card
                    and type(a) is type(action)]
            if isinstance(action, BuildWonder) and action.wonder not in self.cities[seat].wonders:
                raise IllegalActionError(seat, action, f"{action.wonder.name} is not an unbuilt "
                                         "wonder of this city")
            if not same:
                raise IllegalActionError(seat, action, "it cannot be paid for with "
                                         f"{self.cities[seat].coins} coins and this production")
            raise IllegalActionError(seat, action, "not a valid way to do it; the options are: "
                                     + "; ".join(str(a) for a in same))
        raise IllegalActionError(seat, action, f"the player is {what}; the options are: "
                                 + "; ".join(str(a) for a in legal))

    def phase_name(self) -> str:
        phase = StructurePhase(self.pending[0].kind) if self.pending else self.phase
        return _WORDING[phase]

    # --- playing ---------------------------------------------------------------------

    def play(self, actions: Mapping[int, Action]) -> None:
        """Resolve one decision: the seat in ``to_move()`` gives exactly one action."""
        phase = self.phase
        if self.pending or phase is not StructurePhase.TURN:
            self._play_choice(actions)
            return
        seat = self.current
        action = self._checked(seat, actions)
        age, turn = self.age, self.turn
        self.last_actor = seat
        self._legal_seat = -1
        self.again = False
        self._resolve_turn(seat, action)
        first, second = self.cities
        # a flat tuple, which comes from a free list (docs/engine.md: a native record is
        # not always cheaper than a tuple)
        self.decisions.append((age, turn, _TURN, seat, action, first.coins, second.coins))
        self._legal_seat = -1
        if self.pending or self.phase is not StructurePhase.TURN:
            return
        structure = self.structure
        assert structure is not None
        if structure.left:  # the usual case, inline: the next turn
            self.turn += 1
            if not self.again:
                self.current = 1 - seat
            self.again = False
        else:
            self._end_turn(seat)

    def _checked(self, seat: int, actions: Mapping[int, Action]) -> Any:
        """The one action of ``seat``, checked (one of the offered objects passes at once).

        Typed Any, like the offers: compiled, an ``Action`` read from the mapping or
        returned is checked against each class of the union, and the identity test with
        the offered objects is the check that matters."""
        action: Any
        if isinstance(actions, dict):  # the usual case; compiled, a native lookup and size
            action = actions.get(seat)
            count = len(actions)
        else:
            action = actions.get(seat)
            count = len(actions)
        if action is None or count != 1:
            raise RuleError(f"expected one action from seat {seat}, got seats {sorted(actions)}")
        legal = self._legal if seat == self._legal_seat else self.legal_actions(seat)
        if not _offered(legal, action):
            self.check(seat, action)
        return action

    def _play_choice(self, actions: Mapping[int, Action]) -> None:
        """Every decision but a plain turn: draft picks, follow-up choices, who starts."""
        phase = self.phase
        if phase is StructurePhase.OVER:
            raise RuleError("the game is over")
        pending = self.pending
        seat = pending[0].seat if pending else self.current
        action = self._checked(seat, actions)
        age, turn = self.age, self.turn
        recorded = pending[0].kind if pending else _PHASE_NAMES[phase]
        self.last_actor = seat
        self._legal_seat = -1
        turn_over = True
        if pending:
            pending.pop(0)
            resolve(self, seat, action)
        elif isinstance(action, ChooseWonder):
            self._pick_wonder(seat, action.wonder)
            turn_over = False
        elif isinstance(action, ChooseStarter):
            self._first_turn(action.seat)  # the age's structure is already laid out
            turn_over = False
        first, second = self.cities
        self.decisions.append((age, turn, recorded, seat, action, first.coins, second.coins))
        self._legal_seat = -1
        if turn_over and not self.pending and self.phase is not StructurePhase.OVER:
            self._end_turn(self.current)

    def _pick_wonder(self, seat: int, wonder: Wonder) -> None:
        size = self.setup.draft.size
        pool = self.wonder_pools[self.picks // size]
        for index in range(len(pool)):  # by identity (``remove`` calls ``==`` on each)
            if pool[index] is wonder:
                pool.pop(index)
                break
        else:
            raise RuleError(f"{wonder.name} is not in the wonders to pick from")
        self.cities[seat].wonders.append(wonder)
        self.picks += 1
        order = self.setup.draft.order
        if self.picks < len(order):
            self.current = order[self.picks]
        else:
            self._start_age(1, starter=order[0])

    def _resolve_turn(self, seat: int, action: Any) -> None:
        """Take the card and build it, sell it or tuck it under a wonder.  ``action`` is one
        of the offered objects (typed Any: see :meth:`_checked`): its class is tested once,
        and each branch reads it as that class (compiled, a union is checked class by class
        at every read)."""
        structure = self.structure
        assert structure is not None
        city = self.cities[seat]
        kind = type(action)
        built: Build | None = None
        tucked: BuildWonder | None = None
        if kind is Sell:
            card = cast(Sell, action).card
        elif kind is Build:
            built = cast(Build, action)
            card = built.card
        elif kind is BuildWonder:
            tucked = cast(BuildWonder, action)
            card = tucked.card
        else:  # (play checked it is one of the offers, all of these three kinds)
            raise RuleError(f"{action} is not a turn's action")
        accessible = structure.accessible
        cards = structure.cards
        for index in range(len(accessible)):
            if cards[accessible[index]] is card:
                structure.take_at(index)  # (by place: take would look for the slot again)
                break
        else:
            raise RuleError(f"{card.name} is not an accessible card of the structure")
        if built is not None:
            chained = built.method == CHAIN  # (compared once: a string comparison)
            # a chain build pays nothing, so nothing of it is trade
            self._pay(seat, built.payment.total, 0 if chained else card.cost.coins)
            city.add_card(card)
            self._built(seat, card, card.effects, CARD_EVENT, card.colour)
            if chained and city.triggers:
                trigger(self, seat, CHAIN_EVENT, None, card)
            return
        if tucked is None:  # sold
            self.discard.append(card)
            sell = self.params.sell
            if sell is not None:
                act(self, seat, sell, True)
            return
        wonder = tucked.wonder
        self._pay(seat, tucked.payment.total, stage_cost(wonder).coins)
        self._built(seat, wonder, city.add_wonder(wonder, card), WONDER_EVENT, None)
        limit = self.setup.wonder_limit
        if limit and self.wonders_built() >= limit:
            for other in self.cities:
                other.wonders.clear()  # the rest leave the game

    def _pay(self, seat: int, total: int, fixed: int) -> None:
        """Pay ``total``; the part above the card's coin cost is trade, which a rival with
        the trade-income ability receives instead of the bank."""
        self.cities[seat].coins -= total
        if total <= fixed:  # no trade (or a chain build): all of it to the bank
            self.bank_paid += total
            return
        trade = total - fixed
        rival = self.cities[1 - seat]
        if trade and rival.has_ability(TRADE_INCOME_ABILITY):
            rival.coins += trade
            self.bank_paid += fixed
        else:
            self.bank_paid += total

    # --- the table the effect runtime plays on (wonders.engine.runtime) ----------------

    def gain(self, seat: int, coins: int) -> None:
        """The bank gives ``seat`` coins, at once (turns are sequential)."""
        self.cities[seat].coins += coins
        self.bank_gave += coins

    def _gain(self, seat: int, coins: int) -> None:
        self.gain(seat, coins)

    def lose(self, seat: int, coins: int) -> None:
        """``seat`` returns up to ``coins`` coins to the bank."""
        target = self.cities[seat]
        taken = min(coins, target.coins)
        target.coins -= taken
        self.bank_paid += taken

    def give(self, giver: int, taker: int, coins: int) -> None:
        """``giver`` gives ``taker`` up to ``coins`` of its coins, at once (what it has)."""
        source = self.cities[giver]
        given = min(coins, source.coins)
        source.coins -= given
        self.cities[taker].coins += given

    def shields(self, seat: int, count: int) -> None:
        """Shields move the conflict pawn towards the rival at once."""
        self._shields(seat, count)

    def science_arrived(self, seat: int, symbol: str) -> None:
        self._science(seat, symbol)

    def replay(self, seat: int) -> None:
        self.again = True

    def ask(self, kind: str, seat: int, effect: fx.Effect) -> None:
        """Queue a choice of ``seat`` before the turn ends (none when there is nothing to
        choose): its options are settled now, as the effect acts."""
        found = pending_options(self, kind, seat, effect)
        if found:
            self.pending.append(Pending(kind, seat, found, effect))

    def triggers(self, seat: int) -> list[tuple[object, fx.Clause]]:
        return self.cities[seat].triggers

    def city_list(self) -> list[DraftedCity]:
        return self.cities

    def _built(self, seat: int, source: object, effects: fx.Effects, event: str,
               colour: str | None) -> None:
        """Apply what a new card, wonder or token does as it arrives, then its triggers."""
        if act(self, seat, effects, True) and self.phase is StructurePhase.OVER:
            return
        if event != TOKEN and self.cities[seat].triggers:
            trigger(self, seat, event, colour, source)

    def _shields(self, seat: int, shields: int) -> None:
        track = self.setup.track
        before = self.position
        self.position = push(before, seat, shields, track)
        for index, side, zone in entered(before, self.position, track):
            if (index, side) in self.track_tokens:
                self.track_tokens.discard((index, side))
                loser = self.cities[side]
                taken = min(zone.lose, loser.coins)
                loser.coins -= taken
                self.bank_paid += taken
        if abs(self.position) >= track.supremacy:
            self._win(0 if self.position > 0 else 1, MILITARY)

    def _science(self, seat: int, symbol: str) -> None:
        symbols = self.cities[seat].symbols()
        supremacy = self.setup.science_supremacy
        if supremacy and len(symbols) >= supremacy:
            self._win(seat, SCIENCE)
            return
        if symbols[symbol] == 2 and self.setup.pair is not None:
            for clause in self.setup.pair.clauses:
                now(self, seat, clause.effect)

    def _win(self, seat: int, victory: str) -> None:
        self.victory = victory
        self.winner = seat
        self.pending = []
        self.phase = StructurePhase.OVER

    def _end_turn(self, seat: int) -> None:
        """After a turn and its follow-up choices: next turn, next age, or the end."""
        assert self.structure is not None
        if self.phase is StructurePhase.OVER:
            return
        if self.structure.empty:
            if self.age >= self.data.rules.ages:
                self.victory = CIVILIAN
                self.phase = StructurePhase.OVER
                return
            # the rulebook's order: lay out the next age's structure, then the weaker
            # military chooses who starts it, looking at those cards
            chooser = self._chooser(seat)
            self._deal_age(self.age + 1)
            self.phase = StructurePhase.STARTER
            self.current = chooser
            return
        self.phase = StructurePhase.TURN
        self.turn += 1
        self.current = seat if self.again else 1 - seat
        self.again = False

    def _chooser(self, last: int) -> int:
        """Who chooses the next age's first player (``turns.next_age``; the values are
        :data:`wonders.dsl.mechanisms.NEXT_AGE`): ``weaker_military``, the player the
        conflict pawn points at (its rival is ahead), else the last actor."""
        rule = self.setup.next_age
        if rule == WEAKER_MILITARY:
            if self.position > 0:
                return 1
            if self.position < 0:
                return 0
            return last
        raise RuleError(f"turns.next_age '{rule}' is not a way this loop knows to choose who "
                        "starts the next age")

    # --- results ---------------------------------------------------------------------

    def military_points(self) -> list[dict[str, int]]:
        points = self.setup.track.points(abs(self.position))
        lines: list[dict[str, int]] = [{"military": 0} for _ in range(self.players)]
        if self.position:
            lines[0 if self.position > 0 else 1]["military"] = points
        return lines

    def score_sheet(self) -> ScoreSheet:
        if self.over and self._score is not None:
            return self._score
        sheet = score(self.cities, self.params, self.science, self.military_points())
        if self.over:
            sheet.victory = self.victory or CIVILIAN
            if self.winner is not None and self.victory in (MILITARY, SCIENCE):
                sheet.decided = (self.winner,)
            self._score = sheet
        return sheet

    def determinize(self, seat: int, rng: random.Random) -> "StructureGame":
        """A clone in which the face-down cards and the cards removed unseen are resampled."""
        other = self.clone()
        if other.structure is not None:
            hidden = other.structure.hidden_slots()
            pool = [other.structure.cards[s] for s in hidden] + other.removed
            pool.sort(key=lambda card: (card.age, card.name))
            rng.shuffle(pool)
            for slot, card in zip(hidden, pool):
                other.structure.cards[slot] = card
            other.removed = pool[len(hidden):]
        other.set_generator(seeded(rng.getrandbits(64)))
        other.invalidate()
        return other

    def view(self, seat: Any) -> dict[str, Any]:
        """What the player at ``seat`` may see: the structure (face-down cards hidden) and more."""
        return self._view(check_seat(seat, self.players))

    def _view(self, seat: int) -> dict[str, Any]:
        return {
            "seat": seat,
            "age": self.age,
            "turn": self.turn,
            "phase": self.decision().kind,
            "to_move": list(self.to_move()),  # (a copy: the shared list stays unchanged)
            "structure": self.structure.to_json() if self.structure is not None else [],
            "conflict": self.position,
            "military_tokens": sorted(self.track_tokens),
            "tokens": {pool: [t.name for t in tokens] for pool, tokens in self.pools.items()
                       if pool not in hidden_pools(self.data)},
            "wonder_pool": ([w.name for w in self.wonder_pools[self.picks // self.setup.draft.size]]
                            if self.phase is StructurePhase.WONDERS else []),
            "discard_cards": [c.name for c in self.discard],
            "cities": [city.to_json() for city in self.cities],
            # what one unit of each resource costs the seat at the bank now (the rival's
            # production raises it): the same prices its payments are worked out with
            "trade": {"bank": {"prices": self.prices(seat)}},
        }

