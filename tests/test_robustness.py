"""Never a traceback, whatever the input: hostile files become diagnostics.

Empty and comment-only files, binary and NUL bytes, invalid UTF-8, alias bombs,
absurd nesting, oversized files, wrong types in every field, and YAML tags that
would build Python objects (which must never run).  Hypothesis then throws
arbitrary text at the effect language and at whole files.
"""

from __future__ import annotations

import json
import string
import tempfile
import time
from pathlib import Path

import pytest
import yaml
from conftest import CARDS_HEADER, MINI_RULES, Workspace, card, card_file, only
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from wonders.cli import app
from wonders.dsl.codes import CODES
from wonders.dsl.compiler import compile_cost, compile_effects, compile_formula
from wonders.dsl.errors import Diagnostic
from wonders.dsl.source import MAX_BYTES
from wonders.dsl.vocabulary import Vocabulary

VOCABULARY = Vocabulary.from_data(yaml.safe_load(MINI_RULES)["vocabulary"])


def located(diagnostics: list[Diagnostic]) -> list[tuple[str, int, int]]:
    return [(d.code, d.location.line, d.location.column) for d in diagnostics]


# --- empty, binary, broken text ---------------------------------------------------------------

@pytest.mark.parametrize("text", ["", "\n\n", "   \n  \n", "# only a comment\n# and another\n",
                                  "\ufeff"])
def test_empty_or_comment_only(ws: Workspace, text: str) -> None:
    assert located(ws.diagnose(text)) == [("Y007", 1, 1)]


@pytest.mark.parametrize("text", ["---\n", "---\n...\n", "--- # nothing\n"])
def test_explicit_empty_document(ws: Workspace, text: str) -> None:
    (diagnostic,) = ws.diagnose(text)
    assert (diagnostic.code, diagnostic.location.line, diagnostic.location.column) == ("S101", 2, 1)
    assert diagnostic.message.endswith("not empty")


@pytest.mark.parametrize("data, where", [
    (bytes(range(256)), (2, 118)),                # every byte: 0x80 is the first non-UTF-8
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", (1, 1)),       # a PNG header: 0x89 is not UTF-8
    (b"kind: cards\nset: mini\x00\n", (2, 10)),               # one NUL byte
    (b"kind: cards\nset: caf\xc3\n", (2, 9)),                 # a truncated UTF-8 sequence
    (b"kind: cards\nname: \xed\xa0\x80\n", (2, 7)),           # an encoded surrogate
    ("kind: cards\n".encode("utf-16"), (1, 1)),               # UTF-16 with its BOM
])
def test_binary_and_invalid_utf8(ws: Workspace, data: bytes, where: tuple[int, int]) -> None:
    (diagnostic,) = [d for d in ws.diagnose(data) if d.location.file.endswith("cards.yaml")]
    assert diagnostic.code == "Y001"
    assert (diagnostic.location.line, diagnostic.location.column) == where


def test_broken_yaml_syntax(ws: Workspace) -> None:
    for text in ["kind: cards\n  set: [\n", "{{{{", "kind: 'unclosed\n", "a: b: c\n", "- - -\n  x",
                 "kind: cards\n\tset: tab\n", "&a *a\n", "*unknown_alias\n", "%YAML 9.9\n---\n"]:
        found = ws.diagnose(text)
        assert found and {d.code for d in found} <= {"Y002", "Y007", "S101", "S102", "S104"}, text


# --- bombs and nesting ------------------------------------------------------------------------

def test_billion_laughs(ws: Workspace) -> None:
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for previous, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 9) + "]")
    start = time.perf_counter()
    found = ws.diagnose("\n".join(lines) + "\n")
    # expanded in full it is 387 million values (hours): stopping at the bound takes ~1 s,
    # and up to 6 s on a loaded CI machine
    assert time.perf_counter() - start < 30
    assert [d.code for d in found] == ["Y004"]
    assert "more than 200000 values" in found[0].message


def test_alias_inside_a_card_file_is_fine(ws: Workspace) -> None:
    text = card_file(card("Well", effect="&e points 1"), card("Altar", effect="*e"))
    assert ws.diagnose(text) == []


@pytest.mark.parametrize("opening, closing", [("[", "]"), ("{a: ", "}")])
@pytest.mark.parametrize("depth", [65, 1000, 100_000])
def test_deep_nesting(ws: Workspace, opening: str, closing: str, depth: int) -> None:
    # 40 000 levels used to crash the process (libyaml's composer recursing in C), and
    # parsing them took time quadratic in the depth
    start = time.perf_counter()
    found = ws.diagnose("kind: cards\nx: " + opening * depth + "1" + closing * depth + "\n")
    assert time.perf_counter() - start < 15  # a generous bound: a loaded CI machine
    assert [d.code for d in found] == ["Y004"]
    # the first value 65 levels deep
    assert (found[0].location.line, found[0].location.column) == (
        2, 4 + 64 * len(opening))
    assert found[0].message == "values are nested more than 64 levels deep"


def test_deep_nesting_in_a_key(ws: Workspace) -> None:
    found = ws.diagnose("kind: cards\n? " + "[" * 50_000 + "\n: 1\n")
    assert [d.code for d in found] == ["Y004"]


def test_compact_nested_sequences(ws: Workspace) -> None:
    found = ws.diagnose("kind: cards\nx:\n" + "".join(" " * (2 * i) + "-\n" for i in range(100)))
    assert [(d.code, d.location.line) for d in found] == [("Y004", 67)]


def test_deep_block_nesting(ws: Workspace) -> None:
    text = "kind: cards\n" + "".join("  " * i + "- \n" for i in range(200))
    found = ws.diagnose(text)
    assert found and all(d.code in CODES for d in found)


@pytest.mark.parametrize("size", [MAX_BYTES + 1, 10 * 1024 * 1024])
def test_oversized_file(ws: Workspace, size: int) -> None:
    path = ws.write("cards.yaml", b"#" * (size - 1) + b"\n")
    found = ws.load(ws.rules(), path).report.sorted()
    diagnostic = only(found, "Y003")
    assert (diagnostic.location.line, diagnostic.location.column) == (1, 1)
    assert f"{size / 1048576:.1f} MB" in diagnostic.message


def test_large_but_allowed_file(ws: Workspace) -> None:
    entries = [card(f"Card {i:04d}", players="[3+]") for i in range(800)]
    start = time.perf_counter()
    found = ws.diagnose(card_file(*entries))
    assert time.perf_counter() - start < 10
    assert found == []


# --- wrong types everywhere -------------------------------------------------------------------

def test_wrong_types_in_a_card_file(ws: Workspace) -> None:
    text = ("kind: cards\nset: 3\ngame: [mini]\nrequires: mini\nremove: 3\ncards:\n"
            "  - [a, b]\n  - 3\n  - name: [x]\n    age: {a: 1}\n    colour: 3\n    players: 3+\n"
            "    cost: 5\n    effect: {now: coins}\n    free_if_built: Baths\n"
            "    makes_free: [1, 2]\n")
    found = ws.diagnose(text)
    assert {d.code for d in found} <= {"S101", "S105", "L702", "L704"}
    assert ("S101", 7, 5) in located(found)       # a list where a card (map) is expected
    assert ("S101", 14, 13) in located(found)     # a map where an effect is expected
    assert ("S101", 13, 11) in located(found)     # a number where a cost is expected
    assert ("S101", 4, 11) in located(found)      # text where a list is expected
    assert ("S101", 5, 9) in located(found)       # a number where a list is expected


def test_wrong_types_in_a_wonder_file(ws: Workspace) -> None:
    text = ("kind: wonders\nset: mini\ngame: mini\nwonders:\n  - name: X\n    sides: [A, B]\n"
            "  - name: Y\n    sides: {A: 3, B: {start: 3, stages: {a: 1}}}\n  - name: Z\n"
            "    sides: {A: {start: produce wood, stages: [3, {cost: [1], effect: 2}]}}\n"
            "  - 7\nrequires: 4\n")
    found = ws.diagnose(text, "wonders.yaml")
    assert found and {d.code for d in found} == {"S101"}
    assert ("S101", 8, 30) in located(found)  # start: 3


def test_wrong_types_in_a_rule_set(ws: Workspace) -> None:
    text = ("kind: rules\nname: mini\nplayers: [3, 4]\n"
            "vocabulary: {resources: [wood], colours: blue, science: {a: 1}}\n"
            "ages: {count: x, draw: [3, {age: x, colour: 3, count: [1]}], pass: left}\n"
            "trade: {buyable: 3}\nscore: {order: 3, colours: [a]}\nmilitary: {victory: 3}\n"
            "sell: 3\ntreasury: {a: 1}\n")
    found = ws.diagnose(text, "rules.yaml", rules=None)
    assert found and {d.code for d in found} == {"S101"}
    assert len(found) == 16


def test_wrong_types_in_rule_lists(ws: Workspace) -> None:
    rules = MINI_RULES + ("trade: {buyable: 3}\nscore: {order: 3, colours: [a]}\n"
                          "military: {victory: 3}\n").replace("  count: 3\n", "")
    rules = rules.replace("  count: 3\n", "  count: 3\n  draw: 3\n")
    found = ws.diagnose(card_file(card()), rules=rules)
    assert found and {d.code for d in found} == {"S101"}


def test_top_level_scalars_and_lists(ws: Workspace) -> None:
    for text in ["just text\n", "42\n", "- kind: cards\n", "null\n", "[1, 2]\n", "true\n"]:
        assert located(ws.diagnose(text)) == [("S101", 1, 1)], text


def test_odd_scalars(ws: Workspace) -> None:
    text = card_file(card(age="1.5", players="[.inf, .nan, true]", cost="2001-12-14",
                          effect="!!str 0x1F"))
    found = ws.diagnose(text)
    assert {d.code for d in found} <= {"S101", "S105", "E202", "E203", "N301"}
    assert ("S101", 6, 10) in located(found)


def test_huge_numbers(ws: Workspace) -> None:
    text = card_file(card(age=10 ** 30, players="[99999999999999999999+]",
                          effect="points 99999999999999999999999"))
    found = ws.diagnose(text)
    codes = {d.code for d in found}
    assert codes <= {"S105", "S106", "D603", "D604", "E204"}
    assert "E204" in codes  # a literal above 999999 (issue 16)


def test_keys_that_are_not_text(ws: Workspace) -> None:
    text = "kind: cards\n? [a, b]\n: 1\n1: one\nnull: x\n? {a: 1}\n: 2\n"
    found = ws.diagnose(text)
    assert ("Y005", 2, 3) in located(found) and ("Y005", 6, 3) in located(found)
    assert all(d.code in CODES for d in found)


# --- tags that build objects must never run ----------------------------------------------------

@pytest.mark.parametrize("tag", [
    "!!python/object/apply:os.system ['touch {marker}']",
    "!!python/object/apply:builtins.open ['{marker}', 'w']",
    "!!python/object/new:builtins.open ['{marker}', 'w']",
    "!!python/object/apply:subprocess.call [['touch', '{marker}']]",
    "!!python/object:pathlib.PosixPath {{}}",
    "!!python/name:os.system",
    "!!python/module:os",
    "!python/object/apply:os.system ['touch {marker}']",
    "!<tag:yaml.org,2002:python/object/apply:os.system> ['touch {marker}']",
])
def test_python_tags_do_not_execute(ws: Workspace, tag: str) -> None:
    marker = ws.root / "pwned"
    text = "kind: cards\nset: mini\ngame: mini\ncards: []\nnote: " + tag.format(marker=marker) + "\n"
    found = ws.diagnose(text)
    assert not marker.exists()
    assert ("Y005", 5, 7) in located(found)


def test_python_tags_in_an_effect_do_not_execute(ws: Workspace) -> None:
    marker = ws.root / "pwned"
    found = ws.diagnose(card_file(card(effect=f"!!python/object/apply:os.system ['touch {marker}']")))
    assert not marker.exists()
    assert ("Y005", 10, 13) in located(found)


def test_cli_on_hostile_files_never_tracebacks(ws: Workspace) -> None:
    ws.rules()
    ws.write("a.yaml", b"\x00\x01\x02")
    ws.write("b.yaml", "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n" + "".join(
        f"{n}: &{n} [" + ", ".join([f"*{p}"] * 10) + "]\n" for p, n in zip("abcdef", "bcdefg")))
    ws.write("c.yaml", "[" * 5000)
    ws.write("d.yaml", "kind: cards\nset: !!python/object/apply:os.system ['true']\n")
    ws.write("e.yaml", "")
    result = CliRunner().invoke(app, ["validate", "--format", "json", str(ws.root)])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    data = json.loads(result.stdout)
    codes = {(Path(d["file"]).name, d["code"]) for d in data["diagnostics"]}
    assert {("a.yaml", "Y001"), ("b.yaml", "Y004"), ("c.yaml", "Y004"), ("d.yaml", "Y005"),
            ("e.yaml", "Y007")} <= codes


# --- long and deep effect strings ---------------------------------------------------------------

@pytest.mark.parametrize("effect", [
    "points " + " + ".join(["1"] * 3000),
    "; ".join(["points 1"] * 2000),
    "points 1 per " + "x" * 100_000 + " card",
    "(" * 3000,
], ids=["long-sum", "many-clauses", "long-name", "open-parentheses"])
def test_long_effects(effect: str) -> None:
    for compile_ in (compile_effects, compile_cost, compile_formula):
        value, problems = compile_(effect, VOCABULARY)
        assert all(p.code in CODES for p in problems)


def test_formula_with_thousands_of_terms(ws: Workspace) -> None:
    formula = " + ".join(["players"] * 5000)
    rules = MINI_RULES.replace("  count: 3\n", "  count: 3\n  hand: 1\n  draw:\n"
                               f"    - {{age: 3, colour: purple, count: '{formula}'}}\n")
    found = ws.diagnose(None, rules=rules)  # type: ignore[arg-type]
    assert "E202" in {d.code for d in found}
    assert all(d.code in CODES for d in found)


# --- properties ---------------------------------------------------------------------------------

WORDS = ["produce", "points", "coins", "shields", "science", "ability", "buy", "copy", "per",
         "in", "from", "at", "any", "once", "now:", "end:", "card", "cards", "wonder", "stage",
         "token", "coin", "free", "unbuyable", "wood", "clay", "blue", "left", "self",
         "neighbours", "victory", "wheel", "free_build", "age", "players", "raw", "|", ";", ",",
         "+", "-", "*", "/", "(", ")", "0", "1", "2", "#", "'", '"', "\\", ":", "bleu", "wod"]
effect_text = st.one_of(st.text(max_size=40), st.lists(st.sampled_from(WORDS), max_size=12).map(
    " ".join))


@settings(max_examples=300, deadline=None)
@given(effect_text)
def test_any_effect_text_compiles_to_problems_not_exceptions(text: str) -> None:
    for compile_ in (compile_effects, compile_cost, compile_formula):
        _, problems = compile_(text, VOCABULARY)
        for problem in problems:
            assert problem.code in CODES
            assert 0 <= problem.start <= problem.end <= max(len(text), problem.start + 1)


_workspace = Workspace(Path(tempfile.mkdtemp(prefix="wonders-robustness-")))
_printable = st.text(alphabet=string.ascii_letters + string.digits + " |;,:+-*/()#_'", max_size=40)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(_printable)
def test_any_effect_in_a_file_is_located_on_its_line(text: str) -> None:
    source = json.dumps(text)  # a double-quoted YAML scalar on one line
    found = _workspace.diagnose(card_file(card(effect=source)))
    for diagnostic in found:
        assert diagnostic.code in CODES
        if diagnostic.code[0] in "ENT":
            assert diagnostic.location.line == 10
            assert 13 <= diagnostic.location.column <= 13 + len(source)


LINES = ["kind: cards", "kind: wonders", "kind: rules", "set: mini", "game: mini", "game: base",
         "cards:", "wonders:", "  - name: A", "    age: 1", "    colour: blue", "    players: [3+]",
         "    cost: free", "    effect: points 1", "  - [a]", "- x", "  x: &a [1]", "  y: *a",
         "    sides:", "      A:", "        start: produce wood", "        stages:",
         "          - {cost: 1 wood, effect: points 1}", "name: mini",
         "players: {min: 3, max: 4}", "requires: [x]", "remove: [A]",
         "    free_if_built: [A]", "    makes_free: [A]", "'", '"', "!!str", "? a", "---", "\t"]
whole_file = st.one_of(st.lists(st.sampled_from(LINES), max_size=20).map("\n".join),
                       st.text(max_size=120))


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(whole_file, st.booleans())
def test_any_file_gives_diagnostics_not_exceptions(text: str, with_rules: bool) -> None:
    found = _workspace.diagnose(text, rules=MINI_RULES if with_rules else None)
    for diagnostic in found:
        assert diagnostic.code in CODES
        assert diagnostic.location.line <= text.count("\n") + 2


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.binary(max_size=200))
def test_any_bytes_give_diagnostics_not_exceptions(data: bytes) -> None:
    found = _workspace.diagnose(data)
    assert all(d.code in CODES for d in found)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=10),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(
        st.sampled_from(["name", "age", "colour", "players", "cost", "effect", "free_if_built",
                         "makes_free", "sides", "stages", "start", "x"]), children, max_size=4),
    max_leaves=12)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.dictionaries(st.sampled_from(["name", "age", "colour", "players", "cost", "effect",
                                        "free_if_built", "makes_free", "note", "extra"]),
                       json_values, max_size=8), st.sampled_from(["cards", "wonders", "rules"]))
def test_any_values_in_any_field(card_data: dict, kind: str) -> None:  # type: ignore[type-arg]
    document = {"kind": kind, "set": "mini", "game": "mini", "name": "x",
                kind if kind != "rules" else "ages": [card_data] if kind != "rules" else card_data}
    text = yaml.safe_dump(document, allow_unicode=True)
    found = _workspace.diagnose(text)
    assert all(d.code in CODES for d in found)
    assert found or kind != "rules"


def test_cards_header_is_what_the_helpers_write() -> None:
    # guards the line numbers used throughout: the header is four lines
    assert CARDS_HEADER.count("\n") == 4
