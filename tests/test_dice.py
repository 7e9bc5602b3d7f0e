"""7 Wonders Dice (issue 13): the data validates, every command plays it, bad data is
refused with located errors, the scenarios can fail, and rules hold over random games.

The rules themselves are checked by tests/scenarios/dice-rules.yaml (worked numbers);
the game contract by tests/test_conformance.py (dice at 2, 4 and 7 players).
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from wonders.bots import make_bot
from wonders.cli import app
from wonders.cli.dice_human import play_dice_human
from wonders.dsl.loader import load, load_game, shipped_games
from wonders.engine.flow import FlowGame
from wonders.engine.mechanisms import end_trigger
from wonders.engine.registry import new_game
from wonders.scenarios.draft import check_file

DICE = shipped_games()["dice"]
SCENARIOS = Path(__file__).resolve().parent / "scenarios" / "dice-rules.yaml"
runner = CliRunner()


@pytest.fixture(scope="module")
def data():  # type: ignore[no-untyped-def]
    return load_game(game="dice")


def variant(tmp_path: Path, file: str, old: str, new: str) -> Path:
    """A copy of the shipped Dice folder with one text replaced in one file."""
    folder = tmp_path / "variant"
    shutil.copytree(DICE, folder)
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


# --- the data -----------------------------------------------------------------------------

def test_the_shipped_data_validates() -> None:
    result = runner.invoke(app, ["validate", "--game", "dice"])
    assert result.exit_code == 0, result.output
    assert "3 files checked: 0 errors, 0 warnings" in result.output


def test_every_number_of_the_sheets_carries_its_provenance(data) -> None:  # type: ignore[no-untyped-def]
    dice = data.dice
    allowed = {"sourced", "one-impl", "reconstructed", "invented", "unknown"}
    assert all(b.confidence in allowed for b in dice.buildings)
    assert all(b.confidence in allowed for b in dice.boards)
    assert all(d.confidence in allowed for d in dice.dice)
    assert dice.reserve_confidence == "unknown"
    assert len(dice.boards) == 7 and len(dice.dice) == 10
    assert sum(d.start for d in dice.dice) == 7   # 3 grey, blue, red, yellow, green


@pytest.mark.parametrize(("file", "old", "new", "code", "words"), [
    ("forum.yaml", "{building: agora, symbol: mask}", "{building: agorra, symbol: mask}",
     "D615", "unknown building 'agorra'"),
    ("forum.yaml", "{building: agora, symbol: mask}", "{building: agora, symbol: maks}",
     "D615", "no space of 'agora' has the symbol 'maks'"),
    ("forum.yaml", "{building: [barracks_west, barracks_east], symbol: shield},\n",
     "{building: [barracks_west, barracks_est], symbol: shield},\n", "D615",
     "unknown building 'barracks_est'"),
    ("forum.yaml", "{building: guild_court, compare: wonder}",
     "{building: guild_court, compare: wondr}", "D615", "unknown building 'wondr'"),
    ("forum.yaml", "compare: [barracks_west, barracks_east]",
     "compare: [barracks_west, barracks_eats]", "D615", "unknown building 'barracks_eats'"),
    ("sheets.yaml", "die_discount: {colour: yellow, less: 1}",
     "die_discount: {colour: yelow, less: 1}", "D615", "no die has the colour 'yelow'"),
    ("sheets.yaml", "on_die: {colour: red, coins: 2}", "on_die: {colour: rde, coins: 2}",
     "D615", "no die has the colour 'rde'"),
    ("sheets.yaml", "cross: [agora]", "cross: [agroa]", "D615", "unknown building 'agroa'"),
    ("sheets.yaml", "cross: {buildings: [barracks_west], up_to: 2}",
     "cross: {buildings: [barracks_wst], up_to: 2}", "D615",
     "unknown building 'barracks_wst'"),
    ("sheets.yaml", "cross: {buildings: [barracks_west], up_to: 2}",
     "cross: {buildings: [barracks_west], up_to: 0}", "S105", "cross is a list of building"),
    ("sheets.yaml", "die_discount: {colour: yellow, less: 1}", "die_discount: {colour: yellow}",
     "S105", "die_discount is a number of coins"),
    ("sheets.yaml", "{symbols: [mask, scales], cost: 0,", "{symbol: mask, symbols: [mask, scales], cost: 0,",
     "D615", "not both"),
    ("forum.yaml", "{building: guild_court, compare: agora}",
     "{building: guild_court, compare: agoar}", "D615", "unknown building 'agoar'"),
    ("sheets.yaml", "cross: [warehouse, agora, market]", "cross: [warehouse, agora, markt]",
     "D615", "unknown building 'markt'"),
    ("sheets.yaml", "unlock: black}", "unlock: blak}", "D615", "names no die waiting"),
    ("sheets.yaml", "effect: points 5}", "effect: shields 5}", "M901", "attack"),
    ("sheets.yaml", "effect: produce wood,", "effect: produce wood | stone,", "M901",
     "one resource"),
    ("sheets.yaml", "effect: ability extra_action}", "effect: ability free_build}", "N306",
     "free_build"),
    ("sheets.yaml", "colour: grey\n", "colour: gray\n", "N302", "unknown colour 'gray'"),
    ("sheets.yaml", "{symbol: wood, cost: 0,", "{symbol: wood, cost: 7,", "S106", "at most 6"),
    ("rules.yaml", "players: {min: 2, max: 7}", "players: {min: 2, max: 8}", "M904",
     "7 boards"),
])
def test_bad_data_is_a_located_error(tmp_path: Path, file: str, old: str, new: str,
                                     code: str, words: str) -> None:
    folder = variant(tmp_path, file, old, new)
    found = [d for d in load([folder]).report.sorted() if d.code == code]
    assert found, load([folder]).report.sorted()
    assert words in found[0].message
    assert found[0].location.line > 0 and found[0].location.column > 0
    result = runner.invoke(app, ["validate", str(folder)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f": {code} " in result.output


def test_a_dice_rule_set_without_sheets_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "bare"
    folder.mkdir()
    shutil.copy(DICE / "rules.yaml", folder)
    shutil.copy(DICE / "forum.yaml", folder)
    problems = load([folder]).report.sorted()
    assert [d.code for d in problems] == ["M905"], problems
    assert "exactly one 'sheets' file" in problems[0].message


def test_dice_files_beside_another_rule_set_are_refused(tmp_path: Path) -> None:
    folder = variant(tmp_path, "rules.yaml", "mechanism: dice ", "mechanism: draft ")
    codes = {d.code for d in load([folder]).report.sorted()}
    assert "M905" in codes


def _flow_problems(folder: Path) -> list[str]:
    return [f"{d.code} {d.message} @{d.location.line}" for d in load([folder]).report.sorted()]


def test_a_dice_flow_must_ask_every_seat_at_once(tmp_path: Path) -> None:
    folder = variant(tmp_path, "rules.yaml", "    decide: all ", "    decide: in_order ")
    assert _flow_problems(folder) == [
        "M909 offer 'dice' asks all, not in_order @45"], _flow_problems(folder)


def test_a_dice_flow_must_order_every_follow_up(tmp_path: Path) -> None:
    """A follow-up left out of the order would never be asked: refused, located."""
    folder = variant(tmp_path, "rules.yaml", "follow_ups: [bonus, extra]", "follow_ups: [bonus]")
    found = _flow_problems(folder)
    assert found == ["M909 turn.follow_ups must order the follow-up decisions offer 'dice' "
                     "asks (bonus, extra), not bonus @50"], found


def test_a_dice_rule_set_without_a_flow_is_refused(tmp_path: Path) -> None:
    folder = variant(tmp_path, "rules.yaml", "\nflow:\n", "\nunused_flow:\n")
    codes = [d.code for d in load([folder]).report.sorted()]
    assert "M909" in codes, codes


def test_a_dice_flow_step_typo_is_refused_with_a_suggestion(tmp_path: Path) -> None:
    folder = variant(tmp_path, "rules.yaml", "- shake_forum ", "- shake_forums ")
    problems = load([folder]).report.sorted()
    assert [d.code for d in problems] == ["M909"], problems
    assert problems[0].suggestion == "shake_forum"


# --- every command -----------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_play_every_table_size(players: int) -> None:
    result = runner.invoke(app, ["play", "--game", "dice", "--players", str(players),
                                 "--seed", str(players)])
    assert result.exit_code == 0, result.output
    assert "winner: " in result.output and "Dice" in result.output


def test_a_logged_game_replays(tmp_path: Path) -> None:
    log = tmp_path / "dice.jsonl"
    result = runner.invoke(app, ["play", "--game", "dice", "--players", "4", "--seed", "9",
                                 "--bots", "greedy,random,greedy,random", "--log", str(log)])
    assert result.exit_code == 0, result.output
    replayed = runner.invoke(app, ["replay", str(log)])
    assert replayed.exit_code == 0 and "identical" in replayed.output, replayed.output


def test_simulate_gives_statistics_by_board() -> None:
    result = runner.invoke(app, ["simulate", "--game", "dice", "--games", "40", "--workers", "1",
                                 "--json"])
    assert result.exit_code == 0, result.output
    import json
    stats = json.loads(result.output)["stats"]
    assert stats["games"] == 40
    boards = {row["wonder"] for row in stats["wonders"]}
    assert boards <= {b.name for b in load_game(game="dice").dice.boards}   # type: ignore
    assert len(boards) == 7


def test_simulate_shows_no_card_tables_for_a_game_without_cards() -> None:
    result = runner.invoke(app, ["simulate", "--game", "dice", "--games", "10", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "Wonders by side" in result.output and "Cards:" not in result.output


def test_the_winner_line_says_how_without_ages() -> None:
    result = runner.invoke(app, ["play", "--game", "dice", "--players", "3", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "victory: civilian (most points at the end of the game)" in result.output


def test_wonders_cards_and_games_list_dice() -> None:
    games = runner.invoke(app, ["games"])
    assert games.exit_code == 0 and "dice" in games.output


def test_the_terminal_plays_a_whole_game(data) -> None:  # type: ignore[no-untyped-def]
    from io import StringIO

    from rich.console import Console

    game = new_game(data, 3, 4)
    assert isinstance(game, FlowGame)
    answers = iter(["help", "show", "0", "x", *["1"] * 400])
    out = StringIO()
    bots = {1: make_bot("greedy", 1), 2: make_bot("random", 2)}
    assert play_dice_human(game, 0, bots, Console(file=out, width=140),
                           lambda prompt: next(answers))
    text = out.getvalue()
    assert game.over and "The forum" in text and "your price" in text
    assert "Choose a number from 1 to" in text and "Final scores" in text


def test_the_terminal_quits(data) -> None:  # type: ignore[no-untyped-def]
    from io import StringIO

    from rich.console import Console

    game = new_game(data, 2, 1)
    assert isinstance(game, FlowGame)
    answers = iter(["1", "quit"])
    assert not play_dice_human(game, 1, {0: make_bot("random", 0)},
                               Console(file=StringIO()), lambda prompt: next(answers))


def test_the_terminal_sheet_marks_crossed_spaces_and_built_stages(data) -> None:  # type: ignore[no-untyped-def]
    """A crossed space and a built stage show as [x] (printed as text, not read as markup,
    which swallowed every mark and left the space blank)."""
    from io import StringIO

    from rich.console import Console

    from wonders.cli.dice_human import DiceHuman
    from wonders.engine.dice_actions import BuildWonderStage, CrossSpace
    from wonders.engine.mechanisms import sheets

    game = new_game(data, 2, 1)
    assert isinstance(game, FlowGame)
    for wanted in (CrossSpace, BuildWonderStage):
        game.play({seat: next((a for a in game.legal_actions(seat) if isinstance(a, wanted)),
                              game.legal_actions(seat)[-1]) for seat in game.to_move()})
        while game.decision().kind != "turn":
            game.play({seat: game.legal_actions(seat)[0] for seat in game.to_move()})
    city = sheets.state(game).cities[0]
    assert any(any(row) for row in city.crossed) and city.stages == 1
    out = StringIO()
    DiceHuman(game, 0, {}, Console(file=out, width=200), lambda prompt: "").show()
    text = out.getvalue()
    assert "spaces ([x] crossed" in text
    wonder = next(line for line in text.splitlines() if "│ Wonder " in line)
    assert "[x]" in wonder
    crossed = sum(row.count(True) for row in city.crossed)
    assert text.count("[x]") >= 1 + crossed + city.stages


def test_play_human_from_the_command_line() -> None:
    result = runner.invoke(app, ["play", "--game", "dice", "--human", "--players", "2",
                                 "--seed", "3"], input="1\n" * 400)
    assert result.exit_code == 0, result.output
    assert "Final scores" in result.output


# --- the scenarios can fail ----------------------------------------------------------------

@pytest.mark.parametrize(("file", "old", "new", "failing"), [
    ("forum.yaml", "two_players: more", "two_players: at_least",
     "Guild Court, 2 players - a tie is not enough"),
    ("forum.yaml", "neighbours: at_least", "neighbours: more",
     "Guild Court, 3 players - a tie with a neighbour is enough"),
    ("sheets.yaml", "size: 20", "size: 30", "the gold reserve holds 20 coins; coins gained "
     "beyond it are lost"),
    ("sheets.yaml", "extra_turns: 1", "extra_turns: 0", "completing a building gives a bonus; "
     "the third bonus ends the game after one more turn"),
    ("sheets.yaml", "first: 3 ", "first: 4 ",
     "the first players to complete the Agora score its extra points"),
    ("rules.yaml", "tie_break: [coins]", "tie_break: [buildings]",
     "a tie in points goes to the most unspent coins"),
])
def test_scenarios_fail_when_the_rule_changes(tmp_path: Path, file: str, old: str, new: str,
                                              failing: str) -> None:
    variant(tmp_path, file, old, new)
    scenarios = tmp_path / "dice-rules.yaml"
    scenarios.write_text(SCENARIOS.read_text(encoding="utf-8").replace(
        "game: dice\n", "game: variant\n", 1), encoding="utf-8")
    result = check_file(scenarios)
    assert result.report.ok, result.report.sorted()
    failed = [o.name for o in result.outcomes if not o.passed]
    assert failing in failed, failed


PRINTED = SCENARIOS.with_name("dice-printed.yaml")


@pytest.mark.parametrize(("file", "old", "new", "failing"), [
    ("sheets.yaml", "effect: produce loom", "effect: produce clay",
     "C1: the grey die's loom face crosses the loom space, a fourth resource type"),
    ("sheets.yaml", "{symbols: [owl, caduceus], cost: 1,", "{symbols: [fountain, caduceus], cost: 1,",
     "C3: a blue face crosses the next Agora space taking its symbol"),
    ("forum.yaml", "{building: [barracks_west, barracks_east], symbol: shield},\n",
     "{building: barracks_west, symbol: shield},\n",
     "C4: the red shield crosses a defence of either Barracks, the axe a West attack"),
    ("forum.yaml", "compare: [barracks_west, barracks_east]", "compare: barracks_west",
     "C7: the purple Barracks face counts both Barracks together"),
    ("forum.yaml", "compare: wonder}", "compare: guild_court}",
     "C7: the purple Wonder face compares the Wonder stages built"),
    ("sheets.yaml", "die_discount: {colour: yellow, less: 1}", "die_discount: 1",
     "C12: after the Market's discount space the yellow die costs 1 less, other dice not"),
    ("sheets.yaml", "die_discount: {colour: green, at_most: 0}",
     "die_discount: {colour: green, less: 1}",
     "C13: after the compass lane's second space the green die costs nothing"),
    ("sheets.yaml", "on_die: {colour: red, coins: 2}", "on_die: {colour: blue, coins: 2}",
     ("C13: after the tablet lane's first space choosing the red die gives 2 coins|"
      "C13: the red die gives its 2 coins even where the black die crosses the same space "
      "for the same price")),
    ("sheets.yaml", "cross: [agora]", "cross: [market]",
     "C13: the gear lane's second space crosses a space of the Agora (cross: [agora])"),
    ("sheets.yaml", "up_to: 2", "up_to: 1",
     ("cross up to two spaces: two crossings one after the other, each paying its cost|"
      "cross up to two spaces: the player may stop after one")),
])
def test_printed_scenarios_fail_when_the_data_changes(tmp_path: Path, file: str, old: str,
                                                      new: str, failing: str) -> None:
    """Each construct and correction is what makes its scenario pass."""
    variant(tmp_path, file, old, new)
    scenarios = tmp_path / "dice-printed.yaml"
    scenarios.write_text(PRINTED.read_text(encoding="utf-8").replace(
        "game: dice\n", "game: variant\n", 1), encoding="utf-8")
    result = check_file(scenarios)
    assert result.report.ok, result.report.sorted()
    failed = [o.name for o in result.outcomes if not o.passed]
    assert failed == failing.split("|"), failed


def test_the_shipped_scenarios_pass() -> None:
    result = check_file(SCENARIOS)
    assert result.report.ok
    assert all(o.passed for o in result.outcomes), [
        (o.name, [f.message for f in o.failures]) for o in result.outcomes if not o.passed]
    assert len(result.outcomes) >= 22


# --- rules over random games ---------------------------------------------------------------

def test_rules_hold_over_random_games(data) -> None:  # type: ignore[no-untyped-def]
    ends = 0
    for seed in range(60):
        players = 2 + seed % 6
        game = new_game(data, players, seed)
        assert isinstance(game, FlowGame)
        rng = random.Random(seed)
        while not game.over:
            game.play({s: rng.choice(game.legal_actions(s)) for s in game.to_move()})
            assert all(0 <= c.coins <= data.dice.reserve for c in game.cities)
            for city in game.cities:   # a special die only for those who unlocked it
                for action in game.legal_actions(city.seat):
                    die = getattr(action, "die", "")
                    special = {d.name: d for d in data.dice.dice if not d.start}
                    if die in special:
                        assert special[die].colour in city.unlocked
        trigger = end_trigger.state(game)
        if trigger.triggered >= 0:
            ends += 1
            # the turn the third bonus was taken, then one more turn
            assert game.turn == trigger.triggered + 1
            assert any(sum(c.bonuses) >= 3 for c in game.cities)
        else:
            assert game.turn == data.dice.max_turns
    assert ends > 0


def test_greedy_beats_random(data) -> None:  # type: ignore[no-untyped-def]
    wins = 0
    for seed in range(16):
        game = new_game(data, 3, seed)
        bots = [make_bot("greedy", seed), make_bot("random", seed + 1),
                make_bot("random", seed + 2)]
        while not game.over:
            game.play({s: bots[s].choose(game, s) for s in game.to_move()})
        wins += 0 in game.score_sheet().winners
    assert wins >= 10, wins   # a fair share would be about 5


def test_the_search_bot_plays_dice(data) -> None:  # type: ignore[no-untyped-def]
    from wonders.bots.mcts import MCTSBot

    game = new_game(data, 3, 5)
    bots = [MCTSBot(1, playouts=6, candidates=3), make_bot("random", 2), make_bot("greedy", 3)]
    while not game.over:
        game.play({s: bots[s].choose(game, s) for s in game.to_move()})
    assert game.score_sheet().winners


def test_wonders_cards_lists_the_sheets_boards_and_dice() -> None:
    import json

    result = runner.invoke(app, ["cards", "--game", "dice", "--json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert [b["key"] for b in record["buildings"]][:2] == ["warehouse", "agora"]
    assert len(record["boards"]) == 7 and len(record["dice"]) == 10
    assert record["reserve"] == 20 and record["quadrants"] == [0, 1, 2, 3]
    table = runner.invoke(app, ["cards", "--game", "dice"])
    assert table.exit_code == 0 and "Confidence" in table.output and "forum" in table.output


def test_wonder_is_not_a_building_key(tmp_path: Path) -> None:
    """``compare: wonder`` counts the Wonder stages, so no building may be keyed so."""
    folder = variant(tmp_path, "sheets.yaml", "key: guild_court", "key: wonder")
    found = [d for d in load([folder]).report.sorted() if d.code == "D615"]
    assert any("'wonder' is not a building key" in d.message and d.location.line > 0
               for d in found), found


def test_the_server_describes_every_sheet_through_a_whole_game(data) -> None:  # type: ignore[no-untyped-def]
    """A sheet is a city for the effect runtime, but keeps no sources: the server's
    production line of each seat holds once Wonder stages are built (it read a board's
    stages a sheet has not)."""
    from wonders.serve import present
    game = new_game(data, 3, 4)
    rng = random.Random(4)
    stages = 0
    while not game.over:
        for seat in range(3):
            assert present.production(game, seat) == []
        stages = max(stages, max(city.stages for city in game.cities))
        game.play({s: rng.choice(game.legal_actions(s)) for s in game.to_move()})
    assert stages > 0
