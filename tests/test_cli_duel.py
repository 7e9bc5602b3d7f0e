"""Every command on 7 Wonders Duel, as on the base game: ``--game`` by name or path,
the rule set's player count, victory types, logs and replays, simulate, cards."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from wonders.bots import make_bot
from wonders.cli import app
from wonders.dsl.loader import games_dir, load_game, shipped_games
from wonders.dsl.model import Game as GameData
from wonders.engine.actions import Action, BuildWonder
from wonders.engine.flow import FlowGame
from wonders.engine.mechanisms import structure as structure_part
from wonders.engine.mechanisms import wonder_draft as draft_part
from wonders.engine.registry import new_game
from wonders.scenarios.log import lines, replay, write
from wonders.simulate import Run, play_game, run_games

pytestmark = pytest.mark.skipif("duel" not in shipped_games(), reason="cards/duel not shipped")

runner = CliRunner()


def run(*args: object) -> Any:
    return runner.invoke(app, [str(a) for a in args])


def flat(text: str) -> str:
    """A rich usage-error box as one line of words."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


@pytest.fixture(scope="module")
def duel() -> GameData:
    return load_game([], "duel")


def duel_dir() -> Path:
    root = games_dir()
    assert root is not None
    return root / "duel"


# --- --game: a name or a path -------------------------------------------------------------------

@pytest.mark.parametrize("command", ["validate", "cards", "graph"])
def test_data_commands_take_duel_by_name_folder_and_rules_file(command: str) -> None:
    for game in ("duel", str(duel_dir()), str(duel_dir() / "rules.yaml"),
                 str(duel_dir()) + "/"):
        result = run(command, "--game", game)
        assert result.exit_code == 0, (game, result.output)
    assert "7 files checked: 0 errors" in run("validate", "--game",
                                              duel_dir() / "rules.yaml").output


def test_a_rules_file_brings_the_files_beside_it_but_not_other_rule_sets(tmp_path: Path) -> None:
    target = tmp_path / "variant"
    shutil.copytree(duel_dir(), target)
    rules = (target / "rules.yaml").read_text(encoding="utf-8")
    (target / "other-rules.yaml").write_text(rules.replace("name: duel", "name: other"),
                                             encoding="utf-8")
    result = run("validate", "--game", target / "rules.yaml")
    assert result.exit_code == 0, result.output
    assert "7 files checked" in result.output
    # the folder holds two rule sets: loading it whole is an error (L703)
    result = run("validate", "--game", target)
    assert result.exit_code == 1
    assert "L703" in result.output


@pytest.mark.parametrize("command", [("validate",), ("cards",), ("graph",), ("play",),
                                     ("simulate", "--games", "1")])
def test_a_bad_game_is_a_usage_error_with_did_you_mean(command: tuple[str, ...]) -> None:
    result = run(*command, "--game", "dul")
    assert result.exit_code == 2
    message = flat(result.stderr)
    assert "no shipped game 'dul' (did you mean 'duel'?)" in message
    assert f"shipped: {', '.join(shipped_games())}" in message
    result = run(*command, "--game", "no/such/rules.yaml")
    assert result.exit_code == 2
    assert "no such file or folder: no/such/rules.yaml" in flat(result.stderr)


# --- play ----------------------------------------------------------------------------------------

def test_play_duel_without_players() -> None:
    result = run("play", "--game", "duel", "--seed", "3")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "7 Wonders Duel" in out and "2 players" in out
    assert "seat 0" in out and "seat 1" in out
    assert "progress" in out and "treasury" in out
    assert re.search(r"winners?: seat \d.* — victory: (military|science|civilian)", out), out


def test_play_json_has_victory_and_each_city(duel: GameData) -> None:
    result = run("play", "--game", "duel", "--seed", "5", "--bots", "greedy,random", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["player_count"] == 2 and data["game"] == "duel"
    assert data["victory"] in ("military", "science", "civilian")
    game = new_game(duel, 2, 5)
    bots = [make_bot("greedy", 5000), make_bot("random", 5001)]
    while not game.over:
        (seat,) = game.to_move()
        game.play({seat: bots[seat].choose(game, seat)})
    sheet = game.score_sheet()
    assert data["victory"] == sheet.victory and data["winners"] == sheet.winners
    for row, city in zip(data["players"], game.cities):
        assert set(row) >= {"wonders", "unbuilt_wonders", "tokens", "lines", "total"}
        assert row["total"] == sheet.total(city.seat)


def test_play_by_rule_set_path(tmp_path: Path) -> None:
    by_name = run("play", "--game", "duel", "--seed", "2", "--json")
    by_path = run("play", "--game", duel_dir() / "rules.yaml", "--seed", "2", "--json")
    assert by_path.exit_code == 0, by_path.output
    first, second = json.loads(by_name.stdout), json.loads(by_path.stdout)
    first.pop("game")
    second.pop("game")
    assert first == second


@pytest.mark.parametrize("args, message", [
    (("--players", "3"), "7 Wonders Duel is for 2 players, not 3"),
    (("--players", "1"), "7 Wonders Duel is for 2 players, not 1"),
    (("--side", "B"), "7 Wonders Duel's wonders have no sides"),
    (("--bots", "greedy,random,random"), "3 bots for 2 players"),
])
def test_play_usage_errors(args: tuple[str, ...], message: str) -> None:
    result = run("play", "--game", "duel", *args)
    assert result.exit_code == 2
    assert message in flat(result.stderr)


def test_base_game_keeps_its_default_and_range() -> None:
    result = run("play", "--seed", "1", "--json")
    assert json.loads(result.stdout)["player_count"] == 3
    result = run("play", "--players", "9")
    assert result.exit_code == 2
    assert "7 Wonders (1st edition) is for 3 to 7 players, not 9" in flat(result.stderr)


# --- logs and replay ------------------------------------------------------------------------------

def _wonders_first(seed: int) -> Any:
    greedy = make_bot("greedy", seed)

    def choose(game: FlowGame, seat: int) -> Action:
        wonders = [a for a in game.legal_actions(seat) if isinstance(a, BuildWonder)]
        return wonders[0] if wonders else greedy.choose(game, seat)
    return choose


def _played(duel: GameData, seed: int, policy: str = "random") -> FlowGame:
    game = new_game(duel, 2, seed)
    assert isinstance(game, FlowGame)
    rng = random.Random(seed)
    first = _wonders_first(seed)
    while not game.over:
        (seat,) = game.to_move()
        if policy == "wonders":
            action = first(game, seat)
        else:
            action = rng.choice(game.legal_actions(seat))
        game.play({seat: action})
    return game


def test_duel_logs_replay_identically_through_every_phase(duel: GameData, tmp_path: Path) -> None:
    phases: set[str] = set()
    for seed in range(40):
        game = _played(duel, seed, "wonders" if seed % 2 else "random")
        path = tmp_path / f"duel-{seed}.jsonl"
        write(game, path, "duel")
        result = replay(path)
        assert result.identical, (seed, result.divergence)
        assert result.decisions == len(game.history)
        assert result.game is not None
        assert result.game.score_sheet().to_json() == game.score_sheet().to_json()
        phases |= {entry["phase"] for entry in game.history}
        if phases >= {"wonder_draft", "turn", "token", "destroy", "discard_build", "starter"}:
            break
    assert phases >= {"wonder_draft", "turn", "token", "destroy", "discard_build", "starter"}, \
        phases


def test_duel_log_header(duel: GameData) -> None:
    game = _played(duel, 4)
    head = lines(game, "duel")[0]
    assert head["rule_set"] == "duel" and head["players"] == 2 and head["seed"] == 4
    # a city without a board: the seats hold no wonder before the draft
    assert head["seats"] == [{"seat": 0, "wonders": []}, {"seat": 1, "wonders": []}]
    fresh = new_game(duel, 2, 4)
    assert isinstance(fresh, FlowGame)
    assert head["wonder_pools"] == [[w.name for w in pool] for pool in draft_part.state(fresh).pools]
    assert head["board_tokens"] == {"board": [t.name for t in fresh.table.pools["board"]]}
    assert len(head["board_tokens"]["board"]) == 5
    records = lines(game, "duel")
    assert records[-1]["type"] == "result"
    assert records[-1]["score_sheet"]["victory"] == game.score_sheet().victory


def test_a_tampered_duel_log_reports_the_divergence(duel: GameData, tmp_path: Path) -> None:
    game = _played(duel, 6)
    records = lines(game, "duel")
    path = tmp_path / "duel.jsonl"
    # a wonder pick that was not offered
    tampered = json.loads(json.dumps(records))
    pick = tampered[1]["actions"]
    (seat, action), = pick.items()
    action["wonder"] = "No Such Wonder"
    path.write_text("\n".join(json.dumps(r) for r in tampered) + "\n", encoding="utf-8")
    result = replay(path)
    assert not result.identical
    assert result.line == 2 and result.decisions == 0
    assert f"seat {seat}'s logged action choose_wonder" in (result.divergence or "")
    assert "is not legal now" in (result.divergence or "")
    # a different coin checkpoint in the middle of the game
    tampered = json.loads(json.dumps(records))
    middle = len(tampered) // 2
    tampered[middle]["coins"] = [c + 1 for c in tampered[middle]["coins"]]
    path.write_text("\n".join(json.dumps(r) for r in tampered) + "\n", encoding="utf-8")
    result = replay(path)
    assert not result.identical and result.line == middle + 1
    assert "the coins are" in (result.divergence or "")
    # a different setup: the wonder pools of another seed
    tampered = json.loads(json.dumps(records))
    tampered[0]["seed"] = 7
    path.write_text("\n".join(json.dumps(r) for r in tampered) + "\n", encoding="utf-8")
    result = replay(path)
    assert not result.identical
    assert "the setup differs" in (result.divergence or "")


def test_cli_duel_log_and_replay(tmp_path: Path) -> None:
    log = tmp_path / "duel.jsonl"
    result = run("play", "--game", "duel", "--seed", "9", "--bots", "greedy", "--log", log)
    assert result.exit_code == 0, result.output
    result = run("replay", log)
    assert result.exit_code == 0, result.output
    assert "identical" in result.output
    text = log.read_text(encoding="utf-8")
    log.write_text(text.replace('"action":"sell"', '"action":"build"', 1), encoding="utf-8")
    result = run("replay", log)
    if '"action":"sell"' in text:
        assert result.exit_code == 1
        assert "diverged" in result.output and "is not legal now" in result.output


def test_a_log_of_a_rule_set_path_replays_from_elsewhere(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "my-duel"
    shutil.copytree(duel_dir(), target)
    log = tmp_path / "game.jsonl"
    monkeypatch.chdir(tmp_path)
    result = run("play", "--game", "my-duel/rules.yaml", "--seed", "1", "--log", log)
    assert result.exit_code == 0, result.output
    head = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert head["game"] == str((target / "rules.yaml").resolve())
    monkeypatch.chdir(Path(__file__).parent)
    result = run("replay", log)
    assert result.exit_code == 0 and "identical" in result.output, result.output
    # the data changed since: the replay says so
    age1 = target / "age1.yaml"
    age1.write_text(age1.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    result = run("replay", log)
    assert "the card data changed since the game was logged" in result.output


# --- simulate --------------------------------------------------------------------------------------

def test_simulate_duel_reports_victory_types() -> None:
    result = run("simulate", "--game", "duel", "--games", "6", "--workers", "1", "--json",
                 "--bots", "greedy,random")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["run"]["players"] == 2
    stats = data["stats"]
    victories = {row["victory"]: row for row in stats["victories"]}
    assert set(victories) >= {"military", "science", "civilian"}
    assert sum(row["games"] for row in victories.values()) == 6
    assert sum(row["share"] for row in victories.values()) == pytest.approx(1)
    assert {w["side"] for w in stats["wonder_sides"]} <= {"built", "not built"}
    assert sum(w["played"] for w in stats["wonders"]) == 6 * 8  # four drafted wonders a seat
    text = run("simulate", "--game", "duel", "--games", "4", "--workers", "1")
    assert text.exit_code == 0, text.output
    assert re.search(r"victories: military \d+ \([\d.]+%\), science \d+ \([\d.]+%\), "
                     r"civilian \d+ \([\d.]+%\)", text.output)
    assert "Drafted wonders, built or not" in text.output


def test_simulate_duel_records(duel: GameData) -> None:
    record = play_game(duel, 2, 11, ["greedy", "random"])
    game = new_game(duel, 2, 11)
    assert isinstance(game, FlowGame)
    bots = [make_bot("greedy", 11000), make_bot("random", 11001)]
    laid_out: set[str] = set()
    while not game.over:
        if structure_part.state(game).structure is not None:
            laid_out |= {c.name for c in structure_part.state(game).structure.cards}
        (seat,) = game.to_move()
        game.play({seat: bots[seat].choose(game, seat)})
    sheet = game.score_sheet()
    assert record["victory"] == sheet.victory
    assert record["totals"] == sheet.totals and record["winners"] == sheet.winners
    assert record["decisions"] == len(game.history)
    assert set(record["dealt"]) == laid_out
    assert len(record["dealt"]) <= 60
    removed = {c.name for c in structure_part.state(game).removed}
    assert not removed & set(record["dealt"])  # cards removed unseen from age III
    for seat, wonders in enumerate(record["wonders"]):
        assert len(wonders) == 4
        built = {w.name for w in game.cities[seat].built_wonders}
        assert {name for name, state in wonders if state == "built"} == built


def test_simulate_duel_does_not_depend_on_workers() -> None:
    one = run_games(Run(game="duel", players=2, games=4, seed=2, workers=1))
    two = run_games(Run(game="duel", players=2, games=4, seed=2, workers=2))
    assert one.stats == two.stats


def test_simulate_usage_errors() -> None:
    result = run("simulate", "--game", "duel", "--players", "4", "--games", "1")
    assert result.exit_code == 2
    assert "7 Wonders Duel is for 2 players, not 4" in flat(result.stderr)
    result = run("simulate", "--game", "duel", "--side", "A", "--games", "1")
    assert result.exit_code == 2
    assert "7 Wonders Duel's wonders have no sides" in flat(result.stderr)


# --- cards ------------------------------------------------------------------------------------------

def test_cards_lists_duel_cards_tokens_and_wonders(duel: GameData) -> None:
    result = run("cards", "--game", "duel", "--json")
    assert result.exit_code == 0, result.output
    cards = json.loads(result.stdout)
    assert len(cards) == len(duel.cards)
    assert all(c["copies"] in ({"2": 1}, None) for c in cards)
    tokens = json.loads(run("cards", "--game", "duel", "--tokens", "--json").stdout)
    assert [t["name"] for t in tokens] == [t.name for t in duel.tokens]
    assert set(tokens[0]) == {"name", "kind", "set", "effect", "description"}
    wonders = json.loads(run("cards", "--game", "duel", "--wonders", "--json").stdout)
    assert [w["name"] for w in wonders] == [w.name for w in duel.wonders]
    assert all(len(w["sides"]) == 1 and len(w["sides"][0]["stages"]) == 1 for w in wonders)
    table = run("cards", "--game", "duel", "--tokens")
    assert table.exit_code == 0
    assert f"7 Wonders Duel: {len(duel.tokens)} tokens" in table.output
    listing = run("cards", "--game", "duel")
    assert f"also {len(duel.tokens)} tokens: --tokens" in listing.output
    token = duel.tokens[0]
    found = json.loads(run("cards", "--game", "duel", "--tokens", "--json", "--search",
                           token.name[:5]).stdout)
    assert token.name in [t["name"] for t in found]
    assert run("cards", "--game", "duel", "--tokens", "--wonders").exit_code == 2


def test_schema_tokens() -> None:
    result = run("schema", "tokens")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["$schema"].startswith("http://json-schema.org/draft-07")


def test_validate_a_folder_of_several_games_checks_each_game() -> None:
    """cards/ holds base and duel: each rule set is checked with its own cards, and an
    expansion joins the game its cards name."""
    cards = games_dir()
    expansions = Path(__file__).resolve().parents[1] / "expansions"
    assert cards is not None
    result = run("validate", cards, expansions)
    assert result.exit_code == 0, result.output
    # each game's files, the files a variant extends counted with it (base2e: base's)
    assert re.search(r"\d+ files checked: 0 errors", result.output), result.output


def test_validate_several_games_still_reports_each_games_errors(tmp_path: Path) -> None:
    cards = games_dir()
    assert cards is not None
    copy = tmp_path / "cards"
    shutil.copytree(cards, copy)
    age1 = copy / "duel" / "age1.yaml"
    age1.write_text(age1.read_text(encoding="utf-8").replace("cost: 1 wood", "cost: 1 woood", 1),
                    encoding="utf-8")
    result = run("validate", "-q", copy)
    assert result.exit_code == 1
    assert "N301" in result.output and "woood" in result.output
    assert "L703" not in result.output and "D605" not in result.output
