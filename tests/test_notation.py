"""Action notation: every legal action of random games of every shipped game prints, parses
back and goes through JSON unchanged; worked examples per game; clear errors."""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

import pytest

from wonders.dsl.errors import WondersError
from wonders.dsl.loader import load_game, shipped_expansions, shipped_games
from wonders.dsl.model import Game as GameData
from wonders.engine.actions import Build, BuildFromDiscard, ChooseSide, DestroyCard, PayOrTake, Sell
from wonders.engine.contract import GameState
from wonders.engine.dice_actions import BuildWonderStage, CrossSpace, TakeBonus
from wonders.engine.errors import RuleError
from wonders.engine.notation import NotationError, from_json, normal, notation, to_json
from wonders.engine.registry import new_game


def rule_sets() -> dict[str, tuple[str, list[str]]]:
    """Every shipped game, every expansion that is a rule set of its own, and the card-only
    expansion on the base game: name -> (game, extra paths)."""
    found: dict[str, tuple[str, list[str]]] = {name: (name, []) for name in shipped_games()}
    for name, folder in shipped_expansions().items():
        found[name] = (str(folder), []) if (folder / "rules.yaml").is_file() else (
            "base", [str(folder)])
    return found


@cache
def data(name: str) -> GameData:
    game, paths = rule_sets()[name]
    return load_game(paths, game=game)


def tables() -> list[tuple[str, int]]:
    return [(name, players) for name in sorted(rule_sets())
            for players in range(data(name).rules.min_players, data(name).rules.max_players + 1)]


# Decision kinds random games of each game reach in the seeds below: the property test
# must meet every one (so none of them goes unchecked when the games change).
KINDS = {
    "base": {"side", "turn", "last_card", "discard_build"},
    "base2e": {"side", "turn", "discard_build"},
    "tutorial": {"side", "turn", "last_card"},
    "cities": {"side", "turn", "discard_build", "debt"},
    "leaders": {"side", "reserve_draft", "reserve_turn", "turn", "last_card", "discard_build",
                "reserve_build", "copy"},
    "leaders-cities": {"side", "reserve_draft", "reserve_turn", "turn", "discard_build",
                       "reserve_build", "copy", "debt"},
    "duel": {"wonder_draft", "turn", "token", "destroy", "discard_build", "starter"},
    "pantheon": {"wonder_draft", "turn", "place", "starter", "activate", "choose_stack"},
    "agora": {"wonder_draft", "turn", "token", "destroy", "discard_build", "starter",
              "influence", "keep", "return", "trigger", "choose"},
    "pantheon-agora": {"wonder_draft", "turn", "place", "starter", "activate", "influence",
                       "keep", "return", "trigger", "choose"},
    "dice": {"turn", "bonus", "extra"},
    "architects": {"turn", "build", "progress", "extra"},
}
SEEDS = (0, 1, 2)
# more seeds where the first three reach no decision of a kind (agora: a Mausoleum's
# discard build since all 16 decrees deal; a destruction since the Senate and the
# conspiracies are laid before the wonder draft)
MORE_SEEDS: dict[str, tuple[int, ...]] = {"agora": (5, 6)}


def check_every_action(game: GameState, seat: int) -> int:
    """Round-trip every legal action of ``seat``; the number checked."""
    legal = game.legal_actions(seat)
    written: dict[str, Any] = {}
    for action in legal:
        text = notation(action)
        assert text == " ".join(text.split()) and text, f"{text!r} is not one-line text"
        other = written.setdefault(normal(text), action)
        assert other == action, f"'{text}' writes two legal actions: {other} and {action}"
        assert game.parse_action(seat, text) is action   # the very legal object
        record = to_json(action)
        assert from_json(game.data, json.loads(json.dumps(record))) == action, record
    return len(legal)


@pytest.mark.parametrize("name", sorted(KINDS))
def test_every_legal_action_round_trips(name: str) -> None:
    assert set(KINDS) == set(rule_sets()), "a shipped game without its decision kinds here"
    seen: set[str] = set()
    checked = 0
    for game_name, players in tables():
        if game_name != name:
            continue
        for seed in SEEDS + MORE_SEEDS.get(name, ()):
            game = new_game(data(name), players, seed)
            rng = random.Random(seed)
            while not game.over:
                seen.add(game.decision().kind)
                for seat in game.to_move():
                    checked += check_every_action(game, seat)
                game.play({s: rng.choice(game.legal_actions(s)) for s in game.to_move()})
    assert KINDS[name] <= seen, f"{name}: no decision of kinds {KINDS[name] - seen}"
    assert checked > 500


# --- worked examples --------------------------------------------------------------------

def played(name: str, players: int, seed: int, decisions: int) -> GameState:
    """A game after ``decisions`` decisions, each seat playing its first legal action."""
    game = new_game(data(name), players, seed)
    for _ in range(decisions):
        game.play({s: game.legal_actions(s)[0] for s in game.to_move()})
    return game


def test_base_build_paying_both_neighbours() -> None:
    game = played("base", 3, 0, 8)
    assert (game.age, game.turn, game.to_move()) == (2, 2, [0, 1, 2])
    action = game.parse_action(0, "build Library pay L2 R3")
    assert isinstance(action, Build) and action.card.name == "Library"
    assert (action.payment.left, action.payment.right, action.payment.bank) == (2, 3, 0)
    # case and spacing do not matter; the wording str() prints is understood too
    assert game.parse_action(0, "  BUILD library   pay l2 r3 ") is action
    assert str(action) == "build Library paying 2 to the left, 3 to the right"
    assert game.parse_action(0, str(action)) is action
    assert to_json(action) == {"action": "build", "card": "Library", "age": 2,
                               "method": "pay", "payment": {"left": 2, "right": 3, "bank": 0}}


def test_base_side_and_selling() -> None:
    game = new_game(data("base"), 3, 0)
    assert game.decision().kind == "side"
    assert game.parse_action(1, "side B") == ChooseSide("B")
    assert sorted(notation(a) for a in game.legal_actions(1)) == ["side A", "side B"]


def test_discard_pile_cards_carry_their_age() -> None:
    """Both ages' Press are in the discard pile: the notation names them apart, and the
    wording both share is refused as ambiguous."""
    game = new_game(data("base"), 5, 2)
    rng = random.Random(2)
    for _ in range(14):
        game.play({s: rng.choice(game.legal_actions(s)) for s in game.to_move()})
    assert game.decision().kind == "discard_build" and game.to_move() == [3]
    first = game.parse_action(3, "build Press (1) from discard")
    second = game.parse_action(3, "build Press (2) from discard")
    assert isinstance(first, BuildFromDiscard) and isinstance(second, BuildFromDiscard)
    assert (first.card.age, second.card.age) == (1, 2)
    with pytest.raises(NotationError, match=r"is 2 actions of player 3: write one of "
                       r"'build Press \(1\) from discard', 'build Press \(2\) from discard'"):
        game.parse_action(3, "build Press from the discard pile")
    assert game.parse_action(3, "skip") in game.legal_actions(3)


def test_duel_notations() -> None:
    game = new_game(data("duel"), 2, 0)
    assert [notation(a) for a in game.legal_actions(0)] == [
        "choose The Temple of Artemis", "choose The Great Library", "choose The Statue of Zeus",
        "choose The Hanging Gardens"]
    game = played_last("duel", 0, 8)
    assert [notation(a) for a in game.legal_actions(0)][:4] == [
        "build Stone Reserve pay 3", "sell Stone Reserve", "build Apothecary pay 2",
        "sell Apothecary"]
    action = game.parse_action(0, "build Apothecary pay 2")
    assert isinstance(action, Build) and action.payment.bank == 2
    assert [notation(a) for a in played_last("duel", 0, 29).legal_actions(0)] == [
        "starter player 0", "starter player 1"]
    assert notation(played_last("duel", 2, 37).legal_actions(0)[0]) == \
        "destroy Quarry (1) of player 1"


def played_last(name: str, seed: int, decisions: int) -> GameState:
    """A two-player game after ``decisions`` decisions, each seat playing its last action."""
    game = new_game(data(name), 2, seed)
    for _ in range(decisions):
        game.play({s: game.legal_actions(s)[-1] for s in game.to_move()})
    return game


def test_dice_crossings_and_their_json() -> None:
    game = new_game(data("dice"), 3, 0)
    action = game.parse_action(0, "cross warehouse 5 with grey_3 pay 3")
    assert isinstance(action, CrossSpace)
    assert (action.building, action.space, action.die, action.pay) == ("warehouse", 4,
                                                                       "grey_3", 3)
    record = to_json(action)
    # the log's record, with the shortfall the log leaves out (the price of the die is the
    # rest of what it pays)
    assert record == {**action.to_json(), "shortfall": action.shortfall}
    assert from_json(game.data, record) == action
    log_record = action.to_json()
    if action.shortfall != action.pay:
        with pytest.raises(NotationError, match="needs its 'shortfall'"):
            from_json(game.data, log_record)


# --- errors -----------------------------------------------------------------------------

def test_a_typo_gets_a_did_you_mean() -> None:
    game = played("base", 3, 0, 8)
    with pytest.raises(NotationError) as caught:
        game.parse_action(0, "build Librery pay L2 R3")
    message = str(caught.value)
    assert "player 0 cannot play 'build Librery pay L2 R3' now" in message
    assert "did you mean 'build Library pay L2 R3'?" in message
    assert isinstance(caught.value, RuleError) and isinstance(caught.value, WondersError)


@pytest.mark.parametrize("seat, text, message", [
    (5, "skip", "no player 5: seats are 0 to 2"),
    ("0", "skip", "a seat is a number from 0 to 2, not '0'"),
    (0, 3, "an action's notation is a string"),
])
def test_bad_calls_are_notation_errors(seat: Any, text: Any, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        new_game(data("base"), 3, 0).parse_action(seat, text)


def test_a_seat_that_does_not_decide_and_a_finished_game() -> None:
    game = new_game(data("duel"), 2, 0)
    with pytest.raises(NotationError, match=r"player 1 has no decision now .*seats \[0\]"):
        game.parse_action(1, "choose The Great Library")
    while not game.over:
        game.play({s: game.legal_actions(s)[0] for s in game.to_move()})
    with pytest.raises(NotationError, match="the game is over"):
        game.parse_action(0, "skip")


@pytest.mark.parametrize("record, message", [
    ({"action": "bulid", "card": "Library", "age": 2}, "did you mean 'build'"),
    ({"action": "sell", "card": "Librery", "age": 2}, "did you mean 'Library'"),
    ({"action": "sell", "card": "Library", "age": 1}, r"no card 'Library' of age 1 \(its ages: 2\)"),
    ({"action": "sell", "card": "Library"}, "'sell' needs 'age'"),
    ({"action": "sell", "card": "Library", "age": "2"}, "'age' is a int, not '2'"),
    ({"action": "build", "card": "Library", "age": 2, "method": "steal",
      "payment": {}}, "'method' is one of"),
    ({"action": "build", "card": "Library", "age": 2, "payment": {"left": -1}},
     "payment 'left' is a number of coins"),
    (["sell"], "an action record is a JSON object, not list"),
])
def test_bad_records_are_notation_errors(record: Any, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        from_json(data("base"), record)


def test_values_made_by_hand_print_without_a_game() -> None:
    """The notation of a value made by hand needs no game (a seat of -1: the only city)."""
    library = next(c for c in data("base").cards if c.name == "Library")
    examples: list[tuple[Any, str]] = [
        (Sell(library), "sell Library"),
        (DestroyCard(library), "destroy Library (2)"),
        (DestroyCard(library, 1), "destroy Library (2) of player 1"),
        (PayOrTake(2, 0, "debt"), "pay 2"),
        (PayOrTake(1, 1, "debt"), "pay 1 take 1 debt"),
        (BuildWonderStage(0, 0), "stage 1"),
        (BuildWonderStage(2, 3), "stage 3 pay 3"),
        (TakeBonus("seven_coins"), "bonus seven_coins"),
        (TakeBonus("cross_a_space", CrossSpace("market", 2, None, "", 0, 1)),
         "bonus cross_a_space cross market 3 pay 1"),
    ]
    for action, text in examples:
        assert notation(action) == text
    with pytest.raises(NotationError, match="is not an action"):
        notation(object())  # type: ignore[arg-type]
