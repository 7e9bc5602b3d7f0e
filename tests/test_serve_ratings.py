"""Ratings on the online table, on SQLite and PostgreSQL: pairwise Elo over the final
ranking (the formula of docs/serve.md, its numbers worked out), changed only by normal
games between accounts, written with the last move; the leaderboard and a player's page."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("starlette", reason="wonders serve needs Starlette")
pytest.importorskip("argon2", reason="accounts need argon2-cffi")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

from serve_databases import database, with_csrf  # noqa: E402,F401  (the fixture)
from starlette.testclient import TestClient  # noqa: E402

from wonders.serve import ratings  # noqa: E402
from wonders.serve.accounts import Accounts  # noqa: E402
from wonders.serve.app import create_app  # noqa: E402
from wonders.serve.tables import Table, Tables, load_source  # noqa: E402

SOURCES: list[Any] = []


@pytest.fixture()
def tables(tmp_path: Path, database: str | None) -> Iterator[Tables]:
    if not SOURCES:
        SOURCES.extend([load_source("base"), load_source("duel")])
    found = Tables(tmp_path, SOURCES, search_seconds=0.1, database=database)
    yield found
    found.close()


def test_pairwise_elo_worked_out() -> None:
    # equal ratings, three places: the first gains K/2 * (0.5 + 0.5), the last loses as much
    assert ratings.changes([1500, 1500, 1500], [3, 2, 1]) == [16.0, 0.0, -16.0]
    # two players: plain Elo (K = 32); a level game between unequal ratings
    win = ratings.changes([1500, 1500], [1, 0])
    assert win == [16.0, -16.0]
    level = ratings.changes([1600, 1400], [0, 0])
    e = 1 / (1 + 10 ** (-200 / 400))
    assert level == pytest.approx([32 * (0.5 - e), 32 * (e - 0.5)])
    # ties share: two level firsts and a last
    assert ratings.changes([1500, 1500, 1500], [2, 2, 1]) == pytest.approx([8.0, 8.0, -16.0])
    assert ratings.changes([1500], [1]) == [0.0]


def finish(table: Table) -> None:
    while not table.game.over:
        for seat in table.waiting_for():
            table.submit(seat, table.decision_number,
                         table.game.legal_actions(seat)[0].to_json())


def seated(tables: Tables, accounts: Accounts, names: list[str | None], mode: str,
           game: str = "base") -> Table:
    """A table whose seats are the named accounts (None: a guest), as if each had joined."""
    table = tables.create({"game": game, "players": len(names), "seats": ["human"] * len(names),
                           "seed": 11, "sides": "random", "mode": mode})
    for seat, name in enumerate(names):
        if name is not None:
            account = accounts.by_name(name) or accounts.sign_up(name, "a long password")
            table.seats[seat].account, table.seats[seat].name = account.id, account.name
            table._write([table.seat_op(seat)])
    return table


def test_a_normal_game_between_accounts_rates_them_and_training_counts_for_nothing(
        tables: Tables) -> None:
    accounts = Accounts(tables.store)
    normal = seated(tables, accounts, ["Ada", "Bob", None], "normal")
    finish(normal)
    training = seated(tables, accounts, ["Ada", "Bob", None], "training")
    finish(training)
    alone = seated(tables, accounts, ["Ada", None, None], "normal")   # one account: no rival
    finish(alone)
    tables.drain()
    sheet = normal.game.score_sheet()
    places = [ratings.place(sheet, 0), ratings.place(sheet, 1)]
    want = ratings.changes([1500.0, 1500.0], places)   # the guest counts for nothing
    board = {p["name"]: p for p in ratings.leaderboard(tables.store, "base")}
    assert set(board) == {"Ada", "Bob"}
    assert board["Ada"]["games"] == board["Bob"]["games"] == 1
    ada = ratings.player(tables.store, accounts.by_name("Ada").id)   # type: ignore[union-attr]
    assert [h["table"] for h in ada["history"]] == [normal.id]
    assert ada["history"][0]["after"] == pytest.approx(1500 + want[0], abs=0.05)
    assert ada["played"] == 3 and len(ada["tables"]) == 3
    assert {t["mode"] for t in ada["tables"]} == {"normal", "training"}
    assert ratings.leaderboard(tables.store, "duel") == []   # a rating per game


def test_the_leaderboard_and_a_players_page(tables: Tables) -> None:
    accounts = Accounts(tables.store)
    finish(seated(tables, accounts, ["Ada", "Bob"], "normal", game="duel"))
    tables.drain()
    client = with_csrf(TestClient(create_app(tables), base_url="https://testserver"))
    assert isinstance(client, TestClient)
    body = client.get("/api/leaderboard?game=duel").json()
    assert body["game"] == "duel" and [p["games"] for p in body["players"]] == [1, 1]
    assert sorted(p["name"] for p in body["players"]) == ["Ada", "Bob"]
    assert client.get("/api/leaderboard?game=nope").status_code == 404
    page = client.get("/api/players/bob").json()   # names are found whatever their case
    assert page["name"] == "Bob" and page["ratings"][0]["game"] == "duel"
    assert page["tables"][0]["log"].endswith("/log")
    assert page["tables"][0]["replay"] == f"/replay/{page['tables'][0]['table']}"
    assert client.get("/api/players/nobody").status_code == 404
    for path in ("/leaderboard", "/player/Bob"):
        answer = client.get(path)
        assert answer.status_code == 200 and "ratings.js" in answer.text
        assert "Content-Security-Policy" in answer.headers
