"""Agora's last four conspiracies beyond their scenarios (tests/scenarios/
agora-conspiracies-more.yaml): Treason's removed cards are seen only by its owner while it
chooses (views and determinized copies), and every new follow-up has its action ids, its
words at the terminal and on the online table."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from test_human_duel_expansions import through

from wonders.dsl.loader import load_game
from wonders.engine.flow import FlowGame, every_move
from wonders.engine.flow_actions import Move
from wonders.engine.mechanisms import city_moves, structure

AGORA = Path(__file__).resolve().parent.parent / "expansions" / "agora"
KINDS = ("remove_token", "build_last_row", "build_removed", "swap")


def _played_until(kind: str) -> FlowGame:
    """The first random game (by seed) reaching a decision of ``kind``, stopped there."""
    data = load_game(game=str(AGORA))
    for seed in range(300):
        game, rng = FlowGame(data, 2, seed), random.Random(seed)
        while not game.over:
            if game.decision().kind == kind:
                return game
            seat = game.to_move()[0]
            game.play({seat: rng.choice(list(game.legal_actions(seat)))})
    raise AssertionError(f"no game of 300 reached {kind}")


@pytest.fixture(scope="module")
def treason() -> FlowGame:
    return _played_until("build_removed")


def _removed(game: FlowGame) -> list[str]:
    part = structure.state(game)
    return [c.name for c in part.removed_before + part.removed]


def test_the_removed_cards_are_offered_to_the_owner_only(treason: FlowGame) -> None:
    owner = treason.to_move()[0]
    offered = [str(m) for m in treason.legal_actions(owner)]
    names = _removed(treason)
    assert offered and all(m.endswith(" from removed") for m in offered)
    assert {m.removesuffix(" from removed").removeprefix("build ") for m in offered} <= set(names)
    assert len(names) == 3 * treason.age   # (3, 6 or 9: this age's and the earlier ones')
    shown = json.dumps(treason.view(1 - owner))   # (the other seat's view names none)
    assert not any(name in shown for name in names if name not in _public(treason))


def _public(game: FlowGame) -> set[str]:
    """Names either seat sees anyway (built, discarded, face up in the structure)."""
    part = structure.state(game)
    seen = {c.name for c in part.discard}
    for city in game.cities:
        seen |= {c.name for c in getattr(city, "built", [])}
    laid = part.structure
    if laid is not None:
        seen |= {laid.cards[s].name for s in range(len(laid.cards))
                 if not laid.taken[s] and laid.face_up[s]}
    return seen


def test_the_owners_copy_keeps_what_it_sees_and_plays_each_option(treason: FlowGame) -> None:
    owner = treason.to_move()[0]
    for n in range(5):
        world = treason.determinize(owner, random.Random(n))
        assert _removed(world) == _removed(treason)
        assert [str(m) for m in world.legal_actions(owner)] == \
            [str(m) for m in treason.legal_actions(owner)]
        for move in world.legal_actions(owner):
            world.clone().play({owner: move})   # (each option plays in the copy)


def test_the_other_seats_copy_deals_the_unseen_cards_again(treason: FlowGame) -> None:
    owner = treason.to_move()[0]
    part = structure.state(treason)
    hidden = part.structure.hidden_slots() if part.structure is not None else []
    dealt = set()
    for n in range(20):
        world = treason.determinize(1 - owner, random.Random(n))
        moves = [str(m) for m in world.legal_actions(owner)]
        # the choice is asked again from the copy's own removed cards, and each plays
        assert moves == [str(m) for m in structure.removed_moves(world, owner, None)]
        for move in world.legal_actions(owner):
            world.clone().play({owner: move})
        dealt.add(tuple(sorted(c.name for c in structure.state(world).removed)))
    # with face-down cards left, what it never saw is dealt again (else nothing is unseen)
    assert (len(dealt) > 1) == bool(hidden)


def test_a_queued_removed_choice_holds_no_options() -> None:
    """What waits in the follow-up queue (which a copy for the other seat holds) names none
    of the removed cards: they are worked out when asked."""
    from wonders.dsl import effects as fx
    from wonders.engine.mechanisms import cities
    game = _played_until("turn")
    owner = game.to_move()[0]
    city_moves.ask(game, city_moves.BUILD_REMOVED, owner, fx.BuildFree(None, "removed"))
    (pending,) = cities.state(game).pending
    assert pending.kind == city_moves.BUILD_REMOVED and pending.options == []


@pytest.mark.parametrize("kind", KINDS)
def test_every_new_follow_up_has_action_ids(kind: str) -> None:
    game = _played_until(kind)
    seat = game.to_move()[0]
    ids = set(every_move(game.data))
    moves = game.legal_actions(seat)
    assert moves and all(isinstance(m, Move) and m in ids for m in moves)
    assert game.decision().wording   # (what the terminal and the bots' logs show)


@pytest.mark.parametrize("kind", KINDS)
def test_the_online_table_words_each_new_follow_up(kind: str) -> None:
    """The page's words for each option name what it moves (not the bare notation)."""
    from wonders.serve import present
    game = _played_until(kind)
    seat = game.to_move()[0]
    view = game.view(seat)
    for move in game.legal_actions(seat):
        entry: dict[str, object] = {"text": str(move)}
        present.board_move(game, seat, view, move, entry)
        assert entry["text"] != str(move), entry
        if move.words[0] == "row":
            assert entry["place"] == [int(move.words[1]), int(move.words[3])]


@pytest.mark.parametrize("kind", KINDS)
def test_each_new_follow_up_is_asked_at_the_terminal(kind: str) -> None:
    """The terminal asks the follow-up in its words and lists its options by notation; the
    game then plays to its end through the terminal."""
    game = _played_until(kind)
    seat = game.to_move()[0]
    options = [str(m) for m in game.legal_actions(seat)]
    driver, out = through(game, seat, 1)
    assert city_moves.WORDING[kind] in out
    assert all(option in out for option in options)
    assert game.over and "Final score sheet" in out and "Traceback" not in out
