"""Positions as text: written at any decision of any game, read back to the same state.

Over random games of every shipped game and expansion rule set, at its smallest and
largest table: a position written at a random decision reads back to a game that shows
the same (history, every seat's view and legal actions, score sheet), writes the same
text again, and plays the same future under the same choices to the same end; a copy of
the game taken at that point is no more alike than the position read.
"""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from wonders.cli import app
from wonders.dsl.loader import shipped_expansions, shipped_games
from wonders.engine.contract import GameState
from wonders.engine.registry import load_new_game
from wonders.scenarios.position import PositionError, parse, read, write


@cache
def specs() -> dict[str, str]:
    found = {name: name for name in shipped_games()}
    found.update({name: str(folder) for name, folder in shipped_expansions().items()
                  if (folder / "rules.yaml").is_file()})
    return found


def shown(game: GameState) -> Any:
    return (game.history, game.over, [game.view(s) for s in range(game.players)],
            [[str(a) for a in game.legal_actions(s)] for s in range(game.players)],
            game.score_sheet().to_json())


def play_on(game: GameState, rng: random.Random) -> None:
    while not game.over:
        game.play({s: rng.choice(game.legal_actions(s)) for s in game.to_move()})




@pytest.mark.parametrize("name", sorted(specs()))
def test_a_position_reads_back_to_the_same_game(name: str) -> None:
    spec = specs()[name]
    probe = load_new_game(spec)
    rules = probe.data.rules
    for players in sorted({rules.min_players, rules.max_players}):
        for seed in range(2):
            game = load_new_game(spec, players, seed)
            rng = random.Random(seed)
            stop = rng.randrange(1, 40)
            for _ in range(stop):
                if game.over:
                    break
                game.play({s: rng.choice(game.legal_actions(s)) for s in game.to_move()})
            text = write(game, spec)
            assert "\n" not in text and text.startswith("wonders/1 ")
            again = read(text)
            assert shown(again) == shown(game)
            assert write(again, spec) == text
            future = random.Random(seed + 100)
            play_on(game, random.Random(seed + 100))
            play_on(again, future)
            assert shown(again) == shown(game)


def test_a_position_is_compact_and_readable() -> None:
    game = load_new_game("duel", 2, 7)
    rng = random.Random(3)
    play_on(game, rng)
    text = write(game, "duel")
    assert text.startswith("wonders/1 duel players=2 seed=7 | 0 choose ")
    assert len(text) < 3000   # a whole Duel game (its log: about 12 KB)
    header, decisions = parse(text)
    assert (header.game, header.players, header.seed) == ("duel", 2, 7)
    assert len(decisions) == len(game.history)


def test_a_position_at_an_earlier_decision() -> None:
    game = load_new_game("base", 3, 4)
    play_on(game, random.Random(4))
    early = read(write(game, "base", decisions=5))
    assert early.history == game.history[:5]


@pytest.mark.parametrize("text, words", [
    ("", "starting with 'wonders/1'"),
    ("chess/1 base players=3 seed=1", "starts with 'wonders/1'"),
    ("wonders/1 bsae players=3 seed=1", "did you mean 'base'"),
    ("wonders/1 base seed=1", "no players="),
    ("wonders/1 base players=3 seed=1 colour=red", "expected players=N"),
    ("wonders/1 base players=3 seed=1 | 0 side A ; 1 side A ; 2 side Q", "decision 1"),
    ("wonders/1 base players=3 seed=1 | zero side A", "is not a seat number"),
])
def test_a_bad_position_says_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(PositionError, match=None) as caught:
        read(text)
    assert words in str(caught.value)


def test_wonders_position_exports_a_log_at_a_decision(tmp_path: Path) -> None:
    runner = CliRunner()
    log = tmp_path / "game.jsonl"
    assert runner.invoke(app, ["play", "--game", "duel", "--seed", "3", "--log",
                               str(log)]).exit_code == 0
    result = runner.invoke(app, ["position", str(log), "--at", "10"])
    assert result.exit_code == 0, result.output
    game = read(result.stdout.strip())
    records = [json.loads(line) for line in log.read_text().splitlines()]
    logged = [r for r in records if r.get("type") == "decision"][:10]
    assert len(game.history) == 10
    assert [h["actions"] for h in game.history] == [r["actions"] for r in logged]
    result = runner.invoke(app, ["position", str(log), "--at", "9999"])
    assert result.exit_code == 2 and "decisions" in result.output
