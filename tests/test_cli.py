"""The ``wonders`` command line: exit codes, output formats, and every data command.

Most tests run the Typer app in-process with CliRunner; a few run the installed
console script, to check the entry point and that nothing prints a traceback.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pydot
import pytest
import yaml
from conftest import Workspace, card, card_file
from typer.testing import CliRunner

from wonders import cli
from wonders.cli import app
from wonders.dsl.loader import expansions_dir, games_dir, shipped_games, yaml_files

# pydot's DOT parser uses deprecated pyparsing names; that is not ours to fix
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

runner = CliRunner()
BASE = shipped_games()["base"]


def run(*args: str | Path):  # type: ignore[no-untyped-def]
    return runner.invoke(app, [str(a) for a in args])


def bad_file(ws: Workspace) -> Path:
    ws.rules()
    return ws.write("cards.yaml", card_file(card("Baths", cost="1 wod",
                                                 extra="makes_free: [Aquaduct]\n"),
                                            card("Aqueduct", age=2)))


# --- validate ----------------------------------------------------------------------------------

def test_validate_shipped_game() -> None:
    result = run("validate", "--game", "base")
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "6 files checked: 0 errors, 0 warnings — valid"


def test_validate_shipped_folder_by_path() -> None:
    result = run("validate", BASE)
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith("0 errors, 0 warnings — valid\n")


def test_validate_invalid_exits_1_with_located_messages(ws: Workspace) -> None:
    path = bad_file(ws)
    result = run("validate", ws.root)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines == [
        f"{path}:9:13: N301 unknown resource 'wod'; the rule set declares: wood, stone, ore, "
        "clay, glass, papyrus, loom (did you mean 'wood'?)",
        "        cost: 1 wod",
        "                ^^^",
        f"{path}:10:18: C501 'Baths' chains to 'Aquaduct', which is not a loaded card (did you "
        "mean 'Aqueduct'?)",
        "        makes_free: [Aquaduct]",
        "                     ^^^^^^^^",
        "2 files checked: 2 errors, 0 warnings — invalid",
    ]


def test_caret_sits_under_the_offending_text(ws: Workspace) -> None:
    ws.rules()
    ws.write("cards.yaml", card_file(card(effect="'end: points 1 per blue card in lefft'")))
    result = run("validate", "-q", ws.root)
    assert result.exit_code == 1
    header, source, caret = result.stdout.splitlines()
    column = int(re.match(r".*:(\d+):(\d+): N304 ", header).group(2))  # type: ignore[union-attr]
    assert column == 45
    assert source == "        effect: 'end: points 1 per blue card in lefft'"
    assert caret == " " * 4 + " " * (column - 1) + "^^^^^"
    assert source[caret.index("^"):caret.index("^") + 5] == "lefft"


def test_caret_in_a_block_scalar_points_into_its_line(ws: Workspace) -> None:
    ws.rules()
    ws.write("cards.yaml", card_file(card(effect=">\n      now: coins 2;\n      end: pionts 1")))
    result = run("validate", "-q", ws.root)
    header, source, caret = result.stdout.splitlines()
    assert ":12:12: E202 unexpected 'pionts'" in header
    assert header.endswith("(did you mean 'points'?)")
    assert source == "          end: pionts 1"
    assert caret == "               ^^^^^^"


def test_validate_quiet_prints_only_diagnostics(ws: Workspace) -> None:
    bad_file(ws)
    result = run("validate", "--quiet", ws.root)
    assert result.exit_code == 1
    assert "checked" not in result.stdout
    assert len(result.stdout.splitlines()) == 6
    assert run("validate", "-q", "--game", "base").stdout == ""


def test_validate_json(ws: Workspace) -> None:
    path = bad_file(ws)
    result = run("validate", "--format", "json", ws.root)
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert set(data) == {"ok", "files", "errors", "warnings", "diagnostics"}
    assert data["ok"] is False and data["errors"] == 2 and data["warnings"] == 0
    assert sorted(Path(f).name for f in data["files"]) == ["cards.yaml", "rules.yaml"]
    assert data["diagnostics"] == [
        {"file": str(path), "line": 9, "column": 13, "code": "N301", "severity": "error",
         "message": "unknown resource 'wod'; the rule set declares: wood, stone, ore, clay, "
                    "glass, papyrus, loom",
         "text": "wod", "suggestion": "wood"},
        {"file": str(path), "line": 10, "column": 18, "code": "C501", "severity": "error",
         "message": "'Baths' chains to 'Aquaduct', which is not a loaded card",
         "text": "Aquaduct", "suggestion": "Aqueduct"},
    ]


def test_validate_json_valid_game() -> None:
    result = run("validate", "-f", "json", "--game", "base")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["ok"] is True and data["errors"] == 0 and data["diagnostics"] == []
    assert sorted(Path(f).name for f in data["files"]) == [
        "age1.yaml", "age2.yaml", "age3.yaml", "guilds.yaml", "rules.yaml", "wonders.yaml"]


def test_validate_warning_only_exits_0(ws: Workspace) -> None:
    rules = ws.rules()
    rules.write_text(rules.read_text().replace("  count: 3\n", "  count: 1\n  hand: 1\n"))
    ws.write("cards.yaml", card_file(card(players="[3+, 3+, 3+, 4+, 5+]")))
    result = run("validate", ws.root)
    assert result.exit_code == 0, result.output
    assert ": D604 warning: 'Well' has a copy marked 5+" in result.stdout
    assert result.stdout.endswith("2 files checked: 0 errors, 1 warning — valid\n")


def test_validate_card_file_brings_in_its_game(ws: Workspace) -> None:
    # a custom card set with `game: base` is checked together with the shipped base game
    text = card_file(card("Folly", age=3, colour="purple", players="", cost="1 wod"),
                     header="kind: cards\nset: custom\ngame: base\ncards:\n")
    path = ws.write("custom.yaml", text)
    result = run("validate", "-q", path)
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == (
        f"{path}:8:13: N301 unknown resource 'wod'; the rule set declares: wood, stone, ore, "
        "clay, glass, papyrus, loom (did you mean 'wood'?)")
    assert "checked" not in result.stdout


@pytest.mark.parametrize("args, message", [
    ((), "give --game NAME or one or more PATHs"),
    (("--game", "bsae"), "no shipped game 'bsae' (did you mean 'base'?)"),
    (("--game", "nothing-like-it"), "no shipped game 'nothing-like-it'; shipped: architects, base"),
    (("does-not-exist.yaml",), "no such file or folder: does-not-exist.yaml"),
    (("--format", "yaml", "--game", "base"), "'yaml' is not one of"),
    (("--no-such-option",), "No such option"),
])
def test_validate_usage_errors_exit_2(args: tuple[str, ...], message: str) -> None:
    result = run("validate", *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    flat = " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.stderr).split())
    assert message in flat, result.stderr


def test_no_command_is_a_usage_error() -> None:
    result = run()
    assert result.exit_code == 2
    assert "validate" in result.output and "Usage" in result.output


@pytest.mark.parametrize("command", ["graph", "cards"])
def test_data_commands_share_the_game_or_paths_choice(command: str, tmp_path: Path) -> None:
    assert run(command).exit_code == 2
    assert run(command, "--game", "bsae").exit_code == 2
    assert run(command, tmp_path / "missing").exit_code == 2


@pytest.mark.parametrize("command", ["graph", "cards"])
def test_data_commands_on_invalid_data_exit_1(command: str, ws: Workspace) -> None:
    path = bad_file(ws)
    result = run(command, ws.root)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert f"{path}:9:13: N301" in result.stderr
    assert "2 files checked: 2 errors, 0 warnings — invalid" in result.stderr


# --- schema -------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["cards", "wonders", "rules"])
def test_schema_prints_draft7_json(kind: str) -> None:
    result = run("schema", kind)
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    jsonschema.Draft7Validator.check_schema(schema)
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert schema["properties"]["kind"]["enum"] == [kind]
    assert schema["description"]
    shipped = Path(cli.__file__).parents[1] / "dsl" / "schemas" / f"{kind}.schema.json"
    if shipped.is_file():  # running from the repository
        assert schema == json.loads(shipped.read_text(encoding="utf-8"))


def test_schema_describes_card_keys_for_editors() -> None:
    schema = json.loads(run("schema", "cards").stdout)
    card_schema = schema["definitions"]["card"]
    for key, spec in card_schema["properties"].items():
        assert spec.get("description"), key
    assert "purple" in card_schema["properties"]["colour"]["anyOf"][0]["enum"]


def test_schema_unknown_kind_is_a_usage_error() -> None:
    result = run("schema", "card")
    assert result.exit_code == 2
    assert run("schema").exit_code == 2


def test_schemas_validate_the_shipped_files() -> None:
    for path in _shipped_yaml():
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        schema = json.loads(run("schema", data["kind"]).stdout)
        jsonschema.Draft7Validator(schema).validate(data)


def _shipped_yaml() -> list[Path]:
    """The repository's data files (what an editor opens; their schema lines point into
    src/wonders/, which an installed copy does not have beside its data)."""
    repository = Path(__file__).resolve().parents[1]
    files = []
    for root in (games_dir(), expansions_dir()):
        if root is not None:
            files.extend(repository / path.relative_to(root.parent) for path in yaml_files(root))
    assert files and all(path.is_file() for path in files)
    return files


def test_every_shipped_yaml_references_its_schema() -> None:
    for path in _shipped_yaml():
        text = path.read_text(encoding="utf-8")
        first = text.splitlines()[0]
        match = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
        assert match, f"{path}: first line is {first!r}"
        kind = yaml.safe_load(text)["kind"]
        reference = match.group(1)
        assert reference.endswith(f"/{kind}.schema.json"), (path, reference)
        target = (path.parent / reference).resolve()
        assert target.is_file(), (path, target)
        assert json.loads(target.read_text(encoding="utf-8")) == json.loads(
            run("schema", kind).stdout)


# --- graph --------------------------------------------------------------------------------------

def test_graph_text() -> None:
    result = run("graph", "--game", "base")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert "Altar (1) → Temple (2) → Pantheon (3)" in lines
    assert "Baths (1) → Aqueduct (2)" in lines
    assert "Marketplace (1) → Caravansery (2) → Lighthouse (3)" in lines
    assert len(lines) == 19


def test_graph_dot_parses() -> None:
    result = run("graph", "--game", "base", "--format", "dot")
    assert result.exit_code == 0
    graphs = pydot.graph_from_dot_data(result.stdout)
    assert graphs is not None and len(graphs) == 1
    (graph,) = graphs
    assert graph.get_type() == "digraph"
    edges = {(e.get_source().strip('"'), e.get_destination().strip('"'))
             for e in graph.get_edges()}
    assert ("Baths", "Aqueduct") in edges and ("Altar", "Temple") in edges
    assert ("Temple", "Pantheon") in edges and len(edges) == 26


def test_graph_to_a_file(tmp_path: Path) -> None:
    target = tmp_path / "chains.dot"
    result = run("graph", "--game", "base", "-f", "dot", "-o", target)
    assert result.exit_code == 0
    assert result.stdout == f"wrote {target}\n"
    assert target.read_text(encoding="utf-8") == run("graph", "--game", "base", "-f", "dot").stdout


def test_graph_png(tmp_path: Path) -> None:
    assert run("graph", "--game", "base", "-f", "png").exit_code == 2  # needs --output
    target = tmp_path / "chains.png"
    result = run("graph", "--game", "base", "-f", "png", "-o", target)
    if shutil.which("dot") is None:
        assert result.exit_code == 1
        assert "needs Graphviz" in result.stderr
        assert not target.exists()
    else:
        assert result.exit_code == 0
        assert target.read_bytes().startswith(b"\x89PNG")


# --- cards --------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def base_cards() -> list[dict]:  # type: ignore[type-arg]
    result = runner.invoke(app, ["cards", "--game", "base", "--json"])
    assert result.exit_code == 0
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_cards_json_lists_the_78_cards(base_cards: list[dict]) -> None:  # type: ignore[type-arg]
    assert len(base_cards) == 78
    assert len({(c["name"], c["age"]) for c in base_cards}) == 78
    assert sum(1 for c in base_cards if c["drawn"]) == 10
    keys = {"name", "set", "age", "colour", "copies", "drawn", "removed", "cost", "cost_text",
            "free_if_built", "makes_free", "effect", "description"}
    assert all(set(c) == keys for c in base_cards)
    for age in (1, 2, 3):  # 7 cards a player at 7 players, guilds aside
        copies = sum(c["copies"]["7"] for c in base_cards if c["age"] == age and not c["drawn"])
        assert copies == (49 if age < 3 else 49 - 9)


def test_cards_json_one_card_fully(base_cards: list[dict]) -> None:  # type: ignore[type-arg]
    (caravansery,) = [c for c in base_cards if c["name"] == "Caravansery"]
    assert caravansery == {
        "name": "Caravansery", "set": "base", "age": 2, "colour": "yellow",
        "copies": {"3": 1, "4": 1, "5": 2, "6": 3, "7": 3}, "drawn": False, "removed": False,
        "cost": {"coins": 0, "resources": {"wood": 2}}, "cost_text": "2 wood",
        "free_if_built": ["Marketplace"], "makes_free": ["Lighthouse"],
        "effect": "produce any raw unbuyable",
        "description": caravansery["description"],
    }
    assert "wood" in caravansery["description"] and "clay" in caravansery["description"]


def test_cards_json_a_guild_and_a_coin_cost(base_cards: list[dict]) -> None:  # type: ignore[type-arg]
    guilds = [c for c in base_cards if c["drawn"]]
    assert all(c["copies"] is None and c["colour"] == "purple" and c["age"] == 3 for c in guilds)
    (clay_pit,) = [c for c in base_cards if c["name"] == "Clay Pit"]
    assert clay_pit["cost"] == {"coins": 1, "resources": {}}
    assert clay_pit["copies"] == {"3": 1, "4": 1, "5": 1, "6": 1, "7": 1}


def test_cards_filters() -> None:
    result = run("cards", "--game", "base", "--json", "--age", "2", "--colour", "yellow")
    names = sorted(c["name"] for c in json.loads(result.stdout))
    assert names == ["Bazar", "Caravansery", "Forum", "Vineyard"]
    result = run("cards", "--game", "base", "--json", "--search", "aqueduct")
    assert [c["name"] for c in json.loads(result.stdout)] == ["Aqueduct"]


def test_cards_table() -> None:
    result = runner.invoke(app, ["cards", "--game", "base", "--age", "2", "--colour", "yellow"],
                           env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "4 cards" in result.stdout
    assert "Caravansery" in result.stdout and "← Marketplace" in result.stdout


def test_cards_of_a_custom_file(ws: Workspace) -> None:
    ws.rules()
    ws.write("cards.yaml", card_file(card("Well", cost="2 coins", effect="points 2")))
    result = run("cards", "--json", ws.root)
    assert result.exit_code == 0
    (record,) = json.loads(result.stdout)
    assert record["copies"] == {"3": 1, "4": 1} and record["cost_text"] == "2 coins"
    assert record["set"] == "mini" and record["effect"] == "points 2"


# --- games --------------------------------------------------------------------------------------

def test_games_lists_shipped_games() -> None:
    result = run("games")
    assert result.exit_code == 0
    rows = [line.split() for line in result.stdout.splitlines()]
    assert ["game", "base", str(BASE)] in rows
    assert all(row[0] in ("game", "expansion") for row in rows)
    # the paths start in one column, however long a name (leaders-cities is 14 letters)
    starts = {line.index(row[2]) for line, row in zip(result.stdout.splitlines(), rows)}
    assert len(starts) == 1


# --- effects --------------------------------------------------------------------------------------

def test_effects_prints_the_generated_tables() -> None:
    from wonders.dsl.effects_table import effects_table

    result = run("effects")
    assert result.exit_code == 0
    assert result.stdout == effects_table()
    header = next(line for line in result.stdout.splitlines() if line.startswith("| effect"))
    # one column per loop, then one per shipped game (with its loop)
    assert header.startswith("| effect | timing | `draft` loop | `structure` loop | `dice` loop |")
    for column in ("base (`draft`)", "dice (`dice`)", "duel (`structure`)"):
        assert f"| {column} |" in header


def test_effects_of_one_game_shows_its_loop_and_itself(tmp_path: Path) -> None:
    result = run("effects", "--game", "duel")
    assert result.exit_code == 0
    rows = result.stdout.splitlines()
    assert "| effect | timing | `structure` loop | duel (`structure`) |" in rows
    assert "| `replay` | `now:` | runs | runs |" in rows
    assert "| `ability` | ongoing | runs: `build_from_discard`, `opponent_chains`, " \
           "`trade_income`; others M902 | runs: `build_from_discard`, `trade_income` |" in rows
    assert "free_build" not in result.stdout  # neither the loop nor Duel has it
    # a rule set given by path: its own name and vocabulary
    variant = tmp_path / "variant"
    shutil.copytree(BASE, variant)
    rules = variant / "rules.yaml"
    text = rules.read_text(encoding="utf-8").replace("\nname: base\n", "\nname: variant\n")
    rules.write_text(text, encoding="utf-8")
    for path in variant.glob("*.yaml"):
        if path != rules:
            path.write_text(path.read_text(encoding="utf-8").replace("\ngame: base\n",
                                                                     "\ngame: variant\n"),
                            encoding="utf-8")
    result = run("effects", "--game", rules)
    assert result.exit_code == 0, result.output
    assert "| effect | timing | `draft` loop | variant (`draft`) |" in result.stdout.splitlines()


def test_effects_of_an_unknown_game_is_a_usage_error() -> None:
    result = run("effects", "--game", "bse")
    assert result.exit_code == 2
    assert "did you mean 'base'" in result.output


# --- the console script and the last line of defence ------------------------------------------

def _wonders(*args: str | Path) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("wonders")
    command = [exe] if exe else [sys.executable, "-m", "wonders.cli"]
    return subprocess.run(command + [str(a) for a in args], capture_output=True, text=True,
                          timeout=60)


def test_console_script_validate_exit_codes(ws: Workspace) -> None:
    assert _wonders("validate", "--game", "base").returncode == 0
    bad = bad_file(ws)
    invalid = _wonders("validate", bad.parent)
    assert invalid.returncode == 1 and "Traceback" not in invalid.stderr
    assert f"{bad}:9:13: N301" in invalid.stdout


def test_console_script_on_hostile_input(ws: Workspace) -> None:
    path = ws.write("bomb.yaml", b"\xff\xfe\x00garbage")
    result = _wonders("validate", path)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr + result.stdout
    assert f"{path}:1:1: Y001" in result.stdout


def test_internal_error_is_one_line_and_exit_3(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from wonders.cli import data_commands

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(data_commands, "load", broken)
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["validate", "--game", "base"])
    assert exit_info.value.code == 3
    err = capsys.readouterr().err
    assert err.startswith("wonders: internal error: RuntimeError: boom\n")
    assert "Traceback" not in err
    with pytest.raises(RuntimeError):
        cli.main(["validate", "--game", "base", "--debug"])


def test_cards_hides_removed_cards_unless_asked() -> None:
    """The tutorial expansion removes Tavern; listings follow the deck, --removed shows all."""
    runner = CliRunner()
    tutorial = str(Path(__file__).resolve().parent.parent / "expansions" / "tutorial")
    listed = json.loads(runner.invoke(app, ["cards", tutorial, "--json"]).stdout)
    names = {c["name"] for c in listed}
    assert "Tavern" not in names and "Toll Gate" in names
    every = json.loads(runner.invoke(app, ["cards", tutorial, "--json",
                                           "--removed"]).stdout)
    assert {c["name"]: c["removed"] for c in every}["Tavern"] is True
    only = json.loads(runner.invoke(app, ["cards", tutorial, "--json", "--set",
                                          "tutorial"]).stdout)
    assert {c["set"] for c in only} == {"tutorial"} and len(only) == 5
