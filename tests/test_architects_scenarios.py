"""The decks games' scenario runner (``wonders check`` on Architects positions): wrong
expectations fail at their place, bad positions are located X902s with a "did you mean",
and what a scenario cannot say (what a seat sees) is tested here."""

from __future__ import annotations

import random
from pathlib import Path

from typer.testing import CliRunner

from wonders.cli import app
from wonders.dsl.loader import load_game
from wonders.engine.flow import FlowGame
from wonders.engine.mechanisms import decks, pawn
from wonders.scenarios.draft import check_file
from wonders.scenarios.flow import FlowRunner

runner = CliRunner()

HEADER = "kind: scenarios\ngame: architects\nscenarios:\n"


def _failures(tmp_path: Path, text: str) -> list[tuple[str, int, int, str, str | None]]:
    path = tmp_path / "s.yaml"
    path.write_text(HEADER + text, encoding="utf-8")
    result = check_file(path)
    assert result.report.ok, [d.render() for d in result.report.diagnostics]
    return [(d.code, d.location.line, d.location.column, d.message, d.suggestion)
            for outcome in result.outcomes for d in outcome.failures]


def test_the_decks_loop_runs_flow_scenarios() -> None:
    from wonders.engine.registry import loop_for
    assert loop_for(load_game(game="architects")).scenarios() is FlowRunner


def test_wrong_expectations_fail_at_their_place(tmp_path: Path) -> None:
    found = _failures(tmp_path, (
        "  - name: wrong\n"                                                      # 4
        "    position:\n"
        "      players: [{wonder: Giza, held: {wood: 1}}, {wonder: Rhodes}]\n"
        "      decks: {Giza: [stone]}\n"
        "    expect:\n"
        "      - moves: [take left, take right]\n"                               # 9
        "      - after:\n"
        "          moves: [take left]\n"
        "          expect:\n"
        "            - state: {player: 0, pieces: [2], held: {wood: 1}}\n"      # 13
        "            - table: {peace: 2}\n"                                      # 14
        "      - after:\n"
        "          moves: [take left, take left, take left]\n"                   # 16
        "      - score: {player: 0, wonder: 4}\n"))                              # 17
    messages = [(code, line, column) for code, line, column, _, _ in found]
    assert messages == [("X901", 9, 16), ("X901", 13, 42), ("X901", 13, 53),
                        ("X901", 14, 30), ("X901", 16, 41), ("X901", 17, 36)]
    texts = [m for _, _, _, m, _ in found]
    assert "missing" not in texts[0] and "not expected ['take central']" in texts[0]
    assert "built pieces [1], expected [2]" in texts[1]
    assert "holds nothing, expected {'wood': 1}" in texts[2]
    assert "peace is 3, expected 2" in texts[3]
    assert "move 3 'take left' cannot be played (player 0)" in texts[4]
    assert "scores 0 for wonder, expected 4" in texts[5]


def test_bad_positions_are_located_with_a_suggestion(tmp_path: Path) -> None:
    found = _failures(tmp_path, (
        "  - name: typos\n"
        "    position:\n"
        "      players:\n"
        "        - {wonder: Gizah, held: {wod: 1}, progress: [Urbanism, Urbanism]}\n"   # 7
        "        - {wonder: Rhodes, cat: true, pieces: [6]}\n"                           # 8
        "        - {wonder: Babylon, cat: true}\n"
        "      decks: {Olympia: [wood], central: [laurel]}\n"                            # 10
        "      to_move: 3\n"                                                             # 11
        "    expect:\n"
        "      - state: {player: 0, held: {stones: 1}}\n"                               # 13
        "      - table: {cat: 5}\n"
        "      - legal: {player: 0}\n"))
    by_line = {(line, column): (message, hint) for _, line, column, message, hint in found}
    assert all(code == "X902" for code, *_ in found)
    assert by_line[(7, 20)] == ("no Wonder named 'Gizah' (Wonders: Giza, Rhodes, Alexandria, "
                                "Halicarnassus, Olympia, Ephesus, Babylon)", "Giza")
    assert by_line[(7, 34)][1] == "wood"                  # at the key
    assert "every Urbanism token is taken already (1 in the game)" in by_line[(7, 64)][0]
    assert "Rhodes has pieces 1 to 5, not 6" in by_line[(8, 48)][0]
    assert "only one player holds the cat pawn" in by_line[(9, 34)][0]
    assert by_line[(10, 42)][1] == "laurels"
    assert "no seat 3" in by_line[(11, 16)][0]
    assert by_line[(13, 35)][1] == "stone"
    assert "no seat 5" in by_line[(14, 22)][0]
    assert "'move: NOTATION'" in by_line[(15, 16)][0]
    assert len(found) == 10


def test_a_deck_of_a_wonder_not_at_the_table_is_refused(tmp_path: Path) -> None:
    ((code, line, column, message, hint),) = _failures(tmp_path, (
        "  - name: Olympia is not playing\n"
        "    position:\n"
        "      players: [{wonder: Giza}, {wonder: Rhodes}]\n"
        "      decks: {Olympia: [wood]}\n"
        "    expect:\n"
        "      - score: {player: 0, total: 0}\n"))
    assert (code, line, column) == ("X902", 7, 15)
    assert message == "no deck 'Olympia' on this table (decks: Giza, Rhodes, central)"


def test_a_token_held_twice_beyond_its_copies_is_refused(tmp_path: Path) -> None:
    found = _failures(tmp_path, (
        "  - name: two Urbanism\n"
        "    position:\n"
        "      players: [{wonder: Giza, progress: [Urbanism]}, {progress: [Urbanism]}]\n"
        "    expect:\n"
        "      - score: {player: 0, total: 0}\n"))
    ((code, line, column, message, _),) = found
    assert (code, line, column) == ("X902", 6, 67)
    assert "every Urbanism token is taken already (1 in the game)" in message


def test_wonders_check_prints_the_results(tmp_path: Path) -> None:
    path = tmp_path / "ok.yaml"
    path.write_text(HEADER + (
        "  - name: one take\n"
        "    position: {players: [{}, {}], decks: {central: [cat]}}\n"
        "    expect:\n"
        "      - after: {moves: [take central], expect: [{table: {cat: 0}}]}\n"),
        encoding="utf-8")
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 0, result.output
    assert "1 scenarios in 1 files: 1 passed, 0 failed" in result.output


# --- T9: what a seat sees (a scenario checks the rules' outcomes, not the views) ----------

def test_t9_the_cat_holder_sees_the_central_top_at_the_start_of_its_turn() -> None:
    """T9 (high): the cat's holder may look at the central deck's top before choosing; the
    others see it face down, and a determinization keeps what the holder saw."""
    data = load_game(game="architects")
    game = FlowGame(data, 3, 7)
    seat = game.to_move()[0]
    central = decks.state(game).central
    assert game.view(seat)["decks"][central]["top"] is None
    pawn.state(game).holder = seat
    top = data.components.kinds[decks.state(game).decks[central][-1]].name
    assert game.view(seat)["decks"][central]["top"] == top
    assert all(game.view(s)["decks"][central]["top"] is None for s in range(3) if s != seat)
    for k in range(5):
        world = game.determinize(seat, random.Random(k))
        assert decks.state(world).decks[central][-1] == decks.state(game).decks[central][-1]
    other = (seat + 1) % 3
    tops = {decks.state(game.determinize(other, random.Random(k))).decks[central][-1]
            for k in range(12)}
    assert len(tops) > 1      # for the others the top is dealt again


def test_s1_s7_wonders_are_dealt_from_the_seed_and_the_first_seat_starts() -> None:
    """S1: each seat a different Wonder, dealt at random (the same for a seed); S7: the
    first seat (the youngest, assumed seat 0) takes the first turn."""
    data = load_game(game="architects")
    deals = set()
    for seed in range(6):
        game = FlowGame(data, 4, seed)
        names = [city.name for city in game.seats]
        assert len(set(names)) == 4
        assert names == [city.name for city in FlowGame(data, 4, seed).seats]
        assert game.to_move() == [0] and game.decision().kind == "turn"
        # S2: seat i's own deck is the i-th; the central deck last
        assert list(decks.state(game).names) == names + ["central"]
        deals.add(tuple(names))
    assert len(deals) > 1
