"""Accounts on the online table, on SQLite and PostgreSQL: sign up, in and out, argon2
hashes, session cookies (Secure, HttpOnly, SameSite), CSRF tokens on every request that
changes something, the sign-in rate limit, seats that become an account's, guest play."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("starlette", reason="wonders serve needs Starlette")
pytest.importorskip("argon2", reason="accounts need argon2-cffi")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

from serve_databases import database, with_csrf  # noqa: E402,F401  (the fixture)
from starlette.testclient import TestClient  # noqa: E402

from wonders.serve.app import create_app  # noqa: E402
from wonders.serve.tables import Tables, load_source  # noqa: E402

SOURCES: list[Any] = []
BODY = {"game": "base", "players": 3, "seats": ["human", "human", "greedy"], "seed": 4,
        "sides": "random"}


@pytest.fixture()
def tables(tmp_path: Path, database: str | None) -> Iterator[Tables]:
    if not SOURCES:
        SOURCES.append(load_source("base"))
    found = Tables(tmp_path, SOURCES, search_seconds=0.1, database=database)
    yield found
    found.close()


def client_of(tables: Tables) -> TestClient:
    client = with_csrf(TestClient(create_app(tables), base_url="https://testserver"))
    assert isinstance(client, TestClient)
    return client


def sign(client: TestClient, path: str, name: str, password: str) -> Any:
    answer = client.post(path, json={"name": name, "password": password})
    if answer.status_code == 200:
        client.headers["X-CSRF-Token"] = answer.json()["csrf"]   # bound to the new session
    return answer


def test_sign_up_in_and_out_with_argon2_hashes_and_safe_cookies(tables: Tables) -> None:
    import sqlalchemy as sa

    from wonders.serve import store as db

    client = client_of(tables)
    visitor = client.cookies.get("wonders_visitor")
    assert visitor and client.get("/api/session").json()["account"] is None
    answer = sign(client, "/api/signup", "Ada", "correct horse")
    assert answer.status_code == 200, answer.text
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith("wonders_session=") and "HttpOnly" in cookie
    assert "Secure" in cookie and "SameSite=lax" in cookie
    assert client.get("/api/session").json()["account"]["name"] == "Ada"
    with tables.store.reading() as connection:
        stored = connection.execute(sa.select(db.accounts.c.password_hash)).scalar()
        session_ids = connection.execute(sa.select(db.sessions.c.id)).scalars().all()
    assert stored.startswith("$argon2id$") and "correct horse" not in stored
    token = client.cookies.get("wonders_session")
    assert token and token not in session_ids   # only its digest is kept
    # refusals, each with its reason
    for name, password, reason in (("ada", "another one", "taken"),
                                   ("a", "long enough", "3 to 24"),
                                   ("x y", "long enough", "3 to 24"),
                                   ("Bob", "short", "8 to 256")):
        answer = client.post("/api/signup", json={"name": name, "password": password})
        assert answer.status_code == 400 and reason in answer.json()["error"], answer.text
    out = client.post("/api/signout", json={})
    assert out.status_code == 200
    client.headers["X-CSRF-Token"] = out.json()["csrf"]   # the visitor's again
    assert client.get("/api/session").json()["account"] is None
    again = TestClient(create_app(tables), base_url="https://testserver")
    again.cookies.set("wonders_session", token)
    assert again.get("/api/session").json()["account"] is None   # the old cookie is dead
    assert sign(client, "/api/signin", "ADA", "correct horse").status_code == 200
    assert client.get("/api/session").json()["account"]["name"] == "Ada"


def test_sign_in_is_rate_limited_and_says_not_which_part_was_wrong(tables: Tables) -> None:
    client = client_of(tables)
    assert sign(client, "/api/signup", "Grace", "a long password").status_code == 200
    client.headers["X-CSRF-Token"] = client.post("/api/signout", json={}).json()["csrf"]
    for _ in range(5):
        answer = client.post("/api/signin", json={"name": "Grace", "password": "wrong guess"})
        assert answer.status_code == 401 and answer.json()["error"] == "wrong name or password"
    assert client.post("/api/signin", json={"name": "Nobody", "password": "x" * 9}).json() \
        == {"error": "too many sign-in attempts; wait a minute"}
    # the right password too, until the limit lets one more through
    answer = client.post("/api/signin", json={"name": "Grace", "password": "a long password"})
    assert answer.status_code == 429


def test_every_change_needs_the_csrf_token(tables: Tables) -> None:
    client = client_of(tables)
    good = client.headers.pop("X-CSRF-Token")
    tampered = good[:-1] + ("1" if good.endswith("0") else "0")  # never the token itself
    for path, body in (("/api/tables", BODY), ("/api/signup", {"name": "Eve", "password":
                                                              "a long password"}),
                       ("/api/signin", {"name": "Eve", "password": "a long password"}),
                       ("/api/signout", {})):
        for headers in ({}, {"X-CSRF-Token": "forged"}, {"X-CSRF-Token": tampered}):
            answer = client.post(path, json=body, headers=headers)
            assert answer.status_code == 403 and "CSRF" in answer.json()["error"], path
    stranger = TestClient(create_app(tables), base_url="https://testserver")  # no cookie
    assert stranger.post("/api/tables", json=BODY,
                         headers={"X-CSRF-Token": good}).status_code == 403
    assert not tables.tables
    assert client.post("/api/tables", json=BODY, headers={"X-CSRF-Token": good}).status_code \
        == 201
    # a page of another site opening a socket with this server's cookies is refused
    table = next(iter(tables.tables.values()))
    with client.websocket_connect(f"/ws/{table.id}",
                                  headers={"origin": "https://evil.example"}) as ws:
        assert "another site" in ws.receive_json()["reason"]


def become(client: TestClient, person: dict[str, str]) -> None:
    """Let one client speak as one person: their cookies and CSRF token."""
    client.cookies.clear()
    for name, value in person.items():
        if name != "csrf":
            client.cookies.set(name, value)
    client.headers["X-CSRF-Token"] = person["csrf"]


def person(client: TestClient, name: str | None) -> dict[str, str]:
    client.cookies.clear()
    client.headers["X-CSRF-Token"] = client.get("/api/session").json()["csrf"]
    if name is not None:
        assert sign(client, "/api/signup", name, "a long password").status_code == 200
    found = {k: v for k, v in client.cookies.items()}
    return {**found, "csrf": str(client.headers["X-CSRF-Token"])}


def test_a_seat_becomes_the_account_that_joins_it_and_guests_still_play(
        tables: Tables) -> None:
    client = client_of(tables)
    with client:
        ada, bob, guest = person(client, "Ada"), person(client, "Bob"), person(client, None)
        created = client.post("/api/tables", json=BODY).json()   # the guest creates it
        tokens = [s["link"].split("#token=")[1] for s in created["seats"][:2]]
        table = tables.get(created["table"]["id"])
        become(client, ada)
        with client.websocket_connect(f"/ws/{table.id}") as ws:
            ws.send_json({"type": "join", "token": tokens[0]})
            assert ws.receive_json()["type"] == "welcome"
            while (state := ws.receive_json())["type"] != "state":
                pass
            assert state["table"]["names"] == ["Ada", None, None]
        assert table.seats[0].account is not None and table.seats[0].name == "Ada"
        for intruder in (bob, guest):   # the seat is Ada's now, whoever has its link
            become(client, intruder)
            with client.websocket_connect(f"/ws/{table.id}") as ws:
                ws.send_json({"type": "join", "token": tokens[0]})
                assert ws.receive_json() == {
                    "type": "refused", "reason": "seat 0 is played by the account Ada: sign "
                    "in as Ada to play it"}
        become(client, ada)
        with client.websocket_connect(f"/ws/{table.id}") as ws:   # one seat per account
            ws.send_json({"type": "join", "token": tokens[1]})
            assert "plays seat 0 of this table already" in ws.receive_json()["reason"]
        become(client, guest)
        with client.websocket_connect(f"/ws/{table.id}") as ws:   # a guest plays seat 1
            ws.send_json({"type": "join", "token": tokens[1]})
            assert ws.receive_json()["type"] == "welcome"
        assert table.seats[1].account is None
        # Ada's seat is listed for her with its link; a restart keeps whose seat it is
        become(client, ada)
        seats = client.get("/api/session").json()["account"]["seats"]
        assert seats == [{"table": table.id, "seat": 0, "game": "base",
                          "link": f"/table/{table.id}#token={tokens[0]}"}]
    tables.drain()
    again = Tables(tables.data_dir, SOURCES, database=None if tables.store.url.startswith(
        "sqlite") else tables.store.url)
    assert again.get(table.id).seats[0].name == "Ada"
    again.close()


def test_names_no_account_can_have_are_answered_without_a_query(tables: Tables) -> None:
    """A player page or a sign-in for text no account name can be — a NUL, which
    PostgreSQL refuses in a text comparison (the 200-table load run's 500), a right-to-left
    mark, a lone surrogate — gets the usual answer, never a 500."""
    client = client_of(tables)
    sign(client, "/api/signup", "Ada", "correct horse")
    for name in ("%00", "Ada%00", "%E2%80%AEAda", "%ED%A0%80", "x" * 100):
        answer = client.get(f"/api/players/{name}")
        assert answer.status_code == 404 and "no player" in answer.json()["error"], name
    for name in ("\x00", "Ada\x00", "\u202eAda"):
        answer = client.post("/api/signin", json={"name": name, "password": "correct horse"})
        assert answer.status_code == 401, (name, answer.text)
        assert answer.json()["error"] == "wrong name or password"
    assert client.get("/api/players/Ada").status_code == 200
