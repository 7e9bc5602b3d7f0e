"""7 Wonders Duel: Pantheon (``expansions/pantheon``, issue 30): the rule set validates,
plays to the end at the table and with bots, and the priced row's refusals say where.

The rules themselves are the scenarios (``tests/scenarios/pantheon-*.yaml``, run by
``wonders check``); the tests here show what scenarios cannot: a whole game's Age III
deck, and ``wonders validate`` refusing what no mechanism runs.
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from wonders.cli import app
from wonders.dsl.loader import load
from wonders.engine.flow import FlowGame
from wonders.engine.mechanisms import priced_row, structure
from wonders.engine.sources import resolve
from wonders.scenarios.draft import check_file

ROOT = Path(__file__).resolve().parents[1]
PANTHEON = ROOT / "expansions" / "pantheon"
SCENARIOS = sorted((ROOT / "tests" / "scenarios").glob("pantheon-*.yaml"))
runner = CliRunner()


def test_listed_and_valid() -> None:
    out = runner.invoke(app, ["games"])
    assert "pantheon" in out.output
    out = runner.invoke(app, ["validate", "--game", "pantheon"])
    assert out.exit_code == 0, out.output


def test_the_scenarios_pass() -> None:
    assert SCENARIOS
    for path in SCENARIOS:
        result = check_file(path)
        assert result.report.ok, [d.render() for d in result.report.sorted()]
        assert result.outcomes
        assert [o.name for o in result.outcomes if not o.passed] == [], path


def _game(seed: int) -> FlowGame:
    data = resolve("pantheon").load().game
    assert data is not None
    return FlowGame(data, 2, seed)


def test_age_three_deals_three_temples_and_no_guild() -> None:
    game = _game(3)
    while game.age < 3 and not game.over:
        seat = game.to_move()[0]
        game.play({seat: game.legal_actions(seat)[0]})
    laid = structure.state(game).structure
    assert laid is not None and game.age == 3
    colours = [c.colour for c in laid.cards]
    assert colours.count("temple") == 3 and "purple" not in colours


def test_five_mythology_tokens_on_age_one_face_down_cards() -> None:
    game = _game(5)
    while structure.state(game).structure is None:   # (the wonder draft first)
        seat = game.to_move()[0]
        game.play({seat: game.legal_actions(seat)[0]})
    row = priced_row.state(game)
    laid = structure.state(game).structure
    assert laid is not None and len(row.on_slots) == 5
    assert all(not laid.face_up[slot] for slot in row.on_slots)
    assert {t.kind for t in row.on_slots.values()} == {"mythology"}


def _variant(tmp_path: Path, rules: str, tokens: str = "") -> str:
    (tmp_path / "rules.yaml").write_text(rules)
    if tokens:
        (tmp_path / "tokens.yaml").write_text(tokens)
    result = load([tmp_path])
    return "\n".join(d.render() for d in result.report.sorted())


def test_a_misspelt_item_in_a_stack_is_located(tmp_path: Path) -> None:
    text = (PANTHEON / "rules.yaml").read_text().replace("mesopotamian: [Enki,",
                                                          "mesopotamian: [Enky,")
    (tmp_path / "rules.yaml").write_text(text.replace("extends: duel", "extends: duel"))
    for name in ("cards.yaml", "tokens.yaml", "wonders.yaml"):
        (tmp_path / name).write_text((PANTHEON / name).read_text())
    shown = "\n".join(d.render() for d in load([tmp_path]).report.sorted())
    assert "M909" in shown and "'Enky'" in shown and "Enki" in shown, shown


def test_activate_without_a_priced_row_is_refused(tmp_path: Path) -> None:
    shown = _variant(tmp_path, "kind: rules\nname: scratch\nextends: duel\n",
                     "kind: tokens\nset: scratch\ngame: scratch\ntokens:\n"
                     "  - {name: Probe, kind: progress, effect: "
                     "\"discount 2 coins on activation\"}\n")
    assert "M901" in shown and "priced row" in shown, shown


def test_an_unknown_place_to_activate_from(tmp_path: Path) -> None:
    shown = _variant(tmp_path, "kind: rules\nname: scratch\nextends: duel\n",
                     "kind: tokens\nset: scratch\ngame: scratch\ntokens:\n"
                     "  - {name: Probe, kind: progress, effect: "
                     "\"activate progress token from top\"}\n")
    assert "N310" in shown and "tops" in shown, shown


def test_plays_with_bots() -> None:
    for bot in ("random", "greedy"):
        out = runner.invoke(app, ["play", "--game", "pantheon", "--players", "2", "--seed", "4",
                                  "--bots", f"{bot},{bot}"])
        assert out.exit_code == 0, out.output
        assert "winner" in out.output


# --- Poliorcetics and Engineering: 'on advance:' and 'build chain cards for N coins' ---

def _probe(tmp_path: Path, game: str, effect: str) -> list[str]:
    """The located errors of one extra token (Duel) or card (base) with ``effect``."""
    if game == "duel":
        text = ("kind: tokens\nset: scratch\ngame: duel\ntokens:\n"
                f"  - {{name: Probe, kind: progress, effect: \"{effect}\"}}\n")
    else:
        text = ("kind: cards\nset: scratch\ngame: base\ncards:\n  - {name: Probe, age: 1, "
                f"colour: red, players: [8], cost: free, effect: \"{effect}\"}}\n")
    (tmp_path / "extra.yaml").write_text(text)
    return [d.render() for d in load([tmp_path / "extra.yaml"], game).report.sorted()
            if d.severity.value == "error"]


def test_advance_and_chain_price_refused_where_nothing_runs_them(tmp_path: Path) -> None:
    """The hand-draft loop has no pawn and no bank prices; in Duel an advance runs the
    coin effects only (a push that pushed again would be a loop of its own)."""
    for game, effect, said in (
            ("base", "on advance: coins 1 per space", "'on advance:' is not announced by "
                                                      "the draft game loop"),
            ("base", "build chain cards for 1 coin", "'build chain' with timing ongoing is "
                                                     "not run by the draft game loop"),
            ("duel", "on advance: shields 1", "'shields' cannot act when the conflict pawn "
                                              "advances in the structure game loop"),
            ("duel", "on advance: replay", "(it runs coins, gains, gives, loses then)")):
        shown = _probe(tmp_path, game, effect)
        assert len(shown) == 1 and "extra.yaml:" in shown[0] and "M901" in shown[0] \
            and said in shown[0], (effect, shown)
    for effect in ("on advance: opponent loses 1 coin per space", "on advance: coins 1 per "
                   "space", "build chain cards for 1 coin", "build chain cards for 0 coins"):
        assert _probe(tmp_path, "duel", effect) == [], effect


def test_no_chain_price_in_the_data_leaves_duel_pricing_as_it_was() -> None:
    """Without the effect in the data no build asks whether its card shows a chain."""
    from wonders.engine.structure_rules import structure_rules

    duel = resolve("duel").load().game
    pantheon = resolve("pantheon").load().game
    assert duel is not None and pantheon is not None
    assert structure_rules(duel).chain_shown == frozenset()
    shown = {c.name for c in structure_rules(pantheon).chain_shown}
    assert {"Horse Breeders", "Barracks", "Greek Grand Temple", "Temple"} <= shown
    assert not {"Walls", "Rostrum", "Stable"} & shown   # (Rostrum, Stable: chains given only)


def test_per_space_is_the_seat_pushing_only() -> None:
    """The track's count of an advance: the pushing seat's spaces, 0 for the other, and
    nothing (the count of another part) for any other name or between advances."""
    from wonders.engine.mechanisms import track

    game = _game(1)
    pawn = track.state(game)
    assert pawn.count(game, 0, "space") == 0 and pawn.count(game, 0, "influence") == -1
    pawn.advancing, pawn.spaces = 1, 3
    assert pawn.count(game, 1, "space") == 3 and pawn.count(game, 0, "space") == 0
