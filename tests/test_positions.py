"""line:col of a problem inside a string points at the offending word, whatever the YAML style.

Every case writes one card whose effect holds an unknown colour 'bleu' (or
another mistake) in some YAML scalar style and checks the exact line and column
of the diagnostic: plain, single-quoted (with '' escapes), double-quoted (with
escapes), folded ``>`` and literal ``|`` blocks (with chomping and indentation
indicators), multi-line plain and quoted scalars.  Line 10 is the ``effect:``
line of the card (the header and the card's other keys take lines 1-9).
"""

from __future__ import annotations

import pytest
from conftest import CARDS_HEADER, MINI_RULES, Workspace, card, card_file, only

from wonders.dsl.errors import Diagnostic
from wonders.dsl.source import load_text

CARD_HEAD = CARDS_HEADER + ("  - name: Well\n    age: 1\n    colour: blue\n    players: [3+]\n"
                            "    cost: free\n")


def problems(ws: Workspace, effect_lines: str) -> list[Diagnostic]:
    return ws.diagnose(CARD_HEAD + effect_lines)


STYLES = [
    # (id, the effect line(s), line, column of 'bleu')
    ("plain", "    effect: points 1 per bleu card\n", 10, 26),
    ("plain-after-tab", "    effect:\tpoints 1 per bleu card\n", 10, 26),
    ("single-quoted", "    effect: 'end: points 1 per bleu card'\n", 10, 32),
    ("double-quoted", '    effect: "end: points 1 per bleu card"\n', 10, 32),
    ("double-quoted-tab-escape", '    effect: "end:\\tpoints 1 per bleu card"\n', 10, 33),
    ("double-quoted-hex-escape", '    effect: "end: points 1 per \\x62leu card"\n', 10, 32),
    ("double-quoted-unicode-escape", '    effect: "end: points\\u0020 1 per bleu card"\n',
     10, 38),
    ("double-quoted-escaped-quote", '    effect: "end: points 1 per bleu card # \\"x\\""\n',
     10, 32),
    ("double-quoted-two-lines", '    effect: "end: points 1\n      per bleu card"\n', 11, 11),
    ("double-quoted-line-continuation", '    effect: "end: points 1 per \\\n      bleu card"\n',
     11, 7),
    ("folded", "    effect: >\n      now: coins 2;\n      end: points 1 per bleu card\n", 12, 25),
    ("folded-strip", "    effect: >-\n      now: coins 2;\n      end: points 1 per bleu card\n",
     12, 25),
    ("folded-indent-indicator",
     "    effect: >2\n        now: coins 2;\n        end: points 1 per bleu card\n", 12, 27),
    ("folded-header-comment", "    effect: >  # bleu is not here\n      points 1 per bleu card\n",
     11, 20),
    ("folded-blank-line", "    effect: >\n      now: coins 2;\n\n      end: points 1 per bleu card\n",
     13, 25),
    ("literal", "    effect: |\n      now: coins 2;\n      end: points 1 per bleu card\n", 12, 25),
    ("literal-keep", "    effect: |+\n      now: coins 2;\n      end: points 1 per bleu card\n\n",
     12, 25),
    ("literal-more-indented",
     "    effect: |\n      now: coins 2;\n        end: points 1 per bleu card\n", 12, 27),
    ("multi-line-plain", "    effect: points 1\n      per bleu card\n", 11, 11),
    ("multi-line-plain-three-lines", "    effect: points 1\n      per\n        bleu card\n", 12, 9),
]


@pytest.mark.parametrize("effect_lines, line, column",
                         [case[1:] for case in STYLES], ids=[case[0] for case in STYLES])
def test_unknown_colour_in_each_style(ws: Workspace, effect_lines: str, line: int,
                                      column: int) -> None:
    text = CARD_HEAD + effect_lines
    diagnostic = only(ws.diagnose(text), "N302")
    assert (diagnostic.location.line, diagnostic.location.column) == (line, column)
    assert diagnostic.text == "bleu"
    source_line = text.splitlines()[line - 1]
    if "\\x62" not in effect_lines:
        assert source_line[column - 1:column + 3] == "bleu"
    else:  # the escape stands for the 'b': the position is its backslash
        assert source_line[column - 1:column + 6] == "\\x62leu"


def test_single_quoted_escape_before_the_error(ws: Workspace) -> None:
    # the value is "points 1 ' 2": the quote is unexpected, and '' is one character in YAML
    diagnostic = only(problems(ws, "    effect: 'points 1 '' 2'\n"), "E201")
    assert (diagnostic.location.line, diagnostic.location.column) == (10, 23)
    assert diagnostic.text == "'"


def test_double_quoted_escaped_quote_is_the_error(ws: Workspace) -> None:
    # the value is 'points 1 " 2': the error is the escaped quote, at its backslash
    diagnostic = only(problems(ws, '    effect: "points 1 \\" 2"\n'), "E201")
    assert (diagnostic.location.line, diagnostic.location.column) == (10, 23)


def test_crlf_line_endings(ws: Workspace) -> None:
    text = (CARD_HEAD + "    effect: >\n      now: coins 2;\n      end: points 1 per bleu card\n")
    diagnostic = only(ws.diagnose(text.replace("\n", "\r\n")), "N302")
    assert (diagnostic.location.line, diagnostic.location.column) == (12, 25)


@pytest.mark.parametrize("line_break", ["\r", "\x85", "\u2028", "\u2029"])
def test_other_yaml_line_breaks_count_as_lines(ws: Workspace, line_break: str) -> None:
    # YAML counts a lone CR, NEL, LS and PS as line breaks (as str.splitlines does); the
    # positions must count them too, or every later line is off
    text = CARD_HEAD.replace("    cost: free\n", f"    cost: free  # a{line_break}") + (
        f'    note: "x{line_break}    y"\n    effect: points 1 per bleu card\n')
    diagnostic = only(ws.diagnose(text), "N302")
    assert (diagnostic.location.line, diagnostic.location.column) == (12, 26)
    assert text.splitlines()[11][25:29] == "bleu"


def test_byte_order_mark(ws: Workspace) -> None:
    diagnostic = only(ws.diagnose("\ufeff" + CARD_HEAD + "    effect: points 1 per bleu card\n"),
                      "N302")
    assert (diagnostic.location.line, diagnostic.location.column) == (10, 26)


def test_columns_count_characters_not_bytes(ws: Workspace) -> None:
    line = ('  - {name: Well, note: "café 日本 😀", age: 1, colour: blue, players: [3+], '
            'cost: free, effect: "points 1 per bleu card"}')
    diagnostic = only(ws.diagnose(CARDS_HEADER + line + "\n"), "N302")
    assert (diagnostic.location.line, diagnostic.location.column) == (5, line.index("bleu") + 1)
    assert diagnostic.location.column == 108  # 116 if counted in UTF-8 bytes


def test_two_problems_on_different_lines_of_one_block(ws: Workspace) -> None:
    found = problems(ws, "    effect: |\n      now: coins 2 per bleu card;\n"
                         "      end: points 1 per green card in lefft\n")
    assert [(d.code, d.location.line, d.location.column) for d in found] == [
        ("N302", 11, 24), ("N304", 12, 39)]


def test_same_string_twice_is_placed_in_each_card(ws: Workspace) -> None:
    # compiled strings are cached by text; each copy must still point at its own card
    text = card_file(card("Well", effect="points 1 per bleu card"),
                     card("Altar", effect="points 1 per bleu card"))
    assert [(d.location.line, d.location.column) for d in ws.diagnose(text)] == [(10, 26),
                                                                                   (16, 26)]


@pytest.mark.parametrize("effect, column, code", [
    ("points 3 @ 2", 22, "E201"),        # unexpected character
    ("points three", 20, "E202"),        # unexpected word
    ("points 1 per", 25, "E203"),        # ends too early: just after the last word
    ("produce 2 wood | clay", 13, "T402"),  # the whole clause
    ("'now: produce wood'", 14, "T401"),    # the timing, inside the quotes
])
def test_syntax_and_meaning_errors_point_at_the_text(ws: Workspace, effect: str, column: int,
                                                       code: str) -> None:
    diagnostic = only(ws.diagnose(card_file(card(effect=effect))), code)
    assert (diagnostic.location.line, diagnostic.location.column) == (10, column)


def test_syntax_error_inside_a_literal_block(ws: Workspace) -> None:
    diagnostic = only(problems(ws, "    effect: |\n      now: coins 2;\n      end: pionts 1\n"),
                      "E202")
    assert (diagnostic.location.line, diagnostic.location.column) == (12, 12)
    assert diagnostic.text == "pionts" and diagnostic.suggestion == "points"


def test_cost_positions(ws: Workspace) -> None:
    text = card_file(card(cost="'2 stone, 1 lom'"), card("Altar", cost=">\n      2 stone,\n"
                                                                      "      1 glas"))
    found = [(d.code, d.location.line, d.location.column, d.suggestion) for d in ws.diagnose(text)]
    assert found == [("N301", 9, 23, "loom"), ("N301", 17, 9, "glass")]


def test_wonder_start_and_stage_positions(ws: Workspace) -> None:
    text = ("kind: wonders\nset: mini\ngame: mini\nwonders:\n  - name: Colossus\n    sides:\n"
            "      A:\n        start: 'produce clai'\n        stages:\n"
            "          - cost: 2 wod\n            effect: >\n              points 3;\n"
            "              shields 0\n")
    found = [(d.code, d.location.line, d.location.column) for d in ws.diagnose(text, "w.yaml")]
    assert found == [("N301", 8, 25), ("N301", 10, 21), ("T403", 13, 15)]


def test_rule_set_formula_position(ws: Workspace) -> None:
    rules = MINI_RULES.replace("  count: 3\n", "  count: 3\n  draw:\n    - age: 3\n"
                               "      colour: purple\n      count: \"players +\n        extra\"\n")
    diagnostic = only(ws.diagnose(None, rules=rules), "N307")  # type: ignore[arg-type]
    assert (diagnostic.location.line, diagnostic.location.column) == (21, 9)


def test_string_location_of_every_offset_in_a_double_quoted_string() -> None:
    # Direct check of the aligner: each character of the value maps to where it is written.
    source = 'effect: "a\\tb\\x63 d\\"e\\\\f\\u00e9g"\n'
    doc, problems = load_text("x.yaml", source)
    assert doc is not None and not problems
    value = doc.data["effect"]
    assert value == 'a\tbc d"e\\fég'
    written = {0: "a", 1: "\\t", 2: "b", 3: "\\x63", 4: " ", 5: "d", 6: '\\"', 7: "e",
               8: "\\\\", 9: "f", 10: "\\u00e9", 11: "g"}
    for offset, spelling in written.items():
        location = doc.string_location(("effect",), offset)
        assert location.line == 1
        assert source[location.column - 1:].startswith(spelling), (offset, location)
