"""Replays of the online table (``/replay/{id}``, ``/api/tables/{id}/replay…``): every step of
a finished game, in every view, is what the engine gives replaying the table's own log; a
running game's replay serves the public view only; bad steps, seats and tables are refused
with a reason (never a 500); "play on from here" makes an ordinary table that continues from
the step, stored and restored like any other."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, cast

import pytest

pytest.importorskip("starlette", reason="wonders serve needs Starlette")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

from serve_databases import with_csrf  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from wonders.engine.contract import GameState  # noqa: E402
from wonders.engine.registry import new_game  # noqa: E402
from wonders.engine.sources import resolve  # noqa: E402
from wonders.scenarios import log as game_log  # noqa: E402
from wonders.scenarios import position  # noqa: E402
from wonders.serve import present  # noqa: E402
from wonders.serve.app import create_app  # noqa: E402
from wonders.serve.tables import Table, Tables, load_source  # noqa: E402

GAMES = {"base": 3, "duel": 2, "dice": 3, "architects": 3}
SOURCES: list[Any] = []


def sources() -> list[Any]:
    if not SOURCES:
        SOURCES.extend(load_source(name) for name in GAMES)
    return SOURCES


def make_client(data_dir: Path | None = None) -> tuple[TestClient, Tables]:
    tables = Tables(data_dir, sources(), search_seconds=0.2)
    client = with_csrf(TestClient(create_app(tables), base_url="https://testserver"))
    return cast(TestClient, client), tables


def played(tables: Tables, game: str, seed: int, decisions: int | None = None) -> Table:
    """A table of humans played by random legal actions (to the end, or ``decisions``)."""
    players = GAMES[game]
    table = tables.create({"game": game, "players": players, "seats": ["human"] * players,
                           "seed": seed})
    rng = random.Random(seed)
    while not table.game.over and (decisions is None or table.decision_number < decisions):
        for seat in table.waiting_for():
            table.submit(seat, table.decision_number,
                         rng.choice(table.game.legal_actions(seat)).to_json())
    return table


def engine_from_log(text: str) -> tuple[GameState, list[dict[str, Any]], dict[str, Any]]:
    """The game a log sets up (the engine's own loading), its decisions and header."""
    records = [json.loads(line) for line in text.splitlines() if line.strip()]
    head = records[0]
    data = resolve(head["game"]).load(head.get("paths") or []).game
    assert data is not None
    sides = game_log.sides_option(head)
    game = new_game(data, head["players"], head["seed"], **({} if sides is None else
                                                             {"sides": sides}))
    return game, [r for r in records if r["type"] == "decision"], head


def play_logged(game: GameState, record: dict[str, Any]) -> None:
    actions = {}
    for seat_text, wanted in record["actions"].items():
        seat = int(seat_text)
        actions[seat] = next(a for a in game.legal_actions(seat) if a.to_json() == wanted)
    game.play(actions)


def plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("game", list(GAMES))
def test_every_step_in_every_view_is_what_the_engine_gives_replaying_the_log(game: str) -> None:
    client, tables = make_client()
    table = played(tables, game, seed=11)
    info = client.get(f"/api/tables/{table.id}/replay").json()
    steps = table.decision_number
    assert info["steps"] == steps and info["over"]
    assert info["views"] == ["public", *map(str, range(GAMES[game]))]
    log = client.get(f"/api/tables/{table.id}/log")
    assert log.status_code == 200
    engine, decisions, head = engine_from_log(log.text)
    assert len(decisions) == steps
    # the steps in an order that makes the replay go back as well as forward
    order = list(range(steps + 1))
    order = order[::2] + order[1::2][::-1]
    answers: dict[tuple[int, str], dict[str, Any]] = {}
    for at in order:
        for view in info["views"]:
            query = "" if view == "public" else f"?seat={view}"
            answer = client.get(f"/api/tables/{table.id}/replay/{at}{query}")
            assert answer.status_code == 200, answer.text
            answers[at, view] = answer.json()
    for at in range(steps + 1):
        for view in info["views"]:
            shown = answers[at, view]
            expected = (present.public_view(engine) if view == "public"
                        else engine.view(int(view)))
            assert shown["view"] == plain(expected), (at, view)
            assert shown["at"] == shown["decision"] == at and shown["steps"] == steps
            assert shown["score_sheet"] == plain(engine.score_sheet().to_json())
            assert shown["over"] == engine.over and "actions" not in shown
            assert shown["pending"]["seats"] == list(engine.decision().seats)
            assert (shown["recap"] is None) == (at == 0)
        if at < steps:
            play_logged(engine, decisions[at])
    assert engine.over
    # the steps are numbered as ``wonders position LOG --at N`` numbers them
    spec, paths, sides = head["game"], head.get("paths") or [], game_log.sides_option(head)
    for at in (0, steps // 2, steps):
        again = position.read(position.write(engine, spec, paths, sides, at))
        assert answers[at, "public"]["view"] == plain(present.public_view(again))
        assert answers[at, "0"]["view"] == plain(again.view(0))


def test_a_running_games_replay_serves_the_public_view_only() -> None:
    client, tables = make_client()
    table = played(tables, "base", seed=4, decisions=6)
    info = client.get(f"/api/tables/{table.id}/replay").json()
    assert info == {**info, "steps": 6, "over": False, "views": ["public"]}
    engine = new_game(table.source.data, 3, table.game.seed, sides="choose")
    for at in range(7):
        for seat in range(3):   # a seat's view: refused, whatever the step
            answer = client.get(f"/api/tables/{table.id}/replay/{at}?seat={seat}")
            assert answer.status_code == 403, answer.text
            assert "public view only" in answer.json()["error"]
        answer = client.get(f"/api/tables/{table.id}/replay/{at}")
        assert answer.status_code == 200
        shown = answer.json()
        assert shown["view"] == plain(present.public_view(engine)) and shown["seat"] is None
        # no seat's hidden cards: no hand, no seed
        assert not shown["view"].get("hand") and "seed" not in answer.text
        if at < 6:
            engine.play({int(s): next(a for a in engine.legal_actions(int(s))
                                      if a.to_json() == w)
                         for s, w in table.game.history[at]["actions"].items()})
    # the last step's recap and events are what a spectator of the live table is sent
    live = plain(table.state_for(None))
    assert shown["recap"] == live["recap"] and live["events"][-len(shown["events"]):] == \
        shown["events"]
    # the game goes on: a step further appears, the earlier ones are unchanged
    for seat in table.waiting_for():
        table.submit(seat, 6, table.game.legal_actions(seat)[0].to_json())
    assert client.get(f"/api/tables/{table.id}/replay/7").status_code == 200
    assert client.get(f"/api/tables/{table.id}/replay/6").json()["view"] == shown["view"]
    # neither the log nor a table from one of its steps while it is played
    assert client.get(f"/api/tables/{table.id}/log").status_code == 409
    refused = client.post(f"/api/tables/{table.id}/play-on", json={"at": 2, "seat": 0})
    assert refused.status_code == 409 and "not over" in refused.json()["error"]


REFUSED_STEPS = [
    ("/api/tables/nosuchtable/replay", 404, "no table"),
    ("/api/tables/nosuchtable/replay/0", 404, "no table"),
    ("/api/tables/{id}/replay/{past}", 404, "no step"),
    ("/api/tables/{id}/replay/-1", 400, "whole number"),
    ("/api/tables/{id}/replay/two", 400, "whole number"),
    ("/api/tables/{id}/replay/99999999999999999999", 400, "whole number"),
    ("/api/tables/{id}/replay/1?seat=3", 404, "no seat 3"),
    ("/api/tables/{id}/replay/1?seat=-1", 400, "'public' or a seat"),
    ("/api/tables/{id}/replay/1?seat=all", 400, "'public' or a seat"),
]


@pytest.fixture(scope="module")
def finished() -> tuple[TestClient, Tables, Table]:
    """One finished base game the refusal tests share (they change nothing)."""
    client, tables = make_client()
    return client, tables, played(tables, "base", seed=2)


@pytest.mark.parametrize("path,status,reason", REFUSED_STEPS)
def test_an_unknown_table_step_or_seat_is_refused_with_a_reason(
        finished: tuple[TestClient, Tables, Table], path: str, status: int, reason: str) -> None:
    client, tables, table = finished
    answer = client.get(path.format(id=table.id, past=table.decision_number + 1))
    assert answer.status_code == status, answer.text
    assert reason in answer.json()["error"]


@pytest.mark.parametrize("body,reason", [
    ({"at": "{last}", "seat": 0}, "over at step"),
    ({"at": -1, "seat": 0}, "at: a step"),
    ({"at": True, "seat": 0}, "at: a step"),
    ({"seat": 0}, "at: a step"),
    ({"at": 3, "seat": 3}, "seat: the seat you play"),
    ({"at": 3, "seat": "0"}, "seat: the seat you play"),
    ({"at": 3, "seat": 0, "bot": "human"}, "bot:"),
    ({"at": 3, "seat": 0, "players": 7}, "unknown field"),
    ([3], "a JSON object"),
])
def test_a_bad_play_on_request_is_refused_with_a_reason(
        finished: tuple[TestClient, Tables, Table], body: Any, reason: str) -> None:
    client, tables, table = finished
    if isinstance(body, dict) and body.get("at") == "{last}":
        body = {**body, "at": table.decision_number}
    before = len(tables.tables)
    answer = client.post(f"/api/tables/{table.id}/play-on", json=body)
    assert answer.status_code == 400, answer.text
    assert reason in answer.json()["error"] and len(tables.tables) == before
    assert client.post("/api/tables/nosuchtable/play-on",
                       json={"at": 1, "seat": 0}).status_code == 404
    assert client.post(f"/api/tables/{table.id}/play-on", content=b"{}").status_code == 415
    stranger = TestClient(create_app(tables), base_url="https://testserver")   # no CSRF token
    assert stranger.post(f"/api/tables/{table.id}/play-on",
                         json={"at": 1, "seat": 0}).status_code == 403


@pytest.mark.parametrize("game,at", [("base", 7), ("duel", 20), ("dice", 9),
                                     ("architects", 30)])
def test_play_on_from_here_continues_from_the_step_and_is_an_ordinary_table(
        tmp_path: Path, game: str, at: int) -> None:
    client, tables = make_client(tmp_path)
    table = played(tables, game, seed=8)
    # the seat that decides at the step (bots wait for it: nothing moves while we look)
    seat = int(max(table.game.history[at]["actions"]))
    answer = client.post(f"/api/tables/{table.id}/play-on", json={"at": at, "seat": seat})
    assert answer.status_code == 201, answer.text
    created = answer.json()
    new = tables.get(created["table"]["id"])
    assert created["table"]["decision"] == at and created["table"]["mode"] == "training"
    assert [s["link"] is not None for s in created["seats"]] == [n == seat for n in
                                                                 range(GAMES[game])]
    assert new.seats[(seat + 1) % GAMES[game]].kind == "greedy" and new.game.history == table.game.history[:at]
    for view in range(GAMES[game]):   # the position is the replay's step, in every view
        step = client.get(f"/api/tables/{table.id}/replay/{at}?seat={view}").json()
        assert plain(new.game.view(view)) == step["view"]
    # the seat's join link plays it from there
    token = created["seats"][seat]["link"].split("#token=")[1]
    with client.websocket_connect(f"/ws/{new.id}") as ws:
        ws.send_json({"type": "join", "token": token})
        assert ws.receive_json()["type"] == "welcome"
        state = ws.receive_json()
        assert state["type"] == "state" and state["decision"] == at and state["seat"] == seat
    # stored as any table: a restarted server has it at the same step
    tables.drain()
    history = list(new.game.history)
    again = Tables(tmp_path, sources()).get(new.id)
    assert again.game.history == history and again.seats[seat].token == token
    # and it plays to the end: its log (from the first decision) replays identically
    while not new.game.over:
        for s in new.waiting_for():
            if s not in new.pending:
                new.submit(s, new.decision_number, new.game.legal_actions(s)[0].to_json())
    (tmp_path / "game.jsonl").write_bytes(client.get(f"/api/tables/{new.id}/log").content)
    outcome = game_log.replay(tmp_path / "game.jsonl")
    assert outcome.identical and not outcome.unfinished


def test_bots_only_play_on_gives_no_join_link() -> None:
    client, tables = make_client()
    table = played(tables, "duel", seed=3)
    answer = client.post(f"/api/tables/{table.id}/play-on",
                         json={"at": 5, "seat": None, "bot": "random"})
    assert answer.status_code == 201, answer.text
    created = answer.json()
    assert all(s["link"] is None for s in created["seats"])
    assert created["table"]["seats"] == ["random", "random"]


def test_the_replay_page_is_served_with_the_strict_policy_and_linked() -> None:
    client, tables = make_client()
    table = played(tables, "base", seed=2)
    page = client.get(f"/replay/{table.id}?at=3&seat=1")
    assert page.status_code == 200 and "/static/replay.js" in page.text
    policy = page.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "unsafe-inline" not in policy
    assert "<script>" not in page.text and "style=" not in page.text
    script = client.get("/static/replay.js").text
    assert "setAttribute(\"style\"" not in script and ".style" not in script


def test_a_flood_of_replay_requests_is_refused_with_a_reason(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A client asking for replay steps far faster than a slider is dragged gets 429 with
    a reason once its burst is spent (never a crash), and the table is unchanged."""
    from types import SimpleNamespace

    from wonders.serve import protocol
    from wonders.serve.app import REPLAY_BURST, REPLAY_PER_SECOND

    # the buckets' clock stands still: on a loaded machine the requests are slow enough
    # for the bucket to refill between the refusal and the next request
    monkeypatch.setattr(protocol, "time", SimpleNamespace(monotonic=lambda: 1000.0))
    client, tables = make_client()
    table = played(tables, "duel", 3, decisions=5)
    before = table.game.history
    statuses = []
    for _ in range(int(REPLAY_BURST + REPLAY_PER_SECOND * 10)):
        answer = client.get(f"/api/tables/{table.id}/replay/1")
        statuses.append(answer.status_code)
        if answer.status_code == 429:
            assert "too many replay requests" in answer.json()["error"]
            break
    assert statuses[-1] == 429 and statuses.count(200) >= REPLAY_BURST, statuses[-3:]
    assert set(statuses[:-1]) == {200}
    assert client.get(f"/api/tables/{table.id}/replay").status_code == 429
    assert table.game.history == before
