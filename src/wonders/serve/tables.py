"""Tables: one game each, its seats (humans with secret tokens, bots), kept in the database.

A table is stored (:mod:`.store`) as a row (the game, its options, whether it is
over, and as JSON what the moves do not hold: the actions already chosen for a
simultaneous decision still open, the recaps, the clocks), one row per seat
(human with its token and, once a signed-in player joined it, its account; or a
bot kind), and one row per decision played (the game's history entry: actions and
coins).  Restoring replays the moves on the loaded data (every stored action
found again among the legal actions, the coins checked after each decision), so
a restarted server has every unfinished table where it was.

A finished game leaves memory (is *retired*) some time after it ended, and only
the most recent ones are kept at all: otherwise a public server would hold every
game it ever hosted, replay each of them on every restart and, once it had
hosted :data:`MAX_TABLES` games, refuse new ones for ever.  Its rows stay, so
its link still works: a table asked for that is not in memory is restored from
the database on demand (finished games only).  Start-up restores only unfinished
tables.

Everything that changes a table runs in the server's event loop; bots choose
on a clone in a worker thread and their choice is found again among the live
game's legal actions, so a slow bot never blocks a table and never touches it.
"""

from __future__ import annotations

import json
import logging
import random
import re
import secrets
import time
from collections import OrderedDict
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import sqlalchemy as sa

from wonders import recap
from wonders import serve as serve_package
from wonders.bots import Bot, BotError, bot_factory, known_bots
from wonders.bots.mcts import MCTSBot
from wonders.bots.policy import greedy_policy
from wonders.dsl.model import Game as GameData
from wonders.engine.contract import AnyAction, GameState
from wonders.engine.errors import IllegalActionError, RuleError
from wonders.engine.registry import new_game
from wonders.engine.sources import Source, SourceError, resolve
from wonders.scenarios import log as game_log
from wonders.serve import present
from wonders.serve import store as db
from wonders.serve.clocks import MAX_HOURS, SPEED_NAMES, TURN_BASED, UNTIMED, Clocks
from wonders.serve.protocol import dumps
from wonders.serve.store import Op, Store, TableRecord, why_not_stored

LOGGER = logging.getLogger("wonders.serve")
HUMAN = "human"
# the bots by the names the command line gives them (wonders.bots), resolved by the same
# function (bot_factory); the lobby's old name of the search bot is still accepted, in
# requests and in the records of older tables.  Plug-in bots an installed package
# registers are offered too (never a ``module:Class`` name: a page must not make the server
# import a module of its choosing).
BOT_KINDS = ("random", "greedy", "mcts")
BOT_ALIASES = {"search": "mcts"}
SEAT_KINDS = (HUMAN, *BOT_KINDS)
MODES = ("normal", "training")
STAND_IN = "greedy"   # the bot that plays a seat whose time ran out, or that was handed over
ABANDON_SECONDS = 60.0   # a seat no page has joined this long may be handed to a bot
SIDE_MODES = ("choose", "random")
MAX_TABLES = 1000   # live (unfinished) tables; finished ones are retired instead
FINISHED_KEEP_SECONDS = serve_package.FINISHED_KEEP_SECONDS
FINISHED_KEEP_MAX = 100
TABLE_ID_BYTES = 9
# What secrets.token_urlsafe makes (12 characters for TABLE_ID_BYTES), with room for
# other lengths: an id matching it names no other folder and no other kind of file.
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
RECAPS_KEPT = 12   # the recaps a table keeps (and rewrites with every move): what pages show


class TableError(RuleError):
    """A request the table refuses (a bad option, an unknown table, a forged seat …): the
    message says why, and nothing changed."""


class MoveFailed(TableError):
    """A move the server failed to play or store for a reason no rule gives (a bug: an
    exception that is not a refusal, raised by the game's play or by the table's own
    work after it): the table was put back as it was, and the move was not played."""


@dataclass
class Seat:
    """One seat: a human (with the secret token of its join link and, once a signed-in
    player joined it, their account) or a bot kind."""

    kind: str
    token: str | None = None
    account: int | None = None
    name: str | None = None   # the account's name, shown to everyone


@dataclass
class GameSource:
    """A game the server offers: its label on the page, what a log records, its data."""

    label: str
    spec: str
    paths: tuple[str, ...]
    data: GameData


def load_source(game: str) -> GameSource:
    """Resolve and load a shipped game's name or a variant's path (TableError if it does
    not load)."""
    try:
        source: Source = resolve(game)
        result = source.load()
    except SourceError as exc:
        raise TableError(str(exc)) from None
    if result.game is None:
        problems = "; ".join(d.render() for d in result.report.errors[:3])
        raise TableError(f"{game}: the game does not load: {problems}")
    return GameSource(game if source.name is None else source.name, source.spec, (), result.game)


def seat_kinds() -> tuple[str, ...]:
    """What a seat may be: human, a shipped bot, or a bot an installed package registers."""
    return (*SEAT_KINDS, *(n for n in known_bots() if n not in SEAT_KINDS and n != "quick"))


def bot_for(kind: str, seed: int, search_seconds: float) -> Bot:
    """A bot of a seat kind, seeded for one decision (so a restored table plays on alike):
    made by :func:`wonders.bots.bot_factory`, as on the command line; the search bot with
    the server's time limit."""
    kind = BOT_ALIASES.get(kind, kind)
    if kind == "mcts":
        return MCTSBot(seed, time_limit=search_seconds)
    if kind not in seat_kinds() or kind == HUMAN:
        raise TableError(f"'{kind}' is not a bot kind: {', '.join(seat_kinds()[1:])}")
    try:
        return bot_factory(kind)(seed)
    except BotError as exc:
        raise TableError(str(exc)) from None


def find_action(game: GameState, seat: int, wanted: Any) -> AnyAction | None:
    """The legal action of ``seat`` whose ``to_json()`` is ``wanted`` (None if none is)."""
    for action in game.legal_actions(seat):
        if action.to_json() == wanted:
            return action
    return None


def set_up(source: GameSource, players: int, seed: int, sides: str | None) -> GameState:
    """A table's game as it was dealt (``sides`` None: its wonders have one side)."""
    return (new_game(source.data, players, seed, sides=sides) if sides is not None
            else new_game(source.data, players, seed))


def logged_actions(game: GameState, entry: dict[str, Any], number: int) -> dict[int, AnyAction]:
    """The actions of a history entry (decision ``number``), found again among the legal
    actions of ``game`` (TableError when one no longer is)."""
    actions: dict[int, AnyAction] = {}
    for seat_text, wanted in (entry.get("actions") or {}).items():
        action = find_action(game, int(seat_text), wanted)
        if action is None:
            raise TableError(f"move {number}: seat {seat_text}'s action is no longer legal")
        actions[int(seat_text)] = action
    return actions


@dataclass
class Table:
    """One game being played: the state, its seats and who has chosen this decision."""

    id: str
    source: GameSource
    game: GameState
    seats: list[Seat]
    sides: str | None   # the sides option (None: the game's wonders have one side)
    hints: bool
    created: float
    store: Store | None   # None: a table kept in memory only
    mode: str = "normal"   # normal games between accounts change ratings; training never
    speed: str = "untimed"
    pending: dict[int, AnyAction] = field(default_factory=dict)
    listeners: list[Callable[[], None]] = field(default_factory=list)
    bots_busy: set[int] = field(default_factory=set)
    # the future of the last changes handed to the store: a move is acknowledged once it
    # answers (committed), refused and undone if it fails
    saved: Future[None] | None = field(default=None, repr=False)
    events: list[str] = field(default_factory=list)   # what happened, in older records
    # one recap per decision (wonders.recap), the most recent last; each seat is sent
    # what it may see of them (recap.for_seat)
    recaps: list[dict[str, Any]] = field(default_factory=list)
    # called once when a decision ends the game: how Tables learns when to retire it
    # without looking at every table
    on_over: Callable[[Table], None] | None = field(default=None, repr=False)
    stored: int = 0   # how many decisions (moves) the database holds
    clocks: Clocks | None = None   # None: untimed
    # human seats played by the stand-in bot (time ran out, or handed over) until they return
    away: set[int] = field(default_factory=set)
    now: Callable[[], float] = field(default=time.time, repr=False)   # Tables.clock
    present: dict[int, int] = field(default_factory=dict)   # seat -> pages joined to it
    absent_since: dict[int, float] = field(default_factory=dict)
    # what else a write of the final decision does (the ratings: Tables sets it)
    on_final: Callable[[Table], list[Op]] | None = field(default=None, repr=False)
    # (the decision's number, why) when its bot moves failed even as the first legal
    # action: no bot is started for that decision again, and every page is told
    failed: tuple[int, str] | None = None
    # what state_for works out once per decision (see _shown)
    _shown_key: tuple[int, int] | None = field(default=None, repr=False)
    _shown_parts: dict[Any, dict[str, Any]] = field(default_factory=dict, repr=False)
    _number: tuple[int, int] | None = field(default=None, repr=False)   # decision_number
    _public_view: tuple[tuple[int, int], dict[str, Any]] | None = field(default=None,
                                                                      repr=False)
    # the recaps as stored (JSON), rewritten with every change of the row, made again
    # only when a decision adds one
    _recaps_text: tuple[int, str] | None = field(default=None, repr=False)

    # --- reading --------------------------------------------------------------------

    @property
    def decision_number(self) -> int:
        """How many decisions were played: what a message names to act on the open one.
        Counted once per game object and kept by ``_resolve``: ``game.history`` makes
        every decision's record again, and this is asked on every message and state."""
        if self._number is None or self._number[0] != id(self.game):
            self._number = (id(self.game), len(self.game.history))
        return self._number[1]

    def seat_of(self, token: str) -> int | None:
        """The seat a token plays (compared in constant time), or None."""
        given = token.encode("utf-8", "replace")   # bytes: any text compares, never raises
        found = None
        for seat, entry in enumerate(self.seats):
            if entry.token is not None and secrets.compare_digest(entry.token.encode(), given):
                found = seat
        return found

    @property
    def failure(self) -> str | None:
        """Why the open decision's bot moves failed (``failed``), or None: a decision
        played since (by a player) lets the bots go on."""
        if self.failed is None or self.failed[0] != self.decision_number:
            return None
        return self.failed[1]

    def waiting_for(self) -> list[int]:
        """Seats that still have to choose for the open decision."""
        return [s for s in self.game.to_move() if s not in self.pending]

    def summary(self) -> dict[str, Any]:
        """Public facts about the table (for the lobby and every page)."""
        return {"id": self.id, "game": self.source.label, "title": self.source.data.rules.title,
                "players": self.game.players, "seats": [s.kind for s in self.seats],
                "names": [s.name for s in self.seats], "mode": self.mode,
                "speed": self.speed, "away": sorted(self.away),
                "sides": self.sides, "hints": self.hints, "over": self.game.over,
                "decision": self.decision_number,   # never the seed: it deals every hand
                "failed": self.failure}

    def state_for(self, seat: int | None) -> dict[str, Any]:
        """What a page at ``seat`` (None: a spectator) is sent after every change."""
        game = self.game
        shown = self._shown(seat)
        message: dict[str, Any] = {
            "type": "state", "table": self.summary(), "decision": self.decision_number,
            "seat": seat, "view": shown["view"],
            "pending": {**shown["pending"], "chosen": sorted(self.pending)},
            "production": shown["production"], "symbols": shown["symbols"],
            "recap": shown["recap"],
            "events": shown["events"], "over": game.over,
            "score_sheet": shown["score_sheet"],
            "clocks": None if self.clocks is None else self.clocks.public(self.now()),
        }
        if seat is not None and seat in shown["pending"]["seats"] and seat not in self.pending:
            if "actions" not in shown:
                shown["actions"] = present.actions_for(game, seat)
            message["actions"] = shown["actions"]
        if seat is not None and seat in self.pending:
            message["chosen"] = str(self.pending[seat])
        return message

    def state_text(self, seat: int | None) -> str:
        """``state_for(seat)`` as the JSON text a page is sent (``protocol.dumps``), the
        parts that change only with a decision encoded once per decision and seat."""
        shown = self._shown(seat)
        if "text" not in shown:
            shown["text"] = dumps({key: shown[key] for key in (
                "view", "production", "symbols", "recap", "events", "score_sheet")})[1:-1]
        parts = [dumps({"type": "state", "table": self.summary(),
                        "decision": self.decision_number, "seat": seat,
                        "pending": {**shown["pending"], "chosen": sorted(self.pending)},
                        "over": self.game.over,
                        "clocks": None if self.clocks is None else
                        self.clocks.public(self.now())})[:-1], shown["text"]]
        if seat is not None and seat in shown["pending"]["seats"] and seat not in self.pending:
            if "actions_text" not in shown:
                if "actions" not in shown:
                    shown["actions"] = present.actions_for(self.game, seat)
                shown["actions_text"] = dumps(shown["actions"])
            parts.append('"actions":' + shown["actions_text"])
        if seat is not None and seat in self.pending:
            parts.append('"chosen":' + dumps(str(self.pending[seat])))
        return ",".join(parts) + "}"

    def _public(self) -> dict[str, Any]:
        """The public view of the open decision (every seat's view compared), worked out
        once: the recap of a decision needs it before and after, spectators' states too."""
        key = (id(self.game), self.decision_number)
        if self._public_view is None or self._public_view[0] != key:
            self._public_view = (key, present.public_view(self.game))
        return self._public_view[1]

    def _shown(self, seat: int | None) -> dict[str, Any]:
        """The parts of ``seat``'s state that change only when a decision is played (the
        view, the legal actions' descriptions, the recap …), worked out once per decision
        and seat: every change within a decision (a seat choosing, a clock, a page
        joining) sends each page its state again, and a view, the public view (every
        seat's view) and the actions' payments cost far more than the message.  Kept for
        the game object and decision it was made for (a rollback puts another game back)."""
        key = (id(self.game), self.decision_number)
        if self._shown_key != key:
            self._shown_key, self._shown_parts = key, {}
        found = self._shown_parts.get(seat)
        if found is None:
            game = self.game
            common = self._shown_parts.get("common")
            if common is None:
                decision = game.decision()
                common = self._shown_parts["common"] = {
                    "pending": {"kind": decision.kind, "wording": decision.wording,
                                "seats": list(decision.seats)},
                    "production": [present.production(game, s) for s in range(game.players)],
                    "symbols": [present.symbols(game, s) for s in range(game.players)],
                    "score_sheet": game.score_sheet().to_json()}
            found = self._shown_parts[seat] = {
                **common,
                "view": self._public() if seat is None else game.view(seat),
                "recap": recap.for_seat(self.recaps[-1], seat) if self.recaps else None,
                "events": self.events_for(seat)}
        return found

    def events_for(self, seat: int | None, recent: int = RECAPS_KEPT) -> list[str]:
        """What happened lately, oldest first, as ``seat`` may see it: the recaps' lines
        (after any lines an older record kept)."""
        found = list(self.events)
        for one in self.recaps[-recent:]:
            found.extend(recap.lines(recap.for_seat(one, seat)))
        return found[-40:]

    # --- changing -------------------------------------------------------------------

    def submit(self, seat: int, decision: Any, wanted: Any) -> AnyAction:
        """Take ``seat``'s action for the open decision; the decision resolves once every
        deciding seat has chosen.  Raises TableError (nothing changed) when the game is
        over, the decision is not the open one (a repeated or stale message), the seat
        does not decide now or has already chosen, or the action is not legal."""
        game = self.game
        if game.over:
            raise TableError("the game is over")
        if not isinstance(decision, int) or isinstance(decision, bool):
            raise TableError("'decision' must be the number of the open decision")
        if decision != self.decision_number:
            raise TableError(f"decision {decision} is not the open one (it is decision "
                             f"{self.decision_number}): a repeated or stale message")
        if seat not in game.to_move():
            raise TableError(f"seat {seat} does not decide now (waiting for "
                             f"{', '.join(map(str, self.waiting_for())) or 'nobody'})")
        if seat in self.pending:
            raise TableError(f"seat {seat} has already chosen for this decision")
        action = find_action(game, seat, wanted)
        if action is None:
            raise TableError(f"that is not a legal action of seat {seat} now: "
                             f"{_short(wanted)}")
        try:
            game.check(seat, action)
        except IllegalActionError as exc:
            raise TableError(str(exc)) from None
        self.pending[seat] = action
        clocks = None if self.clocks is None else self.clocks.copy()
        if self.clocks is not None:
            self.clocks.stop(seat, self.now())
        if not self.waiting_for():
            try:
                self._resolve()
            except TableError:
                del self.pending[seat]
                self.clocks = clocks
                raise
        else:
            self.save_meta()
        return action

    def _resolve(self) -> None:
        game = self.game
        number = self.decision_number
        was = recap.before(game, self._public())
        actions = dict(self.pending)
        self.pending.clear()
        try:
            game.play(actions)
        except RuleError as exc:  # the contract: an illegal action changes nothing
            self.pending.update(actions)
            raise TableError(f"the decision could not be played: {exc}") from None
        self._number = (id(game), number + 1)
        self.recaps.append(recap.make(game, was, actions, self._public(), number,
                                      describe=lambda a: present.action_text(game, a)))
        del self.recaps[:-RECAPS_KEPT]
        self._recaps_text = None
        if self.clocks is not None:
            self.clocks.begin([] if game.over else self.waiting_for(), self.now())
        self.save()
        if self.game.over and self.on_over is not None:
            self.on_over(self)

    def notify(self) -> None:
        for listener in list(self.listeners):
            listener()

    # --- the database ---------------------------------------------------------------

    def stored_state(self) -> dict[str, Any]:
        """What the moves do not hold: the open decision's choices, recaps, events."""
        return {"pending": {str(s): a.to_json() for s, a in sorted(self.pending.items())},
                "events": self.events, "recaps": self.recaps, "away": sorted(self.away),
                "clocks": None if self.clocks is None else self.clocks.to_json()}

    def _row(self) -> dict[str, Any]:
        state = self.stored_state()
        if self._recaps_text is None or self._recaps_text[0] != id(self.recaps):
            self._recaps_text = (id(self.recaps), json.dumps(self.recaps,
                                                             separators=(",", ":")))
        state["recaps"] = None
        text = json.dumps(state, separators=(",", ":")).replace(
            '"recaps":null', '"recaps":' + self._recaps_text[1], 1)
        return {"decision": self.decision_number, "over": self.game.over, "state": text}

    def insert_ops(self) -> list[Op]:
        """What stores a new table: its row and its seats."""
        row = {"id": self.id, "game": self.source.label, "spec": self.source.spec,
               "players": self.game.players, "seed": self.game.seed, "sides": self.sides,
               "hints": self.hints, "mode": self.mode, "speed": self.speed,
               "created": self.created, **self._row()}
        seat_rows = [{"table_id": self.id, "seat": n, "kind": s.kind, "token": s.token,
                      "account_id": s.account} for n, s in enumerate(self.seats)]
        return [lambda c: db.run(c, db.tables.insert().values(**row)),
                lambda c: db.run(c, db.seats.insert(), seat_rows)]

    def _update_op(self) -> Op:
        row = self._row()
        table_id = self.id
        return lambda c: db.run(c, db.tables.update().where(
            db.tables.c.id == table_id).values(**row))

    def seat_op(self, seat: int) -> Op:
        """What stores a seat's account (set when a signed-in player joins it)."""
        account, table_id = self.seats[seat].account, self.id
        return lambda c: db.run(c, db.seats.update().where(
            (db.seats.c.table_id == table_id) & (db.seats.c.seat == seat)).values(
            account_id=account))

    def _write(self, ops: list[Op]) -> Future[None]:
        if self.store is None:
            self.saved = _done()
        else:
            self.saved = self.store.write(self.id, ops)
        return self.saved

    def save_meta(self) -> Future[None]:
        """Store the table's row (choices, recaps); the future answers once committed."""
        return self._write([self._update_op()])

    def save(self) -> Future[None]:
        """Store the decisions played since the last save and the table's row, in one
        transaction (with the ratings when the game just ended); the future answers once
        committed."""
        ops = self.moves_ops()
        ops.append(self._update_op())
        if self.game.over and self.on_final is not None:
            ops.extend(self.on_final(self))
        return self._write(ops)

    def moves_ops(self) -> list[Op]:
        """What stores the decisions played since the last save (counted stored)."""
        table_id = self.id
        history = self.game.history if self.stored < self.decision_number else []
        entries = [(n, json.dumps(history[n], separators=(",", ":")))
                   for n in range(self.stored, self.decision_number)]
        ops: list[Op] = []
        if entries:
            rows = [{"table_id": table_id, "number": n, "record": text} for n, text in entries]
            ops.append(lambda c: db.run(c, db.moves.insert(), rows))
        self.stored = self.decision_number
        return ops

    def log_lines(self) -> list[dict[str, Any]]:
        """The engine's own game log of this table (``wonders replay`` replays it)."""
        return game_log.lines(self.game, self.source.spec, self.source.paths, self.sides)

    def checkpoint(self) -> tuple[Any, ...]:
        """What ``rollback`` puts back: the game (a clone), the chosen actions, recaps,
        clocks, the seats played by the stand-in."""
        return (self.game.clone(), dict(self.pending), list(self.recaps), self.stored,
                None if self.clocks is None else self.clocks.copy(), set(self.away))

    def rollback(self, point: tuple[Any, ...]) -> None:
        """Undo a move whose changes could not be committed (the transaction changed
        nothing, so only memory goes back): the table as it was at ``point``."""
        (self.game, self.pending, self.recaps, self.stored, self.clocks,
         self.away) = point


def _done() -> Future[None]:
    future: Future[None] = Future()
    future.set_result(None)
    return future


def _short(value: Any) -> str:
    text = json.dumps(value)[:80] if _jsonable(value) else repr(value)[:80]
    return text


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


class Tables:
    """The tables of a server in memory, the games it offers, and the database they are
    kept in.

    ``tables`` holds every live table and the finished ones not yet retired; a finished
    table is retired ``finished_keep_seconds`` after it ended or was last opened
    (``get``), the oldest first once more than ``finished_keep_max`` are kept, but never
    while a page watches it.  Retiring happens on ``create``, ``get`` and ``listing``
    (no thread: ``finished`` keeps the finished tables in the order they are due, so a
    pass looks only at the due ones).  ``clock`` is injectable for tests.

    The database is ``database`` (a SQLAlchemy URL) or else ``wonders.db`` in
    ``data_dir`` (made if missing; it must be writable and the database a regular file),
    or else an in-memory SQLite database that dies with the server."""

    def __init__(self, data_dir: Path | None, games: Sequence[GameSource],
                 search_seconds: float = 2.0, *,
                 finished_keep_seconds: float = FINISHED_KEEP_SECONDS,
                 finished_keep_max: int = FINISHED_KEEP_MAX,
                 max_tables: int = MAX_TABLES,
                 clock: Callable[[], float] = time.time,
                 database: str | None = None) -> None:
        self.data_dir = data_dir
        self.games = {g.label: g for g in games}
        self.tables: dict[str, Table] = {}
        # the finished tables in memory, by when they ended or were last opened
        self.finished: OrderedDict[str, float] = OrderedDict()
        # ids whose record failed to restore on demand: not replayed again on each request
        self.unrestorable: set[str] = set()
        self.finished_keep_seconds = finished_keep_seconds
        self.finished_keep_max = finished_keep_max
        self.max_tables = max_tables
        self.clock = clock
        self.search_seconds = search_seconds
        self.restore_problems: list[str] = []
        self.imported: list[str] = []   # tables an older server's files held
        self.catalogues: dict[str, dict[str, Any]] = {}
        self.hints: dict[tuple[str, int, int], dict[str, Any]] = {}
        if database is None and data_dir is not None:
            data_dir.mkdir(parents=True, exist_ok=True)
            db.check_writable(data_dir)   # a read-only or full disk: refused at start-up
            db.check_database_file(data_dir / db.DATABASE_FILE)
        self.store = Store(db.database_url(data_dir, database))
        if data_dir is not None and data_dir.is_dir():   # an older server's files
            from wonders.serve import legacy

            self.imported, problems = legacy.import_folder(self.store, data_dir)
            self.restore_problems.extend(problems)
        self.restore()

    def catalogue(self, source: GameSource) -> dict[str, Any]:
        """The game's catalogue for pages (made once per game)."""
        found = self.catalogues.get(source.spec)
        if found is None:
            found = self.catalogues[source.spec] = present.catalogue(source.data)
        return found

    def drain(self) -> None:
        """Wait until every change handed to the database is committed."""
        self.store.drain()

    def close(self) -> None:
        """Commit what is queued and let the database go."""
        self.store.close()

    def get(self, table_id: Any) -> Table:
        """The table of an id: in memory, or a retired game restored from its files."""
        table = self.tables.get(table_id) if isinstance(table_id, str) else None
        if table is None:
            table = self._load(table_id)
        if table.id in self.finished:   # opened again: kept for another while
            self.finished[table.id] = self.clock()
            self.finished.move_to_end(table.id)
        self.retire(sparing=table.id)
        return table

    def listing(self) -> list[Table]:
        """The tables in memory, newest first: the live ones and the recently finished."""
        self.retire()
        return sorted(self.tables.values(), key=lambda t: -t.created)

    @property
    def live(self) -> int:
        """How many tables in memory are unfinished (what ``max_tables`` bounds)."""
        return len(self.tables) - len(self.finished)

    def _add(self, table: Table) -> None:
        table.on_over = self._ended
        table.on_final = self.final_ops
        table.now = self.clock
        now = self.clock()
        for seat, entry in enumerate(table.seats):   # nobody has joined yet
            if entry.kind == HUMAN:
                table.absent_since.setdefault(seat, now)
        self.tables[table.id] = table
        if table.game.over:
            self._ended(table)

    def _ended(self, table: Table) -> None:
        if self.tables.get(table.id) is table:
            self.finished[table.id] = self.clock()
            self.finished.move_to_end(table.id)

    def retire(self, sparing: str | None = None) -> None:
        """Drop from memory the finished tables that are due: kept longer than
        ``finished_keep_seconds``, or beyond the ``finished_keep_max`` most recent.  A
        table a page watches stays (and is looked at again on the next pass); its files
        stay on disk either way."""
        now = self.clock()
        excess = len(self.finished) - self.finished_keep_max
        due: list[str] = []
        for table_id, since in self.finished.items():
            if len(due) >= excess and now - since < self.finished_keep_seconds:
                break   # the rest ended later
            table = self.tables.get(table_id)
            if table_id == sparing or (table is not None and table.listeners):
                continue
            due.append(table_id)
        for table_id in due:
            del self.finished[table_id]
            self.tables.pop(table_id, None)

    def open_seats(self, account: int) -> list[dict[str, Any]]:
        """The unfinished tables' seats an account plays, with their join links."""
        query = sa.select(db.seats.c.table_id, db.seats.c.seat, db.seats.c.token,
                          db.tables.c.game).join(
            db.tables, db.tables.c.id == db.seats.c.table_id).where(
            (db.seats.c.account_id == account) & (db.tables.c.over == sa.false())).order_by(
            db.tables.c.created.desc()).limit(50)
        with self.store.reading() as connection:
            rows = connection.execute(query).all()
        return [{"table": r[0], "seat": r[1], "game": r[3],
                 "link": f"/table/{r[0]}#token={r[2]}"} for r in rows]

    def final_ops(self, table: Table) -> list[Op]:
        """What the final decision's write does besides: rate a normal game between two or
        more accounts (:mod:`.ratings`)."""
        from wonders.serve import ratings

        rated = [(n, s.account) for n, s in enumerate(table.seats) if s.account is not None]
        if table.mode != "normal" or len(rated) < 2:
            return []
        sheet = table.game.score_sheet()
        return [ratings.rate_op(table.source.label, table.id, [a for _, a in rated],
                                [ratings.place(sheet, n) for n, _ in rated], self.clock())]

    def create(self, request: Any) -> Table:
        """A new table from the page's request: ``game``, ``players``, ``seats`` (one kind
        per seat), ``sides`` (choose or random), ``hints``, ``mode`` (normal or training),
        optional ``seed``."""
        if not isinstance(request, dict):
            raise TableError("a table request is a JSON object")
        unknown = set(request) - {"game", "players", "seats", "sides", "hints", "seed",
                                  "mode", "speed", "hours"}
        if unknown:
            raise TableError(f"unknown field(s): {', '.join(sorted(map(str, unknown)))}")
        self.retire()
        if self.live >= self.max_tables:
            raise TableError(f"this server holds {self.max_tables} unfinished tables "
                             "already (finished games do not count); try again when one "
                             "ends")
        label = request.get("game")
        source = self.games.get(label) if isinstance(label, str) else None
        if source is None:
            raise TableError(f"game {_short(label)} is not offered here: "
                             f"{', '.join(self.games)}")
        rules = source.data.rules
        players = request.get("players")
        if not isinstance(players, int) or isinstance(players, bool) or not (
                rules.min_players <= players <= rules.max_players):
            raise TableError(f"players: {_short(players)}; {rules.title} is played by "
                             f"{rules.min_players} to {rules.max_players}")
        kinds = request.get("seats")
        if not isinstance(kinds, list) or len(kinds) != players:
            raise TableError(f"seats: one kind per seat ({players}), each one of "
                             f"{', '.join(SEAT_KINDS)}")
        kinds = [BOT_ALIASES.get(kind, kind) if isinstance(kind, str) else kind for kind in kinds]
        offered = seat_kinds()
        for kind in kinds:
            if kind not in offered:
                raise TableError(f"seats: {_short(kind)} is not one of {', '.join(offered)}")
        mode = request.get("mode", "normal")
        if mode not in MODES:
            raise TableError(f"mode: {_short(mode)} is not one of {', '.join(MODES)}")
        speed = request.get("speed", UNTIMED)
        if speed not in SPEED_NAMES:
            raise TableError(f"speed: {_short(speed)} is not one of {', '.join(SPEED_NAMES)}")
        hours = request.get("hours", 24)
        if speed != TURN_BASED and "hours" in request:
            raise TableError("hours: only a turn-based table has hours per move")
        if not isinstance(hours, int) or isinstance(hours, bool) or not \
                1 <= hours <= MAX_HOURS:
            raise TableError(f"hours: a whole number of hours per move, 1 to {MAX_HOURS}")
        sides = request.get("sides", "choose")
        if sides not in SIDE_MODES:
            raise TableError(f"sides: {_short(sides)} is not one of {', '.join(SIDE_MODES)}")
        hints = request.get("hints", False)
        if not isinstance(hints, bool):
            raise TableError("hints: true or false")
        seed = request.get("seed", secrets.randbelow(2 ** 31))
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2 ** 63:
            raise TableError("seed: a whole number from 0")
        two_sided = any(len(wonder.sides) > 1 for wonder in source.data.wonders)
        try:
            game = (new_game(source.data, players, seed, sides=sides) if two_sided
                    else new_game(source.data, players, seed))
        except (TypeError, RuleError) as exc:
            raise TableError(f"cannot set up the game: {exc}") from None
        seats = [Seat(kind, secrets.token_urlsafe(18) if kind == HUMAN else None)
                 for kind in kinds]
        table_id = secrets.token_urlsafe(TABLE_ID_BYTES)
        table = Table(table_id, source, game, seats, str(sides) if two_sided else None, hints,
                      time.time(), self.store, mode=str(mode), speed=str(speed),
                      clocks=Clocks.for_speed(str(speed), players, hours))
        self._add(table)
        if table.clocks is not None:
            table.clocks.begin(table.waiting_for(), self.clock())
        table._write(table.insert_ops())
        return table

    def play_on(self, table: Table, request: Any) -> Table:
        """A new table continuing ``table`` (a finished game) from a step of its replay:
        ``at`` (the decisions kept), ``seat`` (the seat the asker plays; None: every seat
        a bot), ``bot`` (the others' kind, greedy by default), ``hints``.  The game is set
        up alike and the first ``at`` decisions played again, so its record is an
        ordinary table's (its moves from the first); a training game, never rated.
        Refused for a running game: its seed, which a new table shares, deals every hand."""
        if not isinstance(request, dict):
            raise TableError("a play-on request is a JSON object")
        unknown = set(request) - {"at", "seat", "bot", "hints"}
        if unknown:
            raise TableError(f"unknown field(s): {', '.join(sorted(map(str, unknown)))}")
        if not table.game.over:
            raise TableError("the game is not over: a running game is played on only "
                             "once it ends (a new table would deal its hidden cards)")
        steps = table.decision_number
        at = request.get("at")
        if not isinstance(at, int) or isinstance(at, bool) or not 0 <= at <= steps:
            raise TableError(f"at: a step, 0 to {steps}")
        if at == steps:
            raise TableError(f"at: the game is over at step {at}; play on from an earlier "
                             "step")
        players = table.game.players
        seat = request.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)
                                 or not 0 <= seat < players):
            raise TableError(f"seat: the seat you play, 0 to {players - 1}, or null (bots "
                             "only)")
        bot = request.get("bot", STAND_IN)
        bot = BOT_ALIASES.get(bot, bot) if isinstance(bot, str) else bot
        bots = [k for k in seat_kinds() if k != HUMAN]
        if bot not in bots:
            raise TableError(f"bot: {_short(bot)} is not one of {', '.join(bots)}")
        hints = request.get("hints", False)
        if not isinstance(hints, bool):
            raise TableError("hints: true or false")
        self.retire()
        if self.live >= self.max_tables:
            raise TableError(f"this server holds {self.max_tables} unfinished tables "
                             "already (finished games do not count); try again when one "
                             "ends")
        game = set_up(table.source, players, table.game.seed, table.sides)
        for number, entry in enumerate(table.game.history[:at]):
            game.play(logged_actions(game, entry, number))
        seats = [Seat(HUMAN, secrets.token_urlsafe(18)) if n == seat else Seat(str(bot))
                 for n in range(players)]
        new = Table(secrets.token_urlsafe(TABLE_ID_BYTES), table.source, game, seats,
                    table.sides, hints, time.time(), self.store, mode="training")
        self._add(new)
        new._write(new.insert_ops() + new.moves_ops())
        return new

    def discard(self, table: Table) -> None:
        """Forget a table just created whose files could not be stored."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
            self.finished.pop(table.id, None)

    # --- restoring ------------------------------------------------------------------

    def restore(self) -> None:
        """Every unfinished table of the database, replayed to where it was; a table that
        does not replay is left as it is and reported in ``restore_problems``.  A finished
        game is not replayed (``get`` restores it when its link is opened)."""
        restored: list[Table] = []
        for table_id in self.store.table_ids(over=False):
            try:
                record = self.store.load(table_id)
                if record is None:
                    continue
                table = self._restore(record)
            except (TableError, RuleError) as exc:
                self.restore_problems.append(f"{table_id}: {exc}")
                continue
            except Exception as exc:  # a damaged row: one table must not stop the server
                self.restore_problems.append(f"{table_id}: not a table record "
                                             f"({type(exc).__name__}: {exc})")
                continue
            restored.append(table)
        for table in sorted(restored, key=lambda t: t.created):   # the oldest due first
            self._add(table)
        self.retire()

    def _load(self, table_id: Any) -> Table:
        """A retired table restored from the database, or the usual TableError.  The id is
        checked first (only the characters of the ids this server makes, a bounded
        length); an unfinished or damaged table is refused (a live table is in memory, or
        did not restore at start-up)."""
        missing = TableError(f"no table {_short(table_id)} on this server")
        if (not isinstance(table_id, str) or TABLE_ID.fullmatch(table_id) is None
                or table_id in self.unrestorable):
            raise missing
        self.store.drain()   # retired just after its last move: read what was committed
        try:
            record = self.store.load(table_id)
        except Exception:   # a damaged row
            self._unrestorable(table_id)
            raise missing from None
        if record is None or not record.row.get("over"):
            raise missing
        try:
            table = self._restore(record)
        except Exception:   # a table that no longer replays: reported at start-up too
            self._unrestorable(table_id)
            raise missing from None
        if not table.game.over:   # not retired, so not restored here either
            self._unrestorable(table_id)
            raise missing
        self._add(table)
        return table

    def _unrestorable(self, table_id: str) -> None:
        if len(self.unrestorable) >= 10_000:
            self.unrestorable.clear()
        self.unrestorable.add(table_id)

    def _source(self, row: dict[str, Any]) -> GameSource:
        for source in self.games.values():
            if source.spec == row.get("spec"):
                return source
        source = load_source(str(row.get("spec")))
        self.games.setdefault(source.label, source)
        return source

    def _restore(self, record: TableRecord) -> Table:
        """The table of a stored record, its moves replayed."""
        row, state = record.row, record.state
        table_id = str(row["id"])
        source = self._source(row)
        sides = row.get("sides")
        game = set_up(source, int(row["players"]), int(row["seed"]), sides)
        for number, entry in enumerate(record.moves):
            if entry.get("_number") != number:
                raise TableError(f"move {number} is missing")
            game.play(logged_actions(game, entry, number))
            if "coins" in entry and entry["coins"] != [c.coins for c in game.cities]:
                raise TableError(f"move {number}: the coins differ on replay")
        names = self.account_names([s["account_id"] for s in record.seats
                                    if s.get("account_id") is not None])
        seats = [Seat(BOT_ALIASES.get(str(s["kind"]), str(s["kind"])), s.get("token"),
                      s.get("account_id"), names.get(s.get("account_id")))
                 for s in record.seats]
        if len(seats) != game.players or any(
                not isinstance(s.token, (str, type(None)))
                or (s.token is None) != (s.kind != HUMAN) for s in seats):
            raise TableError("the seats do not match the game")
        table = Table(table_id, source, game, seats, None if sides is None else str(sides),
                      bool(row.get("hints")), float(row.get("created", 0.0)), self.store,
                      mode=str(row.get("mode", "normal")), speed=str(row.get("speed",
                                                                          "untimed")),
                      events=[str(e) for e in state.get("events") or []],
                      recaps=[r for r in state.get("recaps") or [] if isinstance(r, dict)],
                      stored=len(record.moves),
                      clocks=Clocks.from_json(state.get("clocks"), game.players),
                      away={int(s) for s in state.get("away") or []
                            if isinstance(s, int) and 0 <= s < game.players})
        if row.get("decision") == table.decision_number:
            for seat_text, wanted in (state.get("pending") or {}).items():
                action = find_action(game, int(seat_text), wanted)
                if action is not None:
                    table.pending[int(seat_text)] = action
        return table

    def account_names(self, ids: list[Any]) -> dict[Any, str]:
        """The names of accounts by id."""
        if not ids:
            return {}
        with self.store.reading() as connection:
            rows = connection.execute(sa.select(db.accounts.c.id, db.accounts.c.name).where(
                db.accounts.c.id.in_(ids))).all()
        return {r[0]: str(r[1]) for r in rows}

    # --- bots -----------------------------------------------------------------------

    def bot_jobs(self, table: Table) -> list[tuple[int, int, GameState, Bot]]:
        """The bot moves the open decision needs and are not under way: (seat, decision,
        a clone to choose on, the bot)."""
        jobs: list[tuple[int, int, GameState, Bot]] = []
        if table.game.over or table.failure is not None:
            return jobs
        for seat in table.waiting_for():
            kind = table.seats[seat].kind
            if seat in table.bots_busy or (kind == HUMAN and seat not in table.away):
                continue
            if kind == HUMAN:   # time ran out, or the seat was handed over: the stand-in
                kind = STAND_IN
            seed = random.Random(f"{table.game.seed}:{seat}:{table.decision_number}")
            bot = bot_for(kind, seed.getrandbits(63), self.search_seconds)
            table.bots_busy.add(seat)
            jobs.append((seat, table.decision_number, table.game.clone(), bot))
        return jobs

    def hint(self, table: Table, seat: int) -> dict[str, Any]:
        """What the greedy policy would play for ``seat`` now, and its ranking (why)."""
        if not table.hints:
            raise TableError("this table was created without hints")
        game = table.game
        if seat not in table.waiting_for():
            raise TableError(f"seat {seat} has nothing to choose now")
        key = (table.id, table.decision_number, seat)
        found = self.hints.get(key)
        if found is None:   # worked out once per decision and seat, however often asked
            ranked = greedy_policy(game.data)(0).rank(game, seat, game.legal_actions(seat))
            found = {"type": "hint", "decision": table.decision_number,
                     "best": ranked[0][1].to_json() if ranked else None,
                     "ranking": [{"value": round(value, 2), "text": str(action),
                                  "json": action.to_json()} for value, action in ranked[:5]]}
            if len(self.hints) > 10_000:
                self.hints.clear()
            self.hints[key] = found
        return found


__all__ = ["BOT_KINDS", "GameSource", "HUMAN", "MODES", "SEAT_KINDS", "Seat", "Table",
           "TableError", "Tables", "bot_for", "find_action", "load_source", "seat_kinds",
           "why_not_stored"]
