"""A scenario file's ``game:`` takes every name ``--game`` takes, and no other.

Issue 30, item 5: ``game: leaders`` was L702 "no shipped game named 'leaders'" although
``--game leaders`` worked everywhere else.  The two lists are one function
(:func:`wonders.engine.sources.game_names`); these tests keep them the same.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from wonders.dsl.loader import shipped_expansions, shipped_games
from wonders.engine.sources import SourceError, game_names, resolve
from wonders.scenarios.draft import _load_game, check_file

CANDIDATES = sorted({*shipped_games(), *shipped_expansions()})


def _scenario(tmp_path: Path, game: str) -> Path:
    """A scenario file naming ``game`` whose one expectation holds in every game
    (an impossible player count would be X902, not L702)."""
    path = tmp_path / f"{game}.yaml"
    path.write_text(f"kind: scenarios\ngame: {game}\nscenarios:\n"
                    "  - name: loads\n    position:\n      players: [{}, {}, {}]\n"
                    "    expect:\n      - to_move: [0, 1, 2]\n", encoding="utf-8")
    return path


def _accepted_by_cli(name: str) -> bool:
    try:
        resolve(name)
    except SourceError:
        return False
    return True


def test_every_name_the_cli_takes_is_listed() -> None:
    assert {name for name in CANDIDATES if _accepted_by_cli(name)} == set(game_names())
    assert {"base", "duel", "dice", "leaders", "cities", "leaders-cities"} <= set(game_names())


@pytest.mark.parametrize("name", CANDIDATES)
def test_a_scenario_takes_a_name_exactly_when_the_cli_does(tmp_path: Path, name: str) -> None:
    result = check_file(_scenario(tmp_path, name))
    codes = [d.code for d in result.report.diagnostics]
    if _accepted_by_cli(name):
        assert "L702" not in codes, [d.render() for d in result.report.diagnostics]
        assert result.outcomes, name
    else:   # e.g. the tutorial: card files, not a rule set of its own
        assert codes == ["L702"]


def test_the_scenario_loads_the_same_rule_set_as_the_cli(tmp_path: Path) -> None:
    for name in game_names():
        cli = resolve(name).load().game
        scenario = _load_game(name, [], tmp_path).game
        assert cli is not None and scenario is not None, name
        assert scenario.rules.name == cli.rules.name, name
        assert sorted(c.name for c in scenario.cards) == sorted(c.name for c in cli.cards), name


def test_an_unknown_name_lists_what_the_cli_takes(tmp_path: Path) -> None:
    result = check_file(_scenario(tmp_path, "leaderz"))
    (found,) = result.report.diagnostics
    assert found.code == "L702"
    assert (found.location.line, found.location.column) == (2, 7)
    assert found.message == (f"no shipped game named 'leaderz' (shipped: "
                             f"{', '.join(game_names())})")
    assert found.suggestion == "leaders"
