"""Tables: one game each, its seats (humans with secret tokens, bots), kept on disk.

A table is saved as two files in the data folder: ``<id>.jsonl``, the engine's
own game log (:mod:`wonders.engine.log`), rewritten after every decision, and
``<id>.table.json``, what the log does not hold: which seat is a bot of which
kind, each human seat's token, the options, and the actions already chosen for
a simultaneous decision still open.  Restoring replays the log on the loaded
data (every logged action found again among the legal actions, the coins
checked after each decision), so a restarted server has every table where it
was.

Everything that changes a table runs in the server's event loop; bots choose
on a clone in a worker thread and their choice is found again among the live
game's legal actions, so a slow bot never blocks a table and never touches it.
"""

from __future__ import annotations

import json
import os
import random
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from wonders.dsl.model import Game as GameData

from .. import log as game_log
from ..actions import Action
from ..bots import Bot
from ..bots.mcts import MCTSBot
from ..bots.policy import greedy_policy
from ..bots.random_bot import RandomBot
from ..contract import GameState
from ..errors import IllegalActionError, RuleError
from ..registry import new_game
from ..sources import Source, SourceError, resolve
from . import present

HUMAN = "human"
BOT_KINDS = ("random", "greedy", "search")
SEAT_KINDS = (HUMAN, *BOT_KINDS)
SIDE_MODES = ("choose", "random")
MAX_TABLES = 1000
TABLE_ID_BYTES = 9
META_SUFFIX = ".table.json"
LOG_SUFFIX = ".jsonl"


class TableError(RuleError):
    """A request the table refuses (a bad option, an unknown table, a forged seat …): the
    message says why, and nothing changed."""


@dataclass
class Seat:
    """One seat: a human (with the secret token of its join link) or a bot kind."""

    kind: str
    token: str | None = None


@dataclass
class GameSource:
    """A game the server offers: its label on the page, what a log records, its data."""

    label: str
    spec: str
    paths: tuple[str, ...]
    data: GameData


def load_source(game: str) -> GameSource:
    """Resolve and load a shipped game's name or a variant's path (TableError if it does
    not load)."""
    try:
        source: Source = resolve(game)
        result = source.load()
    except SourceError as exc:
        raise TableError(str(exc)) from None
    if result.game is None:
        problems = "; ".join(d.render() for d in result.report.errors[:3])
        raise TableError(f"{game}: the game does not load: {problems}")
    return GameSource(game if source.name is None else source.name, source.spec, (), result.game)


def bot_for(kind: str, seed: int, search_seconds: float) -> Bot:
    """A bot of a seat kind, seeded for one decision (so a restored table plays on alike)."""
    if kind == "random":
        return RandomBot(seed)
    if kind == "greedy":
        return _Greedy(seed)
    if kind == "search":
        return MCTSBot(seed, time_limit=search_seconds)
    raise TableError(f"'{kind}' is not a bot kind: {', '.join(BOT_KINDS)}")


class _Greedy:
    """The greedy policy of the game's loop as a bot."""

    name = "greedy"

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, game: GameState, seat: int) -> Action:
        action: Action = greedy_policy(game.data)(self.seed).choose(game, seat)
        return action


def find_action(game: GameState, seat: int, wanted: Any) -> Action | None:
    """The legal action of ``seat`` whose ``to_json()`` is ``wanted`` (None if none is)."""
    for action in game.legal_actions(seat):
        if action.to_json() == wanted:
            return action
    return None


class Writer:
    """Writes files in one background thread, in order, each replaced atomically and
    synced: the event loop hands over the text and goes on (a sync costs ~10 ms here).
    Writes of the same file still queued are merged: only the latest text is written."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latest: dict[Path, str] = {}
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="wonders-log")

    def write(self, path: Path, text: str) -> None:
        with self.lock:
            queued = path in self.latest
            self.latest[path] = text
        if not queued:
            self.executor.submit(self._flush, path)

    def _flush(self, path: Path) -> None:
        with self.lock:
            text = self.latest.pop(path)
        _write_atomic(path, text)

    def drain(self) -> None:
        """Wait until everything handed over is on disk."""
        self.executor.submit(lambda: None).result()


@dataclass
class Table:
    """One game being played: the state, its seats and who has chosen this decision."""

    id: str
    source: GameSource
    game: GameState
    seats: list[Seat]
    sides: str | None   # the sides option (None: the game's wonders have one side)
    hints: bool
    created: float
    data_dir: Path | None
    writer: Writer | None = None
    pending: dict[int, Action] = field(default_factory=dict)
    listeners: list[Callable[[], None]] = field(default_factory=list)
    bots_busy: set[int] = field(default_factory=set)
    events: list[str] = field(default_factory=list)

    # --- reading --------------------------------------------------------------------

    @property
    def decision_number(self) -> int:
        """How many decisions were played: what a message names to act on the open one."""
        return len(self.game.history)

    def seat_of(self, token: str) -> int | None:
        """The seat a token plays (compared in constant time), or None."""
        given = token.encode("utf-8", "replace")   # bytes: any text compares, never raises
        found = None
        for seat, entry in enumerate(self.seats):
            if entry.token is not None and secrets.compare_digest(entry.token.encode(), given):
                found = seat
        return found

    def waiting_for(self) -> list[int]:
        """Seats that still have to choose for the open decision."""
        return [s for s in self.game.to_move() if s not in self.pending]

    def summary(self) -> dict[str, Any]:
        """Public facts about the table (for the lobby and every page)."""
        return {"id": self.id, "game": self.source.label, "title": self.source.data.rules.title,
                "players": self.game.players, "seats": [s.kind for s in self.seats],
                "sides": self.sides, "hints": self.hints, "over": self.game.over,
                "decision": self.decision_number}   # never the seed: it deals every hand

    def state_for(self, seat: int | None) -> dict[str, Any]:
        """What a page at ``seat`` (None: a spectator) is sent after every change."""
        game = self.game
        view = present.public_view(game) if seat is None else game.view(seat)
        decision = game.decision()
        message: dict[str, Any] = {
            "type": "state", "table": self.summary(), "decision": self.decision_number,
            "seat": seat, "view": view,
            "pending": {"kind": decision.kind, "wording": decision.wording,
                        "seats": list(decision.seats), "chosen": sorted(self.pending)},
            "production": [present.production(game, s) for s in range(game.players)],
            "events": self.events[-12:], "over": game.over,
            "score_sheet": game.score_sheet().to_json(),
        }
        if seat is not None and seat in decision.seats and seat not in self.pending:
            message["actions"] = present.actions_for(game, seat)
        if seat is not None and seat in self.pending:
            message["chosen"] = str(self.pending[seat])
        return message

    # --- changing -------------------------------------------------------------------

    def submit(self, seat: int, decision: Any, wanted: Any) -> Action:
        """Take ``seat``'s action for the open decision; the decision resolves once every
        deciding seat has chosen.  Raises TableError (nothing changed) when the game is
        over, the decision is not the open one (a repeated or stale message), the seat
        does not decide now or has already chosen, or the action is not legal."""
        game = self.game
        if game.over:
            raise TableError("the game is over")
        if not isinstance(decision, int) or isinstance(decision, bool):
            raise TableError("'decision' must be the number of the open decision")
        if decision != self.decision_number:
            raise TableError(f"decision {decision} is not the open one (it is decision "
                             f"{self.decision_number}): a repeated or stale message")
        if seat not in game.to_move():
            raise TableError(f"seat {seat} does not decide now (waiting for "
                             f"{', '.join(map(str, self.waiting_for())) or 'nobody'})")
        if seat in self.pending:
            raise TableError(f"seat {seat} has already chosen for this decision")
        action = find_action(game, seat, wanted)
        if action is None:
            raise TableError(f"that is not a legal action of seat {seat} now: "
                             f"{_short(wanted)}")
        try:
            game.check(seat, action)
        except IllegalActionError as exc:
            raise TableError(str(exc)) from None
        self.pending[seat] = action
        if not self.waiting_for():
            try:
                self._resolve()
            except TableError:
                del self.pending[seat]
                raise
        else:
            self.save_meta()
        return action

    def _resolve(self) -> None:
        before = present.public_view(self.game)
        actions = dict(self.pending)
        self.pending.clear()
        try:
            self.game.play(actions)
        except RuleError as exc:  # the contract: an illegal action changes nothing
            self.pending.update(actions)
            raise TableError(f"the decision could not be played: {exc}") from None
        self.events.extend(_events(before, present.public_view(self.game), self.game))
        del self.events[:-50]
        self.save()

    def notify(self) -> None:
        for listener in list(self.listeners):
            listener()

    # --- disk -----------------------------------------------------------------------

    def meta(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.source.label, "spec": self.source.spec,
                "paths": list(self.source.paths), "players": self.game.players,
                "seed": self.game.seed, "sides": self.sides, "hints": self.hints,
                "created": self.created,
                "seats": [{"kind": s.kind, "token": s.token} for s in self.seats],
                "decision": self.decision_number,
                "pending": {str(s): a.to_json() for s, a in sorted(self.pending.items())},
                "events": self.events}

    def _write(self, path: Path, text: str) -> None:
        if self.writer is not None:
            self.writer.write(path, text)
        else:
            _write_atomic(path, text)

    def save_meta(self) -> None:
        if self.data_dir is not None:
            self._write(self.data_dir / f"{self.id}{META_SUFFIX}",
                        json.dumps(self.meta(), separators=(",", ":")))

    def save(self) -> None:
        """Write the game log and the table's own record (each replaced atomically)."""
        if self.data_dir is None:
            return
        lines = game_log.lines(self.game, self.source.spec, self.source.paths, self.sides)
        self._write(self.data_dir / f"{self.id}{LOG_SUFFIX}",
                    "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in lines))
        self.save_meta()


def _write_atomic(path: Path, text: str) -> None:
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def _short(value: Any) -> str:
    text = json.dumps(value)[:80] if _jsonable(value) else repr(value)[:80]
    return text


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def _events(before: dict[str, Any], after: dict[str, Any], game: GameState) -> list[str]:
    """What a decision changed that everyone sees, in words: cards built, wonder stages,
    military and other tokens received, the age that began, the end of the game."""
    found: list[str] = []
    age = before.get("age")
    age_ended = after.get("age") != age or game.over
    old_cities = before.get("cities") or []
    for index, city in enumerate(after.get("cities") or []):
        old = old_cities[index] if index < len(old_cities) else {}
        who = f"seat {city.get('seat', index)}"
        for name in city.get("built", [])[len(old.get("built", [])):]:
            found.append(f"{who} built {name}")
        if city.get("stages", 0) > old.get("stages", 0):
            found.append(f"{who} built a wonder stage")
        for key in ("built_wonders", "owned_tokens", "bonuses"):
            for name in (city.get(key) or [])[len(old.get(key) or []):]:
                found.append(f"{who} took {name}")
        crossed, was = city.get("crossed"), old.get("crossed") or {}
        if isinstance(crossed, dict):   # a sheet's spaces by building: the new crosses
            for building, spaces in crossed.items():
                for space in sorted(set(spaces) - set(was.get(building) or [])):
                    found.append(f"{who} crossed {building} space {space + 1}")
        for token in (city.get("tokens") or [])[len(old.get("tokens") or []):]:
            when = f"battles at the end of age {age}: " if age_ended else ""
            found.append(f"{when}{who} received {' '.join(map(str, token))}")
    if after.get("age") != before.get("age") and not game.over:
        found.append(f"age {after.get('age')} begins")
    if game.over:
        sheet = game.score_sheet()
        found.append("game over: " + ", ".join(f"seat {s}" for s in sheet.winners) + " won")
    return found


class Tables:
    """Every table of a server, the games it offers, and the folder they are kept in."""

    def __init__(self, data_dir: Path | None, games: Sequence[GameSource],
                 search_seconds: float = 2.0) -> None:
        self.data_dir = data_dir
        self.games = {g.label: g for g in games}
        self.tables: dict[str, Table] = {}
        self.search_seconds = search_seconds
        self.restore_problems: list[str] = []
        self.catalogues: dict[str, dict[str, Any]] = {}
        self.hints: dict[tuple[str, int, int], dict[str, Any]] = {}
        self.writer = Writer() if data_dir is not None else None
        if data_dir is not None:
            data_dir.mkdir(parents=True, exist_ok=True)
            self.restore()

    def catalogue(self, source: GameSource) -> dict[str, Any]:
        """The game's catalogue for pages (made once per game)."""
        found = self.catalogues.get(source.spec)
        if found is None:
            found = self.catalogues[source.spec] = present.catalogue(source.data)
        return found

    def drain(self) -> None:
        """Wait until every table's files are written."""
        if self.writer is not None:
            self.writer.drain()

    def get(self, table_id: Any) -> Table:
        table = self.tables.get(table_id) if isinstance(table_id, str) else None
        if table is None:
            raise TableError(f"no table {_short(table_id)} on this server")
        return table

    def create(self, request: Any) -> Table:
        """A new table from the page's request: ``game``, ``players``, ``seats`` (one kind
        per seat), ``sides`` (choose or random), ``hints``, optional ``seed``."""
        if not isinstance(request, dict):
            raise TableError("a table request is a JSON object")
        unknown = set(request) - {"game", "players", "seats", "sides", "hints", "seed"}
        if unknown:
            raise TableError(f"unknown field(s): {', '.join(sorted(map(str, unknown)))}")
        if len(self.tables) >= MAX_TABLES:
            raise TableError(f"this server holds {MAX_TABLES} tables already")
        label = request.get("game")
        source = self.games.get(label) if isinstance(label, str) else None
        if source is None:
            raise TableError(f"game {_short(label)} is not offered here: "
                             f"{', '.join(self.games)}")
        rules = source.data.rules
        players = request.get("players")
        if not isinstance(players, int) or isinstance(players, bool) or not (
                rules.min_players <= players <= rules.max_players):
            raise TableError(f"players: {_short(players)}; {rules.title} is played by "
                             f"{rules.min_players} to {rules.max_players}")
        kinds = request.get("seats")
        if not isinstance(kinds, list) or len(kinds) != players:
            raise TableError(f"seats: one kind per seat ({players}), each one of "
                             f"{', '.join(SEAT_KINDS)}")
        for kind in kinds:
            if kind not in SEAT_KINDS:
                raise TableError(f"seats: {_short(kind)} is not one of {', '.join(SEAT_KINDS)}")
        sides = request.get("sides", "choose")
        if sides not in SIDE_MODES:
            raise TableError(f"sides: {_short(sides)} is not one of {', '.join(SIDE_MODES)}")
        hints = request.get("hints", False)
        if not isinstance(hints, bool):
            raise TableError("hints: true or false")
        seed = request.get("seed", secrets.randbelow(2 ** 31))
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2 ** 63:
            raise TableError("seed: a whole number from 0")
        two_sided = any(len(wonder.sides) > 1 for wonder in source.data.wonders)
        try:
            game = (new_game(source.data, players, seed, sides=sides) if two_sided
                    else new_game(source.data, players, seed))
        except (TypeError, RuleError) as exc:
            raise TableError(f"cannot set up the game: {exc}") from None
        seats = [Seat(kind, secrets.token_urlsafe(18) if kind == HUMAN else None)
                 for kind in kinds]
        table_id = secrets.token_urlsafe(TABLE_ID_BYTES)
        table = Table(table_id, source, game, seats, str(sides) if two_sided else None, hints,
                      time.time(), self.data_dir, self.writer)
        self.tables[table_id] = table
        table.save()
        return table

    # --- restoring ------------------------------------------------------------------

    def restore(self) -> None:
        """Every table of the data folder, replayed to where it was; a table that does not
        replay is left on disk and reported in ``restore_problems``."""
        assert self.data_dir is not None
        for path in sorted(self.data_dir.glob(f"*{META_SUFFIX}")):
            try:
                table = self._restore(path)
            except (TableError, RuleError, OSError) as exc:
                self.restore_problems.append(f"{path.name}: {exc}")
                continue
            except Exception as exc:  # a damaged record: one table must not stop the server
                self.restore_problems.append(f"{path.name}: not a table record "
                                             f"({type(exc).__name__}: {exc})")
                continue
            self.tables[table.id] = table

    def _source(self, meta: dict[str, Any]) -> GameSource:
        label = meta.get("game")
        for source in self.games.values():
            if source.spec == meta.get("spec"):
                return source
        if not isinstance(label, str):
            raise TableError("the table's game is missing")
        source = load_source(str(meta.get("spec")))
        self.games.setdefault(source.label, source)
        return source

    def _restore(self, path: Path) -> Table:
        meta = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(meta, dict):
            raise TableError("not a table record")
        table_id = str(meta["id"])
        source = self._source(meta)
        log_path = path.with_name(f"{table_id}{LOG_SUFFIX}")
        records = game_log.read(log_path)
        head = records[0]
        sides = meta.get("sides")
        game = new_game(source.data, int(head["players"]), int(head["seed"]),
                        **({} if game_log.sides_option(head) is None
                           else {"sides": game_log.sides_option(head)}))
        for record in records[1:]:
            if record.get("type") != "decision":
                continue
            actions: dict[int, Action] = {}
            for seat_text, wanted in (record.get("actions") or {}).items():
                action = find_action(game, int(seat_text), wanted)
                if action is None:
                    raise TableError(f"line {record['_line']}: seat {seat_text}'s action "
                                     "is no longer legal")
                actions[int(seat_text)] = action
            game.play(actions)
            if "coins" in record and record["coins"] != [c.coins for c in game.cities]:
                raise TableError(f"line {record['_line']}: the coins differ on replay")
        seats = [Seat(str(s["kind"]), s.get("token")) for s in meta["seats"]]
        if len(seats) != game.players or any(
                s.kind not in SEAT_KINDS or not isinstance(s.token, (str, type(None)))
                or (s.token is None) != (s.kind != HUMAN) for s in seats):
            raise TableError("the seats do not match the game")
        table = Table(table_id, source, game, seats, None if sides is None else str(sides),
                      bool(meta.get("hints")),
                      float(meta.get("created", 0.0)), self.data_dir, self.writer,
                      events=[str(e) for e in meta.get("events") or []])
        if meta.get("decision") == table.decision_number:
            for seat_text, wanted in (meta.get("pending") or {}).items():
                action = find_action(game, int(seat_text), wanted)
                if action is not None:
                    table.pending[int(seat_text)] = action
        return table

    # --- bots -----------------------------------------------------------------------

    def bot_jobs(self, table: Table) -> list[tuple[int, int, GameState, Bot]]:
        """The bot moves the open decision needs and are not under way: (seat, decision,
        a clone to choose on, the bot)."""
        jobs: list[tuple[int, int, GameState, Bot]] = []
        if table.game.over:
            return jobs
        for seat in table.waiting_for():
            kind = table.seats[seat].kind
            if kind == HUMAN or seat in table.bots_busy:
                continue
            seed = random.Random(f"{table.game.seed}:{seat}:{table.decision_number}")
            bot = bot_for(kind, seed.getrandbits(63), self.search_seconds)
            table.bots_busy.add(seat)
            jobs.append((seat, table.decision_number, table.game.clone(), bot))
        return jobs

    def hint(self, table: Table, seat: int) -> dict[str, Any]:
        """What the greedy policy would play for ``seat`` now, and its ranking (why)."""
        if not table.hints:
            raise TableError("this table was created without hints")
        game = table.game
        if seat not in table.waiting_for():
            raise TableError(f"seat {seat} has nothing to choose now")
        key = (table.id, table.decision_number, seat)
        found = self.hints.get(key)
        if found is None:   # worked out once per decision and seat, however often asked
            ranked = greedy_policy(game.data)(0).rank(game, seat, game.legal_actions(seat))
            found = {"type": "hint", "decision": table.decision_number,
                     "best": ranked[0][1].to_json() if ranked else None,
                     "ranking": [{"value": round(value, 2), "text": str(action),
                                  "json": action.to_json()} for value, action in ranked[:5]]}
            if len(self.hints) > 10_000:
                self.hints.clear()
            self.hints[key] = found
        return found


__all__ = ["BOT_KINDS", "GameSource", "HUMAN", "SEAT_KINDS", "Seat", "Table", "TableError",
           "Tables", "bot_for", "find_action", "load_source"]
