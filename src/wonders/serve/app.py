"""The web server: a Starlette app serving the page, a small JSON API and the websockets.

Routes:

* ``GET /`` the lobby (create a table, list the tables), ``GET /table/{id}`` the table
  page (a seat's join link is ``/table/{id}#token=…``: the token stays in the
  fragment, which browsers never send in a request line, and travels only in the
  websocket's join message);
* ``GET /api/games``, ``GET /api/tables``, ``POST /api/tables`` (create; the answer
  holds every seat's join link and the spectators' link);
* ``WS /ws/{id}`` the live table (:mod:`.protocol`);
* ``GET /replay/{id}`` a table's replay page (``?at=N&seat=K`` opens it at a step and
  view), ``GET /api/tables/{id}/replay`` (its steps, views and catalogue),
  ``GET /api/tables/{id}/replay/{at}?seat=K`` (a step, :mod:`.replays`) and
  ``POST /api/tables/{id}/play-on`` (a new table from a step of a finished game).

Every change to a table happens in the event loop; bots choose in a thread pool
(:meth:`.tables.Tables.bot_jobs`), the search bot within its time limit, and a
bot whose choice is late or fails is replaced by the first legal action, so a
table never waits on a bot forever.

A move is acknowledged (``accepted``) only once its files are durably stored
(:class:`.tables.Writer`: written, synced, renamed, the folder synced), so a
server killed right after is restarted with it; a move whose files cannot be
written (a read-only folder, a full disk) is undone, refused with the reason and
logged.  Outgoing JSON is ASCII (``\\u`` escapes), and incoming text that is not
valid Unicode (a lone surrogate such as ``"\\ud800"``) is refused like any other
bad input.  A request whose headers or body do not arrive within
``request_timeout`` seconds is closed (:class:`TimedH11Protocol`); a client that
hangs up mid-request is one log line.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import typing
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path
from typing import Any, AsyncIterator
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from wonders.bots import Bot
from wonders.engine.contract import AnyAction, GameState
from wonders.engine.errors import RuleError
from wonders.serve.accounts import (
    CSRF_HEADER,
    SESSION_COOKIE,
    SESSION_SECONDS,
    VISITOR_COOKIE,
    Account,
    AccountError,
    Accounts,
)
from wonders.serve.protocol import (
    MAX_MESSAGE_BYTES,
    ProtocolError,
    RateLimit,
    dumps,
    parse,
    valid_unicode,
)
from wonders.serve.replays import ReplayError, Replays
from wonders.serve.tables import (
    ABANDON_SECONDS,
    HUMAN,
    MoveFailed,
    Table,
    TableError,
    Tables,
    seat_kinds,
    why_not_stored,
)

LOGGER = logging.getLogger("wonders.serve")
MAX_BODY_BYTES = 4096
MAX_CONNECTIONS_PER_TABLE = 64
JOIN_SECONDS = 30.0   # how long a connection may stay without joining
MAX_FLOODED = 100   # messages over the rate limit before the connection is closed
# Replay requests per client: a slider dragged through a game asks for dozens a second;
# each answer replays moves, so a flood is refused rather than served.
REPLAY_PER_SECOND = 50.0
REPLAY_BURST = 500.0
MAX_CLIENTS = 4096  # rate-limit buckets kept per kind; past it they start again full
BOT_GRACE_SECONDS = 5.0
REQUEST_SECONDS = 10.0   # a request's headers, and then its body, must arrive within this
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

    def __init__(self, tables: Tables, workers: int = 2,
                 request_timeout: float = REQUEST_SECONDS, secure_cookies: bool = True) -> None:
        self.tables = tables
        self.accounts = Accounts(tables.store, tables.clock)
        self.secure_cookies = secure_cookies
        self.workers = workers
        self.request_timeout = request_timeout
        self.locks: dict[str, asyncio.Lock] = {}
        self.executor: ThreadPoolExecutor | None = None
        self.create_limits: dict[str, RateLimit] = {}
        self.replay_limits: dict[str, RateLimit] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.replays = Replays()

    # --- moves ----------------------------------------------------------------------

    async def commit(self, table: Table, seat: int, decision: Any, wanted: Any) -> AnyAction:
        """Play ``seat``'s move and wait until it is durably stored; a move that cannot be
        stored is undone and refused (TableError), the operator told in the log.  One
        move of a table at a time: the next waits until this one is stored or undone."""
        lock = self.locks.setdefault(table.id, asyncio.Lock())
        async with lock:
            return await self._commit_held(table, seat, decision, wanted)

    async def _commit_held(self, table: Table, seat: int, decision: Any,
                           wanted: Any) -> AnyAction:
        """``commit`` with the table's lock held."""
        point = table.checkpoint()
        number = table.decision_number
        try:
            action = table.submit(seat, decision, wanted)
        except TableError:
            raise
        except Exception as exc:   # a bug in the game's play, the recap …: not a refusal
            table.rollback(point)
            LOGGER.exception("table %s: seat %d's move failed while it was played (%s); "
                             "the table is as it was", table.id, seat, _failure(exc))
            raise MoveFailed(f"the server failed to play this move ({_failure(exc)}); it "
                             "was not played") from exc
        if table.saved is not None:
            try:
                await asyncio.wrap_future(table.saved)
            except Exception as exc:   # a full disk, a read-only folder …
                table.rollback(point)
                LOGGER.error("table %s: seat %d's move not stored, so refused: %s",
                             table.id, seat, why_not_stored(exc))
                raise TableError(
                    f"the server could not store this move ({why_not_stored(exc)}); "
                    "it was not played: try again later") from None
        if table.decision_number != number and table.clocks is not None:
            # the next decision's clocks started when it was played, but nobody is told
            # of it before it is stored: under load the commit takes seconds
            table.clocks.restart(self.tables.clock())
        return action

    # --- clocks ---------------------------------------------------------------------

    async def tick(self) -> list[tuple[str, int]]:
        """Hand every human seat whose time ran out to the stand-in bot (marked away
        until its player comes back); the (table, seat) pairs it handed over."""
        handed: list[tuple[str, int]] = []
        for table in list(self.tables.tables.values()):
            if table.clocks is None or table.game.over:
                continue
            now = self.tables.clock()
            late = [s for s in table.clocks.expired(now) if table.seats[s].kind == HUMAN
                    and s not in table.away and s in table.waiting_for()]
            if not late:
                continue
            table.away.update(late)
            LOGGER.info("table %s: seat(s) %s out of time: played by a bot until they "
                        "return", table.id, ", ".join(map(str, late)))
            table.save_meta()   # not awaited: the bot's move waits for it (one write queue)
            handed.extend((table.id, s) for s in late)
            table.notify()
            self.schedule(table)
        return handed

    async def _ticking(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            try:
                await self.tick()
            except Exception:   # one bad table must not stop every clock
                LOGGER.exception("the clocks' check failed")

    async def back(self, table: Table, seat: int) -> None:
        """The player of ``seat`` takes it back from the stand-in bot."""
        if seat not in table.away:
            raise TableError("your seat is yours already: no bot plays it")
        lock = self.locks.setdefault(table.id, asyncio.Lock())
        async with lock:
            point = table.checkpoint()
            table.away.discard(seat)
            if table.clocks is not None:
                table.clocks.resume(seat, self.tables.clock())
            try:
                await asyncio.wrap_future(table.save_meta())
            except Exception as exc:
                table.rollback(point)
                raise TableError(f"the server could not store this ({why_not_stored(exc)}); "
                                 "try again later") from None
        table.notify()

    async def hand_over(self, table: Table, seat: int, target: Any) -> None:
        """Another seated player gives an abandoned seat to the stand-in bot: a human
        seat whose turn it is and that no page has joined for ``ABANDON_SECONDS``."""
        if not isinstance(target, int) or isinstance(target, bool) or \
                not 0 <= target < len(table.seats):
            raise TableError(f"'target' is a seat number, 0 to {len(table.seats) - 1}")
        if target == seat:
            raise TableError("you cannot hand your own seat over; leave the page, or play")
        if table.game.over:
            raise TableError("the game is over")
        if table.seats[target].kind != HUMAN or target in table.away:
            raise TableError(f"a bot plays seat {target} already")
        if target not in table.waiting_for():
            raise TableError(f"seat {target} does not hold the table up: it has nothing to "
                             "choose now")
        now = self.tables.clock()
        if table.present.get(target, 0) > 0:
            raise TableError(f"seat {target}'s player is at the table")
        gone = now - table.absent_since.get(target, now)
        if gone < ABANDON_SECONDS:
            raise TableError(f"seat {target}'s player left {gone:.0f} s ago; a seat may be "
                             f"handed to a bot after {ABANDON_SECONDS:.0f} s")
        lock = self.locks.setdefault(table.id, asyncio.Lock())
        async with lock:
            table.away.add(target)
            try:
                await asyncio.wrap_future(table.save_meta())
            except Exception as exc:
                table.away.discard(target)
                raise TableError(f"the server could not store this ({why_not_stored(exc)}); "
                                 "try again later") from None
        LOGGER.info("table %s: seat %d handed to a bot by seat %d", table.id, target, seat)
        table.notify()
        self.schedule(table)

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
        """Choose on the clone in a worker thread, then play the choice.  The seat stays
        busy until its move is stored (or found stale): a seat freed while its move still
        waits to be stored would get a second job for the same decision, and that job,
        still choosing when the next decision comes, would make ``schedule`` skip it."""
        played = False
        try:
            played = await self._choose_and_play(table, seat, number, clone, bot)
        except Exception as exc:   # whatever it was, the table must not wait for ever
            LOGGER.exception("table %s: the bot move of seat %d failed", table.id, seat)
            self._failed(table, number, f"seat {seat}'s bot could not move ({_failure(exc)})")
        finally:
            table.bots_busy.discard(seat)
        if played:
            table.notify()
        self.schedule(table)   # the next decision's bots (none skipped while this was busy)

    async def _choose_and_play(self, table: Table, seat: int, number: int,
                               clone: GameState, bot: Bot) -> bool:
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

        def moot() -> bool:
            """The move is no longer wanted: the decision was played, or the stand-in's
            player came back and chose (or is choosing)."""
            return (table.decision_number != number or table.game.over
                    or seat in table.pending
                    or (table.seats[seat].kind == HUMAN and seat not in table.away))

        if moot():
            return False
        # checked again once the table's lock is held: a player's move waiting to be
        # stored holds it, and may make this one moot (not a refusal to log)
        async with self.locks.setdefault(table.id, asyncio.Lock()):
            if moot():
                return False
            if wanted is None:
                wanted = table.game.legal_actions(seat)[0].to_json()
            try:
                await self._commit_held(table, seat, number, wanted)
            except MoveFailed:   # (logged, and undone: the first legal action instead)
                first = table.game.legal_actions(seat)[0].to_json()
                LOGGER.warning("table %s: seat %d's bot move %s failed; it plays its first "
                               "legal action, %s", table.id, seat, _brief(wanted), _brief(first))
                try:
                    await self._commit_held(table, seat, number, first)
                except MoveFailed as again:
                    self._failed(table, number, f"seat {seat}'s bot could not move: {again}")
                    return False
                except TableError as refused:
                    LOGGER.warning("table %s: seat %d's bot move refused: %s", table.id, seat,
                                   refused)
                    return False
            except TableError as exc:
                LOGGER.warning("table %s: seat %d's bot move refused: %s", table.id, seat,
                               exc)
                return False
        return True

    def _failed(self, table: Table, number: int, reason: str) -> None:
        """Decision ``number`` of ``table`` cannot be played by its bots: no bot is started
        for it again (``Tables.bot_jobs``), the operator is told in the log and every page
        in its next state (the table's ``failed``), rather than the table waiting silently."""
        if table.decision_number != number or table.game.over:
            return   # (played meanwhile: nothing is stuck)
        table.failed = (number, reason)
        LOGGER.error("table %s: decision %d stopped: %s", table.id, number, reason)
        table.notify()

    # --- HTTP -----------------------------------------------------------------------

    async def lobby(self, request: Request) -> Response:
        return FileResponse(static_dir() / "index.html", headers=SECURITY_HEADERS)

    async def table_page(self, request: Request) -> Response:
        return FileResponse(static_dir() / "table.html", headers=SECURITY_HEADERS)

    async def list_games(self, request: Request) -> Response:
        return AsciiJSON({"games": [
            {"game": label, "title": source.data.rules.title,
             "min_players": source.data.rules.min_players,
             "max_players": source.data.rules.max_players,
             "sides": any(len(w.sides) > 1 for w in source.data.wonders)}
            for label, source in self.tables.games.items()],
            "seat_kinds": list(seat_kinds()),
            "sides": ["choose", "random"]})

    async def list_tables(self, request: Request) -> Response:
        """The tables in memory (live, and finished ones not yet retired), newest first:
        never a scan of the data folder, however many games it holds."""
        return AsciiJSON({"tables": [
            {**t.summary(), "spectate": f"/table/{t.id}"}
            for t in self.tables.listing()[:200]]})

    async def _payload(self, request: Request, what: str) -> Any:
        """The request's JSON body, or the Response refusing it: not JSON (415: another
        site's page can post a form or text/plain without asking, but not JSON), too
        large, too slow, a client gone, text that is not valid Unicode, or a missing or
        wrong CSRF token (403)."""
        client = request.client.host if request.client else "?"
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return _error(f"send the {what} as application/json", 415)
        try:
            body = await asyncio.wait_for(_read_body(request), self.request_timeout)
            payload = json.loads(body)
        except _TooLarge:
            return _error(f"request too large (at most {MAX_BODY_BYTES} bytes)", 413)
        except asyncio.TimeoutError:
            return _error(f"the request's body did not arrive within "
                          f"{self.request_timeout:.0f} s", 408)
        except ClientDisconnect:   # hung up mid-request: nobody to answer
            LOGGER.info("%s hung up before its request (%s) was complete", client, what)
            return Response(status_code=400)
        except (ValueError, RecursionError, UnicodeDecodeError):
            return _error("the request is not JSON", 400)
        if not valid_unicode(payload):
            return _error("the request holds text that is not valid Unicode (a lone "
                          "surrogate such as \\ud800)", 400)
        if not self.accounts.csrf_ok(_cookie(request), request.headers.get(CSRF_HEADER)):
            return _error("missing or wrong CSRF token: load the page again (it sends the "
                          "token of GET /api/session as X-CSRF-Token)", 403)
        return payload

    def account_of(self, cookies: Any) -> Account | None:
        """The signed-in account of a request's or websocket's cookies."""
        return self.accounts.session(cookies.get(SESSION_COOKIE))

    def _may_create(self, request: Request) -> Response | None:
        if not _bucket(self.create_limits, request, 1.0, 60.0).allow():
            return _error("too many tables created; wait a moment", 429)
        return None

    def _may_replay(self, request: Request) -> Response | None:
        if not _bucket(self.replay_limits, request, REPLAY_PER_SECOND, REPLAY_BURST).allow():
            return _error("too many replay requests; wait a moment", 429)
        return None

    async def create_table(self, request: Request) -> Response:
        refused = self._may_create(request)
        if refused is not None:
            return refused
        payload = await self._payload(request, "table request")
        if isinstance(payload, Response):
            return payload
        try:
            table = self.tables.create(payload)
        except TableError as exc:
            return _error(str(exc), 400)
        return await self._created(table)

    async def _created(self, table: Table) -> Response:
        """The answer to a table just made, once it is stored: every seat's join link."""
        if table.saved is not None:
            try:
                await asyncio.wrap_future(table.saved)
            except Exception as exc:
                self.tables.discard(table)
                LOGGER.error("table %s not stored, so not created: %s", table.id,
                             why_not_stored(exc))
                return _error(f"the server could not store the new table "
                              f"({why_not_stored(exc)}); try again later", 503)
        self.schedule(table)
        seats = [{"seat": seat, "kind": entry.kind,
                  "link": f"/table/{table.id}#token={entry.token}" if entry.token else None}
                 for seat, entry in enumerate(table.seats)]
        return AsciiJSON({"table": table.summary(), "seats": seats,
                          "spectate": f"/table/{table.id}"}, status_code=201)

    # --- accounts -------------------------------------------------------------------

    async def session(self, request: Request) -> Response:
        """Who is signed in, the page's CSRF token, and the account's unfinished seats
        (with their links: a lost link is not a lost seat); a visitor cookie for a first
        visit."""
        account = await asyncio.to_thread(self.account_of, request.cookies)
        cookie = _cookie(request)
        fresh = None
        if not cookie:
            cookie = fresh = secrets.token_urlsafe(32)
        answer: dict[str, Any] = {"account": None, "csrf": self.accounts.csrf(cookie)}
        if account is not None:
            answer["account"] = {"name": account.name, "seats": await asyncio.to_thread(
                self.tables.open_seats, account.id)}
        response = AsciiJSON(answer)
        if fresh is not None:
            self._set_cookie(response, VISITOR_COOKIE, fresh, "strict")
        return response

    def _set_cookie(self, response: Response, name: str, value: str, same_site: str) -> None:
        response.set_cookie(name, value, max_age=SESSION_SECONDS, path="/", httponly=True,
                            secure=self.secure_cookies, samesite=same_site)  # type: ignore

    async def _signed_in(self, account: Account) -> Response:
        token = await asyncio.to_thread(self.accounts.open_session, account)
        response = AsciiJSON({"account": {"name": account.name},
                              "csrf": self.accounts.csrf(token)})
        self._set_cookie(response, SESSION_COOKIE, token, "lax")
        return response

    async def sign_up(self, request: Request) -> Response:
        payload = await self._payload(request, "sign-up")
        if isinstance(payload, Response):
            return payload
        client = request.client.host if request.client else "?"
        if not self.accounts.allow_attempt(f"sign-up:{client}"):
            return _error("too many attempts; wait a moment", 429)
        if not isinstance(payload, dict) or set(payload) - {"name", "password"}:
            return _error("a sign-up is {\"name\", \"password\"}", 400)
        try:
            account = await asyncio.to_thread(self.accounts.sign_up, payload.get("name"),
                                              payload.get("password"))
        except AccountError as exc:
            return _error(str(exc), 400)
        return await self._signed_in(account)

    async def sign_in(self, request: Request) -> Response:
        payload = await self._payload(request, "sign-in")
        if isinstance(payload, Response):
            return payload
        if not isinstance(payload, dict) or set(payload) - {"name", "password"}:
            return _error("a sign-in is {\"name\", \"password\"}", 400)
        client = request.client.host if request.client else "?"
        name = payload.get("name")
        if not self.accounts.allow_attempt(f"address:{client}",
                                           f"name:{str(name).lower()[:64]}"):
            LOGGER.warning("%s: too many sign-in attempts (name %r)", client, str(name)[:64])
            return _error("too many sign-in attempts; wait a minute", 429)
        try:
            account = await asyncio.to_thread(self.accounts.sign_in, name,
                                              payload.get("password"))
        except AccountError as exc:
            return _error(str(exc), 401)
        return await self._signed_in(account)

    async def sign_out(self, request: Request) -> Response:
        payload = await self._payload(request, "sign-out")
        if isinstance(payload, Response):
            return payload
        await asyncio.to_thread(self.accounts.close_session, request.cookies.get(SESSION_COOKIE))
        visitor = request.cookies.get(VISITOR_COOKIE) or secrets.token_urlsafe(32)
        response = AsciiJSON({"account": None, "csrf": self.accounts.csrf(visitor)})
        response.delete_cookie(SESSION_COOKIE, path="/", secure=self.secure_cookies,
                               httponly=True, samesite="lax")
        if VISITOR_COOKIE not in request.cookies:
            self._set_cookie(response, VISITOR_COOKIE, visitor, "strict")
        return response

    # --- ratings --------------------------------------------------------------------

    async def leaderboard_page(self, request: Request) -> Response:
        return FileResponse(static_dir() / "leaderboard.html", headers=SECURITY_HEADERS)

    async def player_page(self, request: Request) -> Response:
        return FileResponse(static_dir() / "player.html", headers=SECURITY_HEADERS)

    async def leaderboard(self, request: Request) -> Response:
        """The best ratings of a game (``?game=``; the first rated game by default)."""
        from wonders.serve import ratings

        games = await asyncio.to_thread(ratings.rated_games, self.tables.store)
        offered = list(dict.fromkeys([*self.tables.games, *games]))
        game = request.query_params.get("game") or (games[0] if games else
                                                    next(iter(offered), ""))
        if game not in offered:
            return _error(f"no game {game[:80]!r} here: {', '.join(offered)}", 404)
        players = await asyncio.to_thread(ratings.leaderboard, self.tables.store, game)
        return AsciiJSON({"game": game, "games": offered, "rated": games,
                          "players": players})

    async def player(self, request: Request) -> Response:
        """A player's ratings, games played, rating history and recent tables."""
        from wonders.serve import ratings

        name = str(request.path_params.get("name", ""))[:64]
        account = await asyncio.to_thread(self.accounts.by_name, name)
        if account is None:
            return _error(f"no player {name!r} on this server", 404)
        found = await asyncio.to_thread(ratings.player, self.tables.store, account.id)
        return AsciiJSON({"name": account.name, **found})

    async def table_log(self, request: Request) -> Response:
        """A finished table's game log (JSON Lines, what ``wonders replay`` reads); refused
        while the game goes on: its seed deals every hand."""
        try:
            table = self.tables.get(request.path_params.get("table"))
        except TableError as exc:
            return _error(str(exc), 404)
        if not table.game.over:
            return _error("the game is not over: its log, which deals every hand, is "
                          "given once it is", 409)
        text = "".join(dumps(record) + "\n" for record in table.log_lines())
        return Response(text, media_type="application/x-ndjson", headers={
            "Content-Disposition": f'attachment; filename="{table.id}.jsonl"'})

    # --- replays --------------------------------------------------------------------

    async def replay_page(self, request: Request) -> Response:
        return FileResponse(static_dir() / "replay.html", headers=SECURITY_HEADERS)

    async def replay_info(self, request: Request) -> Response:
        """A table's replay: its steps, the views it offers, the game's catalogue."""
        refused = self._may_replay(request)
        if refused is not None:
            return refused
        try:
            table = self.tables.get(request.path_params.get("table"))
        except TableError as exc:
            return _error(str(exc), 404)
        return AsciiJSON({"table": table.summary(), "steps": table.decision_number,
                          "over": table.game.over, "views": self.replays.views(table),
                          "catalogue": self.tables.catalogue(table.source)})

    async def replay_step(self, request: Request) -> Response:
        """One step of a table's replay as ``?seat=`` saw it (public by default): 404 for
        an unknown table, step or seat, 403 for a seat's view of a running game."""
        refused = self._may_replay(request)
        if refused is not None:
            return refused
        try:
            table = self.tables.get(request.path_params.get("table"))
        except TableError as exc:
            return _error(str(exc), 404)
        replay = self.replays.of(table)
        try:
            step, seat = replay.check(request.path_params.get("at"),
                                      request.query_params.get("seat"))
            return AsciiJSON(replay.state(step, seat))
        except ReplayError as exc:
            return _error(str(exc), exc.status)
        except RuleError as exc:   # a move that no longer replays (the data changed)
            return _error(f"this game does not replay here: {exc}", 409)

    async def play_on(self, request: Request) -> Response:
        """A new table from a step of a finished table's replay (``Tables.play_on``)."""
        refused = self._may_create(request)
        if refused is not None:
            return refused
        payload = await self._payload(request, "play-on request")
        if isinstance(payload, Response):
            return payload
        try:
            table = self.tables.get(request.path_params.get("table"))
        except TableError as exc:
            return _error(str(exc), 404)
        if not table.game.over:
            return _error("the game is not over: a running game is played on only once it "
                          "ends (a new table would deal its hidden cards)", 409)
        try:
            created = self.tables.play_on(table, payload)
        except TableError as exc:
            return _error(str(exc), 400)
        return await self._created(created)

    # --- websocket ------------------------------------------------------------------

    async def claim(self, table: Table, seat: int, account: Account | None) -> str | None:
        """Let a page join ``seat``: a seat a signed-in player joins first becomes theirs
        (stored before the join is answered), a seat of an account only its account
        plays; None, or why not."""
        entry = table.seats[seat]
        if entry.account is not None:
            if account is None or account.id != entry.account:
                return (f"seat {seat} is played by the account {entry.name}: sign in as "
                        f"{entry.name} to play it")
            return None
        if account is None:
            return None   # a guest: the link alone holds the seat
        other = [n for n, s in enumerate(table.seats) if s.account == account.id]
        if other:
            return f"your account plays seat {other[0]} of this table already"
        entry.account, entry.name = account.id, account.name
        try:
            await asyncio.wrap_future(table._write([table.seat_op(seat)]))
        except Exception as exc:
            entry.account = entry.name = None
            LOGGER.error("table %s: seat %d not given to %s: %s", table.id, seat,
                         account.name, why_not_stored(exc))
            return f"the server could not store your seat ({why_not_stored(exc)}); try again"
        table.notify()
        return None

    async def live(self, websocket: WebSocket) -> None:
        await websocket.accept()
        origin = websocket.headers.get("origin")
        if origin and urlsplit(origin).netloc != websocket.headers.get("host"):
            # another site's page opening a socket with this server's cookies
            await _send(websocket, {"type": "refused", "reason": "a page of another site "
                                    "cannot join a table here"})
            await websocket.close(code=1008)
            return
        try:
            table = self.tables.get(websocket.path_params.get("table"))
        except TableError as exc:
            await _send(websocket, {"type": "refused", "reason": str(exc)})
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
                await websocket.send_text(table.state_text(seat))

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
                    await _send(websocket, {"type": "pong"})
                    continue
                if kind == "join":
                    if joined:
                        await _refuse(websocket, "this connection has joined already")
                        continue
                    token = message.get("token")
                    if token is not None:
                        found = table.seat_of(token)
                        if found is None:
                            await _refuse(websocket, "no seat of this table has that token: "
                                          "use your join link, or watch without a token")
                            continue
                        account = await asyncio.to_thread(self.account_of, websocket.cookies)
                        why = await self.claim(table, found, account)
                        if why is not None:
                            await _refuse(websocket, why)
                            continue
                        seat = found
                    if len(table.listeners) >= MAX_CONNECTIONS_PER_TABLE:
                        await _refuse(websocket, "this table has as many pages open as it "
                                      f"allows ({MAX_CONNECTIONS_PER_TABLE})")
                        continue
                    joined = True
                    await _send(websocket, {
                        "type": "welcome", "seat": seat, "table": table.summary(),
                        "catalogue": self.tables.catalogue(table.source)})
                    table.listeners.append(changed.set)
                    if seat is not None:
                        table.present[seat] = table.present.get(seat, 0) + 1
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
                        await _send(websocket, self.tables.hint(table, seat))
                        continue
                    if kind == "back":
                        await self.back(table, seat)
                        await _send(websocket, {"type": "back", "seat": seat})
                        continue
                    if kind == "hand_over":
                        await self.hand_over(table, seat, message.get("target"))
                        await _send(websocket, {"type": "handed_over",
                                                "target": message.get("target")})
                        continue
                    if seat in table.away:   # playing again is coming back
                        await self.back(table, seat)
                    action = await self.commit(table, seat, message.get("decision"),
                                               message["action"])
                except TableError as exc:
                    await _refuse(websocket, str(exc))
                    continue
                # only now: the move is durably stored (see commit).  The other pages and
                # the bots are told first: this page may have gone while the move was stored
                table.notify()
                self.schedule(table)
                await _send(websocket, {"type": "accepted", "decision": message["decision"],
                                        "action": action.to_json()})
        except WebSocketDisconnect:
            pass
        except (RuntimeError, OSError):  # sending on a socket the client has just closed
            LOGGER.info("table %s: a page hung up while it was sent a message", table.id)
        finally:
            with contextlib.suppress(ValueError):
                table.listeners.remove(changed.set)
            if joined and seat is not None:
                table.present[seat] = table.present.get(seat, 1) - 1
                if table.present[seat] <= 0:
                    table.absent_since[seat] = self.tables.clock()
            if sender is not None:
                sender.cancel()

    # --- life -----------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        self.executor = ThreadPoolExecutor(max_workers=self.workers,
                                           thread_name_prefix="wonders-bot")
        for table in list(self.tables.tables.values()):
            self.schedule(table)
        ticker = asyncio.get_running_loop().create_task(self._ticking())
        self.tasks.add(ticker)
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


class AsciiJSON(JSONResponse):
    """JSON with every character outside ASCII escaped: whatever text a request held
    (a lone surrogate included), the answer encodes."""

    def render(self, content: Any) -> bytes:
        return dumps(content).encode("ascii")


def _cookie(request: Request) -> str | None:
    """The cookie a request's CSRF token is bound to: its session's, else its visitor's."""
    found = request.cookies.get(SESSION_COOKIE) or request.cookies.get(VISITOR_COOKIE)
    return str(found) if found else None


def _brief(value: Any) -> str:
    """A move's JSON, cut to a log line's length."""
    return json.dumps(value, default=repr)[:80]


def _failure(exc: BaseException) -> str:
    """An unexpected exception in a few words for a log line and a player: its kind and
    its message (never a traceback: the log has that)."""
    text = str(exc).splitlines()[0][:160] if str(exc) else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _error(reason: str, status: int) -> JSONResponse:
    return AsciiJSON({"error": reason}, status_code=status)


async def _send(websocket: WebSocket, message: dict[str, Any]) -> None:
    await websocket.send_text(dumps(message))


async def _refuse(websocket: WebSocket, reason: str) -> None:
    await _send(websocket, {"type": "refused", "reason": reason})


def _bucket(limits: dict[str, RateLimit], request: Request, per_second: float,
            burst: float) -> RateLimit:
    """The rate-limit bucket of the request's client among ``limits``."""
    client = request.client.host if request.client else "?"
    found = limits.get(client)
    if found is None:
        if len(limits) >= MAX_CLIENTS:
            limits.clear()
        found = limits[client] = RateLimit(per_second=per_second, burst=burst)
    return found


def create_app(tables: Tables, workers: int = 2,
               request_timeout: float = REQUEST_SECONDS, secure_cookies: bool = True
               ) -> Starlette:
    """The ASGI app of a server holding ``tables``."""
    server = Server(tables, workers, request_timeout, secure_cookies)
    app = Starlette(routes=[
        Route("/", server.lobby),
        Route("/table/{table}", server.table_page),
        Route("/api/games", server.list_games),
        Route("/api/tables", server.list_tables, methods=["GET"]),
        Route("/api/tables", server.create_table, methods=["POST"]),
        Route("/api/tables/{table}/log", server.table_log),
        Route("/replay/{table}", server.replay_page),
        Route("/api/tables/{table}/replay", server.replay_info),
        Route("/api/tables/{table}/replay/{at}", server.replay_step),
        Route("/api/tables/{table}/play-on", server.play_on, methods=["POST"]),
        Route("/api/session", server.session),
        Route("/leaderboard", server.leaderboard_page),
        Route("/player/{name}", server.player_page),
        Route("/api/leaderboard", server.leaderboard),
        Route("/api/players/{name}", server.player),
        Route("/api/signup", server.sign_up, methods=["POST"]),
        Route("/api/signin", server.sign_in, methods=["POST"]),
        Route("/api/signout", server.sign_out, methods=["POST"]),
        WebSocketRoute("/ws/{table}", server.live),
        Mount("/static", StaticFiles(directory=static_dir()), name="static"),
    ], lifespan=server.lifespan)
    app.state.server = server
    return app


def timed_protocol(seconds: float) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol, closing a connection whose request headers are not
    complete ``seconds`` after it opened or after its last response (uvicorn times out
    only idle keep-alive connections, so a client trickling headers would hold one open
    for ever)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class TimedH11Protocol(H11Protocol):
        head_timer: asyncio.TimerHandle | None = None

        def _arm(self) -> None:
            self._disarm()
            self.head_timer = self.loop.call_later(seconds, self._head_late)

        def _disarm(self) -> None:
            if self.head_timer is not None:
                self.head_timer.cancel()
                self.head_timer = None

        def _head_late(self) -> None:
            self.head_timer = None
            if self.transport.get_protocol() is not self:
                return   # upgraded to a websocket: the join timeout bounds it from here
            waiting = self.cycle is None or self.cycle.response_complete
            if waiting and not self.transport.is_closing():
                where = "%s:%d" % self.client if self.client else "a client"
                LOGGER.info("%s: request headers incomplete after %.0f s; connection "
                            "closed", where, seconds)
                self.transport.close()

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(typing.cast(asyncio.Transport, transport))
            self._arm()

        def handle_events(self) -> None:
            super().handle_events()
            if (self.cycle is not None and not self.cycle.response_complete) \
                    or self.transport.get_protocol() is not self:
                self._disarm()   # the headers are in: the app (or the websocket) bounds the rest

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return TimedH11Protocol


def uvicorn_options(request_timeout: float = REQUEST_SECONDS) -> dict[str, Any]:
    """The options ``run`` gives uvicorn (the tests start servers with them too)."""
    # No per-message deflate: compressing every state cost more CPU than building it
    # (benchmarks/serve.py), and a state is a few kilobytes.
    return {"ws_max_size": max(MAX_MESSAGE_BYTES * 4, 65536), "ws_ping_interval": 20.0,
            "ws_ping_timeout": 20.0, "ws_per_message_deflate": False,
            "timeout_keep_alive": 5, "http": timed_protocol(request_timeout)}


def run(tables: Tables, host: str, port: int, workers: int = 2,
        request_timeout: float = REQUEST_SECONDS, secure_cookies: bool = True) -> None:
    """Serve until interrupted (uvicorn; websocket frames bounded, requests timed)."""
    import uvicorn

    uvicorn.run(create_app(tables, workers, request_timeout, secure_cookies), host=host,
                port=port,
                log_level="info", **uvicorn_options(request_timeout))


__all__ = ["AsciiJSON", "Server", "create_app", "run", "static_dir", "timed_protocol",
           "uvicorn_options"]
