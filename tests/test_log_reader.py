"""Logs: one validating reader (``path:line: field: problem``), no internal
errors for malformed records or deep nesting, and a truncated log is not "identical"."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from wonders.cli import app
from wonders.scenarios.log import LogError, read, replay

runner = CliRunner()


@pytest.fixture(scope="module")
def logged(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    path = tmp_path_factory.mktemp("log") / "game.jsonl"
    result = runner.invoke(app, ["play", "--seed", "2", "--log", str(path)])
    assert result.exit_code == 0, result.output
    return path.read_text(encoding="utf-8").splitlines()


def _write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _decision(lines: list[str], **changes: object) -> str:
    record = json.loads(lines[1])
    record.update(changes)
    return json.dumps(record)


@pytest.mark.parametrize("change, message", [
    ({"actions": [1, 2]}, "2: actions: [1, 2] is not an object of seats"),
    ({"actions": "build"}, "2: actions: 'build' is not an object"),
    ({"actions": {"x": {"action": "side"}}}, "2: actions: seat 'x' is not a seat (0 to 2)"),
    ({"actions": {"7": {"action": "side"}}}, "2: actions: seat '7' is not a seat"),
    # a seat of 5,000 digits: int() of it raises ValueError past Python's digit limit
    # (found by the fuzz campaign, seed 7, logs #2169)
    ({"actions": {"9" * 5000: {"action": "side"}}}, "2: actions: seat '99999"),
    ({"actions": {"0": "side"}}, "2: actions.0: 'side' is not an action object"),
    ({"coins": "3"}, "2: coins: '3' is not a list of coin counts"),
    ({"type": "move"}, "2: type: 'move' is not a record type"),
])
def test_malformed_decisions_are_located(tmp_path: Path, logged: list[str],
                                         change: dict[str, object], message: str) -> None:
    path = _write(tmp_path, [logged[0], _decision(logged, **change), *logged[2:]])
    with pytest.raises(LogError) as caught:
        read(path)
    assert str(caught.value).startswith(f"{path}:{message}")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1 and message in result.output
    assert "internal error" not in result.output


@pytest.mark.parametrize("old, new, message", [
    ('"seed":2', '"seed":"2"', "1: seed: '2' is not a whole number"),
    ('"players":3', '"players":1000000000', "1: players: 1000000000 is not a number"),
    ('"sides":null', '"sides":[1]', "1: sides:"),
    ('"paths":[]', '"paths":"x"', "1: paths: a list"),
    ('"game":"base"', '"game":"/"', "1: the log's game: /: the folder is the file-system root"),
])
def test_malformed_headers_are_located(tmp_path: Path, logged: list[str], old: str, new: str,
                                       message: str) -> None:
    assert old in logged[0]
    path = _write(tmp_path, [logged[0].replace(old, new), *logged[1:]])
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1, result.output
    assert f"{path}:{message}" in result.output.replace("\n", "")


def test_deep_nesting_and_huge_numbers_are_refused(tmp_path: Path, logged: list[str]) -> None:
    deep = '{"type":"decision","actions":' + "[" * 100_000 + "]" * 100_000 + "}"
    for line in (deep, '{"type":"decision","actions":{"0":' + '{"a":' * 20 + "1" + "}" * 21
                 + "}", '{"type":"decision","coins":[' + "9" * 5000 + "]}"):
        path = _write(tmp_path, [logged[0], line, *logged[2:]])
        with pytest.raises(LogError, match=f"^{path}:2: "):
            read(path)


def test_a_truncated_log_is_not_identical(tmp_path: Path, logged: list[str]) -> None:
    path = _write(tmp_path, logged[:5])
    outcome = replay(path)
    assert outcome.unfinished and outcome.line == 5 and outcome.decisions == 4
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert "identical\n" not in result.output and "truncated" in result.output
    whole = _write(tmp_path, logged)
    assert not replay(whole).unfinished
    assert runner.invoke(app, ["replay", str(whole)]).exit_code == 0


def test_a_malformed_score_sheet_is_located(tmp_path: Path, logged: list[str]) -> None:
    path = _write(tmp_path, [*logged[:-1], '{"type":"result","score_sheet":{"players":[1]}}'])
    with pytest.raises(LogError, match=rf":{len(logged)}: score_sheet: "):
        read(path)


def test_a_fifo_or_folder_is_not_read_as_a_log(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.jsonl")
    with pytest.raises(LogError, match="not a regular file"):
        read(tmp_path / "pipe.jsonl")
    for target in (tmp_path / "pipe.jsonl", tmp_path):
        result = runner.invoke(app, ["replay", str(target)])
        assert result.exit_code == 2
