"""Undo: ``game.push(actions)``, ``game.pop()`` and ``game.undo(n)``, as python-chess has them.

``push`` keeps a clone of the game, taken before it plays the decision, on the game's
stack; ``pop`` puts the game back to the newest clone, in place (the same object, every
field the clone's), and returns the actions it had pushed.  ``play`` itself keeps
nothing, so it costs what it did: only pushed decisions can be taken back.

Putting a clone back in place writes every field of the game: from the instance dict
(pure Python), or, compiled (mypyc), where an instance has none, each field its classes
name in ``__mypyc_attrs__``.
"""

from __future__ import annotations

from typing import Any, Mapping

from wonders.engine.errors import RuleError

_STACK = "_undo"   # the loops' field holding the stack: [(clone, actions), ...] or None


class UndoError(RuleError):
    """``pop``/``undo`` with fewer pushed decisions than asked for."""


def _fields(game: object) -> list[str]:
    """Every field of a compiled game: the ``__mypyc_attrs__`` of its classes (their
    descriptors would name properties too), or the slots of a plain class."""
    found: dict[str, None] = {}
    for klass in type(game).__mro__:
        names = vars(klass).get("__mypyc_attrs__")
        if names is None:
            slots = vars(klass).get("__slots__", ())
            names = (slots,) if isinstance(slots, str) else slots
        found.update((name, None) for name in names if not name.startswith("__"))
    return list(found)


def _restore(game: Any, snapshot: Any) -> None:
    """Make ``game`` the state ``snapshot`` holds (the snapshot is not used afterwards)."""
    if hasattr(game, "__dict__") and hasattr(snapshot, "__dict__"):
        state = vars(game)
        state.clear()
        state.update(vars(snapshot))
        return
    for name in _fields(game):
        try:
            value = getattr(snapshot, name)
        except AttributeError:   # never set on the clone: not set on the game either
            try:
                delattr(game, name)
            except (AttributeError, TypeError):   # (compiled: one always set)
                pass
            continue
        setattr(game, name, value)


def _stack(game: Any) -> list[tuple[Any, dict[int, Any]]]:
    found: list[tuple[Any, dict[int, Any]]] | None = getattr(game, _STACK, None)
    return found if found is not None else []


def push(game: Any, actions: Mapping[int, Any]) -> None:
    """Play ``actions`` (as ``play`` does) so that :func:`pop` can take them back; an
    illegal action raises and changes nothing, the stack included."""
    if not isinstance(actions, dict) and not isinstance(actions, Mapping):
        raise RuleError("push takes each asked seat's action by seat (a mapping of seat to "
                        f"action), not {type(actions).__name__}")
    snapshot = game.clone()
    moves = dict(actions)
    game.play(moves)
    stack = _stack(game)
    stack.append((snapshot, moves))
    setattr(game, _STACK, stack)


def pop(game: Any) -> dict[int, Any]:
    """Take the last pushed decision back; the actions it played (by seat)."""
    stack = _stack(game)
    if not stack:
        raise UndoError("nothing to take back: no decision was pushed (play() keeps no "
                        "undo record; push() does)")
    snapshot, moves = stack.pop()
    _restore(game, snapshot)
    setattr(game, _STACK, stack)
    return moves


def undo(game: Any, decisions: int = 1) -> list[dict[int, Any]]:
    """Take the last ``decisions`` pushed decisions back; their actions, newest first."""
    if isinstance(decisions, bool) or not isinstance(decisions, int) or decisions < 0:
        raise UndoError(f"undo takes a number of decisions, not {decisions!r}")
    pushed = len(_stack(game))
    if decisions > pushed:
        raise UndoError(f"cannot take back {decisions} decisions: {pushed} were pushed "
                        "(play() keeps no undo record; push() does)")
    return [pop(game) for _ in range(decisions)]


def pushed(game: Any) -> list[dict[int, Any]]:
    """The actions of every pushed decision still on the stack, oldest first."""
    return [moves for _, moves in _stack(game)]


__all__ = ["UndoError", "pop", "push", "pushed", "undo"]
