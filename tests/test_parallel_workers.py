"""What keeps the suite's tests independent when pytest-xdist runs them in several
workers (``python -m pytest -n logical --dist loadgroup``, the README's command): each
worker's servers take ports no other worker takes, and each PostgreSQL test's schema is
its own and names its worker."""

from __future__ import annotations

import socket

import pytest
from ports import free_port, worker


def test_the_worker_is_read_from_pytest_xdist_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    monkeypatch.delenv("PYTEST_XDIST_WORKER_COUNT", raising=False)
    assert worker() == (0, 1)   # one process: every port is this one's
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw3")
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "4")
    assert worker() == (3, 4)
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "master")
    assert worker() == (0, 4)


@pytest.mark.parametrize("index,count", [(0, 2), (1, 2), (0, 3), (1, 3), (2, 3)])
def test_each_worker_takes_only_its_share_of_the_ports(monkeypatch: pytest.MonkeyPatch,
                                                         index: int, count: int) -> None:
    """Worker K of N gets ports p with p % N == K, so two workers never get one port (even
    ports too: the kernel's own choice gives only odd ones); and the port is free: a
    server binds it."""
    monkeypatch.setenv("PYTEST_XDIST_WORKER", f"gw{index}")
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", str(count))
    ports = {free_port() for _ in range(5)}
    assert {p % count for p in ports} == {index}
    with socket.socket() as server:
        server.bind(("127.0.0.1", ports.pop()))


def test_a_postgresql_schema_names_its_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("sqlalchemy", reason="the store needs SQLAlchemy")
    import serve_databases

    if not serve_databases.postgres_reachable():
        pytest.skip("no PostgreSQL server (set WONDERS_TEST_POSTGRES_URL; .ci/run does)")
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw7")
    schemas = serve_databases.postgres_schema()
    url = next(schemas)
    assert "search_path%3Dtest_gw7_" in url
    other = serve_databases.postgres_schema()
    assert next(other) != url   # two tests of one worker: two schemas
    for made in (schemas, other):
        made.close()   # dropped
