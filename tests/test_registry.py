"""A new game loop registers itself, and everything outside the loops plays it unchanged.

The rule-set schema accepts only the offers the engine ships, so the "new loop" here
takes the ``draft`` entry's place for the length of a test (``monkeypatch``): a
subclass of the draft loop that plays every board on side A, with companions of
its own (greedy policy, scenario runner, terminal UI) that count their calls.
Bots, logs and replays, simulations, ``wonders check`` and ``wonders play --human``
reach it only through the registry; no module of the engine is edited for it.
"""

from __future__ import annotations

import collections
from pathlib import Path
from typing import Any, Iterator, Sequence

import pytest
from typer.testing import CliRunner

from wonders.bots import Bot, make_bot
from wonders.bots.greedy import DraftGreedy
from wonders.bots.mcts import MCTSBot
from wonders.cli import app
from wonders.dsl.loader import load_game
from wonders.dsl.model import Game as GameData
from wonders.engine.actions import Action
from wonders.engine.contract import Decision, GameState
from wonders.engine.game import Game
from wonders.engine.registry import LOOPS, Loop, loop_for, new_game
from wonders.scenarios.draft import DraftRunner, Outcome, check_file
from wonders.scenarios.log import replay, write
from wonders.simulate import play_game

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
SHIPPED_DRAFT_LOOP = LOOPS["draft"]  # (before the fixture below replaces it)
CALLS: collections.Counter[str] = collections.Counter()


class SideAGame(Game):
    """The "new loop": the draft loop with every board on side A unless told otherwise."""

    def __init__(self, data: GameData, players: int, seed: int = 0, **options: Any) -> None:
        options.setdefault("sides", "A")
        super().__init__(data, players, seed, **options)
        CALLS["game"] += 1


class CountingGreedy(DraftGreedy):
    """The new loop's greedy policy: the draft one, counting what it is asked."""

    def choose(self, game: Game, seat: int) -> Action:
        CALLS["choose"] += 1
        return super().choose(game, seat)

    def rank(self, game: Game, seat: int,
             actions: Sequence[Action]) -> list[tuple[float, Action]]:
        CALLS["rank"] += 1
        return super().rank(game, seat, actions)


class CountingRunner(DraftRunner):
    """The new loop's scenario runner."""

    def run(self, index: int, spec: dict[str, Any]) -> Outcome:
        CALLS["scenario"] += 1
        return super().run(index, spec)


def terminal(game: GameState, seat: int, bots: dict[int, Bot]) -> bool:
    """The new loop's terminal UI: the "human" plays the first legal action."""
    CALLS["terminal"] += 1
    while not game.over:
        game.play({s: bots[s].choose(game, s) if s in bots else game.legal_actions(s)[0]
                   for s in game.to_move()})
    return True


@pytest.fixture(scope="module")
def data() -> GameData:
    return load_game(game="base")


@pytest.fixture(autouse=True)
def new_loop(monkeypatch: pytest.MonkeyPatch) -> Iterator[Loop]:
    loop = Loop(offer="draft", summary="the draft loop, every board on side A (a test)",
                kind=SHIPPED_DRAFT_LOOP.kind, game=lambda: SideAGame,
                scenarios=lambda: CountingRunner, terminal=lambda: terminal,
                greedy=lambda: CountingGreedy)
    monkeypatch.setitem(LOOPS, "draft", loop)
    CALLS.clear()
    yield loop


def _play(game: GameState, bots: Sequence[Bot]) -> GameState:
    while not game.over:
        decision = game.decision()
        assert isinstance(decision, Decision) and list(decision.seats) == game.to_move()
        moves = {}
        for seat in decision.seats:
            action = bots[seat].choose(game, seat)
            assert action in game.legal_actions(seat)
            moves[seat] = action
        game.play(moves)
    return game


def test_the_registry_sets_up_the_new_loop(data: GameData, new_loop: Loop) -> None:
    assert loop_for(data) is new_loop
    game = new_game(data, 3, 7)
    assert type(game) is SideAGame and isinstance(game, GameState)
    assert [city.side.side for city in game.cities] == ["A"] * 3
    assert CALLS["game"] == 1


def test_a_loop_registered_after_games_were_set_up_takes_over(
        data: GameData, new_loop: Loop, monkeypatch: pytest.MonkeyPatch) -> None:
    """new_game keeps the data's game class, but only while its loop is the registered one."""
    assert type(new_game(data, 3, 1)) is SideAGame
    monkeypatch.setitem(LOOPS, "draft", SHIPPED_DRAFT_LOOP)
    assert type(new_game(data, 3, 1)) is Game
    monkeypatch.setitem(LOOPS, "draft", new_loop)
    assert type(new_game(data, 3, 1)) is SideAGame


def test_bots_play_it_with_its_own_greedy_policy(data: GameData) -> None:
    game = new_game(data, 3, 2)
    bots: list[Bot] = [make_bot("greedy", 1), MCTSBot(2, playouts=4, candidates=2),
                       make_bot("random", 3)]
    _play(game, bots)
    assert game.score_sheet().totals
    assert CALLS["choose"] > 0   # the greedy bot and the search's playouts
    assert CALLS["rank"] > 0     # the search's shortlist


def test_logs_replay_on_the_new_loop(data: GameData, tmp_path: Path) -> None:
    game = _play(new_game(data, 3, 4), [make_bot("greedy", s) for s in range(3)])
    path = tmp_path / "game.jsonl"
    write(game, path, "base")
    result = replay(path)
    assert result.identical, result.divergence
    assert type(result.game) is SideAGame
    assert result.decisions == len(game.history)


def test_simulate_plays_the_new_loop(data: GameData) -> None:
    record = play_game(data, 3, 9, ["greedy", "random", "greedy"], side="A")
    assert CALLS["game"] == 1 and CALLS["choose"] > 0
    assert [[state for _, state in seat] for seat in record["wonders"]] == [["A"]] * 3
    assert record["decisions"] > 0 and record["dealt"]


def test_check_runs_the_new_loops_scenario_runner() -> None:
    result = check_file(SCENARIOS / "military.yaml")
    assert result.ok, [f.message for o in result.outcomes for f in o.failures]
    assert CALLS["scenario"] == len(result.outcomes) > 0


def test_play_human_opens_the_new_loops_terminal() -> None:
    result = CliRunner().invoke(app, ["play", "--human", "--seed", "2", "--bots", "random"])
    assert result.exit_code == 0, result.output
    assert CALLS["terminal"] == 1 and CALLS["game"] == 1
