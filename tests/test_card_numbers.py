"""Card numbers (wonders/engine/structure_rules.card_number): the card-structure loop's shared lists
are indexed by them, so they must be unique in the process, also across data sets whose
games share trading terms."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from wonders.dsl.loader import load_game
from wonders.dsl.model import Game as GameData
from wonders.engine.registry import new_game
from wonders.engine.structure_rules import AGE_FROM, AGE_TO, card_number, structure_rules


def _play(data: GameData, seed: int) -> tuple[Any, Any, set[int]]:
    """A random game: its history, score sheet and the ids of the cards it offered."""
    game = new_game(data, 2, seed)
    rng = random.Random(seed)
    offered: set[int] = set()
    while not game.over:
        moves = {}
        for seat in game.to_move():
            legal = game.legal_actions(seat)
            offered.update(id(a.card) for a in legal if getattr(a, "card", None) is not None)
            moves[seat] = rng.choice(legal)
        game.play(moves)
    return game.history, game.score_sheet().to_json(), offered


def test_numbers_are_unique_and_each_age_is_one_block() -> None:
    first, second = load_game([], "duel"), load_game([], "duel")
    structure_rules(first)
    structure_rules(second)
    numbers = [c.number for data in (first, second) for c in data.deck_cards()]
    assert min(numbers) >= 0 and len(set(numbers)) == len(numbers)
    for data in (first, second):
        for age in {c.age for c in data.deck_cards()}:
            block = sorted(c.number for c in data.deck_cards() if c.age == age)
            assert block == list(range(block[0], block[-1] + 1))
            assert {(AGE_FROM[n], AGE_TO[n]) for n in block} == {(block[0], block[-1] + 1)}


def test_a_card_made_by_replace_gets_a_number_of_its_own() -> None:
    data = load_game([], "duel")
    card = data.deck_cards()[0]
    number = card_number(card)
    copy = dataclasses.replace(card, name=card.name + " copy")
    assert copy.number == -1
    assert card_number(copy) not in (-1, number) and card_number(card) == number
    assert AGE_TO[copy.number] == copy.number + 1


def test_two_data_sets_sharing_terms_offer_their_own_cards() -> None:
    """Two loads of one rule set share trading terms (same bank price and resources):
    each game must still be offered its own data set's card objects, and play the same."""
    first, second = load_game([], "duel"), load_game([], "duel")
    mine = {id(c) for c in first.cards}
    theirs = {id(c) for c in second.cards}
    for seed in range(4):
        history, sheet, offered = _play(first, seed)
        other_history, other_sheet, other_offered = _play(second, seed)
        assert offered <= mine and other_offered <= theirs
        assert sheet == other_sheet
        assert [str(h) for h in history] == [str(h) for h in other_history]
