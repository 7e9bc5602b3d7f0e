"""The databases the online table's tests run against: SQLite always, PostgreSQL when
``WONDERS_TEST_POSTGRES_URL`` names a server that answers (``.ci/run`` starts one).

Each PostgreSQL test gets a schema of its own (dropped afterwards), so tests never see
each other's rows, and the pytest-xdist workers share the one database safely (the store
uses nothing database-wide: no extensions, advisory locks or notifications); the schema's
name says which worker made it (``test_gw1_…``), to tell a leftover's run."""

from __future__ import annotations

import os
import secrets
from typing import Iterator

import pytest

POSTGRES = os.environ.get("WONDERS_TEST_POSTGRES_URL", "")
_reachable: list[bool] = []


def postgres_reachable() -> bool:
    """Whether the PostgreSQL server of the environment answers (asked once)."""
    if not _reachable:
        ok = False
        if POSTGRES:
            try:
                import sqlalchemy as sa

                from wonders.serve.store import database_url

                engine = sa.create_engine(database_url(None, POSTGRES))
                with engine.connect() as connection:
                    connection.execute(sa.text("select 1"))
                engine.dispose()
                ok = True
            except Exception:
                ok = False
        _reachable.append(ok)
    return _reachable[0]


def postgres_schema() -> Iterator[str]:
    """A database URL whose connections use a fresh schema, dropped afterwards."""
    import sqlalchemy as sa

    from wonders.serve.store import database_url

    if not postgres_reachable():
        pytest.skip("no PostgreSQL server (set WONDERS_TEST_POSTGRES_URL; .ci/run does)")
    base = database_url(None, POSTGRES)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    schema = "test_" + (f"{worker}_" if worker.isalnum() else "") + secrets.token_hex(6)
    engine = sa.create_engine(base)
    with engine.begin() as connection:
        connection.execute(sa.text(f"CREATE SCHEMA {schema}"))
    joiner = "&" if "?" in base else "?"
    try:
        yield f"{base}{joiner}options=-csearch_path%3D{schema}"
    finally:
        with engine.begin() as connection:
            connection.execute(sa.text(f"DROP SCHEMA {schema} CASCADE"))
        engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """None (SQLite in the test's data folder) or a PostgreSQL URL of a fresh schema."""
    if request.param == "sqlite":
        yield None
    else:
        yield from postgres_schema()


def with_csrf(client: "object") -> "object":
    """A TestClient (on https://, so its Secure cookies travel) that sends the page's CSRF
    token with every request, as the lobby's script does."""
    token = client.get("/api/session").json()["csrf"]   # type: ignore[attr-defined]
    client.headers["X-CSRF-Token"] = token   # type: ignore[attr-defined]
    return client
