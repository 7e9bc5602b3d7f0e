"""Undo: ``push``/``pop``/``undo`` take a game back to an earlier decision, equal to a clone
taken then, for random games of every shipped game and expansion."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest
from test_notation import data, tables

from wonders.engine.actions import Skip
from wonders.engine.contract import GameState
from wonders.engine.errors import IllegalActionError, RuleError
from wonders.engine.notation import notation
from wonders.engine.registry import new_game
from wonders.engine.undo import UndoError, pushed


def digest(game: GameState) -> str:
    """Everything the contract shows of a game now."""
    shown: list[Any] = [game.over, game.history, game.setup_record(),
                        game.score_sheet().to_json(), game.age, game.turn,
                        game.bank_paid, game.bank_gave]
    if not game.over:
        decision = game.decision()
        shown.append([decision.kind, list(decision.seats)])
    for seat in range(game.players):
        shown.append(game.view(seat))
        shown.append([notation(action) for action in game.legal_actions(seat)])
    return hashlib.sha256(json.dumps(shown, sort_keys=True, default=str).encode()).hexdigest()


def finish(game: GameState, seed: int) -> str:
    """Play the game out at random from ``seed``; the digest of its end."""
    rng = random.Random(seed)
    while not game.over:
        game.play({s: rng.choice(game.legal_actions(s)) for s in game.to_move()})
    return digest(game)


@pytest.mark.parametrize("name, players", tables())
def test_undo_gives_back_the_clone_taken_then(name: str, players: int) -> None:
    """Push a whole random game, cloning before each decision; take it back to a random
    earlier decision: the game shows what that clone shows, and both play the same
    future alike (a future that draws: a new age's deal)."""
    seed = 11 * players + len(name)
    game = new_game(data(name), players, seed)
    rng = random.Random(seed)
    clones: list[tuple[GameState, str, dict[int, Any]]] = []
    while not game.over:
        moves = {s: rng.choice(game.legal_actions(s)) for s in game.to_move()}
        clones.append((game.clone(), digest(game), moves))
        game.push(moves)
    assert [m for _, _, m in clones] == pushed(game)
    back = rng.randrange(len(clones))
    taken = game.undo(len(clones) - back)
    assert taken == [m for _, _, m in reversed(clones[back:])]
    clone, shown, moves = clones[back]
    assert digest(game) == shown == digest(clone)
    if back:
        _, shown_before, moves_before = clones[back - 1]
        assert game.pop() == moves_before and digest(game) == shown_before
        game.push(moves_before)
        assert digest(game) == shown
    assert finish(game, seed + 1) == finish(clone, seed + 1)


def test_pop_with_nothing_pushed_and_bad_arguments() -> None:
    game = new_game(data("duel"), 2, 1)
    with pytest.raises(UndoError, match="no decision was pushed .*push\\(\\) does"):
        game.pop()
    game.play({0: game.legal_actions(0)[0]})          # play() keeps no undo record
    with pytest.raises(UndoError, match="no decision was pushed"):
        game.pop()
    game.push({1: game.legal_actions(1)[0]})
    with pytest.raises(UndoError, match="cannot take back 2 decisions: 1 were pushed"):
        game.undo(2)
    with pytest.raises(UndoError, match="a number of decisions"):
        game.undo(-1)
    assert isinstance(UndoError("x"), RuleError)
    assert len(game.undo(1)) == 1 and len(game.history) == 1


def test_an_illegal_push_changes_nothing() -> None:
    game = new_game(data("base"), 3, 2)
    before = digest(game)
    with pytest.raises(IllegalActionError):   # (sides are being chosen: no skipping)
        game.push({0: game.parse_action(0, "side A"), 1: Skip(), 2: Skip()})
    assert digest(game) == before and pushed(game) == []
