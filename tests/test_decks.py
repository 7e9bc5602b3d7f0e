"""Deck checks: every age deals exactly a hand to every player, at every player count."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from conftest import CARDS_HEADER, MINI_RULES, Workspace, card, card_file, only

from wonders.dsl.errors import Severity
from wonders.dsl.loader import LoadResult, load, shipped_games

BASE = shipped_games()["base"]


@pytest.fixture
def base_copy(tmp_path: Path) -> Path:
    """A writable copy of the shipped base game."""
    target = tmp_path / "base"
    shutil.copytree(BASE, target)
    return target


def edit(path: Path, old: str, new: str, count: int = 1) -> int:
    """Replace ``old`` (which must occur ``count`` times) and return its 1-based line."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == count, (old, text.count(old))
    line = text[:text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    return line


def last_card_line(path: Path) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return max(i for i, line in enumerate(lines, 1) if line.startswith("  - name:"))


def d601(result: LoadResult) -> list[str]:
    return [d.message for d in result.report.sorted() if d.code == "D601"]


# --- the base game ---------------------------------------------------------------------------

def test_base_game_passes_every_deck_check() -> None:
    result = load([], "base")
    assert result.ok
    assert not [d for d in result.report.diagnostics if d.code.startswith("D")]


@pytest.mark.parametrize("players", range(3, 8))
def test_base_game_deals_seven_cards_a_player_in_every_age(players: int) -> None:
    # the arithmetic the deck check does, done here independently from the loaded cards
    game = load([], "base").game
    assert game is not None and game.rules.hand == 7
    for age in (1, 2, 3):
        dealt = sum(c.copies(players) for c in game.cards if c.age == age and not c.drawn)
        drawn = sum(pool.count.evaluate({"players": players}) for pool in game.rules.draws
                    if pool.age == age)
        assert dealt + drawn == 7 * players, (age, players)
    guilds = [c for c in game.cards if c.drawn]
    assert len(guilds) == 10 and {c.colour for c in guilds} == {"purple"}
    assert [pool.count.evaluate({"players": players}) for pool in game.rules.draws] == [players + 2]


def test_removing_a_copy_names_age_player_count_and_numbers(base_copy: Path) -> None:
    age2 = base_copy / "age2.yaml"
    # the third copy of Caravansery (6+) goes missing
    block = "  - name: Caravansery\n    age: 2\n    colour: yellow\n    players: [3+, 5+, 6+]\n"
    edit(age2, block, block.replace("[3+, 5+, 6+]", "[3+, 5+]"))
    result = load([base_copy])
    assert not result.ok and result.game is None
    assert d601(result) == [
        "age 2 at 6 players has 41 cards (41 by player markers), but needs 42 "
        "(7 cards × 6 players)",
        "age 2 at 7 players has 48 cards (48 by player markers), but needs 49 "
        "(7 cards × 7 players)",
    ]
    assert {d.code for d in result.report.diagnostics} == {"D601"}
    where = {(Path(d.location.file).name, d.location.line, d.location.column)
             for d in result.report.diagnostics}
    assert where == {("age2.yaml", last_card_line(age2), 11)}


def test_an_extra_copy_is_too_many(base_copy: Path) -> None:
    edit(base_copy / "age1.yaml", "    players: [3+, 6+]\n    cost: free\n    makes_free: [Caravansery]",
         "    players: [3+, 3+, 6+]\n    cost: free\n    makes_free: [Caravansery]")
    messages = d601(load([base_copy]))
    assert len(messages) == 5  # every player count from 3 to 7
    assert messages[0] == ("age 1 at 3 players has 22 cards (22 by player markers), but needs 21 "
                           "(7 cards × 3 players)")
    assert messages[4].startswith("age 1 at 7 players has 50 cards")


def test_guild_draw_larger_than_the_guilds(base_copy: Path) -> None:
    rules = base_copy / "rules.yaml"
    edit(rules, "count: players + 2", "count: players + 4")
    result = load([base_copy])
    d608 = [d for d in result.report.sorted() if d.code == "D608"]
    assert [d.message for d in d608] == [
        "age 3 at 7 players draws 11 purple cards (players + 4), but only 10 exist"]
    # the draw rule's count, in rules.yaml, is what to look at
    assert Path(d608[0].location.file).name == "rules.yaml"
    line = rules.read_text(encoding="utf-8").splitlines()[d608[0].location.line - 1]
    assert line[d608[0].location.column - 1:].startswith("players + 4")
    # and every player count now deals two cards too many in age III
    assert d601(result)[0] == ("age 3 at 3 players has 23 cards (16 by player markers + 7 "
                               "drawn), but needs 21 (7 cards × 3 players)")
    assert len(d601(result)) == 5


def test_card_without_players_and_no_draw_rule(base_copy: Path) -> None:
    line = edit(base_copy / "age1.yaml", "  - name: Baths\n    age: 1\n    colour: blue\n"
                "    players: [3+, 7+]\n", "  - name: Baths\n    age: 1\n    colour: blue\n")
    result = load([base_copy])
    diagnostic = only(result.report.diagnostics, "D602")
    assert diagnostic.message == ("'Baths' has no 'players' markers, but the rule set draws no "
                                  "blue cards into age 1: add players: [3+] (or similar)")
    assert (Path(diagnostic.location.file).name, diagnostic.location.line,
            diagnostic.location.column) == ("age1.yaml", line, 11)
    assert len(d601(result)) == 5  # its two copies are missing from every count


def test_marker_above_the_maximum_is_a_warning(base_copy: Path) -> None:
    line = edit(base_copy / "age1.yaml", "    players: [3+, 7+]\n    cost: 1 stone\n",
                "    players: [3+, 7+, 8+]\n    cost: 1 stone\n")
    result = load([base_copy])
    diagnostic = only(result.report.diagnostics, "D604")
    assert diagnostic.severity is Severity.WARNING
    assert diagnostic.message == ("'Baths' has a copy marked 8+, but the game is for at most 7 "
                                  "players: that copy is never used")
    assert diagnostic.location.line == line - 3  # the card's name
    assert result.ok and result.game is not None  # a warning does not make the data invalid
    assert result.report.errors == [] and result.report.warnings == [diagnostic]


def test_removing_the_draw_rule_leaves_guilds_undrawn(base_copy: Path) -> None:
    edit(base_copy / "rules.yaml",
         "  draw:\n    - {age: 3, colour: purple, count: players + 2}", "")
    result = load([base_copy])
    assert sum(1 for d in result.report.diagnostics if d.code == "D602") == 10
    assert d601(result)[0] == ("age 3 at 3 players has 16 cards (16 by player markers), but "
                               "needs 21 (7 cards × 3 players)")


# --- small games -------------------------------------------------------------------------------

RULES = MINI_RULES.replace("  count: 3\n", "  count: 2\n  hand: 2\n")


def test_every_supported_player_count_is_checked(ws: Workspace) -> None:
    # age 1: 6 cards at 3 players, 8 at 4; age 2 has one copy too few at 4 players
    text = card_file(card("Well", players="[3+, 3+, 3+, 4+]"),
                     card("Altar", players="[3+, 3+, 3+, 4+]"),
                     card("Temple", age=2, players="[3+, 3+, 3+]"),
                     card("Forum", age=2, players="[3+, 3+, 3+, 4+]"))
    found = ws.diagnose(text, rules=RULES)
    assert [(d.code, d.location.line, d.message) for d in found] == [
        ("D601", 23, "age 2 at 4 players has 7 cards (7 by player markers), but needs 8 "
                     "(2 cards × 4 players)"),
    ]


def test_empty_age_is_reported_at_the_rule_set(ws: Workspace) -> None:
    text = card_file(card("Well", players="[3+, 3+, 3+, 4+]"),
                     card("Altar", players="[3+, 3+, 3+, 4+]"))
    found = ws.diagnose(text, rules=RULES)
    assert [(Path(d.location.file).name, d.location.line, d.location.column, d.message)
            for d in found] == [
        ("rules.yaml", 16, 3, "age 2 at 3 players has 0 cards (0 by player markers), but needs 6 "
                              "(2 cards × 3 players)"),
        ("rules.yaml", 16, 3, "age 2 at 4 players has 0 cards (0 by player markers), but needs 8 "
                              "(2 cards × 4 players)"),
    ]


def test_no_hand_size_means_no_deal_check(ws: Workspace) -> None:
    assert ws.diagnose(card_file(card("Well", players="[3+]"))) == []


def test_removed_cards_leave_the_deck(ws: Workspace) -> None:
    base = card_file(card("Well", players="[3+, 3+, 3+, 4+]"),
                     card("Altar", players="[3+, 3+, 3+, 4+]"),
                     card("Temple", age=2, players="[3+, 3+, 3+, 4+]"),
                     card("Forum", age=2, players="[3+, 3+, 3+, 4+]"))
    ws.rules(RULES)
    first = ws.write("cards.yaml", base)
    extra = ws.write("extra.yaml", card_file(
        card("Shrine", players="[3+, 3+, 3+, 4+]"),
        header=CARDS_HEADER.replace("set: mini", "set: extra").replace(
            "cards:\n", "remove: [Altar]\ncards:\n")))
    assert ws.load(ws.root / "rules.yaml", first).report.sorted() == []
    assert ws.load(ws.root / "rules.yaml", first, extra).report.sorted() == []


def test_numbers_in_messages_are_the_real_counts(ws: Workspace) -> None:
    text = card_file(card("Well", players="[3+, 4+]"), card("Temple", age=2, players="[3+]"))
    messages = [d.message for d in ws.diagnose(text, rules=RULES)]
    counts = [tuple(int(n) for n in re.findall(r"\d+", m)) for m in messages]
    # (age, players, has, by markers, needs, hand, players)
    assert counts == [(1, 3, 1, 1, 6, 2, 3), (1, 4, 2, 2, 8, 2, 4),
                      (2, 3, 1, 1, 6, 2, 3), (2, 4, 1, 1, 8, 2, 4)]
