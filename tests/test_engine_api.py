"""The Python interface: setup, decisions, illegal actions named, hidden information."""

from __future__ import annotations

import random

import pytest

from wonders.dsl.loader import load_game
from wonders.engine import Build, Game, IllegalActionError, Payment, RuleError, Sell, Skip
from wonders.engine.actions import ChooseSide

DATA = load_game(game="base")


def test_setup_follows_the_rules() -> None:
    game = Game(DATA, 5, 42)
    # the base rules let each player choose a side first; Age I is dealt after that
    assert game.decision().kind == "side" and game.to_move() == [0, 1, 2, 3, 4]
    assert game.age == 0 and all(not hand for hand in game.hands)
    assert all(game.legal_actions(s) == [ChooseSide("A"), ChooseSide("B")] for s in range(5))
    game.play({s: ChooseSide("B" if s % 2 else "A") for s in range(5)})
    assert [city.side.side for city in game.cities] == ["A", "B", "A", "B", "A"]
    assert game.history[0]["phase"] == "side"
    assert [len(hand) for hand in game.hands] == [7] * 5
    assert all(city.coins == 3 for city in game.cities)
    assert len({city.wonder.name for city in game.cities}) == 5
    assert game.to_move() == [0, 1, 2, 3, 4]
    assert game.age == 1 and game.turn == 1


def test_third_age_holds_players_plus_two_guilds() -> None:
    game = Game(DATA, 4, 1, sides="random")
    deck = game.decks.deck(3, game.players, game.generator())
    assert len(deck) == 28
    assert sum(1 for card in deck if card.colour == "purple") == 6


def test_player_counts_and_sides_are_checked() -> None:
    with pytest.raises(RuleError, match="3–7 players"):
        Game(DATA, 2, 0)
    with pytest.raises(RuleError, match="no side 'C'"):
        Game(DATA, 3, 0, sides=["A", "B", "C"])
    sides = Game(DATA, 3, 0, sides="B")
    assert all(city.side.side == "B" for city in sides.cities)
    assert sides.decision().kind == "turn"  # a table that fixes the sides asks nobody
    mixed = Game(DATA, 3, 0, sides=["night", "choose", "Day"])
    assert [c.side.side for c in mixed.cities][::2] == ["B", "A"] and mixed.to_move() == [1]
    with pytest.raises(IllegalActionError, match="no side 'C'"):
        mixed.check(1, ChooseSide("C"))
    with pytest.raises(IllegalActionError, match="choosing the side"):
        mixed.check(1, Skip())
    with pytest.raises(RuleError, match=r"sides: A \(Day\), B \(Night\)"):
        Game(DATA, 3, 0, sides="dusk")


def test_illegal_actions_say_why() -> None:
    game = Game(DATA, 3, 7, sides="random")
    other_card = game.hands[1][0]
    with pytest.raises(IllegalActionError, match="not in the hand"):
        game.check(0, Sell(other_card))
    card = game.hands[0][0]
    with pytest.raises(IllegalActionError, match="only possible when building from the discard"):
        game.check(0, Skip())
    wrong = Build(card, Payment(left=9, right=9, bank=card.cost.coins))
    with pytest.raises(IllegalActionError):
        game.check(0, wrong)
    with pytest.raises(RuleError, match="missing"):
        game.play({0: Sell(card)})


def test_view_shows_only_what_the_player_sees() -> None:
    game = Game(DATA, 4, 3, sides="random")
    view = game.view(2)
    assert view["hand"] == [c.name for c in game.hands[2]]
    assert view["hand_sizes"] == [7, 7, 7, 7]
    text = repr(view)
    assert "hands" not in view
    assert view["discard_cards"] is None
    assert len(view["cities"]) == 4 and "coins" in view["cities"][0]
    assert "stage_cards" not in text  # cards tucked under stages are face down


def test_determinize_keeps_what_the_player_knows() -> None:
    game = Game(DATA, 4, 3, sides="random")
    rng = random.Random(1)
    sample = game.determinize(0, rng)
    assert sample.hands[0] == game.hands[0]
    pooled = sorted(c.name for s in (1, 2, 3) for c in game.hands[s])
    assert sorted(c.name for s in (1, 2, 3) for c in sample.hands[s]) == pooled
    assert [len(h) for h in sample.hands] == [len(h) for h in game.hands]
    assert any(sample.hands[s] != game.hands[s] for s in (1, 2, 3))
    sample.play({s: sample.legal_actions(s)[-1] for s in sample.to_move()})
    assert game.turn == 1 and sample.turn == 2  # the real game is untouched


def test_clone_is_independent() -> None:
    game = Game(DATA, 3, 9, sides="random")
    copy = game.clone()
    copy.play({s: copy.legal_actions(s)[-1] for s in copy.to_move()})
    assert game.turn == 1 and copy.turn == 2
    assert all(len(h) == 7 for h in game.hands)


def test_legal_actions_carry_every_pareto_payment() -> None:
    game = Game(DATA, 3, 2, sides="random")
    for seat in game.to_move():
        for action in game.legal_actions(seat):
            if isinstance(action, Build) and action.method == "pay":
                others = [a for a in game.legal_actions(seat) if isinstance(a, Build)
                          and a.card is action.card and a.method == "pay" and a is not action]
                for other in others:
                    dominated = (other.payment.left <= action.payment.left
                                 and other.payment.right <= action.payment.right)
                    assert not dominated, (action, other)


def test_determinize_hides_the_discard_pile_but_not_own_sales() -> None:
    game = Game(DATA, 3, 5, sides="random")
    sold = game.hands[0][0]
    moves = {0: Sell(sold)}
    moves.update({s: Sell(game.hands[s][0]) for s in (1, 2)})
    game.play(moves)
    others_sold = {c.name for c in game.discard} - {sold.name}
    hidden = {c.name for s in (1, 2) for c in game.hands[s]} | others_sold
    seen_in_discard: set[str] = set()
    for seed in range(30):
        sample = game.determinize(0, random.Random(seed))
        assert sold in sample.discard  # the seat knows its own sale
        assert len(sample.discard) == 3
        seen_in_discard |= {c.name for c in sample.discard if c is not sold}
        assert {c.name for c in sample.discard if c is not sold} <= hidden
    assert seen_in_discard - others_sold  # other cards do show up there: it is resampled


def test_determinize_does_not_depend_on_where_hidden_cards_are() -> None:
    game = Game(DATA, 4, 8, sides="random")
    swapped = game.clone()
    swapped.hands[1], swapped.hands[2] = swapped.hands[2], swapped.hands[1]
    a = game.determinize(0, random.Random(3))
    b = swapped.determinize(0, random.Random(3))
    assert [[c.name for c in h] for h in a.hands] == [[c.name for c in h] for h in b.hands]


def test_hot_path_matches_the_per_card_rules() -> None:
    """legal_actions inlines the build and stage rules for speed; check() uses the
    per-card versions. Over random positions both must give the same actions."""
    for seed in range(25):
        game = Game(DATA, 3 + seed % 5, seed, sides="random")
        rng = random.Random(seed)
        while not game.over:
            for seat in game.to_move():
                if game.phase.value == "discard_build":
                    continue
                expected: set[object] = set()
                for card in {id(c): c for c in game.hands[seat]}.values():
                    expected.update(game.build_options(seat, card))
                    expected.update(game.stage_options(seat, card))
                    expected.add(Sell(card))
                assert set(game.legal_actions(seat)) == expected
            game.play({s: rng.choice(game.legal_actions(s)) for s in game.to_move()})
