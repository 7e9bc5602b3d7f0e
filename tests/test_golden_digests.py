"""Pinned golden digests: fixed games of every shipped game, table size and bot, unchanged.

Each game is played from a fixed seed by random or greedy bots; its digest covers, at
every decision, the decision, every seat's view and legal actions (as text), and at the
end the set-up record, the full history and the score sheet.  The digests are committed
in ``tests/golden_digests.json``: a refactoring that changes no rule must leave every one
of them as it is.  A commit that fixes a rule and so changes games regenerates them with

    WONDERS_UPDATE_DIGESTS=1 python -m pytest tests/test_golden_digests.py

and says in its message which games changed and why.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from wonders.bots import make_bot
from wonders.dsl.loader import load_game, shipped_expansions, shipped_games
from wonders.dsl.model import Game as GameData
from wonders.engine.registry import new_game

GOLDEN = Path(__file__).with_name("golden_digests.json")
UPDATE = os.environ.get("WONDERS_UPDATE_DIGESTS") == "1"
BOTS = ("random", "greedy")
SEEDS = (1, 2, 3)
MAX_DECISIONS = 2000


def rule_sets() -> dict[str, str]:
    """Every shipped game by name, and every shipped expansion that is a rule set of its
    own by its folder."""
    found = {name: name for name in shipped_games()}
    for name, folder in shipped_expansions().items():
        if (folder / "rules.yaml").is_file():
            found[name] = str(folder)
    return found


@cache
def data(name: str) -> GameData:
    return load_game(game=rule_sets()[name])


def tables() -> list[tuple[str, int]]:
    found = []
    for name in rule_sets():
        rules = data(name).rules
        found += [(name, players) for players in range(rules.min_players, rules.max_players + 1)]
    return found


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ).encode()


def digest(name: str, players: int, bot: str, seed: int) -> str:
    """Play one fixed game and hash everything the contract shows of it."""
    game = new_game(data(name), players, seed)
    bots = [make_bot(bot, seed * 1000 + seat) for seat in range(players)]
    hashed = hashlib.sha256()
    for _ in range(MAX_DECISIONS):
        if game.over:
            break
        decision = game.decision()
        hashed.update(canonical([decision.kind, list(decision.seats), decision.wording,
                                 game.age, game.turn]))
        for seat in range(players):
            hashed.update(canonical(game.view(seat)))
            hashed.update(canonical([str(action) for action in game.legal_actions(seat)]))
        game.play({seat: bots[seat].choose(game, seat) for seat in decision.seats})
    assert game.over, f"{name} at {players} players, seed {seed}: no end in {MAX_DECISIONS}"
    hashed.update(canonical(game.setup_record()))
    hashed.update(canonical(game.history))
    hashed.update(canonical(game.score_sheet().to_json()))
    return hashed.hexdigest()


def key(name: str, players: int, bot: str, seed: int) -> str:
    return f"{name}/{players}p/{bot}/seed{seed}"


CASES = [pytest.param(name, players, bot, seed, id=key(name, players, bot, seed))
         for name, players in tables() for bot in BOTS for seed in SEEDS]


@cache
def pinned() -> dict[str, str]:
    if not GOLDEN.is_file():
        return {}
    loaded: dict[str, str] = json.loads(GOLDEN.read_text())
    return loaded


@pytest.mark.parametrize("name, players, bot, seed", CASES)
def test_game_is_unchanged(name: str, players: int, bot: str, seed: int) -> None:
    found = digest(name, players, bot, seed)
    which = key(name, players, bot, seed)
    if UPDATE:
        table = dict(pinned())
        table[which] = found
        pinned.cache_clear()
        GOLDEN.write_text(json.dumps(dict(sorted(table.items())), indent=1) + "\n")
        return
    assert which in pinned(), f"no pinned digest for {which}: regenerate (see module docstring)"
    assert found == pinned()[which], f"{which} plays differently from its pinned digest"


def test_every_pinned_game_is_still_played() -> None:
    """A pinned digest whose game is no longer played means a game or size was dropped."""
    played = {key(*case.values) for case in CASES}  # type: ignore[arg-type]
    assert set(pinned()) == played or UPDATE


def test_digest_sees_a_changed_decision() -> None:
    """The digest is not blind: another seed gives another digest, the same seed the same."""
    assert digest("duel", 2, "random", 1) == digest("duel", 2, "random", 1)
    assert digest("duel", 2, "random", 1) != digest("duel", 2, "random", 3)
