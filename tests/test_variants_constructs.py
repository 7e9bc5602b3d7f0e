"""Language constructs of issue 12: conditions (``if …``) and negative points.

The rule scenarios of ``tests/scenarios/conditions.yaml`` (a test variant that
replaces base cards by name) hold the hand-worked numbers; these tests show that
those scenarios depend on the constructs being executed (with the runtime's and
scoring's condition check switched off, they fail), and that validation refuses
what no loop checks.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Workspace

from wonders.dsl import describe
from wonders.dsl.loader import load
from wonders.engine import runtime, scoring
from wonders.scenarios.draft import check_file

SCENARIOS = Path(__file__).resolve().parent / "scenarios" / "conditions.yaml"
COMPILED = not runtime.__file__.endswith(".py")  # compiled callers ignore a monkeypatch


def failed(path: Path) -> list[str]:
    result = check_file(path)
    assert result.report.ok, [d.render() for d in result.report.sorted()]
    return [o.name for o in result.outcomes if not o.passed]


def test_the_condition_scenarios_pass() -> None:
    assert failed(SCENARIOS) == []


@pytest.mark.skipif(COMPILED, reason="the compiled runtime cannot be monkeypatched")
def test_conditions_ignored_fail_the_scenarios(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runtime, "holds", lambda *_: True)
    monkeypatch.setattr(scoring, "holds", lambda *_: True)
    assert set(failed(SCENARIOS)) == {
        "end: points only when the wonder is complete",
        "now: coins only if the count is reached when built",
        "on …: a trigger acts only when its condition holds",
        "on age end: after the age's battles, before the next age"}   # its shield's condition


def test_negative_points_are_negative() -> None:
    game = load([SCENARIOS.parent / "variants" / "constructs"]).game
    assert game is not None
    pawnshop = next(c for c in game.cards if c.name == "Pawnshop")
    assert describe.effects(pawnshop.effects) == (
        "3 victory points; at game end: -2 victory points per defeat token in your city")


def test_wonder_complete_is_refused_where_cities_have_no_board(ws: Workspace) -> None:
    text = ("kind: cards\nset: mine\ngame: duel\nremove: [Altar]\ncards:\n"
            "  - name: Shrine\n    age: 1\n    colour: blue\n    count: 1\n"
            "    cost: free\n    effect: points 3 if wonder complete\n")
    found = load([ws.write("cards.yaml", text)]).report.sorted()
    assert [(d.code, d.location.line) for d in found] == [("M901", 11)], [
        d.render() for d in found]
    assert "not checked by the structure game loop" in found[0].message
    # the count condition is checked by both loops
    ok = load([ws.write("cards.yaml", text.replace("if wonder complete",
                                                   "if at least 2 blue cards"))])
    assert ok.ok, [d.render() for d in ok.report.sorted()]


@pytest.mark.skipif(COMPILED, reason="the compiled loop cannot be monkeypatched")
def test_age_end_triggers_ignored_fail_the_scenario(monkeypatch: pytest.MonkeyPatch) -> None:
    from wonders.engine import game as draft_game

    real = draft_game.trigger

    def without_age_end(table: object, seat: int, event: str, *rest: object) -> None:
        if event != runtime.AGE_END_EVENT:
            real(table, seat, event, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(draft_game, "trigger", without_age_end)
    assert failed(SCENARIOS) == ["on age end: after the age's battles, before the next age"]


@pytest.mark.parametrize(("game", "effect", "message"), [
    ("base", "on age end: replay", "'replay' cannot act at the end of an age"),
    ("duel", "on age end: coins 2", "'on age end:' is not announced by the structure"),
])
def test_age_end_refused_where_it_does_not_run(ws: Workspace, game: str, effect: str,
                                               message: str) -> None:
    copies = "players: [3+, 5+]" if game == "base" else "count: 1"   # as the Altar
    text = (f"kind: cards\nset: mine\ngame: {game}\nremove: [Altar]\ncards:\n"
            f"  - name: Shrine\n    age: 1\n    colour: blue\n    {copies}\n"
            f"    cost: free\n    effect: \"{effect}\"\n")
    found = load([ws.write("cards.yaml", text)]).report.sorted()
    assert [(d.code, d.location.line) for d in found] == [("M901", 11)], [
        d.render() for d in found]
    assert message in found[0].message


def test_coin_discount_is_refused_where_costs_are_not_discounted(ws: Workspace) -> None:
    text = ("kind: cards\nset: mine\ngame: duel\nremove: [Altar]\ncards:\n"
            "  - name: Shrine\n    age: 1\n    colour: blue\n    count: 1\n"
            "    cost: free\n    effect: discount 1 coin on brown cards\n")
    found = load([ws.write("cards.yaml", text)]).report.sorted()
    assert [(d.code, d.location.line) for d in found] == [("M901", 11)], [
        d.render() for d in found]
    assert "not taken off costs by the structure game loop" in found[0].message


HANDS_VARIANT = """\
kind: rules
name: long-third-age
extends: base
players: {min: 3, max: 4}
ages:
  hand: [7, 7, 8]
  draw:
    - {age: 3, colour: purple, count: players * 2 + 2}
"""


def test_per_age_hand_sizes_are_dealt(ws: Workspace) -> None:
    """``ages.hand`` as a list: Age III deals 8 cards (more guilds fill its deck)."""
    import wonders

    path = ws.write("long.yaml", HANDS_VARIANT)
    game = wonders.new_game(path, players=3, seed=5)
    bots = [wonders.make_bot("random", seat) for seat in range(3)]
    seen: dict[int, int] = {}
    while not game.over:
        age = game.age  # type: ignore[attr-defined]
        hands = game.hands  # type: ignore[attr-defined]
        seen.setdefault(age, max(len(h) for h in hands))
        game.play({s: bots[s].choose(game, s) for s in game.to_move()})
    assert {age: seen[age] for age in (1, 2, 3)} == {1: 7, 2: 7, 3: 8}


def test_per_age_hand_sizes_are_checked(ws: Workspace) -> None:
    path = ws.write("long.yaml", HANDS_VARIANT.replace("[7, 7, 8]", "[7, 8]"))
    found = load([path]).report.sorted()
    assert ("R802", 6) in [(d.code, d.location.line) for d in found], [d.render() for d in found]
    path = ws.write("long.yaml", HANDS_VARIANT.replace("[7, 7, 8]", "[7, 7, 9]"))
    found = load([path]).report.sorted()
    assert {d.code for d in found} == {"D601"}
    assert "needs 27 (9 cards × 3 players)" in found[0].message


def test_only_free_build_may_be_limited_to_colours(ws: Workspace) -> None:
    text = ("kind: cards\nset: mine\ngame: base\nremove: [Altar]\ncards:\n"
            "  - name: Shrine\n    age: 1\n    colour: blue\n    players: [3+, 5+]\n"
            "    cost: free\n    effect: ability play_last_card on red cards\n")
    found = load([ws.write("cards.yaml", text)]).report.sorted()
    assert [(d.code, d.location.line) for d in found] == [("M902", 11)], [
        d.render() for d in found]
    assert "cannot be limited to cards of some colours" in found[0].message
