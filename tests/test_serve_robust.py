"""The server attacked as a malicious or unlucky user would: killed with ``kill -9`` right
after acknowledging a move, its disk refusing writes, special files in its data folder,
text that is not valid Unicode, clients that hang up mid-request or trickle their headers."""

from __future__ import annotations

import errno
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest
from ports import free_port

pytest.importorskip("starlette", reason="wonders serve needs Starlette")
uvicorn = pytest.importorskip("uvicorn", reason="wonders serve needs uvicorn")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

from serve_databases import database, with_csrf  # noqa: E402,F401  (the fixture)
from starlette.testclient import TestClient  # noqa: E402

from wonders.serve import store as serve_store  # noqa: E402
from wonders.serve import tables as serve_tables  # noqa: E402
from wonders.serve.app import create_app, uvicorn_options  # noqa: E402
from wonders.serve.tables import Tables, load_source  # noqa: E402

SOURCES: list[Any] = []


def sources() -> list[Any]:
    if not SOURCES:
        SOURCES.append(load_source("base"))
    return SOURCES


def full_disk(*_: Any, **__: Any) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


BODY = {"game": "base", "players": 3, "seats": ["human", "human", "human"],
        "sides": "choose", "seed": 7}


# --- kill -9 right after `accepted` ---------------------------------------------------------

class Process:
    """``wonders serve`` as a real subprocess on one port and data folder."""

    def __init__(self, data: Path, port: int, database: str | None = None) -> None:
        self.data, self.port, self.database = data, port, database
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "wonders.cli", "serve", "--data", str(self.data),
             "--port", str(self.port), "--game", "base",
             *(["--database", self.database] if self.database else [])],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/games", timeout=2)
                return
            except OSError:
                assert self.proc.poll() is None, "wonders serve exited"
                assert time.time() < deadline, "wonders serve did not start"
                time.sleep(0.05)

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)


def receive(ws: Any, kinds: tuple[str, ...]) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=20))
        if message["type"] in kinds:
            return message


def test_a_move_acknowledged_survives_kill_9_right_after(tmp_path: Path,
                                                         database: str | None) -> None:
    """Eight times (twice on PostgreSQL): a seat's move is accepted, the server is killed
    at once (SIGKILL, no chance to flush anything) and started again: the move is there
    every time."""
    from websockets.sync.client import connect

    server = Process(tmp_path / "data", free_port(), database)
    server.start()
    try:
        session = urllib.request.urlopen(f"http://127.0.0.1:{server.port}/api/session",
                                         timeout=10)
        cookie = session.headers["Set-Cookie"].split(";")[0]
        request = urllib.request.Request(
            f"http://127.0.0.1:{server.port}/api/tables", data=json.dumps(BODY).encode(),
            headers={"Content-Type": "application/json", "Cookie": cookie,
                     "X-CSRF-Token": json.loads(session.read())["csrf"]})
        created = json.loads(urllib.request.urlopen(request, timeout=10).read())
        table = created["table"]["id"]
        tokens = {s["seat"]: s["link"].split("#token=")[1] for s in created["seats"]}
        url = f"ws://127.0.0.1:{server.port}/ws/{table}"
        for attempt in range(8 if database is None else 2):
            with connect(url) as watcher:
                watcher.send(json.dumps({"type": "join"}))
                state = receive(watcher, ("state",))
            waiting = [s for s in state["pending"]["seats"]
                       if s not in state["pending"]["chosen"]]
            seat = waiting[0]
            with connect(url) as ws:
                ws.send(json.dumps({"type": "join", "token": tokens[seat]}))
                mine = receive(ws, ("state",))
                action = mine["actions"]["actions"][0]["json"]
                ws.send(json.dumps({"type": "act", "decision": mine["decision"],
                                    "action": action}))
                answer = receive(ws, ("accepted", "refused"))
                assert answer["type"] == "accepted", answer
                server.kill()   # at once: not even the websocket is closed
            server.start()
            with connect(url) as watcher:
                watcher.send(json.dumps({"type": "join"}))
                after = receive(watcher, ("state",))
            kept = (after["decision"] > mine["decision"]
                    or seat in after["pending"]["chosen"])
            assert kept, (attempt, seat, mine["decision"], after["decision"],
                          after["pending"])
    finally:
        if server.proc is not None and server.proc.poll() is None:
            server.kill()


# --- writes that fail -----------------------------------------------------------------------

def test_a_move_that_cannot_be_stored_is_refused_undone_and_logged(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    tables = Tables(tmp_path, sources())
    client = with_csrf(TestClient(create_app(tables), base_url="https://testserver"))
    with client:
        created = client.post("/api/tables", json=BODY).json()
        table = tables.get(created["table"]["id"])
        tokens = [s["link"].split("#token=")[1] for s in created["seats"]]
        with client.websocket_connect(f"/ws/{table.id}") as ws0, \
                client.websocket_connect(f"/ws/{table.id}") as ws1:
            for ws, token in ((ws0, tokens[0]), (ws1, tokens[1])):
                ws.send_json({"type": "join", "token": token})
            first = [None, None]
            for seat, ws in enumerate((ws0, ws1)):
                while True:
                    message = ws.receive_json()
                    if message["type"] == "state":
                        first[seat] = message["actions"]["actions"][0]["json"]
                        break
            ws0.send_json({"type": "act", "decision": 0, "action": first[0]})
            assert ws0.receive_json()["type"] == "accepted"
            # the disk fills up: seat 1's move (it would not resolve the decision yet)
            monkeypatch.setattr(serve_store, "run", full_disk)
            caplog.set_level(logging.ERROR, logger="wonders.serve")
            ws1.send_json({"type": "act", "decision": 0, "action": first[1]})
            answer = ws1.receive_json()
            while answer["type"] == "state":
                answer = ws1.receive_json()
            assert answer["type"] == "refused"
            assert answer["reason"] == ("the server could not store this move (No space "
                                        "left on device); it was not played: try again later")
            assert sorted(table.pending) == [0] and table.decision_number == 0
            assert any("not stored, so refused" in r.getMessage() for r in caplog.records)
            # a new table is refused too, and not kept
            answer_http = client.post("/api/tables", json=BODY)
            assert answer_http.status_code == 503
            assert "could not store the new table (No space left on device)" in \
                answer_http.json()["error"]
            assert len(client.get("/api/tables").json()["tables"]) == 1
            # room again: the same move is accepted
            monkeypatch.undo()
            ws1.send_json({"type": "act", "decision": 0, "action": first[1]})
            answer = ws1.receive_json()
            while answer["type"] == "state":
                answer = ws1.receive_json()
            assert answer["type"] == "accepted" and sorted(table.pending) == [0, 1]


def test_a_decision_whose_log_cannot_be_written_is_undone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The last seat's move would play the decision: its log fails, so the decision is not
    played, the other seats' choices stay, and a restart finds it the same."""
    import asyncio

    from wonders.serve.app import Server

    tables = Tables(tmp_path, sources())
    table = tables.create(BODY)
    tables.drain()
    server = Server(tables)
    for seat in (0, 1):
        asyncio.run(server.commit(table, seat, 0, table.game.legal_actions(seat)[0].to_json()))
    real = serve_store.run

    def moves_fail(connection: Any, statement: Any, parameters: Any = None) -> Any:
        if getattr(statement, "table", None) is serve_store.moves:
            full_disk()   # the decision's move: after the row's update was queued with it
        return real(connection, statement, parameters)

    monkeypatch.setattr(serve_store, "run", moves_fail)
    with pytest.raises(serve_tables.TableError, match="could not store this move"):
        asyncio.run(server.commit(table, 2, 0, table.game.legal_actions(2)[0].to_json()))
    assert table.decision_number == 0 and sorted(table.pending) == [0, 1]
    monkeypatch.undo()
    tables.drain()
    again = Tables(tmp_path, sources()).get(table.id)
    assert again.decision_number == 0 and sorted(again.pending) == [0, 1]


def test_start_up_refuses_a_data_folder_it_cannot_write(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from wonders.cli import app
    from wonders.serve import app as serve_app

    started: list[Any] = []
    monkeypatch.setattr(serve_app, "run", lambda *args: started.append(args))

    def read_only(*_: Any, **__: Any) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(serve_store, "_write_probe", read_only)
    result = CliRunner().invoke(app, ["serve", "--data", str(tmp_path / "t"), "--game", "base"])
    assert result.exit_code == 1 and not started
    assert "cannot use" in result.output and "Read-only file system" in result.output
    assert "must be writable" in result.output


@pytest.mark.parametrize("special", ["fifo", "journal", "link", "folder"])
def test_a_special_file_in_place_of_the_database_is_refused_not_opened(
        tmp_path: Path, special: str) -> None:
    """A FIFO (or a link, a folder) where the SQLite file or its journal would be: start-up
    stops at once with the reason, never blocks on it, never writes through a link."""
    from typer.testing import CliRunner

    from wonders.cli import app

    name = "wonders.db-wal" if special == "journal" else "wonders.db"
    if special in ("fifo", "journal"):
        os.mkfifo(tmp_path / name)
    elif special == "link":
        (tmp_path / name).symlink_to(tmp_path / "elsewhere.db")
    else:
        (tmp_path / name).mkdir()
    found: list[Any] = []
    worker = threading.Thread(target=lambda: found.append(CliRunner().invoke(
        app, ["serve", "--data", str(tmp_path), "--game", "base"])), daemon=True)
    worker.start()
    worker.join(20)
    assert found, "start-up hung on a special file"
    result = found[0]
    assert result.exit_code == 1, result.output
    assert f"{tmp_path / name} is " in result.output and "not a database file" in result.output
    assert not (tmp_path / "elsewhere.db").exists()


# --- text that is not valid Unicode ---------------------------------------------------------

def test_a_lone_surrogate_gets_the_documented_refusal(tmp_path: Path) -> None:
    tables = Tables(tmp_path, sources())
    client = with_csrf(TestClient(create_app(tables), raise_server_exceptions=False,
                                  base_url="https://testserver"))
    with client:
        for raw in ('{"\\ud800": 1}', '{"game": "\\ud800", "players": 3}',
                    '{"game": "base", "players": 3, "seats": ["\\udfff", "human", "human"]}'):
            answer = client.post("/api/tables", content=raw.encode(),
                                 headers={"content-type": "application/json"})
            assert answer.status_code == 400, (raw, answer.status_code, answer.text)
            assert "not valid Unicode" in answer.json()["error"]
        created = client.post("/api/tables", json=BODY).json()
        with client.websocket_connect(f"/ws/{created['table']['id']}") as ws:
            for raw in ('{"type": "join", "\\ud800": 1}', '{"type": "\\ud800"}',
                        '{"type": "join", "token": "\\ud800"}'):
                ws.send_text(raw)
                answer = ws.receive_json()
                assert answer["type"] == "refused" and "not valid Unicode" in answer["reason"]
            ws.send_json({"type": "ping"})   # the connection is still open
            assert ws.receive_json() == {"type": "pong"}


# --- hung up, and never finished ------------------------------------------------------------

class Threaded:
    """uvicorn in a thread with the options ``wonders serve`` uses; its log captured."""

    def __init__(self, data: Path, request_timeout: float) -> None:
        self.port = free_port()
        self.tables = Tables(data, sources())
        config = uvicorn.Config(create_app(self.tables, request_timeout=request_timeout),
                                host="127.0.0.1", port=self.port, log_config=None,
                                timeout_graceful_shutdown=1,
                                **uvicorn_options(request_timeout))
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> "Threaded":
        self.thread.start()
        deadline = time.time() + 15
        while not self.server.started:
            assert time.time() < deadline
            time.sleep(0.02)
        return self

    def __exit__(self, *_: Any) -> None:
        self.server.should_exit = True
        self.thread.join(15)


@pytest.fixture()
def log_lines(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    caplog.set_level(logging.INFO)
    yield caplog


def test_a_client_hanging_up_mid_request_is_one_log_line(
        tmp_path: Path, log_lines: pytest.LogCaptureFixture) -> None:
    with Threaded(tmp_path, request_timeout=10) as running:
        with socket.create_connection(("127.0.0.1", running.port)) as raw:
            raw.sendall(b"POST /api/tables HTTP/1.1\r\nHost: t\r\n"
                        b"Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{\"ga")
            time.sleep(0.3)
        deadline = time.time() + 10
        while not any("hung up" in r.getMessage() for r in log_lines.records):
            assert time.time() < deadline, [r.getMessage() for r in log_lines.records]
            time.sleep(0.05)
        time.sleep(0.3)
    text = "\n".join(r.getMessage() for r in log_lines.records)
    assert [r for r in log_lines.records if "hung up" in r.getMessage()].__len__() == 1
    assert not any(r.exc_info for r in log_lines.records), text
    assert "Traceback" not in text and "Exception in ASGI application" not in text


def test_requests_that_never_complete_time_out(tmp_path: Path,
                                               log_lines: pytest.LogCaptureFixture) -> None:
    """Twenty connections to 127.0.0.1 trickling headers, and one sending half a body,
    with a 1 s limit: the server closes every one (the body one with a 408)."""
    with Threaded(tmp_path, request_timeout=1.0) as running:
        slow = []
        for _ in range(20):
            connection = socket.create_connection(("127.0.0.1", running.port))
            connection.sendall(b"GET / HTTP/1.1\r\nHost: t\r\nX-Slow: ")
            connection.settimeout(10)
            slow.append(connection)
        body = socket.create_connection(("127.0.0.1", running.port))
        body.settimeout(10)
        body.sendall(b"POST /api/tables HTTP/1.1\r\nHost: t\r\nContent-Type: application/json"
                     b"\r\nContent-Length: 50\r\n\r\n{")
        started = time.time()
        for connection in slow:
            assert connection.recv(1024) == b"", "a slow-header connection was answered"
            connection.close()
        waited = time.time() - started
        assert waited < 5, f"the slow-header connections were closed after {waited:.1f} s"
        answer = body.recv(4096)
        body.close()
        assert answer.startswith(b"HTTP/1.1 408"), answer[:80]
    closed = [r for r in log_lines.records if "request headers incomplete" in r.getMessage()]
    assert len(closed) == 20


def test_a_websocket_outlives_the_request_timeout(tmp_path: Path) -> None:
    """The headers' time limit ends with the upgrade: a table's page stays connected."""
    from websockets.sync.client import connect

    with Threaded(tmp_path, request_timeout=0.5) as running:
        table = running.tables.create(BODY)
        with connect(f"ws://127.0.0.1:{running.port}/ws/{table.id}") as ws:
            ws.send(json.dumps({"type": "join"}))
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
            time.sleep(1.5)
            ws.send(json.dumps({"type": "ping"}))
            while (message := json.loads(ws.recv(timeout=10)))["type"] != "pong":
                assert message["type"] == "state"


def test_a_page_gone_right_after_its_move_still_lets_the_others_know(tmp_path: Path) -> None:
    """The mover's page hangs up while its move is being stored: the move is kept, and the
    other pages are sent the new state all the same."""
    from websockets.sync.client import connect

    with Threaded(tmp_path, request_timeout=10) as running:
        table = running.tables.create(BODY)
        url = f"ws://127.0.0.1:{running.port}/ws/{table.id}"
        with connect(url) as watcher:
            watcher.send(json.dumps({"type": "join"}))
            receive(watcher, ("state",))
            with connect(url) as mover:
                mover.send(json.dumps({"type": "join", "token": table.seats[0].token}))
                state = receive(mover, ("state",))
                mover.send(json.dumps({"type": "act", "decision": 0,
                                       "action": state["actions"]["actions"][0]["json"]}))
            # gone at once; the watcher learns that seat 0 has chosen
            while 0 not in receive(watcher, ("state",))["pending"]["chosen"]:
                pass
        assert sorted(table.pending) == [0]


# --- a move failing for a reason no rule gives (a bug) ------------------------------------

def failing_recap(monkeypatch: pytest.MonkeyPatch, when: Any) -> list[int]:
    """Make the table's work after a decision is played (its recap) raise, as a bug would,
    for the decisions ``when(number)`` picks; the numbers it failed, in order."""
    real = serve_tables.recap.make
    failed: list[int] = []

    def make(game: Any, was: Any, actions: Any, public: Any, decision: int,
             *args: Any, **kwargs: Any) -> Any:
        if when(decision, failed):
            failed.append(decision)
            raise RuntimeError(f"injected: the recap of decision {decision} failed")
        return real(game, was, actions, public, decision, *args, **kwargs)

    monkeypatch.setattr(serve_tables.recap, "make", make)
    return failed


def until(check: Any, seconds: float = 20.0) -> None:
    deadline = time.time() + seconds
    while not check():
        assert time.time() < deadline, "timed out"
        time.sleep(0.02)


BOTS_ONLY = {**BODY, "seats": ["random", "random", "random"]}


def test_a_bot_move_that_fails_is_undone_logged_and_its_first_legal_action_played(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The bots' table plays on to the end when one bot move fails for a reason no rule
    gives (the recap of its decision raising once): the move is undone (the decision's
    other choices kept), logged with its traceback, and the bot plays its first legal
    action instead.  Before, the bot's task ended and the table waited for ever."""
    caplog.set_level(logging.WARNING, logger="wonders.serve")
    failed = failing_recap(monkeypatch, lambda number, failed: number == 3 and not failed)
    tables = Tables(tmp_path, sources())
    client = with_csrf(TestClient(create_app(tables), base_url="https://testserver"))
    with client:
        created = client.post("/api/tables", json=BOTS_ONLY).json()
        table = tables.get(created["table"]["id"])
        until(lambda: table.game.over, 60)
        log = client.get(f"/api/tables/{table.id}/log")
    assert failed == [3] and table.failure is None
    messages = [r.getMessage() for r in caplog.records]
    assert any("failed while it was played (RuntimeError: injected" in m for m in messages)
    assert any("it plays its first legal action" in m for m in messages)
    assert any(r.exc_info for r in caplog.records)   # the traceback, for the operator
    # the game the table stored replays exactly: nothing of the undone move stayed
    from wonders.scenarios.log import replay
    (tmp_path / "game.jsonl").write_bytes(log.content)
    outcome = replay(tmp_path / "game.jsonl")
    assert outcome.identical and not outcome.unfinished and outcome.game is not None
    assert outcome.game.history == table.game.history


def test_a_decision_no_bot_move_can_play_stops_the_table_and_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """When the first legal action fails too, the decision is marked failed: the table as
    it was, no bot started for it again (no loop of failures), an ERROR in the log and the
    reason in every page's state; a human's move failing so is refused with the reason."""
    caplog.set_level(logging.WARNING, logger="wonders.serve")
    failed = failing_recap(monkeypatch, lambda number, failed: number == 2)
    tables = Tables(tmp_path, sources())
    client = with_csrf(TestClient(create_app(tables), base_url="https://testserver"))
    with client:
        created = client.post("/api/tables", json=BOTS_ONLY).json()
        table = tables.get(created["table"]["id"])
        until(lambda: table.failure is not None)
        time.sleep(0.3)   # (nothing more happens: no bot tries again)
        assert table.decision_number == 2 and len(failed) == 2 and not table.bots_busy
        history = table.game.history
        with client.websocket_connect(f"/ws/{table.id}") as ws:
            ws.send_json({"type": "join"})
            message = ws.receive_json()
            while message["type"] != "state":
                message = ws.receive_json()
        reason = message["table"]["failed"]
        assert reason.startswith("seat ") and "bot could not move" in reason
        assert "the server failed to play this move (RuntimeError: injected" in reason
        assert table.game.history == history and table.decision_number == 2
        assert any(r.levelno == logging.ERROR and "decision 2 stopped" in r.getMessage()
                   for r in caplog.records)
        # a human's move that fails so: refused with the reason, nothing played
        people = client.post("/api/tables", json=BODY).json()
        human = tables.get(people["table"]["id"])
        monkeypatch.setattr(serve_tables.recap, "make", lambda *a, **k: 1 / 0)
        tokens = [s["link"].split("#token=")[1] for s in people["seats"]]
        sockets = [client.websocket_connect(f"/ws/{human.id}") for _ in tokens]
        answers = []
        for ws, token in zip(sockets, tokens):
            with ws:
                ws.send_json({"type": "join", "token": token})
                state = ws.receive_json()
                while state["type"] != "state":
                    state = ws.receive_json()
                ws.send_json({"type": "act", "decision": 0,
                              "action": state["actions"]["actions"][0]["json"]})
                answer = ws.receive_json()
                while answer["type"] == "state":
                    answer = ws.receive_json()
                answers.append(answer)
        assert [a["type"] for a in answers] == ["accepted", "accepted", "refused"]
        assert answers[2]["reason"] == ("the server failed to play this move "
                                        "(ZeroDivisionError: division by zero); it was not "
                                        "played")
        assert human.decision_number == 0 and sorted(human.pending) == [0, 1]
