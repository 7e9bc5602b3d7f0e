"""The house rules shipped in ``examples/house-rules/`` (issue 12): each is a file of
a few lines that ``extends: base``, plays a whole game, and has the effect it states.

The effect is proved by the house rule's scenarios (``scenarios/<name>.yaml``): they
pass on the house rule and fail on the base game it extends (same positions, the
base numbers), so a house rule whose change were ignored would fail here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Workspace

import wonders
from wonders.scenarios.draft import check_file

FOLDER = Path(__file__).resolve().parent.parent / "examples" / "house-rules"
HOUSE_RULES = sorted(p.stem for p in FOLDER.glob("*.yaml"))


def test_the_examples_are_there() -> None:
    assert HOUSE_RULES == ["discard-for-4", "no-battles-in-age-1", "rich-start"]


@pytest.mark.parametrize("name", HOUSE_RULES)
def test_a_house_rule_plays_a_whole_game(name: str) -> None:
    game = wonders.new_game(FOLDER / f"{name}.yaml", players=4, seed=11)
    assert game.data.rules.lineage == ("base",)  # type: ignore[attr-defined]
    bots = [wonders.make_bot("random", seat) for seat in range(4)]
    while not game.over:
        game.play({s: bots[s].choose(game, s) for s in game.to_move()})
    assert len(game.score_sheet().winners) >= 1


@pytest.mark.parametrize("name", HOUSE_RULES)
def test_a_house_rule_has_its_stated_effect(name: str, ws: Workspace) -> None:
    scenarios = FOLDER / "scenarios" / f"{name}.yaml"
    result = check_file(scenarios)
    assert result.report.ok and result.outcomes, [d.render() for d in result.report.sorted()]
    assert all(o.passed for o in result.outcomes), [
        f.render() for o in result.outcomes for f in o.failures]
    # the same scenarios on the base game fail: the house rule is what makes them pass
    text = scenarios.read_text(encoding="utf-8").replace(f"game: ../{name}.yaml", "game: base")
    assert "game: base" in text
    on_base = check_file(ws.write("base.yaml", text))
    assert on_base.report.ok
    assert any(not o.passed for o in on_base.outcomes)


def test_no_battles_in_age_1_over_a_whole_game() -> None:
    """No city ever holds an Age I token (worth 1), yet battles of Ages II and III happen."""
    seen_later = False
    for seed in range(3):
        game = wonders.new_game(FOLDER / "no-battles-in-age-1.yaml", players=3, seed=seed)
        bots = [wonders.make_bot("greedy", seat) for seat in range(3)]
        while not game.over:
            game.play({s: bots[s].choose(game, s) for s in game.to_move()})
        tokens = [t for city in game.cities for t in city.tokens]  # type: ignore[attr-defined]
        assert ("victory", 1) not in tokens
        seen_later |= any(t[0] == "victory" for t in tokens)
    assert seen_later


def test_a_house_rule_file_takes_its_own_folder_only(tmp_path: Path) -> None:
    """A rule-set file given as the game brings the data files beside it, not the folders
    below: a house rule saved in a crowded folder (a home folder, /tmp) loads, whatever the
    subfolders hold (here a broken card file that would fail the load)."""
    rule = tmp_path / "rich-start.yaml"
    rule.write_text((FOLDER / "rich-start.yaml").read_text())
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "broken.yaml").write_text("kind: cards\ngame: base\ncards: [\n")
    game = wonders.new_game(str(rule), players=3, seed=1)
    assert all(city.coins == 5 for city in game.cities)
    from wonders.dsl.loader import load
    result = load(game=str(rule))
    assert result.ok, [d.render() for d in result.diagnostics]
