"""The language and data additions for 7 Wonders Duel (docs/language.md, "Two-player
constructs"): each construct compiles to its effect value, misuse is reported with
its code, and the loader builds tokens, counted cards, single-stage wonders and the
rule-set sections, while the base game loads as before."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Workspace

from wonders.dsl import effects as fx
from wonders.dsl.compiler import compile_effects
from wonders.dsl.describe import effects as describe
from wonders.dsl.errors import Diagnostic
from wonders.dsl.loader import load
from wonders.dsl.model import Token
from wonders.dsl.parser import keywords
from wonders.dsl.schema import KINDS, schema
from wonders.dsl.vocabulary import Vocabulary

VOCAB = Vocabulary(
    resource_categories={"raw": ("wood", "stone", "clay"), "manufactured": ("glass", "papyrus")},
    colours=("brown", "grey", "yellow", "blue", "green", "red", "purple"),
    science=("globe", "law", "wheel"),
    tokens=("progress",),
    places=("self", "opponent", "most"),
    abilities=("build_from_discard", "trade_income"),
    pools=("board", "box"),
)

ON, NOW, END, ONGOING = fx.Timing.ON, fx.Timing.NOW, fx.Timing.END, fx.Timing.ONGOING


def clauses(text: str) -> tuple[fx.Clause, ...]:
    compiled, problems = compile_effects(text, VOCAB)
    assert problems == [], [(p.code, p.message) for p in problems]
    return compiled.clauses


def one(text: str) -> fx.Clause:
    (clause,) = clauses(text)
    return clause


def problems(text: str, vocabulary: Vocabulary = VOCAB) -> list[tuple[str, str, str | None]]:
    """(code, offending text, suggestion) of each problem of ``text``."""
    _, found = compile_effects(text, vocabulary)
    return [(p.code, text[p.start:p.end], p.suggestion) for p in found]


# --- each construct compiles to its value ------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("on red card: shields 1",
     fx.Clause(ON, fx.Shields(1), fx.Trigger("card", frozenset({"red"})))),
    ("on red | blue card: coins 2",
     fx.Clause(ON, fx.Coins(fx.Amount(2)), fx.Trigger("card", frozenset({"red", "blue"})))),
    ("on card: coins 1", fx.Clause(ON, fx.Coins(fx.Amount(1)), fx.Trigger("card"))),
    ("on cards: coins 1", fx.Clause(ON, fx.Coins(fx.Amount(1)), fx.Trigger("card"))),
    ("on wonder: replay", fx.Clause(ON, fx.Replay(), fx.Trigger("wonder"))),
    ("on chain: coins 4", fx.Clause(ON, fx.Coins(fx.Amount(4)), fx.Trigger("chain"))),
    ("on wonder: opponent loses 1 coin",
     fx.Clause(ON, fx.LoseCoins(("opponent",), fx.Amount(1)), fx.Trigger("wonder"))),
    ("replay", fx.Clause(NOW, fx.Replay())),
    ("now: replay", fx.Clause(NOW, fx.Replay())),
    ("opponent loses 3 coins", fx.Clause(NOW, fx.LoseCoins(("opponent",), fx.Amount(3)))),
    ("now: opponent, self loses 1 coin",
     fx.Clause(NOW, fx.LoseCoins(("opponent", "self"), fx.Amount(1)))),
    ("opponent loses 1 per yellow card in self coins",
     fx.Clause(NOW, fx.LoseCoins(("opponent",), fx.Amount(0, (fx.PerTerm(
         1, 1, fx.CountCards(frozenset({"yellow"})), ("self",)),))))),
    ("destroy brown card in opponent",
     fx.Clause(NOW, fx.Destroy(frozenset({"brown"}), ("opponent",)))),
    ("destroy grey | brown card in opponent",
     fx.Clause(NOW, fx.Destroy(frozenset({"grey", "brown"}), ("opponent",)))),
    ("take progress token from board", fx.Clause(NOW, fx.TakeToken("progress", "board"))),
    ("take progress token from box draw 3",
     fx.Clause(NOW, fx.TakeToken("progress", "box", 3))),
    ("discount 2 resources on wonder", fx.Clause(ONGOING, fx.Discount(2, "wonder"))),
    ("discount 1 resource on wonders", fx.Clause(ONGOING, fx.Discount(1, "wonder"))),
    ("discount 2 resources on blue card",
     fx.Clause(ONGOING, fx.Discount(2, "card", frozenset({"blue"})))),
    ("discount 1 resource on card", fx.Clause(ONGOING, fx.Discount(1, "card"))),
    ("buy stone at 1", fx.Clause(ONGOING, fx.TradePrice(frozenset({"stone"}), (), 1))),
    ("buy papyrus, glass at 1",
     fx.Clause(ONGOING, fx.TradePrice(frozenset({"papyrus", "glass"}), (), 1))),
    ("buy raw from opponent at 1 coin",
     fx.Clause(ONGOING, fx.TradePrice(frozenset({"wood", "stone", "clay"}), ("opponent",), 1))),
    ("shields 2", fx.Clause(ONGOING, fx.Shields(2))),
    ("now: shields 1", fx.Clause(NOW, fx.Shields(1))),
    ("end: points 2 per wonder in most", fx.Clause(END, fx.Points(fx.Amount(0, (fx.PerTerm(
        2, 1, fx.CountStages(), ("most",)),))))),
    ("now: coins 2 per wonders in self", fx.Clause(NOW, fx.Coins(fx.Amount(0, (fx.PerTerm(
        2, 1, fx.CountStages(), ("self",)),))))),
    ("end: points 1 per 3 coins in most", fx.Clause(END, fx.Points(fx.Amount(0, (fx.PerTerm(
        1, 3, fx.CountCoins(), ("most",)),))))),
    ("end: points 3 per progress token in self", fx.Clause(END, fx.Points(fx.Amount(0, (
        fx.PerTerm(3, 1, fx.CountTokens("progress"), ("self",)),))))),
])
def test_construct_compiles(text: str, expected: fx.Clause) -> None:
    assert one(text) == expected


def test_wonder_alone_counts_like_wonder_stage() -> None:
    assert one("points 1 per wonder") == one("points 1 per wonder stage")


def test_duel_card_texts_compile() -> None:
    appian = clauses("now: coins 3; opponent loses 3 coins; replay; points 3")
    assert [c.timing for c in appian] == [NOW, NOW, NOW, END]
    assert isinstance(appian[2].effect, fx.Replay)
    zeus = clauses("destroy brown card in opponent; shields 1; points 3")
    assert zeus[1] == fx.Clause(ONGOING, fx.Shields(1))
    urbanism = clauses("now: coins 6; on chain: coins 4")
    assert urbanism[1].trigger == fx.Trigger("chain")
    merchants = clauses("now: coins 1 per yellow card in most; "
                        "end: points 1 per yellow card in most")
    assert all(c.effect.amount.terms[0].places == ("most",)  # type: ignore[union-attr]
               for c in merchants)


def test_trigger_is_set_only_on_on_clauses() -> None:
    for clause in clauses("on red card: shields 1; now: coins 2; shields 1; replay"):
        assert (clause.trigger is not None) == (clause.timing is ON)


def test_new_keywords_are_reserved() -> None:
    words = keywords()
    for word in ("on", "replay", "loses", "destroy", "take", "draw", "discount", "chain",
                 "resource", "resources", "wonder", "wonders"):
        assert word in words


# --- misuse ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("take progress token from bord", [("N309", "bord", "board")]),
    ("activate progress token from top", [("N310", "top", "tops")]),
    ("take progres token from board", [("N305", "progres", "progress")]),
    ("destroy bronw card in opponent", [("N302", "bronw", "brown")]),
    ("destroy brown card in oponent", [("N304", "oponent", "opponent")]),
    ("on rde card: shields 1", [("N302", "rde", "red")]),
    ("oponent loses 2 coins", [("N304", "oponent", "opponent")]),
    ("discount 2 resources on bleu card", [("N302", "bleu", "blue")]),
    # 'most' picks a city in a count only, and alone there
    ("destroy brown card in most", [("T405", "most", None)]),
    ("most loses 2 coins", [("T405", "most", None)]),
    ("buy stone from most at 1", [("T405", "most", None)]),
    ("copy purple card from most", [("T405", "most", None)]),
    ("end: points 1 per card in most, self", [("T405", "most", None)]),
    # timings
    ("end: replay", [("T401", "end:", None)]),
    ("end: opponent loses 2 coins", [("T401", "end:", None)]),
    ("on wonder: destroy brown card in opponent", [("T401", "on wonder:", None)]),
    ("end: take progress token from board", [("T401", "end:", None)]),
    ("now: discount 2 resources on wonder", [("T401", "now:", None)]),
    ("on wonder: points 3", [("T401", "on wonder:", None)]),
    ("on red card: science law", [("T401", "on red card:", None)]),
    ("end: shields 1", [("T401", "end:", None)]),
    # zeros
    ("opponent loses 0 coins", [("T403", "opponent loses 0 coins", None)]),
    ("take progress token from box draw 0", [("T403", "take progress token from box draw 0",
                                              None)]),
    ("discount 0 resources on wonder", [("T403", "discount 0 resources on wonder", None)]),
    # lists
    ("destroy brown | brown card in opponent", [("T404", "brown", None)]),
])
def test_misuse_is_reported(text: str, expected: list[tuple[str, str, str | None]]) -> None:
    assert problems(text) == expected


def test_timing_message_lists_what_is_allowed() -> None:
    _, (problem,) = compile_effects("end: replay", VOCAB)
    assert problem.message == ("'end:' does not apply to 'replay': it is 'now:' (once, when "
                               "built) or 'on …:' (each time a later build sets it off)")
    _, (problem,) = compile_effects("on card: points 1", VOCAB)
    assert problem.message.startswith("'on …:' does not apply to 'points': it is always")


def test_most_needs_declaring() -> None:
    base_like = Vocabulary({"raw": ("wood",)}, ("blue",), ("wheel",),
                           places=("self", "left", "right"))
    assert problems("end: points 1 per blue card in most", base_like) == [
        ("N304", "most", None)]


def test_pools_come_from_the_vocabulary() -> None:
    no_pools = Vocabulary({"raw": ("wood",)}, ("blue",), ("wheel",), tokens=("progress",))
    (found,) = problems("take progress token from board", no_pools)
    assert found[0] == "N309"
    _, (problem,) = compile_effects("take progress token from board", no_pools)
    assert "the rule set declares none" in problem.message


@pytest.mark.parametrize("text, code, at, suggestion", [
    ("prodce wood", "E202", "prodce", "produce"),
    ("now: replya", "E202", "replya", "replay"),
    ("destory brown card in opponent", "E202", "destory", "destroy"),
    ("opponent lose 2 coins", "E202", "lose", "loses"),
    # (a one-word trigger parses: a moment named by one word, N320 when unknown)
    ("on wondr: replay", "N320", "wondr", "wonder"),
    ("on chian: coins 4", "N320", "chian", "chain"),
    ("on red: coins 1", "N320", "red", None),
    ("discount 2 on wonder", "E202", "on", None),
    ("take progress from board", "E202", "from", None),
    ("opponent loses 2", "E203", "", None),
])
def test_syntax_errors_point_at_the_word(text: str, code: str, at: str,
                                         suggestion: str | None) -> None:
    _, (problem,) = compile_effects(text, VOCAB)
    assert (problem.code, problem.suggestion) == (code, suggestion)
    if at:
        assert text[problem.start:problem.start + len(at)] == at


def test_a_colour_or_a_period_alone_as_a_trigger_says_how_to_write_it() -> None:
    _, (colour,) = compile_effects("on red: coins 1", VOCAB)
    assert colour.message.endswith("for a build of a red card write 'on red card:'")
    _, (period,) = compile_effects("on age: coins 1", VOCAB)
    assert period.message.endswith("write 'on age end:' or 'on age start:'")


def test_lone_word_message_names_effect_words_and_places() -> None:
    _, (problem,) = compile_effects("prodce wood", VOCAB)
    assert problem.message.startswith("unexpected 'prodce': expected 'ability', 'activate', "
                                      "'build', 'buy'")
    assert "'replay'" in problem.message and "'take'" in problem.message
    assert problem.message.endswith("or a place followed by 'loses', 'gains' or 'gives'")


def test_descriptions() -> None:
    def said(text: str) -> str:
        compiled, found = compile_effects(text, VOCAB)
        assert not found
        return describe(compiled)

    assert said("on red card: shields 1") == "each time you build a red card: 1 shield"
    assert said("on wonder: replay") == (
        "each time you build a wonder stage: play again straight away")
    assert said("on chain: coins 4") == "each time you build a card free by chain: 4 coins"
    assert said("opponent loses 3 coins") == "when built: your opponent loses 3 coins"
    assert said("destroy grey | brown card in opponent") == (
        "when built: discard one brown or grey card of your opponent's city")
    assert said("take progress token from box draw 3") == (
        "when built: take a progress token from 3 drawn at random from the box")
    assert said("discount 2 resources on wonder") == "wonder stages cost 2 resources less"
    assert said("discount 1 resource on blue card") == "blue cards cost 1 resource less"
    assert said("buy stone at 1") == "buy stone for 1 coin each"
    assert said("end: points 1 per yellow card in most") == (
        "at game end: 1 victory point per yellow card in the city with the most")


# --- data: rules, tokens, counted cards, single-stage wonders -----------------------------

DUO_RULES = """\
kind: rules
name: duo
players: {min: 2, max: 2}
vocabulary:
  resources: {raw: [wood, stone, clay], manufactured: [glass, papyrus]}
  colours: [brown, grey, yellow, blue, green, red, purple]
  science: [globe, law]
  tokens: [progress]
  pools: [board, box]
  places: [self, opponent, most]
  abilities: [build_from_discard, trade_income]
setup:
  coins: 7
  wonders: {mechanism: draft, pools: 1, size: 2, order: [0, 1]}
  tokens: {progress: {board: 2}}
ages:
  count: 1
  remove: 1
  draw: [{age: 1, colour: purple, count: 1}]
offer:
  mechanism: structure
  layouts:
    1: {rows: [[2], [1, 3]], face_down: [1]}
turns: {mechanism: sequential, next_age: weaker_military}
sell: coins 2 + 1 per yellow card in self
trade: {mechanism: bank, price: 2, add: {colours: [brown, grey], place: opponent}}
military:
  mechanism: track
  supremacy: 9
  zones: [{from: 1, points: 2}, {from: 3, points: 5, lose: 2}, {from: 6, points: 10, lose: 5}]
science: {mechanism: pairs, pair: "take progress token from board", supremacy: 6}
wonders: {limit: 7}
treasury: points 1 per 3 coins
score:
  order: [civilian, science, commercial, guilds, wonder, progress, treasury, military]
  colours: {blue: civilian, green: science, yellow: commercial, purple: guilds, red: military}
  tokens: {progress: progress}
tie_break: [civilian]
"""

DUO_CARDS = """\
kind: cards
set: duo
game: duo
cards:
  - {name: Quarry, age: 1, colour: brown, count: 1, cost: free, effect: produce stone}
  - {name: Tavern, age: 1, colour: yellow, count: 1, cost: free, effect: "now: coins 4"}
  - {name: Stone Reserve, age: 1, colour: yellow, count: 1, cost: 3 coins,
     effect: buy stone at 1}
  - {name: Merchants Guild, age: 1, colour: purple, cost: 1 clay,
     effect: "now: coins 1 per yellow card in most; end: points 1 per yellow card in most"}
"""

DUO_WONDERS = """\
kind: wonders
set: duo
game: duo
wonders:
  - name: Appian Way
    cost: 2 papyrus, 2 clay, 2 stone
    effect: "now: coins 3; opponent loses 3 coins; replay; points 3"
  - name: Statue of Zeus
    cost: 1 papyrus, 1 glass, 1 clay, 1 wood, 2 stone
    effect: destroy brown card in opponent; shields 1; points 3
"""

DUO_TOKENS = """\
kind: tokens
set: duo
game: duo
tokens:
  - name: Agriculture
    kind: progress
    effect: "now: coins 6; end: points 4"
  - {name: Strategy, kind: progress, effect: "on red card: shields 1"}
  - {name: Law, kind: progress, effect: science law}
"""


def duo(ws: Workspace, rules: str = DUO_RULES, cards: str = DUO_CARDS,
        wonders: str = DUO_WONDERS, tokens: str = DUO_TOKENS) -> list[Diagnostic]:
    paths = [ws.write("rules.yaml", rules), ws.write("cards.yaml", cards),
             ws.write("wonders.yaml", wonders), ws.write("tokens.yaml", tokens)]
    return ws.load(*paths).report.sorted()


def test_duo_game_loads(ws: Workspace) -> None:
    assert duo(ws) == []
    result = ws.load(ws.root)
    game = result.game
    assert game is not None
    # tokens
    assert [t.name for t in game.tokens] == ["Agriculture", "Strategy", "Law"]
    agriculture = game.tokens[0]
    assert isinstance(agriculture, Token)
    assert (agriculture.kind, agriculture.set) == ("progress", "duo")
    assert agriculture.effects.clauses == (fx.Clause(NOW, fx.Coins(fx.Amount(6))),
                                           fx.Clause(END, fx.Points(fx.Amount(4))))
    assert agriculture.location.line == 5
    assert game.tokens[1].effects.clauses[0].trigger == fx.Trigger("card", frozenset({"red"}))
    # counted cards: one physical copy, no player markers
    quarry = game.card("Quarry")
    assert quarry is not None and quarry.players == (1,) and quarry.copies(2) == 1
    assert not quarry.drawn
    guild = game.card("Merchants Guild")
    assert guild is not None and guild.drawn
    # single-stage wonders
    appian = game.wonder("Appian Way")
    assert appian is not None and list(appian.sides) == ["A"]
    side = appian.sides["A"]
    assert side.start == fx.NO_EFFECTS and len(side.stages) == 1
    assert side.stages[0].cost == fx.Cost(0, (("papyrus", 2), ("clay", 2), ("stone", 2)))
    assert [type(c.effect) for c in side.stages[0].effects.clauses] == [
        fx.Coins, fx.LoseCoins, fx.Replay, fx.Points]
    # the rule set
    rules = game.rules
    assert rules.science_pair is not None
    assert rules.science_pair.clauses == (fx.Clause(NOW, fx.TakeToken("progress", "board")),)
    assert rules.vocabulary.pools == ("board", "box")
    assert "most" in rules.vocabulary.places
    assert rules.parameters["offer"]["layouts"]["1"]["rows"] == [[2], [1, 3]]
    assert rules.parameters["trade"]["add"] == {"colours": ["brown", "grey"],
                                                "place": "opponent"}


def test_count_copies(ws: Workspace) -> None:
    cards = DUO_CARDS.replace("name: Quarry, age: 1, colour: brown, count: 1",
                              "name: Quarry, age: 1, colour: brown, count: 2")
    found = duo(ws, cards=cards)
    assert [d.code for d in found] == ["D609"]
    assert "puts 4 cards in its structure (4 in the deck − 1 removed + 1 drawn), but the " \
        "structure holds 3" in found[0].message


def test_base_game_is_unchanged() -> None:
    result = load(game="base")
    assert result.ok and result.game is not None
    assert result.game.tokens == ()
    assert result.game.rules.science_pair is None
    assert result.game.rules.vocabulary.pools == ()
    assert all(len(w.sides) == 2 for w in result.game.wonders)


def test_token_kind_and_effects_are_checked(ws: Workspace) -> None:
    tokens = DUO_TOKENS.replace("kind: progress\n", "kind: progres\n").replace(
        "science law", "science lwa")
    found = {(d.code, Path(d.location.file).name, d.location.line, d.suggestion)
             for d in duo(ws, tokens=tokens)}
    assert found == {("N305", "tokens.yaml", 6, "progress"),
                     ("N303", "tokens.yaml", 9, "law")}


def test_token_file_shape(ws: Workspace) -> None:
    found = duo(ws, tokens=DUO_TOKENS.replace("    kind: progress\n", ""))
    assert [(d.code, d.message) for d in found] == [
        ("S102", "missing required key 'kind' in 'tokens'")]


def test_tokens_schema() -> None:
    assert "tokens" in KINDS
    tokens = schema("tokens")
    assert tokens["properties"]["kind"] == {"description": "What this file holds.",
                                            "enum": ["tokens"]}
    # (no effect: a token only counted, or read by a mechanism: a mythology token)
    assert tokens["definitions"]["token"]["required"] == ["name", "kind"]


def test_single_stage_wonder_needs_cost_and_effect(ws: Workspace) -> None:
    wonders = DUO_WONDERS.replace("    cost: 2 papyrus, 2 clay, 2 stone\n", "")
    # (the draft then lacks a wonder: D614)
    (found,) = [d for d in duo(ws, wonders=wonders) if d.code != "D614"]
    assert (found.code, found.location.line) == ("S102", 5)
    assert "missing required key 'cost'" in found.message
    bare = "kind: wonders\nset: duo\ngame: duo\nwonders:\n  - name: Pharos\n"
    (found,) = [d for d in duo(ws, wonders=bare) if d.code != "D614"]
    assert found.code == "S102" and "missing required key 'sides'" in found.message


def test_rule_set_names_are_checked(ws: Workspace) -> None:
    rules = (DUO_RULES.replace("tokens: {progress: {board: 2}}", "tokens: {progres: {bord: 2}}")
             .replace("add: {colours: [brown, grey], place: opponent}",
                      "add: {colours: [brown, gray], place: oponent}")
             .replace("tokens: {progress: progress}", "tokens: {progress: progres}")
             .replace('pair: "take progress token from board"',
                      'pair: "take progress token from bord"'))
    found = {(d.code, d.text, d.suggestion) for d in duo(ws, rules=rules)}
    assert found == {
        ("N305", "progres", "progress"),     # setup.tokens kind
        ("N309", "bord", "board"),           # setup.tokens pool, and science.pair
        ("N302", "gray", "grey"),            # trade.add.colours
        ("N304", "oponent", "opponent"),     # trade.add.place
        ("R803", "progres", "progress"),     # score.tokens line
    }
    assert sum(1 for d in duo(ws, rules=rules) if d.code == "N309") == 2


def test_unknown_mechanism_is_a_schema_error(ws: Workspace) -> None:
    rules = DUO_RULES.replace("mechanism: structure", "mechanism: structur")
    found = [(d.code, d.suggestion) for d in duo(ws, rules=rules)]
    assert found == [("S104", "structure")]


@pytest.mark.parametrize("section, value", [
    ("setup", "{wonders: {mechanism: deal}}"),
    ("turns", "{mechanism: simultaneous}"),
    ("trade", "{mechanism: neighbours, price: 2}"),
    ("military", "{mechanism: battles, victory: [1], defeat: -1}"),
    ("science", "{mechanism: sets, set: 7}"),
    ("offer", "{mechanism: draft}"),
])
def test_base_mechanisms_may_be_named(ws: Workspace, section: str, value: str) -> None:
    from conftest import MINI_RULES
    rules = MINI_RULES.replace("  count: 3\n", "  count: 1\n") + f"{section}: {value}\n"
    assert ws.diagnose(None, rules=rules) == []  # type: ignore[arg-type]


# --- structures ------------------------------------------------------------------------

DUEL_LAYOUTS = {
    1: "[[5, 7], [4, 6, 8], [3, 5, 7, 9], [2, 4, 6, 8, 10], [1, 3, 5, 7, 9, 11]]",
    2: "[[1, 3, 5, 7, 9, 11], [2, 4, 6, 8, 10], [3, 5, 7, 9], [4, 6, 8], [5, 7]]",
    3: "[[5, 7], [4, 6, 8], [3, 5, 7, 9], [4, 8], [3, 5, 7, 9], [4, 6, 8], [5, 7]]",
}


def test_duel_structures_are_sound(ws: Workspace) -> None:
    layouts = "".join(f"    {age}: {{rows: {rows}, face_down: [2, 4]}}\n"
                      for age, rows in DUEL_LAYOUTS.items())
    rules = DUO_RULES.replace("  count: 1\n", "  count: 3\n").replace(
        "    1: {rows: [[2], [1, 3]], face_down: [1]}\n", layouts)
    found = duo(ws, rules=rules)
    # only the deck sizes are wrong (this test's decks are tiny), never the layouts
    assert {d.code for d in found} == {"D609"}
    assert sorted(d.message.split(" at ")[0] for d in found) == ["age 1", "age 2", "age 3"]
    assert "the structure holds 20" in found[0].message


def test_structure_layout_mistakes(ws: Workspace) -> None:
    rules = DUO_RULES.replace("    1: {rows: [[2], [1, 3]], face_down: [1]}\n",
                              "    1: {rows: [[2], [1, 2]], face_down: [1, 5]}\n"
                              "    4: {rows: [[1]]}\n")
    found = [(d.code, d.text) for d in duo(ws, rules=rules)]
    assert found == [("D611", "2"), ("D611", "2"), ("D612", "5"), ("D610", "4")]


def test_draw_without_structure_or_hand_is_not_checked(ws: Workspace) -> None:
    # no deck is checked against a hand or a structure (no D608/D609); with boards loaded
    # the draft loop's missing hand is the one error: such a game cannot be dealt
    rules = DUO_RULES.replace("offer:\n  mechanism: structure\n", "offer:\n  mechanism: draft\n")
    found = duo(ws, rules=rules)
    assert [d.code for d in found] == ["D601"]
    assert "ages.hand is missing (offer.mechanism is draft)" in found[0].message


def test_wonder_draft_order(ws: Workspace) -> None:
    rules = DUO_RULES.replace("order: [0, 1]", "order: [0, 2]")
    (found,) = duo(ws, rules=rules)
    assert found.code == "R804" and "pick 2 goes to seat 2" in found.message
    rules = DUO_RULES.replace("{mechanism: draft, pools: 1, size: 2, order: [0, 1]}",
                              "{mechanism: draft}")
    (found,) = duo(ws, rules=rules)
    assert found.code == "R804" and "needs 'pools', 'size' and 'order'" in found.message


def test_setup_needs_what_it_lays_out(ws: Workspace) -> None:
    rules = DUO_RULES.replace("pools: 1, size: 2, order: [0, 1]",
                              "pools: 2, size: 2, order: [0, 1, 1, 0]").replace(
        "{progress: {board: 2}}", "{progress: {board: 2, box: 4}}")
    found = [(d.code, d.location.line, d.message) for d in duo(ws, rules=rules)]
    assert found == [
        ("D614", 14, "the wonder draft lays out 2 pools of 2 wonders, but only 2 are loaded"),
        ("D614", 15, "the setup puts 4 progress tokens in the box, but only 3 are loaded")]


def test_docs_list_every_reserved_word() -> None:
    import re
    text = (Path(__file__).resolve().parent.parent / "docs" / "language.md").read_text(
        encoding="utf-8")
    section = text.split("## Reserved words", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"`([a-z]+)`", section.split("\n\n", 2)[2])
    assert listed == keywords()


def test_comment_after_a_lone_word() -> None:
    _, (problem,) = compile_effects("replya   # a comment", VOCAB)
    assert (problem.code, problem.start, problem.suggestion) == ("E202", 0, "replay")
