"""``play`` refuses what is not each asked seat's action by seat, in words, for every game.

A caller's slip (a list of actions, a bare action, a seat missing or one too many, a seat
written as text) is a :class:`~wonders.engine.errors.WondersError` saying what ``play``
takes, never a ``TypeError`` from inside the loop, and the game is left as it was.
"""

from __future__ import annotations

from typing import Any

import pytest

from wonders import new_game
from wonders.dsl.loader import shipped_games
from wonders.engine.errors import RuleError, WondersError


def _slips(game: Any) -> list[tuple[str, Any]]:
    seat = game.to_move()[0]
    action = game.legal_actions(seat)[0]
    given = {s: game.legal_actions(s)[0] for s in game.to_move()}
    extra = next(s for s in range(game.players + 1) if s not in given)
    return [("a list of actions", list(given.values())),
            ("a bare action", action),
            ("no seat at all", {}),
            ("a seat too many", {**given, extra: action}),
            ("a seat written as text", {str(s): a for s, a in given.items()})]


@pytest.mark.parametrize("name", sorted(shipped_games()))
def test_play_refuses_what_is_not_actions_by_seat(name: str) -> None:
    game = new_game(name, seed=1)
    before = [str(a) for a in game.legal_actions(game.to_move()[0])]
    for what, slip in _slips(game):
        with pytest.raises(WondersError) as refused:
            game.play(slip)
        assert not isinstance(refused.value, TypeError), what
        assert game.history == [], what
    assert [str(a) for a in game.legal_actions(game.to_move()[0])] == before


@pytest.mark.parametrize("name", sorted(shipped_games()))
def test_a_list_is_refused_saying_what_play_takes(name: str) -> None:
    game = new_game(name, seed=1)
    actions = [game.legal_actions(s)[0] for s in game.to_move()]
    with pytest.raises(RuleError, match="by seat"):
        game.play(actions)


@pytest.mark.parametrize("name", sorted(shipped_games()))
def test_a_seat_that_is_no_number_is_refused_in_words(name: str) -> None:
    """Text from a JSON key, None, a float: asked nothing, and refused with a reason (on
    the compiled build too, where a typed seat would be a bare TypeError)."""
    game = new_game(name, seed=1)
    action = game.legal_actions(game.to_move()[0])[0]
    for seat in ("0", None, 1.5):
        assert list(game.legal_actions(seat)) == []  # type: ignore[arg-type]
        with pytest.raises(WondersError) as refused:
            game.check(seat, action)  # type: ignore[arg-type]
        assert not isinstance(refused.value, TypeError)
