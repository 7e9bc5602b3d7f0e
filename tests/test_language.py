"""The effect language: every construct parses and compiles to the right effect,
and every kind of mistake is reported with its code, offset and suggestion."""

from __future__ import annotations

import pytest

from wonders.dsl import ast
from wonders.dsl import effects as fx
from wonders.dsl.compiler import compile_cost, compile_effects, compile_formula
from wonders.dsl.errors import EffectSyntaxError
from wonders.dsl.parser import keywords, parse_effects
from wonders.dsl.vocabulary import Vocabulary

VOCAB = Vocabulary(
    resource_categories={"raw": ("wood", "stone", "ore", "clay"),
                         "manufactured": ("glass", "papyrus", "loom")},
    colours=("brown", "grey", "yellow", "blue", "green", "red", "purple"),
    science=("compass", "wheel", "tablet"),
    tokens=("victory", "defeat"),
    places=("self", "left", "right", "neighbours"),
    abilities=("free_build", "build_from_discard", "play_last_card"),
)

ONGOING, NOW, END = fx.Timing.ONGOING, fx.Timing.NOW, fx.Timing.END
RAW = ("wood", "stone", "ore", "clay")


def one(text: str) -> fx.Clause:
    effects, problems = compile_effects(text, VOCAB)
    assert problems == []
    assert len(effects.clauses) == 1
    return effects.clauses[0]


def per(value: int, counted: fx.Counted, places: tuple[str, ...] = ("self",),
        divisor: int = 1) -> fx.PerTerm:
    return fx.PerTerm(value, divisor, counted, places)


CONSTRUCTS = [
    ("produce wood", ONGOING, fx.Produce(("wood",))),
    ("produce 2 ore", ONGOING, fx.Produce(("ore",), 2)),
    ("produce wood | clay", ONGOING, fx.Produce(("wood", "clay"))),
    ("produce any raw unbuyable", ONGOING, fx.Produce(RAW, 1, False)),
    ("produce glass|papyrus|loom unbuyable", ONGOING,
     fx.Produce(("glass", "papyrus", "loom"), 1, False)),
    ("points 3", END, fx.Points(fx.Amount(3))),
    ("end: points 3", END, fx.Points(fx.Amount(3))),
    ("points 1 per 3 coins", END, fx.Points(fx.Amount(0, (per(1, fx.CountCoins(), divisor=3),)))),
    ("coins 5", NOW, fx.Coins(fx.Amount(5))),
    ("now: coins 2 per grey card in self, left, right", NOW,
     fx.Coins(fx.Amount(0, (per(2, fx.CountCards(frozenset({"grey"})),
                                ("self", "left", "right")),)))),
    ("coins 2 + 1 per yellow card", NOW,
     fx.Coins(fx.Amount(2, (per(1, fx.CountCards(frozenset({"yellow"}))),)))),
    ("end: points 1 per brown | grey | purple card in self", END,
     fx.Points(fx.Amount(0, (per(1, fx.CountCards(frozenset({"brown", "grey", "purple"}))),)))),
    ("points 1 per card in neighbours", END,
     fx.Points(fx.Amount(0, (per(1, fx.CountCards(None), ("neighbours",)),)))),
    ("end: points 1 per wonder stage in left, self, right", END,
     fx.Points(fx.Amount(0, (per(1, fx.CountStages(), ("left", "self", "right")),)))),
    ("points 1 per wonder stages", END, fx.Points(fx.Amount(0, (per(1, fx.CountStages()),)))),
    ("end: points 1 per defeat token in left, right", END,
     fx.Points(fx.Amount(0, (per(1, fx.CountTokens("defeat"), ("left", "right")),)))),
    ("shields 2", ONGOING, fx.Shields(2)),
    ("science tablet", ONGOING, fx.Science(("tablet",))),
    ("science compass | wheel", ONGOING, fx.Science(("compass", "wheel"))),
    ("science any", ONGOING, fx.Science(("compass", "wheel", "tablet"))),
    ("buy raw from left at 1", ONGOING, fx.TradePrice(frozenset(RAW), ("left",), 1)),
    ("buy glass, loom from left, right at 1 coin", ONGOING,
     fx.TradePrice(frozenset({"glass", "loom"}), ("left", "right"), 1)),
    ("ability play_last_card", ONGOING, fx.Ability("play_last_card")),
    ("ability free_build once per age", ONGOING, fx.Ability("free_build", "age")),
    ("ability build_from_discard once", ONGOING, fx.Ability("build_from_discard", "game")),
    ("end: copy purple card from left, right", END,
     fx.CopyCard(frozenset({"purple"}), ("left", "right"))),
    ("copy purple | blue card from left", END,
     fx.CopyCard(frozenset({"purple", "blue"}), ("left",))),
]


@pytest.mark.parametrize("text,timing,effect", CONSTRUCTS, ids=[c[0] for c in CONSTRUCTS])
def test_construct(text: str, timing: fx.Timing, effect: fx.Effect) -> None:
    clause = one(text)
    assert clause.timing is timing
    assert clause.effect == effect


def test_several_clauses_and_comments() -> None:
    effects, problems = compile_effects(
        "now: coins 4; shields 1;  # Rhodes B, stage 1\n points 3;", VOCAB)
    assert problems == []
    assert [c.effect for c in effects.clauses] == [
        fx.Coins(fx.Amount(4)), fx.Shields(1), fx.Points(fx.Amount(3))]


def test_ast_spans_point_at_names() -> None:
    tree = parse_effects("now: coins 2 per grey card in self, left")
    clause = tree.clauses[0]
    assert clause.timing == "now" and clause.timing_span == ast.Span(0, 4)
    assert isinstance(clause.effect, ast.Coins)
    term = clause.effect.amount.terms[0]
    assert isinstance(term, ast.Per)
    assert [(p.text, p.span.start) for p in term.places] == [("self", 30), ("left", 36)]


COSTS = [
    ("free", 0, ()),
    ("1 coin", 1, ()),
    ("3 coins", 3, ()),
    ("2 stone, 1 loom", 0, (("stone", 2), ("loom", 1))),
    ("wood, clay", 0, (("wood", 1), ("clay", 1))),
    ("1 coin, 2 ore", 1, (("ore", 2),)),
]


@pytest.mark.parametrize("text,coins,resources", COSTS, ids=[c[0] for c in COSTS])
def test_cost(text: str, coins: int, resources: tuple[tuple[str, int], ...]) -> None:
    cost, problems = compile_cost(text, VOCAB)
    assert problems == []
    assert (cost.coins, cost.resources) == (coins, resources)


@pytest.mark.parametrize("text,players,value", [
    ("players + 2", 3, 5), ("players + 2", 7, 9), ("2 * players - 1", 4, 7),
    ("(players + 1) / 2", 4, 2), ("5", 6, 5)])
def test_formula(text: str, players: int, value: int) -> None:
    formula, problems = compile_formula(text, VOCAB)
    assert problems == []
    assert formula.evaluate({"players": players}) == value


MISTAKES = [
    # text, code, offset, suggestion
    ("prodce wood", "E202", 0, "produce"),
    ("Produce wood", "E201", 0, "produce"),
    ("produce wood clay", "E202", 13, None),
    ("points", "E203", 6, None),
    ("points 3 per", "E203", 12, None),
    ("points 3 $", "E201", 9, None),
    ("", "E203", 0, None),
    ("produce wod", "N301", 8, "wood"),
    ("produce any rwa", "N301", 12, "raw"),
    ("end: points 1 per browm card", "N302", 18, "brown"),
    ("science compas", "N303", 8, "compass"),
    ("points 1 per blue card in slef", "N304", 26, "self"),
    ("points 1 per blue card in opponent", "N304", 26, None),
    ("points 1 per defeet token", "N305", 13, "defeat"),
    ("ability free_bild", "N306", 8, "free_build"),
    ("ability free_build once per aeg", "N308", 28, "age"),
    ("now: produce wood", "T401", 0, None),
    ("end: coins 3", "T401", 0, None),
    ("now: points 3", "T401", 0, None),
    ("on red card: copy purple card from left", "T401", 0, None),
    ("end: draw 1 reserve card", "T401", 0, None),
    ("on wonder: build 1 reserve card", "T401", 0, None),
    ("draw 0 reserve cards", "T403", 0, None),
    ("now: copy purple card from left if wonder complete", "T406", 32, None),
    ("discount 1 resource on white cards in left", "T407", 0, None),
    ("discount 1 coin on trade from left in right", "T407", 0, None),
    ("discount 1 coin on white cards in lfet", "N304", 34, "left"),
    ("produce 2 wood | clay", "T402", 0, None),
    ("shields 0", "T403", 0, None),
    ("points 1 per 0 coins", "T403", 7, None),
    ("science wheel | wheel", "T404", 16, None),
]


@pytest.mark.parametrize("text,code,offset,suggestion", MISTAKES, ids=[m[0] or "empty"
                                                                        for m in MISTAKES])
def test_mistake(text: str, code: str, offset: int, suggestion: str | None) -> None:
    _, problems = compile_effects(text, VOCAB)
    assert problems, f"{text!r} should not compile"
    first = problems[0]
    assert (first.code, first.start, first.suggestion) == (code, offset, suggestion)


def test_all_problems_of_a_string_are_reported() -> None:
    _, problems = compile_effects("now: coins 1 per browm card in slef; science compas", VOCAB)
    assert sorted(p.code for p in problems) == ["N302", "N303", "N304"]


def test_cost_mistakes() -> None:
    _, problems = compile_cost("2 stone, 1 lom, 0 coins", VOCAB)
    assert [(p.code, p.start, p.suggestion) for p in problems] == [
        ("N301", 11, "loom"), ("T403", 16, None)]
    _, problems = compile_cost("2 stone, stone", VOCAB)
    assert [p.code for p in problems] == ["T404"]
    _, problems = compile_cost("", VOCAB)
    assert [p.code for p in problems] == ["E203"]


def test_formula_variable_checked() -> None:
    _, problems = compile_formula("playres + 2", VOCAB)
    assert [(p.code, p.suggestion) for p in problems] == [("N307", "players")]


def test_syntax_error_message_lists_expected_words() -> None:
    with pytest.raises(EffectSyntaxError) as info:
        parse_effects("produce wood clay")
    assert "expected ';', 'if', 'or', 'unbuyable', '|', the end of the text" in info.value.message


def test_names_come_from_the_vocabulary_not_the_grammar() -> None:
    duel_like = Vocabulary({"raw": ("wood", "stone", "clay")}, ("brown",), ("law",),
                           places=("self", "opponent"))
    _, problems = compile_effects("produce ore", duel_like)
    assert [p.code for p in problems] == ["N301"]
    _, problems = compile_effects("science law; points 1 per brown card in opponent", duel_like)
    assert problems == []


def test_keywords_are_reserved_words() -> None:
    words = keywords()
    for word in ("produce", "points", "coins", "per", "in", "from", "card", "wonder", "any"):
        assert word in words


def test_bare_stage_gets_a_hint() -> None:
    _, problems = compile_effects("points 1 per stage in self", VOCAB)
    (problem,) = problems
    assert problem.code == "E202" and problem.suggestion == "wonder stage"
    assert "'per wonder stage'" in problem.message
