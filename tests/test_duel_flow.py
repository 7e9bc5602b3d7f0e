"""7 Wonders Duel run by the flow interpreter: the same games as the structure loop's.

``cards/duel/rules.yaml``'s ``flow:`` (the token pools and the wonder draft, three ages of
structures with a starter chosen from Age II, turns until the structure is empty with
replays, supremacy at once) played by :class:`~wonders.engine.flow.FlowGame` over the
``structure``, ``bank``, ``track``, ``pairs``, ``wonder_draft``, ``pools`` and ``cities``
mechanisms must give every pinned Duel digest of ``tests/golden_digests.json`` (the
decisions, views, legal actions, set-up record, history and score sheet of each game),
and the same games as :class:`~wonders.engine.structure_game.StructureGame` decision by
decision.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from wonders.bots import make_bot
from wonders.dsl.loader import load, load_game, shipped_games
from wonders.dsl.model import Game as GameData
from wonders.engine.errors import RuleError
from wonders.engine.flow import FlowGame
from wonders.engine.runtime import Table

GOLDEN = Path(__file__).with_name("golden_digests.json")


@cache
def duel() -> GameData:
    return load_game(game="duel")


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


def digest(bot: str, seed: int) -> str:
    """tests/test_golden_digests.py's digest, of a game the flow interpreter plays."""
    game = FlowGame(duel(), 2, seed)
    bots = [make_bot(bot, seed * 1000 + seat) for seat in range(2)]
    hashed = hashlib.sha256()
    for _ in range(2000):
        if game.over:
            break
        decision = game.decision()
        hashed.update(canonical([decision.kind, list(decision.seats), decision.wording,
                                 game.age, game.turn]))
        for seat in range(2):
            hashed.update(canonical(game.view(seat)))
            hashed.update(canonical([str(action) for action in game.legal_actions(seat)]))
        game.play({seat: bots[seat].choose(game, seat) for seat in decision.seats})
    assert game.over
    hashed.update(canonical(game.setup_record()))
    hashed.update(canonical(game.history))
    hashed.update(canonical(game.score_sheet().to_json()))
    return hashed.hexdigest()


@pytest.mark.parametrize("bot", ["random", "greedy"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_flow_gives_the_pinned_duel_digests(bot: str, seed: int) -> None:
    pinned = json.loads(GOLDEN.read_text())
    assert digest(bot, seed) == pinned[f"duel/2p/{bot}/seed{seed}"]


def test_a_clone_and_a_determinized_copy_play_on_as_the_game_does() -> None:
    """Clones share nothing that changes; a determinized copy keeps what seat 0 sees."""
    game = FlowGame(duel(), 2, 5)
    rng = random.Random(5)
    while not game.over:
        seat = game.to_move()[0]
        twin = game.clone()
        index = rng.randrange(len(game.legal_actions(seat)))
        game.play({seat: game.legal_actions(seat)[index]})
        twin.play({seat: twin.legal_actions(seat)[index]})
        assert canonical(game.view(0)) == canonical(twin.view(0))
        if game.age == 2 and not game.over:
            seen = game.determinize(0, random.Random(9))
            assert canonical(seen.view(0)) == canonical(game.view(0))
    assert canonical(game.history) == canonical(twin.history)


def test_effects_act_on_the_cities_part_and_a_verb_nobody_does_is_refused() -> None:
    game = FlowGame(duel(), 2, 1)
    table = game.table
    assert isinstance(table, Table) and table.arrival_ongoing
    assert table.city_list() is game.cities and table.pools is game.table.pools
    with pytest.raises(RuleError, match="no mechanism of this flow can give counter tokens"):
        table.take_tokens(0, "progress", 1)


def _problems(tmp_path: Path, old: str, new: str) -> list[str]:
    """``wonders validate``'s findings on a copy of Duel with one text of its rules changed."""
    folder = tmp_path / "duel"
    shutil.copytree(shipped_games()["duel"], folder)
    rules = folder / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    assert old in text, old
    rules.write_text(text.replace(old, new, 1), encoding="utf-8")
    return [f"{d.code} {d.message} @{d.location.line}:{d.location.column}"
            for d in load([folder]).report.sorted()]


@pytest.mark.parametrize("old, new, said", [
    ("at_once: [military_supremacy,", "at_once: [military_supremacy_,",
     "unknown at-once victory 'military_supremacy_'"),
    ("until: offer_empty", "until: offer_emptied", "unknown turn end 'offer_emptied'"),
    ("again: replay", "again: replays", "unknown extra turn 'replays'"),
    ("after: last_round", "after: last_rounds", "unknown normal end 'last_rounds'"),
    ("start: [lay_structure,", "start: [lay_structures,", "unknown step 'lay_structures'"),
    ("from_round: 2", "from_rounds: 2", "step 'choose_starter' reads no parameter 'from_rounds'"),
    ("    until: offer_empty\n", "", "rounds of turns need 'turn: until:'"),
])
def test_a_mistyped_duel_flow_is_refused_where_it_is_written(tmp_path: Path, old: str,
                                                              new: str, said: str) -> None:
    found = _problems(tmp_path, old, new)
    assert len(found) == 1 and found[0].startswith("M909 " + said), found
