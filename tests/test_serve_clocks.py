"""Game speeds and clocks on the online table, driven by a fake clock (never a sleep):
time banks and increments, a seat out of time played by a bot until its player comes
back, a real-time game finished by the bot, turn-based hours, abandoned seats handed to a
bot, clocks kept across a restart (on SQLite and PostgreSQL)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

pytest.importorskip("starlette", reason="wonders serve needs Starlette")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

from serve_databases import database, with_csrf  # noqa: E402,F401  (the fixture)
from starlette.testclient import TestClient, WebSocketTestSession  # noqa: E402

from wonders.serve.app import create_app  # noqa: E402
from wonders.serve.clocks import SPEEDS, Clocks  # noqa: E402
from wonders.serve.tables import Tables, load_source  # noqa: E402

SOURCES: list[Any] = []


class Clock:
    """The server's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 2_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture()
def clock() -> Clock:
    return Clock()


@pytest.fixture()
def tables(tmp_path: Path, clock: Clock, database: str | None) -> Iterator[Tables]:
    if not SOURCES:
        SOURCES.append(load_source("base"))
    found = Tables(tmp_path, SOURCES, search_seconds=0.1, clock=clock, database=database)
    yield found
    found.close()


def until(ws: WebSocketTestSession, wanted: Callable[[dict[str, Any]], bool]) -> Any:
    for _ in range(2000):
        message = ws.receive_json()
        if wanted(message):
            return message
    raise AssertionError("the awaited message never came")


def wait_for(condition: Callable[[], bool], seconds: float = 30.0) -> None:
    deadline = time.time() + seconds
    while not condition():
        assert time.time() < deadline, "the awaited change never came"
        time.sleep(0.005)


def test_a_time_bank_gets_its_increment_and_loses_what_is_spent() -> None:
    bank, increment = SPEEDS["fast"]
    clocks = Clocks.for_speed("fast", 3)
    assert clocks is not None
    clocks.begin([0, 1, 2], 100.0)
    clocks.stop(0, 105.0)
    assert clocks.left(0, 999.0) == bank + increment - 5   # stopped: no longer runs
    assert clocks.left(1, 110.0) == bank + increment - 10
    assert clocks.expired(100.0 + bank + increment) == [1, 2]
    clocks.begin([0], 200.0)   # the next decision: the increment again
    assert clocks.left(0, 200.0) == bank + 2 * increment - 5
    turn = Clocks.for_speed("turn-based", 2, hours=3)
    assert turn is not None
    turn.begin([0, 1], 0.0)
    turn.stop(0, 100.0)
    turn.begin([0], 500.0)   # each decision its own time, nothing carried over
    assert turn.left(0, 500.0) == 3 * 3600.0
    assert Clocks.for_speed("untimed", 2) is None


def make(client: TestClient, **request: Any) -> Any:
    body = {"game": "base", "players": 3, "seats": ["human", "greedy", "greedy"], "seed": 2,
            "sides": "random", **request}
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def test_a_player_out_of_time_is_played_by_a_bot_to_the_end_until_they_return(
        tables: Tables, clock: Clock) -> None:
    client = with_csrf(TestClient(create_app(tables), base_url="https://testserver"))
    assert isinstance(client, TestClient)
    server = client.app.state.server   # type: ignore[attr-defined]
    bank, increment = SPEEDS["fast"]
    with client:
        created = make(client, speed="fast")
        table = tables.get(created["table"]["id"])
        token = created["seats"][0]["link"].split("#token=")[1]
        with client.websocket_connect(f"/ws/{table.id}") as ws:
            ws.send_json({"type": "join", "token": token})
            state = until(ws, lambda m: m["type"] == "state")
            assert state["clocks"]["left"][0] == bank + increment
            assert 0 in state["clocks"]["running"]
            clock.now += 30   # 30 s to choose: the bank pays for them
            ws.send_json({"type": "act", "decision": 0,
                          "action": state["actions"]["actions"][0]["json"]})
            until(ws, lambda m: m["type"] == "accepted")
            wait_for(lambda: table.decision_number == 1)
            state = until(ws, lambda m: m["type"] == "state" and m["decision"] == 1)
            assert state["clocks"]["left"][0] == bank + 2 * increment - 30
            # now the player stops playing: nothing happens until the time is out
            clock.now += bank + 2 * increment - 31
            assert client.portal.call(server.tick) == [] and not table.away
            clock.now += 2
            client.portal.call(server.tick)
            assert table.away == {0}
            state = until(ws, lambda m: m["type"] == "state" and m["table"]["away"] == [0])
            wait_for(lambda: table.decision_number >= 4)   # the bot plays the seat on
            # the player comes back: their seat again, with an increment for the decision
            ws.send_json({"type": "back"})
            until(ws, lambda m: m["type"] == "back")
            assert not table.away
            state = until(ws, lambda m: m["type"] == "state" and m["table"]["away"] == [])
            wait_for(lambda: 0 in table.waiting_for())   # the bots have chosen: seat 0's turn
            number = table.decision_number   # it waits for seat 0 now: it stays
            state = until(ws, lambda m: m["type"] == "state" and m["decision"] == number
                          and not m["table"]["away"] and "actions" in m)
            assert state["clocks"]["left"][0] >= increment and 0 in state["clocks"]["running"]
            # and runs out again: the bot finishes the game
            clock.now += 10 * bank
            client.portal.call(server.tick)
            assert table.away == {0}
            wait_for(lambda: table.game.over, 60)
    assert table.game.over and table.away == {0}


def test_turn_based_gives_hours_per_move(tables: Tables, clock: Clock) -> None:
    client = with_csrf(TestClient(create_app(tables), base_url="https://testserver"))
    assert isinstance(client, TestClient)
    server = client.app.state.server   # type: ignore[attr-defined]
    with client:
        refused = client.post("/api/tables", json={
            "game": "base", "players": 3, "seats": ["human"] * 3, "speed": "turn-based",
            "hours": 0})
        assert refused.status_code == 400 and "hours per move" in refused.json()["error"]
        assert client.post("/api/tables", json={"game": "base", "players": 3, "seats":
                                                ["human"] * 3, "speed": "ludicrous"}
                           ).status_code == 400
        created = make(client, speed="turn-based", hours=2)
        table = tables.get(created["table"]["id"])
        assert table.clocks is not None and table.clocks.left(0, clock.now) == 7200
        clock.now += 7199
        client.portal.call(server.tick)
        assert not table.away
        clock.now += 2
        client.portal.call(server.tick)
        assert table.away == {0}
        wait_for(lambda: table.decision_number >= 1)


def test_the_others_hand_an_abandoned_seat_to_a_bot(tables: Tables, clock: Clock) -> None:
    client = with_csrf(TestClient(create_app(tables), base_url="https://testserver"))
    assert isinstance(client, TestClient)
    with client:
        created = make(client, seats=["human", "human", "greedy"])   # untimed
        table = tables.get(created["table"]["id"])
        tokens = [s["link"].split("#token=")[1] for s in created["seats"][:2]]
        with client.websocket_connect(f"/ws/{table.id}") as ws:
            ws.send_json({"type": "join", "token": tokens[0]})
            state = until(ws, lambda m: m["type"] == "state")
            ws.send_json({"type": "act", "decision": 0,
                          "action": state["actions"]["actions"][0]["json"]})
            until(ws, lambda m: m["type"] == "accepted")
            for target, reason in ((0, "your own seat"), (2, "a bot plays seat 2"),
                                   (9, "a seat number"),
                                   (1, "left 0 s ago; a seat may be handed to a bot after "
                                       "60 s")):
                ws.send_json({"type": "hand_over", "target": target})
                assert reason in until(ws, lambda m: m["type"] == "refused")["reason"]
            clock.now += 30
            with client.websocket_connect(f"/ws/{table.id}") as other:   # seat 1 comes
                other.send_json({"type": "join", "token": tokens[1]})
                until(other, lambda m: m["type"] == "state")
                clock.now += 100
                ws.send_json({"type": "hand_over", "target": 1})
                assert "at the table" in until(ws, lambda m: m["type"] == "refused")["reason"]
            wait_for(lambda: table.present.get(1) == 0)   # and leaves: 60 s from now
            clock.now += 59
            ws.send_json({"type": "hand_over", "target": 1})
            assert "left 59 s ago" in until(ws, lambda m: m["type"] == "refused")["reason"]
            clock.now += 2
            ws.send_json({"type": "hand_over", "target": 1})
            until(ws, lambda m: m["type"] == "handed_over")
            assert table.away == {1}
            wait_for(lambda: table.decision_number == 1)   # the bot chose for seat 1
    tables.drain()
    again = Tables(tables.data_dir, SOURCES, clock=clock,
                   database=None if tables.store.url.startswith("sqlite") else tables.store.url)
    assert again.get(table.id).away == {1}   # kept across a restart
    again.close()


def test_clocks_survive_a_restart(tables: Tables, clock: Clock) -> None:
    table = tables.create({"game": "base", "players": 3, "seats": ["human"] * 3, "seed": 3,
                           "speed": "normal"})
    clock.now += 12
    table.submit(1, 0, table.game.legal_actions(1)[0].to_json())
    tables.drain()
    again = Tables(tables.data_dir, SOURCES, clock=clock,
                   database=None if tables.store.url.startswith("sqlite") else tables.store.url)
    restored = again.get(table.id)
    assert restored.clocks is not None and table.clocks is not None
    clock.now += 5
    assert restored.clocks.public(clock.now) == table.clocks.public(clock.now)
    bank, increment = SPEEDS["normal"]
    assert restored.clocks.public(clock.now)["left"] == [bank + increment - 17,
                                                         bank + increment - 12,
                                                         bank + increment - 17]
    again.close()
