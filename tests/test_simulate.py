"""``wonders simulate`` and ``wonders.simulate``: statistics, workers, JSON, plot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from wonders.bots import make_bot
from wonders.cli import app
from wonders.engine.game import Game
from wonders.simulate import Run, game_data, play_game, run_games, statistics

runner = CliRunner()


def simulate(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["simulate", *args])


@pytest.fixture(scope="module")
def small() -> Any:
    return run_games(Run(game="base", players=3, games=12, seed=5, workers=1))


def test_records_match_games_played_directly(small: Any) -> None:
    data = game_data("base")
    for i, record in enumerate(small.records[:3]):
        seed = 5 + i
        assert record["seed"] == seed
        game = Game(data, 3, seed, sides="random")
        bots = [make_bot("random", seed * 1000 + s) for s in range(3)]
        while not game.over:
            game.play({s: bots[s].choose(game, s) for s in game.to_move()})
        sheet = game.score_sheet()
        assert record["lines"] == sheet.lines
        assert record["totals"] == sheet.totals
        assert record["winners"] == sheet.winners
        assert record["decisions"] == len(game.history)
        assert record["built"] == [[c.name for c in city.built] for city in game.cities]


def test_counts_add_up_and_win_credit_sums_to_one(small: Any) -> None:
    stats = small.stats
    assert stats["games"] == 12 and stats["players"] == 3 and stats["seat_games"] == 36
    assert sum(w["played"] for w in stats["wonder_sides"]) == 36
    assert sum(w["played"] for w in stats["wonders"]) == 36
    assert sum(w["wins"] for w in stats["wonder_sides"]) == pytest.approx(12)
    assert sum(b["wins"] for b in stats["bots"]) == pytest.approx(12)
    assert stats["bots"] == [{"bot": "random", "seats": 36, "wins": pytest.approx(12),
                              "win_rate": pytest.approx(1 / 3),
                              "win_rate_ci": pytest.approx([0.2021, 0.4967], abs=1e-4),
                              "avg_score": pytest.approx(stats["avg_score"])}]
    built = sum(len(names) for r in small.records for names in r["built"])
    assert sum(c["built"] for c in stats["cards"]) == built
    for card in stats["cards"]:
        assert 0 <= card["built"] <= card["games"] * 3
        assert 1 <= card["games"] <= 12


def test_win_rate_per_game_sums_to_one() -> None:
    records = run_games(Run(players=4, games=6, seed=1, workers=1)).records
    for record in records:
        stats = statistics([record], 4)
        assert sum(w["wins"] for w in stats["wonder_sides"]) == pytest.approx(1)
        assert sum(w["win_rate"] * w["played"] for w in stats["wonder_sides"]) == \
            pytest.approx(1)


def test_category_averages_match_direct_scoring(small: Any) -> None:
    stats = small.stats
    for row in stats["categories"]:
        direct = [r["lines"][s][row["category"]] for r in small.records for s in range(3)]
        assert row["avg"] == pytest.approx(sum(direct) / len(direct))
    totals = [t for r in small.records for t in r["totals"]]
    assert stats["avg_score"] == pytest.approx(sum(totals) / len(totals))
    assert sum(row["avg"] for row in stats["categories"]) == pytest.approx(stats["avg_score"])
    decisions = [r["decisions"] for r in small.records]
    assert stats["avg_decisions"] == pytest.approx(sum(decisions) / len(decisions))


def test_build_rates_per_game_and_per_copy_by_hand() -> None:
    """A one-copy card at 4 players is built at most once a game: per seat-game its build
    rate tops out at 25 %; per game and per copy it reads 100 % when always built."""
    def game(dealt: list[str], built: list[list[str]]) -> dict[str, object]:
        return {"decisions": 1, "winners": [0], "lines": [{"a": 1}] * 4, "totals": [1] * 4,
                "wonders": [["W", "A"]] * 4, "bots": ["x"] * 4, "built": built,
                "dealt": dealt}
    records = [game(["One"], [["One"], [], [], []]), game(["One"], [[], [], ["One"], []]),
               game(["Two", "Two"], [["Two"], [], [], []]),        # 2 copies, 1 built
               game(["Two", "Two"], [["Two"], ["Two"], [], []])]   # 2 copies, both built
    stats = statistics(records, 4)
    one = next(c for c in stats["cards"] if c["card"] == "One")
    two = next(c for c in stats["cards"] if c["card"] == "Two")
    assert one["build_rate"] == 0.25                 # 2 builds over 8 seat-games
    assert one["games"] == 2 and one["copies"] == 2
    assert one["build_rate_game"] == 1.0 and one["build_rate_copy"] == 1.0
    assert two["games"] == 2 and two["copies"] == 4  # a game of two copies counts once
    assert two["build_rate_game"] == 1.0 and two["build_rate_copy"] == 0.75
    assert two["build_rate_copy_ci"][0] < 0.75 < two["build_rate_copy_ci"][1]


def test_card_statistics_by_hand() -> None:
    records = [
        {"decisions": 10, "winners": [0], "lines": [{"a": 5}, {"a": 1}],
         "totals": [5, 1], "wonders": [["W", "A"], ["V", "B"]], "bots": ["x", "y"],
         "built": [["Card"], []], "dealt": ["Card", "Other"]},
        {"decisions": 20, "winners": [0, 1], "lines": [{"a": 2}, {"a": 2}],
         "totals": [2, 2], "wonders": [["V", "B"], ["W", "A"]], "bots": ["x", "y"],
         "built": [[], ["Card"]], "dealt": ["Card"]},
    ]
    stats = statistics(records, 2)
    card = next(c for c in stats["cards"] if c["card"] == "Card")
    assert card["games"] == 2 and card["built"] == 2 and card["build_rate"] == 0.5
    assert card["win_rate_built"] == pytest.approx(0.75)  # 1 and 1/2
    assert card["win_rate_not_built"] == pytest.approx(0.25)  # 0 and 1/2
    assert card["win_lift"] == pytest.approx(0.5)
    assert card["avg_score_built"] == pytest.approx(3.5)
    assert card["avg_score_not_built"] == pytest.approx(1.5)
    other = next(c for c in stats["cards"] if c["card"] == "Other")
    assert other["built"] == 0 and other["win_rate_built"] is None and other["win_lift"] is None
    w = {(r["wonder"], r["side"]): r for r in stats["wonder_sides"]}
    assert w[("W", "A")]["win_rate"] == pytest.approx(0.75)
    assert w[("V", "B")]["win_rate"] == pytest.approx(0.25)
    assert {b["bot"]: b["win_rate"] for b in stats["bots"]} == {"x": 0.75, "y": 0.25}
    assert stats["avg_decisions"] == 15
    assert stats["categories"] == [{"category": "a", "avg": 2.5, "avg_winner": 3.5,
                                    "variance": 3.0, "avg_ci": pytest.approx(
                                        [2.5 - 1.96 * (3.0 / 4) ** 0.5,
                                         2.5 + 1.96 * (3.0 / 4) ** 0.5], abs=1e-3)}]


def _json(*args: str) -> dict[str, Any]:
    result = simulate(*args, "--json")
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_results_do_not_depend_on_workers() -> None:
    one = _json("--players", "3", "--games", "10", "--seed", "3", "--workers", "1")
    two = _json("--players", "3", "--games", "10", "--seed", "3", "--workers", "2")
    assert one["stats"] == two["stats"]
    assert one["run"] == two["run"]
    assert one["timing"]["workers"] == 1 and two["timing"]["workers"] == 2


def test_json_structure() -> None:
    data = _json("--players", "4", "--games", "4", "--seed", "9", "--workers", "1",
                 "--bots", "random,random,random,random")
    assert set(data) == {"run", "stats", "timing"}
    assert data["run"] == {"game": "base", "paths": [], "players": 4, "games": 4, "seed": 9,
                           "seeds": [9, 12], "bots": ["random"] * 4, "side": "random"}
    stats = data["stats"]
    assert set(stats) == {"games", "players", "seat_games", "avg_decisions", "avg_score",
                          "categories", "wonder_sides", "wonders", "cards", "bots",
                          "victories", "avg_score_ci", "score_variance"}
    assert [{k: v for k, v in row.items() if k != "share_ci"} for row in stats["victories"]] == [
        {"victory": "military", "games": 0, "share": 0.0},
        {"victory": "science", "games": 0, "share": 0.0},
        {"victory": "civilian", "games": 4, "share": 1.0}]
    assert stats["victories"][0]["share_ci"][0] == 0.0  # Wilson: 0 of 4 is [0, 49 %]
    assert stats["victories"][0]["share_ci"][1] == pytest.approx(0.4899, abs=1e-4)
    assert [c["category"] for c in stats["categories"]] == [
        "military", "treasury", "wonder", "civilian", "science", "commercial", "guilds"]
    assert set(stats["wonder_sides"][0]) == {"wonder", "side", "played", "wins", "win_rate",
                                             "win_rate_ci", "avg_score"}
    assert set(stats["cards"][0]) == {"card", "games", "built", "build_rate",
                                      "win_rate_built", "win_rate_not_built", "win_lift",
                                      "avg_score_built", "avg_score_not_built", "score_lift",
                                      "present", "wins_built", "wins_not_built",
                                      "build_rate_ci", "win_rate_built_ci",
                                      "win_rate_not_built_ci", "win_lift_ci", "copies",
                                      "build_rate_game", "build_rate_game_ci",
                                      "build_rate_copy", "build_rate_copy_ci"}
    assert set(data["timing"]) == {"backend", "workers", "tasks", "wall_seconds",
                                   "setup_seconds", "games_per_second", "avg_game_seconds",
                                   "overhead"}


def test_text_output_has_the_tables() -> None:
    result = simulate("--players", "3", "--games", "6", "--workers", "1", "--top", "3")
    assert result.exit_code == 0, result.output
    out = result.output
    for heading in ("6 games, 3 players", "Average points per category", "Wonders by side",
                    "top 3 by win-rate lift", "bottom 3 by win-rate lift", "decisions per game"):
        assert heading in out
    assert "Bots" not in out.split("lift = win rate")[-1]  # one kind of bot: no bot table


def test_mixed_bots_table() -> None:
    result = simulate("--players", "3", "--games", "3", "--workers", "1",
                      "--bots", "random,random,random")
    assert result.exit_code == 0
    data = _json("--players", "3", "--games", "3", "--workers", "1")
    assert len(data["stats"]["bots"]) == 1


def test_plot_writes_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "figure.png"
    result = simulate("--players", "3", "--games", "6", "--workers", "1", "--plot", str(target))
    assert result.exit_code == 0, result.output
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"wrote {target}" in result.output


@pytest.mark.parametrize("args", [
    ["--players", "2"], ["--players", "9"], ["--games", "0"], ["--workers", "0"],
    ["--bots", "nosuchbot"], ["--bots", "random,random"], ["--game", "nosuchgame"],
    ["--side", "C"], ["--top", "0"], ["--games", "many"], ["no/such/file.yaml"],
])
def test_bad_arguments_exit_2(args: list[str]) -> None:
    result = simulate("--games", "1", *args) if "--games" not in args else simulate(*args)
    assert result.exit_code == 2, result.output


def test_play_game_is_deterministic() -> None:
    data = game_data("base")
    first = play_game(data, 5, 77, ["random"] * 5)
    second = play_game(data, 5, 77, ["random"] * 5)
    first.pop("seconds")
    second.pop("seconds")
    assert first == second
