"""Leaders and Cities together (``expansions/leaders-cities``, issue 12).

The rule set extends both expansions (``extends: [leaders, cities]``) and adds the 6
leaders of the Cities box.  The hand-worked numbers are rule scenarios
(``tests/scenarios/leaders-cities.yaml``); the tests here show that those scenarios
depend on each new construct being executed (``on bank coins:``, ``shields N per …``:
switched off, the scenarios that use them fail), that misuse of each is a located
validation error, that the pair has every score line and is named like the other
expansions, and that whole games play, end and replay at every table size.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Workspace
from typer.testing import CliRunner

from wonders.bots import make_bot
from wonders.cli import app
from wonders.dsl.diff import diff
from wonders.dsl.loader import load, load_game
from wonders.engine import game as draft_game
from wonders.engine.game import Game
from wonders.engine.mechanisms import battles
from wonders.engine.sources import resolve
from wonders.scenarios.draft import check_file
from wonders.scenarios.log import replay, write

ROOT = Path(__file__).resolve().parents[1]
PAIR = ROOT / "expansions" / "leaders-cities"
SCENARIOS = Path(__file__).resolve().parent / "scenarios" / "leaders-cities.yaml"
COMPILED = not draft_game.__file__.endswith(".py")  # compiled callers ignore a monkeypatch
CITIES_LEADERS = {"Aspasia", "Berenice", "Caligula", "Darius", "Diocletian", "Semiramis"}
runner = CliRunner()


def failed() -> set[str]:
    result = check_file(SCENARIOS)
    assert result.report.ok, [d.render() for d in result.report.sorted()]
    assert result.outcomes
    return {o.name for o in result.outcomes if not o.passed}


def test_the_scenarios_pass() -> None:
    assert failed() == set()


def test_the_pair_validates_with_both_expansions_and_the_cities_leaders() -> None:
    result = load(game=str(PAIR))
    assert result.ok, [d.render() for d in result.report.sorted()]
    data = result.game
    assert data is not None
    leaders = {c.name for c in data.reserve_cards()}
    assert CITIES_LEADERS <= leaders and len(leaders) == 36 + 6
    assert {"Petra", "Byzantium", "Roma"} <= {w.name for w in data.wonders}
    rules = data.rules
    assert rules.lineage == ("leaders", "cities", "base")
    assert rules.model.setup.coins == 6 and rules.model.ages.hand == 8
    assert rules.model.reserve is not None and rules.model.reserve.colour == "white"


def test_the_score_sheet_has_every_line() -> None:
    data = load_game(game=str(PAIR))
    game = Game(data, 4, 1)
    lines = game.score_sheet().to_json()["order"]
    for line in ("military", "treasury", "wonder", "civilian", "science", "commercial",
                 "guilds", "leaders", "city", "debt"):
        assert line in lines, lines


def test_named_like_the_other_expansions(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    source = resolve("leaders-cities")
    result = source.load()
    assert result.game is not None and result.game.rules.name == "leaders-cities"
    out = runner.invoke(app, ["validate", "--game", "leaders-cities"])
    assert out.exit_code == 0, out.output
    out = runner.invoke(app, ["validate", "--game", "leaders-citeis"])
    assert out.exit_code == 2 and "did you mean" in out.output


def test_diff_against_leaders_lists_what_cities_and_the_pair_add() -> None:
    changes = diff(load_game(game=str(ROOT / "expansions" / "leaders")),
                   load_game(game=str(PAIR))).changes
    added = {c.subject for c in changes if c.section == "cards" and c.sign == "+"}
    assert {f"{name} (age 0)" for name in CITIES_LEADERS} <= added
    assert "Militia (age 1)" in added and len(added) == 27 + 3 + 6
    out = runner.invoke(app, ["diff", "expansions/leaders", "expansions/leaders-cities"])
    assert out.exit_code == 0, out.output
    assert "+ Berenice (age 0)" in out.output


# --- each construct switched off fails its scenarios -----------------------------------

skip_compiled = pytest.mark.skipif(COMPILED, reason="the compiled loop cannot be monkeypatched")
BERENICE = {
    "Berenice: 1 more coin when the bank pays (a card's coins, a sale)",
    "Berenice: at most once a turn (Xenophon's coins in the same turn get no more)",
    "Berenice: an age's end is a turn of its own (Nero's coins after the last turn's sale)",
    "Berenice: a neighbour's Gambling Den gives her city the bank's coin, and one more"}


@skip_compiled
def test_bank_coins_never_announced_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    real = draft_game.trigger

    def without(table: object, seat: int, event: str, *rest: object) -> None:
        if event != "bank_coins":
            real(table, seat, event, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(draft_game, "trigger", without)
    assert failed() == BERENICE


@skip_compiled
def test_bank_coins_announced_for_every_gain_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without "once per turn" (each gain announced, the bonus's own coins excepted)."""
    real = Game.gain

    def every(self: Game, seat: int, coins: int) -> None:
        self._bank_moment[seat] = -2  # never the current turn
        real(self, seat, coins)

    monkeypatch.setattr(Game, "gain", every)
    assert "Berenice: at most once a turn (Xenophon's coins in the same turn get no more)" \
        in failed()


@skip_compiled
def test_counted_shields_ignored_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(battles, "battle_shields",
                        lambda cities, counted=True: [city.shields() for city in cities])
    assert failed() == {"Semiramis: each defeat token held is a shield in the next battles",
                        "Semiramis: a defeat of this age's battles counts only from the next "
                        "battles on"}


# --- misuse: located errors ---------------------------------------------------------------

RULES = ("kind: rules\nname: mine\nextends: base\nvocabulary:\n  colours: [white]\n"
         "  tokens: [diplomacy]\n")
CARD = ("kind: cards\nset: mine\ngame: mine\ncards:\n"
        "  - name: Hero\n    age: 1\n    colour: blue\n    players: [8]\n"
        "    cost: free\n    effect: \"{effect}\"\n")


@pytest.mark.parametrize(("effect", "code", "words"), [
    ("on bank coins: shields 1", "M901", "cannot act when coins come from the bank"),
    ("on bank coins: points 1", "T401", "points"),
    ("shields 1 per defeet token", "N305", "did you mean 'defeat'"),
    ("shields 0 per defeat token", None, ""),
])
def test_misuse_in_the_draft_game(ws: Workspace, effect: str, code: str | None,
                                  words: str) -> None:
    ws.write("rules.yaml", RULES)
    path = ws.write("cards.yaml", CARD.format(effect=effect))
    found = [d for d in load([path.parent]).report.sorted() if d.severity.value == "error"
             and d.location.file.endswith("cards.yaml")]
    if code is None:
        return  # (0 per …: a formula that may count 0; not an error of its own)
    assert [(d.code, d.location.line) for d in found] == [(code, 10)], \
        [d.render() for d in found]
    assert words in found[0].render()


@pytest.mark.parametrize(("effect", "words"), [
    ("on bank coins: coins 1", "'on bank coins:' is not announced by the structure"),
    ("shields 1 per defeat token", "'shields … per …'"),
])
def test_misuse_in_duel(ws: Workspace, effect: str, words: str) -> None:
    text = ("kind: cards\nset: mine\ngame: duelish\nremove: [Altar]\ncards:\n"
            "  - name: Shrine\n    age: 1\n    colour: blue\n    count: 1\n"
            f"    cost: free\n    effect: \"{effect}\"\n")
    rules = "kind: rules\nname: duelish\nextends: duel\nvocabulary:\n  tokens: [defeat]\n"
    paths = [ws.write("cards.yaml", text), ws.write("rules.yaml", rules)]
    found = [d for d in load([paths[0].parent]).report.sorted()
             if d.location.file.endswith("cards.yaml")]
    assert [(d.code, d.location.line) for d in found] == [("M901", 11)], \
        [d.render() for d in found]
    assert words in found[0].render()


# --- whole games ------------------------------------------------------------------------

@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_games_play_to_the_end_and_replay(players: int, tmp_path: Path) -> None:
    data = load_game(game=str(PAIR))
    for seed, bot in ((players, "random"), (players + 10, "greedy")):
        game = Game(data, players, seed)
        bots = {s: make_bot(bot, seed + s) for s in range(players)}
        while not game.over:
            game.play({s: bots[s].choose(game, s) for s in game.to_move()})
        assert all(c.coins >= 0 for c in game.cities)
        sheet = game.score_sheet().to_json()
        assert {"leaders", "city", "debt"} <= set(sheet["players"][0]["lines"])
        path = tmp_path / f"{players}-{bot}.jsonl"
        write(game, path, str(PAIR))
        assert replay(path).identical
