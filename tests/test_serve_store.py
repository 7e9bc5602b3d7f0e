"""The online table's database, on SQLite and (when a server answers) PostgreSQL: the
schema made by the shipped migrations, tables restored after a restart with their open
choices, a move acknowledged only once committed, a failing write refused and undone."""

from __future__ import annotations

import asyncio
import errno
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sqlalchemy", reason="wonders serve needs SQLAlchemy")
pytest.importorskip("starlette", reason="wonders serve needs Starlette")

from serve_databases import database  # noqa: E402,F401  (the fixture)

from wonders.serve import store as db  # noqa: E402
from wonders.serve.app import Server  # noqa: E402
from wonders.serve.tables import TableError, Tables, load_source  # noqa: E402

SOURCES: list[Any] = []
BODY = {"game": "base", "players": 3, "seats": ["human", "human", "greedy"], "seed": 4,
        "sides": "random"}


def sources() -> list[Any]:
    if not SOURCES:
        SOURCES.append(load_source("base"))
    return SOURCES


def open_tables(tmp_path: Path, database: str | None) -> Tables:
    return Tables(tmp_path, sources(), search_seconds=0.1, database=database)


def test_the_migrations_make_the_schema_and_run_again_harmlessly(
        tmp_path: Path, database: str | None) -> None:
    import sqlalchemy as sa

    first = open_tables(tmp_path, database)
    first.close()
    again = open_tables(tmp_path, database)   # start-up migrates again: nothing to do
    with again.store.reading() as connection:
        names = set(sa.inspect(connection).get_table_names())
        version = connection.execute(sa.text("select version_num from alembic_version")).scalar()
    assert {t.name for t in db.metadata.sorted_tables} <= names and version == "0001"
    again.close()


def test_a_restart_restores_moves_and_open_choices(tmp_path: Path,
                                                   database: str | None) -> None:
    tables = open_tables(tmp_path, database)
    server = Server(tables)
    table = tables.create(BODY)
    for _ in range(3):
        for seat in (0, 1):
            asyncio.run(server.commit(table, seat, table.decision_number,
                                      table.game.legal_actions(seat)[-1].to_json()))
        asyncio.run(server.commit(table, 2, table.decision_number,
                                  table.game.legal_actions(2)[0].to_json()))
    asyncio.run(server.commit(table, 1, table.decision_number,
                              table.game.legal_actions(1)[0].to_json()))
    tables.close()
    again = open_tables(tmp_path, database)
    assert not again.restore_problems
    restored = again.get(table.id)
    assert restored.game.history == table.game.history and restored.decision_number == 3
    assert {s: a.to_json() for s, a in restored.pending.items()} == \
        {s: a.to_json() for s, a in table.pending.items()}
    assert [s.token for s in restored.seats] == [s.token for s in table.seats]
    again.close()


def test_a_failing_commit_refuses_the_move_and_changes_nothing(
        tmp_path: Path, database: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    tables = open_tables(tmp_path, database)
    server = Server(tables)
    table = tables.create(BODY)
    for seat in (0, 1):
        asyncio.run(server.commit(table, seat, 0, table.game.legal_actions(seat)[0].to_json()))
    tables.drain()
    before = tables.store.dump()

    def full(*_: Any, **__: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(db, "run", full)
    with pytest.raises(TableError, match=r"could not store this move \(No space left on "
                                         r"device\); it was not played"):
        asyncio.run(server.commit(table, 2, 0, table.game.legal_actions(2)[0].to_json()))
    monkeypatch.undo()
    assert table.decision_number == 0 and sorted(table.pending) == [0, 1]
    assert tables.store.dump() == before
    asyncio.run(server.commit(table, 2, 0, table.game.legal_actions(2)[0].to_json()))
    assert table.decision_number == 1
    tables.close()
    assert open_tables(tmp_path, database).get(table.id).decision_number == 1


def test_an_older_servers_table_files_are_imported_and_play_on(tmp_path: Path) -> None:
    """Tables kept as files by a server before the database (ID.table.json, ID.jsonl)
    are imported at start-up, once, and restored where they were; a FIFO under a
    record's name is reported, never blocking."""
    import json
    import os
    import threading

    memory = Tables(None, sources())
    table = memory.create(BODY)
    for seat in range(3):
        table.submit(seat, 0, table.game.legal_actions(seat)[0].to_json())
    table.submit(1, 1, table.game.legal_actions(1)[0].to_json())
    lines = "".join(json.dumps(r) + "\n" for r in table.log_lines())
    (tmp_path / f"{table.id}.jsonl").write_text(lines, encoding="utf-8")
    record = {"id": table.id, "game": "base", "spec": "base", "paths": [], "players": 3,
              "seed": table.game.seed, "sides": table.sides, "hints": False, "created": 1.0,
              "seats": [{"kind": s.kind, "token": s.token} for s in table.seats],
              "decision": 1, "over": False,
              "pending": {"1": table.pending[1].to_json()}, "events": [], "recaps": []}
    (tmp_path / f"{table.id}.table.json").write_text(json.dumps(record), encoding="utf-8")
    os.mkfifo(tmp_path / "fifo1234.table.json")
    found: list[Tables] = []
    worker = threading.Thread(target=lambda: found.append(Tables(tmp_path, sources())),
                              daemon=True)
    worker.start()
    worker.join(30)
    assert found, "start-up hung on a FIFO"
    again = found[0]
    assert again.imported == [table.id]
    assert len(again.restore_problems) == 1 and again.restore_problems[0].startswith(
        "fifo1234.table.json: not imported") and "regular file" in again.restore_problems[0]
    restored = again.get(table.id)
    assert restored.game.history == table.game.history and sorted(restored.pending) == [1]
    assert [s.token for s in restored.seats] == [s.token for s in table.seats]
    again.close()
    third = Tables(tmp_path, sources())   # imported once: the files are skipped now
    assert third.imported == [] and third.get(table.id).decision_number == 1
    third.close()
