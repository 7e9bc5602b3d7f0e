"""Every effect kind and timing × every shipped game: it plays as documented, or
``wonders validate`` refuses it (docs/errors.md, M901/M902).

Part one writes one effect of each (kind, timing) of the language onto an extra
card (base: marked for 8 players, so the decks stay whole) or an extra token
(Duel: it joins the box, so the structures stay whole) and checks the loader's
verdict against the loop's declared capabilities (:mod:`wonders.dsl.mechanisms`).
Part two plays the cases of issue 11 in the base game and checks the numbers.
"""

from __future__ import annotations

import functools
import io
import random

from rich.console import Console

from wonders.bots import make_bot
from wonders.cli.human import HumanGame
from wonders.scenarios.log import replay, write

from pathlib import Path

import pytest

from wonders.dsl import effects as fx
from wonders.dsl.effects_table import game_cell
from wonders.dsl.loader import load, load_game
from wonders.dsl.mechanisms import EFFECT_WORDS, LOOPS
from wonders.dsl.model import Card, Game as GameData
from wonders.engine import registry
from wonders.engine.actions import Build, DestroyCard, Sell
from wonders.engine.payment import FREE

from extra_cards import card_named, load_extra

NOW, ON, END, ONGOING = fx.Timing.NOW, fx.Timing.ON, fx.Timing.END, fx.Timing.ONGOING

# One example per (effect word, timing) the language accepts, per game (Duel's places differ).
EXAMPLES: dict[str, dict[tuple[str, fx.Timing], str]] = {
    "base": {
        ("produce", ONGOING): "produce wood", ("science", ONGOING): "science wheel",
        ("points", END): "end: points 2", ("copy", END): "copy purple card from left",
        ("coins", NOW): "now: coins 2", ("coins", ON): "on red card: coins 5",
        ("shields", ONGOING): "shields 1", ("shields", NOW): "now: shields 2",
        ("shields", ON): "on red card: shields 1",
        ("buy", ONGOING): "buy raw from left at 1", ("ability", ONGOING): "ability free_build",
        ("loses", NOW): "neighbours loses 1 coin", ("loses", ON): "on card: left loses 1 coin",
        ("destroy", NOW): "destroy brown card in left", ("replay", NOW): "now: replay",
        ("replay", ON): "on wonder: replay", ("discount", ONGOING): "discount 1 resource on wonder",
        ("copy", NOW): "now: copy purple card from left, right",
        ("draw", NOW): "draw 2 reserve cards", ("build", NOW): "build 1 reserve card",
        ("gives", NOW): "left, right gives 1 coin",
        ("gives", ON): "on age start: left gives 1 coin",
        ("gains", NOW): "neighbours gains 1 coin", ("gains", ON): "on wonder: left gains 2 coins",
        ("take", NOW): "take 1 victory token",
    },
    "duel": {
        ("produce", ONGOING): "produce wood", ("science", ONGOING): "science wheel",
        ("points", END): "end: points 2", ("copy", END): "copy purple card from opponent",
        ("coins", NOW): "now: coins 2", ("coins", ON): "on red card: coins 5",
        ("shields", ONGOING): "shields 1", ("shields", NOW): "now: shields 2",
        ("shields", ON): "on red card: shields 1",
        ("buy", ONGOING): "buy stone at 1", ("ability", ONGOING): "ability trade_income",
        ("loses", NOW): "opponent loses 1 coin", ("loses", ON): "on card: opponent loses 1 coin",
        ("destroy", NOW): "destroy brown card in opponent", ("take", NOW):
            "take progress token from box draw 2", ("replay", NOW): "now: replay",
        ("replay", ON): "on wonder: replay", ("discount", ONGOING): "discount 1 resource on wonder",
        ("copy", NOW): "now: copy purple card from opponent",
        ("draw", NOW): "draw 2 reserve cards", ("build", NOW): "build 1 reserve card",
        ("gives", NOW): "opponent gives 2 coins", ("gives", ON): "on card: opponent gives 1 coin",
        ("gains", NOW): "opponent gains 1 coin", ("gains", ON): "on wonder: opponent gains 2 coins",
    },
}
OFFERS = {"base": "draft", "duel": "structure"}


def _extra(game: str, effect: str) -> str:
    if game == "base":
        return ("kind: cards\nset: extra\ngame: base\ncards:\n  - name: Probe\n    age: 1\n"
                f"    colour: red\n    players: [8]\n    cost: free\n    effect: \"{effect}\"\n")
    return ("kind: tokens\nset: extra\ngame: duel\ntokens:\n  - name: Probe\n"
            f"    kind: progress\n    effect: \"{effect}\"\n")


CASES = [(game, key, text) for game, examples in EXAMPLES.items()
         for key, text in examples.items()]


@pytest.mark.parametrize("game, key, text", CASES,
                         ids=[f"{g}-{k[0]}-{k[1].value}" for g, k, _ in CASES])
def test_every_effect_plays_or_is_refused(game: str, key: tuple[str, fx.Timing], text: str,
                                          tmp_path: Path) -> None:
    path = tmp_path / "extra.yaml"
    path.write_text(_extra(game, text), encoding="utf-8")
    result = load([path], game)
    errors = [d for d in result.report.sorted() if d.severity.value == "error"]
    caps = LOOPS[OFFERS[game]]
    word = key[0]
    runs = key in caps.effects and (word != "ability" or text.split()[1] in caps.abilities) \
        and (word != "buy" or "from" not in text or bool(caps.buy_places)) \
        and (word not in ("draw", "build")  # the reserve's: only where the rule set has one
             or _shipped(game).rules.model.reserve.colour is not None)
    if runs:
        assert not errors, [d.render() for d in errors]
    else:
        assert errors and {d.code for d in errors} <= {"M901", "M902"}, \
            [d.render() for d in errors]
        assert errors[0].location.file.endswith("extra.yaml")
    # the generated table (docs/language.md, `wonders effects`) says what validate says
    cell = game_cell(caps, _shipped(game), word, key[1])
    if cell.startswith("runs"):
        assert not errors, cell
    else:
        assert cell.split(":")[0] in {d.code for d in errors}, cell


@functools.cache
def _shipped(game: str) -> GameData:
    return load_game([], game)


def test_every_effect_and_timing_has_an_example() -> None:
    """Each game's examples cover every (effect word, timing) the compiler accepts."""
    from wonders.dsl.compiler import effect_timings

    wanted = {(word, timing) for word, timings in effect_timings().items()
              for timing in timings}
    for game, examples in EXAMPLES.items():
        assert set(examples) >= wanted, (game, sorted(wanted - set(examples)))


def test_every_effect_kind_is_declared() -> None:
    """The catalogue names every effect class of the language, and each registered loop
    has its entry (the declaration cannot drift from the registry)."""
    effect_classes = set(fx.Effect.__args__)  # type: ignore[attr-defined]
    assert set(EFFECT_WORDS) == effect_classes
    assert set(registry.LOOPS) == set(LOOPS)


# --- part two: the cases, played in the base game ------------------------------

EXTRA_CARDS = """\
kind: cards
set: extra
game: base
cards:
  - {name: Patron, age: 1, colour: blue, players: [8], cost: free, effect: "on red card: coins 5"}
  - {name: Drill, age: 1, colour: red, players: [8], cost: free, effect: "now: shields 2"}
  - {name: Raider, age: 1, colour: red, players: [8], cost: free, effect: destroy brown card in left}
  - {name: Tax, age: 1, colour: yellow, players: [8], cost: free, effect: neighbours loses 1 coin}
"""


@pytest.fixture(scope="module")
def base_extra(tmp_path_factory: pytest.TempPathFactory) -> GameData:
    return load_extra(tmp_path_factory.mktemp("extra"), EXTRA_CARDS)


_card = card_named


def _turn(game: object, builds: dict[int, Card]) -> None:
    """Every seat builds the given card for free (put into its hand) or sells its first."""
    actions: dict[int, Build | Sell] = {}
    for seat in game.to_move():  # type: ignore[attr-defined]
        hand = game.hands[seat]  # type: ignore[attr-defined]
        if seat in builds:
            hand[0] = builds[seat]
            actions[seat] = Build(builds[seat], FREE)
        else:
            actions[seat] = Sell(hand[0])
    game.invalidate()  # type: ignore[attr-defined]
    game.play(actions)  # type: ignore[attr-defined]


def _game(data: GameData) -> object:
    game = registry.new_game(data, 3, 7, sides="A")
    assert game.decision().kind == "turn"
    return game


def test_on_red_card_pays_when_a_red_card_is_built_later(base_extra: GameData) -> None:
    game = _game(base_extra)
    _turn(game, {0: _card(base_extra, "Patron")})
    before = game.cities[0].coins  # type: ignore[attr-defined]
    _turn(game, {0: _card(base_extra, "Drill")})  # seats 1, 2 sell (3 coins each)
    assert game.cities[0].coins == before + 5  # type: ignore[attr-defined]


def test_now_shields_count_in_battles(base_extra: GameData) -> None:
    game = _game(base_extra)
    _turn(game, {0: _card(base_extra, "Drill")})
    assert game.cities[0].shields() == 2  # type: ignore[attr-defined]
    assert game.cities[0].bonus_shields == 2  # type: ignore[attr-defined]


def test_neighbours_lose_coins_at_the_end_of_the_turn(base_extra: GameData) -> None:
    game = _game(base_extra)
    coins = [c.coins for c in game.cities]  # type: ignore[attr-defined]
    _turn(game, {0: _card(base_extra, "Tax")})  # seats 1 and 2 sell: +3, then lose 1
    assert [c.coins for c in game.cities] == [  # type: ignore[attr-defined]
        coins[0], coins[1] + 2, coins[2] + 2]


def test_destroy_is_a_pending_decision_after_the_turn(base_extra: GameData) -> None:
    game = _game(base_extra)
    left = 1  # the left neighbour of seat 0
    brown = next(c for c in base_extra.cards if c.colour == "brown" and c.age == 1
                 and c.cost.is_free)
    _turn(game, {left: brown})
    _turn(game, {0: _card(base_extra, "Raider")})
    decision = game.decision()  # type: ignore[attr-defined]
    assert (decision.kind, decision.seats) == ("destroy", (0,))
    options = game.legal_actions(0)  # type: ignore[attr-defined]
    assert options == [DestroyCard(brown, left)]
    game.play({0: options[0]})  # type: ignore[attr-defined]
    assert brown not in game.cities[left].built  # type: ignore[attr-defined]
    assert brown in game.discard  # type: ignore[attr-defined]
    assert game.history[-1]["phase"] == "destroy"  # type: ignore[attr-defined]
    assert game.decision().kind == "turn"  # type: ignore[attr-defined]


# --- the new decisions in the terminal and in logs ---------------------------------------------

def _raided(data: GameData) -> tuple[object, Card]:
    """A 3-player game (sides A) where seat 0 has just built Raider against a brown card."""
    game = _game(data)
    brown = next(c for c in data.cards if c.colour == "brown" and c.age == 1 and c.cost.is_free)
    _turn(game, {1: brown})
    _turn(game, {0: _card(data, "Raider")})
    return game, brown


def test_the_terminal_asks_a_human_which_card_to_destroy(base_extra: GameData) -> None:
    game, brown = _raided(base_extra)
    out = io.StringIO()
    answers = iter(["nothing", brown.name, "quit"])
    session = HumanGame(game, 0, {1: make_bot("random", 1), 2: make_bot("random", 2)},
                        Console(file=out, width=140, color_system=None),
                        lambda prompt: next(answers))
    assert session.choose() == DestroyCard(brown, 1)
    text = out.getvalue()
    assert "You destroy a card of another city" in text and brown.name in text
    assert "No card 'nothing'" in text


RAIDERS = """\
kind: cards
set: raiders
game: base
requires: [base]
remove: [Guard Tower]
cards:
  - {name: Raider, age: 1, colour: red, players: [3+, 4+], cost: free,
     effect: destroy brown card in left}
"""


def test_a_destroy_decision_replays_from_the_log(tmp_path: Path) -> None:
    """Random games with a dealt Raider (instead of Guard Tower) until one destroys a card:
    the log replays it identically, the destroy decision included."""
    path = tmp_path / "raiders.yaml"
    path.write_text(RAIDERS, encoding="utf-8")
    data = load([path], "base").game
    assert data is not None
    for seed in range(60):
        game = registry.new_game(data, 3, seed)
        rng = random.Random(seed)
        while not game.over:
            game.play({s: rng.choice(game.legal_actions(s)) for s in game.to_move()})
        if any(entry["phase"] == "destroy" for entry in game.history):
            break
    else:
        raise AssertionError("no random game destroyed a card")
    log = tmp_path / "raid.jsonl"
    write(game, log, "base", [str(path)])
    result = replay(log)
    assert result.identical, result.divergence
    assert result.decisions == len(game.history)
    assert result.game is not None and result.game.history == game.history
