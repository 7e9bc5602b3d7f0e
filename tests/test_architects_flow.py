"""The flow interpreter and the flow model: the catalogue, the set-up a flow lays out, and
what a flow's steps do, on 7 Wonders Architects (cards/architects) and a tiny decks game.

The rules themselves, row by row of the reference, are the scenarios'
(tests/scenarios/architects-*.yaml); here: that the language's catalogue and the engine's
steps are the same names, that set-up follows the flow's parameters (shared/reference/
architects.md S2–S5), and that a flow's order of steps is what runs.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from wonders.dsl.flow_model import END_CONDITIONS, OFFERS, STEPS, UNTIL, read_flow
from wonders.dsl.loader import load_game
from wonders.dsl.model import Game as GameData
from wonders.engine import flow
from wonders.engine.flow import FlowGame
from wonders.engine.flow_actions import Move
from wonders.engine.mechanisms import conflict, decks, pawn, pieces, progress
from wonders.engine.notation import from_json, parse_action
from wonders.engine.registry import loop_for, new_game


@cache
def architects() -> GameData:
    return load_game(game="architects")


def test_the_catalogue_is_what_the_interpreter_runs() -> None:
    runners = {**flow.SETUP_STEPS, **flow.START_STEPS, **flow.CARD_STEPS, **flow.TURN_STEPS,
               **flow.ROUND_STEPS}
    assert set(runners) == set(STEPS)
    for name, spec in STEPS.items():
        place = ("setup" if name in flow.SETUP_STEPS else "start" if name in flow.START_STEPS
                 else "after_card" if name in flow.CARD_STEPS
                 else "round.start" if name in flow.ROUND_STEPS else "after")
        assert spec.places == {place}, name
    assert set(OFFERS) == set(flow.TURNS) == {"decks", "dice", "structure"}
    assert set(END_CONDITIONS) == set(flow.END_CONDITIONS)
    assert set(UNTIL) == set(flow.UNTIL)
    for name, spec in OFFERS.items():   # an offer asking every seat at once has its choices
        together = spec.decide == "all"
        assert (name in flow.CHOICES) == together, name
        if together:
            assert set(flow.CHOICES[name]) == {flow.TURNS[name].kind, *spec.follow_ups}


def test_a_flow_reads_with_its_defaults() -> None:
    read = read_flow({"setup": ["place_decks", {"lay_progress": {}}],
                      "turn": {"offer": "decks"}, "end": {"when": ["no_card"]}})
    assert read is not None
    assert [s.name for s in read.setup] == ["place_decks", "lay_progress"]
    assert read.setup[1].arguments == {"face_up": 3}      # the step's default
    assert read.decide == "in_order" and read.then == "end_of_turn"
    assert read_flow(None) is None


def test_architects_is_run_by_the_flow_interpreter() -> None:
    data = architects()
    assert loop_for(data).offer == "decks"
    assert isinstance(new_game(data, 3, 0), FlowGame)


@pytest.mark.parametrize("players, tokens", [(2, 3), (3, 3), (4, 4), (5, 5), (6, 6), (7, 6)])
def test_set_up_lays_what_the_flow_says(players: int, tokens: int) -> None:
    game = new_game(architects(), players, 11)
    assert isinstance(game, FlowGame)
    # S5: conflict tokens by player count, peace side up
    assert conflict.state(game).peace == conflict.state(game).total == tokens
    # S4: three progress tokens face up, the other twelve in the stack
    tokens_laid = progress.state(game)
    assert len(tokens_laid.face_up) == 3 and len(tokens_laid.stack) == 12
    # S2, S3: one Wonder deck of 25 per seat on its owner's left, the central 60
    assert [len(d) for d in decks.state(game).decks] == [25] * players + [60]
    wonders = [w["wonder"] for w in game.view(0)["seats"]]
    assert len(set(wonders)) == players
    assert [d["name"] for d in game.view(0)["decks"]] == wonders + ["central"]


def test_a_seat_takes_from_its_own_deck_its_right_neighbours_and_the_central() -> None:
    game = new_game(architects(), 3, 5)
    assert isinstance(game, FlowGame)
    assert game.to_move() == [0]
    assert [str(m) for m in game.legal_actions(0)] == ["take left", "take right",
                                                       "take central"]
    top = decks.state(game).decks[2][-1]            # seat 0's right neighbour is seat 2
    before = game.seats[0].held[top]
    game.play({0: parse_action(game, 0, "take right")})
    assert game.seats[0].held[top] >= before + 1 or pieces.built(game, 0)
    assert len(decks.state(game).decks[2]) == 24


def test_views_show_face_up_tops_and_hide_the_central_deck() -> None:
    game = new_game(architects(), 4, 3)
    view = game.view(1)
    assert all(d["top"] is not None for d in view["decks"][:-1])
    assert view["decks"][-1]["top"] is None and view["decks"][-1]["cards"] == 60
    assert "legal" not in view and "legal" in game.view(0)


def test_the_cat_holder_peeks_at_the_central_deck_on_its_turn() -> None:
    game = new_game(architects(), 2, 1)
    assert isinstance(game, FlowGame)
    pawn.state(game).holder = 0
    assert game.view(0)["decks"][-1]["top"] is not None     # T9: seat 0 is to move
    assert game.view(1)["decks"][-1]["top"] is None
    pawn.state(game).holder = 1
    assert game.view(1)["decks"][-1]["top"] is None         # not seat 1's turn


def test_moves_round_trip_through_their_notation_and_json() -> None:
    game = new_game(architects(), 5, 8)
    rng = random.Random(8)
    while not game.over:
        seat = game.to_move()[0]
        for move in game.legal_actions(seat):
            assert parse_action(game, seat, str(move)) is move
            assert from_json(architects(), move.to_json()) == move
        game.play({seat: rng.choice(list(game.legal_actions(seat)))})
    assert Move.from_json({"action": "take", "words": [1]}) is None


def test_games_end_when_a_wonder_is_complete_or_no_card_is_left() -> None:
    for seed in range(40):
        game = new_game(architects(), 2 + seed % 6, seed)
        assert isinstance(game, FlowGame)
        rng = random.Random(seed)
        while not game.over:
            seat = game.to_move()[0]
            game.play({seat: rng.choice(list(game.legal_actions(seat)))})
        complete = [pieces.whole(game, s) for s in range(game.players)]
        assert sum(complete) <= 1   # E1: nobody plays after the completing turn
        if not any(complete):
            assert not game.legal_actions(game.current) and not any(
                decks.state(game).decks[s] for s in (game.current, (game.current - 1) % game.players,
                                              decks.state(game).central))
        sheet = game.score_sheet()
        assert sheet.totals == [sum(line.values()) for line in sheet.lines]


def test_every_decision_kind_has_its_mechanism_and_its_words() -> None:
    assert set(flow.RESOLVERS) | {flow.OVER} == set(flow._WORDING)


def test_a_variant_extends_the_flow_key_by_key(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "rules.yaml").write_text(
        "kind: rules\nname: quick\nextends: architects\nflow:\n  setup:\n    - deal_boards\n"
        "    - place_decks\n    - lay_progress: {face_up: 4}\n"
        "    - lay_conflict: {tokens: {2: 2}}\n", encoding="utf-8")
    game = new_game(load_game([tmp_path]), 3, 0)
    assert isinstance(game, FlowGame)
    # the variant's set-up; its turn and end are architects' own
    assert len(progress.state(game).face_up) == 4 and conflict.state(game).peace == 2
    assert [s.name for s in game.program.after_card] == [
        "take_cat", "flip_conflict", "build_when_paid", "progress_on_sets", "extra_card"]
