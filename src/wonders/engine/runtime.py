"""The effect runtime: one implementation of every effect that acts during play.

Both game loops (and any later one) run a card's, a wonder stage's or a token's
effects through this module, against a small table interface (:class:`Table`)
that each loop implements — never against a concrete loop.  What the runtime
does, per effect kind and timing:

* **arrival** of a source (a card built, a wonder stage built, a token taken):
  its ``now:`` clauses act, in the order written; ``ability build_from_discard``
  asks for a card of the discard pile; where the table says ongoing effects act on
  arrival (a conflict track: the pawn moves as shields arrive; science pairs are
  counted as symbols arrive), ongoing ``shields`` and ``science`` act too;
* then the owner's **triggers**: each ``on <event> [colours]:`` clause of the
  owner's *other* sources (never the arriving source's own) whose event is the
  arrival's (``card`` of a colour, ``wonder``, ``chain``) acts;
* where the table says lasting effects act on arrival (``arrival_lasting``: a dice
  sheet), an ongoing ``produce`` is handed to the table and an ability asks for what it
  gives (an extra action, a free die: a pending decision named by the ability);
* the **now-effects**: ``coins`` (the table's ``gain``), ``shields`` (the table's
  ``shields``: a pawn move, or a permanent bonus counted in every later battle),
  ``replay``, ``PLACES loses N coins`` (to the bank, never below 0), ``destroy``
  and ``take … token`` (a pending decision of the owner, :class:`Pending`).

*When* coins change hands is the table's: the draft table credits what its
``gain`` receives at the end of a simultaneous turn (all coins of a turn arrive
together), the structure table at once.  Which effects a loop's runtime runs is
declared in :mod:`wonders.dsl.mechanisms`; ``wonders validate`` refuses the rest,
so nothing written in a card is ever silently skipped here.

The loops take an arrival's steps with :func:`act`, straight from the clauses
(a source has one or two: cheaper than looking a cached plan up); :func:`plan`
lists the same steps for whoever wants them as values (the greedy bot).
"""

from __future__ import annotations

from typing import Final, Sequence

from wonders.dsl import effects as fx
from wonders.dsl.model import Card, Token
from wonders.dsl.model import Game as GameData
from wonders.engine import memo
from wonders.engine.actions import (
    Action,
    Build,
    BuildFromDiscard,
    CopyCard,
    DestroyCard,
    PayOrTake,
    Skip,
    TakeToken,
    discard_build,
    take_token,
)
from wonders.engine.city import City
from wonders.engine.randomness import SharedGenerator, mypyc_attr, sample
from wonders.engine.scoring import amount, holds
from wonders.engine.table import seats_at

# The kinds of pending decision effects ask for (the names records and logs use).
DISCARD_BUILD: Final = "discard_build"
DESTROY: Final = "destroy"
TOKEN: Final = "token"
# "loses N coins or KIND tokens": the losing city chooses how many coins it pays
DEBT: Final = "debt"
# "build N reserve cards": a card of the reserve hand built at once, paying (or declined)
RESERVE_BUILD: Final = "reserve_build"
# "now: copy COLOURS card from PLACES": a card of another city whose whole effect is copied
COPY: Final = "copy"
# "activate KIND token from tops|deck": an item of a priced row's stacks, free (asked and
# carried out by that mechanism, mechanisms/priced_row.py)
ACTIVATE: Final = "activate"
# cards and wonders moved between cities and piles (mechanisms/city_moves.py asks them)
TAKE_CARD: Final = "take_card"
DISCARD_CARD: Final = "discard_card"
COPY_SCIENCE: Final = "copy_science"   # "science of COLOURS card in PLACES"
# "discard [up to N] accessible structure card": its options worked out when it is asked
DISCARD_ACCESSIBLE: Final = "discard_accessible"
WONDER_MOVES: Final = {"take": "take_wonder", "unbuild": "unbuild", "build": "build_wonder",
                       "remove": "remove_wonder"}
# "remove KIND token from …", "build free card from last row | removed", "swap … with …"
REMOVE_TOKEN: Final = "remove_token"
BUILD_FREE: Final = {"last row": "build_last_row", "removed": "build_removed"}
SWAP: Final = "swap"
TRACK_MOVES: Final = {"block": "block", "discard": "discard_token", "use": "use_token"}
# What arrives, for triggers (``on card:``, ``on wonder:``, ``on chain:``).
CARD_EVENT: Final = "card"
WONDER_EVENT: Final = "wonder"
CHAIN_EVENT: Final = "chain"
SELL_EVENT: Final = "sell"  # "on sell:", a card sold (discarded for coins)
AGE_END_EVENT: Final = "age_end"  # "on age end:", announced by a loop after an age's battles
# "on age start:", announced by a loop once an age's hands are dealt, before its first turn
AGE_START_EVENT: Final = "age_start"
DISCARD_BUILD_ABILITY: Final = "build_from_discard"

_SELF_PLACE: Final = ("self",)
_SHIELDS: Final = "shields"
_SCIENCE: Final = "science"
_IF: Final = "if"  # a now-clause with a condition: the clause, checked when taken
_NOW: Final = "now"
# Timings as constants (an Enum member read through its class costs a Python lookup).
# Effect classes are tested by name: compiled with the effects module, ``isinstance(x,
# fx.Coins)`` is a type comparison, while a class bound to a constant is a generic call.
_NOW_TIMING: Final = fx.Timing.NOW
_ONGOING_TIMING: Final = fx.Timing.ONGOING

Step = tuple[str, object]
Plan = tuple[Step, ...]


class Pending:
    """A choice an effect asks for: its kind, the seat that decides, the options.

    ``effect`` is what asked (a ``destroy``, a ``take … token``, the discard-build
    ability), so a table that asks later than the effect acted (the draft table,
    after a simultaneous turn) works the options out when the choice comes up.
    """

    __slots__ = ("kind", "seat", "options", "effect")

    def __init__(self, kind: str, seat: int, options: list[Action],
                 effect: fx.Effect | None = None) -> None:
        self.kind = kind
        self.seat = seat
        self.options = options
        self.effect = effect

    def copy(self) -> "Pending":
        return Pending(self.kind, self.seat, list(self.options), self.effect)


@mypyc_attr(allow_interpreted_subclasses=True)
class Table(SharedGenerator):
    """What the runtime needs of a game loop: the cities and a few verbs.

    Every table the runtime plays on (each game loop, the greedy bot's trial) is a
    subclass that sets the three fields and its generator (``set_generator``; see
    :class:`~wonders.engine.randomness.SharedGenerator`) in its ``__init__`` and
    implements the methods.  A base class rather than a protocol: compiled, the runtime
    then calls a loop's methods directly instead of looking them up by name.

    ``arrival_ongoing`` says whether ongoing ``shields`` and ``science`` act as they
    arrive (a conflict track and science pairs) or are only counted later (battles
    at the end of an age, science sets at the final scoring).  ``arrival_lasting`` says
    whether ongoing ``produce`` and abilities act as they arrive (a sheet that keeps its
    resource types as a set, and abilities that act once, when their source arrives:
    :meth:`produced`, and :meth:`ask` with the ability's name) or are read where they are
    used (payments and legal actions).
    """

    arrival_ongoing: bool
    arrival_lasting: bool = False
    # whether other cities' clauses watch this table's arrivals (``on card in opponent:``,
    # :func:`has_watchers`): then an arrival runs :func:`watched` too
    watching: bool = False
    pools: dict[str, list[Token]]
    discard: list[Card]

    def city_list(self) -> Sequence[City]:
        """Every seat's city, in seat order."""
        raise NotImplementedError

    @property
    def over(self) -> bool:
        """Whether the game has ended (the runtime stops acting then)."""
        raise NotImplementedError

    def gain(self, seat: int, coins: int) -> None:
        """The bank gives ``seat`` coins (when they arrive is the table's)."""
        raise NotImplementedError

    def lose(self, seat: int, coins: int) -> None:
        """``seat`` returns up to ``coins`` coins to the bank (never below 0)."""
        raise NotImplementedError

    def shields(self, seat: int, count: int) -> None:
        """``seat`` gains ``count`` shields once (a pawn move, or a lasting bonus)."""
        raise NotImplementedError

    def give(self, giver: int, taker: int, coins: int) -> None:
        """``giver`` gives ``taker`` up to ``coins`` of its coins (``PLACES gives N coins``:
        what it has, never below 0; ``taker`` receives exactly what was given; when is the
        table's)."""
        raise NotImplementedError

    def science_arrived(self, seat: int, symbol: str) -> None:
        """A science symbol arrived (only called when ``arrival_ongoing``)."""
        raise NotImplementedError

    def replay(self, seat: int) -> None:
        """``seat`` plays again straight after this turn."""
        raise NotImplementedError

    def ask(self, kind: str, seat: int, effect: fx.Effect) -> None:
        """Queue a pending decision of ``seat`` (``options`` works out its choices)."""
        raise NotImplementedError

    def take_tokens(self, seat: int, kind: str, count: int) -> None:
        """``seat`` takes ``count`` counter tokens of ``kind`` from the supply (``take N
        KIND tokens``; the tokens of the coins a ``loses … or KIND tokens`` left unpaid),
        each worth the points the rule set gives the kind."""
        raise NotImplementedError

    def produced(self, seat: int, effect: fx.Produce) -> None:
        """An ongoing ``produce`` arrived in ``seat``'s city (only called when
        ``arrival_lasting``)."""
        raise NotImplementedError

    def triggers(self, seat: int) -> Sequence[tuple[object, fx.Clause]]:
        """The ``on …:`` clauses of ``seat``'s sources, each with its source."""
        raise NotImplementedError

    def carry_out(self, seat: int, effect: fx.Effect) -> None:
        """A now-effect that a mechanism of the flow carries out (:data:`fx.BY_MECHANISM`:
        influence on a board of chambers, held tokens, a choice of two effects)."""
        raise NotImplementedError

    def kept(self, seat: int, name: str) -> int:
        """A count the game keeps rather than a city (``per age``: the current period's
        number; ``per influence``: ``seat``'s pieces on a board of chambers), for a clause
        acting now (only the counts the loop declares, ``Capabilities.kept_counts``)."""
        raise NotImplementedError

    def draw_reserve(self, seat: int, count: int) -> None:
        """``seat`` draws ``count`` unused cards of the rule set's reserve into its reserve
        hand (as many as are left; only loops that declare ``draw`` implement it)."""
        raise NotImplementedError

    def reserve_builds(self, seat: int) -> list[Action]:
        """The builds of ``seat``'s reserve cards it can pay for now (a ``build N reserve
        cards`` choice; only loops that declare ``build`` implement it)."""
        raise NotImplementedError

    def build_reserve(self, seat: int, action: Build) -> None:
        """``seat`` builds a card of its reserve hand, paying as ``action`` says."""
        raise NotImplementedError


_PLANS: Final[dict[int, tuple[fx.Effects, Plan]]] = memo.table("runtime.plans", 5_000)
_PLANS_ONGOING: Final[dict[int, tuple[fx.Effects, Plan]]] = memo.table("runtime.plans_ongoing",
                                                                       5_000)


def plan(effects: fx.Effects, ongoing: bool) -> Plan:
    """The steps ``effects`` take when their source arrives, in order (most: none).

    Cached by the effects object (kept with it, so a reused id is recognised as new).
    """
    cache = _PLANS_ONGOING if ongoing else _PLANS
    found = cache.get(id(effects))
    if found is not None and found[0] is effects:
        return found[1]
    steps: list[Step] = []
    for clause in effects.clauses:
        effect = clause.effect
        if clause.timing is fx.Timing.ONGOING:
            if isinstance(effect, fx.Ability) and effect.name == DISCARD_BUILD_ABILITY:
                steps.append((_NOW, effect))
            elif ongoing and isinstance(effect, fx.Shields):
                steps.append((_SHIELDS, effect.count))
            elif ongoing and isinstance(effect, fx.Science):
                steps.append((_SCIENCE, effect.symbols[0]))
        elif clause.timing is fx.Timing.NOW:
            if clause.condition is not None:  # checked when the step is taken
                steps.append((_IF, clause))
            else:
                steps.append((_NOW, effect))
    made = tuple(steps)
    memo.remember(cache, id(effects), (effects, made))
    return made


def act(table: Table, seat: int, effects: fx.Effects, ongoing: bool) -> bool:
    """Take the steps ``plan(effects, ongoing)`` lists for ``seat``, in order, straight
    from the clauses (stopping if the game ends on the way): whether there was any."""
    acted = False
    for clause in effects.clauses:
        effect = clause.effect
        timing = clause.timing
        if timing is _NOW_TIMING:
            if clause.condition is not None and not holds(clause.condition, seat,
                                                          table.city_list()):
                continue
            now(table, seat, effect)
        elif timing is not _ONGOING_TIMING:
            continue
        elif isinstance(effect, fx.Ability):
            if effect.name == DISCARD_BUILD_ABILITY:
                now(table, seat, effect)
            elif table.arrival_lasting:   # an ability acting once, as it arrives
                table.ask(effect.name, seat, effect)
            else:
                continue
        elif ongoing and isinstance(effect, fx.Shields):
            table.shields(seat, effect.count)
        elif ongoing and isinstance(effect, fx.Science):
            table.science_arrived(seat, effect.symbols[0])
        elif table.arrival_lasting and isinstance(effect, fx.Produce):
            table.produced(seat, effect)
        else:
            continue
        acted = True
        if table.over:
            break
    return acted


def run(table: Table, seat: int, steps: Plan) -> None:
    """Take a plan's steps for ``seat`` (stopping if the game ends on the way)."""
    for step, value in steps:
        if step is _SHIELDS:
            table.shields(seat, value)  # type: ignore[arg-type]
        elif step is _SCIENCE:
            table.science_arrived(seat, value)  # type: ignore[arg-type]
        elif step is _IF:
            clause: fx.Clause = value  # type: ignore[assignment]
            if holds(clause.condition, seat, table.city_list()):
                now(table, seat, clause.effect)
        else:
            now(table, seat, value)  # type: ignore[arg-type]
        if table.over:
            return


def arrive(table: Table, seat: int, source: object, effects: fx.Effects, event: str | None,
           colour: str | None) -> None:
    """A source arrives in ``seat``'s city: its plan, then the owner's triggers
    (``event`` None: none, as for a token taken)."""
    if act(table, seat, effects, table.arrival_ongoing) and table.over:
        return
    if event is not None:
        trigger(table, seat, event, colour, source)
        if table.watching and not table.over:
            watched(table, seat, event, colour)


def trigger(table: Table, seat: int, event: str, colour: str | None, source: object) -> None:
    """Run the owner's ``on …:`` clauses that ``event`` sets off (never the source's own;
    a clause watching other cities only, ``on card in opponent:``, not)."""
    for what, clause in table.triggers(seat):
        if what is source:
            continue
        wanted = clause.trigger
        if wanted is None or wanted.event != event:
            continue
        if wanted.colours is not None and colour not in wanted.colours:
            continue
        if wanted.watches and _SELF_PLACE[0] not in wanted.places:
            continue
        if clause.condition is not None and not holds(clause.condition, seat,
                                                      table.city_list()):
            continue
        now(table, seat, clause.effect)
        if table.over:
            return


def watched(table: Table, seat: int, event: str, colour: str | None) -> None:
    """Run the ``on …:`` clauses of the *other* cities that watch ``seat``'s arrivals
    (``on blue card in self, opponent:``: the place names ``seat`` from the clause's
    owner), for their owners, in seat order (a loop calls this only when the data has
    such a clause: :func:`has_watchers`)."""
    cities = table.city_list()
    players = len(cities)
    for owner in range(players):
        if owner == seat:
            continue
        for _, clause in table.triggers(owner):
            wanted = clause.trigger
            if wanted is None or wanted.event != event or not wanted.watches:
                continue
            if wanted.colours is not None and colour not in wanted.colours:
                continue
            if not any(seat in seats_at(owner, place, players) for place in wanted.places):
                continue
            if clause.condition is not None and not holds(clause.condition, owner, cities):
                continue
            now(table, owner, clause.effect)
            if table.over:
                return


def value(table: Table, counted: fx.Amount, seat: int) -> int:
    """An amount for ``seat`` as a clause acts in play: the cities' counts (scoring's
    :func:`amount`) and the counts the game keeps (``per age``, ``per influence``: the
    table's :meth:`Table.kept`)."""
    cities = table.city_list()
    total = amount(counted, seat, cities)
    for term in counted.terms:
        what = term.counted
        if isinstance(what, fx.CountKept):
            found = 0
            for place in term.places:
                for other in seats_at(seat, place, len(cities)):
                    found += table.kept(other, what.name)
            total += term.value * (-(-found // term.divisor) if term.up
                                   else found // term.divisor)
    return total


def now(table: Table, seat: int, effect: fx.Effect) -> None:
    """One now-effect of ``seat``'s (a ``now:`` clause, a trigger's, a rule's)."""
    if isinstance(effect, fx.Coins):
        table.gain(seat, value(table, effect.amount, seat))
    elif isinstance(effect, fx.Shields):
        each = effect.each  # "shields 1 per …": counted when the clause acts
        table.shields(seat, effect.count if each is None else
                      effect.count + value(table, each, seat))
    elif isinstance(effect, fx.Replay):
        table.replay(seat)
    elif isinstance(effect, fx.LoseCoins):
        for target, owed in _owed(table, seat, effect.places, effect.amount, effect.each):
            if effect.debt is None:
                table.lose(target, owed)
            elif owed > 0:  # the losing city chooses how many coins it pays
                table.ask(DEBT, target, fx.LoseCoins(_SELF_PLACE, fx.Amount(owed), None,
                                                     effect.debt))
    elif isinstance(effect, fx.GainCoins):
        cities = table.city_list()
        gained = value(table, effect.amount, seat)
        for place in effect.places:
            for target in seats_at(seat, place, len(cities)):
                table.gain(target, gained)
    elif isinstance(effect, fx.GiveCoins):  # "left, right gives 1 coin": to the owner
        for target, owed in _owed(table, seat, effect.places, effect.amount, effect.each):
            if owed > 0 and target != seat:
                table.give(target, seat, owed)
    elif isinstance(effect, fx.Destroy):
        table.ask(DESTROY, seat, effect)
    elif isinstance(effect, fx.TakeToken):
        if effect.pool:
            table.ask(TOKEN, seat, effect)
        else:  # counters from the supply: no choice
            table.take_tokens(seat, effect.kind, effect.count)
    elif isinstance(effect, fx.Ability) and effect.name == DISCARD_BUILD_ABILITY:
        table.ask(DISCARD_BUILD, seat, effect)
    elif isinstance(effect, fx.DrawReserve):
        table.draw_reserve(seat, effect.count)
    elif isinstance(effect, fx.BuildReserve):
        for _ in range(effect.count):  # one choice each, asked one after the other
            table.ask(RESERVE_BUILD, seat, effect)
    elif isinstance(effect, fx.CopyCard):  # "now: copy …" (an end copy is scoring's)
        table.ask(COPY, seat, effect)
    elif isinstance(effect, fx.BY_MECHANISM):   # (the flow's mechanisms: validate says which)
        table.carry_out(seat, effect)
    elif isinstance(effect, fx.Activate):  # a priced row's item, free (its mechanism asks)
        table.ask(ACTIVATE, seat, effect)
    elif isinstance(effect, fx.TakeCard):  # (these: mechanisms/city_moves.py asks)
        table.ask(TAKE_CARD, seat, effect)
    elif isinstance(effect, fx.MoveWonder):
        table.ask(WONDER_MOVES[effect.verb], seat, effect)
    elif isinstance(effect, fx.DiscardStructure):
        if not effect.accessible:
            table.ask(DISCARD_CARD, seat, effect)
        else:   # one choice each ("up to N": each may be skipped)
            for _ in range(max(effect.upto, 1)):
                table.ask(DISCARD_ACCESSIBLE, seat, effect)
    elif isinstance(effect, fx.CopyScience):
        table.ask(COPY_SCIENCE, seat, effect)
    elif isinstance(effect, fx.TrackPiece):
        table.ask(TRACK_MOVES[effect.verb], seat, effect)
    elif isinstance(effect, fx.RemoveToken):
        table.ask(REMOVE_TOKEN, seat, effect)
    elif isinstance(effect, fx.BuildFree):
        table.ask(BUILD_FREE[effect.source], seat, effect)
    elif isinstance(effect, fx.Swap):
        table.ask(SWAP, seat, effect)


def _owed(table: Table, seat: int, places: Sequence[str], owed: fx.Amount,
          each: fx.Amount | None) -> list[tuple[int, int]]:
    """(seat, coins) owed by each city at ``places`` for a ``loses`` or ``gives`` of
    ``seat``'s: the amount counted for the owner, plus ``each`` (``… in them``) counted in
    that city itself."""
    cities = table.city_list()
    base = value(table, owed, seat)
    found: list[tuple[int, int]] = []
    for place in places:
        for target in seats_at(seat, place, len(cities)):
            found.append((target, base if each is None else base + value(table, each, target)))
    return found


def options(table: Table, kind: str, seat: int, effect: fx.Effect | None) -> list[Action]:
    """The choices of a pending decision now ([]: nothing to choose, the choice lapses).

    A ``take`` with ``draw N`` draws its N tokens here, from the table's generator.
    """
    cities = table.city_list()
    if kind == DEBT:  # pay any number of the coins owed (up to all one has), the rest as tokens
        assert isinstance(effect, fx.LoseCoins) and effect.debt is not None
        owed = effect.amount.fixed
        most = min(owed, cities[seat].coins)
        return [PayOrTake(paid, owed - paid, effect.debt) for paid in range(most, -1, -1)]
    # Copies of one card are told apart by identity (a card compares and hashes by
    # identity), so the sets below hold the cards themselves: compiled, ``id(card)`` boxes
    # a new int at every test and every addition.
    if kind == DESTROY:
        assert isinstance(effect, fx.Destroy)
        found: list[Action] = []
        seen: set[int] = set()
        for place in effect.places:
            for target in seats_at(seat, place, len(cities)):
                if target in seen:
                    continue
                seen.add(target)
                shown: set[Card] = set()
                for card in cities[target].built:
                    if card.colour in effect.colours and card not in shown:
                        shown.add(card)
                        found.append(DestroyCard(card, target))
        return found
    if kind == COPY:  # a card of the colours in those cities, not one the city has
        assert isinstance(effect, fx.CopyCard)
        own = cities[seat]
        had = {card.name for card in own.copied}
        copies: list[Action] = []
        for target in _targets(seat, effect.places, len(cities)):
            shown_copies: set[Card] = set()
            for card in cities[target].built:
                if (card.colour in effect.colours and card not in shown_copies
                        and card.name not in own.names and card.name not in had):
                    shown_copies.add(card)
                    copies.append(CopyCard(card, target))
        return copies
    if kind == RESERVE_BUILD:
        return table.reserve_builds(seat)
    if kind == TOKEN:
        assert isinstance(effect, fx.TakeToken)
        pool = table.pools.get(effect.pool, [])
        candidates = [t for t in pool if t.kind == effect.kind]
        if effect.draw is not None:
            candidates = sample(table.generator(), candidates, min(effect.draw, len(candidates)))
        return [take_token(t) for t in candidates]
    names = cities[seat].names
    seen_cards: set[Card] = set()
    chosen: list[Action] = []
    for card in table.discard:
        if card not in seen_cards and card.name not in names:
            seen_cards.add(card)
            chosen.append(discard_build(card))
    return chosen


def resolve(table: Table, seat: int, action: Action) -> None:
    """Carry out the answer to a pending decision (a token arrives, a card is destroyed
    or built from the discard pile; ``Skip`` declines)."""
    if isinstance(action, TakeToken):
        for pool in table.pools.values():
            if action.token in pool:
                pool.remove(action.token)
                break
        table.city_list()[seat].add_token(action.token)
        arrive(table, seat, action.token, action.token.effects, None, None)
    elif isinstance(action, DestroyCard):
        cities = table.city_list()
        owners = [action.seat] if action.seat >= 0 else range(len(cities))
        for owner in owners:
            if any(c is action.card for c in cities[owner].built):
                cities[owner].remove_card(action.card)
                break
        table.discard.append(action.card)
    elif isinstance(action, PayOrTake):
        if action.coins:
            table.lose(seat, action.coins)
        if action.tokens:
            table.take_tokens(seat, action.kind, action.tokens)
    elif isinstance(action, CopyCard):  # the copy's now-effects act for the copier
        table.city_list()[seat].add_copy(action.card)
        arrive(table, seat, action.card, action.card.effects, None, None)
    elif isinstance(action, Build):  # a card of the reserve hand ("build N reserve cards")
        table.build_reserve(seat, action)
    elif isinstance(action, BuildFromDiscard):
        table.discard.remove(action.card)
        table.city_list()[seat].add_card(action.card)
        arrive(table, seat, action.card, action.card.effects, CARD_EVENT, action.card.colour)
    else:
        assert isinstance(action, Skip)


def _targets(seat: int, places: Sequence[str], players: int) -> list[int]:
    """The seats ``places`` name from ``seat``, each once, in order."""
    found: list[int] = []
    for place in places:
        for target in seats_at(seat, place, players):
            if target not in found:
                found.append(target)
    return found


def triggers_of(city: City) -> list[tuple[object, fx.Clause]]:
    """A city's ``on …:`` clauses with their sources, read from its sources (a stage's
    source is its :class:`~wonders.dsl.model.Stage`, as the table passes on arrival)."""
    found: list[tuple[object, fx.Clause]] = []
    for _kind, what, effects in city.sources():
        for clause in effects.clauses:
            if clause.timing is fx.Timing.ON:
                source = city.side.stages[what] if isinstance(what, int) else what
                found.append((source, clause))
    return found


_HAS_TRIGGERS: Final = "runtime_has_triggers"  # this module's entry in GameData.derived
_HAS_WATCHERS: Final = "runtime_has_watchers"


def every_effects(data: GameData) -> list[fx.Effects]:
    """The effects of every card, token, wonder side and stage of the data (for the
    once-per-data questions a loop asks: is there any trigger, any coin discount …)."""
    effects: list[fx.Effects] = [c.effects for c in data.cards]
    effects += [t.effects for t in data.tokens]
    for wonder in data.wonders:
        for side in wonder.sides.values():
            effects.append(side.start)
            effects += [s.effects for s in side.stages]
    return effects


def has_triggers(data: GameData) -> bool:
    """Whether any card, wonder or token of the data has an ``on …:`` clause (computed
    once per loaded data: without any, a table need not look for triggers)."""
    cached = data.derived.get(_HAS_TRIGGERS)
    if isinstance(cached, bool):
        return cached
    found = any(c.timing is fx.Timing.ON for e in every_effects(data) for c in e.clauses)
    data.derived[_HAS_TRIGGERS] = found
    return found


def has_watchers(data: GameData) -> bool:
    """Whether any source of the data has an ``on …:`` clause that other cities' arrivals
    set off (``on blue card in self, opponent:``; computed once per loaded data)."""
    cached = data.derived.get(_HAS_WATCHERS)
    if isinstance(cached, bool):
        return cached
    found = any(c.trigger is not None and c.trigger.watches
                for e in every_effects(data) for c in e.clauses)
    data.derived[_HAS_WATCHERS] = found
    return found


__all__ = ["AGE_END_EVENT", "AGE_START_EVENT", "CARD_EVENT", "CHAIN_EVENT", "COPY", "DEBT",
           "DESTROY", "DISCARD_BUILD", "Pending", "RESERVE_BUILD", "SELL_EVENT", "TOKEN",
           "Table", "WONDER_EVENT", "act", "arrive", "has_triggers", "has_watchers",
           "mypyc_attr", "now", "options", "plan", "resolve", "run", "trigger", "triggers_of",
           "value", "watched"]
