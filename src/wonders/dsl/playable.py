"""Check loaded data against what its game loop runs (:mod:`.mechanisms`): "valid means
it plays as written".

The loader calls :func:`check_playable` once the cards, wonders and tokens are
built.  Every finding is an error located at the exact text: the clause inside an
``effect:`` string, the key or list item of the rules file.  The codes (M901–M905)
are documented in ``docs/errors.md``:

* M901: an effect or timing the loop does not run (``replay`` in a drafting game, a
  ``discount`` with neighbour trading, ``buy … from left`` with bank trading), and
  rule effects it does not run (``sell`` gives or takes coins; ``treasury`` scores
  points);
* M902: an ability the loop does not implement (in ``vocabulary: abilities`` or in
  an effect);
* M903: a token pool nothing fills, a ``take`` from a pool that never holds that
  kind, tokens of a kind ``setup: tokens`` does not deal (see
  :mod:`wonders.engine.pools` for how pools are dealt);
* M904: fewer wonder boards than players at the rule set's maximum player count,
  where the loop deals one board to each player;
* M905: a slot mechanism the loop does not play with, or a rule-set key it never
  reads (``turns: next_age`` in a drafting game; ``science: pair`` without science
  pairs).
"""

from __future__ import annotations

from typing import Any, Callable, Final, Iterator, Sequence

from wonders.dsl import effects as fx
from wonders.dsl.errors import Diagnostic, EffectSyntaxError, Report, Severity, closest
from wonders.dsl.flow_model import PRICED_ROW, check_flow, has_extra_offer
from wonders.dsl.mechanisms import (
    DRAFT_EVENT,
    EFFECT_WORDS,
    FLOW_ADDS,
    PERIOD_END,
    PERIOD_START,
    TOKEN_EVENT,
    Capabilities,
    capabilities,
    flow_dealt_kinds,
    refusal_code,
    with_flow,
)
from wonders.dsl.model import Game
from wonders.dsl.parser import parse_effects
from wonders.dsl.source import Document, PathKey
from wonders.dsl.values import as_list as _list
from wonders.dsl.values import as_map as _map

Compiled = Callable[[str], "fx.Effects | None"]
DRAFT_STEP: Final = "draft_wonders"   # the flow's wonder draft, where "on draft:" acts


def _mechanism(data: dict[str, Any], slot: str) -> tuple[str | None, PathKey]:
    """The mechanism a rule set names for a slot (None: the default) and where."""
    value = data.get(slot)
    if isinstance(value, dict) and isinstance(value.get("mechanism"), str):
        return value["mechanism"], (slot, "mechanism")
    if isinstance(value, str):
        return value, (slot,)
    return None, (slot,)


def offer_of(data: dict[str, Any]) -> str:
    chosen, _ = _mechanism(data, "offer")
    return chosen or "draft"


def playable(caps: Capabilities, data: dict[str, Any]) -> bool:
    """Whether the rule set is a game its loop can set up, rather than a vocabulary to
    check cards against: a drafting rule set deals hands (``ages: hand``), a structure
    rule set lays out cards (``offer: layouts``).  Only a playable rule set is checked
    against what its loop runs (the others cannot be played at all)."""
    if caps.boards:
        return "hand" in _map(data.get("ages"))
    return "layouts" in _map(data.get("offer"))


def effect_paths(doc: Document, kind: str) -> Iterator[PathKey]:
    """Every ``effect:``-like string of a card, wonder or token file."""
    data = doc.data
    if kind == "cards":
        for i, _ in enumerate(_list(data.get("cards"))):
            yield ("cards", i, "effect")
    elif kind == "tokens":
        for i, _ in enumerate(_list(data.get("tokens"))):
            yield ("tokens", i, "effect")
    elif kind == "wonders":
        for i, item in enumerate(_list(data.get("wonders"))):
            item = _map(item)
            if "sides" not in item:
                yield ("wonders", i, "effect")
                continue
            for side, side_data in _map(item.get("sides")).items():
                yield ("wonders", i, "sides", side, "start")
                for j, _ in enumerate(_list(_map(side_data).get("stages"))):
                    yield ("wonders", i, "sides", side, "stages", j, "effect")


#: the flow steps that put tokens into play, as M903 names them: by kind, or by name
TOKEN_STEPS: Final = ", ".join(
    [f"{name}: kind" for name, add in sorted(FLOW_ADDS.items()) if add.deals]
    + ["lay_structure_tokens: kind", "stack_decks: decks", "fill_row: token"])

class _Checker:
    def __init__(self, game: Game, rules: Document, caps: Capabilities, compiled: Compiled,
                 report: Report) -> None:
        self.game = game
        self.rules = rules
        self.caps = caps
        self.compiled = compiled
        self.report = report
        self.filled: dict[str, set[str]] = {}  # pool -> the token kinds it ever holds
        self.dealt_kinds: set[str] = set()
        self.age: int | None = None  # the age of the card whose clauses are checked (if any)
        # whether the rest of the data is valid: what depends on all of it (pools, boards)
        # is checked only then (a misspelt name would make a pool or a board look unused)
        self.clean = True

    def clauses(self, doc: Document, path: PathKey,
                refuse: Callable[[fx.Clause], tuple[str, str] | tuple[str, str, Severity]
                                 | None]) -> None:
        """Report each clause of the effect string at ``path`` that ``refuse`` refuses
        (with a code and a message), located at the clause."""
        text = doc.get(path)
        if not isinstance(text, str):
            return
        effects = self.compiled(text)
        if effects is None:
            return
        found = [(i, refuse(clause)) for i, clause in enumerate(effects.clauses)]
        found = [(i, why) for i, why in found if why is not None]
        if not found:
            return
        try:
            spans = [c.span for c in parse_effects(text).clauses]
        except EffectSyntaxError:  # compiled before, so it parses
            return
        for i, why in found:
            assert why is not None
            span = spans[i]
            severity = why[2] if len(why) == 3 else Severity.ERROR
            self.report.add(Diagnostic(why[0], why[1], doc.string_location(path, span.start),
                                       severity=severity, text=text[span.start:span.end]))

    def in_play(self, clause: fx.Clause) -> tuple[str, str] | tuple[str, str, Severity] | None:
        found = refusal_code(self.caps, clause)
        if found is not None:
            return found
        effect = clause.effect
        trade = self.game.rules.model.trade
        if (isinstance(effect, fx.TradePrice) and self.caps.fixed_trade_price
                and effect.price > trade.price):
            return ("M907", f"'buy … at {effect.price}' never acts: the rule set's trade price "
                    f"is {trade.price} (trade.price) and a city always pays the cheaper price, "
                    f"so a price above it changes nothing (write 'at {trade.price - 1}' or "
                    "less to lower it)" if trade.price > 0 else
                    f"'buy … at {effect.price}' never acts: the rule set's trade price is 0")
        if (isinstance(effect, (fx.ActivationDiscount, fx.Activate))
                and not has_extra_offer(self.game.rules.model.flow, PRICED_ROW)):
            word = ("activate" if isinstance(effect, fx.Activate)
                    else "discount … on activation")
            return ("M901", f"'{word}' needs a priced row to activate from (the flow's "
                    f"'turn: offer: [structure, {{{PRICED_ROW}: …}}]'): this rule set has none")
        if (isinstance(effect, (fx.DrawReserve, fx.BuildReserve))
                and self.game.rules.model.reserve.colour is None):
            word = EFFECT_WORDS[type(effect)]
            return ("M901", f"'{word} N reserve cards' needs the rule set's reserve "
                    "('reserve: {colour: …}'): this rule set has none")
        if isinstance(effect, fx.TakeToken) and effect.pool and self.clean and \
                effect.kind not in self.filled.get(effect.pool, set()):
            return ("M903", f"no {effect.kind} token is ever in pool '{effect.pool}': "
                    f"{self.pool_reason(effect.pool)}")
        early = self.before_its_step(clause)
        if early is not None:
            return ("M912", early)
        never = self.never_acts(clause)  # (last: a warning never hides an error)
        if never is not None:
            return ("M908", never, Severity.WARNING)
        return None

    def before_its_step(self, clause: fx.Clause) -> str | None:
        """Why an ``on draft:`` clause would act before its mechanism is set up (None: it
        would not): the step that lays what it acts on comes after ``draft_wonders`` in
        ``flow.setup``, so the draft's picks would find no board or stack."""
        if clause.trigger is None or clause.trigger.event != DRAFT_EVENT:
            return None
        flow = _map(self.rules.data.get("flow"))
        setup = [raw if isinstance(raw, str) else next(iter(raw), None)
                 if isinstance(raw, dict) else None for raw in _list(flow.get("setup"))]
        if DRAFT_STEP not in setup:
            return None
        before = setup[:setup.index(DRAFT_STEP)]
        word = EFFECT_WORDS[type(clause.effect)]
        for name, add in FLOW_ADDS.items():
            if name in setup and name not in before and any(w == word for w, _ in add.effects):
                return (f"'on draft: {word}' acts as a wonder is picked, but flow step "
                        f"'{name}' comes after '{DRAFT_STEP}' in flow.setup: list it before "
                        f"'{DRAFT_STEP}' (what the draft acts on is laid first)")
        return None

    def never_acts(self, clause: fx.Clause) -> str | None:
        """Why a clause of a card of ``self.age`` can never act, in a loop that runs it
        (None: it can): ``on age start:`` on a card of the last age (it is built after
        that age has started), shields that arrive after the last battle they could
        count in (``on age end: shields 2`` on a card of the last age)."""
        age = self.age
        if age is None or age < 1:  # (a wonder stage, a token, a leader: built in any age)
            return None
        model = self.game.rules.model
        last = model.ages.count
        event = clause.trigger.event if clause.trigger is not None else ""
        if event.endswith(PERIOD_START) and event[:-len(PERIOD_START)] == "age" and age >= last:
            return (f"'on age start:' never acts on a card of age {age}: the card is built "
                    f"once its age has started, and no age follows the last ({last}); "
                    "write 'now:' for an effect when it is built")
        if isinstance(clause.effect, fx.Shields) and model.military.mechanism == "battles":
            battles = model.military.battles
            after = event.endswith(PERIOD_END) or event.endswith(TOKEN_EVENT)
            first = age + 1 if after else age  # (an age's end and its tokens follow its battles)
            fought = [a for a in range(1, last + 1) if battles.fought_in(a)]
            if not any(a >= first for a in fought):
                when = ("at the end of an age (after its battles)"
                        if event.endswith(PERIOD_END) else
                        "with a token (given after an age's battles)" if after else "")
                held = f"that arrive {when} " if when else ""
                final = (f"the last battles are fought at the end of age {fought[-1]}"
                         if fought else "no age ends in battles (military.ages)")
                return (f"shields {held}on a card of age {age} count in no battle: {final}")
        return None

    def sale(self, clause: fx.Clause) -> tuple[str, str] | None:
        word = EFFECT_WORDS[type(clause.effect)]
        if clause.timing is fx.Timing.NOW and word in ("coins", "loses"):
            return None
        return ("M901", f"a sale gives or takes coins: '{word}' in 'sell' is not run "
                "(write 'coins …' or 'PLACES loses … coins')")

    def treasury(self, clause: fx.Clause) -> tuple[str, str] | None:
        if isinstance(clause.effect, fx.Points):
            return None
        word = EFFECT_WORDS[type(clause.effect)]
        return ("M901", f"the treasury scores points: '{word}' in 'treasury' is not run "
                "(write 'points 1 per 3 coins')")

    # --- token pools -------------------------------------------------------------

    def deal_pools(self) -> None:
        """Which token kinds each pool ever holds, dealt as the engine deals them."""
        vocabulary = self.game.rules.vocabulary
        setup = _map(self.rules.data.get("setup"))
        kinds = _map(setup.get("tokens"))
        self.filled = {}
        self.dealt_kinds = set(kinds) | flow_dealt_kinds(self.rules.data)
        for kind, counts in kinds.items():
            counts = _map(counts)
            for pool, count in counts.items():
                if isinstance(count, int) and count > 0:
                    self.filled.setdefault(pool, set()).add(kind)
            reserve = next((p for p in vocabulary.pools if p not in counts), None)
            if reserve is not None:  # where the rest of the kind goes, however many
                self.filled.setdefault(reserve, set()).add(kind)

        flow = self.game.rules.model.flow
        self.placed: set[str] = set()  # tokens a flow step puts into play by name
        if flow is not None:
            for step in (*flow.setup, *flow.round_start):
                laid_kind = step.arguments.get("kind")
                if step.name == "lay_structure_tokens" and isinstance(laid_kind, str):
                    self.dealt_kinds.add(laid_kind)
                elif step.name == "stack_decks":
                    for names in _map(step.arguments.get("decks")).values():
                        self.placed.update(str(n) for n in _list(names))
                elif step.name == "fill_row":
                    self.placed.add(str(step.arguments.get("token")))

    def check_row_names(self) -> None:
        """M909 for a token a priced row's step names that is not loaded (with "did you
        mean"), or of another kind than the step's."""
        flow = _map(self.rules.data.get("flow"))
        tokens = {t.name: t for t in self.game.tokens}
        names = sorted(tokens)
        steps: list[tuple[PathKey, Any]] = [
            (("flow", "setup", i), raw) for i, raw in enumerate(_list(flow.get("setup")))]
        steps += [(("flow", "round", "start", i), raw) for i, raw
                  in enumerate(_list(_map(flow.get("round")).get("start")))]
        offer = _map(flow.get("turn")).get("offer")
        steps += [(("flow", "turn", "offer", i), raw) for i, raw
                  in enumerate(offer if isinstance(offer, list) else [])]
        for path, raw in steps:
            if not isinstance(raw, dict) or len(raw) != 1:
                continue
            name, given = next(iter(raw.items()))
            given = _map(given)
            base = path + (name,)
            named: list[tuple[PathKey, Any, str | None]] = []
            if name == "stack_decks":
                kind = given.get("kind")
                for deck, items in _map(given.get("decks")).items():
                    named += [(base + ("decks", deck, j), n, kind)
                              for j, n in enumerate(_list(items))]
                named += [(base + ("deck_tokens", n), n, None)
                          for n in _map(given.get("deck_tokens"))]
                decks = _map(given.get("decks"))
                for n, deck in _map(given.get("deck_tokens")).items():
                    if deck not in decks:
                        self.report.add(Diagnostic(
                            "M909", f"deck token '{n}' names stack '{deck}', which "
                            f"stack_decks does not lay (it lays {', '.join(decks) or 'none'})",
                            self.rules.location(base + ("deck_tokens", n)), text=str(deck),
                            suggestion=closest(str(deck), [str(d) for d in decks])))
            elif name == "fill_row":
                named.append((base + ("token",), given.get("token"), None))
            elif name == "priced_row":
                named += [(base + ("double", j), n, None)
                          for j, n in enumerate(_list(given.get("double")))]
            for where, item, kind in named:
                token = tokens.get(str(item))
                if token is None:
                    key = where[-2] == "deck_tokens"
                    self.report.add(Diagnostic(
                        "M909", f"step '{name}' names token '{item}', which is not loaded",
                        self.rules.location(where, key=key), text=str(item),
                        suggestion=closest(str(item), names)))
                elif kind is not None and token.kind != kind:
                    self.report.add(Diagnostic(
                        "M909", f"step '{name}' stacks {kind} tokens, but '{item}' is a "
                        f"{token.kind} token", self.rules.location(where), text=str(item)))

    def pool_reason(self, pool: str) -> str:
        held = sorted(self.filled.get(pool, ()))
        if held:
            return f"setup.tokens deals only {', '.join(held)} tokens there"
        return ("setup.tokens deals no tokens into it (each kind fills the pools it names, "
                "the rest go to the first declared pool it does not name)")

    def check_pools(self) -> None:
        vocabulary = self.game.rules.vocabulary
        doc = self.rules
        for i, pool in enumerate(vocabulary.pools):
            if pool not in self.filled:
                self.report.add(Diagnostic(
                    "M903", f"token pool '{pool}' is never filled: {self.pool_reason(pool)}",
                    doc.location(("vocabulary", "pools", i)), text=pool))
        for token in self.game.tokens:
            if token.kind not in self.dealt_kinds and token.name not in self.placed:
                self.report.add(Diagnostic(
                    "M903", f"token '{token.name}' never comes into play: setup.tokens does not "
                    f"deal {token.kind} tokens into a pool, nor a flow step ({TOKEN_STEPS})",
                    token.location, text=token.name))

    # --- the rules file ----------------------------------------------------------

    def check_rules(self) -> None:
        caps, doc, data = self.caps, self.rules, self.rules.data
        for slot in ("turns", "trade", "military", "science"):
            if slot in data and slot not in caps.slots:
                self.report.add(Diagnostic(
                    "M905", f"{slot} is never read: the {caps.offer} game has no {slot} "
                    "mechanism to play it with (its flow: says how turns go)",
                    doc.location((slot,), key=True), text=slot))
        for slot, allowed in caps.slots.items():
            chosen, path = _mechanism(data, slot)
            if chosen is not None and chosen not in allowed:
                self.report.add(Diagnostic(
                    "M905", f"{slot} mechanism '{chosen}' does not play with offer "
                    f"'{caps.offer}': that game loop plays {slot} by "
                    f"{' or '.join(allowed)}", doc.location(path), text=chosen))
        turns = _map(data.get("turns"))
        if "next_age" in turns:
            value = turns["next_age"]
            if not caps.next_age:
                self.report.add(Diagnostic(
                    "M905", f"turns.next_age is never read: with offer '{caps.offer}' every "
                    "age starts with everyone at once, nobody chooses a first player",
                    doc.location(("turns", "next_age"), key=True), text="next_age"))
            elif value not in caps.next_age:
                self.report.add(Diagnostic(
                    "M905", f"turns.next_age '{value}' is not a way the {caps.offer} loop "
                    f"chooses who starts an age ({', '.join(caps.next_age)})",
                    doc.location(("turns", "next_age")), text=str(value)))
        military = _map(data.get("military"))
        chosen, _ = _mechanism(data, "military")
        if "sit_out" in military and (chosen or caps.slots.get("military", ("",))[0]) != "battles":
            self.report.add(Diagnostic(
                "M905", "military.sit_out is never read: only neighbour battles "
                "(military: {mechanism: battles}) let a token's holder sit one out",
                doc.location(("military", "sit_out"), key=True), text="sit_out"))
        if "ages" in military and (chosen or caps.slots.get("military", ("",))[0]) != "battles":
            self.report.add(Diagnostic(
                "M905", "military.ages is never read: only neighbour battles "
                "(military: {mechanism: battles}) happen at the end of chosen ages",
                doc.location(("military", "ages"), key=True), text="ages"))
        if "reserve" in data and not caps.reserve:
            self.report.add(Diagnostic(
                "M905", f"reserve is never read: the {caps.offer} game loop has no reserve "
                "draft before Age I and no reserve turns", doc.location(("reserve",), key=True),
                text="reserve"))
        science = _map(data.get("science"))
        chosen, _ = _mechanism(data, "science")
        if "pair" in science and (chosen or caps.slots.get("science", ("",))[0]) != "pairs":
            self.report.add(Diagnostic(
                "M905", "science.pair is never read: only science by pairs "
                "(science: {mechanism: pairs}) gives something for a pair",
                doc.location(("science", "pair"), key=True), text="pair"))
        rules = self.game.rules
        # (a load without any board checks cards only: there is no game to set up)
        if self.clean and caps.boards and 0 < len(self.game.wonders) < rules.max_players:
            self.report.add(Diagnostic(
                "M904", f"{len(self.game.wonders)} wonder boards are loaded, but each of up to "
                f"{rules.max_players} players needs one (players.max): load more boards or "
                "lower players.max", doc.location(("players", "max")),
                text=str(rules.max_players)))
        self.clauses(doc, ("sell",), self.sale)
        self.clauses(doc, ("treasury",), self.treasury)
        self.clauses(doc, ("science", "pair"), self.in_play)


def _check_abilities(game: Game, rules: Document, caps: Capabilities, report: Report) -> None:
    """M902 for each ability of ``vocabulary: abilities`` the loop does not implement (in
    every rule set of the loop, a vocabulary-only one included: a card may name it)."""
    for i, ability in enumerate(game.rules.vocabulary.abilities):
        if ability not in caps.abilities:
            report.add(Diagnostic(
                "M902", f"ability '{ability}' is not implemented by the {caps.offer} game "
                f"loop (it implements {', '.join(sorted(caps.abilities))})",
                rules.location(("vocabulary", "abilities", i)), text=ability,
                suggestion=closest(ability, caps.abilities)))


def check_playable(game: Game, rules: Document, docs: Sequence[tuple[Document, str]],
                   compiled: Compiled, report: Report, clean: bool = True) -> None:
    """Report everything in ``game`` that its game loop does not run (see the module);
    ``clean`` False: the data has other errors, so only what does not depend on the rest
    of it (each clause that compiled, the rules file's keys)."""
    caps = capabilities(offer_of(rules.data))
    if caps is None:
        return
    caps = with_flow(caps, rules.data)
    check_flow(rules, report, caps.offer)
    if playable(caps, rules.data) or not caps.boards:  # (a rule set without boards: always)
        _check_abilities(game, rules, caps, report)
    if not playable(caps, rules.data):
        if clean and caps.boards and game.wonders:
            # boards are loaded, so a game is meant to be set up (as for M904), but a
            # drafting rule set without ``ages.hand`` is only a vocabulary: no age can be
            # dealt, and ``play`` would stop at once
            named = "mechanism" in _map(rules.data.get("offer"))
            report.add(Diagnostic(
                "D601", f"the {caps.offer} loop deals each player a hand every age, but "
                f"ages.hand is missing (offer.mechanism is {caps.offer}"
                f"{'' if named else ', the default'}): add 'hand: N' under ages, or name "
                "the offer mechanism the rule set is for",
                rules.location(("ages",), key=True) if "ages" in rules.data
                else rules.location(())))
        return
    checker = _Checker(game, rules, caps, compiled, report)
    checker.clean = clean
    checker.deal_pools()
    checker.check_rules()
    if clean:
        checker.check_pools()
        checker.check_row_names()
    for doc, kind in docs:
        for path in effect_paths(doc, kind):
            index = path[1]
            age = (_map(_list(doc.data.get("cards"))[index]).get("age")
                   if kind == "cards" and isinstance(index, int) else None)
            checker.age = age if isinstance(age, int) and not isinstance(age, bool) else None
            checker.clauses(doc, path, checker.in_play)
        checker.age = None


__all__ = ["check_playable", "effect_paths", "offer_of"]
