"""Bots written outside the package: ``--bots module:Class`` (and ``module:function``) in
``wonders play`` and ``wonders simulate``, installed entry points (``wonders.bots``), and
clear errors, all through the command line as a user runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest
from typer.testing import CliRunner

import wonders
from wonders.bots import BotError, Plugged, bot_factory, known_bots, make_bot
from wonders.cli import app
from wonders.engine.notation import from_json

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_ROOT = Path(wonders.__file__).resolve().parent.parent

# The console script's start: its folder, not the current one, is first on the path.
SCRIPT = ("import sys; del sys.path[0]; from wonders.cli import main; "
          "sys.argv[0] = 'wonders'; main()")

BOT_MODULE = '''
import random


class Mine:
    """Plays the last legal action."""

    name = "mine"

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def choose(self, game, seat):
        return game.legal_actions(seat)[-1]


def first(game, seat):
    return game.legal_actions(seat)[0]


def broken(game, seat):
    return 1 // 0


def illegal(game, seat):
    from wonders.engine.actions import Skip
    return Skip()
'''


def words(output: str) -> str:
    """An error as one line of words: without the frame the usage error is drawn in."""
    return " ".join(output.translate({ord(c): " " for c in "│╭╮╰╯─"}).split())


def wonders_cli(*args: str, cwd: Path, path: Path | None = None
                ) -> subprocess.CompletedProcess[str]:
    """Run ``wonders ARGS`` as the console script does, in ``cwd``; ``path`` goes on
    PYTHONPATH (beside the package under test)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(str(p) for p in [PACKAGE_ROOT, path] if p)
    return subprocess.run([sys.executable, "-c", SCRIPT, *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture
def bot_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder holding the module ``mybots`` (forgotten after the test if imported here)."""
    folder = tmp_path / "bots"
    folder.mkdir()
    (folder / "mybots.py").write_text(BOT_MODULE)
    sys.modules.pop("mybots", None)
    yield folder
    sys.modules.pop("mybots", None)


# --- the example of examples/ -------------------------------------------------------------

def test_play_with_the_example_bot_and_its_choices_are_its_own(tmp_path: Path) -> None:
    """Seat 0 plays examples/mybot.py's ThriftyBot: every action of seat 0 in the log is the
    one a ThriftyBot seeded as the command seeds it (seed * 1000 + seat) chooses."""
    log = tmp_path / "game.jsonl"
    done = wonders_cli("play", "--seed", "3", "--bots", "examples.mybot:ThriftyBot,random,random",
                       "--json", "--log", str(log), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["players"]) == 3
    sys.path.insert(0, str(ROOT))
    try:
        thrifty = make_bot("examples.mybot:ThriftyBot", 3000)
    finally:
        sys.path.remove(str(ROOT))
    assert isinstance(thrifty, Plugged) and thrifty.name == "thrifty"
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    game = wonders.new_game("base", players=3, seed=3)
    mine = 0
    for line in lines:
        if line["type"] != "decision":
            continue
        moves = {int(s): from_json(game.data, a) for s, a in line["actions"].items()}
        if 0 in moves:
            assert thrifty.choose(game, 0) == moves[0]
            mine += 1
        game.play({s: next(a for a in game.legal_actions(s) if a == m)
                   for s, m in moves.items()})
    assert game.over and mine > 18


def test_simulate_sends_the_name_to_its_workers() -> None:
    """Two worker processes make the bot from its name and play the very games one
    process plays; the statistics list it by that name."""
    args = ("simulate", "--games", "6", "--bots", "examples.mybot:ThriftyBot,random,random",
            "--players", "3", "--json")
    one = wonders_cli(*args, "--workers", "1", cwd=ROOT)
    two = wonders_cli(*args, "--workers", "2", cwd=ROOT)
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    stats_one, stats_two = json.loads(one.stdout)["stats"], json.loads(two.stdout)["stats"]
    assert stats_one["bots"] == stats_two["bots"]
    rows = {row["bot"]: row for row in stats_one["bots"]}
    assert rows["examples.mybot:ThriftyBot"]["seats"] == 6 and rows["random"]["seats"] == 12


def test_duel_and_dice_with_a_choose_function(monkeypatch: pytest.MonkeyPatch) -> None:
    """(In this process, from the repository's folder, as the console script finds it.)"""
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(ROOT))])
    for game in ("duel", "dice"):
        result = CliRunner().invoke(app, ["play", "--game", game, "--bots",
                                          "examples.mybot:first_action", "--json"])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["winners"]


# --- a module of one's own, in the current folder or on the path ---------------------------

def test_a_module_in_the_current_folder(bot_folder: Path) -> None:
    done = wonders_cli("play", "--bots", "mybots:Mine,mybots:first,random", "--json",
                       cwd=bot_folder)
    assert done.returncode == 0, done.stderr


def test_a_module_on_the_python_path(bot_folder: Path, tmp_path: Path) -> None:
    done = wonders_cli("simulate", "--games", "4", "--workers", "2", "--bots",
                       "mybots:Mine,mybots:first,random", "--players", "3", "--json",
                       cwd=tmp_path, path=bot_folder)
    assert done.returncode == 0, done.stderr
    bots = {row["bot"] for row in json.loads(done.stdout)["stats"]["bots"]}
    assert bots == {"mybots:Mine", "mybots:first", "random"}


def test_an_installed_entry_point(bot_folder: Path, tmp_path: Path) -> None:
    """A package that registers a name in the group wonders.bots (its metadata on the path,
    as pip installs it) makes that name work, and known in the error's list."""
    info = bot_folder / "mybots-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mybots\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[wonders.bots]\nlastly = mybots:Mine\n")
    done = wonders_cli("play", "--bots", "lastly", "--json", cwd=tmp_path, path=bot_folder)
    assert done.returncode == 0, done.stderr
    wrong = wonders_cli("play", "--bots", "lastyl", cwd=tmp_path, path=bot_folder)
    assert wrong.returncode == 2
    assert "did you mean 'lastly'?" in words(wrong.stderr)
    assert "random, quick, greedy, mcts, lastly" in words(wrong.stderr)


# --- errors -------------------------------------------------------------------------------

@pytest.mark.parametrize("name, message", [
    ("rnadom", "no bot named 'rnadom' (did you mean 'random'?); known: random, quick, "
               "greedy, mcts"),
    ("mybots:Mien", "mybots has no 'Mien'; did you mean 'Mine'?"),
    ("nomodule:Bot", "no module named 'nomodule'"),
    ("mybots:", "write module:Class or module:function"),
])
def test_a_name_that_names_no_bot_is_a_usage_error(
        bot_folder: Path, monkeypatch: pytest.MonkeyPatch, name: str, message: str) -> None:
    """Before any game (the commands in this process: their output is the console
    script's; the folder's module is found as the console script finds it)."""
    monkeypatch.chdir(bot_folder)
    monkeypatch.setattr(sys, "path", list(sys.path))       # restored afterwards
    for command in (["play"], ["simulate", "--games", "2"]):
        result = CliRunner().invoke(app, [*command, "--bots", name])
        assert result.exit_code == 2, (command, result.output)
        assert message in words(result.output), (command, result.output)


@pytest.mark.parametrize("name, message", [
    ("mybots:broken", "bot 'mybots:broken' failed choosing for player 0: "
                      "ZeroDivisionError: integer division or modulo by zero ("),
    ("mybots:illegal", "bot 'mybots:illegal' of player 0: skip is not allowed"),
])
def test_a_bot_that_fails_ends_the_command_with_its_name(
        bot_folder: Path, monkeypatch: pytest.MonkeyPatch, name: str, message: str) -> None:
    """In a simulation's worker processes (as the console script runs it) and in the
    command's process alike."""
    done = wonders_cli("simulate", "--games", "2", "--workers", "2", "--bots", name,
                       cwd=bot_folder)
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert message in words(done.stderr) and "Traceback" not in done.stderr, done.stderr
    monkeypatch.chdir(bot_folder)
    monkeypatch.setattr(sys, "path", list(sys.path))       # restored afterwards
    result = CliRunner().invoke(app, ["play", "--bots", name])
    assert result.exit_code == 1 and message in words(result.output), result.output


def test_the_python_api(bot_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(bot_folder))
    assert make_bot("random", 1).name == "random"
    function = make_bot("mybots:first", 1)
    assert function.name == "mybots:first" and isinstance(function, Plugged)
    game = wonders.new_game("duel", seed=1)
    assert function.choose(game, 0) is game.legal_actions(0)[0]
    assert make_bot("mybots:Mine", 1).choose(game, 0) is game.legal_actions(0)[-1]
    with pytest.raises(BotError, match="did you mean 'greedy'"):
        bot_factory("gredy")
    with pytest.raises(BotError, match="is a module, not a class or a function"):
        make_bot("mybots:random", 1)
    assert known_bots()[:4] == ["random", "quick", "greedy", "mcts"]
