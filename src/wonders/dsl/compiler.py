"""Check an effect AST against a vocabulary and compile it to effect objects.

The compiler is where a card meets a game: every name is looked up in the rule
set's vocabulary (with a "did you mean" for near misses), and every timing is
checked against what the effect can do (``now: produce wood`` has no meaning).
All problems of one string are collected, not just the first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from wonders.dsl import ast
from wonders.dsl import effects as fx
from wonders.dsl.errors import EffectSyntaxError, Problem, closest
from wonders.dsl.formula import Formula, FormulaNode
from wonders.dsl.parser import parse_cost, parse_effects, parse_formula
from wonders.dsl.vocabulary import Vocabulary

# Which timings each effect accepts, the first being its default.
_TIMINGS: dict[type, tuple[fx.Timing, ...]] = {
    ast.Produce: (fx.Timing.ONGOING,),
    ast.Shields: (fx.Timing.ONGOING, fx.Timing.NOW, fx.Timing.ON),
    ast.Science: (fx.Timing.ONGOING,),
    ast.Trade: (fx.Timing.ONGOING,),
    ast.Ability: (fx.Timing.ONGOING,),
    ast.Points: (fx.Timing.END,),
    ast.Coins: (fx.Timing.NOW, fx.Timing.ON),
    ast.Copy: (fx.Timing.END, fx.Timing.NOW),
    ast.Replay: (fx.Timing.NOW, fx.Timing.ON),
    ast.Lose: (fx.Timing.NOW, fx.Timing.ON),
    ast.Destroy: (fx.Timing.NOW,),
    ast.Take: (fx.Timing.NOW,),
    ast.Discount: (fx.Timing.ONGOING,),
    ast.Gain: (fx.Timing.NOW, fx.Timing.ON),
    ast.DrawReserve: (fx.Timing.NOW,),
    ast.BuildReserve: (fx.Timing.NOW,),
    ast.Give: (fx.Timing.NOW, fx.Timing.ON),
    ast.Influence: (fx.Timing.NOW, fx.Timing.ONGOING),   # ongoing: "influence bonus N" only
    ast.Conspire: (fx.Timing.NOW,),
    ast.TriggerHeld: (fx.Timing.NOW,),
    ast.Either: (fx.Timing.NOW,),
    ast.ActivationDiscount: (fx.Timing.ONGOING,),
    ast.Activate: (fx.Timing.NOW,),
    ast.TakeCard: (fx.Timing.NOW,),
    ast.MoveWonder: (fx.Timing.NOW,),
    ast.DiscardStructure: (fx.Timing.NOW,),
    ast.TrackPiece: (fx.Timing.NOW,),
    ast.ScienceOf: (fx.Timing.NOW,),
    ast.CoinsAside: (fx.Timing.NOW,),
    ast.ChainPrice: (fx.Timing.ONGOING,),
    ast.RemoveToken: (fx.Timing.NOW,),
    ast.BuildFree: (fx.Timing.NOW,),
    ast.Swap: (fx.Timing.NOW,),
}

#: The verbs of ``influence`` and what each needs: a count, a place (``in …``).
INFLUENCE_VERBS: dict[str, str] = {
    "place": "influence place N in any (or in a section)",
    "remove": "influence remove N in opponent",
    "move": "influence move N (or influence move decree)",
    "act": "influence act in SECTION",
    "bonus": "influence bonus N",
}

_EFFECT_WORD = {
    ast.Produce: "produce", ast.Shields: "shields", ast.Science: "science", ast.Trade: "buy",
    ast.Ability: "ability", ast.Points: "points", ast.Coins: "coins", ast.Copy: "copy",
    ast.Replay: "replay", ast.Lose: "loses", ast.Destroy: "destroy", ast.Take: "take",
    ast.Discount: "discount", ast.Gain: "gains", ast.DrawReserve: "draw",
    ast.BuildReserve: "build", ast.Give: "gives", ast.Influence: "influence",
    ast.Conspire: "conspire", ast.TriggerHeld: "trigger", ast.Either: "or",
    ast.ActivationDiscount: "discount",
    ast.Activate: "activate", ast.TakeCard: "take", ast.MoveWonder: "wonder",
    ast.DiscardStructure: "discard", ast.TrackPiece: "track", ast.ScienceOf: "science of",
    ast.CoinsAside: "coins aside", ast.ChainPrice: "build chain",
    ast.CoinsAside: "coins aside", ast.RemoveToken: "remove", ast.BuildFree: "build free",
    ast.Swap: "swap",
}


def effect_timings() -> dict[str, tuple[fx.Timing, ...]]:
    """Every effect word of the language with the timings it accepts (the first is what
    it means without one), in the order the compiler lists them."""
    return {_EFFECT_WORD[node]: timings for node, timings in _TIMINGS.items()}


_TIMING_WORD = {
    fx.Timing.ONGOING: "ongoing (written without a timing)",
    fx.Timing.NOW: "'now:' (once, when built)",
    fx.Timing.END: "'end:' (at final scoring)",
    fx.Timing.ON: "'on …:' (each time a later build sets it off)",
}

# The tokens of the conflict track, as "discard military token" names them.
MILITARY_TOKENS: tuple[str, ...] = ("military",)

# Where "activate KIND token from …" takes its item: the stacks' tops, or one whole stack.
ACTIVATE_SOURCES: tuple[str, ...] = ("tops", "deck")
#: Where ``build free … card from SOURCE`` builds from: the structure's bottom row, or
#: the cards set-up removed unseen
BUILD_FREE_SOURCES: tuple[str, ...] = ("last row", "removed")

# The place that stands for "the city with the most of what is counted": it only
# makes sense in a count ("per yellow card in most"), and alone there.
MOST = "most"
# The place, in the amount of a 'loses' (or a 'gives'), that stands for each losing city itself
# ("others loses 1 coin per victory token in them"): a word of the language, not of a
# rule set, and meaningless anywhere else.
THEM = "them"
# The counts a mechanism of the flow keeps, beside the rule set's periods ("per age"): the
# pieces a city has on a board of chambers ("per influence", flow step lay_chambers), the
# spaces the conflict pawn just moved ("per space", in an "on advance:" clause only).
KEPT_COUNTS: tuple[str, ...] = ("influence", "space")
# The count of an advance's spaces, and the trigger that sets it ("on advance:").
SPACE = "space"
ADVANCE = "advance"

# The moments an "on WORD:" clause may name by one word, with what each is: "on draft:" acts
# once, for the wonder's picker, as the wonder is picked in the wonder draft.
NAMED_EVENTS: dict[str, str] = {"draft": "a wonder picked in the wonder draft"}
DRAFT_EVENT = "draft"

# The end of a trigger event set off by a token's arrival ("on victory token:" is
# "victory_token"); mechanisms.TOKEN_EVENT says the same to the loops' catalogue.
TOKEN_EVENT = "_token"


@dataclass
class _Checker:
    vocabulary: Vocabulary
    problems: list[Problem] = field(default_factory=list)

    def problem(self, code: str, message: str, span: ast.Span,
                suggestion: str | None = None) -> None:
        self.problems.append(Problem(code, message, span.start, span.end, suggestion))

    def known(self, name: ast.Name, known: tuple[str, ...], code: str, what: str,
              extra: tuple[str, ...] = ()) -> bool:
        if name.text in known or name.text in extra:
            return True
        choices = known + extra
        listing = ", ".join(choices) if len(choices) <= 12 else ", ".join(choices[:12]) + ", …"
        hint = f"; the rule set declares: {listing}" if choices else "; the rule set declares none"
        self.problem(code, f"unknown {what} '{name.text}'{hint}", name.span,
                     closest(name.text, choices))
        return False

    def unique(self, names: tuple[ast.Name, ...], what: str) -> None:
        seen: set[str] = set()
        for name in names:
            if name.text in seen:
                self.problem("T404", f"{what} '{name.text}' is listed twice", name.span)
            seen.add(name.text)

    # --- names -----------------------------------------------------------------

    def resources(self, names: tuple[ast.Name, ...], categories: bool) -> tuple[str, ...]:
        result: list[str] = []
        extra = tuple(self.vocabulary.resource_categories) if categories else ()
        for name in names:
            if self.known(name, self.vocabulary.resources, "N301", "resource", extra):
                for resource in self.vocabulary.expand_resources(name.text) or ():
                    if resource not in result:
                        result.append(resource)
        return tuple(result)

    def colours(self, names: tuple[ast.Name, ...]) -> frozenset[str]:
        self.unique(names, "colour")
        return frozenset(n.text for n in names
                         if self.known(n, self.vocabulary.colours, "N302", "colour"))

    def places(self, names: tuple[ast.Name, ...], what: str | None = None) -> tuple[str, ...]:
        """Checked place names; ``what`` names an effect that acts on real cities, where
        ``most`` (only meaningful in a count) is refused."""
        self.unique(names, "place")
        for name in names:
            if name.text != MOST or MOST not in self.vocabulary.places:
                continue
            if what is not None:
                self.problem("T405", f"'{what}' acts on cities, and '{MOST}' is not one: it "
                             "only picks a city in a count ('per … in most')", name.span)
            elif len(names) > 1:
                self.problem("T405", f"'{MOST}' picks one city by its count; it cannot be "
                             "listed with other places", name.span)
        return tuple(n.text for n in names
                     if self.known(n, self.vocabulary.places, "N304", "place"))

    # --- amounts ---------------------------------------------------------------

    def amount(self, node: ast.Amount) -> fx.Amount:
        return self.amounts(node, False)[0]

    def amounts(self, node: ast.Amount, them: bool) -> tuple[fx.Amount, fx.Amount | None]:
        """The amount; with ``them`` (a 'loses'), split in two: the terms counted from the
        owner's city, and those counted ``in them``, in each losing city (None: none)."""
        fixed = 0
        terms: list[fx.PerTerm] = []
        each: list[fx.PerTerm] = []
        for term in node.terms:
            if isinstance(term, ast.Fixed):
                fixed += term.value
                continue
            if term.divisor == 0:
                self.problem("T403", "cannot count 'per 0' of anything", term.span)
            if term.value == 0:  # "loses 0 coins per …" (or a sum before "coins per")
                self.problem("T403", "0 per counted thing gives nothing (before 'coins "
                             "per …', write one number)", term.span)
            counted = self.counted(term.counted)
            if them and term.places and any(p.text == THEM for p in term.places):
                if len(term.places) > 1:
                    self.problem("T405", f"'{THEM}' (each losing city) cannot be listed with "
                                 "other places", term.places[0].span)
                each.append(fx.PerTerm(term.value, max(term.divisor, 1), counted, ("self",),
                                       term.up))
                continue
            places = self.places(term.places) if term.places else ("self",)
            if term.up and term.divisor <= 1:
                self.problem("T411", "'rounded up' rounds a count divided ('1 per 2 coins "
                             "rounded up'): without 'per N' nothing is divided", term.span)
            terms.append(fx.PerTerm(term.value, max(term.divisor, 1), counted, places,
                                    term.up))
        return fx.Amount(fixed, tuple(terms)), (fx.Amount(0, tuple(each)) if each else None)

    def counted(self, node: ast.Countable) -> fx.Counted:
        if isinstance(node, ast.CountCards):
            return fx.CountCards(self.colours(node.colours) if node.colours else None)
        if isinstance(node, ast.CountStages):
            return fx.CountStages()
        if isinstance(node, ast.CountTokens):
            self.known(node.kind, self.vocabulary.tokens, "N305", "token kind")
            return fx.CountTokens(node.kind.text)
        if isinstance(node, ast.CountSets):
            return fx.CountSets(tuple(sorted(self.colours(node.colours))))
        if isinstance(node, ast.CountScienceSets):
            return fx.CountScienceSets(tuple(self.vocabulary.science))
        if isinstance(node, ast.CountAsideCoins):
            return fx.CountAsideCoins()
        if isinstance(node, ast.CountKept):
            name = node.name.text
            if name in ("stage", "stages"):   # (a wonder's stages, not a count kept)
                self.problem("E202", f"unexpected '{name}' after 'per' (wonder stages are "
                             "counted as 'per wonder stage')", node.name.span, "wonder stage")
            elif name not in self.vocabulary.periods and name not in KEPT_COUNTS:
                known = tuple(self.vocabulary.periods) + KEPT_COUNTS
                self.problem("N312", f"unknown count '{name}': 'per NAME' counts a period's "
                             "number (the rule set's periods), influence (pieces on a board "
                             "of chambers) or space (the spaces of an 'on advance:'); known: "
                             f"{', '.join(known)}",
                             node.name.span, closest(name, known))
            return fx.CountKept(name)
        return fx.CountCoins()

    # --- effects ---------------------------------------------------------------

    def influence(self, node: ast.Influence) -> fx.Influence:
        """``influence VERB …``: the verb known, and the count and place it needs."""
        verb = node.verb.text
        if verb not in INFLUENCE_VERBS:
            self.problem("N311", f"unknown influence action '{verb}'; the language knows: "
                         + ", ".join(INFLUENCE_VERBS), node.verb.span,
                         closest(verb, list(INFLUENCE_VERBS)))
            return fx.Influence(verb)
        form = INFLUENCE_VERBS[verb]
        count = 1 if node.count is None else node.count
        what = node.what.text if node.what is not None else ""
        where = node.where.text if node.where is not None else ""
        wrong = ((verb in ("place", "remove") and (node.count is None or not where))
                 or (verb == "remove" and where != "opponent")
                 or (verb == "act" and (not where or node.count is not None or what))
                 or (verb == "bonus" and (node.count is None or where or what))
                 or (verb == "move" and (where or (what and what != "decree")))
                 or (verb != "move" and what != ""))
        if wrong:
            self.problem("T410", f"'influence {verb}' is written '{form}'", node.span)
        if node.count == 0:
            self.problem("T403", f"'influence {verb} 0' has no effect", node.span)
        return fx.Influence(verb, count, where, what)


    def remove_token(self, node: ast.RemoveToken) -> fx.RemoveToken:
        """``remove KIND token from SOURCES``: each source a token pool or a place."""
        self.known(node.kind, self.vocabulary.tokens, "N305", "token kind")
        self.unique(node.sources, "place")
        pools: list[str] = []
        places: list[str] = []
        known = self.vocabulary.pools + tuple(p for p in self.vocabulary.places if p != MOST)
        for name in node.sources:
            if name.text in self.vocabulary.pools:
                pools.append(name.text)
            elif name.text in self.vocabulary.places and name.text != MOST:
                places.append(name.text)
            else:
                self.problem("N316", f"unknown place to remove a token from '{name.text}'; "
                             "write a token pool or a place (the rule set declares: "
                             f"{', '.join(known) or 'none'})", name.span,
                             closest(name.text, known))
        return fx.RemoveToken(node.kind.text, tuple(pools), tuple(places))

    def effect(self, node: ast.Effect) -> fx.Effect:
        if isinstance(node, ast.Produce):
            if node.any_of is not None:
                known = tuple(self.vocabulary.resource_categories)
                resources: tuple[str, ...] = ()
                if self.known(node.any_of, known, "N301", "resource category"):
                    resources = self.vocabulary.resource_categories[node.any_of.text]
            else:
                self.unique(node.choices, "resource")
                resources = self.resources(node.choices, categories=False)
                if node.quantity > 1 and len(node.choices) > 1:
                    self.problem("T402", f"'produce {node.quantity}' needs a single resource; "
                                 "a choice produces one unit of one of them", node.span)
            if node.relative:
                if node.quantity > 1:
                    self.problem("T402", f"'produce {node.quantity} any {node.relative}' "
                                 "needs a single resource; a choice produces one unit",
                                 node.span)
                return fx.Produce((), 1, not node.unbuyable, node.relative)
            if node.quantity == 0:
                self.problem("T403", "producing 0 of something has no effect", node.span)
            return fx.Produce(resources, node.quantity, not node.unbuyable)
        if isinstance(node, (ast.Points, ast.Coins)):
            value = self.amount(node.amount)
            if value.is_fixed and value.fixed == 0:
                word = "points" if isinstance(node, ast.Points) else "coins"
                self.problem("T403", f"{word} 0 has no effect", node.span)
            if isinstance(node, ast.Points):
                if node.negative:  # "points -2 per …": every part of the amount taken away
                    value = fx.Amount(-value.fixed, tuple(
                        fx.PerTerm(-t.value, t.divisor, t.counted, t.places, t.up)
                        for t in value.terms))
                return fx.Points(value)
            return fx.Coins(value)
        if isinstance(node, ast.Shields):
            shields = self.amount(node.amount)
            if shields.is_fixed and shields.fixed == 0:
                self.problem("T403", "0 shields has no effect", node.span)
            if shields.is_fixed:
                return fx.Shields(shields.fixed)
            # "shields 1 per defeat token": counted whenever the shields are
            return fx.Shields(shields.fixed, fx.Amount(0, shields.terms))
        if isinstance(node, ast.Science):
            if node.any:
                return fx.Science(self.vocabulary.science)
            self.unique(node.symbols, "science symbol")
            return fx.Science(tuple(
                s.text for s in node.symbols
                if self.known(s, self.vocabulary.science, "N303", "science symbol")))
        if isinstance(node, ast.Trade):
            self.unique(node.resources, "resource")
            if node.less and node.price == 0:
                self.problem("T403", "a price 0 coins less changes nothing", node.span)
            return fx.TradePrice(frozenset(self.resources(node.resources, categories=True)),
                                 self.places(node.places, "buy"), node.price, node.less)
        if isinstance(node, ast.Replay):
            return fx.Replay()
        if isinstance(node, ast.Lose):
            places = self.places(node.places, "loses")
            value, each = self.amounts(node.amount, True)
            if value.is_fixed and value.fixed == 0 and each is None:
                self.problem("T403", "losing 0 coins has no effect", node.span)
            debt = None
            if node.debt is not None:
                if self.known(node.debt, self.vocabulary.tokens, "N305", "token kind"):
                    debt = node.debt.text
            return fx.LoseCoins(places, value, each, debt)
        if isinstance(node, ast.Gain):
            places = self.places(node.places, "gains")
            value = self.amount(node.amount)
            if value.is_fixed and value.fixed == 0:
                self.problem("T403", "gaining 0 coins has no effect", node.span)
            return fx.GainCoins(places, value)
        if isinstance(node, ast.Give):
            places = self.places(node.places, "gives")
            value, each = self.amounts(node.amount, True)
            if value.is_fixed and value.fixed == 0 and each is None:
                self.problem("T403", "giving 0 coins has no effect", node.span)
            if node.debt is not None:  # a city gives what it has: nothing to pay in tokens
                self.problem("T409", f"'gives … or {node.debt.text} tokens': a city gives the "
                             "coins it has (up to the amount), it never owes the rest; write "
                             "'PLACES loses N coins or KIND tokens' for a debt to the bank",
                             node.debt.span)
            if "self" in places:
                self.problem("T409", "'self gives …': the owner cannot give coins to itself",
                             next(n.span for n in node.places if n.text == "self"))
            return fx.GiveCoins(places, value, each)
        if isinstance(node, ast.Influence):
            return self.influence(node)
        if isinstance(node, ast.Conspire):
            return fx.Conspire()
        if isinstance(node, ast.TriggerHeld):
            self.known(node.kind, self.vocabulary.tokens, "N305", "token kind")
            return fx.TriggerHeld(node.kind.text)
        if isinstance(node, ast.Either):
            for side in (node.first, node.second):
                if fx.Timing.NOW not in _TIMINGS[type(side)] or isinstance(side, ast.Either):
                    self.problem("T401", f"'{_EFFECT_WORD[type(side)]}' cannot be chosen with "
                                 "'or': each side acts once, at once", side.span)
            return fx.Either(self.effect(node.first), self.effect(node.second))
        if isinstance(node, ast.Destroy):
            return fx.Destroy(self.colours(node.colours), self.places(node.places, "destroy"))
        if isinstance(node, ast.Take):
            self.known(node.kind, self.vocabulary.tokens, "N305", "token kind")
            if node.pool is None:  # "take N KIND tokens": counters from the supply
                if node.count == 0:
                    self.problem("T403", "taking 0 tokens has no effect", node.span)
                return fx.TakeToken(node.kind.text, "", None, node.count)
            self.known(node.pool, self.vocabulary.pools, "N309", "token pool")
            if node.draw == 0:
                self.problem("T403", "'draw 0' draws nothing to choose from", node.span)
            return fx.TakeToken(node.kind.text, node.pool.text, node.draw)
        if isinstance(node, ast.Discount):
            if node.count == 0 and not node.every:
                self.problem("T403", "a discount of 0 has no effect", node.span)
            cities: tuple[str, ...] = ()
            if node.cities:
                cities = self.places(node.cities, "discount")
                if node.target == "trade" or node.every or node.unit != "coins":
                    self.problem("T407", "'… in PLACES' lowers the coins of other cities' "
                                 "costs: write 'discount N coins on COLOURS cards in "
                                 "PLACES' (or 'on wonder in PLACES')", node.span)
            if node.target == "trade":
                if node.unit != "coins":
                    self.problem("T407", "a discount on trade is in coins, the price paid to "
                                 "a neighbour: write 'discount N coins on trade from …'",
                                 node.span)
                return fx.Discount(node.count, "trade", None, "coins",
                                   places=self.places(node.places, "discount"))
            if node.or_coins:   # "discount 1 resource or every coin on …"
                if node.target != "card":
                    self.problem("T413", "'… or every coin' chooses between resources and the "
                                 "coins of a cost: write it on cards ('… on yellow card')",
                                 node.span)
                return fx.Discount(node.count, node.target if node.target != "trade" else
                                   "card", self.colours(node.colours) if node.colours else
                                   None, "resources", or_coins=True)
            if node.every:
                if node.target == "wonder":
                    return fx.Discount(0, "wonder", None, "resources", True)
                return fx.Discount(0, "card", self.colours(node.colours) if node.colours
                                   else None, "resources", True)
            if node.price and node.unit != "resources":
                self.problem("T408", "only a discount of resources can cost coins ('discount "
                             "1 resource on cards for 1 coin'); a coin discount for coins "
                             "changes nothing", node.span)
            if node.target == "wonder":
                return fx.Discount(node.count, "wonder", None, node.unit, price=node.price,
                                   cities=cities)
            return fx.Discount(node.count, "card",
                               self.colours(node.colours) if node.colours else None, node.unit,
                               price=node.price, cities=cities)
        if isinstance(node, ast.ActivationDiscount):
            if node.count == 0:
                self.problem("T403", "a discount of 0 has no effect", node.span)
            return fx.ActivationDiscount(node.count, node.once)
        if isinstance(node, ast.Activate):
            self.known(node.kind, self.vocabulary.tokens, "N305", "token kind")
            if node.source.text not in ACTIVATE_SOURCES:
                self.problem("N310", f"unknown place to activate from '{node.source.text}'; "
                             "write 'tops' (the top of every stack) or 'deck' (one stack, "
                             "seen whole)", node.source.span,
                             closest(node.source.text, ACTIVATE_SOURCES))
            return fx.Activate(node.kind.text, node.source.text)
        if isinstance(node, ast.TakeCard):
            return fx.TakeCard(self.colours(node.colours), self.places(node.places, "take"))
        if isinstance(node, ast.ChainPrice):
            return fx.ChainPrice(node.coins)
        if isinstance(node, ast.RemoveToken):
            return self.remove_token(node)
        if isinstance(node, ast.BuildFree):
            if node.source.text not in BUILD_FREE_SOURCES:
                self.problem("N317", f"unknown place to build a free card from "
                             f"'{node.source.text}'; write 'last row' (the structure's bottom "
                             "row) or 'removed' (the cards removed unseen at set-up)",
                             node.source.span, closest(node.source.text, BUILD_FREE_SOURCES))
            return fx.BuildFree(self.colours(node.colours) if node.colours else None,
                                node.source.text)
        if isinstance(node, ast.Swap):
            places = self.places(node.places, "swap")
            for name in node.places:
                if name.text == "self":   # (a city swapping with itself changes nothing)
                    self.problem("T417", "'swap … with self' changes nothing: a card is "
                                 "swapped with another city's (write another place)",
                                 name.span)
            return fx.Swap(self.colours(node.colours), tuple(p for p in places if p != "self"))
        if isinstance(node, ast.CoinsAside):
            value = self.amount(node.amount)
            if value.is_fixed and value.fixed == 0:
                self.problem("T403", "coins 0 aside has no effect", node.span)
            return fx.CoinsAside(value)
        if isinstance(node, ast.ScienceOf):
            return fx.CopyScience(self.colours(node.colours),
                                  self.places(node.places, "science of"))
        if isinstance(node, ast.MoveWonder):
            places = self.places(node.places, node.verb) if node.places else ()
            return fx.MoveWonder(node.verb, places)
        if isinstance(node, ast.DiscardStructure):
            if node.upto < 0:   # "up to 0"
                self.problem("T403", "discarding up to 0 cards has no effect", node.span)
            return fx.DiscardStructure(node.accessible, max(node.upto, 0))
        if isinstance(node, ast.TrackPiece):
            if node.kind is not None:   # (the conflict track's tokens: 'military')
                self.known(node.kind, MILITARY_TOKENS, "N305", "token kind")
            return fx.TrackPiece(node.verb)
        if isinstance(node, (ast.DrawReserve, ast.BuildReserve)):
            if node.count == 0:
                word = "drawing" if isinstance(node, ast.DrawReserve) else "building"
                self.problem("T403", f"{word} 0 reserve cards has no effect", node.span)
            if isinstance(node, ast.DrawReserve):
                return fx.DrawReserve(node.count)
            return fx.BuildReserve(node.count)
        if isinstance(node, ast.Ability):
            self.known(node.name, self.vocabulary.abilities, "N306", "ability")
            once_per = None
            if node.per is not None:
                if node.per.text == "game":
                    once_per = "game"
                elif self.known(node.per, self.vocabulary.periods, "N308", "period",
                                extra=("game",)):
                    once_per = node.per.text
            elif node.once:
                once_per = "game"
            return fx.Ability(node.name.text, once_per,
                              self.colours(node.colours) if node.colours else None)
        assert isinstance(node, ast.Copy)
        return fx.CopyCard(self.colours(node.colours), self.places(node.places, "copy"))

    def trigger(self, node: ast.Trigger) -> fx.Trigger:
        places = self.places(node.places, "on") if node.places else ("self",)
        if node.event == "card" and node.colours:
            return fx.Trigger("card", self.colours(node.colours), places)
        if node.event in ("card", "wonder"):
            return fx.Trigger(node.event, None, places)
        if node.event in ("end", "start"):  # "on age end:": the event is the period's name
            period = node.colours[0]
            self.known(period, self.vocabulary.periods, "N308", "period")
            return fx.Trigger(f"{period.text}_{node.event}")
        if node.event == "token":  # "on victory token:": the event names the kind
            kind = node.colours[0]
            self.known(kind, self.vocabulary.tokens, "N305", "token kind")
            return fx.Trigger(f"{kind.text}{TOKEN_EVENT}")
        if node.event == "named":  # "on draft:": one of the language's named moments
            word = node.colours[0]
            if word.text not in NAMED_EVENTS:
                known = ", ".join(f"'on {w}:' ({what})" for w, what in NAMED_EVENTS.items())
                vocabulary = self.vocabulary
                hint = (f"; for a build of a {word.text} card write 'on {word.text} card:'"
                        if word.text in vocabulary.colours else
                        f"; for a period write 'on {word.text} end:' or 'on {word.text} start:'"
                        if word.text in vocabulary.periods else
                        f"; for a token write 'on {word.text} token:'"
                        if word.text in vocabulary.tokens else "")
                self.problem("N320", f"unknown moment 'on {word.text}:'; a moment named by "
                             f"one word is {known} (or 'on sell:', 'on buy:', 'on chain:')"
                             f"{hint}", word.span,
                             closest(word.text, (*NAMED_EVENTS, "sell", "buy", "chain",
                                                 "wonder", "card")))
            return fx.Trigger(word.text)
        return fx.Trigger(node.event)

    def clause(self, node: ast.Clause) -> fx.Clause:
        allowed = _TIMINGS[type(node.effect)]
        timing = allowed[0]
        trigger = None
        named = (node.trigger.colours[0].text if node.trigger is not None
                 and node.trigger.event == "named" else None)
        drafted = named == DRAFT_EVENT
        if named is not None and named not in NAMED_EVENTS:
            self.trigger(node.trigger)  # type: ignore[arg-type]  # (N320: no timing to check)
        elif drafted and fx.Timing.NOW not in allowed:
            # "on draft:" acts once, as "now:" does: only an effect with a now-form has it
            assert node.timing_span is not None
            self.problem("T421", f"'on draft:' acts once, as the wonder is picked: "
                         f"'{_EFFECT_WORD[type(node.effect)]}' has no such form (it is "
                         f"{' or '.join(_TIMING_WORD[t] for t in allowed)})", node.timing_span)
        elif drafted:
            timing = fx.Timing.ON
            trigger = self.trigger(node.trigger)  # type: ignore[arg-type]
        elif node.timing is not None:
            wanted = fx.Timing(node.timing)
            if wanted in allowed:
                timing = wanted
            else:
                word = _EFFECT_WORD[type(node.effect)]
                can = " or ".join(_TIMING_WORD[t] for t in allowed)
                written = "on …:" if wanted is fx.Timing.ON else f"{node.timing}:"
                assert node.timing_span is not None
                self.problem("T401", f"'{written}' does not apply to '{word}': it is "
                             f"{'always ' if len(allowed) == 1 else ''}{can}", node.timing_span)
            if node.trigger is not None:
                trigger = self.trigger(node.trigger)
        if timing is not fx.Timing.ON:
            trigger = None
        effect = self.effect(node.effect)
        kept = [n for n in kept_counts(effect)
                if n in self.vocabulary.periods or n in KEPT_COUNTS]
        if timing in (fx.Timing.END, fx.Timing.ONGOING) and kept:
            self.problem("T412", f"'per {kept[0]}' is a count the flow keeps "
                         "while the game is played: it is read when a clause acts "
                         "('now:' or 'on …:'), never for the game or at the final scoring",
                         node.span)
        in_play = timing in (fx.Timing.NOW, fx.Timing.ON)   # (else T412 above)
        if in_play and SPACE in kept and (trigger is None or trigger.event != ADVANCE):
            self.problem("T414", f"'per {SPACE}' counts the spaces the conflict pawn has just "
                         f"moved: it is read in an 'on {ADVANCE}:' clause only ('on {ADVANCE}: "
                         f"opponent loses 1 coin per {SPACE}')", node.span)
        elif in_play and SPACE in kept and not _counted_in_self(effect, SPACE):
            self.problem("T414", f"'per {SPACE}' counts the owner's own advance: write it "
                         f"without 'in PLACES' (the spaces of the owner's push)", node.span)
        if isinstance(effect, fx.Influence):   # "influence bonus N" lasts; the rest act once
            lasting = effect.verb == "bonus"
            if lasting and node.timing is None:
                timing = fx.Timing.ONGOING
            elif lasting != (timing is fx.Timing.ONGOING):
                self.problem("T401", f"'influence {effect.verb}' is "
                             + ("ongoing (written without a timing)" if lasting else
                                "'now:' (once, when it arrives)"), node.span)
        condition = None
        if node.condition is not None:
            condition = self.condition(node.condition)
            if timing is fx.Timing.ONGOING:
                self.problem("T406", "a condition ('if …') is checked when a clause acts: "
                             "give it a timing ('now:', 'end:' or 'on …:'); an ongoing "
                             f"'{_EFFECT_WORD[type(node.effect)]}' has none",
                             node.condition.span)
            elif isinstance(effect, fx.CopyCard):
                self.problem("T406", "'copy' cannot have a condition: the copy is chosen "
                             + ("when the card arrives" if timing is fx.Timing.NOW
                                else "for the best score"), node.condition.span)
        return fx.Clause(timing, effect, trigger, condition)

    def condition(self, node: ast.Condition) -> fx.Condition:
        if node.kind == "wonder":
            return fx.Condition("wonder")
        assert node.counted is not None
        if node.count == 0:
            self.problem("T403", "'if at least 0 …' always holds: leave the condition out",
                         node.span)
        places = self.places(node.places) if node.places else ("self",)
        counted = fx.Amount(0, (fx.PerTerm(1, 1, self.counted(node.counted), places),))
        if isinstance(node.counted, ast.CountKept):
            self.problem("T412", "a condition counts what a city holds; 'if at least N "
                         f"{node.counted.name.text}' names a count the flow keeps: write "
                         "the count in the amount ('coins 1 per …')", node.span)
        return fx.Condition("at_least", node.count, counted)


def _counted_in_self(effect: fx.Effect, name: str) -> bool:
    """Whether every term of ``effect``'s amounts that reads the kept count ``name`` counts
    it in the owner's city (``per space``, not ``per space in opponent``)."""
    for field_name in ("amount", "each"):
        value = getattr(effect, field_name, None)
        if isinstance(value, fx.Amount):
            for t in value.terms:
                if (isinstance(t.counted, fx.CountKept) and t.counted.name == name
                        and t.places != ("self",)):
                    return False
    if isinstance(effect, fx.Either):
        return (_counted_in_self(effect.first, name)
                and _counted_in_self(effect.second, name))
    return True


def kept_counts(effect: fx.Effect) -> list[str]:
    """The names of the counts the flow keeps (``per age``, ``per influence``) an effect's
    amounts read (none: [])."""
    found: list[str] = []
    for name in ("amount", "each"):
        value = getattr(effect, name, None)
        if isinstance(value, fx.Amount):
            found += [t.counted.name for t in value.terms if isinstance(t.counted, fx.CountKept)]
    if isinstance(effect, fx.Either):
        found += kept_counts(effect.first) + kept_counts(effect.second)
    return found


@dataclass
class Compiled:
    """The result of compiling one string: a value (possibly partial) and its problems."""

    value: object
    problems: list[Problem]

    @property
    def ok(self) -> bool:
        return not self.problems


_WORD = re.compile(r"[A-Za-z0-9_]+")


def _syntax_problem(exc: EffectSyntaxError) -> Problem:
    """The problem spans the unexpected word (E202), else the one character at the error."""
    end = exc.offset + 1
    if exc.code in ("E202", "E204"):
        word = _WORD.match(exc.text, exc.offset)
        if word is not None:
            end = word.end()
    return Problem(exc.code, exc.message, exc.offset, end, exc.suggestion)


def compile_effects(text: str, vocabulary: Vocabulary) -> tuple[fx.Effects, list[Problem]]:
    """Parse and compile an effect string; problems carry offsets into ``text``."""
    try:
        tree = parse_effects(text)
    except EffectSyntaxError as exc:
        return fx.NO_EFFECTS, [_syntax_problem(exc)]
    checker = _Checker(vocabulary)
    clauses = tuple(checker.clause(c) for c in tree.clauses)
    return fx.Effects(clauses, text.strip()), checker.problems


def compile_cost(text: str, vocabulary: Vocabulary) -> tuple[fx.Cost, list[Problem]]:
    """Parse and compile a cost string (``2 stone, 1 loom``, ``1 coin``, ``free``)."""
    try:
        tree = parse_cost(text)
    except EffectSyntaxError as exc:
        return fx.FREE, [_syntax_problem(exc)]
    checker = _Checker(vocabulary)
    coins = 0
    counts: dict[str, int] = {}
    for item in tree.items:
        if item.count == 0:
            checker.problem("T403", "a cost of 0 is not a cost; leave the item out", item.span)
        if item.resource is None:
            coins += item.count
        elif checker.known(item.resource, vocabulary.resources, "N301", "resource"):
            if item.resource.text in counts:
                checker.problem("T404", f"resource '{item.resource.text}' is listed twice; "
                                "write the total once", item.resource.span)
            counts[item.resource.text] = counts.get(item.resource.text, 0) + item.count
    return fx.Cost(coins, tuple(counts.items())), checker.problems


def compile_formula(text: str, vocabulary: Vocabulary) -> tuple[Formula, list[Problem]]:
    """Parse a formula (``players + 2``) and check its variables."""
    try:
        tree = parse_formula(text)
    except EffectSyntaxError as exc:
        return Formula(text, 0), [_syntax_problem(exc)]
    checker = _Checker(vocabulary)

    def convert(node: ast.Expression) -> FormulaNode:
        if isinstance(node, ast.Number):
            return node.value
        if isinstance(node, ast.Variable):
            checker.known(node.name, vocabulary.variables, "N307", "variable")
            return node.name.text
        return (node.op, convert(node.left), convert(node.right))

    return Formula(text.strip(), convert(tree)), checker.problems
