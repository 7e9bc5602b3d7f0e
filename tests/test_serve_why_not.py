"""A red cross's "why not" on the table page tells the truth, checked against the engine on
every turn of a few seeded games (base with 3 players, Duel): a card (or the next wonder
stage, or a drafted Duel wonder) said to need N coins becomes buildable with exactly N coins and not with N - 1; one
said to lack resources stays unbuildable however many coins the city holds; a card said to
be built already is in the city.  And a sale's coins are what selling gives."""

from __future__ import annotations

import random
import re

import pytest

from wonders.engine.actions import Build, BuildStage, BuildWonder, Sell
from wonders.engine.contract import GameState
from wonders.engine.registry import new_game
from wonders.serve import present
from wonders.serve.tables import load_source

COINS = re.compile(r"needs (\d+) coins? \((.*)\); you have (\d+)$")


def buildable(game: GameState, seat: int, name: str | None, coins: int,
              wonder: bool = False) -> bool:
    """Whether the card ``name`` (None: the next wonder stage; ``wonder``: the drafted
    wonder of that name) could be built with ``coins``."""
    clone = game.clone()
    clone.cities[seat].coins = coins
    clone.invalidate()
    if wonder:
        return any(isinstance(a, BuildWonder) and a.wonder.name == name
                   for a in clone.legal_actions(seat))
    return any(isinstance(a, BuildStage) if name is None else
               isinstance(a, Build) and a.card.name == name for a in clone.legal_actions(seat))


def check_why(game: GameState, seat: int, name: str | None, why: str, said: dict[str, int],
              wonder: bool = False) -> None:
    """One why-not against the engine (``name`` None: the next wonder stage's; ``wonder``:
    the drafted wonder ``name``'s)."""
    held = game.cities[seat].coins
    found = COINS.match(why)
    if found:
        need = int(found[1])
        assert int(found[3]) == held < need, why
        parts = [int(n) for n in re.findall(r"(\d+) to the", found[2])]
        assert sum(parts) == need, why
        assert buildable(game, seat, name, need, wonder), why
        assert not buildable(game, seat, name, need - 1, wonder), why
        said["coins"] += 1
    elif why.endswith("already"):
        assert name in {c.name for c in game.cities[seat].built}, why
        said["built"] += 1
    else:
        assert why.startswith(("needs", "your city and your neighbours")), why
        assert not buildable(game, seat, name, held + 10 ** 6, wonder), why
        said["resources"] += 1


@pytest.mark.parametrize("game_name,players", [("base", 3), ("duel", 2)])
def test_every_red_cross_says_a_true_why_not(game_name: str, players: int) -> None:
    data = load_source(game_name).data
    said = {"coins": 0, "resources": 0, "built": 0, "stage": 0, "wonder": 0}
    for seed in range(3):
        game = new_game(data, players, seed)
        rng = random.Random(seed)
        while not game.over:
            for seat in game.to_move():
                if game.decision().kind != "turn":
                    continue
                described = present.actions_for(game, seat)
                cards = {a.card.name: a.card for a in game.legal_actions(seat)
                         if isinstance(a, Sell)}
                for name, slot in described["cards"].items():
                    mark = slot.get("indicator") or {}
                    if mark.get("mark") != "cannot":
                        assert "why" not in mark
                        continue
                    why = mark["why"]
                    check_why(game, seat, name, why, said)
                    assert present.why_not(game, seat, cards[name], game.view(seat)) == why
                stage = described.get("stage") or {}
                if stage.get("mark") == "cannot" and described["cards"]:
                    check_why(game, seat, None, stage["why"], said)
                    said["stage"] += 1
                unbuilt = {w.name for w in getattr(game.cities[seat], "wonders", ())}
                assert set(described.get("wonders", {})) == unbuilt   # each has its mark
                for name, mark in described.get("wonders", {}).items():
                    if mark["mark"] == "cannot":
                        check_why(game, seat, name, mark["why"], said, wonder=True)
                        said["wonder"] += 1
                    else:
                        assert "why" not in mark
                gain = present.sell_gain(game, seat)
                for entry in described["actions"]:
                    if entry["kind"] == "sell":
                        assert entry["gain"] == gain
            game.play({s: rng.choice(list(game.legal_actions(s))) for s in game.to_move()})
    # (random play in base lacks resources far more often than coins; Duel's bank sells
    # everything, so a cross there is a matter of coins)
    assert said["coins" if game_name == "duel" else "resources"], said
    assert said["stage"] or game_name == "duel", said   # (Duel has wonders, not stages)
    assert said["wonder"] or game_name != "duel", said


def test_a_wonder_past_the_rules_limit_says_so() -> None:
    """Duel allows seven wonders built in all: once seven stand, the eighth is a red cross
    saying so, and the engine offers no action building it."""
    data = load_source("duel").data
    game = new_game(data, 2, 1)
    while game.decision().kind != "turn":
        game.play({s: game.legal_actions(s)[0] for s in game.to_move()})
    seat = game.to_move()[0]
    mine, theirs = game.cities[seat], game.cities[1 - seat]
    for city, keep in ((theirs, 0), (mine, 1)):   # 4 + 3 built, one of ours left
        while len(city.wonders) > keep:
            city.built_wonders.append(city.wonders.pop())
            city.stages += 1
    game.invalidate()
    assert not any(isinstance(a, BuildWonder) for a in game.legal_actions(seat))
    described = present.actions_for(game, seat)
    assert described["wonders"] == {mine.wonders[0].name: {
        "mark": "cannot", "why": "7 wonders are built, the most the rules allow"}}


def test_a_sale_gives_what_the_rules_say() -> None:
    data = load_source("duel").data
    game = new_game(data, 2, 1)
    while game.decision().kind != "turn":
        game.play({s: game.legal_actions(s)[0] for s in game.to_move()})
    seat = game.to_move()[0]
    sale = next(a for a in game.legal_actions(seat) if isinstance(a, Sell))
    before = game.cities[seat].coins
    gain = present.sell_gain(game, seat)
    game.play({seat: sale})
    assert gain is not None and game.cities[seat].coins - before == gain
