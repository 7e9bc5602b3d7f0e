"""The command line: paths that could hang or crash (the file-system root, a FIFO,
a symbolic link loop, a folder too big to be a game), output files that cannot be written,
and ``simulate`` aggregating as games finish."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from wonders.cli import app
from wonders.dsl import loader
from wonders.dsl.loader import load, walk_yaml
from wonders.engine.sources import SourceError, resolve
from wonders.simulate import Run, run_games, statistics

runner = CliRunner()
BASE = Path(__file__).resolve().parents[1] / "cards" / "base"


def invoke(*args: str, input: str | None = None):  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    result = runner.invoke(app, list(args), input=input)
    assert time.perf_counter() - started < 30
    assert "internal error" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def flat(text: str) -> str:
    """Output without the usage box's borders and line breaks (rich wraps long messages)."""
    return "".join(ch for ch in text if not ch.isspace() and ch not in "│╭╮╰╯─")


def says(output: str, *parts: str) -> bool:
    return all(flat(part) in flat(output) for part in parts)


@pytest.fixture
def special(tmp_path: Path) -> Path:
    """A game folder with a FIFO and a symbolic link loop among its YAML files."""
    folder = tmp_path / "game"
    shutil.copytree(BASE, folder)
    os.mkfifo(folder / "pipe.yaml")
    (folder / "a.yaml").symlink_to("b.yaml")
    (folder / "b.yaml").symlink_to("a.yaml")
    return folder


def test_walk_refuses_special_files_and_loops(special: Path) -> None:
    files, problems = walk_yaml(special)
    assert {p.name for p in files} == {p.name for p in BASE.glob("*.yaml")}
    messages = sorted(f"{Path(d.location.file).name}: {d.code} {d.message}" for d in problems)
    assert messages == [
        "a.yaml: Y001 cannot read the file: a symbolic link loop",
        "b.yaml: Y001 cannot read the file: a symbolic link loop",
        "pipe.yaml: Y001 not a regular file (a FIFO, a socket or a device): only regular "
        "files are read"]
    assert not load([special]).report.ok


@pytest.mark.parametrize("args", [["validate", "{d}"], ["play", "--game", "{d}"],
                                  ["play", "--game", "{d}/rules.yaml"],
                                  ["simulate", "--game", "{d}", "-G", "1"]])
def test_commands_refuse_a_folder_with_special_files(special: Path, args: list[str]) -> None:
    result = invoke(*[a.format(d=special) for a in args])
    assert result.exit_code in (1, 2)
    assert says(result.output, "pipe.yaml", "not a regular file")


@pytest.mark.parametrize("name", ["pipe.yaml", "a.yaml"])
def test_a_special_file_named_directly_is_a_usage_error(special: Path, name: str) -> None:
    for args in (["validate", str(special / name)], ["play", "--game", str(special / name)],
                 ["check", str(special / name)]):
        result = invoke(*args)
        assert result.exit_code == 2, args
        assert says(result.output, "not a regular file") or says(result.output, "link loop")


def test_the_file_system_root_is_refused_at_once() -> None:
    with pytest.raises(SourceError, match="file-system root"):
        resolve("/")
    for args in (["play", "--game", "/"], ["validate", "/"], ["check", "/"],
                 ["simulate", "--game", "/"], ["validate", "--game", "/"]):
        result = invoke(*args)
        assert result.exit_code == 2 and says(result.output, "file-system root"), args


def test_a_folder_walk_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loader, "MAX_FOLDER_ENTRIES", 50)
    for i in range(60):
        (tmp_path / f"f{i}.txt").write_text("x")
    files, problems = walk_yaml(tmp_path)
    assert [d.code for d in problems] == ["L701"] and "more than 50 entries" in problems[0].message
    deep = tmp_path / "deep"
    path = deep
    for i in range(loader.MAX_FOLDER_DEPTH + 2):
        path = path / "d"
    path.mkdir(parents=True)
    files, problems = walk_yaml(deep)
    assert [d.code for d in problems] == ["L701"] and "levels deep" in problems[0].message


@pytest.mark.parametrize("target", ["missing/x.jsonl", "folder", "/dev/full", ""])
def test_play_log_that_cannot_be_written_exits_1(tmp_path: Path, target: str) -> None:
    (tmp_path / "folder").mkdir()
    path = target if target.startswith("/") or not target else str(tmp_path / target)
    result = invoke("play", "--log", path)
    assert result.exit_code == 1, result.output
    assert "wonders: cannot write the log" in result.output


def test_a_log_to_a_pipe_nobody_reads_is_an_error_not_a_hang(tmp_path: Path) -> None:
    """Found by the 30-minute campaign (benchmarks/fuzz.py): opening a FIFO for writing
    waited forever for a reader."""
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    result = invoke("play", "--log", str(fifo))
    assert result.exit_code == 1, result.output
    assert "cannot write the log" in result.output and "no process reads that pipe" in result.output


def test_graph_and_plot_outputs_that_cannot_be_written_exit_1(tmp_path: Path) -> None:
    result = invoke("graph", "--game", "base", "-o", str(tmp_path / "missing" / "g.txt"))
    assert result.exit_code == 1 and "cannot write the graph" in result.output
    result = invoke("graph", "--game", "base", "-o", "/dev/full")
    assert result.exit_code == 1 and "No space left" in result.output
    result = invoke("simulate", "-G", "1", "--plot", str(tmp_path / "missing" / "p.png"))
    assert result.exit_code == 1 and "cannot write the plot" in result.output


def test_simulate_streams_with_the_same_statistics() -> None:
    run = Run(game="base", players=3, games=7, seed=3, workers=1)
    kept = run_games(run)
    streamed = run_games(run, keep_records=False)
    assert streamed.records == [] and streamed.games == 7
    assert streamed.stats == kept.stats == statistics(kept.records, 3)
    pooled = run_games(Run(game="base", players=3, games=7, seed=3, workers=2),
                       keep_records=False)
    assert pooled.stats == kept.stats
