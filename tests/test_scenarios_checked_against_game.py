"""Scenario files are checked against the loaded game before they run.

Each example of the issue gives a located X902 (or a schema S… code) instead of a
traceback; a scenario whose run raises (a bug) is a located X903 for that scenario
alone; one broken file does not stop ``wonders check`` from printing the others.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from wonders.cli import app
from wonders.scenarios import draft as scenario_module
from wonders.scenarios.draft import SCENARIO_CODES, check_file

DOCS = Path(__file__).resolve().parent.parent / "docs"
BASE_PLAYERS = "      players: [{wonder: Gizah}, {wonder: Rhodos}, {wonder: Olympia}]\n"


def scenario(game: str, position: str, expect: str, name: str = "s") -> str:
    return (f"kind: scenarios\ngame: {game}\nscenarios:\n  - name: {name}\n    position:\n"
            f"{position}    expect:\n{expect}")


def failures(tmp_path: Path, text: str) -> list[tuple[str, int, int, str, str | None]]:
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    result = check_file(path)
    found = list(result.report.diagnostics) + [f for o in result.outcomes for f in o.failures]
    return [(d.code, d.location.line, d.location.column, d.message, d.suggestion)
            for d in found]


def test_a_drafting_player_without_a_wonder(tmp_path: Path) -> None:
    text = scenario("base", "      players: [{}, {wonder: Rhodos}, {wonder: Gizah}]\n",
                    "      - score: {player: 0, total: 1}\n")
    ((code, line, column, message, _),) = failures(tmp_path, text)
    assert (code, line, column) == ("X902", 6, 17)
    assert "needs 'wonder: NAME'" in message


def test_a_single_duel_wonder_pool(tmp_path: Path) -> None:
    text = scenario("duel", "      wonder_pools: [[The Pyramids, The Colossus]]\n"
                    "      picks: 3\n      players: [{}, {}]\n",
                    "      - turn: {actions: {1: {choose_wonder: The Pyramids}}}\n")
    ((code, line, column, message, _),) = failures(tmp_path, text)
    assert (code, line, column) == ("X902", 6, 21)
    assert "2 pools (of 4 wonders), not 1" in message


def test_seats_beyond_the_table(tmp_path: Path) -> None:
    text = scenario("duel", "      to_move: 2\n      looted: [{player: 3, zone: 3}]\n"
                    "      players: [{}, {}]\n",
                    "      - to_move: [2]\n      - turn: {actions: {0: {starter: 5}}}\n"
                    "      - winners: [4]\n")
    found = failures(tmp_path, text)
    assert [(c, line, col) for c, line, col, _, _ in found] == [
        ("X902", 6, 16), ("X902", 7, 25), ("X902", 10, 19), ("X902", 11, 39),
        ("X902", 12, 19)]
    assert "no seat 2: the position has 2 players (seats 0 to 1)" in found[0][3]


def test_keys_of_the_other_game_loop(tmp_path: Path) -> None:
    base = failures(tmp_path, scenario(
        "base", "      offer: [Baths]\n" + BASE_PLAYERS,
        "      - conflict: 3\n      - legal: {player: 0, take: Law}\n"))
    assert [(c, line, col) for c, line, col, _, _ in base] == [
        ("X902", 6, 7), ("X902", 9, 9), ("X902", 10, 16), ("X902", 10, 28)]
    assert "'conflict' is not a check of a drafting game" in base[1][3]
    duel = failures(tmp_path, scenario(
        "duel", "      players: [{wonder: Gizah, tokens: [victory 3]}, {}]\n",
        "      - military: {player: 0, tokens: []}\n      - state: {player: 0, hand: []}\n"))
    assert [(c, line, col, s) for c, line, col, _, s in duel] == [
        ("X902", 6, 18, "wonders"), ("X902", 6, 33, "held_tokens"), ("X902", 8, 9, None),
        ("X902", 9, 28, None)]


def test_names_that_do_not_exist_have_a_suggestion(tmp_path: Path) -> None:
    found = failures(tmp_path, scenario(
        "duel", "      wonder_pools: [[The Pyramid], []]\n      board: [Lw]\n"
        "      players: [{}, {}]\n", "      - pools: {bord: [Law]}\n"))
    assert [(c, line, col, s) for c, line, col, _, s in found] == [
        ("X902", 6, 23, "The Pyramids"), ("X902", 7, 15, "Law"), ("X902", 10, 17, "board")]


def test_numbers_meaningful_in_the_game(tmp_path: Path) -> None:
    found = failures(tmp_path, scenario(
        "duel", "      age: 4\n      conflict: 12\n      players: [{}, {}]\n",
        "      - victory: economic\n"))
    assert [c for c, *_ in found] == ["S104"]  # the schema first: nothing runs
    found = failures(tmp_path, scenario(
        "duel", "      age: 4\n      conflict: 12\n      players: [{}, {}]\n",
        "      - conflict: -10\n"))
    assert [(c, line, col) for c, line, col, _, _ in found] == [
        ("X902", 6, 12), ("X902", 7, 17), ("X902", 10, 19)]
    assert "ages 1 to 3, not 4" in found[0][3]
    assert "from -9 to 9, not at 12" in found[1][3]


@pytest.mark.parametrize("position, expect, code", [
    ("      players: [{wonder: Gizah, coins: 1000000000}, {wonder: Rhodos}, {wonder: Olympia}]\n",
     "      - age: 1\n", "S106"),
    ("      players: [{wonder: Gizah, tokens: [victory " + "9" * 5000 + "]}, {wonder: Rhodos}, "
     "{wonder: Olympia}]\n", "      - age: 1\n", "S105"),
    (BASE_PLAYERS, "      - turn: {actions: {'100': {skip: true}}}\n", "S105"),
    (BASE_PLAYERS, "      - score: {player: 99, total: 1}\n", "S106"),
    (BASE_PLAYERS, "      - age: 10\n", "S106"),
])
def test_schema_bounds(tmp_path: Path, position: str, expect: str, code: str) -> None:
    found = failures(tmp_path, scenario("base", position, expect))
    assert [c for c, *_ in found] == [code]


def test_an_exception_is_an_internal_error_of_that_scenario_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(scenario_module.DraftRunner, "_expect_winners", broken)
    path = tmp_path / "s.yaml"
    path.write_text(scenario("base", BASE_PLAYERS, "      - winners: [0]\n", name="broken")
                    + "  - name: fine\n    position:\n" + BASE_PLAYERS
                    + "    expect:\n      - age: 1\n", encoding="utf-8")
    result = check_file(path)
    broken_one, fine = result.outcomes
    ((code, line, column, message),) = [(d.code, d.location.line, d.location.column, d.message)
                                        for d in broken_one.failures]
    assert (code, line, column) == ("X903", 4, 11)
    assert message.startswith("internal error in scenario 'broken': RuntimeError: boom")
    assert fine.passed and fine.checked == 1


def test_one_broken_file_does_not_hide_the_others(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a-yaml-error.yaml").write_text("kind: [scenarios\n", encoding="utf-8")
    (tmp_path / "b-no-wonder.yaml").write_text(scenario(
        "base", "      players: [{}, {wonder: Rhodos}, {wonder: Gizah}]\n",
        "      - age: 1\n"), encoding="utf-8")
    (tmp_path / "c-crash.yaml").write_text(scenario("base", BASE_PLAYERS, "      - age: 1\n"),
                                          encoding="utf-8")
    (tmp_path / "d-fine.yaml").write_text(scenario("base", BASE_PLAYERS, "      - age: 1\n",
                                                   name="fine"), encoding="utf-8")
    real = scenario_module._check_file

    def crash_on_c(path: Path) -> scenario_module.CheckResult:
        if path.name.startswith("c-"):
            raise KeyError("wonder")
        return real(path)

    monkeypatch.setattr(scenario_module, "_check_file", crash_on_c)
    result = CliRunner().invoke(app, ["check", "-v", str(tmp_path)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert re.search(r"a-yaml-error.yaml:\d+:\d+: Y002", result.output)
    assert re.search(r"b-no-wonder.yaml:6:17: X902", result.output)
    assert re.search(r"c-crash.yaml:1:1: X903 internal error while reading the scenarios: "
                     r"KeyError", result.output)
    assert re.search(r"d-fine.yaml:4:11: ok fine", result.output)
    assert "2 scenarios in 4 files: 1 passed, 1 failed" in result.output


def test_scenario_codes_are_documented() -> None:
    text = (DOCS / "errors.md").read_text(encoding="utf-8")
    section = text.split("\n## Scenarios", 1)[1].split("\n## ", 1)[0]
    for code, meaning in SCENARIO_CODES.items():
        assert f"`{code}`" in section, code
        assert meaning
    shown = set(re.findall(r": (X90\d) ", section))
    assert shown == set(SCENARIO_CODES) - {"X903"}, shown  # X903 is a bug: no example


@pytest.mark.parametrize("game", ["x" * 300, "now : replay ; end : points 1 " * 20])
def test_a_game_name_too_long_for_a_file_name(tmp_path: Path, game: str) -> None:
    """Found by the fuzz campaign (seed 2): a scenario file's 'game:' longer than a file
    name may be was looked up as a variant path and ended in X903 (OSError)."""
    found = failures(tmp_path, scenario(f"'{game}'", BASE_PLAYERS,
                                        "      - score: {player: 0, total: 1}\n"))
    assert [(code, line, column) for code, line, column, _, _ in found] == [("L702", 2, 7)]
    assert found[0][3].startswith("no shipped game named")
