"""A reserve of cards drafted before the first round and played one at each round's start.

``reserve: {colour: C, hand: N, pass: left|right, sold: discard|out}`` (Leaders): the cards
of colour C are a second deck, never in a round's deck.  Set-up deals each seat ``hand``
of them; each seat keeps one and passes the rest on, until every seat holds ``hand``
(the reserve draft).  Each round then starts with a reserve turn: the kept cards are the
hands, the round's own hands wait face down, and every seat holding a kept card plays one
as a turn's card.  Effects draw more (``draw N reserve cards``, from the cards never
dealt) and build them (``build N reserve cards``).  A reserve card sold goes on the
discard pile, or out of the game with ``sold: out`` (only its seller knows it).
"""

from __future__ import annotations

import random
from typing import Final, Iterable

from wonders.dsl.model import Card
from wonders.dsl.model import Game as GameData
from wonders.dsl.rules_model import Reserve
from wonders.engine.actions import Action, Keep
from wonders.engine.flow_state import Part
from wonders.engine.mechanisms.hands import passed as passed_hands
from wonders.engine.randomness import shuffle

NAME: Final = "card_reserve"
SOLD_OUT: Final = "out"


class CardReserve(Part):
    """The reserve: each seat's ``kept`` cards, the cards never dealt (``unused``, face
    down in their shuffled order: what draws take), the round's hands ``waiting`` face
    down during a reserve turn, and each seat's cards sold ``out`` of the game."""

    def __init__(self, rules: Reserve, players: int) -> None:
        self.rules = rules
        self.kept: list[list[Card]] = [[] for _ in range(players)]
        self.unused: list[Card] = []
        self.waiting: list[list[Card]] = [[] for _ in range(players)]
        self.out: list[list[Card]] = [[] for _ in range(players)]

    def copy(self) -> CardReserve:
        other = CardReserve(self.rules, 0)
        other.kept = [list(kept) for kept in self.kept]
        other.unused = list(self.unused)
        other.waiting = [list(hand) for hand in self.waiting]
        other.out = [list(sold) for sold in self.out]
        return other

    @property
    def active(self) -> bool:
        """Whether the rule set has a reserve at all."""
        return self.rules.colour is not None

    def deal(self, data: GameData, generator: random.Random) -> list[list[Card]]:
        """Set-up: the reserve draft's hands (the rest of the reserve deck is unused)."""
        players = len(self.kept)
        cards = sorted(data.reserve_cards(), key=lambda c: c.name)
        shuffle(generator, cards)
        size = self.rules.hand
        self.unused = cards[size * players:]
        return [cards[i * size:(i + 1) * size] for i in range(players)]

    def pick(self, hands: list[list[Card]], picks: Iterable[tuple[int, Keep]]
             ) -> list[list[Card]] | None:
        """Each seat keeps its pick and passes the rest of its hand on: the hands passed,
        or None when the draft is over (the last card of each hand kept by the seat it is
        passed to)."""
        for seat, action in picks:
            hands[seat].remove(action.card)
            self.kept[seat].append(action.card)
        passed = passed_hands(hands, self.rules.pass_to)
        if max(len(hand) for hand in passed) > 1:
            return passed
        for seat, hand in enumerate(passed):
            self.kept[seat].extend(hand)
        return None

    def start_turn(self, hands: list[list[Card]]) -> list[list[Card]]:
        """A reserve turn: the kept cards become the hands, the round's ``hands`` wait."""
        self.waiting, played = hands, self.kept
        self.kept = [[] for _ in hands]
        return played

    def end_turn(self, hands: list[list[Card]]) -> list[list[Card]]:
        """After a reserve turn: the cards not played are kept, the round's hands taken up."""
        self.kept, waiting = hands, self.waiting
        self.waiting = [[] for _ in hands]
        return waiting

    def sold_out(self, card: Card) -> bool:
        """Whether ``card``, sold, leaves the game rather than going on the discard pile
        (``sold: out``, Leaders' L7)."""
        rules = self.rules
        return rules.sold == SOLD_OUT and rules.colour is not None and \
            card.colour == rules.colour

    def draw(self, hand: list[Card], count: int) -> None:
        """``draw N reserve cards``: the first ``count`` unused cards join ``hand``, as many
        as are left."""
        hand.extend(self.unused[:count])
        del self.unused[:count]


def keep_options(hand: list[Card]) -> list[Action]:
    """A reserve draft's choices: keep one card of the hand (copies once)."""
    found: list[Action] = []
    seen: set[int] = set()
    for card in hand:
        if id(card) not in seen:
            seen.add(id(card))
            found.append(Keep(card))
    return found
