"""Benchmark: the online table under load — N tables played at once over websockets,
every message checked.

Starts ``wonders serve`` in a subprocess (a fresh database, so every decision is
also committed as it is in use; its stderr kept), creates ``--tables`` tables
through the HTTP API, each with ``--humans`` seats played by simulated websocket
clients (each picks a random action among those the server describes, as soon as
it is asked, or after ``--think``) and the other seats bots (``--bot``), plus one
spectator client per table, and plays every game to the end.  It reports:

* decisions per second over all tables (every decision resolved: humans' and bots'),
  and the human moves per second;
* the latency of a move: from a client sending its action to the server's answer
  (``accepted``), median and 99th percentile, over every human move.  The answer is
  sent once the action is checked, the decision resolved when it completes it, and
  the table's changes committed to the database;
* with clocks (``--speed``), the server's lag charged to the players' clocks: what
  each human seat's clock lost over the game beyond the time its client really
  took (from receiving the state that asks it to sending its move), per move.

While it plays, it checks the server's safety, and exits 1 on any violation:

* hidden information: after the run every table's log (``/api/tables/ID/log``) is
  replayed and every state message each client received is compared with the
  engine at that decision: the view is exactly ``view(seat)`` (a spectator's the
  public view), the actions offered exactly the seat's own when it decides, the
  production, score sheet, recap and events as the engine has them for that seat;
  and no string of any message names a card the seat has not seen in its own views
  (a card in another seat's hand, a face-down card, the cards not dealt), no message
  holds a seat token or the seed;
* refusals: a share (``--bad``) of the humans' turns first sends a forged, stale or
  malformed message (odd Unicode — lone surrogates, NULs, right-to-left marks —,
  overlong text, wrong types, unknown fields, another seat, a binary frame …) and
  checks the documented refusal comes back, the socket stays open, and until its
  real move the seat is still asked (not marked as having chosen); after the run
  every human seat's moves in the log are exactly the moves it was told were
  accepted: a refused message changed nothing.  Spectators send actions too
  (refused), and bad HTTP requests (odd Unicode, wrong types, no CSRF token, too
  large, not JSON, forged ids) must get their 4xx with a JSON reason, never a 500;
* time-outs and hang-ups: connections that send half a request's headers, half a
  body, or open a websocket and never join must be closed (the body answered 408)
  within the server's limits; some humans drop their connection mid-game (no close
  frame) and come back with their link; clients hang up mid-request;
* the server's stderr after the run: no traceback, no error line.

    python benchmarks/serve.py [--tables 50] [--game base] [--players 3] [--humans 2]
                               [--bot random] [--seed 0] [--think 0] [--speed fast]
                               [--bad 0.1] [--drop 0.1] [--database URL]
                               [--profile benchmarks/serve_sampler.py]
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import zlib
from dataclasses import dataclass, field
from typing import Any, Callable

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

REQUEST_TIMEOUT = 3.0   # the server's --request-timeout in this run
JOIN_SECONDS = 30.0   # the server's (wonders.serve.app.JOIN_SECONDS)
STATE_KEYS = {"type", "table", "decision", "seat", "view", "pending", "production", "symbols",
              "recap", "events", "over", "score_sheet", "clocks", "actions", "chosen"}
TOKEN_RUN = re.compile(r"[A-Za-z0-9_-]{20,}")
SUMMARY_KEYS = {"id", "game", "title", "players", "seats", "names", "mode", "speed", "away",
                "sides", "hints", "over", "decision", "failed"}


@dataclass
class Stats:
    accepted: list[float] = field(default_factory=list)
    refused: int = 0
    games: int = 0
    bad_sent: int = 0
    bad_http: int = 0
    drops: int = 0
    lag: list[float] = field(default_factory=list)   # per move: clock lost beyond own time
    closed_after: dict[str, float] = field(default_factory=dict)   # probe -> seconds
    timed_out_humans: int = 0
    violations: list[str] = field(default_factory=list)
    # (table, seat or None) -> every message received, compressed
    received: dict[tuple[str, int | None], list[bytes]] = field(default_factory=dict)
    # (table, seat) -> {decision: action json} the server said it accepted
    moves: dict[tuple[str, int], dict[int, Any]] = field(default_factory=dict)

    def violation(self, text: str) -> None:
        if len(self.violations) < 1000:
            self.violations.append(text)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


SESSION: dict[str, str] = {}


def session(base: str) -> None:
    if not SESSION:
        with urllib.request.urlopen(base + "/api/session") as answer:
            SESSION["cookie"] = answer.headers["Set-Cookie"].split(";")[0]
            SESSION["csrf"] = json.load(answer)["csrf"]


def post(url: str, body: dict[str, Any], source: str = "127.0.0.1") -> dict[str, Any]:
    """POST as the lobby does: with the visitor cookie and its CSRF token, from the
    loopback address ``source`` (the server limits how many tables one address creates:
    the lobbies of several players)."""
    session(url.rsplit("/api/", 1)[0])
    where = urllib.parse.urlsplit(url)
    while True:
        connection = http.client.HTTPConnection(where.hostname or "", where.port,
                                                timeout=60, source_address=(source, 0))
        try:
            connection.request("POST", where.path, json.dumps(body).encode(),
                               {"Content-Type": "application/json",
                                "Cookie": SESSION["cookie"], "X-CSRF-Token": SESSION["csrf"]})
            answer = connection.getresponse()
            text = answer.read()
        finally:
            connection.close()
        if answer.status == 429:
            time.sleep(0.5)
            continue
        if answer.status != 201:
            raise SystemExit(f"creating a table: {answer.status} {text[:200]!r}")
        result: dict[str, Any] = json.loads(text)
        return result


# --- bad websocket messages: (the text or bytes sent, what the refusal must say) ------------

Bad = Callable[[int, dict[str, Any], int], tuple[str | bytes, str]]


def _act(decision: Any, action: Any, **extra: Any) -> str:
    return json.dumps({"type": "act", "decision": decision, "action": action, **extra})


BAD_MESSAGES: list[tuple[str, Bad]] = [
    ("not JSON", lambda n, a, s: ("{not json", "not a JSON message")),
    ("not an object", lambda n, a, s: ("[1, 2]", "a message is a JSON object")),
    ("unknown type", lambda n, a, s: ('{"type": "dance"}', "unknown message type")),
    ("a right-to-left mark in the type",
     lambda n, a, s: (json.dumps({"type": "act\u202e"}), "unknown message type")),
    ("an unknown field", lambda n, a, s: (_act(n, a, evil=1), "unknown field(s) in 'act'")),
    ("a stale decision", lambda n, a, s: (_act(n - 1, a), "is not the open one")),
    ("a future decision", lambda n, a, s: (_act(n + 1, a), "is not the open one")),
    ("a huge decision", lambda n, a, s: (_act(10 ** 300, a), "is not the open one")),
    ("the decision as text", lambda n, a, s: (_act(str(n), a), "'decision' must be")),
    ("the decision as true", lambda n, a, s: (_act(True, a), "'decision' must be")),
    ("the decision as NaN", lambda n, a, s: (_act(n, a).replace(f'"decision": {n}',
                                                                '"decision": NaN'),
                                             "'decision' must be")),
    ("the decision as a float", lambda n, a, s: (_act(n + 0.5, a), "'decision' must be")),
    ("no decision", lambda n, a, s: (json.dumps({"type": "act", "action": a}),
                                     "'decision' must be")),
    ("the action as a list", lambda n, a, s: (_act(n, [a]), "'action' is an action object")),
    ("the action as text", lambda n, a, s: (_act(n, "build"), "'action' is an action object")),
    ("a forged action", lambda n, a, s: (_act(n, {**a, "card": "\u202eNo such card"}),
                                         "not a legal action of seat")),
    ("a NUL in the action", lambda n, a, s: (_act(n, {**a, "x": "a\x00b"}),
                                             "not a legal action of seat")),
    ("an empty action", lambda n, a, s: (_act(n, {}), "not a legal action of seat")),
    ("a lone surrogate in a value",
     lambda n, a, s: (_act(n, a)[:-1] + ', "card": "\\ud800"}', "not valid Unicode")),
    ("a lone surrogate in a key",
     lambda n, a, s: (_act(n, {"\\udfff": 1}).replace("\\\\udfff", "\\udfff"),
                      "not valid Unicode")),
    ("overlong text", lambda n, a, s: (_act(n, {**a, "pad": "\u05d0" * 5000}),
                                       "message too large")),
    ("deep nesting", lambda n, a, s: (_act(n, {"a": [[[[[[[1]]]]]]]}), "nest more than")),
    ("another seat", lambda n, a, s: (_act(n, a, seat=s + 1), "this connection plays seat")),
    ("the seat as text", lambda n, a, s: (_act(n, a, seat=str(s)), "this connection plays seat")),
    ("a binary frame", lambda n, a, s: (_act(n, a).encode(), "send text messages")),
    ("a second join", lambda n, a, s: ('{"type": "join"}', "joined already")),
    ("a hint at a table without hints",
     lambda n, a, s: ('{"type": "hint"}', "created without hints")),
    ("back from a seat no bot plays", lambda n, a, s: ('{"type": "back"}', "yours already")),
    ("hand over itself", lambda n, a, s: (json.dumps({"type": "hand_over", "target": s}),
                                          "cannot hand your own seat")),
    ("hand over a seat as text", lambda n, a, s: ('{"type": "hand_over", "target": "0"}',
                                                  "'target' is a seat number")),
    ("hand over seat -1", lambda n, a, s: ('{"type": "hand_over", "target": -1}',
                                           "'target' is a seat number")),
    ("a join token as a number", lambda n, a, s: ('{"type": "join", "token": 5}',
                                                  "'token' is the text")),
]


def pack(raw: str | bytes) -> bytes:
    return zlib.compress(raw.encode() if isinstance(raw, str) else raw, 1)


class Human:
    """A simulated player: one seat's join link, played to the end over a websocket
    (coming back with its link after a dropped connection)."""

    def __init__(self, ws_url: str, table: str, seat: int, token: str, rng: random.Random,
                 stats: Stats, args: argparse.Namespace) -> None:
        self.ws_url, self.table, self.seat, self.token = ws_url, table, seat, token
        self.rng, self.stats, self.args = rng, stats, args
        self.log = stats.received.setdefault((table, seat), [])
        self.moves = stats.moves.setdefault((table, seat), {})
        self.own_time = 0.0   # seconds between being asked and answering, over the game
        self.decided: set[int] = set()   # decisions this seat took part in
        self.final_left: float | None = None
        self.speed = args.speed
        self.away = False   # the stand-in bot played this seat for a while
        self.asked_at: dict[int, float] = {}   # decision -> when first asked (any connection)

    async def play(self) -> None:
        while not await self._connection():
            self.stats.drops += 1
        if self.speed in ("fast", "normal", "slow") and self.final_left is not None and \
                self.moves:
            from wonders.serve.clocks import SPEEDS
            bank, increment = SPEEDS[self.speed]
            charged = bank + increment * len(self.decided) - self.final_left
            self.stats.lag.append(max(0.0, charged - self.own_time) / len(self.moves))

    async def _connection(self) -> bool:
        """One connection; True once the game is over, False when this client dropped
        it on purpose (it comes back)."""
        stats, seat = self.stats, self.seat
        drop_after = self.rng.randrange(5, 40) if self.rng.random() < self.args.drop else None
        async with connect(self.ws_url, max_size=2 ** 22) as ws:
            await ws.send(json.dumps({"type": "join", "token": self.token}))
            answers: list[tuple[str, str, float, Any]] = []   # what each message expects
            sent_for = -1
            bad_for = -1
            received = 0
            over = False
            last: dict[str, Any] | None = None
            try:
                async for raw in ws:
                    received += 1
                    self.log.append(pack(raw))
                    message = json.loads(raw)
                    kind = message["type"]
                    if kind in ("accepted", "refused", "pong"):
                        if not answers:
                            stats.violation(f"{self.table}/{seat}: an answer nobody asked "
                                            f"for: {str(raw)[:200]}")
                            continue
                        expected, reason, sent_at, payload = answers.pop(0)
                        if kind != expected or (reason and reason not in message.get(
                                "reason", "")):
                            stats.violation(f"{self.table}/{seat}: sent {payload!r:.120}, "
                                            f"expected {expected} ({reason}), got "
                                            f"{str(raw)[:200]}")
                        if kind == "accepted":
                            stats.accepted.append(time.perf_counter() - sent_at)
                            self.moves[int(message["decision"])] = message["action"]
                        elif kind == "refused":
                            stats.refused += 1
                    elif kind == "state":
                        last = message
                        number = message["decision"]
                        if seat in message["pending"]["seats"]:
                            self.decided.add(number)
                        if seat in message["table"]["away"]:
                            if not self.away:
                                stats.timed_out_humans += 1
                            self.away = True
                            self.speed = "away"   # the clock's arithmetic no longer holds
                        if message["over"]:
                            left = (message.get("clocks") or {}).get("left")
                            self.final_left = left[seat] if left else None
                            over = True
                        actions = message.get("actions")
                        if number == bad_for and sent_for != number and (
                                seat in message["pending"]["chosen"] or not actions):
                            stats.violation(f"{self.table}/{seat}: after a refused message "
                                            f"the seat is marked as having chosen for "
                                            f"decision {number}")
                        if actions and number != sent_for:
                            self.asked_at.setdefault(number, time.perf_counter())
                            choice = self.rng.choice(actions["actions"])["json"]
                            if number != bad_for and self.rng.random() < self.args.bad:
                                bad_for = number
                                name, make = self.rng.choice(BAD_MESSAGES)
                                text, reason = make(number, choice, seat)
                                stats.bad_sent += 1
                                answers.append(("refused", reason, 0.0, name))
                                await ws.send(text)
                                continue   # the real move once the refusal is in
                            if self.args.think:
                                await asyncio.sleep(self.rng.uniform(0, 2 * self.args.think))
                            sent_for = number
                            answers.append(("accepted", "", time.perf_counter(), choice))
                            self.own_time += time.perf_counter() - self.asked_at[number]
                            await ws.send(json.dumps({"type": "act", "decision": number,
                                                      "action": choice}))
                    if kind == "refused" and last is not None and last.get("actions") and \
                            last["decision"] == bad_for and sent_for != bad_for:
                        # the refusal is in: now the real move (the state is still the last)
                        number = bad_for
                        choice = self.rng.choice(last["actions"]["actions"])["json"]
                        sent_for = number
                        answers.append(("accepted", "", time.perf_counter(), choice))
                        self.own_time += time.perf_counter() - self.asked_at[number]
                        await ws.send(json.dumps({"type": "act", "decision": number,
                                                  "action": choice}))
                    if over and not answers:   # the last move's answer may follow
                        return True
                    if drop_after is not None and received >= drop_after and not answers:
                        ws.transport.abort()   # no close frame: the network gone
                        return False
            except ConnectionClosed:
                if drop_after is not None and received >= drop_after:
                    return False
                raise
        stats.violation(f"{self.table}/{seat}: the server closed the socket before the "
                        "game ended")
        return True


async def spectator(ws_url: str, table: str, stats: Stats, rng: random.Random,
                    bad: float) -> None:
    log = stats.received.setdefault((table, None), [])
    async with connect(ws_url, max_size=2 ** 22) as ws:
        await ws.send(json.dumps({"type": "join"}))
        waiting = 0
        over = False
        async for raw in ws:
            log.append(pack(raw))
            message = json.loads(raw)
            if message["type"] == "refused":
                waiting -= 1
                stats.refused += 1
                if "spectators cannot act" not in message["reason"]:
                    stats.violation(f"{table}/spectator: {raw[:200]!r}")
            if message["type"] == "state" and message["over"]:
                over = True
                stats.games += 1
            if over:
                if not waiting:   # the last refusals may come after the final state
                    return
                continue
            if message["type"] == "state":
                if rng.random() < bad:
                    waiting += 1
                    stats.bad_sent += 1
                    await ws.send(_act(message["decision"], {"action": "build"}))
    stats.violation(f"{table}/spectator: the socket closed before the game ended")


# --- HTTP: bad requests, half-sent requests, hang-ups --------------------------------------

def raw_http(port: int, data: bytes, timeout: float = 10.0) -> bytes:
    """Send ``data`` and read the answer until the server closes the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(data)
        found = b""
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return found
            found += chunk


def bad_http(base: str, port: int, table_id: str, stats: Stats) -> None:
    """Bad requests, each with its 4xx and a JSON reason; never a 500."""
    session(base)
    good = {"Content-Type": "application/json", "Cookie": SESSION["cookie"],
            "X-CSRF-Token": SESSION["csrf"]}
    cases: list[tuple[str, str, bytes | None, dict[str, str], tuple[int, ...], str]] = [
        ("POST", "/api/tables", b'{"game": "\\ud800"}', good, (400, 429), "not valid Unicode"),
        ("POST", "/api/tables", b'{"\\udc00": 1}', good, (400, 429), "not valid Unicode"),
        ("POST", "/api/tables", json.dumps({"game": "base", "players": "3"}).encode(), good,
         (400, 429), "players"),
        ("POST", "/api/tables", json.dumps({"game": "base\x00", "players": 3}).encode(), good,
         (400, 429), "not offered"),
        ("POST", "/api/tables", json.dumps({"game": "\u202ebase"}).encode(), good, (400, 429),
         "not offered"),
        ("POST", "/api/tables", json.dumps({"game": "base", "players": 3,
                                            "seats": "human"}).encode(), good, (400, 429),
         "seats"),
        ("POST", "/api/tables", json.dumps({"game": "base", "players": 3, "seats": [
            "human"] * 3, "seed": -1}).encode(), good, (400, 429), "seed"),
        ("POST", "/api/tables", json.dumps([1, 2]).encode(), good, (400, 429), "JSON object"),
        ("POST", "/api/tables", b"{nope", good, (400, 429), "not JSON"),
        ("POST", "/api/tables", b"{}", {**good, "X-CSRF-Token": "forged"}, (403, 429), "CSRF"),
        ("POST", "/api/tables", b"{}", {**good, "Content-Type": "text/plain"}, (415, 429),
         "application/json"),
        ("POST", "/api/tables", b" " * 5000, good, (413, 429), "too large"),
        ("POST", "/api/signin", json.dumps({"name": "\u202e\x00", "password": 5}).encode(),
         good, (400, 401, 429), ""),
        ("POST", "/api/signin", json.dumps({"name": "a\x00", "password": "12345678"}).encode(),
         good, (401, 429), "wrong name or password"),
        ("POST", "/api/signup", json.dumps({"name": ["x"], "password": "p"}).encode(), good,
         (400, 429), ""),
        ("GET", "/api/tables/%27%20OR%201%3D1/log", None, {}, (404,), "no table"),
        ("GET", "/api/tables/" + "x" * 5000 + "/log", None, {}, (404,), "no table"),
        ("GET", "/api/tables/%ED%A0%80/log", None, {}, (404,), "no table"),
        ("GET", f"/api/tables/{table_id}/log", None, {}, (409,), "not over"),
        ("GET", "/api/players/%00%E2%80%AE", None, {}, (404,), "no player"),
        ("GET", "/api/leaderboard?game=%ED%A0%80", None, {}, (404,), "no game"),
    ]
    for method, path, body, headers, statuses, reason in cases:
        stats.bad_http += 1
        request = urllib.request.Request(base + path, body, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                status, text = answer.status, answer.read()
        except urllib.error.HTTPError as exc:
            status, text = exc.code, exc.read()
        except OSError as exc:
            stats.violation(f"{method} {path[:60]}: no answer ({exc})")
            continue
        try:
            error = json.loads(text).get("error", "")
        except ValueError:
            error = None
        if status not in statuses or error is None or (status != 429 and reason not in error):
            stats.violation(f"{method} {path[:60]} {body[:60] if body else ''!r}: expected "
                            f"{statuses} '{reason}', got {status} {text[:200]!r}")


def never_complete(port: int, table_id: str, stats: Stats) -> None:
    """Half-sent headers (a page, a websocket handshake) and a half-sent body: each closed
    within the request timeout (the body answered 408); a client that hangs up
    mid-request (one log line on the server)."""
    probes = [
        ("half headers", b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n", b""),
        ("half a websocket handshake",
         f"GET /ws/{table_id} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n".encode(),
         b""),
        ("half a body", f"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
         f"application/json\r\nCookie: {SESSION['cookie']}\r\nX-CSRF-Token: "
         f"{SESSION['csrf']}\r\nContent-Length: 100\r\n\r\n{{\"game\"".encode(), b" 408 "),
    ]
    for name, data, wanted in probes:
        start = time.perf_counter()
        try:
            answer = raw_http(port, data, timeout=60)   # late under load, never never
        except OSError as exc:
            stats.violation(f"{name}: not closed by the server ({exc})")
            continue
        took = time.perf_counter() - start
        stats.closed_after[name] = took
        if wanted and wanted not in answer[:20]:
            stats.violation(f"{name}: closed after {took:.1f} s, answer {answer[:80]!r}")
    # hang up mid-request: headers and half a body, then gone
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(probes[2][1])


async def never_join(ws_url: str, stats: Stats) -> None:
    """A websocket opened and never joined is closed after JOIN_SECONDS."""
    start = time.perf_counter()
    try:
        async with connect(ws_url) as ws:
            async for _ in ws:
                pass
    except ConnectionClosed:
        pass
    took = time.perf_counter() - start
    stats.closed_after["a socket never joined"] = took
    if not JOIN_SECONDS - 1 <= took <= JOIN_SECONDS + 30:
        stats.violation(f"a socket that never joined was closed after {took:.1f} s")


async def forged_join(ws_url: str, stats: Stats) -> None:
    """A forged token is refused and the socket stays open (it can still watch)."""
    async with connect(ws_url) as ws:
        await ws.send(json.dumps({"type": "join", "token": "forged\u202e\x00"}))
        answer = json.loads(await ws.recv())
        if answer.get("type") != "refused" or "no seat of this table" not in answer["reason"]:
            stats.violation(f"a forged token got {answer}")
        await ws.send('{"type": "ping"}')
        if json.loads(await ws.recv()).get("type") != "pong":
            stats.violation("after a forged token the socket no longer answers")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


async def run(args: argparse.Namespace, base: str, port: int, stats: Stats
              ) -> tuple[float, int, dict[str, str], list[str], set[tuple[str, int]]]:
    rng = random.Random(args.seed)
    clients = []
    humans: list[Human] = []
    table_ids = []
    tokens: list[str] = []
    for index in range(args.tables):
        seats = ["human"] * args.humans + [args.bot] * (args.players - args.humans)
        created = post(f"{base}/api/tables", {"game": args.game, "players": args.players,
                                              "seats": seats, "sides": "random",
                                              "seed": args.seed + index,
                                              "speed": args.speed},
                       f"127.0.0.{2 + index // 50}")   # 50 tables an address, at once
        table_id = created["table"]["id"]
        table_ids.append(table_id)
        ws_url = base.replace("http", "ws") + f"/ws/{table_id}"
        for seat in created["seats"]:
            if seat["link"]:
                token = seat["link"].split("#token=")[1]
                tokens.append(token)
                humans.append(Human(ws_url, table_id, seat["seat"], token,
                                    random.Random(rng.getrandbits(32)), stats, args))
                clients.append(humans[-1].play())
        clients.append(spectator(ws_url, table_id, stats, random.Random(rng.getrandbits(32)),
                                 args.bad))
    ws_first = base.replace("http", "ws") + f"/ws/{table_ids[0]}"
    probes = [*([never_join(ws_first, stats)] if args.join_probe else []),
              forged_join(ws_first, stats),
              asyncio.to_thread(bad_http, base, port, table_ids[0], stats),
              asyncio.to_thread(never_complete, port, table_ids[0], stats)]
    start = time.perf_counter()
    probing = asyncio.gather(*probes, return_exceptions=True)
    results = await asyncio.gather(*clients, return_exceptions=True)
    elapsed = time.perf_counter() - start   # the games; the probes may take longer
    results.extend(await probing)
    for result in results:
        if isinstance(result, BaseException):
            stats.violation(f"a client failed: {type(result).__name__}: {result}")
    logs = {}
    for table_id in table_ids:
        try:
            with urllib.request.urlopen(f"{base}/api/tables/{table_id}/log") as answer:
                logs[table_id] = answer.read().decode()
        except urllib.error.HTTPError as exc:
            stats.violation(f"{table_id}: no log ({exc.code})")
    away = {(h.table, h.seat) for h in humans if h.away}
    # from the logs: the lobby's list keeps only the most recent finished tables
    decisions = sum(text.count('"type":"decision"') for text in logs.values())
    return elapsed, decisions, logs, tokens, away


# --- after the run: every message against the engine ---------------------------------------

def strings(value: Any, found: set[str]) -> set[str]:
    if isinstance(value, str):
        found.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            found.add(key)
            strings(item, found)
    elif isinstance(value, list):
        for item in value:
            strings(item, found)
    return found


def check_messages(stats: Stats, logs: dict[str, str], tokens: list[str],
                   away: set[tuple[str, int]]) -> int:
    """Every message every client received against the replayed engine; how many."""
    games: dict[str, Any] = {}
    checked = 0
    for table_id, text in logs.items():
        try:
            checked += check_table(table_id, text, stats, games, tokens, away)
        except Exception as exc:   # a check that cannot run is a violation, not a pass
            stats.violation(f"{table_id}: the check failed: {type(exc).__name__}: {exc}")
    return checked


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


def check_table(table_id: str, log_text: str, stats: Stats, games: dict[str, Any],
                tokens: list[str], away: set[tuple[str, int]]) -> int:
    """Replay one table's log and compare every message its clients received with the
    engine at the message's decision; the number of messages checked."""
    from wonders import recap
    from wonders.engine.registry import new_game
    from wonders.serve import present
    from wonders.serve.tables import RECAPS_KEPT, find_action, load_source

    records = [json.loads(line) for line in log_text.splitlines() if line.strip()]
    head = records[0]
    source = games.get(head["game"])
    if source is None:
        source = games[head["game"]] = load_source(head["game"])
    options = {} if head.get("sides") is None else {"sides": head["sides"]}
    game = new_game(source.data, int(head["players"]), int(head["seed"]), **options)
    logged = [r for r in records if r["type"] == "decision"]
    names = {card.name for card in source.data.cards}
    clients = [s for (t, s) in stats.received if t == table_id]
    by_decision: dict[int | None, dict[int, list[dict[str, Any]]]] = {}
    checked = 0
    for seat in clients:
        for blob in stats.received[(table_id, seat)]:
            raw = zlib.decompress(blob).decode("utf-8", "replace")
            checked += 1
            # a token is 24 characters of the URL-safe alphabet: look only at such runs
            leaked = [t for run in TOKEN_RUN.findall(raw) for t in tokens if t in run]
            if leaked:
                stats.violation(f"{table_id}/{seat}: a message holds a seat token")
            message = json.loads(raw)
            if message["type"] == "welcome":
                if message["seat"] != seat or set(message["table"]) != SUMMARY_KEYS:
                    stats.violation(f"{table_id}/{seat}: welcome {raw[:200]}")
            if message["type"] == "state":
                by_decision.setdefault(seat, {}).setdefault(message["decision"], []).append(
                    message)
    for seat in clients:
        if seat is None or (table_id, seat) in away:
            continue
        mine = {n: r["actions"][str(seat)] for n, r in enumerate(logged)
                if str(seat) in (r.get("actions") or {})}
        told = stats.moves.get((table_id, seat), {})
        if mine != told:
            wrong = sorted(n for n in set(mine) | set(told) if mine.get(n) != told.get(n))
            stats.violation(f"{table_id}/{seat}: the log's moves are not the moves accepted "
                            f"at decision(s) {wrong[:5]}: log {mine.get(wrong[0])}, "
                            f"accepted {told.get(wrong[0])}")
    recaps: list[dict[str, Any]] = []
    seen: dict[int | None, set[str]] = {seat: set() for seat in clients}
    for number in range(len(logged) + 1):
        views = {seat: game.view(seat) if seat is not None else present.public_view(game)
                 for seat in clients}
        decision = game.decision()
        common = _plain({"production": [present.production(game, s)
                                        for s in range(game.players)],
                         "symbols": [present.symbols(game, s) for s in range(game.players)],
                         "score_sheet": game.score_sheet().to_json(), "over": game.over,
                         "kind": decision.kind, "wording": decision.wording,
                         "seats": list(decision.seats)})
        for seat in clients:
            seen[seat] |= strings(views[seat], set())
            hidden = names - seen[seat]
            # seen names masked first: a card named inside a longer seen name is not named
            known = re.compile("|".join(map(re.escape, sorted(names & seen[seat], key=len,
                                                              reverse=True))) or "^$")
            unseen = re.compile(r"\b(" + "|".join(map(re.escape, sorted(hidden))) + r")\b"
                                if hidden else "^$")
            view = _plain(views[seat])
            shown = _plain(recap.for_seat(recaps[-1], seat)) if recaps else None
            events: list[str] = []
            for one in recaps[-RECAPS_KEPT:]:
                events.extend(recap.lines(recap.for_seat(one, seat)))
            events = _plain(events[-40:])
            offered = None
            for message in by_decision.get(seat, {}).get(number, []):
                where = f"{table_id}/{seat}, decision {number}"
                problems = []
                if not set(message) <= STATE_KEYS or set(message["table"]) != SUMMARY_KEYS:
                    problems.append("unknown keys")
                if message["table"].get("failed"):   # (a bot move the server failed to play)
                    problems.append(f"the table stopped: {message['table']['failed']}")
                if message["view"] != view:
                    problems.append("the view is not the engine's view of the seat")
                pending = message["pending"]
                for key in ("kind", "wording", "seats"):
                    if pending[key] != common[key]:
                        problems.append(f"pending {key}")
                for key in ("production", "symbols", "score_sheet", "over"):
                    if message[key] != common[key]:
                        problems.append(key)
                if message["recap"] != shown or message["events"] != events:
                    problems.append("the recap or events differ from the engine's for the seat")
                deciding = (seat is not None and seat in decision.seats and not game.over
                            and seat not in pending["chosen"])
                if ("actions" in message) != deciding:
                    problems.append("actions offered to a seat that does not decide, or "
                                    "not offered")
                elif deciding and seat is not None:
                    if offered is None:
                        offered = _plain(present.actions_for(game, seat))
                    if message["actions"] != offered:
                        problems.append("the actions are not the seat's legal actions")
                if ("chosen" in message) != (seat is not None and seat in pending["chosen"]):
                    problems.append("'chosen' of another seat")
                found = strings(message, set()) & hidden
                recapped = message.get("recap") or {}
                text = "\n".join([*map(str, message.get("events") or []),
                                  *(str(m.get("text")) for m in recapped.get("moves", [])),
                                  *map(str, recapped.get("battles") or []),
                                  str(message.get("chosen", ""))])
                if hidden:
                    found |= set(unseen.findall(known.sub("#", text)))
                if found:
                    fields = [k for k in message if strings(message[k], set()) & found
                              or any(n in json.dumps(message[k]) for n in found)]
                    problems.append(f"names cards the seat never saw: {sorted(found)[:5]} "
                                    f"(in {', '.join(fields)})")
                if problems:
                    stats.violation(f"{where}: " + "; ".join(problems))
        if number == len(logged):
            break
        record = logged[number]
        actions = {}
        for seat_text, wanted in (record.get("actions") or {}).items():
            action = find_action(game, int(seat_text), wanted)
            if action is None:
                stats.violation(f"{table_id}: decision {number} does not replay")
                return checked
            actions[int(seat_text)] = action
        was = recap.before(game, present.public_view(game))
        game.play(actions)
        recaps.append(recap.make(game, was, actions, present.public_view(game), number,
                                 describe=lambda a: present.action_text(game, a)))
    for seat in clients:
        late = [n for n in by_decision.get(seat, {}) if n > len(logged)]
        if late:
            stats.violation(f"{table_id}/{seat}: states of decisions the log does not have")
    return checked


def report_server_log(stderr: str, stats: Stats) -> None:
    """No traceback, no error in the server's log."""
    if "Traceback" in stderr:
        first = stderr.index("Traceback")
        stats.violation(f"the server's stderr holds {stderr.count('Traceback')} "
                        f"traceback(s); the first: {stderr[first:first + 1500]}")
    errors = [line for line in stderr.splitlines() if line.startswith("ERROR")]
    if errors:
        stats.violation(f"the server logged {len(errors)} error(s): {errors[:3]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--game", default="base")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--humans", type=int, default=2)
    parser.add_argument("--bot", default="random", choices=("random", "greedy", "mcts"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds a simulated player thinks before each move "
                        "(uniform in 0..2x; 0: at once, the server saturated)")
    parser.add_argument("--speed", default="fast",
                        choices=("untimed", "fast", "normal", "slow", "turn-based"),
                        help="the tables' speed (their clocks run)")
    parser.add_argument("--bad", type=float, default=0.1,
                        help="share of turns a client first sends a bad message")
    parser.add_argument("--drop", type=float, default=0.1,
                        help="share of connections a human client drops mid-game")
    parser.add_argument("--database", default=None,
                        help="a database URL (default: SQLite in a temporary folder)")
    parser.add_argument("--no-join-probe", dest="join_probe", action="store_false",
                        help="skip the socket that never joins (it takes the server's "
                        f"{JOIN_SECONDS:.0f} s to be closed)")
    parser.add_argument("--profile", default=None,
                        help="a script to run the server with instead of -m wonders.cli "
                        "(a profiler's)")
    args = parser.parse_args()
    raise SystemExit(benchmark(args))


def benchmark(args: argparse.Namespace) -> int:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as data:
        errors = open(os.path.join(data, "stderr.txt"), "w+b")
        server = subprocess.Popen(
            [sys.executable, *([args.profile] if args.profile else ["-m", "wonders.cli"]),
             "serve", "--port", str(port),
             "--data", data, "--game", args.game, "--request-timeout", str(REQUEST_TIMEOUT),
             *(["--database", args.database] if args.database else [])],
            stdout=subprocess.DEVNULL, stderr=errors,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            deadline = time.time() + 60
            while True:
                try:
                    urllib.request.urlopen(f"{base}/api/games").close()
                    break
                except OSError:
                    if time.time() > deadline or server.poll() is not None:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.2)
            stats = Stats()
            elapsed, decisions, logs, tokens, away = asyncio.run(run(args, base, port, stats))
        finally:
            server.terminate()
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(10)
                stats.violation("the server did not stop within 30 s of SIGTERM")
        errors.seek(0)
        stderr = errors.read().decode("utf-8", "replace")
        errors.close()
    moves = len(stats.accepted)
    print(f"{args.tables} tables of {args.game}, {args.players} players ({args.humans} "
          f"simulated websocket players, {args.players - args.humans} {args.bot} bots, one "
          f"spectator each, think {args.think} s, speed {args.speed}, "
          f"{args.database and 'PostgreSQL' or 'SQLite'}): {stats.games} games finished in "
          f"{elapsed:.1f} s")
    print(f"decisions: {decisions} ({decisions / elapsed:.0f}/s); human moves: {moves} "
          f"({moves / elapsed:.0f}/s)")
    if stats.accepted:
        print(f"move latency (action sent -> accepted): median "
              f"{statistics.median(stats.accepted) * 1000:.1f} ms, p99 "
              f"{percentile(stats.accepted, 0.99) * 1000:.1f} ms")
    if stats.lag:
        print(f"clock lag (a seat's clock lost beyond its client's own time, per move): "
              f"median {statistics.median(stats.lag) * 1000:.0f} ms, max "
              f"{max(stats.lag) * 1000:.0f} ms; humans out of time: {stats.timed_out_humans}")
    print(f"never completed, closed after (limit {REQUEST_TIMEOUT:.0f} s; joining "
          f"{JOIN_SECONDS:.0f} s): " + ", ".join(f"{name} {took:.1f} s" for name, took in
                                               stats.closed_after.items()))
    sys.stdout.flush()   # the figures first: the checks take a while
    checked = check_messages(stats, logs, tokens, away)
    report_server_log(stderr, stats)
    print(f"checked: {checked} messages against the engine; bad messages sent "
          f"{stats.bad_sent} (refused {stats.refused}), bad HTTP requests {stats.bad_http}, "
          f"connections dropped and rejoined {stats.drops}; server stderr: "
          f"{stderr.count('Traceback')} tracebacks, {len(stderr.splitlines())} lines")
    print(f"violations: {len(stats.violations)}")
    for line in stats.violations[:30]:
        print("  " + line)
    return 1 if stats.violations else 0


if __name__ == "__main__":
    main()
