"""Tables: one game each, its seats (humans with secret tokens, bots), kept on disk.

A table is saved as two files in the data folder: ``<id>.jsonl``, the engine's
own game log (:mod:`wonders.scenarios.log`), rewritten after every decision, and
``<id>.table.json``, what the log does not hold: which seat is a bot of which
kind, each human seat's token, the options, and the actions already chosen for
a simultaneous decision still open, and whether the game is over.  Restoring
replays the log on the loaded data (every logged action found again among the
legal actions, the coins checked after each decision), so a restarted server
has every unfinished table where it was.

A finished game leaves memory (is *retired*) some time after it ended, and only
the most recent ones are kept at all: otherwise a public server would hold every
game it ever hosted, replay each of them on every restart and, once it had
hosted :data:`MAX_TABLES` games, refuse new ones for ever.  Its files stay, so
its link still works: a table asked for that is not in memory is restored from
its files on demand (finished games only; the id checked first, so no request
names a file outside the data folder).  Start-up restores only unfinished
tables, read from the ``over`` field of their record without replaying them.

Everything that changes a table runs in the server's event loop; bots choose
on a clone in a worker thread and their choice is found again among the live
game's legal actions, so a slow bot never blocks a table and never touches it.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import random
import re
import secrets
import stat
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from wonders.dsl.model import Game as GameData

from wonders.scenarios import log as game_log
from wonders.engine.actions import Action
from wonders.bots import Bot
from wonders.bots.mcts import MCTSBot
from wonders.bots.policy import greedy_policy
from wonders.bots.random_bot import RandomBot
from wonders.engine.contract import AnyAction, GameState
from wonders.engine.errors import IllegalActionError, RuleError
from wonders.engine.registry import new_game
from wonders.engine.sources import Source, SourceError, resolve
from wonders import recap
from wonders.serve import present

LOGGER = logging.getLogger("wonders.serve")
HUMAN = "human"
# the bots by the names the command line gives them (wonders.bots); the lobby's old name of
# the search bot is still accepted, in requests and in the records of older tables
BOT_KINDS = ("random", "greedy", "mcts")
BOT_ALIASES = {"search": "mcts"}
SEAT_KINDS = (HUMAN, *BOT_KINDS)
SIDE_MODES = ("choose", "random")
MAX_TABLES = 1000   # live (unfinished) tables; finished ones are retired instead
FINISHED_KEEP_SECONDS = 3600.0
FINISHED_KEEP_MAX = 100
TABLE_ID_BYTES = 9
# What secrets.token_urlsafe makes (12 characters for TABLE_ID_BYTES), with room for
# other lengths: an id matching it names no other folder and no other kind of file.
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
META_SUFFIX = ".table.json"
MAX_RECORD_BYTES = 4 * 1048576   # a table's record (recaps included) is far smaller
RECAPS_KEPT = 12   # the recaps a table keeps (and rewrites with every move): what pages show
LOG_SUFFIX = ".jsonl"


class TableError(RuleError):
    """A request the table refuses (a bad option, an unknown table, a forged seat …): the
    message says why, and nothing changed."""


@dataclass
class Seat:
    """One seat: a human (with the secret token of its join link) or a bot kind."""

    kind: str
    token: str | None = None


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


def bot_for(kind: str, seed: int, search_seconds: float) -> Bot:
    """A bot of a seat kind, seeded for one decision (so a restored table plays on alike)."""
    if kind == "random":
        return RandomBot(seed)
    if kind == "greedy":
        return _Greedy(seed)
    if BOT_ALIASES.get(kind, kind) == "mcts":
        return MCTSBot(seed, time_limit=search_seconds)
    raise TableError(f"'{kind}' is not a bot kind: {', '.join(BOT_KINDS)}")


class _Greedy:
    """The greedy policy of the game's loop as a bot."""

    name = "greedy"

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, game: GameState, seat: int) -> AnyAction:
        action: AnyAction = greedy_policy(game.data)(self.seed).choose(game, seat)
        return action


def find_action(game: GameState, seat: int, wanted: Any) -> AnyAction | None:
    """The legal action of ``seat`` whose ``to_json()`` is ``wanted`` (None if none is)."""
    for action in game.legal_actions(seat):
        if action.to_json() == wanted:
            return action
    return None


class Writer:
    """Writes tables' files in a background thread, each file replaced atomically and
    synced: the event loop hands over the texts and goes on while the future it gets
    back says when they are durably stored, or why they could not be.  A table's files
    are one batch; batches of the same table still queued are merged (only the latest
    text of each file is written) and all their futures answer together.

    A round takes every batch queued (a group commit): each file is written to a new
    temporary file, all of them are synced at once by a few threads (the file system
    commits concurrent syncs together: 50 syncs take ~70 ms here, one after the other
    ~400 ms), then each batch's files are renamed into place and the folder synced once.
    A batch any of whose files cannot be written or synced renames none of them."""

    SYNC_THREADS = 8

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latest: dict[str, tuple[dict[Path, str], list[Future[None]]]] = {}
        self.writing: set[Path] = set()
        self.scheduled = False
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="wonders-log")
        self.syncers = ThreadPoolExecutor(max_workers=self.SYNC_THREADS,
                                          thread_name_prefix="wonders-sync")

    def write(self, key: str, files: dict[Path, str]) -> Future[None]:
        """Hand over ``files`` (path -> text, renamed in this order) of table ``key``."""
        future: Future[None] = Future()
        with self.lock:
            queued = self.latest.get(key)
            if queued is not None:
                queued[0].update(files)
                queued[1].append(future)
            else:
                self.latest[key] = (dict(files), [future])
            start = not self.scheduled
            self.scheduled = True
        if start:
            self.executor.submit(self._flush)
        return future

    def _flush(self) -> None:
        with self.lock:
            batches = list(self.latest.values())
            self.latest.clear()
            self.scheduled = False
            for files, _ in batches:
                self.writing.update(files)
        try:
            self._round(batches)
        finally:
            with self.lock:
                for files, _ in batches:
                    self.writing.difference_update(files)

    def _round(self, batches: list[tuple[dict[Path, str], list[Future[None]]]]) -> None:
        prepared: list[tuple[list[tuple[Path, Path, int]], list[Future[None]]]] = []
        for files, futures in batches:
            opened: list[tuple[Path, Path, int]] = []
            try:
                for path, text in files.items():
                    temporary, descriptor = _write_temporary(path, text)
                    opened.append((path, temporary, descriptor))
            except Exception as exc:   # any failure answers its futures: none waits
                _discard(opened)
                _fail(futures, path, exc)
            else:
                prepared.append((opened, futures))
        descriptors = [d for opened, _ in prepared for _, _, d in opened]
        errors = dict(zip(descriptors, self.syncers.map(_try_sync, descriptors)))
        renamed: list[list[Future[None]]] = []
        folders: set[Path] = set()
        for opened, futures in prepared:
            failed = [(p, error) for p, _, d in opened if (error := errors[d]) is not None]
            if failed:
                _discard(opened)
                _fail(futures, *failed[0])
                continue
            try:
                for path, temporary, descriptor in opened:
                    os.close(descriptor)
                for path, temporary, _ in opened:
                    os.replace(temporary, path)
                    folders.add(path.parent)
            except Exception as exc:
                _fail(futures, path, exc)
            else:
                renamed.append(futures)
        try:
            for folder in folders:   # the renames themselves survive a crash
                _sync_folder(folder)
        except Exception as exc:
            for futures in renamed:
                _fail(futures, folder, exc)
        else:
            for futures in renamed:
                for future in futures:
                    future.set_result(None)

    def busy(self, path: Path) -> bool:
        """Whether a text for ``path`` is queued or being written: reading the file now
        could find an older text than the one handed over."""
        with self.lock:
            return path in self.writing or any(path in files for files, _ in
                                               self.latest.values())

    def drain(self) -> None:
        """Wait until everything handed over is on disk (or failed)."""
        self.executor.submit(lambda: None).result()


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
    data_dir: Path | None
    writer: Writer | None = None
    pending: dict[int, AnyAction] = field(default_factory=dict)
    listeners: list[Callable[[], None]] = field(default_factory=list)
    bots_busy: set[int] = field(default_factory=set)
    # the future of the last files handed to the writer: a move is acknowledged once it
    # answers (durably stored), refused and undone if it fails
    saved: Future[None] | None = field(default=None, repr=False)
    events: list[str] = field(default_factory=list)   # what happened, in older records
    # one recap per decision (wonders.recap), the most recent last; each seat is sent
    # what it may see of them (recap.for_seat)
    recaps: list[dict[str, Any]] = field(default_factory=list)
    # called once when a decision ends the game: how Tables learns when to retire it
    # without looking at every table
    on_over: Callable[[Table], None] | None = field(default=None, repr=False)

    # --- reading --------------------------------------------------------------------

    @property
    def decision_number(self) -> int:
        """How many decisions were played: what a message names to act on the open one."""
        return len(self.game.history)

    def seat_of(self, token: str) -> int | None:
        """The seat a token plays (compared in constant time), or None."""
        given = token.encode("utf-8", "replace")   # bytes: any text compares, never raises
        found = None
        for seat, entry in enumerate(self.seats):
            if entry.token is not None and secrets.compare_digest(entry.token.encode(), given):
                found = seat
        return found

    def waiting_for(self) -> list[int]:
        """Seats that still have to choose for the open decision."""
        return [s for s in self.game.to_move() if s not in self.pending]

    def summary(self) -> dict[str, Any]:
        """Public facts about the table (for the lobby and every page)."""
        return {"id": self.id, "game": self.source.label, "title": self.source.data.rules.title,
                "players": self.game.players, "seats": [s.kind for s in self.seats],
                "sides": self.sides, "hints": self.hints, "over": self.game.over,
                "decision": self.decision_number}   # never the seed: it deals every hand

    def state_for(self, seat: int | None) -> dict[str, Any]:
        """What a page at ``seat`` (None: a spectator) is sent after every change."""
        game = self.game
        view = present.public_view(game) if seat is None else game.view(seat)
        decision = game.decision()
        message: dict[str, Any] = {
            "type": "state", "table": self.summary(), "decision": self.decision_number,
            "seat": seat, "view": view,
            "pending": {"kind": decision.kind, "wording": decision.wording,
                        "seats": list(decision.seats), "chosen": sorted(self.pending)},
            "production": [present.production(game, s) for s in range(game.players)],
            "recap": recap.for_seat(self.recaps[-1], seat) if self.recaps else None,
            "events": self.events_for(seat), "over": game.over,
            "score_sheet": game.score_sheet().to_json(),
        }
        if seat is not None and seat in decision.seats and seat not in self.pending:
            message["actions"] = present.actions_for(game, seat)
        if seat is not None and seat in self.pending:
            message["chosen"] = str(self.pending[seat])
        return message

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
        if not self.waiting_for():
            try:
                self._resolve()
            except TableError:
                del self.pending[seat]
                raise
        else:
            self.save_meta()
        return action

    def _resolve(self) -> None:
        game = self.game
        number = self.decision_number
        was = recap.before(game, present.public_view(game))
        actions = dict(self.pending)
        self.pending.clear()
        try:
            game.play(actions)
        except RuleError as exc:  # the contract: an illegal action changes nothing
            self.pending.update(actions)
            raise TableError(f"the decision could not be played: {exc}") from None
        self.recaps.append(recap.make(game, was, actions, present.public_view(game), number,
                                      describe=lambda a: present.action_text(game, a)))
        del self.recaps[:-RECAPS_KEPT]
        self.save()
        if self.game.over and self.on_over is not None:
            self.on_over(self)

    def notify(self) -> None:
        for listener in list(self.listeners):
            listener()

    # --- disk -----------------------------------------------------------------------

    def meta(self) -> dict[str, Any]:
        """The table's own record: what the log does not hold, and ``over``, so that a
        restart can leave a finished game on disk without replaying it to find out."""
        return {"id": self.id, "game": self.source.label, "spec": self.source.spec,
                "paths": list(self.source.paths), "players": self.game.players,
                "seed": self.game.seed, "sides": self.sides, "hints": self.hints,
                "created": self.created,
                "seats": [{"kind": s.kind, "token": s.token} for s in self.seats],
                "decision": self.decision_number, "over": self.game.over,
                "pending": {str(s): a.to_json() for s, a in sorted(self.pending.items())},
                "events": self.events, "recaps": self.recaps}

    def _write(self, files: dict[Path, str]) -> Future[None]:
        if self.writer is not None:
            self.saved = self.writer.write(self.id, files)
        else:   # no writer thread: written now; the future holds how it went
            self.saved = Future()
            try:
                for path, text in files.items():
                    _write_atomic(path, text)
            except Exception as exc:
                self.saved.set_exception(exc)
            else:
                self.saved.set_result(None)
        return self.saved

    def save_meta(self) -> Future[None]:
        """Write the table's own record; the future answers once it is durably stored."""
        if self.data_dir is None:
            return _done()
        return self._write({self.data_dir / f"{self.id}{META_SUFFIX}":
                            json.dumps(self.meta(), separators=(",", ":"))})

    def save(self) -> Future[None]:
        """Write the game log, then the table's own record (each replaced atomically and
        synced; neither renamed unless both were written); the future answers once both
        are durably stored.  The log is renamed first: a crash between the two renames
        leaves the new log with the old record, which a restart replays to the new
        decision (the old record's choices, made for the decision just played, are
        dropped as they should be), never the new record's empty choices over the old
        log's open decision, which would lose choices already acknowledged."""
        if self.data_dir is None:
            return _done()
        lines = game_log.lines(self.game, self.source.spec, self.source.paths, self.sides)
        return self._write({
            self.data_dir / f"{self.id}{LOG_SUFFIX}":
                "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in lines),
            self.data_dir / f"{self.id}{META_SUFFIX}":
                json.dumps(self.meta(), separators=(",", ":"))})

    def checkpoint(self) -> tuple[GameState, dict[int, AnyAction], list[dict[str, Any]]]:
        """What ``rollback`` puts back: the game (a clone), the chosen actions, recaps."""
        return self.game.clone(), dict(self.pending), list(self.recaps)

    def rollback(self, point: tuple[GameState, dict[int, AnyAction], list[dict[str, Any]]]
                 ) -> None:
        """Undo a move whose files could not be stored: the table as it was at ``point``,
        its record rewritten as it was (best effort: the disk may still refuse it)."""
        game, pending, recaps = point
        self.game, self.pending, self.recaps = game, pending, recaps
        self.save_meta()


def why_not_stored(exc: BaseException) -> str:
    """A failed write in words: the system's reason ("No space left on device")."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


def _done() -> Future[None]:
    future: Future[None] = Future()
    future.set_result(None)
    return future


def _write_temporary(path: Path, text: str) -> tuple[Path, int]:
    """``text`` written to a new file beside ``path`` (never through a FIFO or a link
    left under its name), not yet synced: its name and open descriptor."""
    temporary = path.with_name(path.name + ".tmp")
    with contextlib.suppress(FileNotFoundError):
        os.unlink(temporary)
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
                         0o600)
    try:
        data = text.encode("utf-8")
        written = 0
        while written < len(data):
            written += os.write(descriptor, data[written:])
    except BaseException:
        os.close(descriptor)
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return temporary, descriptor


def _try_sync(descriptor: int) -> BaseException | None:
    try:
        os.fsync(descriptor)
    except Exception as exc:
        return exc
    return None


def _discard(opened: list[tuple[Path, Path, int]]) -> None:
    """Close and remove the temporary files of a batch that will not be renamed."""
    for _, temporary, descriptor in opened:
        with contextlib.suppress(OSError):
            os.close(descriptor)
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def _fail(futures: list[Future[None]], path: Path, exc: BaseException) -> None:
    LOGGER.error("cannot store %s: %s", path, why_not_stored(exc))
    for future in futures:
        future.set_exception(exc)


def _write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` by ``text``: written to a new file, synced, renamed over ``path``,
    the folder synced so the rename itself survives a crash (what the writer thread
    does for many files at once)."""
    temporary, descriptor = _write_temporary(path, text)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
    os.replace(temporary, path)
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def check_writable(folder: Path) -> None:
    """Raise OSError unless a file can be written, synced and removed in ``folder``."""
    probe = folder / f".wonders-write-check-{os.getpid()}"
    try:
        _write_atomic(probe, "ok")
    finally:
        with contextlib.suppress(OSError):
            os.unlink(probe)


def _read_meta(path: Path) -> dict[str, Any]:
    """A table's record; a FIFO, device, socket or link under its name is refused (opened
    without blocking and without following links, then checked to be a regular file)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise TableError("a link, not a table record: only regular files are read") \
                from None
        raise
    with open(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise TableError("not a regular file (a FIFO, a socket or a device): only "
                             "regular files are read")
        meta = json.loads(handle.read(MAX_RECORD_BYTES + 1).decode("utf-8"))
    if not isinstance(meta, dict):
        raise TableError("not a table record")
    return meta


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
    """The tables of a server in memory, the games it offers, and the folder they are
    kept in.

    ``tables`` holds every live table and the finished ones not yet retired; a finished
    table is retired ``finished_keep_seconds`` after it ended or was last opened
    (``get``), the oldest first once more than ``finished_keep_max`` are kept, but never
    while a page watches it.  Retiring happens on ``create``, ``get`` and ``listing``
    (no thread: ``finished`` keeps the finished tables in the order they are due, so a
    pass looks only at the due ones).  ``clock`` is injectable for tests."""

    def __init__(self, data_dir: Path | None, games: Sequence[GameSource],
                 search_seconds: float = 2.0, *,
                 finished_keep_seconds: float = FINISHED_KEEP_SECONDS,
                 finished_keep_max: int = FINISHED_KEEP_MAX,
                 max_tables: int = MAX_TABLES,
                 clock: Callable[[], float] = time.time) -> None:
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
        self.catalogues: dict[str, dict[str, Any]] = {}
        self.hints: dict[tuple[str, int, int], dict[str, Any]] = {}
        self.writer = Writer() if data_dir is not None else None
        if data_dir is not None:
            data_dir.mkdir(parents=True, exist_ok=True)
            check_writable(data_dir)   # a read-only or full disk: refused at start-up
            self.restore()

    def catalogue(self, source: GameSource) -> dict[str, Any]:
        """The game's catalogue for pages (made once per game)."""
        found = self.catalogues.get(source.spec)
        if found is None:
            found = self.catalogues[source.spec] = present.catalogue(source.data)
        return found

    def drain(self) -> None:
        """Wait until every table's files are written."""
        if self.writer is not None:
            self.writer.drain()

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

    def create(self, request: Any) -> Table:
        """A new table from the page's request: ``game``, ``players``, ``seats`` (one kind
        per seat), ``sides`` (choose or random), ``hints``, optional ``seed``."""
        if not isinstance(request, dict):
            raise TableError("a table request is a JSON object")
        unknown = set(request) - {"game", "players", "seats", "sides", "hints", "seed"}
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
        for kind in kinds:
            if kind not in SEAT_KINDS:
                raise TableError(f"seats: {_short(kind)} is not one of {', '.join(SEAT_KINDS)}")
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
                      time.time(), self.data_dir, self.writer)
        self._add(table)
        table.save()
        return table

    def discard(self, table: Table) -> None:
        """Forget a table just created whose files could not be stored."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
            self.finished.pop(table.id, None)

    # --- restoring ------------------------------------------------------------------

    def restore(self) -> None:
        """Every unfinished table of the data folder, replayed to where it was; a table
        that does not replay is left on disk and reported in ``restore_problems``.  A
        record saying its game is over is not replayed (``get`` restores it when its
        link is opened); a record written before records said so is replayed, and
        rewritten with the field, so the next start skips it if it is over."""
        assert self.data_dir is not None
        restored: list[Table] = []
        for path in sorted(self.data_dir.glob(f"*{META_SUFFIX}")):
            try:
                meta = _read_meta(path)
                if meta.get("over") is True:
                    continue
                table = self._restore(path, meta)
            except (TableError, RuleError, OSError) as exc:
                self.restore_problems.append(f"{path.name}: {exc}")
                continue
            except Exception as exc:  # a damaged record: one table must not stop the server
                self.restore_problems.append(f"{path.name}: not a table record "
                                             f"({type(exc).__name__}: {exc})")
                continue
            if "over" not in meta:
                table.save_meta()
            restored.append(table)
        for table in sorted(restored, key=lambda t: t.created):   # the oldest due first
            self._add(table)
        self.retire()

    def _load(self, table_id: Any) -> Table:
        """A retired table restored from its files, or the usual TableError.  The id is
        checked before it names a file: only the characters of the ids this server makes
        (so never a path), a bounded length; an unfinished or damaged record is
        refused (a live table is in memory, or did not restore at start-up)."""
        missing = TableError(f"no table {_short(table_id)} on this server")
        if (self.data_dir is None or not isinstance(table_id, str)
                or TABLE_ID.fullmatch(table_id) is None or table_id in self.unrestorable):
            raise missing
        path = self.data_dir / f"{table_id}{META_SUFFIX}"
        log_path = self.data_dir / f"{table_id}{LOG_SUFFIX}"
        if self.writer is not None and (self.writer.busy(path) or self.writer.busy(log_path)):
            self.writer.drain()   # retired just after its last move: read what was written
        try:
            meta = _read_meta(path)
        except FileNotFoundError:
            raise missing from None
        except Exception:   # unreadable, not JSON, not a record
            self._unrestorable(table_id)
            raise missing from None
        if meta.get("over") is False or meta.get("id") != table_id:
            raise missing
        try:
            table = self._restore(path, meta)
        except Exception:   # a record that no longer replays: reported at start-up too
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

    def _source(self, meta: dict[str, Any]) -> GameSource:
        label = meta.get("game")
        for source in self.games.values():
            if source.spec == meta.get("spec"):
                return source
        if not isinstance(label, str):
            raise TableError("the table's game is missing")
        source = load_source(str(meta.get("spec")))
        self.games.setdefault(source.label, source)
        return source

    def _restore(self, path: Path, meta: dict[str, Any] | None = None) -> Table:
        """The table of a record (``meta``, when already read), its log replayed."""
        if meta is None:
            meta = _read_meta(path)
        table_id = str(meta["id"])
        if table_id + META_SUFFIX != path.name or TABLE_ID.fullmatch(table_id) is None:
            # the id names the table's other files: one that is not the record's own name
            # could make the server read or write a file it did not write
            raise TableError(f"the record's id {_short(table_id)} is not its file's name")
        source = self._source(meta)
        log_path = path.with_name(f"{table_id}{LOG_SUFFIX}")
        records = game_log.read(log_path)
        head = records[0]
        sides = meta.get("sides")
        game = new_game(source.data, int(head["players"]), int(head["seed"]),
                        **({} if game_log.sides_option(head) is None
                           else {"sides": game_log.sides_option(head)}))
        for record in records[1:]:
            if record.get("type") != "decision":
                continue
            actions: dict[int, AnyAction] = {}
            for seat_text, wanted in (record.get("actions") or {}).items():
                action = find_action(game, int(seat_text), wanted)
                if action is None:
                    raise TableError(f"line {record['_line']}: seat {seat_text}'s action "
                                     "is no longer legal")
                actions[int(seat_text)] = action
            game.play(actions)
            if "coins" in record and record["coins"] != [c.coins for c in game.cities]:
                raise TableError(f"line {record['_line']}: the coins differ on replay")
        seats = [Seat(BOT_ALIASES.get(str(s["kind"]), str(s["kind"])), s.get("token"))
                 for s in meta["seats"]]
        if len(seats) != game.players or any(
                s.kind not in SEAT_KINDS or not isinstance(s.token, (str, type(None)))
                or (s.token is None) != (s.kind != HUMAN) for s in seats):
            raise TableError("the seats do not match the game")
        table = Table(table_id, source, game, seats, None if sides is None else str(sides),
                      bool(meta.get("hints")),
                      float(meta.get("created", 0.0)), self.data_dir, self.writer,
                      events=[str(e) for e in meta.get("events") or []],
                      recaps=[r for r in meta.get("recaps") or [] if isinstance(r, dict)])
        if meta.get("decision") == table.decision_number:
            for seat_text, wanted in (meta.get("pending") or {}).items():
                action = find_action(game, int(seat_text), wanted)
                if action is not None:
                    table.pending[int(seat_text)] = action
        return table

    # --- bots -----------------------------------------------------------------------

    def bot_jobs(self, table: Table) -> list[tuple[int, int, GameState, Bot]]:
        """The bot moves the open decision needs and are not under way: (seat, decision,
        a clone to choose on, the bot)."""
        jobs: list[tuple[int, int, GameState, Bot]] = []
        if table.game.over:
            return jobs
        for seat in table.waiting_for():
            kind = table.seats[seat].kind
            if kind == HUMAN or seat in table.bots_busy:
                continue
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


__all__ = ["BOT_KINDS", "GameSource", "HUMAN", "SEAT_KINDS", "Seat", "Table", "TableError",
           "Tables", "bot_for", "find_action", "load_source"]
