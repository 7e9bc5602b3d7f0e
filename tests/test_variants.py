"""Variants that inherit (issue 12): ``extends:`` a shipped game or a path.

Each test writes a small variant into a temporary folder and checks what it
changes (and only that) in the loaded game, where its mistakes are reported,
that every command and the Python API take its path like a shipped name, and
what ``wonders diff`` says about it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Workspace
from typer.testing import CliRunner

import wonders
from wonders.cli import app
from wonders.dsl import describe
from wonders.dsl.diff import diff
from wonders.dsl.loader import load
from wonders.engine.registry import load_new_game

runner = CliRunner()
REPO = Path(__file__).resolve().parent.parent
HOUSE_RULES = REPO / "examples" / "house-rules"

# A variant folder: a rule set over base, a card replaced, one added and one removed,
# a wonder side replaced, another wonder and a side removed, a colour added.
VARIANT_RULES = """\
kind: rules
name: variant
title: A variant
extends: base
players: {max: 6}
vocabulary:
  colours: [black]
setup: {coins: 4}
"""
VARIANT_CARDS = """\
kind: cards
set: variant
game: variant
remove: [Altar]
cards:
  - name: Tavern
    age: 1
    colour: yellow
    players: [4+, 5+, 7+]
    cost: free
    effect: "now: coins 7"
  - name: Shrine
    age: 1
    colour: black
    players: [3+, 5+]
    cost: free
    effect: points 2
"""
VARIANT_WONDERS = """\
kind: wonders
set: variant
game: variant
remove: [Olympia, {name: Rhodos, sides: [B]}]
wonders:
  - name: Gizah
    sides:
      B:
        start: produce stone
        stages:
          - cost: 1 wood
            effect: points 9
"""


def variant(ws: Workspace) -> Path:
    ws.write("variant/rules.yaml", VARIANT_RULES)
    ws.write("variant/cards.yaml", VARIANT_CARDS)
    ws.write("variant/wonders.yaml", VARIANT_WONDERS)
    return ws.root / "variant"


def test_a_variant_changes_only_what_it_says(ws: Workspace) -> None:
    result = load([variant(ws)])
    assert result.ok, [d.render() for d in result.report.sorted()]
    game, base = result.game, load([], "base").game
    assert game is not None and base is not None
    rules = game.rules
    assert (rules.name, rules.title, rules.lineage) == ("variant", "A variant", ("base",))
    assert (rules.min_players, rules.max_players) == (3, 6)          # min inherited
    assert rules.model.setup.coins == 4 and base.rules.model.setup.coins == 3
    assert rules.model.setup.wonder_side == base.rules.model.setup.wonder_side
    assert rules.vocabulary.colours == base.rules.vocabulary.colours + ("black",)
    assert rules.vocabulary.resources == base.rules.vocabulary.resources
    taverns = [c for c in game.cards if c.name == "Tavern"]
    assert len(taverns) == 1 and describe.effects(taverns[0].effects) == "when built: 7 coins"
    assert taverns[0].location.file.endswith("cards.yaml")
    assert "Altar" in game.removed and "Altar" not in {c.name for c in game.deck_cards()}
    assert len(game.cards) == len(base.cards) + 1                   # Shrine added
    wonders_by_name = {w.name: w for w in game.wonders}
    assert "Olympia" not in wonders_by_name and len(game.wonders) == len(base.wonders) - 1
    assert set(wonders_by_name["Rhodos"].sides) == {"A"}
    gizah, base_gizah = wonders_by_name["Gizah"], next(w for w in base.wonders
                                                       if w.name == "Gizah")
    assert gizah.sides["A"] is not None and len(gizah.sides["A"].stages) == 3   # kept
    assert len(gizah.sides["B"].stages) == 1 and len(base_gizah.sides["B"].stages) == 4
    # the inherited files count in the content hash (a replay notices a base change)
    assert game.content_hash != base.content_hash


def test_a_variant_plays_through_the_api(ws: Workspace) -> None:
    folder = variant(ws)
    for game in (wonders.new_game(folder, players=4, seed=3),
                 load_new_game(str(folder / "rules.yaml"), players=4, seed=3)):
        assert [city.coins for city in game.cities] == [4, 4, 4, 4]  # type: ignore[attr-defined]
        bots = [wonders.make_bot("random", seat) for seat in range(4)]
        while not game.over:
            game.play({s: bots[s].choose(game, s) for s in game.to_move()})
        assert len(game.score_sheet().totals) == 4


def test_a_chain_of_variants_and_where_its_mistakes_are(ws: Workspace) -> None:
    ws.write("middle.yaml", "kind: rules\nname: middle\nextends: base\nsell: coins 2\n")
    ws.write("top.yaml", "kind: rules\nname: top\nextends: middle.yaml\n"
                         "setup: {coins: 6}\n")
    game = load([ws.root / "top.yaml"]).game
    assert game is not None and game.rules.lineage == ("middle", "base")
    assert game.rules.model.setup.coins == 6
    assert describe.effects(game.rules.model.sell) == "when built: 2 coins"  # type: ignore[arg-type]
    # a mistake in the parent is reported in the parent's file, one in the child in its own
    ws.write("middle.yaml", "kind: rules\nname: middle\nextends: base\nsell: coins 2 wood\n")
    ws.write("top.yaml", "kind: rules\nname: top\nextends: middle.yaml\n"
                         "treasury: points 1 per 3 coinz\n")
    found = load([ws.root / "top.yaml"]).report.sorted()
    places = {(Path(d.location.file).name, d.location.line) for d in found}
    assert ("middle.yaml", 4) in places and ("top.yaml", 4) in places, [
        d.render() for d in found]


def test_extends_mistakes_are_located_with_did_you_mean(ws: Workspace) -> None:
    path = ws.write("v.yaml", "kind: rules\nname: v\nextends: duell\n")
    [problem] = load([path]).report.sorted()
    assert (problem.code, problem.location.line, problem.suggestion) == ("L706", 3, "duel")
    ws.write("folder/a.yaml", "kind: rules\nname: a\nextends: base\n")
    ws.write("folder/b.yaml", "kind: rules\nname: b\nextends: base\n")
    path = ws.write("w.yaml", "kind: rules\nname: w\nextends: folder\n")
    [problem] = load([path]).report.sorted()
    assert problem.code == "L706" and "holds 2 rule sets" in problem.message
    path = ws.write("self.yaml", "kind: rules\nname: s\nextends: self.yaml\n")
    [problem] = load([path]).report.sorted()
    assert problem.code == "L707"
    # without 'extends' the usual required keys are still required
    path = ws.write("plain.yaml", "kind: rules\nname: plain\n")
    codes = sorted(d.code for d in load([path]).report.sorted())
    assert codes == ["S102", "S102", "S102"]


def test_a_variant_card_of_another_name_is_not_a_replacement(ws: Workspace) -> None:
    folder = variant(ws)
    ws.write("variant/more.yaml", VARIANT_CARDS.replace("remove: [Altar]\n", "")
             .replace("set: variant", "set: more"))
    codes = {d.code for d in load([folder]).report.sorted()}
    assert "D605" in codes  # the variant defines Tavern twice itself: still an error


def test_remove_names_must_exist(ws: Workspace) -> None:
    folder = variant(ws)
    ws.write("variant/wonders.yaml", VARIANT_WONDERS.replace("Olympia", "Olympa")
             .replace("sides: [B]", "sides: [C]"))
    found = [d for d in load([folder]).report.sorted() if d.code == "D607"]
    assert [d.suggestion for d in found] == ["Olympia", None]
    assert "side 'C' of wonder 'Rhodos'" in found[1].message


def test_every_command_takes_a_variant_path(ws: Workspace) -> None:
    folder = variant(ws)
    rules = str(folder / "rules.yaml")
    for args in (["validate", "--game", rules], ["validate", str(folder)],
                 ["cards", "--game", rules, "--age", "1", "--colour", "black"],
                 ["graph", "--game", rules],
                 ["play", "--game", rules, "--players", "4", "--seed", "2"],
                 ["simulate", "--game", str(folder), "--games", "2", "--players", "3"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (args, result.output)
    result = runner.invoke(app, ["cards", "--game", rules, "--colour", "black"])
    assert "Shrine" in result.output


def test_diff_shows_what_a_variant_changes(ws: Workspace) -> None:
    folder = variant(ws)
    result = runner.invoke(app, ["diff", "base", str(folder)])
    assert result.exit_code == 0, result.output
    out = result.output
    for line in ("~ setup.coins: 3 -> 4", "~ players.max: 7 -> 6", "- Altar (age 1)",
                 "+ Shrine (age 1): black", "~ Tavern (age 1) effect: when built: 5 coins -> "
                 "when built: 7 coins", "- Olympia", "- Rhodos side B", "~ Gizah side B"):
        assert line in out, out
    assert "Gizah side A" not in out
    same = runner.invoke(app, ["diff", "base", "base"])
    assert same.exit_code == 0 and "no difference" in same.output
    assert runner.invoke(app, ["diff", "base", "bsae"]).exit_code == 2
    base, loaded = load([], "base").game, load([folder]).game
    assert base is not None and loaded is not None
    assert not diff(base, base).changes and diff(base, loaded).changes


@pytest.mark.parametrize("name", ["rich-start", "discard-for-4", "no-battles-in-age-1"])
def test_house_rules_are_a_few_lines(name: str) -> None:
    text = (HOUSE_RULES / f"{name}.yaml").read_text(encoding="utf-8")
    assert len([line for line in text.splitlines() if line and not line.startswith("#")]) <= 5
