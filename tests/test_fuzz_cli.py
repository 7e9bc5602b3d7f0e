"""Bounded, derandomized fuzzing of the command line (issue 16): random command lines for
play, simulate, replay, validate and check with hostile values (special files, symbolic
link loops, the file-system root, unwritable outputs, huge and malformed numbers),
mutated logs, and random terminal input fed to ``play --human``.

Every run must end with exit 0, 1 or 2, without a traceback or an "internal error", and
within a time bound.  The hostile values include the examples of issue 16 (``--game /``,
``--log /dev/full``, a FIFO and a link loop in a game folder, ``actions`` as a list, a
seat ``x``, deeply nested JSON, ``--5`` at the first prompt), so the suite fails when
one of those families comes back.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from wonders.cli import app
from wonders.cli.terminal import as_number

runner = CliRunner()
BASE = Path(__file__).resolve().parents[1] / "cards" / "base"
SECONDS = 20  # no single command may take longer
WORKING: list[Path] = []  # the folder the commands run in (the place fixture makes it)
FUZZ = settings(derandomize=True, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow,
                                       HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Hostile files and folders, and a good log to mutate."""
    root = tmp_path_factory.mktemp("fuzz")
    game = root / "game"
    shutil.copytree(BASE, game)
    os.mkfifo(game / "pipe.yaml")
    (game / "a.yaml").symlink_to("b.yaml")
    (game / "b.yaml").symlink_to("a.yaml")
    os.mkfifo(root / "fifo.jsonl")
    (root / "loop.jsonl").symlink_to("loop.jsonl")
    log = root / "good.jsonl"
    result = runner.invoke(app, ["play", "--seed", "4", "--log", str(log)])
    assert result.exit_code == 0, result.output
    here = root / "here"   # commands run here: '.' and '..' name the fuzz folder, never the
    here.mkdir()           # checkout's parent (which may hold anything: 'check ..' reads it all)
    WORKING.append(here)
    return {"root": str(root), "game": str(game), "pipe": str(game / "pipe.yaml"),
            "loop": str(game / "a.yaml"), "fifo": str(root / "fifo.jsonl"),
            "selfloop": str(root / "loop.jsonl"), "log": str(log),
            "missing": str(root / "no" / "such" / "file"), "out": str(root / "out.txt")}


def hostile(place: dict[str, str]) -> st.SearchStrategy[str]:
    return st.sampled_from([
        "", "-1", "0", "1", "2", "--5", "-0", "9" * 5000, "1" + "0" * 30, "²", "٣", "x",
        "/", "/dev/full", "/dev/null", "/dev/zero", ".", "..", "base", "duel", "bsae",
        "random", "choose", "Q", "A,B", "greedy", "random,random", "\x00", "é" * 50,
        place["game"], place["pipe"], place["loop"], place["fifo"], place["selfloop"],
        place["missing"], place["root"], place["log"], place["out"],
        place["game"] + "/rules.yaml"])


def run(args: list[str], input: str | None = None) -> None:
    back = os.getcwd()
    if WORKING:
        os.chdir(WORKING[-1])
    try:
        started = time.perf_counter()
        result = runner.invoke(app, args, input=input)
        elapsed = time.perf_counter() - started
    finally:
        os.chdir(back)
    output = result.output
    assert elapsed < SECONDS, (args, elapsed)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        args, repr(result.exception))
    assert result.exit_code in (0, 1, 2), (args, result.exit_code, output[-500:])
    assert "Traceback" not in output and "internal error" not in output, (args, output[-500:])


@st.composite
def command_lines(draw: st.DrawFn, place: dict[str, str]) -> list[str]:
    value = hostile(place)
    command = draw(st.sampled_from(["play", "simulate", "replay", "validate", "check",
                                    "graph", "cards"]))
    options = {
        "play": ["--game", "--players", "--seed", "--side", "--bots", "--log", "--seat"],
        "simulate": ["--game", "--players", "--seed", "--side", "--bots", "--plot", "--top",
                     "--workers"],
        "validate": ["--game", "--format"],
        "graph": ["--game", "--output", "--format"],
        "cards": ["--game"],
        "replay": [], "check": [],
    }[command]
    args = [command]
    for option in draw(st.lists(st.sampled_from(options), max_size=4, unique=True)
                       if options else st.just([])):
        args += [option, draw(value)]
    if command == "simulate":  # a small number of games, or a bad one: never a long run
        args += ["--games", draw(st.sampled_from(["1", "0", "-3", "x", "9" * 5000]))]
        if "--workers" not in args:
            args += ["--workers", "1"]
    if command in ("replay", "check") or draw(st.booleans()):
        args += draw(st.lists(value, min_size=1 if command in ("replay", "check") else 0,
                              max_size=2))
    return args


@settings(FUZZ, max_examples=70)
@given(data=st.data())
def test_random_command_lines(place: dict[str, str], data: st.DataObject) -> None:
    run(data.draw(command_lines(place)))


JSON_VALUES = st.sampled_from([
    None, True, 0, -1, 10 ** 40, 1.5, "", "x", "Q", [], [1, 2], {}, {"x": 1}, "/",
    {"0": "side"}, {"x": {"action": "side"}}, json.loads("[" * 20 + "]" * 20)])


@st.composite
def mutated_logs(draw: st.DrawFn, lines: list[str]) -> str:
    records = [json.loads(line) for line in lines]
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(["value", "drop", "truncate", "bytes", "deep", "line"]))
        index = draw(st.integers(0, len(records) - 1))
        if how == "value" and isinstance(records[index], dict):
            record = records[index]
            key = draw(st.sampled_from(sorted(record) + ["actions", "type", "score_sheet"]))
            record[key] = draw(JSON_VALUES)
        elif how == "drop" and len(records) > 1:
            del records[index]
        elif how == "truncate":
            records = records[:index + 1]
        elif how == "deep":
            records.insert(index, "[" * 50_000 + "]" * 50_000)  # written raw below
        elif how == "line":
            records.insert(index, draw(st.sampled_from(["x", "[]", "1", "{", '"s"', "{}"])))
        elif how == "bytes":
            text = json.dumps(records[index]) if not isinstance(records[index], str) else \
                records[index]
            at = draw(st.integers(0, max(0, len(text) - 1)))
            records[index] = text[:at] + draw(st.sampled_from(["", "}", "\"", "9" * 5000,
                                                               "\x00", "\udcff"])) + text[at + 1:]
    return "\n".join(r if isinstance(r, str) else json.dumps(r) for r in records) + "\n"


@settings(FUZZ, max_examples=60)
@given(data=st.data())
def test_mutated_logs(place: dict[str, str], data: st.DataObject, tmp_path: Path) -> None:
    lines = Path(place["log"]).read_text(encoding="utf-8").splitlines()
    path = tmp_path / "mutated.jsonl"
    text = data.draw(mutated_logs(lines))
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    run(["replay", str(path)])


TYPED = st.one_of(
    st.sampled_from(["--5", "-5", "0", "1", "2", "9" * 5000, "²", "٣", "", "b", "s", "w",
                     "back", "help", "show", "?", "-", "--", "1-2", " 3 ", "é", "A", "B",
                     "random", "x" * 300]),
    st.text(max_size=12))


@settings(FUZZ, max_examples=25)
@given(lines=st.lists(TYPED, min_size=1, max_size=12),
       game=st.sampled_from(["base", "duel"]), side=st.sampled_from(["choose", "random"]),
       seed=st.integers(0, 50))
def test_random_terminal_input(lines: list[str], game: str, side: str, seed: int) -> None:
    typed = "\n".join(line.replace("\n", " ").replace("\r", " ") for line in lines)
    sides = ["--side", side] if game == "base" else []
    run(["play", "--human", "--game", game, "--seed", str(seed), *sides],
        input=typed + "\nquit\ny\nquit\ny\n")


def test_typed_numbers_are_parsed_defensively() -> None:
    assert as_number("3") == 3 and as_number(" 12 ") == 12 and as_number("-5") == -5
    for text in ("--5", "²", "٣", "", "-", "1-2", "x"):
        assert as_number(text) is None, text
    big = as_number("9" * 5000)
    assert big is not None and big > 10 ** 8


@pytest.mark.parametrize("args, typed", [
    (["play", "--game", "/"], None),
    (["replay", "{selfloop}"], None),
    (["replay", "{fifo}"], None),
    (["validate", "{game}"], None),
    (["play", "--game", "{game}"], None),
    (["play", "--log", "{missing}"], None),
    (["play", "--log", "{root}"], None),
    (["play", "--log", "/dev/full"], None),
    (["play", "--log", ""], None),
    (["graph", "--game", "base", "-o", "/dev/full"], None),
    (["simulate", "-G", "1", "-w", "1", "--plot", "{missing}"], None),
    (["play", "--human", "--side", "random"], "--5\nquit\ny\n"),  # the card prompt
    (["play", "--human", "--side", "random"], "9" * 5000 + "\nquit\ny\n"),
    (["play", "--human", "--game", "duel"], "--5\nquit\ny\n"),
], ids=lambda value: " ".join(value)[:40] if isinstance(value, list) else
    ("typed " + value[:8]) if value else "")
def test_the_examples_of_issue_16(place: dict[str, str], args: list[str],
                                  typed: str | None) -> None:
    """The fuzzer's families, each by the example the issue gives (so the suite fails on
    them whatever the derandomized draws happen to be)."""
    run([arg.format(**place) for arg in args], input=typed)
