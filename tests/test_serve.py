"""The online table (``wonders serve``) through Starlette's TestClient: tables, seat tokens,
refused messages that change nothing, restoring after a restart, bots playing to the end."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

starlette = pytest.importorskip("starlette", reason="wonders serve needs Starlette")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

from serve_databases import with_csrf  # noqa: E402
from starlette.testclient import TestClient, WebSocketTestSession  # noqa: E402

from wonders.dsl import describe  # noqa: E402
from wonders.serve import present  # noqa: E402
from wonders.serve.app import create_app, static_dir  # noqa: E402
from wonders.serve.protocol import MAX_MESSAGE_BYTES, RateLimit  # noqa: E402
from wonders.serve.tables import Table, TableError, Tables, load_source  # noqa: E402

SOURCES: dict[str, Any] = {}


def sources() -> list[Any]:
    if not SOURCES:
        for name in ("base", "duel", "dice", "leaders", "cities", "pantheon"):
            SOURCES[name] = load_source(name)
    return list(SOURCES.values())


def make_client(data_dir: Path | None) -> tuple[TestClient, Tables]:
    tables = Tables(data_dir, sources(), search_seconds=0.2)
    return with_csrf(TestClient(create_app(tables), base_url="https://testserver")), tables


def create(client: TestClient, **request: Any) -> dict[str, Any]:
    body = {"game": "base", "players": 3, "seats": ["human", "human", "random"],
            "sides": "choose", "seed": 5, **request}
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    result: dict[str, Any] = answer.json()
    return result


def token_of(created: dict[str, Any], seat: int) -> str:
    link = created["seats"][seat]["link"]
    return str(link.split("#token=")[1])


def until(ws: WebSocketTestSession, wanted: Callable[[dict[str, Any]], bool],
          limit: int = 400) -> dict[str, Any]:
    for _ in range(limit):
        message: dict[str, Any] = ws.receive_json()
        if wanted(message):
            return message
    raise AssertionError("the awaited message never came")


def join(ws: WebSocketTestSession, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "join", "token": token} if token else {"type": "join"})
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome", welcome
    return until(ws, lambda m: m["type"] == "state")


def refused(ws: WebSocketTestSession, message: Any, raw: str | None = None) -> str:
    if raw is not None:
        ws.send_text(raw)
    else:
        ws.send_json(message)
    answer = until(ws, lambda m: m["type"] in ("refused", "accepted"))
    assert answer["type"] == "refused", answer
    return str(answer["reason"])


def snapshot(table: Table) -> tuple[Any, ...]:
    """The table in memory and every row of the database."""
    assert table.store is not None
    table.store.drain()
    return (len(table.game.history), dict(table.pending), table.store.dump(),
            json.dumps(table.game.view(0)))


def damage(tables: Tables, table_id: str, what: Any, **values: Any) -> None:
    """Change a stored row by hand (what a damaged or hand-edited database holds)."""
    import sqlalchemy as sa


    tables.drain()
    key = what.c.table_id if "table_id" in what.c else what.c.id
    with tables.store.engine.begin() as connection:
        connection.execute(sa.update(what).where(key == table_id).values(**values))


# --- creating tables -----------------------------------------------------------------------

def test_a_table_gets_one_secret_link_per_human_seat_and_a_spectator_link(tmp_path: Path) -> None:
    client, tables = make_client(tmp_path)
    with client:
        created = create(client)
        tokens = [token_of(created, 0), token_of(created, 1)]
        assert created["seats"][2] == {"seat": 2, "kind": "random", "link": None}
        assert len(set(tokens)) == 2 and all(len(t) >= 20 for t in tokens)
        assert created["spectate"] == f"/table/{created['table']['id']}"
        table = tables.get(created["table"]["id"])
        assert [table.seat_of(t) for t in tokens] == [0, 1]
        assert table.seat_of("guess") is None
        # the listing shows no token, nor the seed (which deals every hand)
        listing = client.get("/api/tables").text
        assert tokens[0] not in listing and tokens[1] not in listing
        assert "seed" not in listing and "seed" not in json.dumps(created)
        with client.websocket_connect(f"/ws/{created['table']['id']}") as ws:
            assert "seed" not in json.dumps(join(ws, tokens[0]))
        page = client.get(f"/table/{table.id}")
        assert page.status_code == 200 and "table.js" in page.text
        assert "Content-Security-Policy" in page.headers
        tables.drain()
        assert tables.store.load(table.id) is not None
        assert (tmp_path / "wonders.db").is_file()   # SQLite under --data by default


@pytest.mark.parametrize("request_body, reason", [
    ({"game": "chess"}, "is not offered here"),
    ({"players": 9}, "played by 3 to 7"),
    ({"players": "3"}, "played by 3 to 7"),
    ({"seats": ["human", "human"]}, "one kind per seat"),
    ({"seats": ["human", "human", "wizard"]}, "is not one of"),
    ({"sides": "upside-down"}, "is not one of"),
    ({"hints": "yes"}, "true or false"),
    ({"seed": -1}, "seed"),
    ({"colour": "red"}, "unknown field"),
])
def test_bad_table_requests_are_refused_with_a_reason(request_body: dict[str, Any],
                                                       reason: str) -> None:
    client, tables = make_client(None)
    with client:
        body = {"game": "base", "players": 3, "seats": ["human", "human", "random"],
                **request_body}
        answer = client.post("/api/tables", json=body)
        assert answer.status_code == 400 and reason in answer.json()["error"]
        as_json = {"Content-Type": "application/json"}
        assert client.post("/api/tables", content=b"{not json",
                           headers=as_json).status_code == 400
        assert client.post("/api/tables", content=b"[" * 5000, headers=as_json).status_code == 413
        for forged in (b"9" * 5000, b"\xb2"):  # declared lengths int() cannot read ('²')
            assert client.post("/api/tables", content=b"{}", headers={
                "Content-Type": "application/json", "Content-Length": forged}
                               ).status_code == 413
        as_form = {"Content-Type": "text/plain"}   # what another site's page may post unasked
        assert client.post("/api/tables", content=json.dumps(body).encode(),
                           headers=as_form).status_code == 415
        assert not tables.tables


# --- refused messages change nothing --------------------------------------------------------

def test_forged_repeated_out_of_turn_malformed_and_oversized_messages_change_nothing(
        tmp_path: Path) -> None:
    client, tables = make_client(tmp_path)
    with client:
        created = create(client, seats=["human", "human", "human"])
        table = tables.get(created["table"]["id"])
        with client.websocket_connect(f"/ws/{table.id}") as ws:
            assert "join the table first" in refused(ws, {"type": "act", "decision": 0,
                                                          "action": {}})
            for forged in ("forged-token", "é" * 30, ""):
                assert "no seat of this table has that token" in refused(
                    ws, {"type": "join", "token": forged})
            assert "not valid Unicode" in refused(ws, {"type": "join", "token": "\ud800"})
            state = join(ws, token_of(created, 0))
            assert state["seat"] == 0 and state["actions"]["actions"]
            first = state["actions"]["actions"][0]["json"]
            before = snapshot(table)
            cases = [
                ({"type": "act", "decision": 0, "action": first, "seat": 1},
                 "this connection plays seat 0"),
                ({"type": "act", "decision": 7, "action": first}, "not the open one"),
                ({"type": "act", "decision": "0", "action": first}, "number of the open"),
                ({"type": "act", "decision": 0, "action": {"action": "side", "side": "Z"}},
                 "not a legal action of seat 0"),
                ({"type": "act", "decision": 0, "action": "build"}, "'action' is an action"),
                ({"type": "act", "decision": 0, "action": first, "extra": 1}, "unknown field"),
                ({"type": "teleport"}, "unknown message type"),
                ({"type": "join", "token": token_of(created, 1)}, "joined already"),
                ({"type": "hint"}, "without hints"),
                ([1, 2, 3], "a JSON object"),
            ]
            for message, reason in cases:
                assert reason in refused(ws, message), message
            assert "not a JSON message" in refused(ws, None, raw="{oops")
            ws.send_bytes(b'{"type": "ping"}')
            answer = until(ws, lambda m: m["type"] in ("refused", "pong"))
            assert answer["type"] == "refused" and "text messages" in answer["reason"]
            assert "too large" in refused(ws, None, raw=" " * (MAX_MESSAGE_BYTES + 1))
            deep = '{"type":"ping","a":' + "[" * 40 + "]" * 40 + "}"
            assert "nest" in refused(ws, None, raw=deep)
            assert snapshot(table) == before
            # a real move is accepted once; the same message again is refused
            ws.send_json({"type": "act", "decision": 0, "action": first})
            assert until(ws, lambda m: m["type"] in ("accepted", "refused"))["type"] == "accepted"
            after = snapshot(table)
            assert "already chosen" in refused(ws, {"type": "act", "decision": 0,
                                                    "action": first})
            assert snapshot(table) == after and list(table.pending) == [0]
        # a spectator sees no hand and cannot act
        with client.websocket_connect(f"/ws/{table.id}") as watcher:
            state = join(watcher, None)
            assert state["seat"] is None and not state["view"].get("hand")
            assert "actions" not in state
            assert "spectators cannot act" in refused(watcher, {"type": "act", "decision": 0,
                                                                "action": first})
        with client.websocket_connect("/ws/no-such-table") as ws:
            assert "no table" in ws.receive_json()["reason"]


def test_out_of_turn_in_a_sequential_game_is_refused() -> None:
    client, tables = make_client(None)
    with client:
        created = create(client, game="duel", players=2, seats=["human", "human"])
        table = tables.get(created["table"]["id"])
        waiting = table.game.to_move()[0]
        other = 1 - waiting
        with client.websocket_connect(f"/ws/{table.id}") as ws:
            state = join(ws, token_of(created, other))
            assert "actions" not in state
            wanted = table.game.legal_actions(waiting)[0].to_json()
            assert f"seat {other} does not decide now" in refused(
                ws, {"type": "act", "decision": 0, "action": wanted})
            assert len(table.game.history) == 0


def test_the_message_rate_is_bounded() -> None:
    limit = RateLimit(per_second=10.0, burst=3.0)
    assert [limit.allow(100.0) for _ in range(4)] == [True, True, True, False]
    assert limit.allow(100.15) and not limit.allow(100.15)
    client, tables = make_client(None)
    with client:
        created = create(client)
        with client.websocket_connect(f"/ws/{created['table']['id']}") as ws:
            join(ws, token_of(created, 0))
            for _ in range(60):
                ws.send_json({"type": "ping"})
            answers = [ws.receive_json() for _ in range(60)]
            assert any(a["type"] == "refused" and "too many" in a["reason"] for a in answers)
        # a client that goes on regardless is disconnected
        from starlette.websockets import WebSocketDisconnect

        with client.websocket_connect(f"/ws/{created['table']['id']}") as ws:
            for _ in range(200):
                ws.send_json({"type": "ping"})
            with pytest.raises(WebSocketDisconnect):
                for _ in range(300):
                    ws.receive_json()


# --- what a page is shown ---------------------------------------------------------------------

def test_indicators_follow_the_engines_payments() -> None:
    client, tables = make_client(None)
    with client:
        created = create(client, seats=["human"] * 3, sides="random", seed=11)
        table = tables.get(created["table"]["id"])
        game = table.game
        described = present.actions_for(game, 0)
        for name, slot in described["cards"].items():
            builds = [a for a in game.legal_actions(0)
                      if a.to_json()["action"] == "build" and a.to_json()["card"] == name]
            mark = slot["indicator"]["mark"]
            if not builds:
                assert mark == "cannot"
                continue
            trades = [a.payment.left + a.payment.right for a in builds]  # type: ignore[union-attr]
            assert mark in ("own", "trade", "chain", "free")
            assert slot["indicator"]["trade"] == min(trades)
            assert (mark == "trade") == (min(trades) > 0)


def test_the_public_view_hides_what_differs_between_seats() -> None:
    assert present._common([{"a": 1, "h": [1], "c": {"x": 1, "y": 2}},
                            {"a": 1, "h": [2], "c": {"x": 1, "y": 3}}]) == {"a": 1, "c": {"x": 1}}


def test_a_dice_games_catalogue_describes_its_sheets_and_actions_their_coins() -> None:
    """The page draws a sheet from the catalogue's ``sheets``: every building and space of
    the data in its order (a view names them by key and index), every board's stages;
    and a dice action's own ``pay`` is what its button says it pays."""
    data = next(s.data for s in sources() if s.data.dice is not None)
    dice = data.dice
    assert dice is not None
    drawn = present.catalogue(data)["sheets"]
    assert [b["key"] for b in drawn["buildings"]] == [b.key for b in dice.buildings]
    assert [[(sp["symbol"], sp["cost"]) for sp in b["spaces"]] for b in drawn["buildings"]] == \
        [[(sp.symbol, sp.cost) for sp in b.spaces] for b in dice.buildings]
    assert {name: len(stages) for name, stages in drawn["boards"].items()} == \
        {b.name: len(b.stages) for b in dice.boards}
    assert drawn["reserve"] == dice.reserve and drawn["quadrants"] == list(dice.quadrants)
    assert [[sp["effect"] for sp in b["spaces"]] for b in drawn["buildings"]] == \
        [[describe.effects(sp.effects) if sp.effects.clauses else "" for sp in b.spaces]
         for b in dice.buildings]
    assert any(sp["effect"] for b in drawn["buildings"] for sp in b["spaces"])
    json.dumps(drawn)
    from wonders.engine.registry import new_game

    game = new_game(data, 3, 4)
    paying = [e for e in present.actions_for(game, 0)["actions"] if "pay" in e["json"]]
    assert paying and all(e["paid"] == e["json"]["pay"] for e in paying)
    assert any(e["paid"] > 0 for e in paying)


def test_the_page_names_no_card_wonder_or_token() -> None:
    names: set[str] = set()
    for source in sources():
        data = source.data
        names |= {c.name for c in data.cards} | {w.name for w in data.wonders}
        names |= {t.name for t in data.tokens}
        if data.dice is not None:   # a dice-forum game's boards, buildings and bonuses
            names |= {b.name for b in data.dice.boards} | {b.name for b in data.dice.buildings}
            names |= {b.key for b in data.dice.buildings} | {b.name for b in data.dice.bonuses}
    assert len(names) > 100
    for path in static_dir().iterdir():
        text = path.read_text(encoding="utf-8")
        hits = [n for n in names if f'"{n}"' in text or f"'{n}'" in text or f">{n}<" in text]
        assert not hits, f"{path.name} names {hits}"


# --- persistence and bots ---------------------------------------------------------------------

def test_a_restarted_server_restores_every_table_and_its_seats(tmp_path: Path) -> None:
    client, tables = make_client(tmp_path)
    with client:
        created = create(client, seats=["human", "human", "greedy"], seed=3)
        table = tables.get(created["table"]["id"])
        with client.websocket_connect(f"/ws/{table.id}") as zero, \
                client.websocket_connect(f"/ws/{table.id}") as one:
            join(zero, token_of(created, 0))
            join(one, token_of(created, 1))
            for _ in range(3):  # three decisions played by both humans and the bot
                number = table.decision_number
                for ws, seat in ((zero, 0), (one, 1)):
                    action = table.game.legal_actions(seat)[-1].to_json()
                    ws.send_json({"type": "act", "decision": number, "action": action})
                    until(ws, lambda m: m["type"] == "accepted")
                deadline = time.time() + 10
                while table.decision_number == number and time.time() < deadline:
                    time.sleep(0.01)
                assert table.decision_number == number + 1
            # seat 0 chooses for the open decision; then the server stops
            zero.send_json({"type": "act", "decision": table.decision_number,
                            "action": table.game.legal_actions(0)[0].to_json()})
            until(zero, lambda m: m["type"] == "accepted")
        history = table.game.history
        pending = {s: a.to_json() for s, a in table.pending.items()}
    client2, tables2 = make_client(tmp_path)
    assert not tables2.restore_problems
    with client2:
        restored = tables2.get(table.id)
        assert restored.game.history == history
        assert {s: a.to_json() for s, a in restored.pending.items()} == pending
        with client2.websocket_connect(f"/ws/{table.id}") as one:
            state = join(one, token_of(created, 1))
            assert state["seat"] == 1 and state["decision"] == len(history)
            assert 0 in state["pending"]["chosen"] and 1 not in state["pending"]["chosen"]
            one.send_json({"type": "act", "decision": state["decision"],
                           "action": restored.game.legal_actions(1)[0].to_json()})
            until(one, lambda m: m["type"] == "accepted")
            deadline = time.time() + 10
            while restored.decision_number == len(history) and time.time() < deadline:
                time.sleep(0.01)
            assert restored.decision_number == len(history) + 1


def test_a_damaged_table_is_reported_not_fatal(tmp_path: Path) -> None:
    import sqlalchemy as sa

    from wonders.serve import store as db

    tables = Tables(tmp_path, sources())
    good = tables.create({"game": "base", "players": 3, "seats": ["human"] * 3,
                          "sides": "random", "seed": 1})
    for seat in range(3):
        good.submit(seat, 0, good.game.legal_actions(seat)[0].to_json())
    good.submit(0, 1, good.game.legal_actions(0)[0].to_json())
    tables.drain()
    record = tables.store.load(good.id)
    assert record is not None
    row, moves = dict(record.row), record.moves
    first_move = json.dumps({k: v for k, v in moves[0].items() if k != "_number"})

    def restore() -> Tables:
        again = Tables(tmp_path, sources())
        again.close()
        return again

    for damaged, restored in (({"state": "{not json"}, False),
                              ({"spec": "/no/such/game"}, False),
                              ({"state": json.dumps({**record.state,
                                                     "pending": {"99": {"action": "sell"}}})},
                               True)):
        damage(tables, good.id, db.tables, **damaged)
        again = restore()
        assert (good.id in again.tables) == restored, again.restore_problems
        if restored:   # a choice no seat can have made is dropped
            assert again.tables[good.id].pending == {}
        else:
            assert any(problem.startswith(good.id) for problem in again.restore_problems)
        damage(tables, good.id, db.tables, **{k: row[k] for k in damaged})
    with tables.store.engine.begin() as connection:   # a human seat without its token
        connection.execute(sa.update(db.seats).where(
            (db.seats.c.table_id == good.id) & (db.seats.c.seat == 1)).values(token=None))
    again = restore()
    assert good.id not in again.tables and "the seats do not match" in \
        again.restore_problems[0]
    with tables.store.engine.begin() as connection:
        connection.execute(sa.update(db.seats).where(
            (db.seats.c.table_id == good.id) & (db.seats.c.seat == 1)).values(
            token=good.seats[1].token))
        connection.execute(sa.update(db.moves).where(db.moves.c.table_id == good.id).values(
            record=json.dumps({"actions": {"0": {"action": "teleport"}}})))
    again = restore()
    assert good.id not in again.tables
    assert any(good.id in p and "no longer legal" in p for p in again.restore_problems)
    with tables.store.engine.begin() as connection:
        connection.execute(sa.update(db.moves).where(db.moves.c.table_id == good.id).values(
            record=first_move))
    again = restore()
    assert again.tables[good.id].game.history == good.game.history
    assert sorted(again.tables[good.id].pending) == [0]


# --- finished tables leave memory, not the disk -----------------------------------------------

class Clock:
    """A clock the test moves by hand (Tables reads it to retire finished tables)."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def finish(table: Table) -> None:
    """Play the table to its end, every seat choosing its first legal action."""
    while not table.game.over:
        for seat in table.waiting_for():
            table.submit(seat, table.decision_number,
                         table.game.legal_actions(seat)[0].to_json())


def new_table(tables: Tables, seed: int = 1) -> Table:
    return tables.create({"game": "duel", "players": 2, "seats": ["human", "human"],
                          "seed": seed})


def test_a_finished_table_is_retired_after_the_keep_time_and_its_link_restores_it(
        tmp_path: Path) -> None:
    clock = Clock()
    tables = Tables(tmp_path, sources(), finished_keep_seconds=60.0, clock=clock)
    live, done = new_table(tables, 1), new_table(tables, 2)
    finish(done)
    final = json.dumps(done.state_for(None))
    clock.now += 59
    assert {t.id for t in tables.listing()} == {done.id, live.id}   # the lobby lists it yet
    clock.now += 2
    assert [t.id for t in tables.listing()] == [live.id]
    assert set(tables.tables) == {live.id} and not tables.finished
    tables.drain()
    assert tables.store.load(done.id) is not None   # its rows stay
    # its link still works: restored from the database with its final state
    client = with_csrf(TestClient(create_app(tables), base_url="https://testserver"))
    with client:
        with client.websocket_connect(f"/ws/{done.id}") as watcher:
            state = join(watcher, None)
            assert state["over"] and state["score_sheet"]["winners"]
            restored = tables.tables[done.id]
            assert restored is not done and restored.game.history == done.game.history
            assert json.dumps(restored.state_for(None)) == final
            # a page watches it: it stays, however long
            clock.now += 3600
            tables.listing()
            assert done.id in tables.tables
        clock.now += 1   # the page has gone: retired on the next pass
        assert done.id not in {t.id for t in tables.listing()}
        assert live.id in tables.tables


def test_only_the_most_recent_finished_tables_stay_in_memory(tmp_path: Path) -> None:
    clock = Clock()
    tables = Tables(tmp_path, sources(), finished_keep_seconds=3600.0, finished_keep_max=2,
                    clock=clock)
    done = []
    for seed in range(3):
        done.append(new_table(tables, seed))
        finish(done[-1])
        clock.now += 1
    tables.get(done[1].id)   # opened again: now the most recent
    tables.listing()
    assert list(tables.finished) == [done[2].id, done[1].id]
    assert done[0].id not in tables.tables
    assert tables.get(done[0].id).game.over   # back, and the oldest other leaves
    assert list(tables.finished) == [done[1].id, done[0].id]


def test_finished_tables_do_not_count_towards_the_table_limit(tmp_path: Path) -> None:
    """The defect: a server that had hosted MAX_TABLES games refused every new one."""
    tables = Tables(tmp_path, sources(), max_tables=3)
    for seed in range(3):   # finished, and all still in memory (kept an hour)
        finish(new_table(tables, seed))
    assert len(tables.tables) == 3 and tables.live == 0
    first = new_table(tables, 10)
    new_table(tables, 11)
    new_table(tables, 12)
    with pytest.raises(TableError, match="3 unfinished tables already"):
        new_table(tables, 13)
    finish(first)   # one ends: a place for a new one
    assert tables.live == 2
    new_table(tables, 14)


def test_a_restart_restores_only_unfinished_tables_yet_the_finished_are_reachable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tables = Tables(tmp_path, sources())
    live, done = new_table(tables, 1), new_table(tables, 2)
    live.submit(0, 0, live.game.legal_actions(0)[0].to_json())
    finish(done)
    tables.drain()
    stored = tables.store.load(done.id)
    assert stored is not None and stored.row["over"] is True
    replayed: list[str] = []
    real = Tables._restore

    def counting(self: Tables, record: Any) -> Table:
        table = real(self, record)
        replayed.append(table.id)
        return table

    monkeypatch.setattr(Tables, "_restore", counting)
    again = Tables(tmp_path, sources())
    assert replayed == [live.id] and set(again.tables) == {live.id}
    assert not again.restore_problems
    assert again.tables[live.id].game.history == live.game.history
    restored = again.get(done.id)   # a finished game is replayed when its link is opened
    assert replayed == [live.id, done.id]
    assert restored.game.over and restored.game.history == done.game.history
    assert restored.events == done.events
    assert again.get(done.id) is restored and replayed == [live.id, done.id]
    client = with_csrf(TestClient(create_app(again), base_url="https://testserver"))
    with client:
        listed = [t["id"] for t in client.get("/api/tables").json()["tables"]]
        assert set(listed) == {live.id, done.id}


def test_a_forged_or_overlong_table_id_is_refused_without_reading_the_database(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from wonders.serve.store import Store

    tables = Tables(tmp_path / "data", sources())
    done = new_table(tables)
    finish(done)
    tables.drain()
    looked_up: list[Any] = []
    real = Store.load
    monkeypatch.setattr(Store, "load", lambda self, table_id: looked_up.append(table_id)
                        or real(self, table_id))
    for forged in ("../x", "..", "x/../../x", "a" * 65, "a" * 100_000, "", "x.table",
                   "x\x00", None, 7, ["x"], "x' OR '1'='1"):
        with pytest.raises(TableError, match="no table"):
            tables.get(forged)
    assert not looked_up
    with pytest.raises(TableError, match="no table"):
        tables.get("NoSuchTable_")   # a well-formed id with no record
    assert looked_up == ["NoSuchTable_"]
    monkeypatch.undo()
    client = with_csrf(TestClient(create_app(tables), base_url="https://testserver"))
    with client:
        for path in ("/ws/" + "a" * 300, "/ws/x.table", "/ws/..x", "/ws/x%20y"):
            with client.websocket_connect(path) as ws:
                assert "no table" in ws.receive_json()["reason"]
    assert set(tables.tables) <= {done.id}


def test_a_retired_table_whose_files_were_damaged_is_refused_and_not_replayed_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tables = Tables(tmp_path, sources(), finished_keep_seconds=0.0)
    done = new_table(tables)
    finish(done)
    tables.listing()
    assert done.id not in tables.tables
    from wonders.serve import store as db

    damage(tables, done.id, db.moves, record=json.dumps({"actions": {"0": {"x": 1}}}))
    replayed: list[Any] = []
    real = Tables._restore

    def counting(self: Tables, record: Any) -> Table:
        replayed.append(record)
        return real(self, record)

    monkeypatch.setattr(Tables, "_restore", counting)
    for _ in range(3):
        with pytest.raises(TableError, match="no table"):
            tables.get(done.id)
    assert len(replayed) == 1


def test_a_table_retired_before_its_last_move_is_written_is_read_once_it_is(
        tmp_path: Path) -> None:
    """The writer thread may still hold a retired table's last moves: its link waits for
    them rather than read the game before its end."""
    import threading

    tables = Tables(tmp_path, sources(), finished_keep_seconds=0.0)
    done = new_table(tables)
    tables.drain()
    release = threading.Event()
    tables.store.executor.submit(release.wait)   # the writer is busy elsewhere
    finish(done)
    tables.listing()
    assert done.id not in tables.tables
    threading.Timer(0.3, release.set).start()
    restored = tables.get(done.id)
    assert restored.game.over and restored.game.history == done.game.history


@pytest.mark.parametrize("game, players, seats", [
    ("base", 3, ["random", "greedy", "random"]),
    ("duel", 2, ["greedy", "random"]),
    ("dice", 3, ["random", "greedy", "random"]),
    # the expansions' own decisions (the leader draft, recruitment turns, debt choices)
    ("leaders", 4, ["greedy", "random", "random", "greedy"]),
    ("cities", 3, ["random", "greedy", "random"]),
    ("pantheon", 2, ["greedy", "random"]),   # (a priced row: activations, placements)
])
def test_a_whole_game_of_bots_through_the_server(tmp_path: Path, game: str, players: int,
                                                 seats: list[str]) -> None:
    client, tables = make_client(tmp_path)
    with client:
        created = create(client, game=game, players=players, seats=seats, sides="random")
        table = tables.get(created["table"]["id"])
        with client.websocket_connect(f"/ws/{table.id}") as watcher:
            join(watcher, None)
            seen: list[dict[str, Any]] = []
            final = until(watcher, lambda m: seen.append(m) is None and m["type"] == "state"
                          and m["over"], limit=2000)
        # a spectator never saw a hand (hands are dealt, but differ between seats)
        assert not any(m.get("view", {}).get("hand") for m in seen)
        assert final["score_sheet"]["winners"] and table.game.over
        assert any("game over" in e for e in final["events"])
        if game == "dice":   # a sheet's crosses are told, and the catalogue draws sheets
            assert any(" played: cross " in e for m in seen if m["type"] == "state"
                       for e in m["events"])
            assert final["view"]["forum"] and "crossed" in final["view"]["cities"][0]
        if game == "base":   # neighbour battles end each age: the last ones are shown
            assert any("battles at the end of age 3" in e for e in final["events"])
            # apart from the last turn's moves, one line per pair of neighbours first
            assert len(final["recap"]["battles"]) >= 3 and len(final["recap"]["moves"]) == 3
            assert not any("beats" in m["text"] or "tie" in m["text"]
                           for m in final["recap"]["moves"])
        # the log is the engine's own: it replays identically
        log = client.get(f"/api/tables/{table.id}/log")
        assert log.status_code == 200, log.text
        (tmp_path / "game.jsonl").write_bytes(log.content)
    from wonders.scenarios.log import replay

    outcome = replay(tmp_path / "game.jsonl")
    assert outcome.identical and not outcome.unfinished


# --- the command ------------------------------------------------------------------------------

def test_serve_refuses_a_bad_game_or_data_folder_with_a_usage_error(tmp_path: Path) -> None:
    import re

    from typer.testing import CliRunner

    from wonders.cli import app

    def text(output: str) -> str:  # the error box's frame and line breaks taken out
        return re.sub(r"[\s│╭╮╰╯─]+", " ", output)

    runner = CliRunner()
    result = runner.invoke(app, ["serve", "--game", "bsae", "--data", str(tmp_path)])
    assert result.exit_code == 2 and "did you mean 'base'" in text(result.output)
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x", encoding="utf-8")
    result = runner.invoke(app, ["serve", "--data", str(not_a_folder)])
    assert result.exit_code == 2 and "is not a folder" in text(result.output)
    result = runner.invoke(app, ["serve", "--port", "0"])
    assert result.exit_code == 2


def test_serve_starts_and_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command sets up the tables and hands them to uvicorn (not started here)."""
    from typer.testing import CliRunner

    from wonders.cli import app
    from wonders.serve import app as serve_app

    started: list[tuple[Tables, str, int]] = []
    monkeypatch.setattr(serve_app, "run", lambda tables, host, port, workers, timeout, **_:
                        started.append((tables, host, port)))
    result = CliRunner().invoke(app, ["serve", "--data", str(tmp_path / "t"), "--port", "8123"])
    assert result.exit_code == 0, result.output
    tables, host, port = started[0]
    from wonders.dsl.loader import shipped_games
    from wonders.engine.sources import variant_expansions

    offered = sorted([*shipped_games(), *variant_expansions()])  # the expansions too
    assert (host, port) == ("127.0.0.1", 8123) and sorted(tables.games) == offered
    assert {"leaders", "cities"} <= set(tables.games)
    assert "0 unfinished table(s) restored" in result.output and (tmp_path / "t").is_dir()
    assert tables.finished_keep_seconds == 3600.0
    result = CliRunner().invoke(app, ["serve", "--data", str(tmp_path / "t"),
                                      "--keep-finished", "120"])
    assert result.exit_code == 0, result.output
    assert started[-1][0].finished_keep_seconds == 120.0
    # a shipped game that does not load is left out (and said so); the others are served
    from wonders.serve import tables as serve_tables
    from wonders.serve.tables import TableError

    real = serve_tables.load_source

    def broken_duel(name: str) -> Any:
        if name == "duel":
            raise TableError("duel: the game does not load: (a test)")
        return real(name)

    monkeypatch.setattr(serve_tables, "load_source", broken_duel)
    started.clear()
    result = CliRunner().invoke(app, ["serve", "--data", str(tmp_path / "t")])
    assert result.exit_code == 0 and "not offered: duel" in result.output
    assert "duel" not in started[0][0].games and "base" in started[0][0].games


def test_hints_rank_the_seats_actions_and_a_search_bot_moves_in_time() -> None:
    client, tables = make_client(None)
    with client:
        created = create(client, seats=["human", "mcts", "human"], sides="random",
                         hints=True)
        table = tables.get(created["table"]["id"])
        with client.websocket_connect(f"/ws/{table.id}") as ws:
            join(ws, token_of(created, 0))
            ws.send_json({"type": "hint"})
            hint = until(ws, lambda m: m["type"] in ("hint", "refused"))
            assert hint["type"] == "hint" and hint["ranking"]
            legal = [a.to_json() for a in table.game.legal_actions(0)]
            assert hint["best"] in legal and all(r["json"] in legal for r in hint["ranking"])
            values = [r["value"] for r in hint["ranking"]]
            assert values == sorted(values, reverse=True)
        # the search bot (time limit 0.2 s here) has chosen for the first turn
        deadline = time.time() + 10
        while 1 not in table.pending and time.time() < deadline:
            time.sleep(0.02)
        assert 1 in table.pending and len(table.game.history) == 0


def test_a_table_bounds_the_pages_open_on_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from wonders.serve import app as serve_app

    monkeypatch.setattr(serve_app, "MAX_CONNECTIONS_PER_TABLE", 1)
    client, tables = make_client(None)
    with client:
        created = create(client)
        table_id = created["table"]["id"]
        with client.websocket_connect(f"/ws/{table_id}") as first, \
                client.websocket_connect(f"/ws/{table_id}") as second:
            join(first, None)
            assert "as many pages open" in refused(second, {"type": "join"})


# --- the terminal shows the same indicator ----------------------------------------------------

def test_the_terminal_colours_costs_as_the_web_table_marks_them() -> None:
    import io

    from rich.console import Console

    import wonders
    from wonders.cli.human import HumanGame, cost_style
    from wonders.engine.actions import Build

    colours: set[str] = set()
    for seed in range(6):
        game = wonders.new_game("base", players=3, seed=seed, sides="random")
        for seat in range(3):
            hand = game.view(seat)["hand"]
            for name in hand:
                builds = [a for a in game.legal_actions(seat)
                          if isinstance(a, Build) and a.card.name == name]
                style = cost_style(game, seat, builds)  # type: ignore[arg-type]
                if not builds:
                    assert style == "red"
                elif any(b.method != "pay" for b in builds) or min(
                        b.payment.left + b.payment.right for b in builds) == 0:
                    assert style == "green"
                else:
                    assert style == "yellow"
                colours.add(style)
    assert colours == {"red", "yellow", "green"}
    # the hand table uses it: a card bought from neighbours is yellow
    game = wonders.new_game("base", players=3, seed=1, sides="A")
    console = Console(file=io.StringIO(), record=True, width=160, color_system="standard")
    session = HumanGame(game, 0, {}, console, lambda prompt: "")  # type: ignore[arg-type]
    session.show_hand()
    shown = console.export_text(styles=True)
    from wonders.cli.human import build_reason

    traded = 0
    for name in game.view(0)["hand"]:
        builds = [a for a in game.legal_actions(0) if isinstance(a, Build) and a.card.name == name]
        if cost_style(game, 0, builds) == "yellow":  # type: ignore[arg-type]
            why = build_reason(game, 0, builds[0].card, builds)[1]  # type: ignore[arg-type]
            assert "\x1b[33m" + why.split()[0] in shown   # the cost text is yellow
            traded += 1
    assert traded


def test_follow_up_choices_are_described_for_the_page() -> None:
    """A discard-pile build (cards to take, and skip) and a last card (a hand) reach the
    page as cards and choices, like any turn."""
    import random

    import wonders

    seen: set[str] = set()
    for seed in range(60):
        game = wonders.new_game("base", players=3, seed=seed, sides="B")
        rng = random.Random(seed)
        while not game.over and len(seen) < 2:
            decision = game.decision()
            if decision.kind in ("discard_build", "last_card") and decision.kind not in seen:
                seat = decision.seats[0]
                described = present.actions_for(game, seat)
                legal = [a.to_json() for a in game.legal_actions(seat)]
                assert [e["json"] for e in described["actions"]] == legal
                cards = {j["card"] for j in legal if "card" in j}
                assert set(described["cards"]) == cards and cards
                if decision.kind == "discard_build":
                    assert set(cards) <= set(game.view(seat)["discard_cards"])
                    assert [described["actions"][i]["kind"] for i in described["other"]] == [
                        "skip"]
                else:
                    assert cards <= set(game.view(seat)["hand"])
                seen.add(decision.kind)
            game.play({s: rng.choice(game.legal_actions(s)) for s in decision.seats})
        if len(seen) == 2:
            break
    assert seen == {"discard_build", "last_card"}


def test_a_socket_that_never_joins_is_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    from starlette.websockets import WebSocketDisconnect

    from wonders.serve import app as serve_app

    monkeypatch.setattr(serve_app, "JOIN_SECONDS", 0.2)
    client, tables = make_client(None)
    with client:
        created = create(client)
        with client.websocket_connect(f"/ws/{created['table']['id']}") as ws:
            with pytest.raises(WebSocketDisconnect):
                ws.receive_json()


def test_random_messages_are_refused_and_change_nothing(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Hundreds of random JSON messages, shaped like the protocol's or not: each gets an
    answer (refused, or pong), the connection stays up and the table does not change."""
    import random

    from wonders.serve import app as serve_app

    monkeypatch.setattr(serve_app, "RateLimit",
                        lambda **_: RateLimit(per_second=1e6, burst=1e6))
    rng = random.Random(0)
    fields = ["type", "decision", "action", "seat", "token", "card", "payment", "side", "x"]
    words = ["act", "join", "hint", "ping", "build", "sell", "stage", "side", "A", "", "é"]

    def value(depth: int) -> Any:
        roll = rng.random()
        if depth > 3 or roll < 0.3:
            return rng.choice([None, True, 0, -1, 2 ** 70, 1.5, rng.choice(words)])
        if roll < 0.6:
            return [value(depth + 1) for _ in range(rng.randrange(4))]
        return {rng.choice(fields): value(depth + 1) for _ in range(rng.randrange(5))}

    client, tables = make_client(tmp_path)
    with client:
        created = create(client, seats=["human"] * 3, sides="random")
        table = tables.get(created["table"]["id"])
        with client.websocket_connect(f"/ws/{table.id}") as ws:
            state = join(ws, token_of(created, 0))
            legal = state["actions"]["actions"][0]["json"]
            before = snapshot(table)
            for index in range(400):
                message = value(0)
                if isinstance(message, dict) and rng.random() < 0.7:
                    message["type"] = rng.choice(["act", "join", "hint"])
                    if rng.random() < 0.3:   # nearly right: a legal action, a wrong decision
                        message.update(action=legal, decision=rng.choice([1, -1, "0", None]))
                ws.send_text(json.dumps(message))
                answer = until(ws, lambda m: m["type"] in ("refused", "pong", "accepted"))
                assert answer["type"] != "accepted", message
            assert snapshot(table) == before


def test_two_people_and_two_bots_play_a_whole_4_player_game(tmp_path: Path) -> None:
    """The issue's 'done when', over websockets: two human seats (each its own connection,
    playing the first action described) and two bots, from creation to the score sheet."""
    client, tables = make_client(tmp_path)
    with client:
        created = create(client, players=4, seats=["human", "greedy", "human", "random"],
                         sides="choose")
        table = tables.get(created["table"]["id"])
        with client.websocket_connect(f"/ws/{table.id}") as zero, \
                client.websocket_connect(f"/ws/{table.id}") as two:
            pages = {0: zero, 2: two}
            for seat, ws in pages.items():
                join(ws, token_of(created, seat))
            deadline = time.time() + 60
            while not table.game.over:
                assert time.time() < deadline
                number = table.decision_number
                for seat, ws in pages.items():
                    if seat in table.waiting_for():
                        action = table.game.legal_actions(seat)[0].to_json()
                        ws.send_json({"type": "act", "decision": number, "action": action})
                        until(ws, lambda m: m["type"] == "accepted")
                while table.decision_number == number and not table.game.over:
                    assert time.time() < deadline
                    time.sleep(0.005)
        sheet = table.game.score_sheet()
        assert len(sheet.to_json()["players"]) == 4 and sheet.winners
        (tmp_path / "game.jsonl").write_bytes(client.get(f"/api/tables/{table.id}/log").content)
    from wonders.scenarios.log import replay

    assert replay(tmp_path / "game.jsonl").identical


# --- what the page is told (issue 27's defects) ----------------------------------------------

def _play_until(source: Any, players: int, wanted: Callable[[Any], bool],
                seeds: range = range(60)) -> Any:
    """A game of ``source`` played at random until ``wanted(game)`` holds (None if never)."""
    import random

    from wonders.engine.registry import new_game

    for seed in seeds:
        game = new_game(source.data, players, seed)
        rng = random.Random(seed)
        while not game.over:
            if wanted(game):
                return game
            decision = game.decision()
            game.play({s: rng.choice(game.legal_actions(s)) for s in decision.seats})
    return None


def test_a_card_offered_from_the_discard_pile_shows_it_is_built_free() -> None:
    """Its only action builds it (for nothing): the mark is a free ✓, never ✗ "cannot"."""
    sources()
    for name, players in (("base", 3), ("duel", 2)):
        game = _play_until(SOURCES[name], players,
                           lambda g: g.decision().kind == "discard_build")
        assert game is not None, name
        seat = game.decision().seats[0]
        described = present.actions_for(game, seat)
        assert described["cards"], name
        for card, slot in described["cards"].items():
            kinds = {described["actions"][i]["kind"] for i in slot["actions"]}
            assert kinds == {"discard_build"}, (name, card, kinds)
            assert slot["indicator"]["mark"] == "free", (name, card, slot["indicator"])
            assert slot["indicator"]["free"] == "discard"


def test_a_card_offered_only_to_destroy_shows_no_build_mark() -> None:
    sources()
    game = _play_until(SOURCES["duel"], 2, lambda g: g.decision().kind == "destroy")
    assert game is not None
    described = present.actions_for(game, game.decision().seats[0])
    assert described["cards"]
    assert all("indicator" not in slot for slot in described["cards"].values())


def test_only_rules_with_a_supremacy_name_the_kind_of_a_victory() -> None:
    """Base and Dice are won on points alone; Duel also by military or science supremacy."""
    sources()
    assert present.victories(SOURCES["base"].data) == ["civilian"]
    assert present.victories(SOURCES["dice"].data) == ["civilian"]
    assert present.victories(SOURCES["duel"].data) == ["civilian", "military", "science"]
    assert present.catalogue(SOURCES["base"].data)["victories"] == ["civilian"]


def test_dice_actions_and_sheets_use_the_datas_names_not_its_keys() -> None:
    """No building key, die key or bonus key reaches an action's words: the buildings'
    names, dice by colour ("grey die 2"), bonuses by what they give."""
    sources()
    dice = SOURCES["dice"].data.dice
    keys = ({b.key for b in dice.buildings if b.key != b.name}
            | {d.name for d in dice.dice if "_" in d.name}
            | {b.name for b in dice.bonuses if "_" in b.name})
    assert {"barracks_west", "grey_1", "cross_a_space"} <= keys
    sheets = present.sheets(dice)
    assert [d["label"] for d in sheets["dice"] if d["colour"] == "grey"] == \
        ["grey die 1", "grey die 2", "grey die 3"]
    labels = {b["name"]: b["label"] for b in sheets["bonuses"]}
    assert labels["cross_a_space"] == "cross a space of Warehouse, Agora or Market"
    texts: set[str] = set()

    def offered_a_bonus(game: Any) -> bool:   # collects every action's words on the way
        for seat in game.decision().seats:
            texts.update(a["text"] for a in present.actions_for(game, seat)["actions"])
        return any(text.startswith("take the bonus") for text in texts)

    assert _play_until(SOURCES["dice"], 3, offered_a_bonus, seeds=range(10)) is not None
    words = " ".join(texts)
    assert "Barracks (West)" in words and "grey die" in words
    assert not {key for key in keys if key in words}, [k for k in keys if k in words]


def test_the_search_bot_is_called_mcts_everywhere_and_search_still_works(
        tmp_path: Path) -> None:
    client, tables = make_client(tmp_path)
    with client:
        kinds = client.get("/api/games").json()["seat_kinds"]
        assert "mcts" in kinds and "search" not in kinds
        created = create(client, seats=["human", "search", "mcts"])
        assert [s["kind"] for s in created["seats"]] == ["human", "mcts", "mcts"]
        table_id = created["table"]["id"]
    tables.drain()
    # a table recorded with the old name restores, its seat under the new one
    import sqlalchemy as sa

    from wonders.serve import store as db

    with tables.store.engine.begin() as connection:
        connection.execute(sa.update(db.seats).where(
            (db.seats.c.table_id == table_id) & (db.seats.c.seat == 1)).values(kind="search"))
    again = Tables(tmp_path, sources(), search_seconds=0.2)
    assert not again.restore_problems
    assert [s.kind for s in again.get(table_id).seats] == ["human", "mcts", "mcts"]


def _decisions_with_moves(label: str, wanted: set[str],
                          seen: set[str]) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """Random games of a flow game (seeds 1 to 11, a move of the flow's chosen 7 times in
    10 where one is offered): at each decision offering one, the deciding seat's view and
    its described actions.  Ends after a game once ``seen`` holds ``wanted``; fails if no
    game gets there."""
    import random

    from wonders.engine.flow_actions import Move
    from wonders.engine.registry import new_game

    data = SOURCES.get(label) or load_source(label)
    for seed in range(1, 12):
        game = new_game(data.data, 2, seed)
        rng = random.Random(seed)
        while not game.over:
            seat = game.decision().seats[0]
            legal = list(game.legal_actions(seat))
            moves = [a for a in legal if isinstance(a, Move)]
            if moves:
                yield game.view(seat), present.actions_for(game, seat)
            game.play({seat: rng.choice(moves if moves and rng.random() < 0.7 else legal)})
        if wanted <= seen:
            return
    raise AssertionError(f"not every kind of move was seen: {sorted(seen)}")


def test_a_priced_rows_moves_say_where_they_act_and_what_they_cost() -> None:
    """Pantheon: each activation is described with its item, its space (the view's), the
    coins it costs and the tokens it spends; each placement with its space; a follow-up
    with the place of the table it acts on (a structure card, a track space, a military
    token) or the card or wonder it moves — every one from the move's own words."""
    seen: set[str] = set()
    wanted = {"activate", "place", "place of the structure", "track", "military"}
    for view, described in _decisions_with_moves("pantheon", wanted, seen):
        for entry in described["actions"]:
            words = entry["json"].get("words")
            if words is None:
                continue
            kind = entry["kind"]
            if kind == "activate" and words[1] == "pay":
                space = next(s for s in view["row"] if s["item"] == words[0])
                assert (entry["item"], entry["space"], entry["paid"]) == \
                    (words[0], space["space"], int(words[2]))
                assert entry["spend"] == words[4:]
                assert entry["text"].startswith(f"activate {words[0]} on space "
                                                f"{space['space']} for {words[2]} coin")
                seen.add("activate")
            elif kind == "place":
                assert (entry["item"], entry["space"]) == (words[0], int(words[3]))
                seen.add("place")
            elif words[0] == "row":
                assert entry["place"] == [int(words[1]), int(words[3])]
                seen.add("place of the structure")
            elif kind == "block":
                assert entry["track"] == int(words[1])
                seen.add("track")
            elif words[:2] == ["military", "token"]:
                assert entry["military"] == [int(words[2]), int(words[5])]
                seen.add("military")
            elif kind in ("take", "unbuild"):
                assert entry["target"] == int(words[3])
                assert words[0] in (entry.get("card"), entry.get("wonder"))
                seen.add(kind)


def test_senate_and_held_token_moves_say_where_they_act_and_what_they_do() -> None:
    """Agora: each influence follow-up names its chamber (and the second one of a move),
    keeping, returning, triggering and preparing a held token name the token (and the card
    tucked under it, listed in that card's tray beside build and sell), a choice of two
    effects says the effect it picks (the view's words) — every one from the move's words."""
    data = SOURCES.get("agora") or load_source("agora")
    seen: set[str] = set()
    wanted = {"place", "move", "remove", "keep", "return", "trigger", "prepare", "choose"}
    for view, described in _decisions_with_moves("agora", wanted, seen):
        for entry in described["actions"]:
            words = entry["json"].get("words")
            if words is None:
                continue
            kind = entry["kind"]
            if kind in ("place", "remove") and words[0].isdigit():   # (a token: not a cube)
                assert entry["chamber"] == int(words[0])
                assert f"chamber {words[0]} (" in entry["text"]
                seen.add(kind)
            elif kind in ("move", "decree"):
                assert (entry["chamber"], entry["to"]) == (int(words[0]), int(words[1]))
                seen.add(kind)
            elif kind in ("keep", "trigger"):
                effect = present.catalogue(data.data)["tokens"][words[0]]["effect"]
                assert entry["held"] == words[0] and effect in entry["text"]
                seen.add(kind)
            elif kind == "prepare":
                assert (entry["held"], entry["card"]) == tuple(words)
                assert entry["index"] in described["cards"][words[1]]["actions"]
                assert entry["index"] not in described["other"]
                seen.add(kind)
            elif kind == "return":
                assert view["held"]["drawn"][0] in entry["text"]
                seen.add(kind)
            elif kind == "choose":
                assert entry["choice"] == int(words[0])
                assert entry["text"] == f"choose: {view['either']['choices'][int(words[0]) - 1]}"
                seen.add(kind)


def test_a_wonder_chosen_in_the_draft_asks_its_senate_decision_on_the_draft_page() -> None:
    """Agora: Curia Julia and Knossos picked in the wonder draft ask their follow-ups there
    (a drawn conspiracy kept, a chamber for the cube), each described with its token or
    chamber, while the view still holds the draft's pool and shows the Senate and the drawn
    tokens (what the draft page draws)."""
    from wonders.engine.actions import ChooseWonder
    from wonders.engine.registry import new_game

    data = SOURCES.get("agora") or load_source("agora")
    seen: set[str] = set()
    for seed in range(1, 30):
        game = new_game(data.data, 2, seed)
        while game.decision().kind != "turn":
            kind = game.decision().kind
            seat = game.decision().seats[0]
            legal = list(game.legal_actions(seat))
            if kind in ("keep", "influence"):
                view = game.view(seat)
                entries = present.actions_for(game, seat)["actions"]
                assert "wonder_pool" in view and view["chambers"]["chambers"], view
                if kind == "keep":
                    assert sorted(e["held"] for e in entries) == sorted(view["held"]["drawn"])
                else:
                    assert sorted(e["chamber"] for e in entries) == [1, 2, 3, 4, 5, 6]
                seen.add(kind)
            picks = [a for a in legal if isinstance(a, ChooseWonder)
                     and a.wonder.name in ("Curia Julia", "Knossos")]
            game.play({seat: (picks or legal)[0]})
        if seen == {"keep", "influence"}:
            return
    raise AssertionError(f"the draft's follow-ups seen: {sorted(seen)}")
