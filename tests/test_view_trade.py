"""The trade prices in ``view(seat)`` (``view["trade"]``) are the engine's own.

The table's city panels show what a seat may buy and at what price from these keys, so
they must be the prices the payment search uses: a trading card of the seat lowers the
price it pays the neighbours its effect names (and no other), a neighbour's production
for sale is what the view offers, and in the structure loop the bank price of a resource
rises with the rival's production of it.  Cards are picked by their effects, never by name.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from wonders import load_game
from wonders.dsl import effects as fx
from wonders.dsl.model import Card
from wonders.dsl.model import Game as GameData
from wonders.engine import registry
from wonders.engine.flow import FlowGame
from wonders.engine.game import Game
from wonders.engine.mechanisms import bank as bank_part


@pytest.fixture(scope="module")
def base() -> GameData:
    return load_game("base")


@pytest.fixture(scope="module")
def duel() -> GameData:
    return load_game("duel")


def _ongoing(card: Card, kind: type) -> list[Any]:
    return [c.effect for c in card.effects.clauses
            if c.timing is fx.Timing.ONGOING and isinstance(c.effect, kind)]


def _trading_card(data: GameData, place: str) -> tuple[Card, fx.TradePrice]:
    """A card whose only effect lowers the price of buying from ``place``."""
    for card in data.cards:
        found = _ongoing(card, fx.TradePrice)
        if len(found) == 1 and len(card.effects.clauses) == 1 and found[0].places == (place,):
            return card, found[0]
    pytest.skip(f"no card of the game lowers the price of buying from {place} alone")


def _producer(data: GameData, colour: str) -> tuple[Card, str, int]:
    """A card of ``colour`` whose only effect produces one fixed resource."""
    for card in data.cards:
        found = _ongoing(card, fx.Produce)
        if (card.colour == colour and len(found) == 1 and len(card.effects.clauses) == 1
                and len(found[0].resources) == 1 and found[0].buyable):
            return card, found[0].resources[0], found[0].amount
    pytest.skip(f"no {colour} card produces one fixed resource")


def _draft(data: GameData) -> Game:
    game = registry.new_game(data, 3, 11, sides="A")
    assert isinstance(game, Game)
    return game


def test_draft_view_prices_are_the_printed_price_without_trading_cards(base: GameData) -> None:
    game = _draft(base)
    trade = game.view(0)["trade"]
    price = game.params.trade_price
    assert set(trade) == {"left", "right"}
    assert {trade["left"]["seat"], trade["right"]["seat"]} == {1, 2}
    for side in ("left", "right"):
        assert trade[side]["prices"] == {r: price for r in game.params.resources}


def test_a_trading_card_lowers_the_prices_it_names_and_no_others(base: GameData) -> None:
    for place in ("left", "right"):
        game = _draft(base)
        card, effect = _trading_card(base, place)
        game.cities[0].add_card(card)
        game.invalidate()
        trade = game.view(0)["trade"]
        other = "right" if place == "left" else "left"
        for resource in game.params.resources:
            lowered = resource in effect.resources
            assert trade[place]["prices"][resource] == (
                effect.price if lowered else game.params.trade_price), (place, resource)
            assert trade[other]["prices"][resource] == game.params.trade_price
        assert any(trade[place]["prices"][r] < game.params.trade_price for r in effect.resources)
        # the engine's own market, as the payment search sees it
        market = game.market(0)
        for resource in game.params.resources:
            assert trade["left"]["prices"][resource] == market.price("left", resource)
            assert trade["right"]["prices"][resource] == market.price("right", resource)
        # another seat's view is its own: the card is seat 0's
        assert all(p == game.params.trade_price
                   for side in ("left", "right")
                   for p in game.view(1)["trade"][side]["prices"].values())


def test_the_offers_are_what_each_neighbour_makes_for_sale(base: GameData) -> None:
    game = _draft(base)
    trade = game.view(0)["trade"]
    card, resource, amount = _producer(base, "brown")
    for side in ("left", "right"):
        neighbour = trade[side]["seat"]
        before = Counter(r for unit in trade[side]["offers"] if len(unit) == 1 for r in unit)
        game.cities[neighbour].add_card(card)
        game.invalidate()
        after_trade = game.view(0)["trade"][side]
        after = Counter(r for unit in after_trade["offers"] if len(unit) == 1 for r in unit)
        assert after - before == Counter({resource: amount})
        sale = game.market(0).left if side == "left" else game.market(0).right
        assert Counter(dict(sale.fixed)) == after
        assert sorted(tuple(u) for u in after_trade["offers"] if len(u) > 1) == \
            sorted(sale.choices)


def test_a_seat_pays_a_neighbour_the_price_in_its_view(base: GameData) -> None:
    """A payment of a legal build, bought from one neighbour, is units times the view's
    price for that neighbour: the prices shown are the ones paid."""
    checked = 0
    for seed in range(12):
        game = registry.new_game(base, 3, seed, sides="A")
        assert isinstance(game, Game)
        seat = 0
        card, _effect = _trading_card(base, "left")
        game.cities[seat].add_card(card)
        game.cities[seat].coins = 20
        game.invalidate()
        trade = game.view(seat)["trade"]
        for action in game.legal_actions(seat):
            record = action.to_json()
            payment = record.get("payment")
            card_built = getattr(action, "card", None)
            if not isinstance(payment, dict) or not isinstance(card_built, Card):
                continue
            if record.get("action") != "build" or len(card_built.cost.resources) != 1:
                continue
            resource, units = card_built.cost.resources[0]
            mine = dict(game.cities[seat].production(game.params)[0].fixed).get(resource, 0)
            if game.cities[seat].production(game.params)[0].choices:
                continue
            missing = units - mine
            for side, other in (("left", "right"), ("right", "left")):
                if payment.get(side) and not payment.get(other) and missing > 0:
                    assert payment[side] == missing * trade[side]["prices"][resource]
                    checked += 1
    assert checked, "no build bought from one neighbour: the test checked nothing"


def test_duel_bank_prices_rise_with_the_rivals_production(duel: GameData) -> None:
    game = registry.new_game(duel, 2, 3)
    assert isinstance(game, FlowGame)
    before = game.view(0)["trade"]["bank"]["prices"]
    assert before == bank_part.state(game).prices(game, 0)
    card, resource, amount = _producer(duel, "brown")
    game.cities[1].add_card(card)
    game.invalidate()
    after = game.view(0)["trade"]["bank"]["prices"]
    assert after == bank_part.state(game).prices(game, 0)
    assert after[resource] == before[resource] + amount
    assert {r: p for r, p in after.items() if r != resource} == \
        {r: p for r, p in before.items() if r != resource}
    # the rival's own prices do not rise with its own production
    assert game.view(1)["trade"]["bank"]["prices"][resource] == before[resource]


def test_duel_a_fixed_price_card_sets_the_bank_price(duel: GameData) -> None:
    game = registry.new_game(duel, 2, 3)
    assert isinstance(game, FlowGame)
    producer, resource, _ = _producer(duel, "brown")
    for _ in range(3):
        game.cities[1].add_card(producer)
    fixing = next((c for c in duel.cards
                   if any(not e.places and resource in e.resources
                          for e in _ongoing(c, fx.TradePrice))), None)
    if fixing is None:
        pytest.skip(f"no card fixes the price of {resource}")
    game.invalidate()
    assert game.view(0)["trade"]["bank"]["prices"][resource] > 2
    game.cities[0].add_card(fixing)
    game.invalidate()
    price = next(e.price for e in _ongoing(fixing, fx.TradePrice) if resource in e.resources)
    assert game.view(0)["trade"]["bank"]["prices"][resource] == price == bank_part.state(game).prices(game, 0)[resource]
