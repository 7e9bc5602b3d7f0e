"""Dice refusals say why (issue 30, item 6): ``game.check(seat, action)`` raises
IllegalActionError naming the reason (the die's gate, a locked die, too few coins, the
space's order, the decision), as the draft and structure loops do.  The scenarios
expect the reasons too (tests/scenarios/dice-rules.yaml, dice-printed.yaml)."""

from __future__ import annotations

import random

import pytest

from wonders.dsl.loader import load_game
from wonders.engine.dice_actions import BuildWonderStage, CrossSpace, Decline, Pass, TakeBonus
from wonders.engine.errors import IllegalActionError
from wonders.engine.flow import FlowGame

FALLBACK = "not one of the options"


@pytest.fixture(scope="module")
def data():  # type: ignore[no-untyped-def]
    return load_game(game="dice")


def reason(game: FlowGame, seat: int, action: object) -> str:
    with pytest.raises(IllegalActionError) as caught:
        game.check(seat, action)
    assert caught.value.player == seat and caught.value.action is action
    return caught.value.reason


def test_a_turn_refuses_what_belongs_elsewhere(data) -> None:  # type: ignore[no-untyped-def]
    game = FlowGame(data, 3, 1)
    assert "only after completing a building" in reason(game, 0, TakeBonus("seven_coins"))
    assert "nothing to decline" in reason(game, 0, Decline())
    assert "not this player's decision" in reason(game, 5, Pass())


def test_a_wonder_stage_needs_its_coins_and_its_order(data) -> None:  # type: ignore[no-untyped-def]
    game = FlowGame(data, 2, 1)
    city = game.cities[0]
    city.coins = 1
    game.invalidate()
    cost = city.board.stages[0].cost
    assert f"it costs {cost} coins ({cost} resource types lacking of {cost}) and player 0 " \
           f"has 1" == reason(game, 0, BuildWonderStage(0, cost))
    assert "the next is stage 1, not 2" in reason(game, 0, BuildWonderStage(1, 0))


def test_a_crossing_names_the_die_and_its_price(data) -> None:  # type: ignore[no-untyped-def]
    game = FlowGame(data, 2, 1)
    cross = next(a for a in game.legal_actions(0) if isinstance(a, CrossSpace))
    wrong_die = CrossSpace(cross.building, cross.space, cross.slot, "nothing", cross.die_price,
                           cross.shortfall)
    assert f"is the {cross.die} die, not nothing" in reason(game, 0, wrong_die)
    no_die = CrossSpace(cross.building, cross.space, None, "", 0, cross.shortfall)
    assert "with a die of the forum" in reason(game, 0, no_die)


def test_every_refused_variant_of_a_legal_crossing_has_a_reason(data) -> None:  # type: ignore[no-untyped-def]
    """Over random games: a legal crossing paying one coin more or less, or taking the
    space after it, is refused with a reason, never the bare list of options."""
    rng = random.Random(7)
    checked = 0
    for seed in range(6):
        game = FlowGame(data, 2 + seed % 4, seed)
        while not game.over and checked < 400:
            for seat in game.to_move():
                for action in game.legal_actions(seat):
                    if not isinstance(action, CrossSpace) or action.slot is None:
                        continue
                    variants = [
                        CrossSpace(action.building, action.space, action.slot, action.die,
                                   action.die_price + 1, action.shortfall),
                        CrossSpace(action.building, action.space, action.slot, action.die,
                                   action.die_price, action.shortfall + 1),
                        CrossSpace(action.building, action.space + 1, action.slot, action.die,
                                   action.die_price, action.shortfall)]
                    for variant in variants:
                        if variant in game.legal_actions(seat):
                            continue
                        why = reason(game, seat, variant)
                        assert FALLBACK not in why, (variant, why)
                        checked += 1
            game.play({s: rng.choice(game.legal_actions(s)) for s in game.to_move()})
    assert checked > 100
