"""Benchmark: the online table under load — N tables played at once over websockets.

Starts ``wonders serve`` in a subprocess (a fresh data folder, so every decision is
also written to disk as it is in use), creates ``--tables`` tables through the
HTTP API, each with ``--humans`` seats played by simulated websocket clients (each
picks a random action among those the server describes, as soon as it is asked)
and the other seats bots (``--bot``), plus one spectator client per table, and
plays every game to the end.  It reports:

* decisions per second over all tables (every decision resolved: humans' and bots'),
  and the human moves per second;
* the latency of a move: from a client sending its action to the server's answer
  (``accepted``), median and 99th percentile, over every human move.  The answer is
  sent once the action is checked, the decision resolved when it completes it, and
  the table's files durably stored (synced, renamed, the folder synced).

    python benchmarks/serve.py [--tables 50] [--game base] [--players 3] [--humans 2]
                               [--bot random] [--seed 0] [--think 0]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import connect


@dataclass
class Stats:
    accepted: list[float] = field(default_factory=list)
    refused: int = 0
    games: int = 0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


SESSION: dict[str, str] = {}


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST as the lobby does: with the visitor cookie and its CSRF token."""
    if not SESSION:
        with urllib.request.urlopen(url.rsplit("/api/", 1)[0] + "/api/session") as answer:
            SESSION["cookie"] = answer.headers["Set-Cookie"].split(";")[0]
            SESSION["csrf"] = json.load(answer)["csrf"]
    while True:
        request = urllib.request.Request(url, json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json",
                                                  "Cookie": SESSION["cookie"],
                                                  "X-CSRF-Token": SESSION["csrf"]})
        try:
            with urllib.request.urlopen(request) as answer:
                result: dict[str, Any] = json.load(answer)
                return result
        except urllib.error.HTTPError as exc:
            if exc.code != 429:
                raise
            time.sleep(0.5)


async def human(ws_url: str, token: str, rng: random.Random, stats: Stats,
                think: float) -> None:
    async with connect(ws_url, max_size=2 ** 22) as ws:
        await ws.send(json.dumps({"type": "join", "token": token}))
        sent_for = -1
        sent_at = 0.0
        async for raw in ws:
            message = json.loads(raw)
            kind = message["type"]
            if kind == "accepted":
                stats.accepted.append(time.perf_counter() - sent_at)
            elif kind == "refused":
                stats.refused += 1
            elif kind == "state":
                if message["over"]:
                    return
                actions = message.get("actions")
                if actions and message["decision"] != sent_for:
                    choice = rng.choice(actions["actions"])
                    if think:
                        await asyncio.sleep(rng.uniform(0, 2 * think))
                    sent_for = message["decision"]
                    sent_at = time.perf_counter()
                    await ws.send(json.dumps({"type": "act", "decision": sent_for,
                                              "action": choice["json"]}))


async def spectator(ws_url: str, stats: Stats) -> None:
    async with connect(ws_url, max_size=2 ** 22) as ws:
        await ws.send(json.dumps({"type": "join"}))
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] == "state" and message["over"]:
                stats.games += 1
                return


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


async def run(args: argparse.Namespace, base: str) -> tuple[Stats, float, int]:
    stats = Stats()
    rng = random.Random(args.seed)
    clients = []
    table_ids = []
    for index in range(args.tables):
        seats = ["human"] * args.humans + [args.bot] * (args.players - args.humans)
        created = post(f"{base}/api/tables", {"game": args.game, "players": args.players,
                                              "seats": seats, "sides": "random",
                                              "seed": args.seed + index,
                                              "speed": args.speed})
        table_id = created["table"]["id"]
        table_ids.append(table_id)
        ws_url = base.replace("http", "ws") + f"/ws/{table_id}"
        for seat in created["seats"]:
            if seat["link"]:
                token = seat["link"].split("#token=")[1]
                clients.append(human(ws_url, token, random.Random(rng.getrandbits(32)), stats,
                                     args.think))
        clients.append(spectator(ws_url, stats))
    start = time.perf_counter()
    await asyncio.gather(*clients)
    elapsed = time.perf_counter() - start
    decisions = 0
    with urllib.request.urlopen(f"{base}/api/tables") as answer:
        for table in json.load(answer)["tables"]:
            if table["id"] in table_ids:
                decisions += table["decision"]
    return stats, elapsed, decisions


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
    parser.add_argument("--speed", default="untimed",
                        choices=("untimed", "fast", "normal", "slow", "turn-based"),
                        help="the tables' speed (their clocks run)")
    parser.add_argument("--database", default=None,
                        help="a database URL (default: SQLite in a temporary folder)")
    args = parser.parse_args()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen(
            [sys.executable, "-m", "wonders.cli", "serve", "--port", str(port),
             "--data", data, "--game", args.game,
             *(["--database", args.database] if args.database else [])],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
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
            stats, elapsed, decisions = asyncio.run(run(args, base))
        finally:
            server.terminate()
            server.wait(10)
    moves = len(stats.accepted)
    print(f"{args.tables} tables of {args.game}, {args.players} players ({args.humans} "
          f"simulated websocket players, {args.players - args.humans} {args.bot} bots, one "
          f"spectator each, think {args.think} s): {stats.games} games finished in "
          f"{elapsed:.1f} s")
    print(f"decisions: {decisions} ({decisions / elapsed:.0f}/s); human moves: {moves} "
          f"({moves / elapsed:.0f}/s); refused: {stats.refused}")
    print(f"move latency (action sent -> accepted): median "
          f"{statistics.median(stats.accepted) * 1000:.1f} ms, p99 "
          f"{percentile(stats.accepted, 0.99) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
