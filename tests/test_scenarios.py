"""Every rule scenario in tests/scenarios/ passes (each file is one test).

The scenario files are the engine's rule tests, written like rulebook
examples; ``wonders check`` runs the same files.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from wonders.scenarios.draft import check_file

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_file(path: Path) -> None:
    result = check_file(path)
    problems = [d.render() for d in result.report.diagnostics]
    for outcome in result.outcomes:
        problems += [f"{outcome.name}: {d.render()}" for d in outcome.failures]
    assert problems == []
    assert result.outcomes and all(o.checked for o in result.outcomes)


def test_a_wrong_expectation_fails(tmp_path: Path) -> None:
    """The runner is not a rubber stamp: a wrong number is reported at its place."""
    path = tmp_path / "wrong.yaml"
    path.write_text(
        "kind: scenarios\ngame: base\nscenarios:\n"
        "  - name: wrong science\n"
        "    position:\n"
        "      players:\n"
        "        - {wonder: Gizah, cards: [Apothecary, Workshop, Scriptorium]}\n"
        "        - {wonder: Rhodos}\n"
        "        - {wonder: Ephesos}\n"
        "    expect:\n"
        "      - score: {player: 0, science: 11}\n"
        "      - payments: {player: 0, build: Stockade, cheapest: 1}\n"
        "      - legal: {player: 0, build: Aqueduct}\n", encoding="utf-8")
    result = check_file(path)
    (outcome,) = result.outcomes
    messages = [(d.code, d.location.line, d.location.column, d.message) for d in outcome.failures]
    assert messages[0][:3] == ("X901", 11, 37)
    assert "scores 10 for science, expected 11" in messages[0][3]
    assert messages[1][:3] == ("X901", 12, 58)
    assert "cheapest payment for Stockade is impossible, expected 1" in messages[1][3]
    assert messages[2][:3] == ("X901", 13, 16)
    assert "Aqueduct is not in the hand" in messages[2][3]


def test_scenario_data_errors_are_located(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(
        "kind: scenarios\ngame: base\nscenarios:\n"
        "  - name: typos\n"
        "    position:\n"
        "      players:\n"
        "        - {wonder: Gizha}\n"
        "        - {wonder: Rhodos}\n"
        "        - {wonder: Ephesos}\n"
        "    expect:\n"
        "      - score: {player: 0, total: 1}\n", encoding="utf-8")
    result = check_file(path)
    (outcome,) = result.outcomes
    (failure,) = outcome.failures
    assert (failure.code, failure.location.line, failure.location.column) == ("X902", 7, 20)
    assert failure.suggestion == "Gizah"
