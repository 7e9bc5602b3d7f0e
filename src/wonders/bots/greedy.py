"""The greedy bot, and the draft loop's greedy policy it plays in 7 Wonders.

:class:`GreedyBot` plays, in any game, the greedy policy the game's loop
registers (:mod:`wonders.engine.registry`).  :class:`DraftGreedy`, the draft
loop's, looks one ply ahead on an estimate of its own final score.

Each candidate action is valued by what it does, as the game would do it:

* the card or stage **arrives** in a copy of the bot's city through the effect
  runtime (:mod:`wonders.engine.runtime`), against a valuation table
  (:class:`Trial`) that records instead of paying: coins each seat gains or
  loses, shields gained once, the choices asked (a discard build, a ``destroy``,
  a ``take … token``).  So ``now:`` effects, the owner's ``on …:`` triggers
  (``on red card: coins 5`` built earlier pays when a red card arrives),
  ``PLACES loses N coins`` and ``now: shields N`` are valued exactly as the
  runtime plays them; a sale runs the rule set's sale the same way;
* the differences are valued: coins by the age's coin value, coins opponents
  lose as a gain shared over the opponents, shields (lasting or once gained:
  what the city then shows in battles) by the expected change of military
  tokens against both neighbours this age and (discounted) the ages to come, a
  choice asked by a modest bonus;
* the **score sheet** (``score_city``, the runtime of ``end:`` effects) gives
  the change of points; the fast estimate for search playouts reads the ``end:``
  points and the science sets of the source alone, on the same copy of the city;
* what neither sees yet, by effect type: production the city lacks (and its
  remaining wonder stages need) is worth more, early ages more than late; a
  bonus for future science sets in the early ages; trading discounts, chains to
  later cards, wonder powers;
* the payment: coins spent are coins not scored, coins given to neighbours
  help opponents.

Nothing here names a card or a wonder: the heuristics read effects, colours
and costs only, so custom card sets are played sensibly too.  The bot looks
only at its own hand, the cities (public) and the discard pile size.  Ties are
broken by the bot's own seeded generator, so a bot is deterministic given its
seed.
"""

from __future__ import annotations

import math
import random
from typing import Any, Final, Sequence

from wonders.bots.policy import Policy, best_of, greedy_policy
from wonders.dsl import effects as fx
from wonders.dsl.model import Card, Token
from wonders.dsl.model import Game as GameData
from wonders.engine import memo
from wonders.engine.actions import (
    CHAIN,
    FREE_BUILD,
    Action,
    Build,
    BuildFromDiscard,
    BuildStage,
    ChooseSide,
    CopyCard,
    DestroyCard,
    Keep,
    PayOrTake,
    Sell,
    Skip,
    TakeToken,
)
from wonders.engine.city import City
from wonders.engine.contract import GameState
from wonders.engine.game import Game
from wonders.engine.runtime import (
    CARD_EVENT,
    CHAIN_EVENT,
    COPY,
    DEBT,
    DESTROY,
    DISCARD_BUILD,
    DISCARD_BUILD_ABILITY,
    RESERVE_BUILD,
    WONDER_EVENT,
    Plan,
    Table,
    has_triggers,
    mypyc_attr,
    options,
    plan,
    run,
    trigger,
    triggers_of,
)
from wonders.engine.scoring import amount, science_points, score_city
from wonders.engine.table import left_of, right_of

# weights by age (index 0 = age 1); ages beyond the table use the last entry
COIN_VALUE = (0.55, 0.45, 0.34)       # points per coin held
RESOURCE_VALUE = (2.0, 1.3, 0.35)     # points per missing resource unit produced
SCIENCE_BONUS = (1.6, 1.0, 0.0)       # potential of a science symbol beyond its points now
CHAIN_VALUE = (1.0, 0.8, 0.0)         # per later card made free by a chain
TRADE_VALUE = (0.3, 0.2, 0.05)        # per resource and neighbour whose price drops
STAGE_BONUS = 0.5                     # stages are also unblocked for later ones
NEIGHBOUR_GIFT = 0.08                 # extra cost per coin paid to a neighbour (an opponent)
DESTROY_VALUE = 1.5                   # a card of another city to destroy (if there is one)
TOKEN_VALUE = 2.0                     # a token to take (if the pool holds one of its kind)
DISCARD_BUILD_MAX = 4.0               # a card from the discard pile, at most (by its size)
DESTROYED_CARD = 1.0                  # what any card destroyed costs its owner, beyond its points
RESERVE_CARD = 1.0                    # a reserve card drawn (a later choice more)
RESERVE_BUILD_VALUE = 2.5             # one more reserve card built at once (if one can be paid)
COPY_VALUE = 3.0                      # another city's card copied whole (if there is one)

_NO_DRAW: Final = random.Random(0)  # a trial never draws tokens: it only counts the options


def _by_age(table: Sequence[float], age: int) -> float:
    return table[min(max(age, 1), len(table)) - 1]


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


_READS_CITY: Final[dict[int, tuple[fx.Effects, bool]]] = memo.table("greedy.reads_city",
                                                                    5_000)


def _reads_city(effects: fx.Effects) -> bool:
    """Whether valuing a source's arrival can read the city it arrives in: the runtime
    runs something (a plan), the city's shields change (what battles read), or a point
    amount counts something.  Without, the fast estimate needs no copy of the city with
    the source in it (most sources: resources, science, fixed points).  Cached per
    effects object, kept with it."""
    found = _READS_CITY.get(id(effects))
    if found is not None and found[0] is effects:
        return found[1]
    reads = bool(plan(effects, False)) or any(
        (clause.timing is fx.Timing.ONGOING and isinstance(clause.effect, fx.Shields))
        or (isinstance(clause.effect, fx.Points) and bool(clause.effect.amount.terms))
        for clause in effects.clauses)
    memo.remember(_READS_CITY, id(effects), (effects, reads))
    return reads


class Trial(Table):
    """The effect runtime's table (:class:`wonders.engine.runtime.Table`) for valuing one
    arrival in ``seat``'s city: it records what the runtime asks of it instead of doing
    it — the coins the seat gains, the coins each seat loses, the shields the seat gains
    once, the choices asked — and never changes a city (the arriving source is in a copy
    the evaluator made).

    As at the draft table, ongoing effects do not act on arrival (battles read the
    city's shields, the final scoring its science)."""

    __slots__ = ("cities", "seat", "gained", "lost", "shields_gained", "replays", "asked",
                 "drawn", "given")

    def __init__(self, cities: Sequence[City], seat: int, pools: dict[str, list[Token]],
                 discard: list[Card]) -> None:
        self.arrival_ongoing = False
        self.cities = cities
        self.seat = seat
        self.pools = pools
        self.discard = discard
        self.set_generator(_NO_DRAW)
        self.gained = 0
        self.lost: dict[int, int] = {}
        self.shields_gained = 0
        self.replays = 0
        self.asked: list[tuple[str, int, fx.Effect]] = []
        self.drawn = 0  # reserve cards drawn (``draw N reserve cards``)
        self.given: dict[int, int] = {}  # coins each seat is to give the owner (``gives``)

    def gain(self, seat: int, coins: int) -> None:
        if seat == self.seat:  # the runtime pays the owner only
            self.gained += coins

    def lose(self, seat: int, coins: int) -> None:
        self.lost[seat] = self.lost.get(seat, 0) + coins

    def give(self, giver: int, taker: int, coins: int) -> None:
        if taker == self.seat:  # the runtime gives to the owner only
            self.given[giver] = self.given.get(giver, 0) + coins

    def shields(self, seat: int, count: int) -> None:
        if seat == self.seat:
            self.shields_gained += count

    def science_arrived(self, seat: int, symbol: str) -> None:
        """Never called (``arrival_ongoing`` is false)."""

    def replay(self, seat: int) -> None:
        self.replays += 1  # validate refuses replay where turns are simultaneous

    def ask(self, kind: str, seat: int, effect: fx.Effect) -> None:
        self.asked.append((kind, seat, effect))

    def take_tokens(self, seat: int, kind: str, count: int) -> None:
        """Counter tokens (a diplomacy token): valued by the evaluator, not recorded."""

    def draw_reserve(self, seat: int, count: int) -> None:
        if seat == self.seat:
            self.drawn += count

    def reserve_builds(self, seat: int) -> list[Action]:
        """Never asked: the evaluator values a reserve build without its options."""
        return []

    def kept(self, seat: int, name: str) -> int:
        """A count the game keeps (``per age``): not known to a trial; valued as none."""
        return 0

    def triggers(self, seat: int) -> list[tuple[object, fx.Clause]]:
        return triggers_of(self.cities[seat])

    def city_list(self) -> Sequence[City]:
        return self.cities

    @property
    def over(self) -> bool:
        return False


class Evaluator:
    """Values of every action of one seat at one decision point (cheap to build)."""

    def __init__(self, game: Game, seat: int, fast: bool = False) -> None:
        self.game = game
        self.fast = fast
        self.seat = seat
        self.params = game.params
        self.science = game.science
        self.cities = game.cities
        self.city = game.cities[seat]
        self.age = game.age
        self.ages = len(self.params.victory)
        self.players = len(self.cities)
        self.hand_size = len(game.hands[seat])  # the bot's own hand: it sees it
        self.coin_value = _by_age(COIN_VALUE, self.age)
        self.base = 0
        if not fast:
            base_lines, _ = score_city(self.city, self.cities, self.params, self.science)
            self.base = sum(base_lines.values()) - base_lines.get("treasury", 0)
        # whether an arrival can set off one of the city's own ``on …:`` clauses
        self._triggers = has_triggers(game.data) and bool(triggers_of(self.city))
        self._symbols: tuple[dict[str, int], list[tuple[str, ...]], int] | None = None
        self._units: dict[str, float] | None = None
        self._stage_need: dict[str, int] | None = None
        self._card_values: dict[int, float] = {}  # by id(card), negated for a chain
        self._stage_value: float | None = None
        self._sell_value: float | None = None

    # --- whole actions -----------------------------------------------------------

    def value(self, action: Action) -> float:
        if isinstance(action, Build):
            value = self.card_value(action.card, action.method == CHAIN)
            if action.method == FREE_BUILD:
                # the power is once per age: spend it on something worth its cost
                spared = action.card.cost.resource_count() * 1.0 + action.card.cost.coins
                value -= max(0.0, 2.5 - 0.5 * spared) if self.hand_size > 2 else 0.0
            return value - self.payment_cost(action)
        if isinstance(action, BuildStage):
            return self.stage_value(action.card) - self.payment_cost(action)
        if isinstance(action, Sell):
            return self.sell_value()
        if isinstance(action, BuildFromDiscard):
            return self.card_value(action.card)
        if isinstance(action, ChooseSide):
            return self.side_value(action.side)
        if isinstance(action, Keep):  # the reserve draft: what the card is worth built
            return self.card_value(action.card)
        if isinstance(action, TakeToken):
            return self.token_value(action.token)
        if isinstance(action, DestroyCard):
            return self.destroy_value(action)
        if isinstance(action, CopyCard):
            return self.copy_value(action.card)
        if isinstance(action, PayOrTake):  # a coin kept against a token's points
            return (action.coins * -self.coin_value
                    + action.tokens * self.game.params.token_worth.get(action.kind, 0))
        assert isinstance(action, Skip)
        return 0.0

    def payment_cost(self, action: Build | BuildStage) -> float:
        p = action.payment
        return p.total * self.coin_value + (p.left + p.right) * NEIGHBOUR_GIFT

    def sell_value(self) -> float:
        """The rule set's sale, run by the runtime on the city as it is."""
        if self._sell_value is None:
            sell = self.params.sell
            value = 0.0
            if sell is not None:
                steps = plan(sell, False)
                if steps:
                    trial = Trial(self.cities, self.seat, self.game.pools, self.game.discard)
                    run(trial, self.seat, steps)
                    value = self._trial_value(trial)
                    if trial.shields_gained:
                        value += self._military_value(trial.shields_gained)
            self._sell_value = value
        return self._sell_value

    def card_value(self, card: Card, chain: bool = False) -> float:
        """``card`` built (by chain: ``on chain:`` triggers too), less nothing paid."""
        key = -id(card) if chain else id(card)
        found = self._card_values.get(key)
        if found is None:
            city = self.city
            if not self.fast or self._triggers or _reads_city(card.effects):
                city = city.clone()
                city.add_card(card)
            found = self._arrival_value(self.city, city, card, card.effects,
                                        CHAIN_EVENT if chain else CARD_EVENT, card.colour,
                                        self.fast)
            found += self._chain_value(card)
            self._card_values[key] = found
        return found

    def stage_value(self, card: Card) -> float:
        if self._stage_value is None:
            stage = self.city.side.stages[self.city.stages]
            city = self.city
            if not self.fast or self._triggers or _reads_city(stage.effects):
                city = city.clone()
                city.add_stage(card)  # the card tucked under the board does not matter
            value = self._arrival_value(self.city, city, stage, stage.effects, WONDER_EVENT,
                                        None, self.fast)
            self._stage_value = value + STAGE_BONUS
        return self._stage_value

    def token_value(self, token: Token) -> float:
        """A token taken: it arrives in the city (its ``now:`` effects run, no trigger)."""
        city = self.city.clone()
        city.add_token(token)
        return self._arrival_value(self.city, city, token, token.effects, None, None, self.fast)

    def copy_value(self, card: Card) -> float:
        """A card of another city copied whole: it arrives in the city as a source of its
        own (its ``now:`` effects act, no trigger)."""
        city = self.city.clone()
        city.add_copy(card)
        return self._arrival_value(self.city, city, card, card.effects, None, None, self.fast)

    def destroy_value(self, action: DestroyCard) -> float:
        """A card of another city destroyed: what its owner loses (the points its score
        sheet loses, and the card's worth by its cost), as a gain shared over the
        opponents; a loss if the city is the bot's own."""
        owner = action.seat if action.seat >= 0 else next(
            s for s, c in enumerate(self.cities) if any(b is action.card for b in c.built))
        city = self.cities[owner]
        after = city.clone()
        after.remove_card(action.card)
        cities = list(self.cities)
        cities[owner] = after
        before_lines, _ = score_city(city, self.cities, self.params, self.science)
        after_lines, _ = score_city(after, cities, self.params, self.science)
        cost = action.card.cost
        lost = (sum(before_lines.values()) - sum(after_lines.values())
                + DESTROYED_CARD + 0.5 * (cost.resource_count() + cost.coins))
        return -lost if owner == self.seat else lost / max(self.players - 1, 1)

    def side_value(self, side: str) -> float:
        """A board side read off its effects: what its start gives and what each stage's
        arrival on a city of that side gives, less what the stages cost (a unit of
        resource about half a point, as trading goes)."""
        wonder = self.city.wonder
        board = wonder.sides[side]
        before = City(self.seat, wonder, board, self.city.coins)
        value = self._points_estimate(board.start, before) + self._lasting_value(board.start, True)
        for index, stage in enumerate(board.stages):
            after = City(self.seat, wonder, board, self.city.coins, stages=index + 1)
            value += self._arrival_value(before, after, stage, stage.effects, WONDER_EVENT,
                                         None, True) + STAGE_BONUS
            value -= 0.5 * stage.cost.resource_count() + self.coin_value * stage.cost.coins
            before = after
        return value

    # --- parts -------------------------------------------------------------------------

    def _arrival_value(self, before: City, after: City, source: object, effects: fx.Effects,
                       event: str | None, colour: str | None, fast: bool) -> float:
        """What a source arriving turns ``before`` into ``after`` (a copy holding the
        source; ``before`` itself where nothing could read the copy: see
        :func:`_reads_city`) is worth: its now-effects and the owner's triggers as the
        runtime runs them (the draft loop's order: a chain build is a card built, then a
        chain; a token sets off none: ``event`` None), the shields the city then shows,
        the points, and what those do not show yet."""
        value = 0.0
        cities: list[City] | None = None
        if after is before:  # nothing to run, no shields: see _reads_city
            shields = 0
            steps: Plan = ()
        else:
            shields = after.shields() - before.shields()
            steps = plan(effects, False)
        if steps or (self._triggers and event is not None):
            cities = self._with(after)
            trial = Trial(cities, self.seat, self.game.pools, self.game.discard)
            if steps:
                run(trial, self.seat, steps)
            if self._triggers and event is not None:
                if event == CHAIN_EVENT:
                    trigger(trial, self.seat, CARD_EVENT, colour, source)
                trigger(trial, self.seat, event, colour, source)
            value += self._trial_value(trial)
            shields += trial.shields_gained
        if shields:
            value += self._military_value(shields)
        if fast:
            value += self._points_estimate(effects, after, cities)
        else:
            value += self._score_delta(after, cities or self._with(after))
        return value + self._lasting_value(effects, fast)

    def _with(self, city: City) -> list[City]:
        """The cities with ``city`` in the bot's seat."""
        cities = list(self.cities)
        cities[self.seat] = city
        return cities

    def _trial_value(self, trial: Trial) -> float:
        """Coins gained and lost, and the choices asked, by an arrival (or a sale)."""
        seat = self.seat
        value = trial.gained * self.coin_value
        for target, lost in trial.lost.items():
            taken = min(lost, self.cities[target].coins)  # never below 0
            if target == seat:
                value -= taken * self.coin_value
            else:  # an opponent's loss helps against each opponent in turn
                value += taken * self.coin_value / max(self.players - 1, 1)
        for giver, owed in trial.given.items():  # the owner's gain is the giver's loss
            taken = min(owed, self.cities[giver].coins)
            value += taken * self.coin_value * (1 + 1 / max(self.players - 1, 1))
        for kind, asked, effect in trial.asked:
            value += self._choice_value(trial, kind, asked, effect)
        return value + trial.drawn * RESERVE_CARD

    def _choice_value(self, trial: Trial, kind: str, seat: int, effect: fx.Effect) -> float:
        """A choice an arrival asks for: a modest bonus if it will have options (the
        discard pile by its public size: its cards are seen only when choosing)."""
        if kind == DISCARD_BUILD:
            return min(DISCARD_BUILD_MAX, 0.5 * len(self.game.discard))
        if kind == DEBT:  # another city loses coins (or takes tokens): a small gain
            return 0.1 * (effect.amount.fixed if isinstance(effect, fx.LoseCoins) else 0)
        if kind == RESERVE_BUILD:  # the reserve hand is the player's own: a modest bonus
            return RESERVE_BUILD_VALUE
        if kind == COPY:
            return COPY_VALUE if options(trial, kind, seat, effect) else 0.0
        if not options(trial, kind, seat, effect):
            return 0.0
        return DESTROY_VALUE if kind == DESTROY else TOKEN_VALUE

    def _score_delta(self, city: City, cities: Sequence[City]) -> float:
        lines, _ = score_city(city, cities, self.params, self.science)
        return sum(lines.values()) - lines.get("treasury", 0) - self.base

    def _points_estimate(self, effects: fx.Effects, city: City,
                         cities: list[City] | None = None) -> float:
        """The score sheet's change read off the source alone: its ``end: points`` counted
        with ``city`` (holding the source) in the bot's seat, and the science sets its
        symbols make."""
        value = 0.0
        symbols: list[tuple[str, ...]] = []
        for clause in effects.clauses:
            effect = clause.effect
            if isinstance(effect, fx.Points):
                if clause.timing is fx.Timing.END:
                    if cities is None:
                        cities = self._with(city)
                    value += amount(effect.amount, self.seat, cities)
            elif isinstance(effect, fx.Science):
                symbols.append(effect.symbols)
        if symbols:
            fixed, choices, now = self._science()
            fixed = dict(fixed)
            more = list(choices)
            for symbol in symbols:
                if len(symbol) == 1:
                    fixed[symbol[0]] = fixed.get(symbol[0], 0) + 1
                else:
                    more.append(symbol)
            value += science_points(fixed, more, self.science, self.params.science_set) - now
        return value

    def _science(self) -> tuple[dict[str, int], list[tuple[str, ...]], int]:
        if self._symbols is None:
            fixed, choices = self.city.science_symbols()
            now = science_points(fixed, choices, self.science, self.params.science_set)
            self._symbols = (fixed, choices, now)
        return self._symbols

    def _lasting_value(self, effects: fx.Effects, fast: bool) -> float:
        """What neither the runtime nor the score sheet shows yet: production, science to
        come, trading prices, powers (the discard build is a choice the runtime asks)."""
        value = 0.0
        for clause in effects.clauses:
            effect = clause.effect
            if isinstance(effect, fx.Produce):
                value += self._produce_value(effect)
            elif isinstance(effect, fx.Science):
                value += _by_age(SCIENCE_BONUS, self.age) if self.age < self.ages else 0.0
            elif isinstance(effect, fx.TradePrice):
                sides = sum(2 if p == "neighbours" else 1 for p in effect.places
                            if p in ("left", "right", "neighbours"))
                value += len(effect.resources) * sides * self._late(TRADE_VALUE)
            elif isinstance(effect, fx.Ability):
                value += self._ability_value(effect)
            elif isinstance(effect, fx.CopyCard) and (self.age < self.ages or fast):
                value += 3.0
        return value

    def _late(self, table: Sequence[float]) -> float:
        """A weight by age, fading over the last age as turns run out."""
        weight = _by_age(table, self.age)
        if self.age >= self.ages:
            weight *= max(self.hand_size - 2, 0) / max(self.params.hand - 2, 1)
        return weight

    def _units_held(self) -> dict[str, float]:
        if self._units is None:
            own = self.city.production(self.params)[0]
            units: dict[str, float] = {r: float(n) for r, n in own.fixed}
            for choice in own.choices:
                for r in choice:
                    units[r] = units.get(r, 0.0) + 1.0 / len(choice)
            self._units = units
        return self._units

    def _stage_needs(self) -> dict[str, int]:
        if self._stage_need is None:
            need: dict[str, int] = {}
            for stage in self.city.side.stages[self.city.stages:]:
                for r, n in stage.cost.resources:
                    need[r] = max(need.get(r, 0), n)
            self._stage_need = need
        return self._stage_need

    def _unit_value(self, resource: str, extra: float) -> float:
        have = self._units_held().get(resource, 0.0) + extra
        base = self._late(RESOURCE_VALUE)
        value = base / (1.0 + 1.5 * have)
        if self._stage_needs().get(resource, 0) > have:
            value += 0.4 * base
        return value

    def _produce_value(self, effect: fx.Produce) -> float:
        if effect.relative:  # "any produced"/"any unproduced": one of the city's types
            held = self._units_held()
            made = [r for r in self.game.params.resources
                    if (held.get(r, 0.0) > 0) == (effect.relative == "produced")]
            if not made:
                return 0.0
            effect = fx.Produce(tuple(made), 1, effect.buyable)
        if len(effect.resources) == 1:
            r = effect.resources[0]
            return sum(self._unit_value(r, float(i)) for i in range(effect.amount))
        values = sorted((self._unit_value(r, 0.0) for r in effect.resources), reverse=True)
        return (values[0] + 0.35 * sum(values[1:])) * effect.amount

    def _military_value(self, shields: int) -> float:
        mine = self.city.shields()
        neighbours = (self.cities[left_of(self.seat, self.players)].shields(),
                      self.cities[right_of(self.seat, self.players)].shields())
        defeat = self.params.defeat
        # uncertainty about the shields still to come this age
        spread = 0.6 + 0.25 * max(self.hand_size - 1, 0)
        total = 0.0
        for age in range(self.age, self.ages + 1):
            victory = self.params.victory[min(age, len(self.params.victory)) - 1]
            weight = 1.0 if age == self.age else 0.35
            scale = spread if age == self.age else spread + 2.0 * (age - self.age)
            for theirs in neighbours:
                for diff, sign in ((mine + shields - theirs, 1.0), (mine - theirs, -1.0)):
                    win, lose = _sigmoid(diff / scale), _sigmoid(-diff / scale)
                    # a tie gives nothing, so the expected tokens sit between the two
                    total += sign * weight * (victory * win ** 2 + defeat * lose ** 2)
        return total

    def _ability_value(self, effect: fx.Ability) -> float:
        remaining = self.ages - self.age + 1
        if effect.name == "free_build":
            return 3.0 * (remaining if effect.once_per == "age" else 1)
        if effect.name == "play_last_card":
            return 1.5 * remaining
        if effect.name == DISCARD_BUILD_ABILITY:
            return 0.0  # the runtime asks for the card: valued as the choice it asks
        return 1.0

    def _chain_value(self, card: Card) -> float:
        weight = _by_age(CHAIN_VALUE, self.age)
        if not weight or self.age >= self.ages:
            return 0.0
        names = self.city.names
        return weight * sum(1 for n in card.makes_free if n not in names)


@mypyc_attr(allow_interpreted_subclasses=True)  # a new loop may build on this policy
class DraftGreedy:
    """The draft loop's greedy policy: the action with the best heuristic value, ties by
    its own generator (registered as the ``draft`` loop's ``greedy``)."""

    name = "greedy"

    def __init__(self, seed: int = 0, noise: float = 0.0, fast: bool = False) -> None:
        self.rng = random.Random(seed)
        self.noise = noise
        self.fast = fast

    def choose(self, game: Game, seat: int) -> Action:
        actions = game.legal_actions(seat)
        if len(actions) == 1:
            return actions[0]
        return best_of(actions, Evaluator(game, seat, self.fast).value, self.rng, self.noise)

    def rank(self, game: Game, seat: int, actions: Sequence[Action]) -> list[tuple[float, Action]]:
        """One entry per card and kind of action (its best payment), best first; a stage
        or a sale is one entry, made with the card others would like most."""
        evaluator = Evaluator(game, seat)
        best: dict[tuple[str, object], tuple[float, int, Action]] = {}
        for index, action in enumerate(actions):
            value = evaluator.value(action)
            card = getattr(action, "card", None)
            kind = type(action).__name__
            key: tuple[str, object]
            if isinstance(action, (BuildStage, Sell)):
                # any card can be tucked or sold: give away the one others would like most
                assert card is not None
                value += 0.01 * evaluator.card_value(card)
                key = (kind, 0)
            else:  # a card's payments are one choice; an action without a card is its own
                key = (kind, id(card) if card is not None else str(action))
            found = best.get(key)
            if found is None or value > found[0]:
                best[key] = (value, index, action)
        return [(value, action) for value, _, action in
                sorted(best.values(), key=lambda t: (-t[0], t[1]))]


class GreedyBot:
    """Plays the greedy policy the running game's loop registers, in any game.

    The policy is looked up once per loop (:func:`~.policy.greedy_policy`) and keeps
    its own generator seeded with this bot's seed, so the bot is deterministic for a
    seed whatever the game.
    """

    name = "greedy"

    def __init__(self, seed: int = 0, noise: float = 0.0, fast: bool = False) -> None:
        self.seed = seed
        self.noise = noise
        self.fast = fast
        self._policies: dict[object, Policy[Any]] = {}
        self._last: tuple[GameData, Policy[Any]] | None = None

    def policy(self, game: GameState) -> Policy[Any]:
        """The policy for ``game``'s loop (made once per loop, and remembered per data)."""
        last = self._last
        if last is not None and last[0] is game.data:
            return last[1]
        factory = greedy_policy(game.data)
        found = self._policies.get(factory)
        if found is None:
            found = factory(self.seed, self.noise, self.fast)
            self._policies[factory] = found
        self._last = (game.data, found)
        return found

    def choose(self, game: GameState, seat: int) -> Any:
        # (Any: a loop's own actions, such as the dice loop's, are not in the Action
        # union, and compiled code checks a value against its declared type, the
        # protocol's return type included)
        policy: Any = self.policy(game)
        return policy.choose(game, seat)
