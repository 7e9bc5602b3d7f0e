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
from typing import Any, Mapping, Sequence

from wonders.dsl import effects as fx
from wonders.dsl.loader import load_game
from wonders.dsl.model import Card, Game as GameData, Token, Wonder

from .actions import (CHAIN, Action, Build, BuildFromDiscard, BuildWonder, ChooseStarter,
                      ChooseWonder, DestroyCard, Sell, TakeToken, build, build_wonder, sell)
from .bank import cheapest_trade
from .city import TOKEN
from .drafted_city import DraftedCity, stage_cost, stage_effects
from .errors import IllegalActionError, RuleError
from .payment import FREE, intern, interned, shared_payment
from .production import Production
from .scoring import ScoreSheet, amount, score
from .structure import Structure
from .structure_rules import StructureRules, structure_rules
from .table import at
from .track import entered, push

DISCARD_BUILD_ABILITY = "build_from_discard"
TRADE_INCOME_ABILITY = "trade_income"
MILITARY, SCIENCE, CIVILIAN = "military", "science", "civilian"
CARD_EVENT, WONDER_EVENT, CHAIN_EVENT = "card", "wonder", "chain"
BANK_TERMS = "bank_terms"  # a city cache entry, dropped with its other power caches


_CANNOT = -1    # the card cannot be built now (already there, or too dear)
_CHAINED = -2   # free by chain
_CACHE_LIMIT = 200_000
_COSTS: dict[tuple[object, int, int, int], int] = {}
_OFFERS: dict[tuple[Card, int, int], tuple[Action, ...]] = {}


def _remember(cache: dict[Any, Any], key: object, value: object) -> None:
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = value


def _card_offers(card: Card, paid: int, wonders_key: int) -> tuple[Action, ...]:
    """The actions one accessible card offers (shared, immutable)."""
    offers: list[Action] = []
    if paid == _CHAINED:
        offers.append(build(card, FREE, CHAIN))
    elif paid >= 0:
        offers.append(build(card, shared_payment(0, 0, paid)))
    offers.append(sell(card))
    if wonders_key >= 0:
        affordable = interned(wonders_key)
        assert isinstance(affordable, tuple)
        offers.extend(build_wonder(card, wonder, cost) for wonder, cost in affordable)
    found = tuple(offers)
    _remember(_OFFERS, (card, paid, wonders_key), found)
    return found


class StructurePhase(str, Enum):
    WONDERS = "wonder_draft"
    TURN = "turn"
    TOKEN = "token"
    DESTROY = "destroy"
    DISCARD_BUILD = "discard_build"
    STARTER = "starter"
    OVER = "over"


class Pending:
    """A choice an effect asks for before the turn can end."""

    __slots__ = ("phase", "seat", "options")

    def __init__(self, phase: StructurePhase, seat: int, options: list[Action]) -> None:
        self.phase = phase
        self.seat = seat
        self.options = options


class StructureGame:
    """One game on a card-structure rule set, for two players."""

    def __init__(self, data: GameData, players: int = 2, seed: int = 0, *,
                 wonders: Sequence[Sequence[str]] | None = None,
                 sides: object = None) -> None:
        rules = data.rules
        if not rules.min_players <= players <= rules.max_players:
            raise RuleError(f"{rules.title} is for {rules.min_players}–{rules.max_players} "
                            f"players, not {players}")
        if players != 2:
            raise RuleError("the card-structure flow is for two players")
        self.data = data
        self.setup: StructureRules = structure_rules(data)
        self.params = self.setup.base
        self.players = players
        self.seed = seed
        self.rng = random.Random(seed)
        self.science = rules.vocabulary.science
        self.cities = [DraftedCity(s, self.params.start_coins) for s in range(players)]
        self.discard: list[Card] = []
        self.removed: list[Card] = []          # removed unseen from the current age
        self.structure: Structure | None = None
        self.age = 0
        self.turn = 0
        self.phase = StructurePhase.WONDERS
        self.current = 0                        # whose turn it is
        self.last_actor = 0
        self.position = 0                       # conflict pawn, + = towards seat 1
        self.track_tokens = {(i, side) for i, zone in enumerate(self.setup.track.zones)
                             if zone.lose for side in (0, 1)}
        self.pools: dict[str, list[Token]] = {}
        self.wonder_pools: list[list[Wonder]] = []
        self.picks = 0
        self.pending: list[Pending] = []
        self.replay = False
        self.victory: str | None = None
        self.winner: int | None = None
        self.decisions: list[tuple[int, int, str, dict[int, Action], tuple[int, ...]]] = []
        self.bank_paid = 0
        self.bank_gave = 0
        self.start_coins = sum(c.coins for c in self.cities)
        self._score: ScoreSheet | None = None
        self._legal: dict[int, list[Action]] = {}
        self._trade: dict[int, tuple[tuple[int, ...], Production, int, dict[str, int], int,
                                     dict[str, int], int]] = {}
        self._deal_tokens()
        self._deal_wonders(wonders)

    @classmethod
    def new(cls, game: str = "duel", players: int = 2, seed: int = 0,
            paths: Sequence[str] = (), **options: Any) -> "StructureGame":
        return cls(load_game(paths, game), players, seed, **options)

    # --- setup -----------------------------------------------------------------------

    def _deal_tokens(self) -> None:
        tokens = sorted(self.data.tokens, key=lambda t: (t.kind, t.name))
        board: list[Token] = []
        box: list[Token] = []
        for kind in sorted({t.kind for t in tokens}):
            of_kind = [t for t in tokens if t.kind == kind]
            self.rng.shuffle(of_kind)
            count = self.setup.token_board.get(kind, 0)
            board += of_kind[:count]
            box += of_kind[count:]
        self.pools = {"board": board, "box": box}

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
        boards = sorted(self.data.wonders, key=lambda w: w.name)
        wanted = draft.pools * draft.size
        if len(boards) < wanted:
            raise RuleError(f"{len(boards)} wonders for a draft of {wanted}")
        if not wanted:
            self._start_age(1, starter=0)
            return
        chosen = self.rng.sample(boards, wanted)
        self.wonder_pools = [chosen[i * draft.size:(i + 1) * draft.size]
                             for i in range(draft.pools)]
        self.phase = StructurePhase.WONDERS
        self.current = draft.order[0]

    def _deck(self, age: int) -> list[Card]:
        cards = self.setup.cards_by_age.get(age, ())
        deck = [c for c in cards if not c.drawn for _ in range(c.copies(self.players))]
        self.rng.shuffle(deck)
        self.removed = deck[:self.setup.remove]
        deck = deck[self.setup.remove:]
        for pool in self.data.rules.draws:
            if pool.age != age:
                continue
            candidates = [c for c in cards if c.drawn and c.colour == pool.colour]
            deck += self.rng.sample(candidates, pool.count.evaluate({"players": self.players}))
        self.rng.shuffle(deck)
        return deck

    def _start_age(self, age: int, starter: int) -> None:
        self.age = age
        self.turn = 1
        self.structure = Structure(self.setup.layouts[age], self._deck(age))
        self.current = starter
        self.phase = StructurePhase.TURN

    def clone(self) -> "StructureGame":
        """An independent copy of the game state (cards and data are shared, never copied)."""
        other = object.__new__(StructureGame)
        other.__dict__.update(self.__dict__)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.cities = [city.clone() for city in self.cities]
        other.discard = list(self.discard)
        other.removed = list(self.removed)
        other.structure = self.structure.clone() if self.structure is not None else None
        other.track_tokens = set(self.track_tokens)
        other.pools = {name: list(tokens) for name, tokens in self.pools.items()}
        other.wonder_pools = [list(pool) for pool in self.wonder_pools]
        other.pending = [Pending(p.phase, p.seat, list(p.options)) for p in self.pending]
        other.decisions = list(self.decisions)
        other._legal = {}
        other._trade = dict(self._trade)
        return other

    # --- questions -------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase is StructurePhase.OVER

    @property
    def history(self) -> list[dict[str, Any]]:
        return [{"age": age, "turn": turn, "phase": phase,
                 "actions": {str(s): a.to_json() for s, a in sorted(actions.items())},
                 "coins": list(coins)}
                for age, turn, phase, actions, coins in self.decisions]

    def to_move(self) -> list[int]:
        if self.over:
            return []
        if self.pending:
            return [self.pending[0].seat]
        return [self.current]

    def invalidate(self) -> None:
        """Drop cached answers; call after changing cities by hand (scenarios)."""
        self._trade = {}
        self._legal = {}
        for city in self.cities:
            city.changed()

    def chained(self, seat: int, card: Card) -> bool:
        city = self.cities[seat]
        return card.name in city.made_free or not city.names.isdisjoint(card.free_if_built)

    def prices(self, seat: int) -> dict[str, int]:
        """What one unit of each resource costs ``seat`` at the bank now."""
        return self._context(seat)[3]

    def _context(self, seat: int) -> tuple[tuple[int, ...], Production, int, dict[str, int], int,
                                          dict[str, int], int]:
        """(versions, own production, its id, prices, their id, discounts, wonder discount).

        Kept until either city's production or trading terms change.
        """
        city = self.cities[seat]
        rival = self.cities[1 - seat]
        versions = (city.version, rival.version, len(city.owned_tokens))
        cached = self._trade.get(seat)
        if cached is not None and cached[0] == versions:
            return cached
        params = self.params
        own = city.production(params)[0]
        fixed_prices, discounts, wonder_discount = self._terms(city)
        rival_units = rival.production(params)[1].units()
        base = self.setup.bank.price
        prices = {r: base + rival_units.get(r, 0) for r in params.resources}
        for resource, price in fixed_prices.items():
            if price < prices[resource]:
                prices[resource] = price
        found = (versions, own, intern(own), prices,
                 intern(tuple(prices[r] for r in params.resources)), discounts, wonder_discount)
        self._trade[seat] = found
        return found

    def _terms(self, city: DraftedCity) -> tuple[dict[str, int], dict[str, int], int]:
        """The city's own trading terms: fixed prices, discounts per colour, on wonders."""
        cached = city._cache.get(BANK_TERMS)
        if cached is not None:
            return cached  # type: ignore[return-value]
        fixed: dict[str, int] = {}
        discounts: dict[str, int] = {}
        wonder_discount = 0
        for _, _, effect in city.clauses(fx.Timing.ONGOING):
            if isinstance(effect, fx.TradePrice) and not effect.places:
                for resource in effect.resources:
                    fixed[resource] = min(fixed.get(resource, effect.price), effect.price)
            elif isinstance(effect, fx.Discount):
                if effect.target == WONDER_EVENT:
                    wonder_discount += effect.count
                else:
                    for colour in effect.colours or self.data.rules.vocabulary.colours:
                        discounts[colour] = discounts.get(colour, 0) + effect.count
        found = (fixed, discounts, wonder_discount)
        city._cache[BANK_TERMS] = found
        return found

    def cost_of(self, seat: int, cost: fx.Cost, discount: int) -> int:
        """Coins ``seat`` pays for ``cost`` now: its coins plus the cheapest trade."""
        if not cost.resources:
            return cost.coins
        _, own, own_id, prices, prices_id, _, _ = self._context(seat)
        return cost.coins + cheapest_trade(cost.resources, own, own_id, prices, prices_id,
                                           discount)

    def wonders_built(self) -> int:
        return sum(len(city.built_wonders) for city in self.cities)

    def legal_actions(self, seat: int) -> list[Action]:
        """Everything ``seat`` may do now (shared list: treat it as read-only)."""
        found = self._legal.get(seat)
        if found is not None:
            return found
        if self.over or seat not in self.to_move():
            return []
        if self.pending:
            actions = self.pending[0].options
        elif self.phase is StructurePhase.WONDERS:
            pool = self.wonder_pools[self.picks // self.setup.draft.size]
            actions = [ChooseWonder(w) for w in pool]
        elif self.phase is StructurePhase.STARTER:
            actions = [ChooseStarter(s) for s in range(self.players)]
        else:
            actions = self._turn_options(seat)
        self._legal[seat] = actions
        return actions

    def _turn_options(self, seat: int) -> list[Action]:
        """The hot path: build, sell or tuck under a wonder, for each accessible card.

        What a card offers depends only on the card, what building it costs (or that
        it is free by chain, or unaffordable) and which wonders are affordable at what
        price, so each card's actions are kept as one shared tuple under those keys.
        """
        assert self.structure is not None
        city = self.cities[seat]
        coins = city.coins
        names = city.names
        made_free = city.made_free
        _, own, own_id, prices, prices_id, discounts, wonder_discount = self._context(seat)
        simple = not own.choices
        fixed = dict(own.fixed) if simple else {}
        wonders_key = -1
        if city.wonders:
            limit = self.setup.wonder_limit
            if not limit or self.wonders_built() < limit:
                affordable = []
                for wonder in city.wonders:
                    paid = _COSTS.get((wonder, own_id, prices_id, wonder_discount))
                    if paid is None:
                        cost = stage_cost(wonder)
                        paid = cost.coins + (cheapest_trade(cost.resources, own, own_id, prices,
                                                            prices_id, wonder_discount)
                                             if cost.resources else 0)
                        _remember(_COSTS, (wonder, own_id, prices_id, wonder_discount), paid)
                    if paid <= coins:
                        affordable.append((wonder, paid))
                if affordable:
                    wonders_key = intern(tuple(affordable))
        actions: list[Action] = []
        extend = actions.extend
        structure = self.structure
        cards = structure.cards
        for slot in structure.accessible:
            card = cards[slot]
            if card.name in names:
                paid = _CANNOT
            elif card.name in made_free or not names.isdisjoint(card.free_if_built):
                paid = _CHAINED
            else:
                cost = card.cost
                paid = cost.coins
                if cost.resources:
                    discount = discounts.get(card.colour, 0) if discounts else 0
                    if simple and not discount:  # no choice production: count what is short
                        for resource, units in cost.resources:
                            short = units - fixed.get(resource, 0)
                            if short > 0:
                                paid += short * prices[resource]
                    else:
                        paid += cheapest_trade(cost.resources, own, own_id, prices, prices_id,
                                               discount)
                if paid > coins:
                    paid = _CANNOT
            found = _OFFERS.get((card, paid, wonders_key))
            if found is None:
                found = _card_offers(card, paid, wonders_key)
            extend(found)
        return actions

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
        phase = self.pending[0].phase if self.pending else self.phase
        return {StructurePhase.WONDERS: "choosing a wonder",
                StructurePhase.TURN: "taking a card from the structure",
                StructurePhase.TOKEN: "choosing a token",
                StructurePhase.DESTROY: "choosing a card of the opponent to destroy",
                StructurePhase.DISCARD_BUILD: "building a card from the discard pile",
                StructurePhase.STARTER: "choosing who starts the next age",
                StructurePhase.OVER: "done: the game is over"}[phase]

    # --- playing ---------------------------------------------------------------------

    def play(self, actions: Mapping[int, Action]) -> None:
        """Resolve one decision: the seat in ``to_move()`` gives exactly one action."""
        if self.over:
            raise RuleError("the game is over")
        expected = self.to_move()
        if list(actions) != expected:
            raise RuleError(f"expected one action from seat {expected[0]}, got seats "
                            f"{sorted(actions)}")
        (seat, action), = actions.items()
        self.check(seat, action)
        age, turn = self.age, self.turn
        phase = (self.pending[0].phase if self.pending else self.phase).value
        self.last_actor = seat
        self._legal = {}
        if self.pending:
            self.pending.pop(0)
            self._resolve_choice(seat, action)
            turn_over = True
        elif isinstance(action, ChooseWonder):
            self._pick_wonder(seat, action.wonder)
            turn_over = False
        elif isinstance(action, ChooseStarter):
            self._start_age(self.age + 1, action.seat)
            turn_over = False
        else:
            self.replay = False
            self._resolve_turn(seat, action)
            turn_over = True
        self.decisions.append((age, turn, phase, {seat: action},
                               tuple(city.coins for city in self.cities)))
        self._legal = {}
        if turn_over and not self.pending and not self.over:
            self._end_turn(self.current)

    def _pick_wonder(self, seat: int, wonder: Wonder) -> None:
        size = self.setup.draft.size
        self.wonder_pools[self.picks // size].remove(wonder)
        self.cities[seat].wonders.append(wonder)
        self.picks += 1
        order = self.setup.draft.order
        if self.picks < len(order):
            self.current = order[self.picks]
        else:
            self._start_age(1, starter=order[0])

    def _resolve_turn(self, seat: int, action: Action) -> None:
        assert self.structure is not None
        city = self.cities[seat]
        assert isinstance(action, (Build, Sell, BuildWonder))
        slot = self.structure.slot_of(action.card)
        assert slot is not None
        self.structure.take(slot)
        if isinstance(action, Sell):
            self.discard.append(action.card)
            sell_effects = self.data.rules.sell
            if sell_effects is not None:
                self._gain(seat, sum(amount(c.effect.amount, seat, self.cities)
                                     for c in sell_effects.clauses
                                     if isinstance(c.effect, fx.Coins)))
            return
        self._pay(seat, action.payment.total, action.card.cost.coins
                  if isinstance(action, Build) else stage_cost(action.wonder).coins)
        if isinstance(action, Build):
            city.add_card(action.card)
            self._built(seat, action.card, action.card.effects, CARD_EVENT, action.card.colour)
            if action.method == CHAIN:
                self._trigger(seat, CHAIN_EVENT, None, action.card)
        else:
            city.add_wonder(action.wonder, action.card)
            self._built(seat, action.wonder, stage_effects(action.wonder), WONDER_EVENT, None)
            limit = self.setup.wonder_limit
            if limit and self.wonders_built() >= limit:
                for other in self.cities:
                    other.wonders.clear()  # the rest leave the game

    def _pay(self, seat: int, total: int, fixed: int) -> None:
        """Pay ``total``; the part above the card's coin cost is trade, which a rival with
        the trade-income ability receives instead of the bank."""
        self.cities[seat].coins -= total
        trade = total - fixed
        rival = self.cities[1 - seat]
        if trade and rival.has_ability(TRADE_INCOME_ABILITY):
            rival.coins += trade
            self.bank_paid += fixed
        else:
            self.bank_paid += total

    def _gain(self, seat: int, coins: int) -> None:
        self.cities[seat].coins += coins
        self.bank_gave += coins

    def _built(self, seat: int, source: object, effects: fx.Effects, event: str,
               colour: str | None) -> None:
        """Apply what a new card, wonder or token does as it arrives, then its triggers."""
        for clause in effects.clauses:
            effect = clause.effect
            if clause.timing is fx.Timing.ONGOING:
                if isinstance(effect, fx.Shields):
                    self._shields(seat, effect.count)
                elif isinstance(effect, fx.Ability) and effect.name == DISCARD_BUILD_ABILITY:
                    self._ask_discard_build(seat)
                elif isinstance(effect, fx.Science):
                    self._science(seat, effect.symbols[0])
            elif clause.timing is fx.Timing.NOW:
                self._now(seat, effect)
            if self.over:
                return
        if event != TOKEN:
            self._trigger(seat, event, colour, source)

    def _trigger(self, seat: int, event: str, colour: str | None, source: object) -> None:
        """Run the owner's ``on …:`` clauses that ``event`` sets off (never the source's own)."""
        for what, clause in self.cities[seat].triggers:
            if what is source:
                continue
            trigger = clause.trigger
            if trigger is not None:
                if trigger.event != event:
                    continue
                if trigger.colours is not None and colour not in trigger.colours:
                    continue
                self._now(seat, clause.effect)
                if self.over:
                    return

    def _now(self, seat: int, effect: fx.Effect) -> None:
        if isinstance(effect, fx.Coins):
            self._gain(seat, amount(effect.amount, seat, self.cities))
        elif isinstance(effect, fx.Shields):
            self._shields(seat, effect.count)
        elif isinstance(effect, fx.Replay):
            self.replay = True
        elif isinstance(effect, fx.LoseCoins):
            lost = amount(effect.amount, seat, self.cities)
            for target in at(self.cities, seat, effect.places):
                taken = min(lost, target.coins)
                target.coins -= taken
                self.bank_paid += taken
        elif isinstance(effect, fx.Destroy):
            targets = at(self.cities, seat, effect.places)
            options: list[Action] = [DestroyCard(c) for target in targets for c in target.built
                                     if c.colour in effect.colours]
            if options:
                self.pending.append(Pending(StructurePhase.DESTROY, seat, options))
        elif isinstance(effect, fx.TakeToken):
            pool = self.pools.get(effect.pool, [])
            candidates = [t for t in pool if t.kind == effect.kind]
            if effect.draw is not None:
                candidates = self.rng.sample(candidates, min(effect.draw, len(candidates)))
            if candidates:
                self.pending.append(Pending(StructurePhase.TOKEN, seat,
                                            [TakeToken(t) for t in candidates]))
        elif isinstance(effect, fx.Ability) and effect.name == DISCARD_BUILD_ABILITY:
            self._ask_discard_build(seat)

    def _ask_discard_build(self, seat: int) -> None:
        names = self.cities[seat].names
        seen: set[int] = set()
        options: list[Action] = []
        for card in self.discard:
            if id(card) not in seen and card.name not in names:
                seen.add(id(card))
                options.append(BuildFromDiscard(card))
        if options:
            self.pending.append(Pending(StructurePhase.DISCARD_BUILD, seat, options))

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
                self._now(seat, clause.effect)

    def _win(self, seat: int, victory: str) -> None:
        self.victory = victory
        self.winner = seat
        self.pending = []
        self.phase = StructurePhase.OVER

    def _resolve_choice(self, seat: int, action: Action) -> None:
        if isinstance(action, TakeToken):
            for pool in self.pools.values():
                if action.token in pool:
                    pool.remove(action.token)
                    break
            self.cities[seat].add_token(action.token)
            self._built(seat, action.token, action.token.effects, TOKEN, None)
        elif isinstance(action, DestroyCard):
            for city in self.cities:
                if any(c is action.card for c in city.built):
                    city.remove_card(action.card)
                    break
            self.discard.append(action.card)
        elif isinstance(action, BuildFromDiscard):
            self.discard.remove(action.card)
            self.cities[seat].add_card(action.card)
            self._built(seat, action.card, action.card.effects, CARD_EVENT, action.card.colour)

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
            self.phase = StructurePhase.STARTER
            self.current = self._chooser(seat)
            return
        self.phase = StructurePhase.TURN
        self.turn += 1
        self.current = seat if self.replay else 1 - seat
        self.replay = False

    def _chooser(self, last: int) -> int:
        """Who chooses the next age's first player: the weaker military, else the last actor."""
        if self.position > 0:
            return 1
        if self.position < 0:
            return 0
        return last

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
        other.rng = random.Random(rng.getrandbits(64))
        other.invalidate()
        return other

    def view(self, seat: int) -> dict[str, Any]:
        """What the player at ``seat`` may see: the structure (face-down cards hidden) and more."""
        return {
            "seat": seat,
            "age": self.age,
            "turn": self.turn,
            "phase": (self.pending[0].phase if self.pending else self.phase).value,
            "to_move": self.to_move(),
            "structure": self.structure.to_json() if self.structure is not None else [],
            "conflict": self.position,
            "military_tokens": sorted(self.track_tokens),
            "tokens": {pool: [t.name for t in tokens] for pool, tokens in self.pools.items()
                       if pool != "box"},
            "wonder_pool": ([w.name for w in self.wonder_pools[self.picks // self.setup.draft.size]]
                            if self.phase is StructurePhase.WONDERS else []),
            "discard_cards": [c.name for c in self.discard],
            "cities": [city.to_json() for city in self.cities],
        }

