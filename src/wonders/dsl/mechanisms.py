"""What each game loop runs: the catalogue ``wonders validate`` checks data against.

"Valid means it plays as written": an effect, a timing, an ability, a trade form,
a slot mechanism or a rule-set key that the game loop a rule set selects (by
``offer: mechanism``) does not run is a located validation error, never a silent
no-op in play.  This module is that declaration, one :class:`Capabilities` per
loop; it lives in the language package because the loader needs it and the
language never imports the engine.  The engine's side keeps it honest: each loop
reads its abilities and accepted mechanisms from here, and the effect × game test
(``tests/test_effects_matrix.py``) plays every accepted effect kind and timing in
every shipped game and checks that everything else is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Final, Mapping

from wonders.dsl import effects as fx

NOW, ON, END, ONGOING = fx.Timing.NOW, fx.Timing.ON, fx.Timing.END, fx.Timing.ONGOING

# The word that starts each effect in the language (for messages and the tables).
EFFECT_WORDS: Final[Mapping[type, str]] = {
    fx.Produce: "produce", fx.Points: "points", fx.Coins: "coins", fx.Shields: "shields",
    fx.Science: "science", fx.TradePrice: "buy", fx.Ability: "ability", fx.CopyCard: "copy",
    fx.LoseCoins: "loses", fx.Replay: "replay", fx.Destroy: "destroy", fx.TakeToken: "take",
    fx.Discount: "discount", fx.GainCoins: "gains", fx.DrawReserve: "draw",
    fx.BuildReserve: "build", fx.GiveCoins: "gives", fx.Influence: "influence",
    fx.Conspire: "conspire", fx.TriggerHeld: "trigger", fx.Either: "or",
    fx.ActivationDiscount: "discount",
    fx.Activate: "activate", fx.TakeCard: "take card", fx.MoveWonder: "wonder",
    fx.DiscardStructure: "discard", fx.TrackPiece: "track", fx.CopyScience: "science of",
    fx.CoinsAside: "coins aside", fx.ChainPrice: "build chain",
    fx.CoinsAside: "coins aside", fx.RemoveToken: "remove", fx.BuildFree: "build free",
    fx.Swap: "swap",
}

# The trigger event of the end of a period: "age_end" for ``on age end:``.
PERIOD_END: Final = "_end"
# The trigger event of the start of a period: "age_start" for ``on age start:``.
PERIOD_START: Final = "_start"
# The trigger event of a token's arrival: "victory_token" for ``on victory token:``.
TOKEN_EVENT: Final = "_token"
# The trigger event of buying from a neighbour (``on buy:``).
BUY_EVENT: Final = "buy"
# The trigger event of taking coins from the bank (``on bank coins:``), at most once per
# city and turn (an age's end, after its last turn, counts as a turn of its own).
BANK_EVENT: Final = "bank_coins"
# The trigger event of a card sold (``on sell:``).
SELL_EVENT: Final = "sell"
# The trigger event of the owner's shields pushing the conflict pawn (``on advance:``); the
# count of the spaces it moved (``per space``), read in that clause only (compiler T414).
ADVANCE_EVENT: Final = "advance"
SPACE_COUNT: Final = "space"
# The trigger event of a wonder picked in the wonder draft (``on draft:``, flow step
# draft_wonders): it acts once, for the picker, before the next pick.
DRAFT_EVENT: Final = "draft"

# Who chooses the first player of the next age (``turns.next_age``), for loops that ask.
NEXT_AGE: Final = ("weaker_military",)

_EVERYWHERE: Final = frozenset({
    ("produce", ONGOING), ("science", ONGOING), ("points", END), ("copy", END),
    ("coins", NOW), ("coins", ON), ("shields", ONGOING), ("shields", NOW), ("shields", ON),
    ("buy", ONGOING), ("ability", ONGOING), ("loses", NOW), ("loses", ON),
    ("destroy", NOW), ("take", NOW), ("gains", NOW), ("gains", ON),
    ("gives", NOW), ("gives", ON),
})


# The frequencies of an ability (``Ability.once_per``): none, ``once``, ``once per age``.
_UNLIMITED: Final[frozenset[str | None]] = frozenset({None})
_ONCE: Final[frozenset[str | None]] = frozenset({None, "game"})
_ANY_FREQUENCY: Final[frozenset[str | None]] = frozenset({None, "game", "age"})


def frequency_text(once_per: str | None) -> str:
    """How an ability's frequency is written: ``once``, ``once per age`` ('' for none)."""
    return "" if once_per is None else "once" if once_per == "game" else f"once per {once_per}"


@dataclass(frozen=True)
class Capabilities:
    """What one game loop runs.

    ``effects``: the (effect word, timing) pairs its effect runtime executes;
    ``refused``: why an effect word it does not run has no meaning there;
    ``abilities``: the abilities it implements; ``buy_places``: the places a
    ``buy … from PLACES`` may name (empty: none), ``buy_anyone``: whether a
    ``buy … at N`` without places works; ``slots``: per rule-set slot, the
    mechanisms it plays with (the first is the default); ``next_age``: the values
    of ``turns.next_age`` it reads (empty: it never reads the key);
    ``boards``: whether it deals one wonder board to each player;
    ``conditions``: the kinds of clause condition (``if …``) its runtime checks
    (``wonder``: the owner's board complete; ``at_least``: a count reached);
    ``period_ends``: per period whose end the loop announces (``on age end:``), the
    effect words it runs then (empty: no such trigger fires); ``period_starts``: the
    same for the start of a period (``on age start:``); ``coin_discounts``:
    whether it takes ``discount N coins on …`` off the coins of a cost;
    ``scoped_abilities``: the abilities it limits to cards of some colours
    (``ability free_build on purple cards``); ``reserve``: whether it plays the rule
    set's ``reserve`` (a draft of the reserve's cards before Age I, a reserve turn at the
    start of each age); ``token_events``: the token kinds whose arrival it announces
    (``on victory token: coins 2``), with the effect words it runs then;
    ``trade_events``: whether it announces each neighbour a player buys from
    (``on buy: coins 1``); ``paid_discounts``: whether it offers a resource discount
    that costs coins (``discount 1 resource on cards for 1 coin``); ``set_counts``:
    whether its cities count sets (``points 3 per set of blue, red, green cards``);
    ``debt_choice``: whether it asks each city of a ``loses … or KIND tokens`` how many
    coins it pays (a follow-up decision); ``counter_tokens``: whether it runs ``take N
    KIND tokens`` (counters from the supply); ``relative_production``: whether its
    cities work out ``produce any produced`` / ``any unproduced``; ``whole_discounts``:
    whether it runs ``discount every resource on …``; ``trade_discounts``: whether it
    takes ``discount N coins on trade from PLACES`` off the coins paid to neighbours;
    ``shared_discounts``: whether it takes ``discount N coins on … in PLACES`` off the
    costs of the cities at those places (not the owner's).  The reserve's effects (``draw
    N reserve cards``, ``build N reserve cards``) and ``now: copy …`` (a card chosen, its
    whole effect the owner's) are (word, timing) pairs of ``effects``.
    """

    offer: str
    turns: str
    effects: frozenset[tuple[str, fx.Timing]]
    refused: Mapping[str, str]
    abilities: frozenset[str]
    buy_places: frozenset[str]
    buy_anyone: bool
    slots: Mapping[str, tuple[str, ...]]
    next_age: tuple[str, ...]
    boards: bool
    conditions: frozenset[str] = frozenset()
    period_ends: Mapping[str, frozenset[str]] = field(default_factory=dict)
    period_starts: Mapping[str, frozenset[str]] = field(default_factory=dict)
    coin_discounts: bool = False
    scoped_abilities: frozenset[str] = frozenset()
    reserve: bool = False
    token_events: Mapping[str, frozenset[str]] = field(default_factory=dict)
    trade_events: bool = False
    paid_discounts: bool = False
    set_counts: bool = False
    debt_choice: bool = False
    counter_tokens: bool = False
    # the effect words it runs when a city takes coins from the bank (``on bank coins:``,
    # announced once per city and turn; empty: never announced)
    bank_events: frozenset[str] = frozenset()
    # whether it counts shields with an amount (``shields 1 per defeat token``) at battles
    counted_shields: bool = False
    relative_production: bool = False
    whole_discounts: bool = False
    trade_discounts: bool = False
    shared_discounts: bool = False
    # per ability, the frequencies it runs (``once_per``: None without one, "game" for
    # ``once``, "age" for ``once per age``); an ability not listed runs without one only
    frequencies: Mapping[str, frozenset[str | None]] = field(default_factory=dict)
    # whether ``buy … at N`` lowers a fixed price of the rule set's (``trade.price``, the
    # same for every unit): then a price above it never acts (a city pays the cheaper)
    fixed_trade_price: bool = False
    # whether an ``on …:`` clause may watch other cities' arrivals (``on blue card in self,
    # opponent:``: each build of a city the places name sets it off, for its owner)
    watched_triggers: bool = False
    # the effect words it runs when a city sells a card (``on sell: coins 2``; empty: a
    # sale is never announced)
    sell_events: frozenset[str] = frozenset()
    # the counts the game keeps that an amount may read as a clause acts (``per age``: a
    # period's number; ``per influence``: pieces on a board of chambers, added by the flow)
    kept_counts: frozenset[str] = frozenset()
    # whether ``buy … at N coins less`` lowers the price whoever sells asks (never below 1)
    trade_less: bool = False
    # whether ``discount N resources or every coin on …`` lets a build pay none of its
    # cost's coins instead of the resources off
    or_coin_discounts: bool = False
    # the effect words it runs when the owner's shields push the conflict pawn at least one
    # space (``on advance: opponent loses 1 coin per space``; empty: never announced)
    advance_events: frozenset[str] = frozenset()
    # the effect words it runs as a wonder is picked in the wonder draft (``on draft:``,
    # added by flow step draft_wonders; empty: no wonder draft announces a pick)
    draft_events: frozenset[str] = frozenset()

    def runs(self, effect: fx.Effect, timing: fx.Timing) -> bool:
        return (EFFECT_WORDS[type(effect)], timing) in self.effects


LOOPS: Final[Mapping[str, Capabilities]] = {
    "draft": Capabilities(
        offer="draft",
        turns="simultaneous",
        # the reserve's draw and build and the chosen copy of a whole card: follow-up
        # choices and the reserve hand are the draft loop's (wonders/engine/game.py)
        effects=_EVERYWHERE | {("discount", ONGOING), ("copy", NOW), ("draw", NOW),
                               ("build", NOW)},
        refused={
            "replay": "replay needs sequential turns; this rule set offers cards by draft "
                      "(everyone plays at once)",
        },
        abilities=frozenset({"free_build", "build_from_discard", "play_last_card",
                             "free_first_of_colour", "free_first_of_age", "free_last_of_age",
                             "defeats_to_victor"}),
        buy_places=frozenset({"left", "right", "neighbours"}),
        buy_anyone=True,
        slots={"turns": ("simultaneous",), "trade": ("neighbours",),
               "military": ("battles",), "science": ("sets",)},
        next_age=(),
        boards=True,
        conditions=frozenset({"wonder", "at_least"}),
        # after the age's battles, before the next age is dealt: nothing that asks a
        # choice (destroy, take, build from discard) can wait for an answer there
        period_ends={"age": frozenset({"coins", "shields", "loses", "gains", "gives"})},
        # once the age's hands are dealt, before its first turn (a reserve turn, turn 0,
        # included): the same effects as at an age's end, nothing that asks a choice
        period_starts={"age": frozenset({"coins", "shields", "loses", "gains", "gives"})},
        coin_discounts=True,
        scoped_abilities=frozenset({"free_build"}),
        debt_choice=True,
        counter_tokens=True,
        relative_production=True,
        whole_discounts=True,
        trade_discounts=True,
        shared_discounts=True,
        reserve=True,
        # the battles' tokens, given after the age's battles (as "on age end:")
        token_events={"victory": frozenset({"coins", "shields", "loses", "gives"}),
                      "defeat": frozenset({"coins", "shields", "loses", "gives"})},
        trade_events=True,
        paid_discounts=True,
        set_counts=True,
        bank_events=frozenset({"coins"}),
        counted_shields=True,
        # a free build is counted per period; the last card is played at most once an age
        # anyway ("once per age" is every age), "once" only in the first age it can be;
        # the discard build acts when its source is built, which is once
        frequencies={"free_build": _ANY_FREQUENCY, "play_last_card": _ANY_FREQUENCY,
                     "build_from_discard": _ONCE},
        fixed_trade_price=True,
    ),
    "structure": Capabilities(
        offer="structure",
        turns="sequential",
        # (activate, and a discount on activation: with a priced row in the flow only)
        effects=_EVERYWHERE | {("replay", NOW), ("replay", ON), ("discount", ONGOING),
                               ("or", NOW), ("activate", NOW), ("take card", NOW),
                               ("science of", NOW), ("coins aside", NOW),
                               ("wonder", NOW), ("discard", NOW), ("track", NOW),
                               ("build chain", ONGOING),
                               ("remove", NOW), ("build free", NOW), ("swap", NOW)},
        refused={
            "draw": "the structure game loop has no reserve to draw from",
            "build": "the structure game loop has no reserve hand to build from",
        },
        abilities=frozenset({"build_from_discard", "trade_income", "opponent_chains"}),
        buy_places=frozenset(),
        buy_anyone=True,
        slots={"turns": ("sequential",), "trade": ("bank",), "military": ("track",),
               "science": ("pairs",)},
        next_age=NEXT_AGE,
        boards=False,
        conditions=frozenset({"at_least"}),
        set_counts=True,
        watched_triggers=True,
        sell_events=frozenset({"coins", "shields", "replay", "loses", "gains", "gives"}),
        # (the spaces of an advance: the conflict track, its only military mechanism)
        kept_counts=frozenset({"age", SPACE_COUNT}),
        # (no shields: a push that pushes again; no replay: a pawn moves within a turn)
        advance_events=frozenset({"coins", "loses", "gains", "gives"}),
        trade_less=True,
        or_coin_discounts=True,
        frequencies={"build_from_discard": _ONCE},  # (it acts when its source is built)
    ),
    # A dice forum (the flow interpreter; mechanisms forum and sheets): spaces of a sheet
    # crossed with dice; a crossed space counts as a card of its building's colour.
    # Effects act when the space is crossed (now:), for the game (produce: one resource
    # type), at the end (points); an ability acts once, when its space or stage is crossed.
    "dice": Capabilities(
        offer="dice",
        turns="simultaneous",
        effects=frozenset({("produce", ONGOING), ("points", END), ("coins", NOW),
                           ("ability", ONGOING)}),
        refused={
            "shields": "a dice sheet scores attacks with 'attack:' and 'defence:' spaces "
                       "(sheets schema), not shields",
            "science": "this rule set has no science: a dice sheet scores spaces",
            "buy": "a dice sheet buys nothing: each resource type lacking costs 1 coin",
            "draw": "the dice game loop has no reserve to draw from",
            "build": "the dice game loop has no reserve hand to build from",
        },
        abilities=frozenset({"extra_action", "free_die"}),
        buy_places=frozenset(),
        buy_anyone=False,
        slots={"turns": ("simultaneous",)},
        next_age=(),
        boards=False,
        # an ability acts once, when its space or stage is crossed
        frequencies={"extra_action": _ONCE, "free_die": _ONCE},
    ),
    # A decks game (7 Wonders Architects), run by the flow interpreter
    # (wonders/engine/flow.py): its components are data of their own (components files),
    # read by the flow's steps; no effect of the effect language is run.
    "decks": Capabilities(
        offer="decks",
        turns="sequential",
        effects=frozenset(),
        refused={},
        abilities=frozenset(),
        buy_places=frozenset(),
        buy_anyone=False,
        slots={},
        next_age=(),
        boards=False,
    ),
}


@dataclass(frozen=True)
class FlowAdds:
    """What a mechanism of the flow interpreter adds to its loop's catalogue, selected by
    a step of the rule set's ``flow:`` (its effects, abilities and the token kinds it
    deals, beside ``setup: tokens``)."""

    effects: frozenset[tuple[str, fx.Timing]] = frozenset()
    abilities: frozenset[str] = frozenset()
    why: str = ""   # which step to add, for the effects' refusal
    deals: bool = False   # its step deals the tokens of the kind its ``kind`` names
    kept_counts: frozenset[str] = frozenset()   # the counts it keeps (``per influence``)
    # the effect words ``on draft:`` may run (a wonder draft's step): each acts once, for
    # the picker, as the pick is made (a follow-up decision asked before the next pick)
    draft_events: frozenset[str] = frozenset()


#: By the flow step that selects each mechanism: what it runs.
FLOW_ADDS: Final[Mapping[str, FlowAdds]] = {
    # a board of chambers controlled by the majority of pieces (mechanisms/chambers.py)
    "lay_chambers": FlowAdds(frozenset({("influence", NOW), ("influence", ONGOING)}),
                             why="influence needs a board of chambers (flow step "
                                 "lay_chambers)", deals=True,
                             kept_counts=frozenset({"influence"})),
    # held tokens, prepared with a card and triggered once (mechanisms/held.py)
    "stack_held": FlowAdds(frozenset({("conspire", NOW), ("trigger", NOW)}),
                           frozenset({"keep_drawn"}),
                           why="held tokens need their stack (flow step stack_held)",
                           deals=True),
    # tokens on the conflict track, taken by the seat whose shields enter their zone
    "lay_track_tokens": FlowAdds(deals=True),
    # cards whose price counts cards of the city (mechanisms/counted_prices.py)
    "price_by_count": FlowAdds(abilities=frozenset({"free_counted"})),
    # a wonder draft from pools (mechanisms/wonder_draft.py): "on draft:" acts at the pick
    # (coins and shields at once; influence and conspire: follow-ups before the next pick;
    # the last two only with their mechanism's step before draft_wonders, M912)
    "draft_wonders": FlowAdds(draft_events=frozenset({
        "coins", "shields", "loses", "gains", "gives", "influence", "conspire"})),
}


def flow_steps(data: Mapping[str, object]) -> list[str]:
    """The names of every step a rules file's ``flow:`` lists (as written)."""
    flow = data.get("flow")
    found: list[str] = []
    if not isinstance(flow, dict):
        return found
    places: list[object] = [flow.get("setup")]
    for section in ("turn", "round"):
        part = flow.get(section)
        if isinstance(part, dict):
            places += [part.get(key) for key in ("start", "after", "after_card")]
    for items in places:
        for raw in items if isinstance(items, list) else ():
            name = raw if isinstance(raw, str) else next(iter(raw), None) \
                if isinstance(raw, dict) else None
            if isinstance(name, str):
                found.append(name)
    return found


def flow_dealt_kinds(data: Mapping[str, object]) -> set[str]:
    """The token kinds the flow's steps deal (``kind:`` of a step that deals tokens)."""
    found: set[str] = set()
    flow = data.get("flow")
    setup = flow.get("setup") if isinstance(flow, dict) else None
    for raw in setup if isinstance(setup, list) else ():
        if isinstance(raw, dict) and len(raw) == 1:
            name, value = next(iter(raw.items()))
            add = FLOW_ADDS.get(str(name))
            if add is not None and add.deals and isinstance(value, dict) \
                    and isinstance(value.get("kind"), str):
                found.add(value["kind"])
    return found


def with_flow(caps: Capabilities, data: Mapping[str, object]) -> Capabilities:
    """``caps`` with what the mechanisms the rules file's flow selects run (:data:`FLOW_ADDS`)."""
    adds = [FLOW_ADDS[name] for name in flow_steps(data) if name in FLOW_ADDS]
    if not adds:
        return caps
    effects, abilities = set(caps.effects), set(caps.abilities)
    kept, drafted = set(caps.kept_counts), set(caps.draft_events)
    for add in adds:
        effects |= add.effects
        abilities |= add.abilities
        kept |= add.kept_counts
        drafted |= add.draft_events
    return replace(caps, effects=frozenset(effects), abilities=frozenset(abilities),
                   kept_counts=frozenset(kept), draft_events=frozenset(drafted))


def _event_refusal(caps: Capabilities, word: str, events: frozenset[str], moment: str,
                   unannounced: str) -> str | None:
    """Why effect ``word`` does not act at a trigger the loop announces running ``events``
    (``unannounced``: what to say when it runs none; None: it acts)."""
    if not events:
        return unannounced
    if word not in events:
        return (f"'{word}' cannot act {moment} in the {caps.offer} game loop (it runs "
                f"{', '.join(sorted(events))} then)")
    return None


def _leader_constructs(caps: Capabilities, clause: fx.Clause) -> str | None:
    """Why the loop does not run a set count, a token or buy trigger, or a paid discount
    in ``clause`` (None: it runs them, or the clause has none)."""
    if not caps.set_counts and _counts_sets(clause):
        return f"'per set of …' is not counted by the {caps.offer} game loop"
    effect, trigger = clause.effect, clause.trigger
    word = EFFECT_WORDS[type(effect)]
    if trigger is not None and trigger.event.endswith(TOKEN_EVENT):
        kind = trigger.event[:-len(TOKEN_EVENT)]
        words = caps.token_events.get(kind)
        refused = _event_refusal(
            caps, word, words or frozenset(), f"when a {kind} token arrives",
            f"'on {kind} token:' is not announced by the {caps.offer} game loop "
            + ("(no token arrives there)" if not caps.token_events else
               f"(it announces {', '.join(sorted(caps.token_events))} tokens)"))
        if refused is not None:
            return refused
    if trigger is not None and trigger.event == BUY_EVENT and not caps.trade_events:
        return f"'on buy:' is not announced by the {caps.offer} game loop"
    if trigger is not None and trigger.event == BANK_EVENT:
        refused = _event_refusal(caps, word, caps.bank_events, "when coins come from the bank",
                                 f"'on bank coins:' is not announced by the {caps.offer} game "
                                 "loop")
        if refused is not None:
            return refused
    if isinstance(effect, fx.Shields) and effect.each is not None and not caps.counted_shields:
        return (f"'shields … per …' (shields counted at each battle) is not run by the "
                f"{caps.offer} game loop")
    if (isinstance(effect, fx.Discount) and effect.unit == "resources" and effect.price
            and not caps.paid_discounts):
        return f"a discount 'for N coins' is not offered by the {caps.offer} game loop"
    return None


def _kept_counts(effect: fx.Effect) -> list[str]:
    """The counts the game keeps (``per age``, ``per influence``) an effect's amounts read."""
    found: list[str] = []
    for name in ("amount", "each"):
        value = getattr(effect, name, None)
        if isinstance(value, fx.Amount):
            found += [t.counted.name for t in value.terms if isinstance(t.counted, fx.CountKept)]
    return found


def _agora_constructs(caps: Capabilities, clause: fx.Clause) -> str | None:
    """Why the loop does not run a watching or sale trigger, a count the game keeps, a
    price lowered by a number of coins, or a discount that may waive a cost's coins (None:
    it runs them, or the clause has none)."""
    effect, trigger = clause.effect, clause.trigger
    word = EFFECT_WORDS[type(effect)]
    if trigger is not None and trigger.watches and not caps.watched_triggers:
        return (f"'on … in {', '.join(trigger.places)}:' (other cities' builds) is not "
                f"announced by the {caps.offer} game loop")
    if trigger is not None and trigger.event == SELL_EVENT:
        refused = _event_refusal(caps, word, caps.sell_events, "when a card is sold",
                                 f"'on sell:' is not announced by the {caps.offer} game loop")
        if refused is not None:
            return refused
    if trigger is not None and trigger.event == ADVANCE_EVENT:
        refused = _event_refusal(caps, word, caps.advance_events,
                                 "when the conflict pawn advances",
                                 f"'on {ADVANCE_EVENT}:' is not announced by the "
                                 f"{caps.offer} game loop (it has no conflict pawn that "
                                 "shields push)")
        if refused is not None:
            return refused
    for name in _kept_counts(effect):
        if name not in caps.kept_counts:
            return (f"'per {name}' is not kept by this game"
                    + (" (it needs a board of chambers: flow step lay_chambers)"
                       if name == "influence" else f" ({caps.offer} game loop)"))
    if isinstance(effect, fx.TradePrice) and effect.less and (effect.places
                                                              or not caps.trade_less):
        return (f"'buy … at N coins less' lowers the bank's price, which the {caps.offer} "
                "game loop does not sell at" if not caps.trade_less else
                "'buy … at N coins less' lowers the price whoever sells asks: write it "
                "without 'from PLACES'")
    if isinstance(effect, fx.Discount) and effect.or_coins and not caps.or_coin_discounts:
        return (f"'discount … or every coin' is not offered by the {caps.offer} game loop")
    return None


def _draft_refusal(caps: Capabilities, clause: fx.Clause) -> str | None:
    """Why an ``on draft:`` clause does not play (None: it does): no wonder draft, an effect
    the pick does not run, or one the loop does not run once (its ``now:`` form)."""
    word = EFFECT_WORDS[type(clause.effect)]
    if not caps.draft_events:
        return (f"'on draft:' acts as a wonder is picked in a wonder draft, which the "
                f"{caps.offer} game loop does not hold (flow step draft_wonders)")
    if word not in caps.draft_events:
        return (f"'{word}' cannot act as a wonder is picked in the wonder draft (it runs "
                f"{', '.join(sorted(caps.draft_events))} then)")
    return refusal(caps, fx.Clause(NOW, clause.effect, None, clause.condition))


def _counts_sets(clause: fx.Clause) -> bool:
    """Whether the clause counts ``set of … cards`` (in its amount or its condition)."""
    amounts: list[object] = [getattr(clause.effect, "amount", None),
                             getattr(clause.effect, "each", None)]
    if clause.condition is not None:
        amounts.append(clause.condition.amount)
    return any(isinstance(term.counted, (fx.CountSets, fx.CountScienceSets))
               for amount in amounts if isinstance(amount, fx.Amount) for term in amount.terms)


def _frequency_refusal(caps: Capabilities, effect: fx.Ability) -> str | None:
    """Why the loop does not run the ability with its frequency (None: it does)."""
    allowed = caps.frequencies.get(effect.name, _UNLIMITED)
    if effect.once_per in allowed:
        return None
    forms = [" ".join(filter(None, ("ability", effect.name, frequency_text(once))))
             for once in sorted(allowed, key=lambda f: ("", "game", "age").index(f or ""))]
    moment = {_ONCE: " (it acts once, when its card, stage or space comes into play)",
              _UNLIMITED: ""}.get(allowed, "")
    return (f"ability '{effect.name}' does not act '{frequency_text(effect.once_per)}' in the "
            f"{caps.offer} game loop{moment}: write {' or '.join(repr(f) for f in forms)}")


def refusal_code(caps: Capabilities, clause: fx.Clause) -> tuple[str, str] | None:
    """:func:`refusal` with its code: M906 for an ability's frequency, M902 for another
    ability, M901 for the rest (None: the clause plays as written)."""
    why = refusal(caps, clause)
    if why is None:
        return None
    effect = clause.effect
    if not isinstance(effect, fx.Ability):
        return ("M901", why)
    return ("M906" if why == _frequency_refusal(caps, effect) else "M902", why)


def capabilities(offer: str) -> Capabilities | None:
    """The catalogue entry of the loop that plays ``offer`` (None: no such loop)."""
    return LOOPS.get(offer)


def refusal(caps: Capabilities, clause: fx.Clause) -> str | None:
    """Why ``clause`` does not play in the loop (None: it plays as written)."""
    effect = clause.effect
    word = EFFECT_WORDS[type(effect)]
    if isinstance(effect, fx.Either):   # (each side as a clause of its own)
        if (word, clause.timing) not in caps.effects:
            return f"'EFFECT or EFFECT' (a choice) is not asked by the {caps.offer} game loop"
        for side in (effect.first, effect.second):
            why = refusal(caps, fx.Clause(clause.timing, side, clause.trigger, clause.condition))
            if why is not None:
                return why
        return None
    condition = clause.condition
    if condition is not None and condition.kind not in caps.conditions:
        written = "if wonder complete" if condition.kind == "wonder" else "if at least …"
        reason = (" (its cities have no single board to complete)"
                  if condition.kind == "wonder" and not caps.boards else "")
        return (f"the condition '{written}' is not checked by the {caps.offer} game loop"
                f"{reason}")
    trigger = clause.trigger
    if trigger is not None and trigger.event == DRAFT_EVENT:
        return _draft_refusal(caps, clause)
    why = _leader_constructs(caps, clause) or _agora_constructs(caps, clause)
    if why is not None:
        return why
    if trigger is not None and trigger.event.endswith(TOKEN_EVENT):
        return None
    if isinstance(effect, fx.LoseCoins) and effect.debt is not None:
        if not caps.debt_choice:
            return (f"'loses … or {effect.debt} tokens' asks each losing city a choice, which "
                    f"the {caps.offer} game loop does not ask")
        if trigger is not None and trigger.event.endswith(PERIOD_END):
            return (f"'loses … or {effect.debt} tokens' asks a choice, which cannot wait at "
                    "the end of a period")
        if trigger is not None and trigger.event.endswith(PERIOD_START):
            return (f"'loses … or {effect.debt} tokens' asks a choice, which cannot wait at "
                    "the start of a period")
    for suffix, moment, announced in ((PERIOD_END, "end", caps.period_ends),
                                      (PERIOD_START, "start", caps.period_starts)):
        if trigger is None or not trigger.event.endswith(suffix):
            continue
        period = trigger.event[:-len(suffix)]
        words = announced.get(period)
        if not words:
            return (f"'on {period} {moment}:' is not announced by the {caps.offer} game loop "
                    "(no trigger fires then)")
        if word not in words:
            return (f"'{word}' cannot act at the {moment} of an {period} in the {caps.offer} "
                    f"game loop (it runs {', '.join(sorted(words))} then)")
        return None
    if isinstance(effect, fx.TakeToken) and not effect.pool and not caps.counter_tokens:
        return (f"'take N {effect.kind} tokens' (without a pool) is not run by the "
                f"{caps.offer} game loop")
    if isinstance(effect, fx.Produce) and effect.relative and not caps.relative_production:
        return (f"'produce any {effect.relative}' is not worked out by the {caps.offer} game "
                "loop")
    if isinstance(effect, fx.Discount) and effect.cities and not caps.shared_discounts:
        return (f"'discount … in {', '.join(effect.cities)}' is not taken off other cities' "
                f"costs by the {caps.offer} game loop")
    if isinstance(effect, fx.Discount) and effect.target == "trade":
        return None if caps.trade_discounts else (
            f"'discount … on trade' is not taken off the price of neighbours by the "
            f"{caps.offer} game loop")
    if isinstance(effect, fx.Discount) and effect.every:
        return None if caps.whole_discounts else (
            f"'discount every resource' is not run by the {caps.offer} game loop")
    if isinstance(effect, fx.Discount) and effect.unit == "coins":  # (always ongoing)
        return None if caps.coin_discounts else (
            f"'discount … coins' is not taken off costs by the {caps.offer} game loop")
    if isinstance(effect, fx.TradePrice):
        if effect.places:
            wrong = [p for p in effect.places if p not in caps.buy_places]
            if wrong:
                if not caps.buy_places:
                    return (f"'buy … from {', '.join(effect.places)}' needs neighbours to buy "
                            f"from; this rule set offers cards by {caps.offer} and trades with "
                            "the bank (write 'buy … at N', the price whoever sells)")
                return (f"'buy … from {', '.join(wrong)}': resources are bought from "
                        f"{', '.join(sorted(caps.buy_places))} in this game")
        elif not caps.buy_anyone:
            return "'buy … at N' without 'from PLACES' has no seller in this game"
        return None
    if isinstance(effect, fx.Ability):
        if effect.name not in caps.abilities:
            return (f"ability '{effect.name}' is not implemented by the {caps.offer} game loop "
                    f"(it implements {', '.join(sorted(caps.abilities))})")
        if effect.colours is not None and effect.name not in caps.scoped_abilities:
            return (f"ability '{effect.name}' cannot be limited to cards of some colours in "
                    f"the {caps.offer} game loop"
                    + (f" (only {', '.join(sorted(caps.scoped_abilities))} can)"
                       if caps.scoped_abilities else ""))
        return _frequency_refusal(caps, effect)
    if (word, clause.timing) in caps.effects:
        return None
    why = caps.refused.get(word)
    if why is not None:
        return why
    needs = next((add.why for add in FLOW_ADDS.values() if add.why and any(
        w == word for w, _ in add.effects)), "")
    if needs:
        return f"'{word}' is not run by this flow: {needs}"
    timing = {NOW: "now:", ON: "on …:", END: "end:", ONGOING: "ongoing"}[clause.timing]
    return (f"'{word}' with timing {timing} is not run by the {caps.offer} game loop "
            "(this rule set offers cards by " + caps.offer + ")")


__all__ = ["Capabilities", "DRAFT_EVENT", "EFFECT_WORDS", "LOOPS", "NEXT_AGE", "PERIOD_END",
           "PERIOD_START", "capabilities", "frequency_text", "refusal", "refusal_code"]
