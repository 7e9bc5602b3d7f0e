"""Start-of-period triggers (``on age start:``) and coins given to the owner by other
cities (``PLACES gives N coins``), issue 12.

The rule scenarios of ``tests/scenarios/starts.yaml`` (a base variant) and
``tests/scenarios/duel-gives.yaml`` (a Duel variant) hold the hand-worked numbers; these
tests (with ``tests/scenarios/leaders-starts.yaml``: the age's start and the reserve
turn) show that each scenario depends on its construct being executed (switched off, it
fails), that misuse is reported at its place, and that the greedy bot plays the variant.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Workspace

from wonders.dsl import describe
from wonders.dsl.loader import load, load_game
from wonders.engine import runtime
from wonders.scenarios.draft import check_file

HERE = Path(__file__).resolve().parent / "scenarios"
STARTS = HERE / "starts.yaml"
DUEL_GIVES = HERE / "duel-gives.yaml"
LEADERS_STARTS = HERE / "leaders-starts.yaml"
COMPILED = not runtime.__file__.endswith(".py")  # compiled callers ignore a monkeypatch

AGE_START = {
    "on age start: once the next age is dealt, before its first turn",
    "on age start: each neighbour gives 1 coin, what it has",
    "on age start: a shield that counts from the new age's battles",
}
GIVES = {
    "on age start: each neighbour gives 1 coin, what it has",
    "gives: after the turn's coins arrive, in the order the effects acted",
    "gives: before the turn's losses to the bank",
}


def failed(path: Path) -> list[str]:
    result = check_file(path)
    assert result.report.ok, [d.render() for d in result.report.sorted()]
    assert result.outcomes
    return [o.name for o in result.outcomes if not o.passed]


def test_the_scenarios_pass() -> None:
    assert failed(STARTS) == []
    assert failed(DUEL_GIVES) == []
    assert failed(LEADERS_STARTS) == []


@pytest.mark.skipif(COMPILED, reason="the compiled loop cannot be monkeypatched")
def test_age_start_ignored_fails_its_scenarios(monkeypatch: pytest.MonkeyPatch) -> None:
    from wonders.engine import game as draft_game

    real = draft_game.trigger

    def without_age_start(table: object, seat: int, event: str, *rest: object) -> None:
        if event != runtime.AGE_START_EVENT:
            real(table, seat, event, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(draft_game, "trigger", without_age_start)
    assert set(failed(STARTS)) == AGE_START
    assert failed(LEADERS_STARTS) == [
        "on age start: before the age's reserve turn; a leader recruited then waits"]


@pytest.mark.skipif(COMPILED, reason="the compiled loop cannot be monkeypatched")
def test_gives_ignored_fail_their_scenarios(monkeypatch: pytest.MonkeyPatch) -> None:
    from wonders.engine.game import Game
    from wonders.engine.mechanisms.cities import Cities

    monkeypatch.setattr(Game, "give", lambda *_: None)
    assert set(failed(STARTS)) == GIVES
    monkeypatch.setattr(Cities, "give", lambda *_: None)   # (the part that gives, in a flow)
    assert set(failed(DUEL_GIVES)) == {
        "opponent gives 3 coins: what it has, at once",
        "on red card: the opponent gives 1 coin per red card it holds"}


@pytest.mark.skipif(COMPILED, reason="the compiled loop cannot be monkeypatched")
def test_gives_settled_before_the_turns_coins_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """Given at once during a turn (before the turn's coins arrive), the settling order
    the scenario expects is broken: the seller had nothing to give yet."""
    from wonders.engine.game import Game

    real = Game.give

    def at_once(self: Game, giver: int, taker: int, coins: int) -> None:
        saved = self._debits  # (a give during a turn waits while there are debits)
        self._debits = None
        real(self, giver, taker, coins)
        self._debits = saved

    monkeypatch.setattr(Game, "give", at_once)
    assert failed(STARTS) == [
        "gives: after the turn's coins arrive, in the order the effects acted"]


def test_descriptions() -> None:
    game = load([HERE / "variants" / "starts"]).game
    assert game is not None
    said = {c.name: describe.effects(c.effects) for c in game.cards}
    assert said["Excavation"].endswith(
        "at the start of each age: 1 coin per brown card in your city")
    assert said["Pawnshop"] == (
        "3 victory points; at the start of each age: your neighbours each give you 1 coin, "
        "from their own coins (as many as they have, up to that)")
    assert said["Tavern"] == (
        "when built: your left neighbour gives you 2 coins, from their own coins (as many "
        "as they have, up to that)")


def _card_file(game: str, effect: str) -> str:
    copies = "players: [3+, 5+]" if game == "base" else "count: 1"   # as the Altar
    return (f"kind: cards\nset: mine\ngame: {game}\nremove: [Altar]\ncards:\n"
            f"  - name: Shrine\n    age: 1\n    colour: blue\n    {copies}\n"
            f"    cost: free\n    effect: \"{effect}\"\n")


@pytest.mark.parametrize(("game", "effect", "code", "column", "words", "suggestion"), [
    ("base", "on age start: replay", "M901", 14,
     "'replay' cannot act at the start of an age in the draft game loop", None),
    ("base", "on age start: left loses 1 coin or defeat tokens", "M901", 14,
     "cannot wait at the start of a period", None),
    ("duel", "on age start: coins 2", "M901", 14,
     "'on age start:' is not announced by the structure game loop", None),
    ("base", "on age start: destroy brown card in left", "T401", 14,
     "'on …:' does not apply to 'destroy'", None),
    ("base", "on epoch start: coins 1", "N308", 17, "unknown period 'epoch'", None),
    ("base", "on age strat: coins 1", "E202", 21, "unexpected 'strat'", "start"),
    ("base", "left gives 1 coin or defeat tokens", "T409", 35,
     "a city gives the coins it has", None),
    ("base", "self gives 1 coin", "T409", 14, "cannot give coins to itself", None),
    ("base", "end: left gives 1 coin", "T401", 14, "'end:' does not apply to 'gives'", None),
    ("base", "left gives 0 coins", "T403", 14, "giving 0 coins", None),
    ("base", "left givs 1 coin", "E202", 19, "unexpected 'givs'", "gives"),
    ("base", "opponent gives 1 coin", "N304", 14, "unknown place 'opponent'", None),
    ("base", "left gives 1 coin per brown card in them, self", "T405", 50,
     "'them' (each losing city) cannot be listed", None),
])
def test_misuse_is_located(ws: Workspace, game: str, effect: str, code: str, column: int,
                           words: str, suggestion: str | None) -> None:
    path = ws.write("cards.yaml", _card_file(game, effect))
    found = [d for d in load([path]).report.sorted() if d.severity.value == "error"]
    assert [(d.code, d.location.line) for d in found][:1] == [(code, 11)], [
        d.render() for d in found]
    first = found[0]
    assert first.render().startswith(f"{path}:11:{column}: {code} "), first.render()
    assert words in first.message, first.message
    assert first.suggestion == suggestion


def test_the_variant_runs_with_greedy_bots() -> None:
    """Greedy bots value and play both constructs (the bot's trial table gives too)."""
    import wonders

    data = load_game([HERE / "variants" / "starts"])
    seen_gives = False
    for seed in range(4):
        game = wonders.new_game(data, players=4, seed=seed)
        bots = [wonders.make_bot("greedy", seat) for seat in range(4)]
        while not game.over:
            game.play({s: bots[s].choose(game, s) for s in game.to_move()})
        coins = sum(c.coins for c in game.cities)  # type: ignore[attr-defined]
        assert coins >= 0
        seen_gives = seen_gives or any(
            c.name in ("Tavern", "Pawnshop", "Theater")
            for city in game.cities for c in city.built)  # type: ignore[attr-defined]
    assert seen_gives


def test_a_game_with_both_constructs_replays_from_its_log(tmp_path: Path) -> None:
    """The coins given and the age starts' coins are the same when the log replays."""
    import random

    from wonders.engine import registry
    from wonders.scenarios.log import replay, write

    variant = HERE / "variants" / "starts"
    data = load_game([variant])
    game = registry.new_game(data, 4, 11)
    rng = random.Random(11)
    while not game.over:
        game.play({s: rng.choice(game.legal_actions(s)) for s in game.to_move()})
    log = tmp_path / "starts.jsonl"
    write(game, log, None, [str(variant)])
    result = replay(log)
    assert result.identical, result.divergence
    assert result.game is not None and result.game.history == game.history
