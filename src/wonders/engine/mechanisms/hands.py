"""Hands passed around the table: each age's deck dealt into hands, passed after each turn.

``offer: {mechanism: draft}``: an age's deck is its cards for the table's size (``copies``)
plus the cards drawn at random from a pool (``ages.draw``: Age III's guilds), shuffled and
dealt into hands of ``ages.hand`` cards; after each turn every hand passes to the left or
the right neighbour (``ages.pass``, by age).  When the hands hold one card each, the last
card is discarded, or played by the seats whose rule set or abilities say so
(``ages.last_card: play``, ``ability play_last_card``).
"""

from __future__ import annotations

import random
from typing import Final

from wonders.dsl.model import Card
from wonders.dsl.model import Game as GameData
from wonders.engine.city import City
from wonders.engine.errors import RuleError
from wonders.engine.randomness import sample
from wonders.engine.rules import Parameters
from wonders.engine.table import left_of, right_of

LAST_CARD_ABILITY: Final = "play_last_card"


class AgeDecks:
    """The cards of each age and, per age and table size, those always dealt: worked out
    once per data set (games share one)."""

    def __init__(self, data: GameData, params: Parameters) -> None:
        self.data = data
        self.params = params
        by_age: dict[int, list[Card]] = {}
        for card in data.deck_cards():
            by_age.setdefault(card.age, []).append(card)
        self.cards: dict[int, tuple[Card, ...]] = {age: tuple(cards)
                                                   for age, cards in by_age.items()}
        self._dealt: dict[tuple[int, int], tuple[Card, ...]] = {}

    def deck(self, age: int, players: int, generator: random.Random) -> list[Card]:
        """``age``'s deck for ``players``, unshuffled: the cards dealt at that size, then
        each pool's draw (``ages.draw``, from ``generator``)."""
        cards = self.cards.get(age, ())
        dealt = self._dealt.get((age, players))
        if dealt is None:
            dealt = tuple(c for c in cards if not c.drawn for _ in range(c.copies(players)))
            self._dealt[(age, players)] = dealt
        deck = list(dealt)
        for pool in self.data.rules.draws:
            if pool.age != age:
                continue
            candidates = [c for c in cards if c.drawn and c.colour == pool.colour]
            count = pool.count.evaluate({"players": players})
            deck += sample(generator, candidates, count)
        wanted = self.params.hand_in(age) * players
        if len(deck) != wanted:
            raise RuleError(f"age {age} has {len(deck)} cards for {players} players, "
                            f"needs {wanted}")
        return deck


def deal(deck: list[Card], players: int, hand: int) -> list[list[Card]]:
    """``deck`` (shuffled) dealt into a hand of ``hand`` cards per seat, in seat order."""
    return [deck[i * hand:(i + 1) * hand] for i in range(players)]


def passed(hands: list[list[Card]], direction: str) -> list[list[Card]]:
    """Every hand passed to the seat on its ``left`` or ``right``."""
    players = len(hands)
    found: list[list[Card]] = [[] for _ in range(players)]
    for seat, hand in enumerate(hands):
        target = left_of(seat, players) if direction == "left" else right_of(seat, players)
        found[target] = hand
    return found


def plays_last_card(city: City, uses: list[int], seat: int) -> bool:
    """Whether ``city``'s abilities let it play its last card of this age: one without a
    limit (``once per age`` is every age: there is one last card an age), else an unused
    ``once`` (whose use this takes in ``uses``, per seat: the card must then be played)."""
    if not city.has_ability(LAST_CARD_ABILITY):
        return False
    once = 0
    for ability in city.abilities():
        if ability.name == LAST_CARD_ABILITY:
            if ability.once_per != "game":
                return True
            once += 1
    if once > uses[seat]:
        uses[seat] += 1
        return True
    return False
