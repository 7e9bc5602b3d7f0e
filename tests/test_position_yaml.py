"""Positions in YAML: a scenario file that ``wonders check`` runs and the Python API reads
back to the very same game.

Over random games of every shipped game and expansion rule set, at its smallest and
largest table, written at several decisions: the YAML reads back (``read_yaml``) to a
game whose future under the same random choices has the same digest as the original's
(every decision, view and legal action on the way, the set-up record, the history and
the score sheet), the scenario it holds passes ``wonders check``, and ``wonders position
LOG --at N --format yaml`` writes it.
"""

from __future__ import annotations

import hashlib
import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from wonders.cli import app
from wonders.dsl.loader import shipped_expansions, shipped_games
from wonders.engine.contract import GameState
from wonders.engine.registry import load_new_game
from wonders.scenarios.draft import check_file
from wonders.scenarios.position import PositionError, read_yaml, write, write_yaml


@cache
def specs() -> dict[str, str]:
    found = {name: name for name in shipped_games()}
    found.update({name: str(folder) for name, folder in shipped_expansions().items()
                  if (folder / "rules.yaml").is_file()})
    return found


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


def future_digest(game: GameState, seed: int) -> str:
    """Play ``game`` to its end with seeded random choices; hash all the contract shows on
    the way (as tests/test_golden_digests.py hashes a game)."""
    rng = random.Random(seed)
    hashed = hashlib.sha256()
    while not game.over:
        decision = game.decision()
        hashed.update(canonical([decision.kind, list(decision.seats), decision.wording,
                                 game.age, game.turn]))
        for seat in range(game.players):
            hashed.update(canonical(game.view(seat)))
            hashed.update(canonical([str(a) for a in game.legal_actions(seat)]))
        game.play({s: rng.choice(game.legal_actions(s)) for s in decision.seats})
    hashed.update(canonical(game.setup_record()))
    hashed.update(canonical(game.history))
    hashed.update(canonical(game.score_sheet().to_json()))
    return hashed.hexdigest()


@pytest.mark.parametrize("name", sorted(specs()))
def test_a_yaml_position_reads_back_to_the_same_future(name: str, tmp_path: Path) -> None:
    spec = specs()[name]
    rules = load_new_game(spec).data.rules
    for players in sorted({rules.min_players, rules.max_players}):
        seed = players
        whole = load_new_game(spec, players, seed)
        rng = random.Random(seed)
        while not whole.over:
            whole.play({s: rng.choice(whole.legal_actions(s)) for s in whole.to_move()})
        length = len(whole.history)
        for at in sorted({0, 1, random.Random(seed).randrange(2, length), length}):
            original = load_new_game(spec, players, seed)  # the same game, to decision `at`
            rng = random.Random(seed)
            for _ in range(at):
                original.play({s: rng.choice(original.legal_actions(s))
                               for s in original.to_move()})
            text = write_yaml(original, spec)
            assert write_yaml(whole, spec, decisions=at) == text
            again = read_yaml(text)
            assert again.history == whole.history[:at]
            assert future_digest(again, at) == future_digest(original, at), (players, at)
            document = yaml.safe_load(text)
            assert document["kind"] == "scenarios" and document["game"] == spec
            scenario_file = tmp_path / f"{players}-{at}.yaml"
            scenario_file.write_text(text, encoding="utf-8")
            checked = check_file(scenario_file)
            assert checked.ok, [d.render() for d in checked.report.diagnostics] + [
                d.render() for o in checked.outcomes for d in o.failures]


def test_the_yaml_is_one_decision_a_line_and_its_text_is_the_line() -> None:
    game = load_new_game("base", 3, 5)
    rng = random.Random(5)
    for _ in range(3):
        game.play({s: rng.choice(game.legal_actions(s)) for s in game.to_move()})
    text = write_yaml(game, "base", name="after three", source="a test")
    scenario = yaml.safe_load(text)["scenarios"][0]
    assert (scenario["name"], scenario["source"]) == ("after three", "a test")
    lines = scenario["position"].splitlines()
    assert lines[0] == "wonders/1 base players=3 seed=5" and len(lines) == 4
    assert all(line.startswith("| ") for line in lines[1:])
    assert " ".join(lines) == write(game, "base")
    assert "position: |-\n" in text  # a literal block, as a person writes it
    assert scenario["expect"] == [{"to_move": [0, 1, 2]}]


def test_read_yaml_takes_a_scenario_a_mapping_or_a_file(tmp_path: Path) -> None:
    game = load_new_game("duel", 2, 3)
    line = write(game, "duel")
    file_text = write_yaml(game, "duel", name="start")
    for text in (file_text, f"position: '{line}'\n",
                 yaml.safe_dump(yaml.safe_load(file_text)["scenarios"][0])):
        assert read_yaml(text).history == []
    assert read_yaml(file_text, "start").players == 2
    with pytest.raises(PositionError, match="no scenario named 'end'"):
        read_yaml(file_text, "end")
    with pytest.raises(PositionError, match="no scenario 3"):
        read_yaml(file_text, 3)
    with pytest.raises(PositionError, match="drawn as a map"):
        read_yaml("position: {players: [{wonder: x}]}\n")
    with pytest.raises(PositionError, match="no 'position:' text"):
        read_yaml("kind: cards\n")
    with pytest.raises(PositionError, match="does not read"):
        read_yaml("position: [unclosed\n")


def test_wonders_position_writes_yaml_that_check_runs(tmp_path: Path) -> None:
    runner = CliRunner()
    log = tmp_path / "game.jsonl"
    assert runner.invoke(app, ["play", "--game", "duel", "--seed", "3", "--log",
                               str(log)]).exit_code == 0
    result = runner.invoke(app, ["position", str(log), "--at", "10", "--format", "yaml"])
    assert result.exit_code == 0, result.output
    line = runner.invoke(app, ["position", str(log), "--at", "10"]).stdout.strip()
    game = read_yaml(result.stdout)
    assert write(game, "duel") == line and len(game.history) == 10
    scenario = yaml.safe_load(result.stdout)["scenarios"][0]
    assert scenario["source"] == f"wonders position {log} --at 10"
    target = tmp_path / "position.yaml"
    target.write_text(result.stdout, encoding="utf-8")
    checked = runner.invoke(app, ["check", str(target)])
    assert checked.exit_code == 0 and "1 passed, 0 failed" in checked.stdout
    wrong = runner.invoke(app, ["position", str(log), "--format", "yml"])
    assert wrong.exit_code == 2 and "'line', 'yaml'" in wrong.output
