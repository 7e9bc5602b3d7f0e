"""The draft loop's greedy bot values effects through the effect runtime: what a card or a
stage does on arrival (``now:`` effects, the owner's ``on …:`` triggers, coins neighbours
lose, shields gained once, choices asked) is what the runtime plays, not a second reading
of the effects (issue 11, item 4)."""

from __future__ import annotations

import pytest
from extra_cards import card_named, load_extra

from wonders.bots.greedy import COIN_VALUE, DraftGreedy, Evaluator, GreedyBot
from wonders.dsl.model import Card
from wonders.dsl.model import Game as GameData
from wonders.engine import registry
from wonders.engine.actions import Build, DestroyCard, Sell
from wonders.engine.game import Game
from wonders.engine.payment import FREE

# Extra cards, free, marked for 8 players (never dealt): the tests put them into hands.
EXTRA_CARDS = """\
kind: cards
set: extra
game: base
cards:
  - {name: Patron, age: 1, colour: blue, players: [8], cost: free,
     effect: "on red card: coins 5"}
  - {name: Drill, age: 1, colour: red, players: [8], cost: free, effect: "now: shields 2"}
  - {name: Guard, age: 1, colour: red, players: [8], cost: free, effect: shields 2}
  - {name: Post, age: 1, colour: red, players: [8], cost: free, effect: shields 1}
  - {name: Drillmaster, age: 1, colour: blue, players: [8], cost: free,
     effect: "on red card: shields 1"}
  - {name: Banner, age: 1, colour: red, players: [8], cost: free, effect: points 1}
  - {name: Plaque, age: 1, colour: blue, players: [8], cost: free, effect: points 2}
  - {name: Tax, age: 1, colour: yellow, players: [8], cost: free,
     effect: neighbours loses 3 coins}
  - {name: Marker, age: 1, colour: yellow, players: [8], cost: free,
     effect: points 1}
  - {name: Raider, age: 1, colour: red, players: [8], cost: free,
     effect: destroy brown card in left}
  - {name: Relic, age: 1, colour: blue, players: [8], cost: free, effect: points 1}
  - {name: Vandal, age: 1, colour: red, players: [8], cost: free,
     effect: destroy blue card in left}
"""
AGE_I_COINS = COIN_VALUE[0]


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> GameData:
    return load_extra(tmp_path_factory.mktemp("extra"), EXTRA_CARDS)


_card = card_named


def _game(data: GameData) -> Game:
    game = registry.new_game(data, 3, 7, sides="A")
    assert isinstance(game, Game) and game.decision().kind == "turn"
    return game


def _turn(game: Game, builds: dict[int, Card]) -> None:
    """Every seat builds the given card for free (put into its hand) or sells its first."""
    actions: dict[int, Build | Sell] = {}
    for seat in game.to_move():
        hand = game.hands[seat]
        if seat in builds:
            hand[0] = builds[seat]
            actions[seat] = Build(builds[seat], FREE)
        else:
            actions[seat] = Sell(hand[0])
    game.invalidate()
    game.play(actions)


def _offer(game: Game, seat: int, cards: list[Card]) -> list[Build]:
    """Put ``cards`` into ``seat``'s hand: the free builds of them."""
    game.hands[seat][:len(cards)] = cards
    game.invalidate()
    return [Build(card, FREE) for card in cards]


def _best_build(game: Game, seat: int, builds: list[Build]) -> Card:
    value, best = DraftGreedy(seat).rank(game, seat, builds)[0]
    assert isinstance(best, Build)
    return best.card


@pytest.mark.parametrize("fast", [False, True])
def test_a_trigger_built_earlier_pays_for_the_red_card(data: GameData, fast: bool) -> None:
    """With ``on red card: coins 5`` in the city, a red card is worth five coins more."""
    banner, plaque = _card(data, "Banner"), _card(data, "Plaque")
    plain = _game(data)
    _turn(plain, {0: plaque})  # the same game but for the blue card built
    patron = _game(data)
    _turn(patron, {0: _card(data, "Patron")})
    assert plain.cities[0].coins == patron.cities[0].coins
    gain = Evaluator(patron, 0, fast).card_value(banner) - \
        Evaluator(plain, 0, fast).card_value(banner)
    assert gain == pytest.approx(5 * AGE_I_COINS)
    assert Evaluator(patron, 0, fast).card_value(plaque) == \
        pytest.approx(Evaluator(plain, 0, fast).card_value(plaque))  # blue: nothing more


def test_the_greedy_bot_chooses_the_red_card_the_trigger_pays_for(data: GameData) -> None:
    banner, plaque = _card(data, "Banner"), _card(data, "Plaque")
    plain = _game(data)
    _turn(plain, {})
    assert _best_build(plain, 0, _offer(plain, 0, [banner, plaque])) is plaque  # 2 points > 1
    patron = _game(data)
    _turn(patron, {0: _card(data, "Patron")})
    assert _best_build(patron, 0, _offer(patron, 0, [banner, plaque])) is banner  # 1 + 5 coins


@pytest.mark.parametrize("fast", [False, True])
def test_neighbours_losing_coins_is_a_gain(data: GameData, fast: bool) -> None:
    """Each coin an opponent loses counts as a coin shared over the opponents (3 players:
    two neighbours losing 3 coins each are worth 3 coins); never more than they hold."""
    tax = _card(data, "Tax")
    game = _game(data)
    assert [c.coins for c in game.cities] == [3, 3, 3]
    assert Evaluator(game, 0, fast).card_value(tax) == pytest.approx(3 * AGE_I_COINS)
    game.cities[1].coins = 1
    assert Evaluator(game, 0, fast).card_value(tax) == pytest.approx(2 * AGE_I_COINS)
    game.cities[1].coins = game.cities[2].coins = 0
    assert Evaluator(game, 0, fast).card_value(tax) == 0.0


def test_the_greedy_bot_chooses_to_tax_its_neighbours(data: GameData) -> None:
    tax, marker = _card(data, "Tax"), _card(data, "Marker")
    game = _game(data)
    assert _best_build(game, 0, _offer(game, 0, [marker, tax])) is tax  # 3 coins > 1 point


@pytest.mark.parametrize("fast", [False, True])
def test_now_shields_are_valued_like_a_red_card_with_as_many(data: GameData, fast: bool) -> None:
    """``now: shields 2`` counts in every later battle (a lasting bonus): worth what a card
    with ``shields 2`` is worth, and something."""
    drill, guard = _card(data, "Drill"), _card(data, "Guard")
    game = _game(data)
    _turn(game, {})
    evaluator = Evaluator(game, 0, fast)
    assert evaluator.card_value(guard) > 1.0
    assert evaluator.card_value(drill) == pytest.approx(evaluator.card_value(guard))
    _turn(game, {0: drill})  # built, both count against the next shields alike
    assert game.cities[0].shields() == 2
    later = Evaluator(game, 0, fast)
    assert later.card_value(drill) == pytest.approx(later.card_value(guard))
    assert later.card_value(guard) != pytest.approx(evaluator.card_value(guard))


@pytest.mark.parametrize("fast", [False, True])
def test_shields_a_trigger_gives_are_valued_as_shields(data: GameData, fast: bool) -> None:
    """With ``on red card: shields 1`` in the city, a red card brings one shield more (gained
    once, a lasting bonus): worth what a red card with ``shields 1`` is worth."""
    banner, post = _card(data, "Banner"), _card(data, "Post")
    plain = _game(data)
    _turn(plain, {0: _card(data, "Plaque")})
    trained = _game(data)
    _turn(trained, {0: _card(data, "Drillmaster")})
    assert Evaluator(trained, 0, fast).card_value(banner) == pytest.approx(
        Evaluator(plain, 0, fast).card_value(banner) + Evaluator(plain, 0, fast).card_value(post))
    # and the promise of shields is not shields now
    assert Evaluator(plain, 0, fast).card_value(_card(data, "Drillmaster")) == 0.0


def test_the_greedy_bot_prefers_shields_gained_once_to_a_point(data: GameData) -> None:
    drill, banner = _card(data, "Drill"), _card(data, "Banner")
    game = _game(data)
    _turn(game, {})
    guard = _card(data, "Guard")
    assert _best_build(game, 0, _offer(game, 0, [banner, guard])) is guard
    assert _best_build(game, 0, _offer(game, 0, [banner, drill])) is drill


def test_a_destroy_with_something_to_destroy_is_worth_a_little(data: GameData) -> None:
    raider, marker = _card(data, "Raider"), _card(data, "Marker")
    game = _game(data)
    assert Evaluator(game, 0).card_value(raider) == 0.0  # nothing brown on the left yet
    brown = next(c for c in data.cards if c.colour == "brown" and c.age == 1 and c.cost.is_free)
    _turn(game, {1: brown})  # seat 1 is seat 0's left neighbour
    assert Evaluator(game, 0).card_value(raider) > 0.0
    assert _best_build(game, 0, _offer(game, 0, [marker, raider])) is raider


def test_the_greedy_bot_destroys_the_card_worth_most_to_its_owner(data: GameData) -> None:
    """The destroy decision the runtime asks for is the bot's to take: of the left
    neighbour's two blue cards it destroys the one worth more points."""
    plaque, relic = _card(data, "Plaque"), _card(data, "Relic")
    game = _game(data)
    _turn(game, {1: plaque})
    _turn(game, {1: relic})
    _turn(game, {0: _card(data, "Vandal")})
    assert game.decision().kind == "destroy" and game.to_move() == [0]
    assert {str(a) for a in game.legal_actions(0)} == {str(DestroyCard(plaque, 1)),
                                                        str(DestroyCard(relic, 1))}
    for fast in (False, True):
        evaluator = Evaluator(game, 0, fast)
        assert evaluator.value(DestroyCard(plaque, 1)) > evaluator.value(DestroyCard(relic, 1)) > 0
    assert GreedyBot(0).choose(game, 0) == DestroyCard(plaque, 1)
