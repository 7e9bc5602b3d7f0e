"""Replays: a table's game shown decision by decision (the page ``/replay/{id}``).

Step N is the position after N decisions, numbered as ``wonders position LOG --at N``
numbers them (0: as dealt; the last: where the game is now, or ended).  A replay is the
table's game set up again on the server's loaded data with its history's decisions
*pushed* (:mod:`wonders.engine.undo`), so reaching any step is ``pop`` or ``push`` from
the last one asked for, never a replay from the start.

What a step shows is what a page of the live table would have been sent then (the shape
of :meth:`.tables.Table.state_for`, so the same drawing code draws it), without legal
actions: the recap of the decision that led to it, the score so far.  A seat's own view
is served only of a finished game (its log, hands and seed included, is public then); of
a running game only the public view, what every seat sees alike.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from wonders import recap
from wonders.engine.contract import AnyAction, GameState
from wonders.serve import present
from wonders.serve.tables import Table, TableError, logged_actions, set_up

KEPT = 8            # replays kept in memory (each holds one clone per step reached)
RECENT = 4          # the recaps a step's "what happened" lists, the newest last


class ReplayError(TableError):
    """A step or view that cannot be shown: ``status`` is the HTTP status it answers."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class Replay:
    """One table's game, pushed to the step last asked for."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.game: GameState = self._dealt()
        self.recaps: dict[int, dict[str, Any]] = {}

    def _dealt(self) -> GameState:
        table = self.table
        return set_up(table.source, table.game.players, table.game.seed, table.sides)

    def _at(self, step: int) -> GameState:
        """The game after ``step`` decisions of the table's history (pushed or popped)."""
        game, history = self.game, self.table.game.history
        reached = len(game.history)
        if game.history != history[:reached]:   # the table's last move was undone
            game = self.game = self._dealt()
            self.recaps.clear()
        while len(game.history) > step:
            game.pop()
        while len(game.history) < step:
            number = len(game.history)
            game.push(logged_actions(game, history[number], number))
        return game

    def recap(self, step: int) -> dict[str, Any] | None:
        """The recap of the decision that led to ``step`` (None at step 0), as the live
        table made it: from the public views before and after."""
        if step == 0:
            return None
        found = self.recaps.get(step)
        if found is None:
            game = self._at(step - 1)
            was = recap.before(game, present.public_view(game))
            actions: dict[int, AnyAction] = logged_actions(game, self.table.game.history[step - 1],
                                                           step - 1)
            game.push(actions)
            found = self.recaps[step] = recap.make(
                game, was, actions, present.public_view(game), step - 1,
                describe=lambda a: present.action_text(game, a))
        return found

    def steps(self) -> int:
        """The last step: the decisions played so far."""
        return self.table.decision_number

    def check(self, step: Any, seat: Any) -> tuple[int, int | None]:
        """``step`` and ``seat`` as the query gives them (text), or ReplayError."""
        steps = self.steps()
        if not isinstance(step, str) or not step.isascii() or not step.isdigit() \
                or len(step) > 9:
            raise ReplayError(f"the step is a whole number, 0 to {steps}", 400)
        if int(step) > steps:
            raise ReplayError(f"no step {int(step)}: this game has steps 0 to {steps}", 404)
        if seat in (None, "", "public"):
            return int(step), None
        players = self.table.game.players
        if not isinstance(seat, str) or not seat.isascii() or not seat.isdigit() \
                or len(seat) > 4:
            raise ReplayError(f"the view is 'public' or a seat, 0 to {players - 1}", 400)
        if int(seat) >= players:
            raise ReplayError(f"no seat {int(seat)}: this game has seats 0 to "
                              f"{players - 1}", 404)
        if not self.table.game.over:
            raise ReplayError("the game is not over: a running game's replay shows the "
                              "public view only, never a seat's hidden cards", 403)
        return int(step), int(seat)

    def state(self, step: int, seat: int | None) -> dict[str, Any]:
        """What a page would have been sent at ``step`` (checked by :meth:`check`)."""
        recaps = [r for r in (self.recap(n) for n in range(max(1, step - RECENT + 1),
                                                            step + 1)) if r is not None]
        game = self._at(step)
        view = present.public_view(game) if seat is None else game.view(seat)
        decision = game.decision()
        summary = {**self.table.summary(), "away": [], "decision": step}
        return {
            "type": "state", "replay": True, "at": step, "steps": self.steps(),
            "table": summary, "decision": step, "seat": seat, "view": view,
            "pending": {"kind": decision.kind, "wording": decision.wording,
                        "seats": list(decision.seats), "chosen": []},
            "production": [present.production(game, s) for s in range(game.players)],
            "symbols": [present.symbols(game, s) for s in range(game.players)],
            "recap": recap.for_seat(recaps[-1], seat) if recaps else None,
            "events": [line for one in recaps for line in recap.lines(recap.for_seat(one, seat))],
            "over": game.over, "score_sheet": game.score_sheet().to_json(), "clocks": None,
        }


class Replays:
    """The replays of the tables last asked for (at most :data:`KEPT`)."""

    def __init__(self) -> None:
        self.kept: OrderedDict[str, Replay] = OrderedDict()

    def of(self, table: Table) -> Replay:
        found = self.kept.get(table.id)
        if found is None or found.table is not table:   # (a table restored again)
            found = self.kept[table.id] = Replay(table)
        self.kept.move_to_end(table.id)
        while len(self.kept) > KEPT:
            self.kept.popitem(last=False)
        return found

    def views(self, table: Table) -> list[str]:
        """The views a replay of ``table`` offers: public, and every seat once it is over."""
        seats = [str(s) for s in range(table.game.players)] if table.game.over else []
        return ["public", *seats]


__all__ = ["Replay", "ReplayError", "Replays"]
