"""A flow game's state is one part per mechanism its flow names, and what it shows is
assembled from the parts: a mechanism the flow leaves out has no state and shows nothing."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

from wonders.dsl.flow_model import END_CONDITIONS, EXTRA_OFFERS, OFFERS, STEPS
from wonders.dsl.loader import load_game
from wonders.dsl.model import Game as GameData
from wonders.engine import flow
from wonders.engine.flow import FlowGame
from wonders.engine.mechanisms import conflict, decks, pawn, progress


@cache
def architects() -> GameData:
    return load_game(game="architects")


def play(game: FlowGame, decisions: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(decisions):
        if game.over:
            return
        seat = game.to_move()[0]
        game.play({seat: rng.choice(list(game.legal_actions(seat)))})


def test_every_step_and_offer_belongs_to_a_mechanism_with_a_part() -> None:
    owned_conditions = set(flow.OWNERS) - set(STEPS) - set(OFFERS) - set(EXTRA_OFFERS)
    assert set(STEPS) | set(OFFERS) | set(EXTRA_OFFERS) <= set(flow.OWNERS)
    assert set(flow.EXTRA_TURNS) == set(EXTRA_OFFERS)
    assert owned_conditions <= set(END_CONDITIONS)   # (an end condition with a part of its own)
    companions = {name for table in flow.SECTION_PARTS.values() for name in table.values()}
    effects = set(flow.EFFECT_OWNERS.values())   # (a part an effect needs: 'or')
    assert set(flow.OWNERS.values()) | companions | set(flow.CITY_PARTS.values()) | effects \
        == set(flow.PARTS)
    assert set(flow.TURNS) == set(OFFERS) and set(flow.MOVES) <= set(flow.PARTS)
    assert set(flow.OFFER_WORDING) <= set(OFFERS) and set(flow.OFFER_RESOLVERS) <= set(OFFERS)
    assert set(flow.OFFER_CHECKS) <= set(OFFERS) and set(flow.CITY_PARTS) <= set(OFFERS)


def test_every_move_is_each_named_mechanisms_moves_in_a_fixed_order() -> None:
    data = architects()
    moves = flow.every_move(data)
    assert len(moves) == len(set(moves))            # (each once: an action id each)
    verbs = list(dict.fromkeys(m.verb for m in moves))
    assert verbs == ["take", "keep", "build", "progress", "decline"]
    game = FlowGame(data, 4, 2)
    rng = random.Random(0)
    while not game.over:   # every move a game offers is one of them
        seat = game.to_move()[0]
        legal = list(game.legal_actions(seat))
        assert set(legal) <= set(moves)
        game.play({seat: rng.choice(legal)})


def test_a_game_holds_a_part_for_each_mechanism_its_flow_names_in_order() -> None:
    game = FlowGame(architects(), 3, 0)
    # deal_boards, place_decks, lay_progress, lay_conflict, then take_cat after a card
    assert list(game.parts) == ["pieces", "decks", "progress", "conflict", "pawn"]


def test_a_clone_plays_on_without_touching_the_original() -> None:
    game = FlowGame(architects(), 4, 5)
    play(game, 20, 1)
    views = [game.view(s) for s in range(4)]
    sheet = game.score_sheet().to_json()
    other = game.clone()
    play(other, 60, 2)
    assert [game.view(s) for s in range(4)] == views and game.score_sheet().to_json() == sheet
    for name, part in game.parts.items():   # (every Architects part has state: copied)
        assert other.parts[name] is not part, name
    assert decks.state(other).decks != decks.state(game).decks


def test_a_part_is_made_from_its_steps_arguments(tmp_path: Path) -> None:
    (tmp_path / "rules.yaml").write_text(
        "kind: rules\nname: dear_pawn\nextends: architects\nflow:\n  turn:\n"
        "    after_card: [{take_cat: {points: 5}}, flip_conflict, build_when_paid,\n"
        "                 progress_on_sets, extra_card]\n"
        "    after: [{battle_if_due: {victory: 4}}]\n", encoding="utf-8")
    game = FlowGame(load_game([tmp_path]), 3, 4)
    play(game, 2000, 3)
    assert game.over
    holder = pawn.holder(game)
    assert holder >= 0 and any(conflict.state(game).victories)   # (both were scored)
    lines = game.score_sheet().lines
    assert [line["cat"] for line in lines] == [5 if s == holder else 0 for s in range(3)]
    assert [line["military"] for line in lines] == [4 * v for v in conflict.state(game).victories]
    assert [e["cat"] for e in game.view(1)["seats"]] == [s == holder for s in range(3)]


def test_the_set_up_record_is_each_parts_deal() -> None:
    game = FlowGame(architects(), 3, 7)
    record = game.setup_record()
    tokens = progress.state(game)
    assert record["progress"] == [game.progress[t].name for t in tokens.face_up]
    assert record["stack"] == [game.progress[t].name for t in tokens.stack]
    dealt = decks.state(game)
    assert record["decks"] == {name: [game.kinds[k].name for k in deck]
                               for name, deck in zip(dealt.names, dealt.decks)}
    play(game, 40, 1)   # what is played afterwards does not change the record
    assert game.setup_record() == record
    assert conflict.state(game).total == 3
