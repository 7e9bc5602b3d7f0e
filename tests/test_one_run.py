"""Every error in one run (issue 28): several unrelated mistakes in a copy of the shipped
base game are all reported by the first `validate`, each once, at its place, ordered by
file and position — names, meanings, what the game loop runs, rule-set keys together —
with no cascade (a card in an age the game lacks or of an unknown colour does not bring
deck-size errors or wrong advice), and Y002's hint fits the mistake made.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from wonders.dsl.loader import load, shipped_games
from wonders.dsl.source import load_text

# (file, text replaced, replacement, the code it must give, the text the code stands at)
MISTAKES = [
    ("age1.yaml", "  - name: Tavern\n    age: 1\n    colour: yellow",
     "  - name: Tavern\n    age: 1\n    colour: yelow", "N302", "yelow"),
    ("age1.yaml", '    effect: "now: coins 5"', '    effect: "now: replay"', "M901",
     "now: replay"),
    ("age1.yaml", "  - name: Theater\n    age: 1", "  - name: Theater\n    age: 4", "D603",
     None),
    ("age1.yaml", "    effect: produce wood\n", "    effect: buy raw from left at 3\n", "M907",
     "buy raw from left at 3"),
    ("age2.yaml", "    makes_free: [Fortifications]\n    effect: shields 2",
     "    makes_free: [Fortifications]\n    effect: shields 0", "T403", None),
    ("age1.yaml", "    cost: 1 stone\n", "    cost: 1 stnoe\n", "N301", "stnoe"),
    ("rules.yaml", "ages:\n", "turns: {next_age: weaker_military}\n\nages:\n", "M905",
     "next_age"),
]


def test_several_unrelated_mistakes_come_in_the_first_run(tmp_path: Path) -> None:
    folder = tmp_path / "base"
    shutil.copytree(shipped_games()["base"], folder)
    for name, old, new, _, _ in MISTAKES:
        path = folder / name
        text = path.read_text(encoding="utf-8")
        assert old in text, (name, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    found = [d for d in load([folder]).report.sorted() if d.severity.value == "error"]
    rendered = "\n".join(d.render() for d in found)
    assert sorted(d.code for d in found) == sorted(m[3] for m in MISTAKES), rendered
    for _, _, _, code, text in MISTAKES:
        if text is not None:
            assert any(d.code == code and d.text == text for d in found), (code, rendered)
    places = [(d.location.file, d.location.line, d.location.column) for d in found]
    assert places == sorted(places)


def test_y002_tells_an_indentation_from_an_unquoted_colon() -> None:
    indented = "kind: cards\ncards:\n  - name: A\n    age: 1\n     colour: blue\n"
    _, [problem] = load_text("ind.yaml", indented)
    assert problem.code == "Y002" and "indented 5 spaces, deeper than the key above" in (
        problem.message)
    assert "quoted" not in problem.message
    colon = "kind: cards\ncards:\n  - name: A\n    effect: now: coins 2\n"
    _, [problem] = load_text("colon.yaml", colon)
    assert problem.code == "Y002" and "must be quoted" in problem.message


def test_a_scenario_shape_error_does_not_hide_another_scenarios_x902(tmp_path: Path) -> None:
    from wonders.scenarios.draft import check_file

    path = tmp_path / "two.yaml"
    path.write_text(
        "kind: scenarios\ngame: base\nscenarios:\n"
        "  - name: shape error\n    position:\n      players:\n"
        "        - {wonder: Gizah, coins: lots}\n        - {wonder: Olympia}\n"
        "        - {wonder: Rhodos}\n    expect:\n      - state: {player: 0, coins: 3}\n"
        "  - name: unknown card\n    position:\n      players:\n"
        "        - {wonder: Gizah, cards: [Lumber Yrad]}\n        - {wonder: Olympia}\n"
        "        - {wonder: Rhodos}\n    expect:\n      - state: {player: 0, coins: 3}\n",
        encoding="utf-8")
    result = check_file(path)
    assert [(d.code, d.location.line) for d in result.report.diagnostics] == [("S101", 7)]
    [outcome] = result.outcomes  # the well-formed scenario ran, in the same run
    assert [(d.code, d.location.line, d.suggestion) for d in outcome.failures] == [
        ("X902", 15, "Lumber Yard")]
