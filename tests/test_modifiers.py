"""Modifiers inside an effect kind played over whole games (issue 28): what a scenario's
single position cannot show, because it spans ages.

The position-sized proofs are tests/scenarios/modifiers.yaml (on the test variant
tests/scenarios/variants/modifiers, base cards replaced by name); the refusals and
warnings (M906-M908) are cases of tests/test_error_codes.py.
"""

from __future__ import annotations

import functools
from pathlib import Path

from extra_cards import card_named

from wonders.dsl.loader import load_game
from wonders.dsl.model import Game as GameData
from wonders.engine import registry
from wonders.engine.actions import FREE_BUILD, Action, Build, Sell
from wonders.engine.payment import FREE

VARIANT = Path(__file__).parent / "scenarios" / "variants" / "modifiers"


@functools.cache
def _variant() -> GameData:
    return load_game([], str(VARIANT))


def _last_card_ages(built: list[str], players: int = 3) -> list[tuple[int, list[int]]]:
    """Plays a game in which seat 0 builds ``built`` (free, on its first turns) and every
    seat otherwise sells the first card of its hand: the (age, seats) of each last-card
    decision."""
    data = _variant()
    game = registry.new_game(data, players, 1, sides="A")
    seen: list[tuple[int, list[int]]] = []
    to_build = [card_named(data, name) for name in built]
    while not game.over:
        decision = game.decision()
        if decision.kind == "last_card":
            seen.append((game.age, sorted(decision.seats)))
        actions: dict[int, Action] = {}
        for seat in game.to_move():
            hand = game.hands[seat]
            if seat == 0 and to_build and decision.kind == "turn":
                hand[0] = to_build.pop(0)
                game.invalidate()
                actions[seat] = Build(hand[0], FREE)
            else:
                actions[seat] = Sell(hand[0])
        game.play(actions)
    return seen


def test_play_last_card_once_acts_in_the_first_age_only() -> None:
    """`ability play_last_card once` ("once"): the last card of Age I, then never again
    (before issue 28 it acted in every age, as without `once`)."""
    assert _last_card_ages(["Tavern"]) == [(1, [0])]


def test_play_last_card_once_per_age_acts_in_every_age() -> None:
    assert _last_card_ages(["Bazar"]) == [(1, [0]), (2, [0]), (3, [0])]


def test_without_the_ability_nobody_plays_a_last_card() -> None:
    assert _last_card_ages([]) == []


FREE_BUILDERS = """\
kind: cards
set: extra
game: base
cards:
  - {name: Patron, age: 1, colour: blue, players: [8], cost: free, effect: ability free_build}
  - {name: Patron Once, age: 1, colour: blue, players: [8], cost: free,
     effect: ability free_build once}
  - {name: Patron Yearly, age: 1, colour: blue, players: [8], cost: free,
     effect: ability free_build once per age}
"""


def _free_builds(data: GameData, source: str) -> dict[int, int]:
    """A 3-player game in which seat 0 builds ``source`` on its first turn, then builds
    free whenever the free-build power lets it (a card that costs something), else sells,
    as every other seat does: the free builds per age."""
    game = registry.new_game(data, 3, 2, sides="A")
    used: dict[int, int] = {1: 0, 2: 0, 3: 0}
    first = True
    while not game.over:
        decision = game.decision()
        actions: dict[int, Action] = {}
        for seat in game.to_move():
            hand = game.hands[seat]
            if seat == 0 and first and decision.kind == "turn":
                hand[0] = card_named(data, source)
                game.invalidate()
                actions[seat] = Build(hand[0], FREE)
                first = False
                continue
            free = [a for a in game.legal_actions(seat) if isinstance(a, Build)
                    and a.method == FREE_BUILD] if seat == 0 else []
            if free:
                used[game.age] += 1
            actions[seat] = free[0] if free else Sell(hand[0])
        game.play(actions)
    return used


def test_free_build_frequencies_over_a_game(tmp_path: Path) -> None:
    """`ability free_build` every turn it is of use; `once` one card in the game; `once
    per age` one card each age (the descriptions: "ability: free build", "(once)",
    "(once per age)")."""
    from extra_cards import load_extra

    data = load_extra(tmp_path, FREE_BUILDERS)
    unlimited = _free_builds(data, "Patron")
    assert all(n >= 3 for n in unlimited.values()), unlimited  # most turns of every age
    assert _free_builds(data, "Patron Once") == {1: 1, 2: 0, 3: 0}
    assert _free_builds(data, "Patron Yearly") == {1: 1, 2: 1, 3: 1}
