"""The web server: a Starlette app serving the page, a small JSON API and the websockets.

Routes:

* ``GET /`` the lobby (create a table, list the tables), ``GET /table/{id}`` the table
  page (a seat's join link is ``/table/{id}#token=…``: the token stays in the
  fragment, which browsers never send in a request line, and travels only in the
  websocket's join message);
* ``GET /api/games``, ``GET /api/tables``, ``POST /api/tables`` (create; the answer
  holds every seat's join link and the spectators' link);
* ``WS /ws/{id}`` the live table (:mod:`.protocol`).

Every change to a table happens in the event loop; bots choose in a thread pool
(:meth:`.tables.Tables.bot_jobs`), the search bot within its time limit, and a
bot whose choice is late or fails is replaced by the first legal action, so a
table never waits on a bot forever.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path
from typing import Any, AsyncIterator

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from wonders.engine.actions import Action
from wonders.bots import Bot
from wonders.engine.contract import AnyAction, GameState
from wonders.serve import present
from wonders.serve.protocol import MAX_MESSAGE_BYTES, ProtocolError, RateLimit, parse
from wonders.serve.tables import Table, TableError, Tables

LOGGER = logging.getLogger("wonders.serve")
MAX_BODY_BYTES = 4096
MAX_CONNECTIONS_PER_TABLE = 64
JOIN_SECONDS = 30.0   # how long a connection may stay without joining
MAX_FLOODED = 100   # messages over the rate limit before the connection is closed
BOT_GRACE_SECONDS = 5.0
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; connect-src 'self' ws: wss:; "
                               "img-src 'self' data:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def static_dir() -> Path:
    return Path(str(resources.files("wonders.serve").joinpath("static")))


class Server:
    """The tables, the bot workers and the open connections of one server."""

    def __init__(self, tables: Tables, workers: int = 2) -> None:
        self.tables = tables
        self.workers = workers
        self.executor: ThreadPoolExecutor | None = None
        self.create_limits: dict[str, RateLimit] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    # --- bots -----------------------------------------------------------------------

    def schedule(self, table: Table) -> None:
        """Start the bot moves the table's open decision needs."""
        for seat, number, clone, bot in self.tables.bot_jobs(table):
            task = asyncio.get_running_loop().create_task(
                self._bot_move(table, seat, number, clone, bot))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _bot_move(self, table: Table, seat: int, number: int, clone: GameState,
                        bot: Bot) -> None:
        wanted: Any = None
        limit = self.tables.search_seconds + BOT_GRACE_SECONDS
        try:
            loop = asyncio.get_running_loop()
            future = loop.run_in_executor(self.executor, bot.choose, clone, seat)
            action: AnyAction = await asyncio.wait_for(future, timeout=limit)
            wanted = action.to_json()
        except asyncio.TimeoutError:
            LOGGER.warning("table %s: the %s bot of seat %d took more than %.0f s; it plays "
                           "its first legal action", table.id, bot.name, seat, limit)
        except Exception:  # a bot's bug must not stop the table
            LOGGER.exception("table %s: the bot of seat %d failed", table.id, seat)
        finally:
            table.bots_busy.discard(seat)
        if table.decision_number != number or table.game.over:
            return
        if wanted is None:
            wanted = table.game.legal_actions(seat)[0].to_json()
        try:
            table.submit(seat, number, wanted)
        except TableError as exc:
            LOGGER.warning("table %s: seat %d's bot move refused: %s", table.id, seat, exc)
            return
        table.notify()
        self.schedule(table)

    # --- HTTP -----------------------------------------------------------------------

    async def lobby(self, request: Request) -> Response:
        return FileResponse(static_dir() / "index.html", headers=SECURITY_HEADERS)

    async def table_page(self, request: Request) -> Response:
        return FileResponse(static_dir() / "table.html", headers=SECURITY_HEADERS)

    async def list_games(self, request: Request) -> Response:
        return JSONResponse({"games": [
            {"game": label, "title": source.data.rules.title,
             "min_players": source.data.rules.min_players,
             "max_players": source.data.rules.max_players,
             "sides": any(len(w.sides) > 1 for w in source.data.wonders)}
            for label, source in self.tables.games.items()],
            "seat_kinds": ["human", "random", "greedy", "search"],
            "sides": ["choose", "random"]})

    async def list_tables(self, request: Request) -> Response:
        """The tables in memory (live, and finished ones not yet retired), newest first:
        never a scan of the data folder, however many games it holds."""
        return JSONResponse({"tables": [
            {**t.summary(), "spectate": f"/table/{t.id}"}
            for t in self.tables.listing()[:200]]})

    async def create_table(self, request: Request) -> Response:
        client = request.client.host if request.client else "?"
        limit = self.create_limits.setdefault(client, RateLimit(per_second=1.0, burst=60.0))
        if not limit.allow():
            return _error("too many tables created; wait a moment", 429)
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            # a page of another site can post a form or text/plain without asking, but not JSON
            return _error("send the table request as application/json", 415)
        try:
            body = await _read_body(request)
            payload = json.loads(body)
        except _TooLarge:
            return _error(f"request too large (at most {MAX_BODY_BYTES} bytes)", 413)
        except (ValueError, RecursionError, UnicodeDecodeError):
            return _error("the request is not JSON", 400)
        try:
            table = self.tables.create(payload)
        except TableError as exc:
            return _error(str(exc), 400)
        self.schedule(table)
        seats = [{"seat": seat, "kind": entry.kind,
                  "link": f"/table/{table.id}#token={entry.token}" if entry.token else None}
                 for seat, entry in enumerate(table.seats)]
        return JSONResponse({"table": table.summary(), "seats": seats,
                             "spectate": f"/table/{table.id}"}, status_code=201)

    # --- websocket ------------------------------------------------------------------

    async def live(self, websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            table = self.tables.get(websocket.path_params.get("table"))
        except TableError as exc:
            await websocket.send_json({"type": "refused", "reason": str(exc)})
            await websocket.close(code=4404)
            return
        limit = RateLimit()
        changed = asyncio.Event()
        seat: int | None = None
        joined = False
        flooded = 0
        sender: asyncio.Task[None] | None = None

        async def send_states() -> None:
            while True:
                await changed.wait()
                changed.clear()
                await websocket.send_json(table.state_for(seat))

        try:
            while True:
                try:   # a page joins at once; a socket that never does is closed
                    received = await asyncio.wait_for(
                        websocket.receive(), timeout=None if joined else JOIN_SECONDS)
                except asyncio.TimeoutError:
                    await websocket.close(code=1008)
                    break
                if received["type"] == "websocket.disconnect":
                    break
                text = received.get("text")   # None for a binary frame: refused below
                if not limit.allow():
                    flooded += 1
                    if flooded > MAX_FLOODED:   # a client that ignores the refusals
                        await websocket.close(code=1008)
                        break
                    await _refuse(websocket, "too many messages; slow down")
                    continue
                try:
                    message = parse(text)
                except ProtocolError as exc:
                    await _refuse(websocket, str(exc))
                    continue
                kind = message["type"]
                if kind == "ping":
                    await websocket.send_json({"type": "pong"})
                    continue
                if kind == "join":
                    if joined:
                        await _refuse(websocket, "this connection has joined already")
                        continue
                    token = message.get("token")
                    if token is not None:
                        seat = table.seat_of(token)
                        if seat is None:
                            await _refuse(websocket, "no seat of this table has that token: "
                                          "use your join link, or watch without a token")
                            continue
                    if len(table.listeners) >= MAX_CONNECTIONS_PER_TABLE:
                        await _refuse(websocket, "this table has as many pages open as it "
                                      f"allows ({MAX_CONNECTIONS_PER_TABLE})")
                        continue
                    joined = True
                    await websocket.send_json({
                        "type": "welcome", "seat": seat, "table": table.summary(),
                        "catalogue": self.tables.catalogue(table.source)})
                    table.listeners.append(changed.set)
                    sender = asyncio.get_running_loop().create_task(send_states())
                    changed.set()
                    continue
                if not joined:
                    await _refuse(websocket, "join the table first")
                    continue
                if seat is None:
                    await _refuse(websocket, "spectators cannot act: join with a seat's link")
                    continue
                if "seat" in message and message["seat"] != seat:
                    await _refuse(websocket, f"this connection plays seat {seat}; another "
                                  "seat needs its own join link")
                    continue
                try:
                    if kind == "hint":
                        await websocket.send_json(self.tables.hint(table, seat))
                        continue
                    action = table.submit(seat, message.get("decision"), message["action"])
                except TableError as exc:
                    await _refuse(websocket, str(exc))
                    continue
                await websocket.send_json({"type": "accepted", "decision": message["decision"],
                                           "action": action.to_json()})
                table.notify()
                self.schedule(table)
        except WebSocketDisconnect:
            pass
        except RuntimeError:  # sending on a socket the client has just closed
            pass
        finally:
            with contextlib.suppress(ValueError):
                table.listeners.remove(changed.set)
            if sender is not None:
                sender.cancel()

    # --- life -----------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        self.executor = ThreadPoolExecutor(max_workers=self.workers,
                                           thread_name_prefix="wonders-bot")
        for table in list(self.tables.tables.values()):
            self.schedule(table)
        try:
            yield
        finally:
            for task in list(self.tasks):
                task.cancel()
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.tables.drain()   # every decision played is on disk before the server stops


class _TooLarge(Exception):
    pass


async def _read_body(request: Request) -> bytes:
    declared = request.headers.get("content-length")
    # ASCII digits only, and no more of them than the bound has: ``int()`` of thousands of
    # digits raises ValueError, and ``isdigit`` alone accepts digits such as '²'
    if declared is not None and not (declared.isascii() and declared.isdigit()
                                     and len(declared) <= len(str(MAX_BODY_BYTES))
                                     and int(declared) <= MAX_BODY_BYTES):
        raise _TooLarge()
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise _TooLarge()
    return body


def _error(reason: str, status: int) -> JSONResponse:
    return JSONResponse({"error": reason}, status_code=status)


async def _refuse(websocket: WebSocket, reason: str) -> None:
    await websocket.send_json({"type": "refused", "reason": reason})


def create_app(tables: Tables, workers: int = 2) -> Starlette:
    """The ASGI app of a server holding ``tables``."""
    server = Server(tables, workers)
    app = Starlette(routes=[
        Route("/", server.lobby),
        Route("/table/{table}", server.table_page),
        Route("/api/games", server.list_games),
        Route("/api/tables", server.list_tables, methods=["GET"]),
        Route("/api/tables", server.create_table, methods=["POST"]),
        WebSocketRoute("/ws/{table}", server.live),
        Mount("/static", StaticFiles(directory=static_dir()), name="static"),
    ], lifespan=server.lifespan)
    app.state.server = server
    return app


def run(tables: Tables, host: str, port: int, workers: int = 2) -> None:
    """Serve until interrupted (uvicorn; websocket frames bounded)."""
    import uvicorn

    # No per-message deflate: compressing every state cost more CPU than building it
    # (benchmarks/serve.py), and a state is a few kilobytes.
    uvicorn.run(create_app(tables, workers), host=host, port=port, log_level="info",
                ws_max_size=max(MAX_MESSAGE_BYTES * 4, 65536), ws_ping_interval=20.0,
                ws_per_message_deflate=False)


__all__ = ["Server", "create_app", "run", "static_dir"]
