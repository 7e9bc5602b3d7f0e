"""Game logs replay exactly, and a change in the data is reported at the first divergence."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from wonders.cli import app
from wonders.dsl.loader import games_dir
from wonders.engine import Game
from wonders.scenarios.log import LogError, lines, read, replay, write


def _play(game: Game, seed: int) -> Game:
    rng = random.Random(seed)
    while not game.over:
        game.play({s: rng.choice(game.legal_actions(s)) for s in game.to_move()})
    return game


@pytest.mark.parametrize("players,seed", [(3, 1), (5, 2), (7, 3)])
def test_replay_is_exact(tmp_path: Path, players: int, seed: int) -> None:
    game = _play(Game.new("base", players, seed), seed)
    path = tmp_path / "game.jsonl"
    write(game, path, "base")
    result = replay(path)
    assert result.identical, result.divergence
    assert result.decisions == len(game.history)
    assert result.game is not None
    assert result.game.score_sheet().to_json() == game.score_sheet().to_json()
    assert not result.data_changed


def test_log_contents(tmp_path: Path) -> None:
    game = _play(Game.new("base", 3, 5), 5)
    records = lines(game, "base")
    head = records[0]
    assert head["type"] == "game" and head["players"] == 3 and head["seed"] == 5
    assert len(head["content_hash"]) == 64 and head["rule_set"] == "base"
    decisions = [r for r in records if r["type"] == "decision"]
    assert len(decisions) == len(game.history) >= 18
    assert head["sides"] is None  # the rule set's way: the players chose
    assert decisions[0]["phase"] == "side" and decisions[0]["actions"]["0"]["action"] == "side"
    assert [seat["side"] for seat in head["seats"]] == [None, None, None]
    first = decisions[1]["actions"]["0"]
    assert first["action"] in ("build", "stage", "sell")
    if first["action"] != "sell":
        assert set(first["payment"]) == {"left", "right", "bank"}
    assert records[-1]["type"] == "result"


def _copy_base(tmp_path: Path) -> Path:
    root = games_dir()
    assert root is not None
    target = tmp_path / "base"
    shutil.copytree(root / "base", target)
    return target


def test_changed_card_file_reports_first_divergence(tmp_path: Path) -> None:
    data = _copy_base(tmp_path)
    game = _play(Game.new("base", 4, 9, paths=()), 9)
    path = tmp_path / "game.jsonl"
    records = lines(game, None, [str(data)])
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    assert replay(path).identical
    # every free Age I card now costs a coin: the first logged free build diverges
    age1 = data / "age1.yaml"
    age1.write_text(age1.read_text(encoding="utf-8").replace("cost: free", "cost: 1 coin"),
                    encoding="utf-8")
    result = replay(path)
    assert result.data_changed
    assert not result.identical
    assert result.line >= 2
    assert "is not legal now" in (result.divergence or "") or "coins" in (result.divergence or "")
    assert result.decisions < len(game.history)


def test_changed_points_reported_in_the_final_sheet(tmp_path: Path) -> None:
    data = _copy_base(tmp_path)
    game = _play(Game.new("base", 3, 4), 4)
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in lines(game, None, [str(data)])) + "\n",
                    encoding="utf-8")
    rules = data / "rules.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace("set: 7", "set: 8"),
                     encoding="utf-8")
    treasury = rules.read_text(encoding="utf-8").replace("points 1 per 3 coins",
                                                         "points 1 per 2 coins")
    rules.write_text(treasury, encoding="utf-8")
    result = replay(path)
    assert not result.identical
    assert "final score sheet differs" in (result.divergence or "")


def test_bad_logs_are_clear_errors(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("not json\n", encoding="utf-8")
    with pytest.raises(LogError, match="not a JSON line"):
        read(path)
    path.write_text('{"type": "decision"}\n', encoding="utf-8")
    with pytest.raises(LogError, match="starts with a 'game' header"):
        read(path)


def test_cli_play_log_and_replay(tmp_path: Path) -> None:
    runner = CliRunner()
    log = tmp_path / "g.jsonl"
    result = runner.invoke(app, ["play", "--players", "4", "--seed", "3", "--log", str(log),
                                 "--json"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["replay", str(log)])
    assert result.exit_code == 0
    assert "identical" in result.output
    log.write_text(log.read_text(encoding="utf-8").replace('"seed":3', '"seed":4'),
                   encoding="utf-8")
    result = runner.invoke(app, ["replay", str(log)])
    assert result.exit_code == 1
    assert "diverged" in result.output or "setup differs" in result.output


def test_a_game_with_fixed_sides_replays(tmp_path: Path) -> None:
    """``--side A`` is in the header, so the replay deals the same sides."""
    runner = CliRunner()
    log = tmp_path / "sides.jsonl"
    result = runner.invoke(app, ["play", "--side", "A", "--seed", "3", "--log", str(log)])
    assert result.exit_code == 0, result.output
    head = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert head["sides"] == "A" and {s["side"] for s in head["seats"]} == {"A"}
    result = runner.invoke(app, ["replay", str(log)])
    assert result.exit_code == 0, result.output
    assert "identical" in result.output


def test_per_seat_sides_replay_and_old_headers_mean_random(tmp_path: Path) -> None:
    """Per-seat sides are recorded as a list; a log from before them, with no ``sides``
    and no ``side``, was dealt random sides and replays so."""
    runner = CliRunner()
    log = tmp_path / "seats.jsonl"
    result = runner.invoke(app, ["play", "--side", "B,choose,random", "--seed", "6", "--log",
                                 str(log)])
    assert result.exit_code == 0, result.output
    text = log.read_text(encoding="utf-8").splitlines()
    head = json.loads(text[0])
    assert head["sides"] == ["B", "choose", "random"]
    assert head["seats"][0]["side"] == "B" and head["seats"][1]["side"] is None
    assert json.loads(text[1])["phase"] == "side" and list(json.loads(text[1])["actions"]) == ["1"]
    assert runner.invoke(app, ["replay", str(log)]).exit_code == 0
    old = tmp_path / "old.jsonl"
    game = _play(Game.new("base", 3, 8, sides="random"), 8)
    records = lines(game, "base", side="random")
    del records[0]["sides"]
    old.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    replayed = replay(old)
    assert replayed.identical, replayed.divergence
