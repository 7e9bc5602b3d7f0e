"""The Leaders expansion (``expansions/leaders``) and the constructs it added (issue 12).

The hand-worked numbers are rule scenarios (``tests/scenarios/leaders.yaml``, and the
stacking free builds in ``tests/scenarios/conditions.yaml``); the tests here show that
those scenarios depend on each construct being executed (switched off, the scenarios
that use it fail), that misuse of each construct is a located validation error, and
that whole games with Leaders play, end, and replay at every table size.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import Workspace

from wonders.bots import make_bot
from wonders.dsl import describe, rules_model
from wonders.dsl.loader import load, load_game
from wonders.engine import city as city_module
from wonders.engine import game as draft_game
from wonders.engine.actions import Sell
from wonders.engine.game import Game, Phase
from wonders.engine.mechanisms import battles, discounts, free_builds
from wonders.engine.mechanisms.discounts import Discounts
from wonders.scenarios.draft import check_file
from wonders.scenarios.log import replay, write

ROOT = Path(__file__).resolve().parents[1]
LEADERS = ROOT / "expansions" / "leaders"
SCENARIOS = Path(__file__).resolve().parent / "scenarios"
COMPILED = not draft_game.__file__.endswith(".py")  # compiled callers ignore a monkeypatch


def failed(path: Path) -> set[str]:
    result = check_file(path)
    assert result.report.ok, [d.render() for d in result.report.sorted()]
    return {o.name for o in result.outcomes if not o.passed}


def test_the_leader_scenarios_pass() -> None:
    assert failed(SCENARIOS / "leaders.yaml") == set()


def test_leaders_validate() -> None:
    result = load(game=str(LEADERS))
    assert result.ok, [d.render() for d in result.report.sorted()]
    data = result.game
    assert data is not None
    assert len(data.reserve_cards()) == 36
    assert all(c.colour != "white" for c in data.deck_cards())
    assert data.rules.model.reserve == rules_model.Reserve("white", 4, "right", "out")   # L7


# --- each construct switched off fails its scenarios -----------------------------------

skip_compiled = pytest.mark.skipif(COMPILED, reason="the compiled loop cannot be monkeypatched")


@skip_compiled
def test_the_draft_passing_left_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    real = rules_model._read_reserve

    def left(value: object) -> rules_model.Reserve:
        found = real(value)
        return rules_model.Reserve(found.colour, found.hand, "left")

    monkeypatch.setattr(rules_model, "_read_reserve", left)
    assert "L3: the leader draft: keep one, pass the rest to the right, until each keeps four" \
        in failed(SCENARIOS / "leaders.yaml")


@skip_compiled
def test_no_reserve_turn_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Game, "_start_age", Game._deal_age)
    assert "L3: the leader draft: keep one, pass the rest to the right, until each keeps four" \
        in failed(SCENARIOS / "leaders.yaml")


@skip_compiled
def test_resource_discounts_ignored_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Discounts, "resource_costs", lambda self, city, cost, card: [cost])
    assert failed(SCENARIOS / "leaders.yaml") == {
        "Archimedes, Hammurabi, Leonidas: green, blue, red cards cost one resource less",
        "Archimedes: the resource left out is the one that saves most",
        "Imhotep: wonder stages cost one resource less",
        "Bilkis: one resource for 1 coin to the bank, once in a build"}


@skip_compiled
def test_buy_and_token_triggers_ignored_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    real = draft_game.trigger

    def without(table: object, seat: int, event: str, *rest: object) -> None:
        if event != "buy" and not event.endswith("_token"):
            real(table, seat, event, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(draft_game, "trigger", without)
    assert failed(SCENARIOS / "leaders.yaml") == {
        "Hatshepsut: 1 coin for each neighbour bought from in a turn",
        "Nero, Tomyris, Caesar, Hannibal: the end of Age I's battles"}


@skip_compiled
def test_defeats_kept_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(battles, "_hand_over_defeats", lambda *_: None)
    assert failed(SCENARIOS / "leaders.yaml") == {
        "Nero, Tomyris, Caesar, Hannibal: the end of Age I's battles"}


@skip_compiled
def test_sets_not_counted_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    real = city_module.City.count

    def count(self: city_module.City, counted: object) -> int:
        if type(counted).__name__ == "CountSets":
            return 0
        return real(self, counted)  # type: ignore[arg-type]

    monkeypatch.setattr(city_module.City, "count", count)
    assert failed(SCENARIOS / "leaders.yaml") == {
        "Leaders that score: points, per colour, per token, per stage, per 3 coins, per set"}


@skip_compiled
def test_science_sets_scored_apart_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    from wonders.engine import scoring

    monkeypatch.setattr(scoring, "_science_set_bonus", lambda sources: 0)
    assert failed(SCENARIOS / "leaders.yaml") == {
        "Aristotle: 3 more per science set, the wildcard chosen for both"}


@skip_compiled
def test_free_builds_that_do_not_add_up_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    real = free_builds.assignable
    monkeypatch.setattr(free_builds, "assignable",
                        lambda colours, scopes, unscoped=False:
                        len(colours) <= 1 and real(colours, scopes, unscoped))
    assert failed(SCENARIOS / "conditions.yaml") == {
        "stacking abilities: two once-per-age free builds from two sources give two an age"}


ROMA_B_DISCOUNT = "Roma B: its leaders cost 2 coins less, each neighbour's 1 coin less"
ROMA_B_DRAWS = {
    "Roma B stage 1: 5 coins and 4 new leaders from the unused ones into the leader hand",
    "Roma B stage 1 in a recruitment turn: the leaders drawn are kept for the next ages"}
ROMA_B_BUILDS = {
    "Roma B stage 2: 3 points and one more leader from the leader hand at once, at its "
    "discounted cost",
    "Roma B stage 3 built in a recruitment turn: one more leader from what the hand holds then"}
COURTESANS = {
    "Courtesans Guild: the choice of a neighbour's leader; Croesus copied gives 6 coins at once",
    "Courtesans Guild: Solomon copied builds a card of the discard pile for the copier at once",
    "Courtesans Guild: Hypatia copied scores the copier's green cards, on its leaders line",
    "Courtesans Guild: Xenophon copied pays the copier 2 coins for each later yellow card"}


@skip_compiled
def test_discounts_of_other_cities_ignored_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discounts, "shared_off", lambda cities, seat, card: 0)
    assert failed(SCENARIOS / "leaders.yaml") == {ROMA_B_DISCOUNT}


@skip_compiled
def test_reserve_draws_ignored_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Game, "draw_reserve", lambda self, seat, count: None)
    assert failed(SCENARIOS / "leaders.yaml") == ROMA_B_DRAWS


@skip_compiled
def test_reserve_builds_never_offered_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Game, "reserve_builds", lambda self, seat: [])
    assert failed(SCENARIOS / "leaders.yaml") == ROMA_B_BUILDS


@skip_compiled
def test_copies_never_asked_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    from wonders.dsl import effects as fx
    from wonders.engine import runtime

    real = runtime.now

    def now(table: object, seat: int, effect: object) -> None:
        if not isinstance(effect, fx.CopyCard):
            real(table, seat, effect)  # type: ignore[arg-type]

    monkeypatch.setattr(runtime, "now", now)
    assert failed(SCENARIOS / "leaders.yaml") == COURTESANS


@skip_compiled
def test_copied_cards_that_are_no_source_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """The copy is made, but the copied card is not one of the copier's effect sources:
    its triggers and end-of-game scoring are lost (its now-effects still act)."""
    real = city_module.City.sources

    def sources(self: city_module.City) -> object:
        return (s for s in real(self) if s[0] != city_module.COPIED)

    monkeypatch.setattr(city_module.City, "sources", sources)
    assert failed(SCENARIOS / "leaders.yaml") == {
        "Courtesans Guild: Hypatia copied scores the copier's green cards, on its leaders line",
        "Courtesans Guild: Xenophon copied pays the copier 2 coins for each later yellow card"}


# --- misuse of each construct: located errors --------------------------------------------

def diagnostics(ws: Workspace, files: dict[str, str]) -> list[tuple[str, int, str]]:
    paths = [ws.write(name, text) for name, text in files.items()]
    found = load([paths[0].parent]).report.sorted()
    return [(d.code, d.location.line, d.render()) for d in found]


RULES = "kind: rules\nname: mine\nextends: base\nvocabulary:\n  colours: [white]\n"
CARD = ("kind: cards\nset: mine\ngame: mine\ncards:\n"
        "  - name: Hero\n    age: 0\n    colour: white\n    cost: 1 coin\n"
        "    effect: \"{effect}\"\n")


def test_a_misspelt_reserve_colour(ws: Workspace) -> None:
    found = diagnostics(ws, {"rules.yaml": RULES + "reserve: {colour: whit, hand: 1}\n"})
    assert [(code, line) for code, line, _ in found] == [("N302", 6)]
    assert "did you mean 'white'" in found[0][2]


def test_too_few_reserve_cards(ws: Workspace) -> None:
    found = diagnostics(ws, {"rules.yaml": RULES + "reserve: {colour: white, hand: 4}\n",
                             "cards.yaml": CARD.format(effect="points 1")})
    assert [(code, line) for code, line, _ in found] == [("D616", 6)]
    assert "28" in found[0][2] and "only 1" in found[0][2]


def test_an_age_0_card_without_a_reserve(ws: Workspace) -> None:
    found = diagnostics(ws, {"rules.yaml": RULES,
                             "cards.yaml": CARD.format(effect="points 1")})
    assert [(code, line) for code, line, _ in found] == [("D603", 5)]
    assert "has none" in found[0][2]


def test_a_reserve_in_a_card_structure_game(ws: Workspace) -> None:
    text = ("kind: rules\nname: mine\nextends: duel\nvocabulary:\n  colours: [white]\n"
            "reserve: {colour: white}\n")
    found = diagnostics(ws, {"rules.yaml": text})
    assert ("M905", 6) in [(code, line) for code, line, _ in found]


@pytest.mark.parametrize(("effect", "code", "words"), [
    ("on victroy token: coins 2", "N305", "did you mean 'victory'"),
    ("discount 1 coin on cards for 1 coin", "T408", "only a discount of resources"),
    ("end: points 1 per set of blue, rde cards", "N302", "did you mean 'red'"),
])
def test_misuse_in_the_draft_game(ws: Workspace, effect: str, code: str, words: str) -> None:
    found = diagnostics(ws, {"rules.yaml": RULES + "reserve: {colour: white, hand: 1}\n"
                             "players: {min: 3, max: 3}\n",
                             "cards.yaml": CARD.format(effect=effect)
                             + CARD.format(effect="points 1").split("cards:\n")[1]
                             .replace("Hero", "Hero2")
                             + CARD.format(effect="points 1").split("cards:\n")[1]
                             .replace("Hero", "Hero3")})
    assert [(c, line) for c, line, _ in found] == [(code, 9)], found
    assert words in found[0][2]


@pytest.mark.parametrize(("effect", "code", "words"), [
    ("draw 4 reserve cards", "M901", "no reserve to draw from"),
    ("build 1 reserve card", "M901", "no reserve hand to build from"),
    ("now: copy purple card from opponent", "M901", "'copy' with timing now: is not run by "
                                                    "the structure game loop"),
    ("discount 1 coin on purple cards in opponent", "M901", "not taken off other cities' "
                                                            "costs by the structure"),
    ("on victory token: coins 2", "M901", "not announced by the structure game loop"),
    ("on buy: coins 1", "M901", "'on buy:' is not announced"),
    ("discount 1 resource on cards for 1 coin", "M901", "not offered by the structure"),
    ("ability defeats_to_victor", "M902", "not implemented by the structure"),
    ("on victory token: destroy brown card in opponent", "T401", "does not apply"),
])
def test_misuse_in_duel(ws: Workspace, effect: str, code: str, words: str) -> None:
    text = ("kind: cards\nset: mine\ngame: duel\nremove: [Altar]\ncards:\n"
            "  - name: Shrine\n    age: 1\n    colour: blue\n    count: 1\n"
            f"    cost: free\n    effect: \"{effect}\"\n")
    rules = ("kind: rules\nname: duelish\nextends: duel\nvocabulary:\n"
             "  tokens: [victory]\n  abilities: [defeats_to_victor]\n")
    paths = [ws.write("cards.yaml", text.replace("game: duel", "game: duelish")),
             ws.write("rules.yaml", rules)]
    found = load([paths[0].parent]).report.sorted()
    found = [d for d in found if d.location.file.endswith("cards.yaml")]
    assert [d.code for d in found] == [code], [d.render() for d in found]
    assert words in found[0].render()


@pytest.mark.parametrize(("effect", "code", "words"), [
    ("draw 4 reserve cards", "M901", "needs the rule set's reserve"),
    ("now: coins 5; build 1 reserve card", "M901", "needs the rule set's reserve"),
])
def test_reserve_effects_without_a_reserve(ws: Workspace, effect: str, code: str,
                                           words: str) -> None:
    """The base game has no reserve: a draw or build of reserve cards would do nothing,
    so it is refused where it is written (house rule 2)."""
    text = ("kind: cards\nset: mine\ngame: base\ncards:\n"
            "  - name: Shrine\n    age: 1\n    colour: blue\n    players: [8]\n"
            f"    cost: free\n    effect: \"{effect}\"\n")
    found = [d for d in load([ws.write("cards.yaml", text)], "base").report.sorted()
             if d.severity.value == "error"]  # (players [8]: a warning, D604)
    assert [(d.code, d.location.line) for d in found] == [(code, 10)], \
        [d.render() for d in found]
    assert words in found[0].render()
    column = 14 + effect.index(effect.split("; ")[-1])  # the clause, inside the string
    assert found[0].render().startswith(f"{ws.root / 'cards.yaml'}:10:{column}: {code}")


@pytest.mark.parametrize(("effect", "code", "column", "words"), [
    ("discount 1 resource on white cards in left", "T407", 14, "lowers the coins"),
    ("discount 1 coin on white cards in lfet", "N304", 48, "did you mean 'left'"),
    ("end: draw 1 reserve card", "T401", 14, "always 'now:'"),
    ("build 0 reserve cards", "T403", 14, "building 0 reserve cards"),
    ("on white card: copy white card from left", "T401", 14, "does not apply to 'copy'"),
    ("now: copy white card from left if wonder complete", "T406", 45,
     "chosen when the card arrives"),
    ("copy whte card from left", "N302", 19, "did you mean 'white'"),
])
def test_misuse_of_the_new_constructs(ws: Workspace, effect: str, code: str, column: int,
                                      words: str) -> None:
    found = diagnostics(ws, {"rules.yaml": RULES + "reserve: {colour: white, hand: 1}\n"
                             "players: {min: 3, max: 3}\n",
                             "cards.yaml": CARD.format(effect=effect)
                             + CARD.format(effect="points 1").split("cards:\n")[1]
                             .replace("Hero", "Hero2")
                             + CARD.format(effect="points 1").split("cards:\n")[1]
                             .replace("Hero", "Hero3")})
    assert [(c, line) for c, line, _ in found] == [(code, 9)], found
    assert words in found[0][2]
    assert f"cards.yaml:9:{column}: {code}" in found[0][2]


def test_a_token_trigger_that_acts_too_late(ws: Workspace) -> None:
    found = diagnostics(ws, {"rules.yaml": RULES + "reserve: {colour: white, hand: 1}\n"
                             "players: {min: 3, max: 3}\n",
                             "cards.yaml": CARD.format(effect="on defeat token: destroy "
                                                              "brown card in left")})
    assert ("T401", 9) in [(c, line) for c, line, _ in found]


def test_diff_lists_the_leaders() -> None:
    from wonders.dsl.diff import diff

    changes = diff(load_game(game="base"), load_game(game=str(LEADERS))).changes
    added = {c.subject for c in changes if c.section == "cards" and c.sign == "+"}
    assert "Nero (age 0)" in added and "Gamers Guild (age 3)" in added and len(added) == 40


def test_described() -> None:
    data = load_game(game=str(LEADERS))
    said = {c.name: describe.effects(c.effects) for c in data.cards}
    assert said["Nero"] == "each time you receive a victory token: 2 coins"
    assert said["Hatshepsut"] == "for each neighbour you buy resources from in a build: 1 coin"
    assert said["Bilkis"].startswith("for 1 coin to the bank, cards cost 1 resource less")
    assert said["Aristotle"] == ("at game end: 3 victory points per complete set of science "
                                 "symbols (compass, wheel, tablet) in your city")
    assert said["Justinian"] == ("at game end: 3 victory points per set of one blue, green, "
                                 "red card each in your city")


# --- whole games ------------------------------------------------------------------------

@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_games_with_leaders_play_to_the_end(players: int, tmp_path: Path) -> None:
    data = load_game(game=str(LEADERS))
    for seed, bot in ((players, "random"), (players + 10, "greedy")):
        game = Game(data, players, seed)
        bots = {s: make_bot(bot, seed + s) for s in range(players)}
        kinds = []
        while not game.over:
            kinds.append(game.phase)
            game.play({s: bots[s].choose(game, s) for s in game.to_move()})
        assert kinds.count(Phase.PICK) == 3  # 4 dealt: 3 kept by choice, the last passed
        assert kinds.count(Phase.RESERVE) == 3  # one recruitment turn per age
        # L5: the 4th, unplayed (a city that drew reserve cards, Roma B, may keep more)
        reserve = game.card_reserve
        assert all(len(kept) == 1 or _draws(city) for kept, city in zip(reserve.kept,
                                                                        game.cities))
        assert sum(len(kept) for kept in reserve.kept) + len(reserve.unused) + sum(
            1 for city in game.cities for c in city.built + city.stage_cards
            if c.colour == "white") + sum(len(sold) for sold in reserve.out) == 36
        # L7: a leader sold leaves the game, never on the discard pile
        assert not any(c.colour == "white" for c in game.discard)
        assert all(c.coins >= 0 for c in game.cities)
        path = tmp_path / f"{players}-{bot}.jsonl"
        write(game, path, str(LEADERS))
        assert replay(path).identical


# Seeds whose game deals Roma (every board on side B) and reaches both new decisions, a
# leader built at once (Roma B stage 2 or 3) and a leader copied (the Courtesans Guild).
# (5 and 6 players re-found when sold leaders left the discard pile, L7)
ROMA_B_SEEDS = {"random": {3: 0, 4: 19, 5: 5, 6: 13, 7: 4},
                "greedy": {3: 0, 4: 2, 5: 8, 6: 2, 7: 0}}


@pytest.mark.parametrize("bot", ["random", "greedy"])
@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_games_with_roma_b_and_the_courtesans_replay(bot: str, players: int,
                                                     tmp_path: Path) -> None:
    """Whole games with Roma on side B (``--side B``) and the Courtesans Guild built:
    the draws, the leaders built at once and the copies are logged and replay exactly."""
    data = load_game(game=str(LEADERS))
    seed = ROMA_B_SEEDS[bot][players]
    game = Game(data, players, seed, sides="B")
    bots = {s: make_bot(bot, seed + s) for s in range(players)}
    kinds = []
    while not game.over:
        kinds.append(game.decision().kind)
        game.play({s: bots[s].choose(game, s) for s in game.to_move()})
    assert "reserve_build" in kinds and "copy" in kinds
    roma = next(city for city in game.cities if city.wonder.name == "Roma")
    assert roma.side.side == "B" and roma.stages >= 2 and _draws(roma)
    assert any(city.copied for city in game.cities)
    path = tmp_path / f"{players}-{bot}.jsonl"
    write(game, path, str(LEADERS), side="B")
    replayed = replay(path)
    assert replayed.identical
    assert isinstance(replayed.game, Game)
    assert [[c.name for c in city.copied] for city in replayed.game.cities] == \
        [[c.name for c in city.copied] for city in game.cities]


def _draws(city: object) -> bool:
    """Whether a city's built stages draw reserve cards (``draw N reserve cards``)."""
    from wonders.dsl import effects as fx

    stages = city.side.stages[:city.stages]  # type: ignore[attr-defined]
    return any(isinstance(clause.effect, fx.DrawReserve)
               for stage in stages for clause in stage.effects.clauses)


def test_a_determinization_keeps_the_own_reserve() -> None:
    data = load_game(game=str(LEADERS))
    game = Game(data, 4, 1)
    rng = random.Random(0)
    while game.phase is not Phase.TURN:
        game.play({s: rng.choice(game.legal_actions(s)) for s in game.to_move()})
    other = game.determinize(0, random.Random(5))
    theirs, mine = other.card_reserve, game.card_reserve
    assert [c.name for c in theirs.kept[0]] == [c.name for c in mine.kept[0]]
    # the others' reserves, the unused leaders and the leaders others sold out of the game
    # (L7) are dealt again from what nobody sees; seat 0's own sales stay as they were
    assert [len(theirs.kept[s]) for s in (1, 2, 3)] == [len(mine.kept[s]) for s in (1, 2, 3)]
    assert len(theirs.unused) == len(mine.unused) == 36 - 4 * 4
    assert [len(sold) for sold in theirs.out] == [len(sold) for sold in mine.out]
    # seat 3 sold Pericles in the recruitment turn: it knows, the others do not
    assert [(s, a.card.name) for _, _, _, actions, _ in game.decisions
            for s, a in actions.items() if isinstance(a, Sell)] == [(3, "Pericles")]
    assert [c.name for c in mine.out[3]] == ["Pericles"] == \
        [c.name for c in game.determinize(3, random.Random(5)).card_reserve.out[3]]
    assert any([c.name for c in game.determinize(0, random.Random(k)).card_reserve.out[3]]
               != ["Pericles"] for k in range(5))
    assert sorted([c.name for s in (1, 2, 3) for c in theirs.kept[s]]
                  + [c.name for c in theirs.unused] + [c.name for c in theirs.out[3]]) == \
        sorted([c.name for s in (1, 2, 3) for c in mine.kept[s]]
               + [c.name for c in mine.unused] + [c.name for c in mine.out[3]])


def test_a_whole_leaders_game_at_the_terminal() -> None:
    """``play --human`` with Leaders: the draft asks for a card to keep (a wrong name is
    asked again), each recruitment turn plays like a turn, and the game ends."""
    from typer.testing import CliRunner

    from wonders.cli import app

    script = "nobody\n1\n" + "1\n" * 2 + "build 1\n\nsell 1\n" * 80
    result = CliRunner().invoke(app, ["play", "--human", "--game", str(LEADERS), "--side",
                                      "random", "--players", "3", "--seed", "4"], input=script)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Keep one card for later" in out and "You: kept " in out
    assert "kept a card" in out and "Age I · turn 0" in out
    assert "Final score sheet" in out and "leaders" in out
    assert "Traceback" not in out


def test_leaders_by_name_from_any_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--game leaders`` names the shipped expansion (a fresh install has no
    ``expansions/leaders`` beside the working folder); a log records the name."""
    from wonders.dsl.loader import expansions_dir
    from wonders.engine.sources import resolve

    monkeypatch.chdir(tmp_path)
    source = resolve("leaders")
    shipped = expansions_dir()
    assert shipped is not None
    assert source.spec == "leaders" and source.paths == (str((shipped / "leaders").resolve()),)
    result = source.load()
    assert result.ok and result.game is not None
    assert result.game.rules.name == "leaders"


@pytest.mark.parametrize("policy", ["random", "quick", "greedy"])
@pytest.mark.parametrize("players", [3, 7])
def test_whole_game_playouts_with_leaders(policy: str, players: int) -> None:
    """The playouts ``simulate`` and the search bot play through (wonders/engine/playout.py) reach
    a legal end with the reserve draft and recruitment turns, every action checked."""
    from wonders.engine.playout import playout

    data = load_game(game=str(LEADERS))
    record: list[dict[int, object]] = []
    finished = playout(Game(data, players, 3), policy, 3, record=record, check=True)
    assert finished.over
    kinds = [entry["phase"] for entry in finished.history]
    assert kinds.count("reserve_draft") == 3 and kinds.count("reserve_turn") == 3


def test_a_human_answers_the_new_choices_at_the_terminal() -> None:
    """``play --human`` with Roma B and the Courtesans Guild: the terminal shows and asks
    the leader built at once (a line per card and payment, or skip) and the leader copied."""
    from test_human import builder, run_human

    from wonders.dsl import effects as fx
    from wonders.engine.actions import Build

    data = load_game(game=str(LEADERS))
    asked: set[str] = set()

    def copies(card: object) -> bool:
        return any(isinstance(c.effect, fx.CopyCard) and c.timing is fx.Timing.NOW
                   for c in card.effects.clauses)  # type: ignore[attr-defined]

    def answer(prompt: str, game: Game) -> str:
        if prompt.startswith("Keep which"):
            return "1"
        if prompt.startswith("Build which —"):   # a leader of the reserve, built at once
            asked.add("reserve_build")
            return "1"
        if prompt.startswith("Copy which"):
            asked.add("copy")
            return "1"
        legal = game.legal_actions(0)
        for number, card in enumerate(game.hands[0], 1):  # the Courtesans Guild first
            if copies(card) and any(isinstance(a, Build) and a.card is card for a in legal):
                return f"build {number}"
        return builder(prompt, game)

    outputs = []
    for seed in range(40):
        game = Game(data, 3, seed, wonders=["Roma", "Rhodos", "Ephesos"], sides="B")
        finished, out = run_human(game, answer)
        assert finished and "Traceback" not in out, out[-2000:]
        outputs.append(out)
        if asked == {"reserve_build", "copy"}:
            break
    assert asked == {"reserve_build", "copy"}
    text = "\n".join(outputs)
    assert "You may build one more card of your reserve at once" in text
    assert "You copy a card of another city" in text and "You: copied " in text
