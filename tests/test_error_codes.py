"""Every diagnostic code, triggered by bad input, at its exact line and column.

Each case builds a small broken input, loads it, and checks that the code is
reported once at the expected place, with the offending text and, where a
known name is close, the expected "did you mean".  The last test makes sure
every code in ``wonders/dsl/codes.py`` has a case here, so a new code cannot ship
untested.
"""

from __future__ import annotations

import dataclasses
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import jsonschema
import pytest
from conftest import CARDS_HEADER, MINI_RULES, Workspace, card, card_file

from wonders.dsl import schema as schema_module
from wonders.dsl.codes import CODES
from wonders.dsl.errors import Diagnostic, Severity
from wonders.dsl.source import MAX_BYTES, load_text

# A rule set with deck sizes: one age, a hand of one card, and players - 2
# purple cards drawn at random.  With DECK_CARDS it deals exactly 3 cards at 3
# players (2 + 1 drawn) and 4 at 4 players (2 + 2 drawn).
DECK_RULES = MINI_RULES.replace(
    "  count: 3\n",
    "  count: 1\n  hand: 1\n  draw:\n    - {age: 1, colour: purple, count: players - 2}\n")
# where the draw rule's count stands in DECK_RULES (D608 points at it)
DRAW_LINE = next(i for i, text in enumerate(DECK_RULES.splitlines(), 1) if "players - 2" in text)
DRAW_COLUMN = DECK_RULES.splitlines()[DRAW_LINE - 1].index("players - 2") + 1
GUILDS = card("Guild One", colour="purple", players="") + card("Guild Two", colour="purple",
                                                               players="")
# Line numbers in a file made by card_file(): the header takes lines 1-4, then
# each card() entry takes name, age, colour, players, cost, [extra...], effect.


def with_header(extra: str) -> str:
    """The cards header with extra top-level lines before 'cards:'."""
    return CARDS_HEADER.replace("cards:\n", extra + "cards:\n")


WONDERS_HEADER = "kind: wonders\nset: mini\ngame: mini\nwonders:\n"

# The mini rule set with Duel's vocabulary additions: a token kind that pools
# hold, the place 'opponent' and the counting place 'most'.
DUEL_RULES = MINI_RULES.replace(
    "  tokens: [victory, defeat]\n", "  tokens: [victory, defeat, progress]\n"
    "  pools: [board, box]\n").replace(
    "  places: [self, left, right, neighbours]\n",
    "  places: [self, left, right, neighbours, opponent, most]\n")


def structure_rules(layout: str, ages: int = 1, extra: str = "") -> str:
    """The mini rule set with a card structure offer: ``layout`` is age 1's layout."""
    return MINI_RULES.replace("  count: 3\n", f"  count: {ages}\n{extra}offer:\n"
                              f"  mechanism: structure\n  layouts:\n    1: {layout}\n").replace(
        # the abilities a structure game implements (the others are M902)
        "  abilities: [free_build, build_from_discard, play_last_card]\n",
        "  abilities: [build_from_discard]\n")


# A dice-forum game (offer: dice) of one building, two boards and one die (docs/errors.md, D615)
DICE_RULES = 'kind: rules\nname: tiny\nplayers: {min: 2, max: 2}\nvocabulary:\n  resources: {raw: [wood, stone]}\n  colours: [grey]\n  science: []\nages:\n  count: 1\noffer: {mechanism: dice}\nflow:\n  setup: [deal_sheets]\n  turn: {decide: all, start: [shake_forum, note_counts], offer: dice, follow_ups: [bonus, extra], after: [bring_in_dice]}\n  end: {when: [end_trigger]}\n'
DICE_SHEETS = 'kind: sheets\nset: tiny\ngame: tiny\nbuildings:\n  - key: yard\n    name: Yard\n    colour: grey\n    spaces:\n      - {symbol: wood, cost: 0, effect: produce wood}\n      - {symbol: stone, cost: 1, effect: produce stone}\nboards:\n  - {name: North, stages: [{cost: 1, effect: points 3}]}\n  - {name: South, stages: [{cost: 2, effect: points 4}]}\n'
DICE_FORUM = 'kind: forum\nset: tiny\ngame: tiny\nquadrants: [0, 1]\ndice:\n  - name: brown\n    colour: grey\n    faces: [{building: yard, symbol: wood}, {building: yrad, symbol: stone}]\n'


def _dice_typo(ws: Workspace) -> list[Diagnostic]:
    paths = [ws.write("tiny-rules.yaml", DICE_RULES), ws.write("tiny-sheets.yaml", DICE_SHEETS),
             ws.write("tiny-forum.yaml", DICE_FORUM)]
    return ws.load(*paths).report.sorted()


def line_col(text: str, needle: str) -> tuple[int, int]:
    """Where ``needle`` first stands in ``text`` (1-based line and column)."""
    index = text.index(needle)
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


# A decks game (offer: decks) of two Wonders of one piece each (docs/errors.md, D617, M909)
DECKS_RULES = ('kind: rules\nname: tiny\nplayers: {min: 2, max: 2}\nvocabulary:\n'
               '  resources: {raw: [wood, stone]}\n  colours: [grey]\n  science: []\n'
               'ages:\n  count: 1\noffer: {mechanism: decks}\nflow:\n'
               '  setup: [deal_boards, place_decks]\n  turn:\n    offer: decks\n'
               '    after_card: [build_when_paid]\n  end: {when: [wonder_complete, no_card]}\n')
DECKS_COMPONENTS = ('kind: components\nset: tiny\ngame: tiny\ncards:\n'
                    '  wood: {colour: grey, resource: wood}\n'
                    '  stone: {colour: grey, resource: stone}\ndecks:\n'
                    '  central: {face: down, cards: {wood: 2, stone: 2}}\n'
                    '  North: {cards: {wood: 2, stone: 1}}\n'
                    '  South: {cards: {stone: 2, wood: 1}}\nwonders:\n'
                    '  North: [{cost: 2 different, points: 3}]\n'
                    '  South: [{cost: 2 same, points: 4}]\n')


def _decks_game(ws: Workspace, rules: str = DECKS_RULES,
                components: str = DECKS_COMPONENTS) -> list[Diagnostic]:
    paths = [ws.write("tiny-rules.yaml", rules), ws.write("tiny-components.yaml", components)]
    return ws.load(*paths).report.sorted()


def test_the_decks_mini_game_is_valid(ws: Workspace) -> None:
    assert _decks_game(ws) == []


TOKENS_HEADER = "kind: tokens\nset: mini\ngame: mini\ntokens:\n"


def token(name: str, kind: str = "progress", effect: str = "now: coins 6") -> str:
    return f"  - name: {name}\n    kind: {kind}\n    effect: \"{effect}\"\n"


def wonder(name: str, start: str = "produce wood", cost: str = "2 wood",
           effect: str = "points 3") -> str:
    return (f"  - name: {name}\n    sides:\n      A:\n        start: {start}\n"
            f"        stages:\n          - cost: {cost}\n            effect: {effect}\n")


@dataclass
class Case:
    """One way to trigger ``code``; ``run(ws, monkeypatch)`` returns the diagnostics."""

    id: str
    code: str
    run: Callable[[Workspace, pytest.MonkeyPatch], list[Diagnostic]]
    line: int
    column: int
    file: str = "cards.yaml"
    suggestion: str | None = None
    text: str | None = None
    message: tuple[str, ...] = ()  # substrings the message must contain
    severity: Severity = Severity.ERROR
    count: int = 1  # how many diagnostics of this code the input gives
    others: frozenset[str] = field(default_factory=frozenset)  # other codes that may come too


def cards_case(id: str, code: str, yaml: str, line: int, column: int, **kw: object) -> Case:
    """A case that loads the mini rule set with one cards file."""
    return Case(id, code, lambda ws, mp: ws.diagnose(yaml), line, column, **kw)  # type: ignore


def duel_case(id: str, code: str, effect: str, line: int, column: int, **kw: object) -> Case:
    """A case that loads the Duel-like mini rule set with one card of ``effect``."""
    yaml = card_file(card(effect=effect))
    return Case(id, code, lambda ws, mp: ws.diagnose(yaml, rules=DUEL_RULES), line, column,
                **kw)  # type: ignore


def rules_case(id: str, code: str, yaml: str, line: int, column: int, **kw: object) -> Case:
    """A case that loads only a rules file (written as rules.yaml)."""
    return Case(id, code, lambda ws, mp: ws.diagnose(yaml, "rules.yaml", rules=None), line,
                column, file="rules.yaml", **kw)  # type: ignore


def deck_case(id: str, code: str, yaml: str, line: int, column: int, **kw: object) -> Case:
    """A case that loads DECK_RULES (which has deck sizes) with one cards file."""
    return Case(id, code, lambda ws, mp: ws.diagnose(yaml, rules=DECK_RULES), line, column,
                **kw)  # type: ignore


# --- cases that need more than one file ---------------------------------------------

def _too_large(ws: Workspace, mp: pytest.MonkeyPatch) -> list[Diagnostic]:
    path = ws.write("cards.yaml", "# padding\n" + "#" * MAX_BYTES + "\n")
    assert path.stat().st_size > MAX_BYTES
    return ws.load(ws.rules(), path).report.sorted()


def _missing_path(ws: Workspace, mp: pytest.MonkeyPatch) -> list[Diagnostic]:
    return ws.load(ws.rules(), ws.root / "cards.yaml").report.sorted()


def _empty_folder(ws: Workspace, mp: pytest.MonkeyPatch) -> list[Diagnostic]:
    folder = ws.root / "cards.yaml"  # a folder, named so the case's file matches
    folder.mkdir()
    (folder / "notes.txt").write_text("no yaml here\n")
    return ws.load(ws.rules(), folder).report.sorted()


def _second_rules(ws: Workspace, mp: pytest.MonkeyPatch) -> list[Diagnostic]:
    first = ws.rules()
    second = ws.write("rules2.yaml", MINI_RULES.replace("name: mini", "name: other"))
    return ws.load(first, second).report.sorted()


def _extends_cycle(ws: Workspace, mp: pytest.MonkeyPatch) -> list[Diagnostic]:
    ws.write("b.yaml", "kind: rules\nname: b\nextends: a.yaml\n")
    return ws.load(ws.write("a.yaml", "kind: rules\nname: a\nextends: b.yaml\n")).report.sorted()


def _extends_conflict(ws: Workspace, mp: pytest.MonkeyPatch) -> list[Diagnostic]:
    ws.write("rich.yaml", "kind: rules\nname: rich\nextends: base\nsetup: {coins: 5}\n")
    ws.write("richer.yaml", "kind: rules\nname: richer\nextends: base\nsetup: {coins: 8}\n")
    return ws.load(ws.write("both.yaml", "kind: rules\nname: both\n"
                            "extends: [rich.yaml, richer.yaml]\n")).report.sorted()


def _no_rules(ws: Workspace, mp: pytest.MonkeyPatch) -> list[Diagnostic]:
    text = card_file(card(), header=CARDS_HEADER.replace("game: mini", "game: bsae"))
    return ws.diagnose(text, rules=None)


def _duplicate_token(ws: Workspace, mp: pytest.MonkeyPatch) -> list[Diagnostic]:
    return ws.diagnose(TOKENS_HEADER + token("Agriculture") + token("Agriculture"),
                       "tokens.yaml", rules=DUEL_RULES)


def _rules_case(id: str, code: str, rules: str, needle: str, cards: str = "",
                **kw: object) -> Case:
    """A case that loads ``rules`` (and a cards file) and reports at ``needle`` in the rules."""
    line, column = line_col(rules, needle)
    text = cards or card_file(card("Well", players="", extra="count: 2\n"))
    return Case(id, code, lambda ws, mp: ws.diagnose(text, rules=rules), line, column,
                file="rules.yaml", **kw)  # type: ignore[arg-type]


STRUCTURE_TWO = structure_rules("{rows: [[1, 3]]}")
STRUCTURE_LAYOUT_AT = "{rows: [[1, 3]]}"
TOKEN_SETUP_RULES = DUEL_RULES.replace(
    "ages:\n", "setup:\n  tokens: {progress: {board: 2}}\nages:\n")
DRAFT_RULES = MINI_RULES.replace(
    "ages:\n", "setup:\n  wonders: {mechanism: draft, pools: 2, size: 2, order: [0, 1, 1]}\n"
    "ages:\n")


TRACK_RULES = MINI_RULES.replace(
    "ages:\n", "military:\n  mechanism: track\n  supremacy: 9\n"
    "  zones: [{from: 4, points: 2}, {from: 3, points: 5}]\nages:\n")


def _duplicate_wonder(ws: Workspace, mp: pytest.MonkeyPatch) -> list[Diagnostic]:
    return ws.diagnose(WONDERS_HEADER + wonder("Colossus") + wonder("Colossus"), "wonders.yaml")


def _other_schema_case(ws: Workspace, mp: pytest.MonkeyPatch) -> list[Diagnostic]:
    # No shipped schema uses a keyword that falls through to S100, so check the
    # translation with a schema that does ('multipleOf').
    custom = {"type": "object", "properties": {"age": {"type": "integer", "multipleOf": 2}}}
    mp.setattr(schema_module, "_validator",
               lambda kind: jsonschema.Draft7Validator(custom))
    doc, problems = load_text("cards.yaml", "kind: cards\nage: 3\n")
    assert doc is not None and not problems
    return schema_module.validate(doc, "cards")


CASES: list[Case] = [
    # Y: reading the file
    Case("not-utf8", "Y001", lambda ws, mp: ws.diagnose(b"kind: cards\nset: caf\xe9\n"), 2, 9,
         message=("not UTF-8", "0xe9")),
    cards_case("unquoted-colon", "Y002", card_file(card(effect="now: coins 2")), 10, 16,
               message=("mapping values are not allowed", "must be quoted")),
    Case("too-large", "Y003", _too_large, 1, 1, message=("2.0 MB", "limited to 2 MB")),
    cards_case("too-deep", "Y004", "kind: cards\nx: " + "[" * 100 + "]" * 100 + "\n", 2, 68,
               message=("nested more than 64 levels",)),
    cards_case("python-tag", "Y005",
               "kind: cards\nset: !!python/object/apply:os.system ['true']\n", 2, 6,
               text="!!python/object/apply:os.system",
               message=("is not allowed",), others=frozenset({"S101", "S102"})),
    cards_case("duplicate-key", "Y006", card_file(card(extra="age: 2\n")), 10, 5, text="age",
               message=("duplicate key 'age'",)),
    cards_case("empty-file", "Y007", "", 1, 1, message=("the file is empty",)),
    # S: shape
    Case("other-schema-error", "S100", _other_schema_case, 2, 6, message=("multiple of 2",)),
    cards_case("wrong-type", "S101", card_file(card(age='"one"')), 6, 10, text="one",
               message=("'age' must be a whole number, not text",)),
    cards_case("missing-key", "S102",
               CARDS_HEADER + "  - name: Well\n    age: 1\n    colour: blue\n    players: [3+]\n"
               "    cost: free\n",
               5, 5, message=("missing required key 'effect' in 'cards'",)),
    cards_case("unknown-key", "S103", card_file(card(extra="colur: blue\n")), 10, 5,
               suggestion="colour", text="colur", message=("unknown key 'colur'",)),
    cards_case("bad-kind", "S104", "kind: card\n", 1, 7, suggestion="cards", text="card",
               message=("'kind' is 'card', not one of: cards, wonders, rules",)),
    cards_case("bad-marker", "S105", card_file(card(players="[3+, three]")), 8, 19,
               text="three", message=("a player marker is written like 3+",)),
    cards_case("players-and-count", "S107", card_file(card(extra="count: 1\n")), 10, 5,
               text="count", message=("either 'players'", "or 'count'")),
    cards_case("age-negative", "S106", card_file(card(age=-1)), 6, 10, text="-1",
               message=("'age' must be at least 0",)),
    # E: effect syntax
    cards_case("bad-character", "E201", card_file(card(effect="points 3 @ 2")), 10, 22,
               text="@", message=("unexpected character '@'",)),
    cards_case("misspelt-keyword", "E202", card_file(card(effect="prodce wood")), 10, 13,
               suggestion="produce", text="prodce", message=("unexpected 'prodce'",)),
    cards_case("ends-early", "E203", card_file(card(effect="produce")), 10, 20,
               message=("ends too early",)),
    cards_case("number-too-large", "E204", card_file(card(effect="coins 1234567")), 10, 19,
               text="1234567", message=("too large", "at most 999999")),
    # N: names
    cards_case("unknown-resource", "N301", card_file(card(effect="produce wod | clay")), 10, 21,
               suggestion="wood", text="wod", message=("unknown resource 'wod'",)),
    cards_case("unknown-colour", "N302", card_file(card(colour="bleu")), 7, 13,
               suggestion="blue", text="bleu", message=("unknown colour 'bleu'",)),
    cards_case("unknown-science", "N303", card_file(card(effect="science compas")), 10, 21,
               suggestion="compass", text="compas", message=("unknown science symbol",)),
    cards_case("unknown-place", "N304",
               card_file(card(effect='"end: points 1 per blue card in lefft"')), 10, 45,
               suggestion="left", text="lefft", message=("unknown place 'lefft'",)),
    cards_case("unknown-token", "N305",
               card_file(card(effect='"end: points 1 per victroy token in self"')), 10, 32,
               suggestion="victory", text="victroy", message=("unknown token kind",)),
    cards_case("unknown-ability", "N306",
               card_file(card(effect="ability free_buld once per age")), 10, 21,
               suggestion="free_build", text="free_buld", message=("unknown ability",)),
    rules_case("unknown-variable", "N307",
               MINI_RULES.replace("  count: 3\n", "  count: 3\n  draw:\n"
                                  "    - {age: 3, colour: purple, count: playrs + 2}\n"),
               18, 39, suggestion="players", text="playrs",
               message=("unknown variable 'playrs'",)),
    cards_case("unknown-period", "N308",
               card_file(card(effect="ability free_build once per agee")), 10, 41,
               suggestion="age", text="agee", message=("unknown period 'agee'",)),
    duel_case("unknown-pool", "N309", "take progress token from bord", 10, 38,
              suggestion="board", text="bord", message=("unknown token pool 'bord'",)),
    duel_case("unknown-activation-place", "N310", "activate progress token from top", 10, 42,
              suggestion="tops", text="top", message=("unknown place to activate from 'top'",)),
    cards_case("unknown-influence-action", "N311",
               card_file(card(effect="influence plase 1 in any")), 10, 23,
               suggestion="place", text="plase", message=("unknown influence action 'plase'",)),
    cards_case("unknown-kept-count", "N312",
               card_file(card(effect="coins 1 per agge")), 10, 25,
               suggestion="age", text="agge", message=("unknown count 'agge'",)),
    cards_case("unknown-moment", "N320",
               card_file(card(effect='"on drafted: coins 2"')), 10, 17,
               suggestion="draft", text="drafted", message=("unknown moment 'on drafted:'",)),
    duel_case("unknown-remove-source", "N316", "remove progress token from bord", 10, 40,
              suggestion="board", text="bord",
              message=("unknown place to remove a token from 'bord'",)),
    duel_case("unknown-free-build-source", "N317", "build free card from last rwo", 10, 34,
              suggestion="last row", text="last rwo",
              message=("unknown place to build a free card from 'last rwo'",)),
    # T: meaning
    cards_case("bad-timing", "T401", card_file(card(effect='"now: produce wood"')), 10, 14,
               text="now:", message=("'now:' does not apply to 'produce'",)),
    cards_case("quantity-with-choice", "T402", card_file(card(effect="produce 2 wood | clay")),
               10, 13, text="produce 2 wood | clay", message=("'produce 2' needs a single",)),
    cards_case("zero-shields", "T403", card_file(card(effect="shields 0")), 10, 13,
               text="shields 0", message=("0 shields",)),
    cards_case("listed-twice", "T404", card_file(card(effect="science wheel | wheel")), 10, 29,
               text="wheel", message=("'wheel' is listed twice",)),
    duel_case("most-destroyed", "T405", "destroy brown card in most", 10, 35,
              text="most", message=("'destroy' acts on cities", "'most' is not one")),
    cards_case("condition-on-ongoing", "T406", card_file(card(effect="produce wood if wonder "
                                                                "complete")), 10, 26,
               text="if wonder complete", message=("an ongoing 'produce' has none",)),
    cards_case("trade-discount-in-resources", "T407", card_file(card(
        effect="discount 1 resource on trade from left")), 10, 13,
        text="discount 1 resource on trade from left", message=("a discount on trade is in coins",)),
    cards_case("priced-coin-discount", "T408", card_file(card(
        effect="discount 1 coin on cards for 1 coin")), 10, 13,
        text="discount 1 coin on cards for 1 coin",
        message=("only a discount of resources can cost coins",)),
    cards_case("influence-without-its-place", "T410",
               card_file(card(effect="influence place 1")), 10, 13, text="influence place 1",
               message=("'influence place' is written 'influence place N in any",)),
    cards_case("rounded-up-undivided", "T411",
               card_file(card(effect="points 1 per coin rounded up")), 10, 20,
               text="1 per coin rounded up", message=("'rounded up' rounds a count divided",)),
    cards_case("kept-count-at-the-end", "T412",
               card_file(card(effect='"end: points 1 per age"')), 10, 14,
               text="end: points 1 per age", message=("'per age' is a count the flow keeps",)),
    cards_case("or-coins-on-a-wonder", "T413",
               card_file(card(effect="discount 1 resource or every coin on wonder")), 10, 13,
               text="discount 1 resource or every coin on wonder",
               message=("'… or every coin' chooses between resources",)),
    cards_case("space-outside-an-advance", "T414",
               card_file(card(effect='"now: coins 1 per space"')), 10, 14,
               text="now: coins 1 per space",
               message=("'per space' counts the spaces the conflict pawn has just moved",
                        "'on advance:' clause only")),
    cards_case("space-of-another-city", "T414",
               card_file(card(effect='"on advance: coins 1 per space in left"')), 10, 14,
               text="on advance: coins 1 per space in left",
               message=("'per space' counts the owner's own advance",)),
    cards_case("draft-pick-without-a-once-form", "T421",
               card_file(card(effect='"on draft: points 3"')), 10, 14, text="on draft:",
               message=("'on draft:' acts once, as the wonder is picked: 'points' has no such",),
               others=frozenset({"T422"})),
    cards_case("draft-pick-on-a-card", "T422",
               card_file(card(effect='"now: coins 1; on draft: coins 2"')), 10, 28,
               text="on draft:", message=("only a wonder's effect has it",)),
    duel_case("swap-with-self", "T417", "swap blue card with self", 10, 33,
              text="self", message=("'swap … with self' changes nothing",)),
    cards_case("self-gives", "T409", card_file(card(effect="self gives 1 coin")), 10, 13,
               text="self", message=("the owner cannot give coins to itself",)),
    # C: chains
    cards_case("misspelt-chain", "C501",
               card_file(card("Baths", extra="makes_free: [Aquaduct]\n"),
                         card("Aqueduct", age=2)), 10, 18, suggestion="Aqueduct",
               text="Aquaduct", message=("'Baths' chains to 'Aquaduct'",)),
    cards_case("same-age-chain", "C502",
               card_file(card("Baths", age=2, extra="makes_free: [Aqueduct]\n"),
                         card("Aqueduct", age=2)), 10, 18, text="Aqueduct",
               message=("'Baths' (age 2) cannot make 'Aqueduct' (age 2) free",)),
    cards_case("cycle", "C503",
               card_file(card("Altar", extra="makes_free: [Temple]\n"),
                         card("Temple", age=2, extra="makes_free: [Altar]\n")), 10, 18,
               text="Temple", message=("cycle: Altar → Temple → Altar",),
               others=frozenset({"C502"})),
    cards_case("disagreeing-chain", "C504",
               card_file(card("Altar", extra="makes_free: [Temple]\n"),
                         card("Temple", age=2, extra="free_if_built: [Baths]\n"),
                         card("Baths")), 10, 18, text="Temple",
               message=("'Altar' says makes_free: Temple, but 'Temple' does not list 'Altar'",)),
    cards_case("chain-to-unloaded-set", "C505",
               card_file(card("Aqueduct", age=2, extra="free_if_built: [Baths]\n")), 10, 21,
               text="Baths", message=("a card of set 'base', which is not loaded",)),
    # D: decks
    deck_case("deck-short", "D601", card_file(card("Well", players="[3+]"), GUILDS), 16, 11,
              count=2, message=("age 1 at 3 players has 2 cards (1 by player markers + 1 drawn)"
                                ", but needs 3 (1 cards × 3 players)",)),
    deck_case("not-drawn", "D602",
              card_file(card("Well", players="[3+, 3+]"), GUILDS, card("Altar", players="")),
              21, 11, message=("'Altar' has no 'players' markers",
                               "draws no blue cards into age 1")),
    deck_case("age-missing", "D603",
              card_file(card("Well", players="[3+, 3+]"), GUILDS, card("Temple", age=2)),
              21, 11, message=("'Temple' is in age 2, but the rule set has 1 ages",)),
    deck_case("marker-too-high", "D604", card_file(card("Well", players="[3+, 3+, 5+]"), GUILDS),
              5, 11, severity=Severity.WARNING,
              message=("'Well' has a copy marked 5+", "at most 4 players")),
    cards_case("card-twice", "D605", card_file(card("Well"), card("Well")), 11, 11, text="Well",
               message=("card 'Well' of age 1 is defined twice",)),
    Case("wonder-twice", "D606", _duplicate_wonder, 12, 11, file="wonders.yaml", text="Colossus",
         message=("wonder 'Colossus' is defined twice",)),
    cards_case("remove-unknown", "D607", card_file(card("Well"), header=with_header(
        "remove: [Wel]\n")), 4, 10, text="Wel", suggestion="Well",
        message=("cannot remove 'Wel'",)),
    cards_case("replaces-unknown", "D620", card_file(card("Well"), card("Spring", extra=
        "replaces: Wel\n")), 16, 15, text="Wel", suggestion="Well",
        message=("'replaces: Wel' names no loaded card",)),
    deck_case("draw-too-many", "D608",
              card_file(card("Well", players="[3+, 3+]"), card("Guild One", colour="purple",
                                                                players="")),
              DRAW_LINE, DRAW_COLUMN, file="rules.yaml",
              message=("age 1 at 4 players draws 2 purple cards (players - 2), but only 1 "
                       "exist",), others=frozenset({"D601"})),
    _rules_case("structure-short", "D609", STRUCTURE_TWO, STRUCTURE_LAYOUT_AT,
                card_file(card("Well", players="", extra="count: 1\n")),
                message=("age 1 at 3 players puts 1 cards in its structure (1 in the deck), "
                         "but the structure holds 2",), count=2),
    _rules_case("structure-missing", "D610", structure_rules("{rows: [[1, 3]]}", ages=2),
                "1: {rows", message=("age 2 has no card structure",)),
    _rules_case("structure-floating", "D611", structure_rules("{rows: [[1], [4]]}"), "4]]",
                text="4", message=("row 2: the card at column 4 covers no card of row 1",)),
    _rules_case("face-down-row", "D612",
                structure_rules("{rows: [[1], [2]], face_down: [3]}"), "3]}", text="3",
                message=("face-down row 3, but the structure has 2 rows",)),
    Case("token-twice", "D613", _duplicate_token, 8, 11, file="tokens.yaml", text="Agriculture",
         message=("token 'Agriculture' is defined twice",)),
    Case("dice-face-building", "D615", lambda ws, mp: _dice_typo(ws), *line_col(DICE_FORUM, "yrad"),
         file="tiny-forum.yaml", text="yrad", suggestion="yard",
         message=("unknown building 'yrad'",)),
    Case("deck-kind-typo", "D617",
         lambda ws, mp: _decks_game(ws, components=DECKS_COMPONENTS.replace(
             "wood: 2, stone: 1", "wood: 2, stne: 1")),
         *line_col(DECKS_COMPONENTS.replace("wood: 2, stone: 1", "wood: 2, stne: 1"), "stne"),
         file="tiny-components.yaml", text="stne", suggestion="stone",
         message=("deck 'North' counts cards of kind 'stne'",)),
    Case("wonder-without-deck", "D617",
         lambda ws, mp: _decks_game(ws, components=DECKS_COMPONENTS.replace(
             "  South: [{cost", "  Suoth: [{cost")),
         *line_col(DECKS_COMPONENTS.replace("  South: [{cost", "  Suoth: [{cost"), "Suoth"),
         file="tiny-components.yaml", text="Suoth", suggestion="South",
         message=("Wonder 'Suoth' has no deck",)),
    Case("flow-step-typo", "M909",
         lambda ws, mp: _decks_game(ws, rules=DECKS_RULES.replace("place_decks", "place_deck")),
         *line_col(DECKS_RULES.replace("place_decks", "place_deck"), "place_deck"),
         file="tiny-rules.yaml", text="place_deck", suggestion="place_decks",
         message=("unknown step 'place_deck'",)),
    Case("flow-step-misplaced", "M909",
         lambda ws, mp: _decks_game(ws, rules=DECKS_RULES.replace(
             "[build_when_paid]", "[build_when_paid, place_decks]")),
         *line_col(DECKS_RULES.replace("[build_when_paid]", "[build_when_paid, place_decks]"),
                   "place_decks]\n  end"),
         file="tiny-rules.yaml", text="place_decks",
         message=("step 'place_decks' cannot run in after_card",)),
    Case("flow-parameter-typo", "M909",
         lambda ws, mp: _decks_game(ws, rules=DECKS_RULES.replace(
             "place_decks]", "place_decks, {lay_progress: {face: 3}}]")),
         *line_col(DECKS_RULES.replace("place_decks]", "place_decks, {lay_progress: {face: 3}}]"),
                   "face: 3"),
         file="tiny-rules.yaml", text="face", suggestion="face_up",
         message=("step 'lay_progress' reads no parameter 'face'",)),
    Case("flow-never-lays-the-tokens", "M909",
         lambda ws, mp: _decks_game(ws, components=DECKS_COMPONENTS
                                    + "progress:\n  Tactics: {shields: 2}\n"),
         len(DECKS_COMPONENTS.splitlines()) + 1, 1, file="tiny-components.yaml",
         text="progress", message=("the flow has no 'lay_progress' step",)),
    Case("flow-beside-a-draft", "M909",
         lambda ws, mp: ws.diagnose(card_file(card()), "cards.yaml", rules=MINI_RULES + (
             "flow:\n  turn: {offer: decks}\n")),
         len(MINI_RULES.splitlines()) + 1, 1, file="rules.yaml", text="flow",
         message=("a 'flow:' section is read only by the flow interpreter",)),
    _rules_case("too-few-reserve-cards", "D616", MINI_RULES + "reserve: {colour: blue, hand: 1}\n",
                "blue, hand", message=("the reserve deals 1 blue cards to each of up to 4 "
                                       "players (4), but only 1 are loaded",)),
    Case("too-few-tokens", "D614", lambda ws, mp: ws.diagnose(
        TOKENS_HEADER + token("Agriculture"), "tokens.yaml", rules=TOKEN_SETUP_RULES),
        *line_col(TOKEN_SETUP_RULES, "2}}"), file="rules.yaml",
        message=("the setup puts 2 progress tokens in the board, but only 1 are loaded",)),
    # L: loading
    Case("missing-file", "L701", _missing_path, 0, 0, message=("no such file or folder",)),
    Case("no-rule-set", "L702", _no_rules, 3, 7, suggestion="base", text="bsae",
         message=("no rule set named 'bsae'",)),
    Case("two-rule-sets", "L703", _second_rules, 1, 7, file="rules2.yaml",
         message=("a second rule set 'other'",)),
    cards_case("other-game", "L704", card_file(card(), header=CARDS_HEADER.replace(
        "game: mini", "game: base")), 3, 7, text="base",
        message=("written for game 'base', but the rule set loaded is 'mini'",)),
    cards_case("requires-missing", "L705", card_file(card(), header=with_header(
        "requires: [mni]\n")), 4, 12, suggestion="mini", text="mni",
        message=("requires set 'mni', which is not loaded",)),
    Case("extends-unknown", "L706", lambda ws, mp: ws.load(ws.write(
        "rules.yaml", "kind: rules\nname: variant\nextends: bsae\n")).report.sorted(),
        3, 10, file="rules.yaml", suggestion="base", text="bsae",
        message=("names no shipped game",)),
    Case("extends-cycle", "L707", _extends_cycle, 3, 10, file="b.yaml", text="a.yaml",
         message=("closes a cycle",)),
    Case("extends-conflict", "L709", _extends_conflict, 3, 10, file="both.yaml",
         message=("set 'setup.coins' differently: 5", "set 'setup.coins' in this rule set")),
    Case("scenario-among-data", "L708", lambda ws, mp: ws.diagnose(
        "kind: scenarios\ngame: mini\nscenarios: []\n", "test.yaml"), 1, 7, file="test.yaml",
        severity=Severity.WARNING, message=("skipped",)),
    # R: rule sets
    rules_case("min-above-max", "R801", MINI_RULES.replace("min: 3, max: 4", "min: 5, max: 4"),
               4, 10, message=("players min (5) is above max (4)",)),
    rules_case("pass-per-age", "R802",
               MINI_RULES.replace("  count: 3\n", "  count: 3\n  pass: [left, right]\n"), 17, 9,
               message=("'pass' gives 2 directions for 3 ages",)),
    rules_case("score-line", "R803", MINI_RULES + "score:\n  order: [military, civilian]\n"
               "  colours: {blue: civilan}\n", 19, 19, suggestion="civilian", text="civilan",
               message=("score line 'civilan' is not in score.order",)),
    rules_case("wonder-draft-order", "R804", DRAFT_RULES, *line_col(DRAFT_RULES, "[0, 1, 1]"),
               message=("'order' gives 3 picks, but 2 pools of 2 wonders make 4",),
               others=frozenset({"D614"})),  # no wonders are loaded
    rules_case("track-zones", "R805", TRACK_RULES, *line_col(TRACK_RULES, "3, points: 5"),
               message=("zone 2 starts 3 spaces out, but zones must start further out than "
                        "the one before (4)",)),

]

# --- what the game loop runs (M9xx): a shipped game copied with one change ---------------

SHIPPED = Path(__file__).resolve().parent.parent / "cards"


def _shipped_text(game: str, name: str) -> str:
    return (SHIPPED / game / name).read_text(encoding="utf-8")


def shipped_case(id: str, code: str, game: str, name: str, old: str, new: str, needle: str,
                 extra: dict[str, str] | None = None, **kw: object) -> Case:
    """A case that loads a copy of a shipped game whose file ``name`` has ``old``
    replaced by ``new`` (and ``extra`` files added); the diagnostic stands at ``needle``."""
    changed = _shipped_text(game, name).replace(old, new, 1)
    assert changed != _shipped_text(game, name) or old == new
    line, column = line_col(changed, needle)

    def run(ws: Workspace, mp: pytest.MonkeyPatch) -> list[Diagnostic]:
        for path in sorted((SHIPPED / game).glob("*.yaml")):
            ws.write(path.name, changed if path.name == name else
                     path.read_text(encoding="utf-8"))
        for extra_name, text in (extra or {}).items():
            ws.write(extra_name, text)
        return ws.load(ws.root).report.sorted()

    return Case(id, code, run, line, column, file=name, **kw)  # type: ignore[arg-type]


BASE_REPLAY = ("kind: cards\nset: extra\ngame: base\ncards:\n  - name: Encore\n    age: 1\n"
               "    colour: red\n    players: [8]\n    cost: free\n"
               "    effect: \"shields 1; now: replay\"\n")
TWO_BOARDS = _shipped_text("base", "wonders.yaml").split("  - name: Babylon")[0]
MECHANISM_CASES: list[Case] = [
    shipped_case("replay-in-a-draft", "M901", "base", "age1.yaml", "cards:\n", "cards:\n",
                 "cards:", extra={"encore.yaml": BASE_REPLAY}),
    shipped_case("unimplemented-ability", "M902", "base", "rules.yaml",
                 "play_last_card]", "play_last_card, trade_income]", "trade_income",
                 text="trade_income", message=("not implemented by the draft game loop",)),
    shipped_case("pool-nothing-fills", "M903", "duel", "rules.yaml", "pools: [board, box]",
                 "pools: [board, box, market]", "market", text="market",
                 message=("token pool 'market' is never filled",)),
    shipped_case("too-few-boards", "M904", "base", "wonders.yaml",
                 _shipped_text("base", "wonders.yaml"), TWO_BOARDS, "kind: wonders",
                 message=("wonder boards are loaded, but each of up to 7 players needs one",)),
    shipped_case("next-age-unread", "M905", "base", "rules.yaml", "ages:\n",
                 "turns: {next_age: weaker_military}\n\nages:\n", "next_age",
                 text="next_age", message=("turns.next_age is never read",)),
]
# the replay case stands in encore.yaml, the boards case in rules.yaml (players.max)
MECHANISM_CASES[0] = Case(
    "replay-in-a-draft", "M901", MECHANISM_CASES[0].run, *line_col(BASE_REPLAY, "now: replay"),
    file="encore.yaml",
    text="now: replay", message=("replay needs sequential turns",),
    others=frozenset({"D604"}))  # (the card is marked for 8 players, so decks stay whole)
_BASE_RULES = _shipped_text("base", "rules.yaml")
MECHANISM_CASES[3] = Case(
    "too-few-boards", "M904", MECHANISM_CASES[3].run,
    *line_col(_BASE_RULES, "max: 7}"), file="rules.yaml",
    message=MECHANISM_CASES[3].message)
MECHANISM_CASES[3].column += len("max: ")


def base_extra_case(id: str, code: str, effect: str, age: int = 1, game: str = "base",
                    **kw: object) -> Case:
    """A case that loads the shipped ``game`` with one extra card (marked for 8 players, so
    the decks stay whole) whose effect is ``effect``; the diagnostic stands at the effect."""
    text = (f"kind: cards\nset: extra\ngame: {game}\ncards:\n  - name: Probe\n    age: {age}\n"
            "    colour: yellow\n    players: [8]\n    cost: free\n"
            f"    effect: \"{effect}\"\n")
    run = shipped_case(id, code, game, "rules.yaml", "kind:", "kind:", "kind:",
                       extra={"extra.yaml": text}).run
    return Case(id, code, run, *line_col(text, effect), file="extra.yaml", text=effect,
                others=frozenset({"D604"}), **kw)  # type: ignore[arg-type]


MECHANISM_CASES += [
    base_extra_case("discard-build-per-age", "M906", "ability build_from_discard once per age",
                    message=("does not act 'once per age' in the draft game loop",
                             "write 'ability build_from_discard' or "
                             "'ability build_from_discard once'")),
    base_extra_case("trade-price-above-the-rule", "M907", "buy raw from left at 3",
                    message=("'buy … at 3' never acts: the rule set's trade price is 2",)),
    base_extra_case("age-start-in-the-last-age", "M908", "on age start: coins 3", age=3,
                    severity=Severity.WARNING,
                    message=("'on age start:' never acts on a card of age 3",)),
]
AGORA = Path(__file__).resolve().parent.parent / "expansions" / "agora"
# Agora with its wonder draft before the conspiracies' stack (M912: Curia Julia conspires
# when picked, so the stack must be laid first)
_AGORA_LATE_STACK = (AGORA / "rules.yaml").read_text(encoding="utf-8").replace(
    "    - stack_held: {kind: conspiracy}         # A3\n    - draft_wonders\n",
    "    - draft_wonders\n    - stack_held: {kind: conspiracy}         # A3\n")
_AGORA_WONDERS = (AGORA / "wonders.yaml").read_text(encoding="utf-8")


def _agora_late_stack(ws: Workspace, mp: pytest.MonkeyPatch) -> list[Diagnostic]:
    assert "draft_wonders\n    - stack_held" in _AGORA_LATE_STACK
    for path in sorted(AGORA.glob("*.yaml")):
        ws.write(path.name, _AGORA_LATE_STACK if path.name == "rules.yaml"
                 else path.read_text(encoding="utf-8"))
    return ws.load(ws.root).report.sorted()


MECHANISM_CASES.append(Case(
    "draft-before-its-stack", "M912", _agora_late_stack,
    *line_col(_AGORA_WONDERS, "on draft: conspire"), file="wonders.yaml",
    text="on draft: conspire", message=("flow step 'stack_held' comes after 'draft_wonders'",)))
CASES += MECHANISM_CASES

# Further cases for codes with several distinct triggers.
EXTRA_CASES: list[Case] = [
    cards_case("nul-bytes", "Y001", "kind: cards\nset: a\x00b\n", 2, 7,
               message=("NUL bytes",)),
    Case("binary", "Y001", lambda ws, mp: ws.diagnose(b"kind: cards\n\xff\xfe\x00\x01"), 2, 1,
         message=("0xff",)),
    cards_case("unclosed-list", "Y002", "kind: cards\nset: [a\n", 3, 1,
               message=("did not find expected ',' or ']'",)),
    cards_case("alias-bomb", "Y004",
               "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
               + "".join(f"{n}: &{n} [{', '.join(['*' + p] * 10)}]\n"
                         for p, n in zip("abcdefgh", "bcdefghi")), 1, 32,
               message=("more than 200000 values",)),
    cards_case("merge-key", "Y005", "kind: cards\nbase: &b {a: 1}\nx:\n  <<: *b\n", 4, 3,
               message=("merge keys (<<) are not supported",), others=frozenset({"S102", "S103"})),
    cards_case("set-tag-on-map", "Y005", "kind: cards\nset: !!set {a, b}\n", 2, 6,
               text="!!set", others=frozenset({"S101", "S102"})),
    cards_case("two-documents", "Y007", card_file(card()) + "---\nkind: cards\n", 12, 1,
               message=("more than one YAML document",)),
    cards_case("not-a-map", "S101", "- kind: cards\n", 1, 1,
               message=("must be a map with a 'kind' key",)),
    cards_case("no-kind", "S102", "set: mini\n", 1, 1, message=("missing required key 'kind'",)),
    Case("side-name", "S105", lambda ws, mp: ws.diagnose(
        WONDERS_HEADER + wonder("Colossus").replace("      A:", "      a:"), "wonders.yaml"),
        7, 7, file="wonders.yaml", text="a", message=("a side is named by one capital letter",)),
    cards_case("repeated-marker-list", "S106", card_file(card(extra="makes_free: [A, A]\n")),
               10, 17, message=("'makes_free' lists the same item twice",),
               others=frozenset({"C501"})),
    cards_case("empty-effect", "E203", card_file(card(effect='""')), 10, 14,
               message=("the effect is empty",)),
    cards_case("cost-resource", "N301", card_file(card(cost="1 wod")), 9, 13, suggestion="wood",
               text="wod"),
    Case("wonder-stage-resource", "N301", lambda ws, mp: ws.diagnose(
        WONDERS_HEADER + wonder("Colossus", cost="2 wod"), "wonders.yaml"), 10, 21,
        file="wonders.yaml", suggestion="wood", text="wod"),
    cards_case("colour-in-effect", "N302",
               card_file(card(effect='"end: points 1 per bleu card in left"')), 10, 32,
               suggestion="blue", text="bleu"),
    cards_case("zero-cost", "T403", card_file(card(cost="0 wood")), 9, 11, text="0 wood",
               message=("a cost of 0",)),
    cards_case("cost-twice", "T404", card_file(card(cost="1 wood, 1 wood")), 9, 21, text="wood",
               message=("resource 'wood' is listed twice",)),
    cards_case("earlier-age-chain", "C502",
               card_file(card("Aqueduct", age=2, extra="free_if_built: [Baths]\n"),
                         card("Baths", age=3)), 10, 21, text="Baths",
               message=("'Baths' (age 3) cannot make 'Aqueduct' (age 2) free",)),
    Case("empty-folder", "L701", _empty_folder, 0, 0, message=("holds no .yaml files",)),
    rules_case("victory-per-age", "R802",
               MINI_RULES + "military: {victory: [1, 3], defeat: -1}\n", 17, 21,
               message=("'victory' gives 2 values for 3 ages",)),
    # issue 28: forms that validated and then did not act as described
    base_extra_case("first-of-colour-once", "M906", "ability free_first_of_colour once",
                    game="base2e",
                    message=("does not act 'once'", "write 'ability free_first_of_colour'")),
    base_extra_case("duel-discard-build-per-age", "M906",
                    "ability build_from_discard once per age", game="duel",
                    message=("in the structure game loop",)),
    base_extra_case("age-end-shields-in-the-last-age", "M908", "on age end: shields 2", age=3,
                    severity=Severity.WARNING,
                    message=("shields that arrive at the end of an age (after its battles) on "
                             "a card of age 3 count in no battle",)),
    base_extra_case("token-shields-in-the-last-age", "M908", "on victory token: shields 1",
                    age=3, severity=Severity.WARNING,
                    message=("with a token (given after an age's battles)",)),
    # issue 28: the dice loop's rule set is checked as the others' are
    shipped_case("dice-unknown-ability", "M902", "dice", "rules.yaml", "free_die]",
                 "free_die, fre_die]", "fre_die]", text="fre_die", suggestion="free_die",
                 message=("ability 'fre_die' is not implemented by the dice game loop",)),
    shipped_case("dice-reads-no-cards", "M905", "dice", "rules.yaml", "kind:", "kind:",
                 "kind:", extra={"extra.yaml": "kind: cards\nset: x\ngame: dice\ncards:\n"
                                 "  - {name: Probe, age: 1, colour: grey, players: [8], "
                                 "cost: free, effect: \"now: coins 2\"}\n"},
                 others=frozenset({"D604"}), message=("a cards file is never read",)),
    shipped_case("dice-empty-score-order", "R803", "dice", "rules.yaml",
                 "order: [buildings, barracks, wonder, bonuses]", "order: []", "order: []",
                 text="[]", message=("score.order is empty",
                                     "score.colours and score.tokens name barracks, buildings")),
]
EXTRA_CASES[-1].column += len("order: ")
EXTRA_CASES[-2] = dataclasses.replace(EXTRA_CASES[-2], file="extra.yaml", line=1, column=7,
                                      text="cards")


def _check(case: Case, ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    diagnostics = case.run(ws, monkeypatch)
    found = [d for d in diagnostics if d.code == case.code]
    rendered = "\n".join(d.render() for d in diagnostics)
    assert len(found) == case.count, f"expected {case.count} × {case.code}, got:\n{rendered}"
    unexpected = {d.code for d in diagnostics} - {case.code} - case.others
    assert not unexpected, f"other codes reported too:\n{rendered}"
    first = found[0]
    assert Path(first.location.file).name == case.file
    assert (first.location.line, first.location.column) == (case.line, case.column), rendered
    assert first.suggestion == case.suggestion
    if case.text is not None:
        assert first.text == case.text
    for part in case.message:
        assert part in first.message, first.message
    assert first.severity is case.severity
    if case.suggestion:
        assert first.render().endswith(f"(did you mean '{case.suggestion}'?)")


@pytest.mark.parametrize("case", CASES, ids=[f"{c.code}-{c.id}" for c in CASES])
def test_code(case: Case, ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    _check(case, ws, monkeypatch)


@pytest.mark.parametrize("case", EXTRA_CASES, ids=[f"{c.code}-{c.id}" for c in EXTRA_CASES])
def test_more_triggers(case: Case, ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    _check(case, ws, monkeypatch)


def test_every_code_has_a_case() -> None:
    exercised = {case.code for case in CASES}
    assert exercised == set(CODES), (
        f"codes without a test: {sorted(set(CODES) - exercised)}; "
        f"tested codes that do not exist: {sorted(exercised - set(CODES))}")


def test_codes_are_well_formed() -> None:
    prefixes = {"Y": range(1, 100), "S": range(100, 200), "E": range(200, 300),
                "N": range(300, 400), "T": range(400, 500), "C": range(500, 600),
                "D": range(600, 700), "L": range(700, 800), "R": range(800, 900),
                "M": range(900, 1000)}
    for code, meaning in CODES.items():
        assert len(code) == 4 and code[0] in prefixes and int(code[1:]) in prefixes[code[0]]
        assert meaning and meaning == meaning.strip()


def test_valid_mini_game_has_no_diagnostics(ws: Workspace) -> None:
    assert ws.diagnose(card_file(card())) == []
    assert ws.diagnose(card_file(card("Well", players="[3+, 3+]"), GUILDS), rules=DECK_RULES) == []


def test_all_mistakes_of_a_file_in_one_run(ws: Workspace) -> None:
    text = with_header("requires: [mni]\n") + (
        "  - name: Baths\n"                                  # 6
        "    age: 1\n"                                       # 7
        "    colour: bleu\n"                                 # 8
        "    players: [3+]\n"                                # 9
        "    cost: 1 wod\n"                                  # 10
        "    makes_free: [Aquaduct]\n"                       # 11
        "    effect: points 3\n"                             # 12
        "  - name: Aqueduct\n"                               # 13
        "    age: 2\n"                                       # 14
        "    colur: blue\n"                                  # 15
        "    colour: blue\n"                                 # 16
        "    players: [3+]\n"                                # 17
        "    cost: 3 stone\n"                                # 18
        "    effect: 'prodce wood; points 5'\n"              # 19
        "  - name: Altar\n"                                  # 20
        "    age: 1\n"                                       # 21
        "    colour: blue\n"                                 # 22
        "    players: [3+]\n"                                # 23
        "    cost: free\n"                                   # 24
        "    effect: >\n"                                    # 25
        "      end: points 1 per blue card\n"                # 26
        "      in lefft; now: science wheel\n"              # 27
    )
    rules = MINI_RULES.replace("min: 3, max: 4", "min: 5, max: 4")
    found = {(d.code, Path(d.location.file).name, d.location.line, d.location.column, d.suggestion)
             for d in ws.diagnose(text, rules=rules)}
    assert found == {
        ("R801", "rules.yaml", 4, 10, None),
        ("L705", "cards.yaml", 4, 12, "mini"),
        ("N302", "cards.yaml", 8, 13, "blue"),
        ("N301", "cards.yaml", 10, 13, "wood"),
        ("C501", "cards.yaml", 11, 18, "Aqueduct"),
        ("S103", "cards.yaml", 15, 5, "colour"),
        ("E202", "cards.yaml", 19, 14, "produce"),
        ("N304", "cards.yaml", 27, 10, "left"),
        ("T401", "cards.yaml", 27, 17, None),
    }


def test_mistakes_in_several_files_in_one_run(ws: Workspace) -> None:
    rules = ws.rules()
    cards = ws.write("cards.yaml", card_file(card(effect="produce wod")))
    wonders = ws.write("wonders.yaml", WONDERS_HEADER + wonder("Colossus", start="produce stne"))
    broken = ws.write("broken.yaml", "kind: cards\nset: [a\n")
    found = {(d.code, Path(d.location.file).name, d.location.line, d.location.column)
             for d in ws.load(rules, cards, wonders, broken).report.sorted()}
    assert found == {("N301", "cards.yaml", 10, 21), ("N301", "wonders.yaml", 8, 24),
                     ("Y002", "broken.yaml", 3, 1)}


def test_diagnostics_are_sorted_by_place(ws: Workspace) -> None:
    text = card_file(card("Well", effect="produce wod"), card("Altar", colour="bleu"))
    diagnostics = ws.diagnose(text)
    places = [(d.location.line, d.location.column) for d in diagnostics]
    assert places == sorted(places) == [(10, 21), (13, 13)]


def test_render_format(ws: Workspace) -> None:
    (diagnostic,) = ws.diagnose(card_file(card(effect="produce wod")))
    path = diagnostic.location.file
    assert diagnostic.render() == (
        f"{path}:10:21: N301 unknown resource 'wod'; the rule set declares: wood, stone, ore, "
        "clay, glass, papyrus, loom (did you mean 'wood'?)")
    assert diagnostic.to_json() == {
        "file": path, "line": 10, "column": 21, "code": "N301", "severity": "error",
        "message": "unknown resource 'wod'; the rule set declares: wood, stone, ore, clay, "
                   "glass, papyrus, loom",
        "text": "wod", "suggestion": "wood"}


def test_warning_render_and_valid(ws: Workspace) -> None:
    result = ws.load(ws.rules(DECK_RULES), ws.write("cards.yaml", card_file(
        card("Well", players="[3+, 3+, 5+]"), GUILDS)))
    (warning,) = result.report.sorted()
    assert warning.code == "D604" and warning.severity is Severity.WARNING
    assert ": D604 warning: 'Well' has a copy marked 5+" in warning.render()
    assert result.ok and result.game is not None


# --- a drafting game that cannot deal (found by the fuzz campaign, seed 5, files #756) ------

def test_a_drafting_game_without_a_hand_size_is_refused(tmp_path: Path) -> None:
    """Boards are loaded, so a game is meant (as for M904), but with no ``ages.hand`` the
    hand draft cannot deal an age: ``validate`` says so where ``play`` would stop."""
    from wonders.dsl.loader import load, shipped_games

    for game, edit, default in (("duel", "  mechanism: structure\n", True),
                                ("base", "  hand: 7\n", True)):
        folder = tmp_path / game
        shutil.copytree(shipped_games()[game], folder)
        rules = folder / "rules.yaml"
        text = rules.read_text(encoding="utf-8")
        assert edit in text
        # (a flow: section beside the default draft offer would be M909: it is cut too)
        text = text.split("\nflow:\n")[0]
        rules.write_text(text.replace(edit, "", 1), encoding="utf-8")
        found = load([folder]).report.sorted()
        assert [d.code for d in found] == ["D601"], (game, found)
        line = text.replace(edit, "", 1).splitlines().index("ages:") + 1
        assert (found[0].location.line, found[0].location.column) == (line, 1)
        assert "ages.hand is missing" in found[0].message
        assert ("the default" in found[0].message) is default
