"""Balance reports: intervals on every rate, the cards of interest (--card, --set), two rule
sets compared on the same seeds (--compare), and a plot that says what it shows."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import wonders
from wonders.cli import app
from wonders.simulate import (
    SelectionError,
    compare,
    difference_interval,
    filtered,
    mean_interval,
    plot_heading,
    select,
    statistics,
    two_proportion_p,
    welch_p,
    wilson,
)

runner = CliRunner()

STRONG_CARD = """\
kind: cards
set: strong
game: base
requires: [base]
remove: [Tavern]
cards:
  - name: Golden Statue
    age: 1
    colour: blue
    players: [4+, 5+, 7+]
    cost: free
    effect: "points 25"
"""


def _flat(text: str) -> str:
    """A usage error's words without the box rich draws around them."""
    return " ".join(text.replace("│", " ").split())


def simulate_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["simulate", "--json", "--workers", "1", *args])
    assert result.exit_code == 0, result.output
    found: dict[str, Any] = json.loads(result.stdout)
    return found


# --- the intervals and tests, against published values ------------------------------------

def test_wilson_interval_matches_the_literature() -> None:
    # 81 of 263 (Wilson 1927 as tabulated by Newcombe 1998): 0.2553 to 0.3662
    assert wilson(81, 263) == pytest.approx([0.2553, 0.3662], abs=1e-4)
    assert wilson(0, 4) == pytest.approx([0.0, 0.4899], abs=1e-4)  # stays within [0, 1]
    assert wilson(4, 4) == pytest.approx([0.5101, 1.0], abs=1e-4)
    assert wilson(1, 0) is None


def test_difference_interval_is_newcombes() -> None:
    # Newcombe 1998, method 10, example (a): 56/70 - 48/80 = 0.2000, 0.0524 to 0.3339
    assert difference_interval(56, 70, 48, 80) == pytest.approx([0.0524, 0.3339], abs=1e-4)
    assert difference_interval(1, 0, 1, 2) is None


def test_p_values() -> None:
    assert two_proportion_p(50, 100, 50, 100) == 1.0
    # 60/100 against 40/100: z = 2.83, p = 0.0047
    assert two_proportion_p(60, 100, 40, 100) == pytest.approx(0.00468, abs=1e-4)
    assert welch_p(10.0, 4.0, 100, 11.0, 4.0, 100) == pytest.approx(0.000407, abs=1e-5)
    assert mean_interval(10.0, 10.0 * 10.0 / 1, 1) is None


# --- comparisons: Holm's correction, cards only on one side ---------------------------------

def _record(seed: int, winner: int, built: list[list[str]], wonder: str = "W",
            dealt: list[str] | None = None) -> dict[str, Any]:
    return {"seed": seed, "bots": ["x", "x"], "wonders": [[wonder, "A"], [wonder, "B"]],
            "victory": "civilian", "lines": [{"a": 1}, {"a": 2}], "totals": [1, 2],
            "coins": [0, 0], "winners": [winner], "built": built,
            "dealt": dealt if dealt is not None else sorted({n for names in built
                                                             for n in names}),
            "decisions": 1, "seconds": 0.0}


def test_compare_flags_a_real_difference_and_not_noise() -> None:
    # side A of the wonder wins 1 game in 2 in run a, 9 in 10 in run b (200 games each)
    a = statistics([_record(i, i % 2, [["C"], []]) for i in range(200)], 2)
    b = statistics([_record(i, 0 if i % 10 else 1, [["C"], ["New"]]) for i in range(200)], 2)
    rows = compare(a, b)
    by_key = {(row["what"], row["name"]): row for row in rows}
    side = by_key[("wonder win rate", "W A")]
    assert side["significant"] and side["difference"] == pytest.approx(0.4)
    assert side["ci"][0] > 0.3
    assert not by_key[("average score", "total")]["significant"]  # identical totals
    only = by_key[("card win rate if built", "New")]
    assert only["only"] == "b" and "p" not in only
    assert rows[0] in (side, by_key[("wonder win rate", "W B")])  # most significant first


def test_holm_keeps_chance_findings_out() -> None:
    """Forty cards with the same rates in both runs but for sampling noise: the plain test
    at 5 % would flag some; Holm's correction flags none."""
    import random

    rng = random.Random(3)
    cards = [f"card{c}" for c in range(40)]

    def run() -> dict[str, Any]:
        return statistics([_record(i, rng.randrange(2),
                                   [[c for c in cards if rng.random() < 0.5],
                                    [c for c in cards if rng.random() < 0.5]], dealt=cards)
                           for i in range(150)], 2)

    rows = compare(run(), run())
    assert any(row["p"] < 0.05 for row in rows if row.get("p") is not None)
    assert not any(row.get("significant") for row in rows)


# --- selections --------------------------------------------------------------------------

def test_selection_by_card_and_set_with_did_you_mean() -> None:
    data = wonders.load_game("expansions/tutorial")
    chosen = select([data], cards=["Loom"], sets=["tutorial"])
    assert "Loom" in chosen.cards and "Toll Gate" in chosen.cards
    assert chosen.wonders == {w.name for w in data.wonders if w.set == "tutorial"}
    with pytest.raises(SelectionError, match="no card 'Lom' .*did you mean 'Loom'"):
        select([data], cards=["Lom"])
    with pytest.raises(SelectionError, match="no card set 'tutorail'.*did you mean 'tutorial'"):
        select([data], sets=["tutorail"])
    stats = {"cards": [{"card": "Loom"}, {"card": "Altar"}],
             "wonder_sides": [{"wonder": w.name} for w in data.wonders],
             "wonders": [{"wonder": w.name} for w in data.wonders]}
    kept = filtered(stats, chosen)
    assert kept["cards"] == [{"card": "Loom"}]
    assert {row["wonder"] for row in kept["wonders"]} == chosen.wonders
    assert filtered(stats, select([data], cards=["Altar"]))["wonders"] == stats["wonders"]


def test_the_command_line_filters_to_the_cards_asked_about() -> None:
    found = simulate_json("--games", "6", "--players", "3", "--card", "Loom", "--card",
                          "Altar")
    assert {row["card"] for row in found["stats"]["cards"]} <= {"Loom", "Altar"}
    assert found["stats"]["cards"]
    for row in found["stats"]["cards"]:
        assert row["build_rate_ci"][0] <= row["build_rate"] <= row["build_rate_ci"][1]
    text = runner.invoke(app, ["simulate", "--games", "4", "--workers", "1", "--set",
                               "tutorial", "expansions/tutorial"])
    assert text.exit_code == 0, text.output
    assert "Selected cards" in text.stdout and "Toll Gate" in text.stdout
    assert "Altar" not in text.stdout
    for bad, hint in ((["--card", "Lom"], "did you mean 'Loom'"),
                      (["--set", "bsae"], "did you mean 'base'")):
        result = runner.invoke(app, ["simulate", "--games", "2", *bad])
        assert result.exit_code == 2 and hint in _flat(result.output)
        assert "Traceback" not in result.output


def test_compare_on_the_same_data_finds_nothing(tmp_path: Path) -> None:
    found = simulate_json("--games", "20", "--compare", "base", "base")
    assert found["a"]["stats"] == found["b"]["stats"]  # the same seeds: the same games
    assert all(row["difference"] == 0 for row in found["differences"] if "difference" in row)
    assert not any(row.get("significant") for row in found["differences"])


def test_compare_finds_a_card_that_is_too_strong(tmp_path: Path) -> None:
    (tmp_path / "strong.yaml").write_text(STRONG_CARD, encoding="utf-8")
    found = simulate_json("--games", "150", "--players", "4", "--compare", "base",
                          str(tmp_path))
    rows = found["differences"]
    significant = {(row["what"], row["name"]) for row in rows if row.get("significant")}
    assert ("average points", "civilian") in significant
    strong = next(row for row in rows if row["name"] == "Golden Statue")
    assert strong["only"] == "b" and strong["b_lift"] > 0.2 and strong["b_lift_ci"][0] > 0
    assert any(row["name"] == "Tavern" and row["only"] == "a" for row in rows)
    text = runner.invoke(app, ["simulate", "--games", "40", "--players", "4", "--workers", "1",
                               "--compare", "base", str(tmp_path)])
    assert text.exit_code == 0, text.output
    assert "Significant differences, B − A" in text.stdout and "Golden Statue" in text.stdout


def test_compare_refuses_what_it_cannot_do(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "--games", "2", "--compare", "base", "bsae"])
    assert result.exit_code == 2 and "did you mean 'base'" in _flat(result.output)
    result = runner.invoke(app, ["simulate", "--games", "2", "--compare", "base", "duel",
                                 "--players", "4"])
    assert result.exit_code == 2 and "2 players, not 4" in _flat(result.output)
    for name, why in (("Tavern", "removed from"), ("Circus", "not dealt at 3 players")):
        result = runner.invoke(app, ["simulate", "--games", "2", "--players", "3", "--card",
                                     name, "expansions/tutorial"])
        assert result.exit_code == 2 and why in _flat(result.output), result.output


def test_compare_sets_each_new_card_beside_the_card_it_replaces(tmp_path: Path) -> None:
    """The strong card declares that it replaces Tavern: the report pairs the two, with the
    change in lift (B's lift minus A's, from the two runs' figures) and its interval."""
    (tmp_path / "strong.yaml").write_text(
        STRONG_CARD.replace("    cost: free\n", "    cost: free\n    replaces: Tavern\n"),
        encoding="utf-8")
    found = simulate_json("--games", "120", "--players", "4", "--compare", "base",
                          str(tmp_path))
    rows = {(row["what"], row["name"]): row for row in found["differences"]}
    lift = rows[("replacement win-rate lift", "Golden Statue (replacing Tavern)")]
    tavern = next(c for c in found["a"]["stats"]["cards"] if c["card"] == "Tavern")
    statue = next(c for c in found["b"]["stats"]["cards"] if c["card"] == "Golden Statue")
    assert lift["a"] == tavern["win_lift"] and lift["b"] == statue["win_lift"]
    assert lift["difference"] == pytest.approx(statue["win_lift"] - tavern["win_lift"])
    assert lift["ci"][0] < lift["difference"] < lift["ci"][1] and lift["difference"] > 0.2
    assert lift["significant"]
    built = rows[("replacement build rate per copy", "Golden Statue (replacing Tavern)")]
    assert built["a"] == pytest.approx(tavern["build_rate_copy"])
    picture = tmp_path / "compare.png"
    text = runner.invoke(app, ["simulate", "--games", "40", "--players", "4", "--workers", "1",
                               "--compare", "base", str(tmp_path), "--plot", str(picture)])
    assert text.exit_code == 0, text.output
    assert "Replacements" in text.stdout and "Golden Statue (replacing Tavern)" in text.stdout
    if importlib.util.find_spec("matplotlib") is not None:
        assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# --- the plot says what it shows -----------------------------------------------------------

def test_the_plot_names_the_game_the_bots_and_the_number_of_games(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("matplotlib", reason="--plot needs matplotlib")
    from matplotlib.figure import Figure

    titles: list[str] = []
    original = Figure.suptitle

    def record(self: Figure, text: str, **kwargs: Any) -> Any:
        titles.append(text)
        return original(self, text, **kwargs)

    monkeypatch.setattr(Figure, "suptitle", record)
    path = tmp_path / "balance.png"
    result = runner.invoke(app, ["simulate", "--games", "5", "--players", "3", "--workers",
                                 "1", "--bots", "random,greedy,random", "--plot", str(path)])
    assert result.exit_code == 0, result.output
    assert path.stat().st_size > 1000
    assert titles == ["7 Wonders (1st edition): 5 games, 3 players, bots random, greedy, random"]
    assert plot_heading({"games": 1, "players": 2}, "G", ["a"]) == "G: 1 games, 2 players, bots a"
