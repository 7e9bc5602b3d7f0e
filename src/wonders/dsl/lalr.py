"""The effect language's Lark side: the LALR parser, the parse tree → AST transformer, and
syntax errors in a designer's words.

One LALR parser is built once per process from ``effects.lark`` and shared; parse errors
become :class:`EffectSyntaxError` with a stable code, the offending text, what was
expected in words a designer reads, and a "did you mean" when a misspelt keyword is close
to an expected one.  :mod:`wonders.dsl.parser` is the front the rest of the package calls:
it imports this module (and Lark) only for a text it has not parsed before.
"""

from __future__ import annotations

import re
import sys
from functools import lru_cache
from typing import Any, Callable, TypeVar, cast

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from wonders.dsl import ast
from wonders.dsl.errors import EffectSyntaxError, closest
from wonders.dsl.parser import MAX_DIGITS, MAX_NUMBER, START_RULES, grammar_text

# How terminals defined by a regular expression are named in messages.
_TERMINAL_WORDS = {
    "NAME": "a name",
    "INT": "a number",
    "CARDS": "'card'",
    "STAGES": "'stage'",
    "TOKENS": "'token'",
    "COINS": "'coin'",
    "RESOURCES": "'resource'",
    "WONDER": "'wonder'",
    "$END": "the end of the text",
}


@lru_cache(maxsize=1)
def _lark() -> Lark:
    return Lark(grammar_text(), parser="lalr", start=list(START_RULES),
                propagate_positions=True, maybe_placeholders=False)


def keywords() -> list[str]:
    """Every reserved word of the language (they cannot be used as names)."""
    words = set()
    for terminal in _lark().terminals:
        if terminal.pattern.type == "str" and terminal.pattern.value.isalpha():
            words.add(terminal.pattern.value)
    words.update({"card", "cards", "stage", "stages", "token", "tokens", "coin", "coins",
                  "resource", "resources", "wonder", "wonders", "produced", "unproduced"})
    return sorted(words)


def _span(item: Any) -> ast.Span:
    if isinstance(item, Token):
        start = item.start_pos or 0
        return ast.Span(start, item.end_pos if item.end_pos is not None else start)
    meta = item
    if getattr(meta, "empty", False):
        return ast.Span(0, 0)
    return ast.Span(meta.start_pos, meta.end_pos)


def _name(token: Token) -> ast.Name:
    # interned like the YAML loader's strings: the same name is then the same object
    return ast.Name(sys.intern(str(token)), _span(token))


def _names(tree: Tree[Any]) -> tuple[ast.Name, ...]:
    return tuple(_name(t) for t in tree.children if isinstance(t, Token))


F = TypeVar("F", bound=Callable[..., Any])


def _coins_per(children: list[Any]) -> ast.Amount:
    """The amount of a 'loses'/'gains' (children: places, amount, COINS, then perhaps a
    ``coins_per``): "2 coins", or "1 coin per victory token in them" (the amount's single
    number for each counted thing: a per-term)."""
    amount: ast.Amount = children[1]
    per = next((c for c in children[2:] if isinstance(c, ast.Per)), None)
    if per is None:
        return amount
    value = amount.terms[0]
    number = value.value if len(amount.terms) == 1 and isinstance(value, ast.Fixed) else 0
    return ast.Amount((ast.Per(number, per.divisor, per.counted, per.places, per.span,
                               per.up),), amount.span)


def _trigger_places(children: list[Any]) -> tuple[ast.Name, ...]:
    """The places of an ``on … in PLACES:`` trigger (the last child, a tuple; none: ())."""
    last = children[-1] if len(children) > 1 else None
    return last if isinstance(last, tuple) else ()


def _up(children: list[Any]) -> tuple[list[Any], bool]:
    """The children without a trailing ``rounded up`` marker, and whether there was one."""
    if children and children[-1] is _ROUNDED_UP:
        return children[:-1], True
    return children, False


_ROUNDED_UP: Any = object()   # what the ``rounded`` rule leaves among its parent's children


def _meta(fn: F) -> F:
    return cast(F, v_args(meta=True)(fn))


class _ToAst(Transformer[Token, Any]):
    """Lark tree → typed AST, in the style of Lark's ``create_ast`` example."""

    # lists of names are kept as trees until their parent decides what they are
    def name_alternatives(self, children: list[Token]) -> tuple[ast.Name, ...]:
        return tuple(_name(t) for t in children)

    name_list = name_alternatives
    place_list = name_alternatives

    def place_clause(self, children: list[Any]) -> tuple[ast.Name, ...]:
        return children[0]  # type: ignore[no-any-return]

    @_meta
    def effects(self, meta: Any, children: list[ast.Clause]) -> ast.Effects:
        return ast.Effects(tuple(children), _span(meta))

    @_meta
    def clause(self, meta: Any, children: list[Any]) -> ast.Clause:
        condition = None
        if children and isinstance(children[-1], ast.Condition):
            condition = children.pop()
        if len(children) == 2:
            (timing, timing_span, trigger), effect = children
            return ast.Clause(timing, timing_span, effect, _span(meta), trigger, condition)
        return ast.Clause(None, None, children[0], _span(meta), None, condition)

    @_meta
    def cond_wonder(self, meta: Any, children: list[Any]) -> ast.Condition:
        return ast.Condition("wonder", 0, None, (), _span(meta))

    @_meta
    def cond_at_least(self, meta: Any, children: list[Any]) -> ast.Condition:
        places = children[2] if len(children) > 2 else ()
        return ast.Condition("at_least", int(children[0]), children[1], places, _span(meta))

    @_meta
    def timing_now(self, meta: Any, children: list[Token]) -> tuple[str, ast.Span, None]:
        return "now", _span(meta), None

    @_meta
    def timing_end(self, meta: Any, children: list[Token]) -> tuple[str, ast.Span, None]:
        return "end", _span(meta), None

    @_meta
    def timing_on(self, meta: Any, children: list[Any]) -> tuple[str, ast.Span, ast.Trigger]:
        return "on", _span(meta), children[1]

    @_meta
    def trigger_cards(self, meta: Any, children: list[Any]) -> ast.Trigger:
        return ast.Trigger("card", children[0], _span(meta), _trigger_places(children))

    @_meta
    def trigger_any_card(self, meta: Any, children: list[Any]) -> ast.Trigger:
        return ast.Trigger("card", (), _span(meta), _trigger_places(children))

    @_meta
    def trigger_wonder(self, meta: Any, children: list[Any]) -> ast.Trigger:
        return ast.Trigger("wonder", (), _span(meta), _trigger_places(children))

    @_meta
    def trigger_sell(self, meta: Any, children: list[Any]) -> ast.Trigger:
        return ast.Trigger("sell", (), _span(meta))

    @_meta
    def trigger_advance(self, meta: Any, children: list[Any]) -> ast.Trigger:
        return ast.Trigger("advance", (), _span(meta))

    @_meta
    def trigger_named(self, meta: Any, children: list[Any]) -> ast.Trigger:
        # "on draft:": the word is checked against the language's named moments
        return ast.Trigger("named", (_name(children[0]),), _span(meta))

    @_meta
    def trigger_chain(self, meta: Any, children: list[Any]) -> ast.Trigger:
        return ast.Trigger("chain", (), _span(meta))

    @_meta
    def trigger_tokens(self, meta: Any, children: list[Any]) -> ast.Trigger:
        # "on victory token:": the kind is checked against the vocabulary's tokens
        return ast.Trigger("token", (_name(children[0]),), _span(meta))

    @_meta
    def trigger_buy(self, meta: Any, children: list[Any]) -> ast.Trigger:
        return ast.Trigger("buy", (), _span(meta))

    @_meta
    def trigger_bank(self, meta: Any, children: list[Any]) -> ast.Trigger:
        # "on bank coins:": the owner takes coins from the bank (once per turn at most)
        return ast.Trigger("bank_coins", (), _span(meta))

    @_meta
    def trigger_period_end(self, meta: Any, children: list[Any]) -> ast.Trigger:
        # the period's name is checked against the vocabulary's periods by the compiler
        return ast.Trigger("end", (_name(children[0]),), _span(meta))

    @_meta
    def trigger_period_start(self, meta: Any, children: list[Any]) -> ast.Trigger:
        # "on age start:": the period's name is checked by the compiler
        return ast.Trigger("start", (_name(children[0]),), _span(meta))

    @_meta
    def produce(self, meta: Any, children: list[Any]) -> ast.Produce:
        quantity = 1
        unbuyable = False
        choices: tuple[ast.Name, ...] = ()
        any_of = None
        relative = ""
        for child in children:
            if isinstance(child, Token) and child.type == "INT":
                quantity = int(child)
            elif isinstance(child, Token) and child.type == "UNBUYABLE":
                unbuyable = True
            elif isinstance(child, ast.Name):
                any_of = child
            elif isinstance(child, str):
                relative = child
            else:
                choices = child
        return ast.Produce(quantity, choices, any_of, unbuyable, _span(meta), relative)

    def choice_names(self, children: list[Any]) -> tuple[ast.Name, ...]:
        return children[0]  # type: ignore[no-any-return]

    def choice_any(self, children: list[Token]) -> ast.Name:
        return _name(children[1])

    def choice_produced(self, children: list[Token]) -> str:
        return "produced"

    def choice_unproduced(self, children: list[Token]) -> str:
        return "unproduced"

    @_meta
    def points(self, meta: Any, children: list[Any]) -> ast.Points:
        return ast.Points(children[-1], _span(meta), len(children) > 1)

    @_meta
    def coins(self, meta: Any, children: list[Any]) -> ast.Coins:
        return ast.Coins(children[0], _span(meta))

    @_meta
    def coins_aside(self, meta: Any, children: list[Any]) -> ast.CoinsAside:
        return ast.CoinsAside(children[0], _span(meta))

    @_meta
    def shields(self, meta: Any, children: list[Any]) -> ast.Shields:
        return ast.Shields(children[0], _span(meta))

    @_meta
    def science_symbols(self, meta: Any, children: list[Any]) -> ast.Science:
        return ast.Science(children[0], False, _span(meta))

    @_meta
    def science_any(self, meta: Any, children: list[Any]) -> ast.Science:
        return ast.Science((), True, _span(meta))

    @_meta
    def science_of(self, meta: Any, children: list[Any]) -> ast.ScienceOf:
        return ast.ScienceOf(children[0], children[2], _span(meta))

    @_meta
    def trade(self, meta: Any, children: list[Any]) -> ast.Trade:
        places: tuple[ast.Name, ...] = ()
        rest = children[1:]
        if isinstance(rest[0], tuple):
            places, rest = rest[0], rest[1:]
        less = any(isinstance(c, Token) and c.type == "LESS" for c in rest)
        return ast.Trade(children[0], places, int(rest[0]), _span(meta), less)

    @_meta
    def ability(self, meta: Any, children: list[Any]) -> ast.Ability:
        name = _name(children[0])
        colours: tuple[ast.Name, ...] = ()
        if len(children) > 1 and isinstance(children[-1], list):
            colours = tuple(children.pop()[0])
        if len(children) == 1:
            return ast.Ability(name, False, None, _span(meta), colours)
        once, per = children[1]
        return ast.Ability(name, once, per, _span(meta), colours)

    def ability_scope(self, children: list[Any]) -> list[Any]:
        return [children[0]]  # a list: told apart from the frequency's tuple

    def once_per(self, children: list[Token]) -> tuple[bool, ast.Name]:
        return True, _name(children[0])

    def once(self, children: list[Token]) -> tuple[bool, None]:
        return True, None

    @_meta
    def copy(self, meta: Any, children: list[Any]) -> ast.Copy:
        return ast.Copy(children[0], children[2], _span(meta))

    @_meta
    def replay(self, meta: Any, children: list[Any]) -> ast.Replay:
        return ast.Replay(_span(meta))

    @_meta
    def lose(self, meta: Any, children: list[Any]) -> ast.Lose:
        debt = children[-1] if isinstance(children[-1], ast.Name) else None
        return ast.Lose(children[0], _coins_per(children), _span(meta), debt)

    def lose_or(self, children: list[Token]) -> ast.Name:
        return _name(children[0])

    @_meta
    def gain(self, meta: Any, children: list[Any]) -> ast.Gain:
        return ast.Gain(children[0], _coins_per(children), _span(meta))

    @_meta
    def give(self, meta: Any, children: list[Any]) -> ast.Give:
        debt = children[-1] if isinstance(children[-1], ast.Name) else None
        return ast.Give(children[0], _coins_per(children), _span(meta), debt)

    @_meta
    def coins_per(self, meta: Any, children: list[Any]) -> ast.Per:
        children, up = _up(children)
        divisor = int(children[0]) if isinstance(children[0], Token) else 1
        rest = children[1:] if isinstance(children[0], Token) else children
        places = rest[1] if len(rest) > 1 else ()
        return ast.Per(0, divisor, rest[0], places, _span(meta), up)

    @_meta
    def either(self, meta: Any, children: list[Any]) -> ast.Either:
        return ast.Either(children[0], children[1], _span(meta))

    @_meta
    def influence(self, meta: Any, children: list[Any]) -> ast.Influence:
        verb = _name(children[0])
        count: int | None = None
        what: ast.Name | None = None
        where: ast.Name | None = None
        for child in children[1:]:
            if isinstance(child, ast.Name):   # (the "in …" part: influence_where)
                where = child
            elif child.type == "INT":
                count = int(child)
            else:
                what = _name(child)
        return ast.Influence(verb, count, what, where, _span(meta))

    def influence_where(self, children: list[Token]) -> ast.Name:
        return _name(children[0])

    @_meta
    def conspire(self, meta: Any, children: list[Any]) -> ast.Conspire:
        return ast.Conspire(_span(meta))

    @_meta
    def trigger_held(self, meta: Any, children: list[Any]) -> ast.TriggerHeld:
        return ast.TriggerHeld(_name(children[0]), _span(meta))

    @_meta
    def destroy(self, meta: Any, children: list[Any]) -> ast.Destroy:
        return ast.Destroy(children[0], children[2], _span(meta))

    @_meta
    def take(self, meta: Any, children: list[Any]) -> ast.Take:
        draw = children[3] if len(children) > 3 else None
        return ast.Take(_name(children[0]), _name(children[2]), draw, _span(meta))

    @_meta
    def take_counters(self, meta: Any, children: list[Any]) -> ast.Take:
        return ast.Take(_name(children[1]), None, None, _span(meta), int(children[0]))

    def draw(self, children: list[Token]) -> int:
        return int(children[0])

    @_meta
    def discount(self, meta: Any, children: list[Any]) -> ast.Discount:
        target, colours = children[2]
        unit = "coins" if str(children[1]).startswith("coin") else "resources"
        price = 0
        cities: tuple[ast.Name, ...] = ()
        for extra in children[3:]:  # "… in PLACES" (a tuple), "… for N coins" (an int)
            if isinstance(extra, tuple):
                cities = extra
            else:
                price = extra
        if target == "trade":
            return ast.Discount(int(children[0]), target, (), _span(meta), unit,
                                places=colours, price=price, cities=cities)
        return ast.Discount(int(children[0]), target, colours, _span(meta), unit,
                            price=price, cities=cities)

    @_meta
    def discount_activation(self, meta: Any, children: list[Any]) -> ast.ActivationDiscount:
        once = any(isinstance(c, Token) and c.type == "ONCE" for c in children)
        return ast.ActivationDiscount(int(children[0]), once, _span(meta))

    @_meta
    def activate(self, meta: Any, children: list[Any]) -> ast.Activate:
        return ast.Activate(_name(children[0]), _name(children[2]), _span(meta))

    @_meta
    def take_card(self, meta: Any, children: list[Any]) -> ast.TakeCard:
        return ast.TakeCard(children[0], children[2], _span(meta))

    @_meta
    def take_wonder(self, meta: Any, children: list[Any]) -> ast.MoveWonder:
        return ast.MoveWonder("take", children[-1], _span(meta))

    @_meta
    def unbuild(self, meta: Any, children: list[Any]) -> ast.MoveWonder:
        return ast.MoveWonder("unbuild", children[-1], _span(meta))

    @_meta
    def wonder_from_discard(self, meta: Any, children: list[Any]) -> ast.MoveWonder:
        return ast.MoveWonder("build", (), _span(meta))

    @_meta
    def discard_structure(self, meta: Any, children: list[Any]) -> ast.DiscardStructure:
        return ast.DiscardStructure(_span(meta))

    @_meta
    def discard_accessible(self, meta: Any, children: list[Any]) -> ast.DiscardStructure:
        count = next((int(c) for c in children if isinstance(c, Token) and c.type == "INT"), 0)
        written = any(isinstance(c, Token) and c.type == "INT" for c in children)
        return ast.DiscardStructure(_span(meta), True, count if count or not written else -1)

    @_meta
    def remove_token(self, meta: Any, children: list[Any]) -> ast.RemoveToken:
        return ast.RemoveToken(_name(children[0]), children[-1], _span(meta))

    @_meta
    def build_free(self, meta: Any, children: list[Any]) -> ast.BuildFree:
        colours: tuple[ast.Name, ...] = next((c for c in children if isinstance(c, tuple)), ())
        words = [c for c in children if isinstance(c, Token) and c.type == "NAME"]
        span = ast.Span(_span(words[0]).start, _span(words[-1]).end)   # ("last row": one)
        return ast.BuildFree(colours, ast.Name(" ".join(str(w) for w in words), span),
                             _span(meta))

    @_meta
    def swap(self, meta: Any, children: list[Any]) -> ast.Swap:
        return ast.Swap(children[0], children[-1], _span(meta))

    @_meta
    def destroy_wonder(self, meta: Any, children: list[Any]) -> ast.MoveWonder:
        return ast.MoveWonder("remove", children[-1], _span(meta))

    @_meta
    def track_block(self, meta: Any, children: list[Any]) -> ast.TrackPiece:
        return ast.TrackPiece("block", None, _span(meta))

    @_meta
    def track_discard(self, meta: Any, children: list[Any]) -> ast.TrackPiece:
        return ast.TrackPiece("discard", _name(children[0]), _span(meta))

    @_meta
    def track_use(self, meta: Any, children: list[Any]) -> ast.TrackPiece:
        return ast.TrackPiece("use", _name(children[0]), _span(meta))

    @_meta
    def reserve_draw(self, meta: Any, children: list[Any]) -> ast.DrawReserve:
        return ast.DrawReserve(int(children[0]), _span(meta))

    @_meta
    def chain_price(self, meta: Any, children: list[Any]) -> ast.ChainPrice:
        return ast.ChainPrice(int(children[-2]), _span(meta))

    @_meta
    def reserve_build(self, meta: Any, children: list[Any]) -> ast.BuildReserve:
        return ast.BuildReserve(int(children[0]), _span(meta))

    @_meta
    def discount_every(self, meta: Any, children: list[Any]) -> ast.Discount:
        target, colours = children[2]
        if target == "trade":
            return ast.Discount(0, target, (), _span(meta), "resources", True, colours)
        return ast.Discount(0, target, colours, _span(meta), "resources", True)

    @_meta
    def discount_or_coins(self, meta: Any, children: list[Any]) -> ast.Discount:
        # "discount 1 resource or every coin on …": children INT RESOURCES EVERY COINS target
        target, colours = children[-1]
        return ast.Discount(int(children[0]), target, colours, _span(meta), or_coins=True)

    def rounded(self, children: list[Any]) -> Any:
        return _ROUNDED_UP

    @_meta
    def count_kept(self, meta: Any, children: list[Token]) -> ast.CountKept:
        return ast.CountKept(_name(children[0]), _span(meta))

    def discount_trade(self, children: list[Any]) -> tuple[str, tuple[ast.Name, ...]]:
        return "trade", children[1]

    def discount_price(self, children: list[Any]) -> int:
        return int(children[0])

    def discount_wonder(self, children: list[Any]) -> tuple[str, tuple[ast.Name, ...]]:
        return "wonder", ()

    def discount_cards(self, children: list[Any]) -> tuple[str, tuple[ast.Name, ...]]:
        return "card", children[0]

    def discount_any_card(self, children: list[Any]) -> tuple[str, tuple[ast.Name, ...]]:
        return "card", ()

    @_meta
    def amount(self, meta: Any, children: list[Any]) -> ast.Amount:
        return ast.Amount(tuple(children), _span(meta))

    @_meta
    def fixed(self, meta: Any, children: list[Token]) -> ast.Fixed:
        return ast.Fixed(int(children[0]), _span(meta))

    @_meta
    def per(self, meta: Any, children: list[Any]) -> ast.Per:
        children, up = _up(children)
        value = int(children[0])
        rest = children[1:]
        divisor = 1
        if isinstance(rest[0], Token):
            divisor = int(rest[0])
            rest = rest[1:]
        places: tuple[ast.Name, ...] = rest[1] if len(rest) > 1 else ()
        return ast.Per(value, divisor, rest[0], places, _span(meta), up)

    @_meta
    def count_cards(self, meta: Any, children: list[Any]) -> ast.CountCards:
        return ast.CountCards(children[0], _span(meta))

    @_meta
    def count_all_cards(self, meta: Any, children: list[Any]) -> ast.CountCards:
        return ast.CountCards((), _span(meta))

    @_meta
    def count_stages(self, meta: Any, children: list[Any]) -> ast.CountStages:
        return ast.CountStages(_span(meta))

    @_meta
    def count_tokens(self, meta: Any, children: list[Token]) -> ast.CountTokens:
        return ast.CountTokens(_name(children[0]), _span(meta))

    @_meta
    def count_sets(self, meta: Any, children: list[Any]) -> ast.CountSets:
        return ast.CountSets(tuple(children[0]), _span(meta))

    @_meta
    def count_science_sets(self, meta: Any, children: list[Any]) -> ast.CountScienceSets:
        return ast.CountScienceSets(_span(meta))

    @_meta
    def count_coins(self, meta: Any, children: list[Any]) -> ast.CountCoins:
        return ast.CountCoins(_span(meta))

    @_meta
    def count_aside_coins(self, meta: Any, children: list[Any]) -> ast.CountAsideCoins:
        return ast.CountAsideCoins(_span(meta))

    @_meta
    def cost_free(self, meta: Any, children: list[Any]) -> ast.Cost:
        return ast.Cost((), _span(meta))

    @_meta
    def cost_items(self, meta: Any, children: list[ast.CostItem]) -> ast.Cost:
        return ast.Cost(tuple(children), _span(meta))

    @_meta
    def cost_resource(self, meta: Any, children: list[Token]) -> ast.CostItem:
        count = int(children[0]) if len(children) == 2 else 1
        return ast.CostItem(count, _name(children[-1]), _span(meta))

    @_meta
    def cost_coins(self, meta: Any, children: list[Token]) -> ast.CostItem:
        return ast.CostItem(int(children[0]), None, _span(meta))

    def formula(self, children: list[ast.Expression]) -> ast.Expression:
        return children[0]

    @_meta
    def number(self, meta: Any, children: list[Token]) -> ast.Number:
        return ast.Number(int(children[0]), _span(meta))

    @_meta
    def variable(self, meta: Any, children: list[Token]) -> ast.Variable:
        return ast.Variable(_name(children[0]), _span(meta))

    def _binary(self, op: str, meta: Any, children: list[Any]) -> ast.BinaryOp:
        return ast.BinaryOp(op, children[0], children[1], _span(meta))

    @_meta
    def add(self, meta: Any, children: list[Any]) -> ast.BinaryOp:
        return self._binary("+", meta, children)

    @_meta
    def sub(self, meta: Any, children: list[Any]) -> ast.BinaryOp:
        return self._binary("-", meta, children)

    @_meta
    def mul(self, meta: Any, children: list[Any]) -> ast.BinaryOp:
        return self._binary("*", meta, children)

    @_meta
    def div(self, meta: Any, children: list[Any]) -> ast.BinaryOp:
        return self._binary("/", meta, children)


_TO_AST = _ToAst()


def _describe_expected(expected: set[str]) -> list[str]:
    lark = _lark()
    words = set()
    for name in expected:
        if name in _TERMINAL_WORDS:
            words.add(_TERMINAL_WORDS[name])
            continue
        try:
            pattern = lark.get_terminal(name).pattern
        except KeyError:
            words.add(name.lower())
            continue
        words.add(f"'{pattern.value}'" if pattern.type == "str" else name.lower())
    return sorted(words)


def _keyword_suggestion(word: str, expected: set[str]) -> str | None:
    lark = _lark()
    literal = []
    for name in expected:
        try:
            pattern = lark.get_terminal(name).pattern
        except KeyError:
            continue
        if pattern.type == "str" and pattern.value.isalpha():
            literal.append(pattern.value)
        elif name in _TERMINAL_WORDS and name not in ("NAME", "INT", "$END"):
            literal.append(_TERMINAL_WORDS[name].strip("'"))
    return closest(word, literal) if literal else None


def _acceptable(exc: UnexpectedInput, fallback: Any) -> set[str]:
    """The terminals truly acceptable at the error (LALR's merged states over-report)."""
    parser = getattr(exc, "interactive_parser", None)
    if parser is not None:
        try:
            return set(parser.accepts())
        except Exception:  # pragma: no cover - fall back to Lark's own list
            pass
    return set(fallback or ())


# A clause so far holding a single name: the start of "PLACES loses N coins", or
# (far more often) a misspelt effect keyword.  After "on", a single name is a colour
# waiting for 'card', a period waiting for 'end', a token kind waiting for 'token', or a
# misspelt 'wonder' / 'chain' / 'buy'.
_LONE_NAME = re.compile(r"(?:^|[;:])\s*([a-z][a-z0-9_]*)\s*$")
_LONE_TRIGGER = re.compile(r"(?:^|[;:])\s*on\s+([a-z][a-z0-9_]*)\s*$")
_LOSES = "loses"
_GAINS = "gains"
_GIVES = "gives"
_COMMENT = re.compile(r"#[^\n]*")


def _lone_name(exc: UnexpectedInput, text: str, offset: int) -> EffectSyntaxError | None:
    """An error just after a clause's (or trigger's) first word, which the grammar took
    for a name: report that word instead, with the words that can stand there."""
    expected = _acceptable(exc, ())
    token = str(exc.token) if isinstance(exc, UnexpectedToken) and exc.token.type != "$END" \
        else None
    # comments blanked out (same length, so offsets hold): they may end the text
    before = _COMMENT.sub(lambda m: " " * len(m.group()), text[:offset])
    found = _LONE_NAME.search(before)
    trigger = False
    if found is not None:
        if token is not None and closest(token, [_LOSES, _GAINS, _GIVES]) is not None:
            return None  # "opponent lose 2 coins": the place is right, the verb is not
        if not expected or not expected <= {"COMMA", "LOSES", "GAINS", "GIVES", "$END"}:
            return None
        named = f"a place followed by '{_LOSES}', '{_GAINS}' or '{_GIVES}'"
    else:
        found = _LONE_TRIGGER.search(before)
        if found is None or not expected or not expected <= {"CARDS", "VBAR", "END", "START",
                                                              "TOKENS", "$END"}:
            return None
        trigger = True
        named = ("colours followed by 'card', a period followed by 'end' or 'start', or a "
                 "token kind followed by 'token'")
    start = found.start(1)
    try:
        parser: Any = _lark().parse_interactive(text[:start], start="effects")
        parser.exhaust_lexer()
        at_start = set(parser.accepts())
    except UnexpectedInput:  # pragma: no cover - the prefix parsed before the error
        return None
    word = found.group(1)
    suggestion = _keyword_suggestion(word, at_start)
    if trigger and suggestion is None:
        return None  # "on red:" - the colour is fine, 'card' is missing
    wanted = ", ".join(w for w in _describe_expected(at_start - {"NAME"}))
    if "NAME" in at_start:
        wanted += f", or {named}"
    return EffectSyntaxError("E202", f"unexpected '{word}': expected {wanted}", start, text,
                             suggestion)


def _syntax_error(exc: UnexpectedInput, text: str) -> EffectSyntaxError:
    error = _plain_syntax_error(exc, text)
    if error.code in ("E202", "E203"):
        return _lone_name(exc, text, error.offset) or error
    return error


def _plain_syntax_error(exc: UnexpectedInput, text: str) -> EffectSyntaxError:
    if (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"
            or isinstance(exc, UnexpectedEOF)):
        expected = _acceptable(exc, getattr(exc, "expected", ()))
        wanted = ", ".join(_describe_expected(expected))
        offset = len(text.rstrip())
        return EffectSyntaxError("E203", f"the text ends too early: expected {wanted}",
                                 offset, text)
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        offset = token.start_pos or 0
        expected = _acceptable(exc, exc.expected)
        wanted = ", ".join(_describe_expected(expected))
        suggestion = _keyword_suggestion(str(token), expected) if token.type == "NAME" else None
        return EffectSyntaxError("E202", f"unexpected '{token}': expected {wanted}",
                                 offset, text, suggestion)
    assert isinstance(exc, UnexpectedCharacters)
    offset = exc.pos_in_stream or 0
    char = text[offset] if offset < len(text) else ""
    expected = set(exc.allowed or ())
    wanted = ", ".join(_describe_expected(expected))
    message = f"unexpected character '{char}'"
    suggestion = None
    if char.isalpha() and char.isupper():
        message += " (names are written in lower case)"
        word = char
        for follower in text[offset + 1:]:
            if not (follower.isalnum() or follower == "_"):
                break
            word += follower
        suggestion = _keyword_suggestion(word.lower(), expected)
        if suggestion is None and "NAME" in expected:
            suggestion = word.lower()
    if wanted:
        message += f": expected {wanted}"
    return EffectSyntaxError("E201", message, offset, text, suggestion)


_BARE_STAGE = re.compile(r"\bper\s+(?:\d+\s+)?(stages?)\b")


def _hint(error: EffectSyntaxError) -> EffectSyntaxError:
    """Add what a designer most likely meant to errors of a well-known shape."""
    bare = _BARE_STAGE.search(error.text)
    if bare and bare.end(1) <= error.offset + 1 and error.code in ("E202", "E203"):
        return EffectSyntaxError(error.code, error.message + " (wonder stages are counted as "
                                 "'per wonder stage')", error.offset, error.text,
                                 error.suggestion or "wonder stage")
    return error


def _tokens(tree: Tree[Any], kind: str) -> list[Token]:
    """The tokens of one kind in a tree, walked without recursion (a formula of
    thousands of terms nests thousands deep)."""
    found: list[Token] = []
    stack: list[Any] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, Tree):
            stack.extend(node.children)
        elif isinstance(node, Token) and node.type == kind:
            found.append(node)
    return found


def parse(text: str, start: str) -> Any:
    """Parse ``text`` from the rule ``start``: its AST, or :class:`EffectSyntaxError`."""
    try:
        tree = _lark().parse(text, start=start)
    except UnexpectedInput as exc:
        raise _hint(_syntax_error(exc, text)) from None
    for token in _tokens(tree, "INT"):
        if len(token.lstrip("0")) > MAX_DIGITS:
            shown = token if len(token) <= 12 else f"{token[:6]}…{token[-3:]} ({len(token)} digits)"
            raise EffectSyntaxError(
                "E204", f"the number {shown} is too large: a number is at most "
                f"{MAX_NUMBER} ({MAX_DIGITS} digits)", token.start_pos or 0, text)
    try:
        return _TO_AST.transform(tree)
    except RecursionError:  # e.g. a formula of thousands of terms: too deep to build
        raise EffectSyntaxError("E202", "the text is too long or nested too deeply to read; "
                                "simplify it", 0, text) from None
