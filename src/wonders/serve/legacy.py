"""Tables an older server kept as files (``ID.table.json`` and ``ID.jsonl`` in ``--data``),
imported into the database at start-up so that an upgraded server restores them.

Each record is read as the old server read it: opened without blocking and without
following links, a regular file only, bounded in size, its id matching its file's
name; its log read by :func:`wonders.scenarios.log.read`.  A table already in the
database is skipped (the files stay, so importing again is harmless); one that cannot be
read is reported, never fatal.  The imported rows replay like any other table.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from wonders.scenarios import log as game_log
from wonders.serve import store as db

RECORD_SUFFIX = ".table.json"
LOG_SUFFIX = ".jsonl"
MAX_RECORD_BYTES = 4 * 1048576


class LegacyError(ValueError):
    """A record that cannot be imported: the message says why."""


def read_record(path: Path) -> dict[str, Any]:
    """An old table record; a FIFO, device, socket or link under its name is refused."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise LegacyError("a link, not a table record: only regular files are read") \
                from None
        raise
    with open(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise LegacyError("not a regular file (a FIFO, a socket or a device): only "
                              "regular files are read")
        record = json.loads(handle.read(MAX_RECORD_BYTES + 1).decode("utf-8"))
    if not isinstance(record, dict):
        raise LegacyError("not a table record")
    return record


def _check_log(path: Path) -> None:
    mode = os.lstat(path).st_mode
    if not stat.S_ISREG(mode):
        raise LegacyError(f"{path.name} is not a regular file: only regular files are read")


def import_folder(store: db.Store, folder: Path) -> tuple[list[str], list[str]]:
    """Import every old table of ``folder`` not yet in the database: (imported ids,
    problems)."""
    imported: list[str] = []
    problems: list[str] = []
    paths = sorted(folder.glob(f"*{RECORD_SUFFIX}"))
    if not paths:
        return imported, problems
    known = set(store.table_ids())
    for path in paths:
        try:
            record = read_record(path)
            table_id = str(record.get("id"))
            if table_id + RECORD_SUFFIX != path.name:
                raise LegacyError(f"the record's id {json.dumps(table_id)[:80]} is not its "
                                  "file's name")
            if table_id in known:
                continue
            log_path = folder / f"{table_id}{LOG_SUFFIX}"
            _check_log(log_path)
            lines = game_log.read(log_path)
            store.write_now(_ops(record, lines))
        except Exception as exc:   # one old table must not stop the server
            problems.append(f"{path.name}: not imported ({type(exc).__name__}: {exc})")
            continue
        imported.append(table_id)
    return imported, problems


def _ops(record: dict[str, Any], lines: list[dict[str, Any]]) -> list[db.Op]:
    head = lines[0]
    decisions = [{k: v for k, v in line.items() if k not in ("type", "_line")}
                 for line in lines[1:] if line.get("type") == "decision"]
    seats = record.get("seats")
    if not isinstance(seats, list) or len(seats) != int(head["players"]):
        raise LegacyError("the seats do not match the game")
    table_id = str(record["id"])
    state = {"pending": record.get("pending") or {}, "events": record.get("events") or [],
             "recaps": record.get("recaps") or [], "away": [], "clocks": None}
    row = {"id": table_id, "game": str(record.get("game") or head.get("game")),
           "spec": str(record.get("spec") or head.get("game")),
           "players": int(head["players"]), "seed": int(head["seed"]),
           "sides": record.get("sides"), "hints": bool(record.get("hints")),
           "mode": "normal", "speed": "untimed",
           "created": float(record.get("created") or 0.0),
           "over": any(line.get("type") == "result" for line in lines),
           "decision": int(record.get("decision", len(decisions))),
           "state": json.dumps(state, separators=(",", ":"))}
    seat_rows = [{"table_id": table_id, "seat": n, "kind": str(s.get("kind")),
                  "token": s.get("token"), "account_id": None}
                 for n, s in enumerate(seats) if isinstance(s, dict)]
    if len(seat_rows) != len(seats):
        raise LegacyError("a seat is not an object")
    move_rows = [{"table_id": table_id, "number": n,
                  "record": json.dumps(entry, separators=(",", ":"))}
                 for n, entry in enumerate(decisions)]
    ops: list[db.Op] = [lambda c: db.run(c, sa.insert(db.tables).values(**row)),
                        lambda c: db.run(c, sa.insert(db.seats), seat_rows)]
    if move_rows:
        ops.append(lambda c: db.run(c, sa.insert(db.moves), move_rows))
    return ops


__all__ = ["LegacyError", "import_folder", "read_record"]
