"""The server's database: tables, seats, moves, accounts, sessions and ratings (SQLAlchemy).

SQLite in a file under ``--data`` by default (``wonders.db``), PostgreSQL (or any
database SQLAlchemy reaches) by URL.  The schema is made and upgraded by the Alembic
migrations shipped in :mod:`wonders.serve.migrations`, run at start-up.

Writes go through :class:`Store.write`: the event loop hands over a table's
operations (functions of a connection) and goes on, while the future it gets
back answers once they are **committed** (a SQLite file with ``synchronous=FULL``;
PostgreSQL's default ``synchronous_commit``), or with why they could not be.  One
writer thread commits every batch queued in one transaction (a group commit: one
sync for many tables); a round that fails is retried batch by batch, so one
table's failure refuses that table's move only.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import stat
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Iterator

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import StaticPool

LOGGER = logging.getLogger("wonders.serve")
DATABASE_FILE = "wonders.db"
Op = Callable[[Connection], None]

metadata = sa.MetaData()
accounts = sa.Table(
    "accounts", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(32), nullable=False, unique=True),
    sa.Column("name_key", sa.String(32), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(256), nullable=False),
    sa.Column("created", sa.Float, nullable=False))
sessions = sa.Table(
    "sessions", metadata,
    sa.Column("id", sa.String(64), primary_key=True),   # sha-256 of the cookie's secret
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("created", sa.Float, nullable=False))
settings = sa.Table(
    "settings", metadata,
    sa.Column("key", sa.String(64), primary_key=True),
    sa.Column("value", sa.Text, nullable=False))
tables = sa.Table(
    "tables", metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("game", sa.String(512), nullable=False),
    sa.Column("spec", sa.Text, nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("sides", sa.String(32)),
    sa.Column("hints", sa.Boolean, nullable=False),
    sa.Column("mode", sa.String(16), nullable=False),
    sa.Column("speed", sa.String(16), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("over", sa.Boolean, nullable=False),
    sa.Column("decision", sa.Integer, nullable=False),
    # what the moves do not hold: the choices of the open decision, the recaps, the clocks
    sa.Column("state", sa.Text, nullable=False))
seats = sa.Table(
    "seats", metadata,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(256), nullable=False),
    sa.Column("token", sa.String(64)),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id")))
moves = sa.Table(
    "moves", metadata,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("record", sa.Text, nullable=False))   # the game's history entry, as JSON
ratings = sa.Table(
    "ratings", metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("game", sa.String(512), primary_key=True),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False))
rating_changes = sa.Table(
    "rating_changes", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("game", sa.String(512), nullable=False),
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), nullable=False),
    sa.Column("before", sa.Float, nullable=False),
    sa.Column("after", sa.Float, nullable=False),
    sa.Column("rank", sa.Integer, nullable=False),
    sa.Column("at", sa.Float, nullable=False))
sa.Index("seats_account", seats.c.account_id)
sa.Index("changes_account", rating_changes.c.account_id, rating_changes.c.game)
sa.Index("tables_over", tables.c.over)


class StoreError(Exception):
    """A database the server cannot use (a special file in its place, no connection, a
    schema it cannot migrate): the message says why."""


@dataclass
class TableRecord:
    """A table as stored: its row, its seats (in order) and its moves (in order)."""

    row: dict[str, Any]
    seats: list[dict[str, Any]]
    moves: list[dict[str, Any]]
    state: dict[str, Any] = field(default_factory=dict)


def run(connection: Connection, statement: Any, parameters: Any = None) -> Any:
    """Execute one write: every write goes through here (tests make it fail)."""
    return connection.execute(statement, parameters)


def database_url(data_dir: Path | None, url: str | None) -> str:
    """The database to use: ``url`` (``postgresql://`` meaning the psycopg 3 driver), else
    ``wonders.db`` in ``data_dir``, else memory."""
    if url:
        for prefix in ("postgresql://", "postgres://"):
            if url.startswith(prefix):
                return "postgresql+psycopg://" + url[len(prefix):]
        return url
    if data_dir is None:
        return "sqlite://"
    return f"sqlite:///{data_dir / DATABASE_FILE}"


def check_database_file(path: Path) -> None:
    """Refuse a special file (a FIFO, a socket, a device, a folder, a link) where the
    SQLite file or its journals would be: opening one could block or write elsewhere."""
    for candidate in (path, path.with_name(path.name + "-wal"),
                      path.with_name(path.name + "-journal"),
                      path.with_name(path.name + "-shm")):
        try:
            mode = os.lstat(candidate).st_mode
        except FileNotFoundError:
            continue
        if not stat.S_ISREG(mode):
            what = ("a link" if stat.S_ISLNK(mode) else "a folder" if stat.S_ISDIR(mode)
                    else "a FIFO, a socket or a device")
            raise StoreError(f"{candidate} is {what}, not a database file: only a regular "
                             "file is opened")


def check_writable(folder: Path) -> None:
    """Raise OSError unless a file can be written, synced and removed in ``folder``."""
    probe = folder / f".wonders-write-check-{os.getpid()}"
    try:
        _write_probe(probe)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(probe)


def _write_probe(path: Path) -> None:
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    try:
        os.write(descriptor, b"ok")
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def migrations_dir() -> Path:
    return Path(str(resources.files("wonders.serve").joinpath("migrations")))


def migrate(engine: Engine) -> None:
    """Bring the database's schema to the newest migration (Alembic, run in-process)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(migrations_dir()))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def why_not_stored(exc: BaseException) -> str:
    """A failed write in words: the system's or the database's reason."""
    if isinstance(exc, sa.exc.DBAPIError) and exc.orig is not None:
        return str(exc.orig).strip().splitlines()[0] or type(exc.orig).__name__
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


class Store:
    """One database: its engine, the writer thread and the reads the server needs."""

    def __init__(self, url: str) -> None:
        self.url = url
        sqlite = url.startswith("sqlite")
        options: dict[str, Any] = {}
        if url == "sqlite://":   # one in-memory database shared by every thread
            options = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
        elif sqlite:
            options = {"connect_args": {"check_same_thread": False, "timeout": 30}}
        else:
            options = {"pool_pre_ping": True}
        try:
            self.engine = sa.create_engine(url, **options)
        except Exception as exc:   # a malformed URL, a missing driver
            raise StoreError(f"cannot use the database {_redacted(url)}: {exc}") from None
        if sqlite:
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        try:
            migrate(self.engine)
        except sa.exc.SQLAlchemyError as exc:
            raise StoreError(f"cannot use the database {_redacted(url)}: "
                             f"{why_not_stored(exc)}") from None
        self.lock = threading.Lock()
        self.queued: dict[str, tuple[list[Op], list[Future[None]]]] = {}
        self.scheduled = False
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="wonders-db")

    def describe(self) -> str:
        """The database in words, without its password."""
        return _redacted(self.url)

    # --- writing --------------------------------------------------------------------

    def write(self, key: str, ops: list[Op]) -> Future[None]:
        """Hand over ``ops`` (run in order, in one transaction with whatever else is
        queued); the future answers once they are committed."""
        future: Future[None] = Future()
        with self.lock:
            queued = self.queued.get(key)
            if queued is not None:
                queued[0].extend(ops)
                queued[1].append(future)
            else:
                self.queued[key] = (list(ops), [future])
            start = not self.scheduled
            self.scheduled = True
        if start:
            self.executor.submit(self._flush)
        return future

    def write_now(self, ops: list[Op]) -> None:
        """Run ``ops`` in a transaction of their own, in this thread (raises on failure)."""
        with self.engine.begin() as connection:
            for op in ops:
                op(connection)

    def _flush(self) -> None:
        with self.lock:
            batches = list(self.queued.values())
            self.queued.clear()
            self.scheduled = False
        try:
            self.write_now([op for ops, _ in batches for op in ops])
        except Exception as exc:
            if len(batches) == 1:
                _fail(batches[0][1], exc)
                return
            for ops, futures in batches:   # one by one: only the failing batch fails
                try:
                    self.write_now(ops)
                except Exception as one:
                    _fail(futures, one)
                else:
                    _succeed(futures)
        else:
            for _, futures in batches:
                _succeed(futures)

    def drain(self) -> None:
        """Wait until everything handed over is committed (or failed)."""
        self.executor.submit(lambda: None).result()

    def close(self) -> None:
        self.drain()
        self.executor.shutdown(wait=True)
        self.engine.dispose()

    # --- reading --------------------------------------------------------------------

    @contextlib.contextmanager
    def reading(self) -> Iterator[Connection]:
        with self.engine.connect() as connection:
            yield connection

    def table_ids(self, over: bool | None = None) -> list[str]:
        query = sa.select(tables.c.id).order_by(tables.c.created)
        if over is not None:
            query = query.where(tables.c.over == over)
        with self.reading() as connection:
            return [str(r[0]) for r in connection.execute(query)]

    def load(self, table_id: str) -> TableRecord | None:
        """A table as stored, or None."""
        with self.reading() as connection:
            row = connection.execute(sa.select(tables).where(tables.c.id == table_id)).first()
            if row is None:
                return None
            seat_rows = connection.execute(sa.select(seats).where(
                seats.c.table_id == table_id).order_by(seats.c.seat)).mappings().all()
            move_rows = connection.execute(sa.select(moves.c.number, moves.c.record).where(
                moves.c.table_id == table_id).order_by(moves.c.number)).all()
        record = TableRecord(dict(row._mapping), [dict(s) for s in seat_rows], [])
        for number, text in move_rows:
            entry = json.loads(text)
            entry["_number"] = int(number)
            record.moves.append(entry)
        state = json.loads(record.row["state"] or "{}")
        record.state = state if isinstance(state, dict) else {}
        return record

    def dump(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every table (tests compare it before and after a refusal)."""
        found: dict[str, list[tuple[Any, ...]]] = {}
        with self.reading() as connection:
            for table in metadata.sorted_tables:
                rows = connection.execute(sa.select(table)).all()
                found[table.name] = sorted((tuple(r) for r in rows), key=repr)
        return found

    def setting(self, key: str, make: Callable[[], str]) -> str:
        """A server setting (its secret), made and stored the first time it is asked."""
        with self.reading() as connection:
            found = connection.execute(sa.select(settings.c.value).where(
                settings.c.key == key)).scalar()
        if found is not None:
            return str(found)
        value = make()
        try:
            self.write_now([lambda c: run(c, settings.insert().values(key=key, value=value))])
        except sa.exc.IntegrityError:   # another server process made it first
            return self.setting(key, make)
        return value


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """A commit is on the disk when it returns (WAL, synced on every commit)."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def _fail(futures: list[Future[None]], exc: BaseException) -> None:
    LOGGER.error("cannot store a change: %s", why_not_stored(exc))
    for future in futures:
        future.set_exception(exc)


def _succeed(futures: list[Future[None]]) -> None:
    for future in futures:
        future.set_result(None)


def _redacted(url: str) -> str:
    """A URL without its password (it goes to the log and the terminal)."""
    try:
        return sa.engine.make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "(a malformed URL)"


__all__ = ["DATABASE_FILE", "Store", "StoreError", "TableRecord", "check_database_file",
           "check_writable", "database_url", "migrate", "run", "why_not_stored"]
