"""Dice refusals say why (issue 30, item 6): ``game.check(seat, action)`` raises
IllegalActionError naming the reason (the die's gate, a locked die, too few coins, the
space's order, the decision), as the draft and structure loops do.  The scenarios
expect the reasons too (tests/scenarios/dice-rules.yaml, dice-printed.yaml)."""

from __future__ import annotations

import random
from typing import Callable

import pytest

from wonders.dsl.loader import load_game
from wonders.engine import COMPILED
from wonders.engine.dice_actions import BuildWonderStage, CrossSpace, Decline, Pass, TakeBonus
from wonders.engine.errors import IllegalActionError, RuleError
from wonders.engine.flow import FlowGame
from wonders.engine.mechanisms import forum

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


def made_or_refused(make: Callable[[], object]) -> object | None:
    """An action made with fields of the wrong types, or None where the compiled build's
    constructor refuses them (mypyc checks a native class's field types: a TypeError)."""
    try:
        return make()
    except TypeError:
        assert COMPILED
        return None


def test_an_action_whose_fields_have_the_wrong_types_is_refused_with_a_reason(data) -> None:  # type: ignore[no-untyped-def]
    """A hand-made action with a field of the wrong type (a space as text, a building as a
    list, a bonus's crossing that is no crossing) is an IllegalActionError naming the field,
    in every kind of decision, never a TypeError or AttributeError from deeper in."""
    made = [made_or_refused(lambda: CrossSpace("warehouse", "1", None, "", 0, 0)),
            made_or_refused(lambda: CrossSpace("warehouse", 0, 0, "grey_1", "0", 0)),
            made_or_refused(lambda: CrossSpace(["warehouse"], 0, None, "", 0, 0)),
            made_or_refused(lambda: CrossSpace("warehouse", 0, "0", "grey_1", 0, 0)),
            made_or_refused(lambda: BuildWonderStage("0", 0)),
            made_or_refused(lambda: BuildWonderStage(0, None)),
            made_or_refused(lambda: TakeBonus(3)),
            made_or_refused(lambda: TakeBonus("cross_a_space", "warehouse 1")),
            made_or_refused(lambda: TakeBonus("cross_a_space",
                                              CrossSpace("warehouse", "x", None, "", 0, 0)))]
    true_space = CrossSpace("warehouse", True, None, "", 0, 0)
    if isinstance(true_space.space, bool):   # (compiled: the int 1, a well-formed action)
        made.append(true_space)
    bad = [action for action in made if action is not None]
    assert len(bad) == (0 if COMPILED else 10)
    rng = random.Random(3)
    kinds: set[tuple[str, str]] = set()   # each decision, a follow-up by what it is about
    for seed in range(12):
        game = FlowGame(data, 3, seed)
        while not game.over:
            kind = game.decision().kind
            first = game.to_move()[0]
            about = "" if kind == "turn" else repr(game.follow_ups[first][0][1])[:8]
            if (kind, about) not in kinds:
                kinds.add((kind, about))
                for seat in game.to_move():
                    for action in bad:
                        why = reason(game, seat, action)
                        assert "is a " in why and FALLBACK not in why, (kind, action, why)
                        assert str(action)   # the message prints it
            game.play({s: rng.choice(game.legal_actions(s)) for s in game.to_move()})
    assert {kind for kind, _ in kinds} == {"turn", "bonus", "extra"} and len(kinds) >= 5


def test_play_and_trial_with_what_is_not_a_seat_answer_are_rule_errors(data) -> None:  # type: ignore[no-untyped-def]
    """``play`` and ``push`` given no mapping of seats (a list, None) and ``trial`` for a seat not asked
    say so as RuleErrors (before: a TypeError from sorting the list, an IndexError from the
    seat's empty follow-up queue); the game is unchanged; a trial after the end says so."""
    game = FlowGame(data, 3, 2)
    answers = [game.legal_actions(seat)[0] for seat in game.to_move()]
    for wrong in (answers, None, "pass"):
        with pytest.raises(RuleError, match="by seat"):
            game.play(wrong)  # type: ignore[arg-type]
        with pytest.raises(RuleError, match="by seat"):
            game.push(wrong)  # type: ignore[arg-type]
    assert game.history == []
    with pytest.raises(RuleError, match="player 9 is not asked"):
        game.trial(9, Pass())
    rng = random.Random(1)
    while game.decision().kind == "turn" or len(game.to_move()) == 3:
        game.play({s: rng.choice(game.legal_actions(s)) for s in game.to_move()})
    idle = next(s for s in range(3) if s not in game.to_move())
    with pytest.raises(RuleError, match=f"player {idle} is not asked"):
        game.trial(idle, Pass())
    assert game.history and not isinstance(game.trial(game.to_move()[0],
                                                      game.legal_actions(game.to_move()[0])[0]),
                                           type(None))
    while not game.over:
        game.play({s: rng.choice(game.legal_actions(s)) for s in game.to_move()})
    with pytest.raises(RuleError, match="the game is over"):
        game.trial(0, Pass())


def test_a_seat_that_is_no_number_is_refused_as_such(data) -> None:  # type: ignore[no-untyped-def]
    """``check`` with the seat as text (a JSON key, say) says a seat is a number, not that
    seat '0' is not asked while seat 0 is (the message printed both as player 0)."""
    game = FlowGame(data, 3, 2)
    for seat in ("0", None, 1.5):   # (the compiled build too: check takes any value)
        why = reason(game, seat, Pass())  # type: ignore[arg-type]
        assert f"a seat is a number 0 to 2, not {seat!r}" == why
    assert "not this player's decision" in reason(game, 5, Pass())


def lay(game: FlowGame, dice: list[tuple[str, int, int]]) -> None:
    """The forum as it lies: (die name, face, quadrant), 0-based, as a scenario sets it."""
    names = [d.name for d in game.data.dice.dice]
    pool = forum.state(game).pool
    pool.slots = [names.index(name) for name, _, _ in dice]
    pool.faces = [face for _, face, _ in dice]
    pool.quadrants = [quadrant for _, _, quadrant in dice]
    game.invalidate()


def test_another_die_making_the_same_move_is_named(data) -> None:  # type: ignore[no-untyped-def]
    """Two grey dice showing wood offer one move (the same space for the same coins): the
    second die's crossing names the offered one instead of listing every option."""
    game = FlowGame(data, 2, 1)
    lay(game, [("grey_1", 0, 0), ("grey_2", 0, 0)])   # wood, wood; both free
    offered = [a for a in game.legal_actions(0) if isinstance(a, CrossSpace)]
    assert [(a.building, a.space, a.die) for a in offered] == [("warehouse", 0, "grey_1")]
    same = CrossSpace("warehouse", 0, 1, "grey_2", 0, 0)
    assert reason(game, 0, same) == ("the same crossing for the same coins is offered as "
                                     "'cross warehouse space 1 with the grey_1 die (pay 0)' "
                                     "(one action for each space and payment: choose that one)")


def test_what_is_no_dice_action_is_refused_as_such(data) -> None:  # type: ignore[no-untyped-def]
    game = FlowGame(data, 3, 1)
    for wrong in ("pass", None, {"pass": True}):
        assert reason(game, 0, wrong) == ("a dice action is a CrossSpace, BuildWonderStage, "
                                          f"Pass, TakeBonus or Decline, not {wrong!r}")


def test_a_crossing_without_a_die_takes_no_die_and_pays_its_cost(data) -> None:  # type: ignore[no-untyped-def]
    """A bonus's crossing (and a follow-up's) names no die, has no die price and pays the
    space's types lacking; a bonus that crosses nothing takes no crossing."""
    game = FlowGame(data, 2, 1)
    rng = random.Random(2)
    while game.decision().kind != "bonus":
        game.play({s: rng.choice(game.legal_actions(s)) for s in game.to_move()})
    seat = game.to_move()[0]
    bonus = next(a for a in game.legal_actions(seat)
                 if isinstance(a, TakeBonus) and a.cross is not None)
    cross = bonus.cross
    assert cross is not None
    name = bonus.bonus
    priced = TakeBonus(name, CrossSpace(cross.building, cross.space, None, "", 2,
                                        cross.shortfall))
    assert f"bonus {name} crosses a space without a die: it has no die price, not 2" == \
        reason(game, seat, priced)
    with_die = TakeBonus(name, CrossSpace(cross.building, cross.space, 0, "grey_1", 0,
                                          cross.shortfall))
    assert f"bonus {name} crosses a space without a die: no die is chosen" == \
        reason(game, seat, with_die)
    underpaid = TakeBonus(name, CrossSpace(cross.building, cross.space, None, "", 0,
                                           cross.shortfall + 1))
    assert "it costs" in reason(game, seat, underpaid)
    plain = next((a for a in game.legal_actions(seat)
                  if isinstance(a, TakeBonus) and a.cross is None), None)
    if plain is not None:
        assert f"bonus {plain.bonus} crosses no space (take it without a crossing)" == \
            reason(game, seat, TakeBonus(plain.bonus, cross))


def test_no_refusal_falls_back_to_the_list_of_options(data) -> None:  # type: ignore[no-untyped-def]
    """Over random games, in every kind of decision: hand-made actions of every kind
    (crossings of any building, space, slot, price and payment, with a die or without;
    stages; bonuses with and without a crossing; pass, decline) that are not offered are
    refused with a reason of their own, never the bare list of options."""
    dice = data.dice
    rng = random.Random(11)
    kinds: set[str] = set()
    checked = 0
    for seed in range(4):
        game = FlowGame(data, 2 + seed, seed)
        while not game.over:
            kinds.add(game.decision().kind)
            slots = len(forum.state(game).pool.slots)
            for seat in game.to_move():
                legal = game.legal_actions(seat)
                made: list[object] = [Pass(), Decline(),
                                      BuildWonderStage(rng.randrange(-1, 4), rng.randrange(6))]
                for _ in range(40):
                    b = rng.choice(dice.buildings)
                    slot = rng.choice([None, *range(-1, slots + 1)])
                    die = rng.choice(dice.dice).name if slot is not None else ""
                    cross = CrossSpace(b.key, rng.randrange(-1, len(b.spaces) + 1), slot, die,
                                       rng.randrange(4), rng.randrange(4))
                    made.append(cross)
                    bonus = rng.choice(dice.bonuses).name
                    made.append(TakeBonus(bonus, rng.choice([None, cross, CrossSpace(
                        b.key, rng.randrange(len(b.spaces)), None, "", 0, rng.randrange(3))])))
                for action in made:
                    if action in legal:
                        continue
                    why = reason(game, seat, action)
                    assert FALLBACK not in why and "the options are" not in why, (action, why)
                    checked += 1
            game.play({s: rng.choice(game.legal_actions(s)) for s in game.to_move()})
    assert kinds == {"turn", "bonus", "extra"} and checked > 2000
