"""Game logs as JSON Lines, and replaying them.

A log holds everything a game is a function of: the rule set and card files
(with a content hash), the number of players, the seed, and every decision
with its actions and payments; after each decision the coins of every player
are recorded as a checkpoint.  ``replay`` plays the log again on the current
data and engine and reports the first divergence: an action that is no longer
legal, a checkpoint that differs, or a different final score sheet.

Lines: a ``game`` header, one ``decision`` per decision point, a ``result``.

The header's ``game`` is a shipped game's name or the absolute path of a rule-set
file or folder (:mod:`wonders.engine.sources`); its ``seats`` say what each seat
was dealt at set-up (a board and side; for a city without a board, the wonders
it holds before any draft), and a card-structure game adds what else set-up
deals: the wonder draft's pools and the tokens on the board.  A replay compares
all of it before the first decision.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence, TextIO

from wonders.dsl.loader import file_problem, load
from wonders.engine.contract import AnyAction, GameState
from wonders.engine.errors import RuleError
from wonders.engine.registry import new_game
from wonders.engine.sources import SourceError, resolve

# a table's wonder sides: None (the rule set's way), one mode for all, or one per seat
Sides = str | Sequence[str] | None

FORMAT = 1


def header(game: GameState, source: str | None, paths: Sequence[str] = (),
           side: Sides = None) -> dict[str, Any]:
    """The first line; ``side`` is the ``sides`` option the game was set up with (None:
    the rule set's way; one mode for every seat; or one per seat), recorded as
    ``sides`` because it decides what set-up draws from the generator."""
    record: dict[str, Any] = {
        "type": "game",
        "format": FORMAT,
        "game": source,
        "paths": [str(p) for p in paths],
        "rule_set": game.data.rules.name,
        "card_sets": list(game.data.sets),
        "content_hash": game.data.content_hash,
        "players": game.players,
        "seed": game.seed,
        **game.setup_record(),
    }
    record["sides"] = side if side is None or isinstance(side, str) else list(side)
    return record


def sides_option(head: dict[str, Any]) -> Sides:
    """The ``sides`` option of a logged game.  Logs before per-seat sides wrote ``side``
    only when it was not ``random``, their default."""
    if "sides" in head:
        value = head["sides"]
        if value is None or isinstance(value, str):
            return value
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return tuple(value)
        raise ValueError(f"'sides' is {value!r}: a side, or a list of one per seat")
    return str(head.get("side") or "random")


def lines(game: GameState, source: str | None, paths: Sequence[str] = (),
          side: Sides = None) -> list[dict[str, Any]]:
    """The whole log of a game (finished or not) as a list of JSON-ready records."""
    records = [header(game, source, paths, side)]
    for entry in game.history:
        records.append({"type": "decision", **entry})
    if game.over:
        records.append({"type": "result", "score_sheet": game.score_sheet().to_json()})
    return records


def write(game: GameState, path: Path | TextIO, source: str | None, paths: Sequence[str] = (),
          side: Sides = None) -> None:
    """Write the log to a file (a path, or an open text handle)."""
    if not isinstance(path, (str, Path)):
        for record in lines(game, source, paths, side):
            path.write(json.dumps(record, separators=(",", ":")) + "\n")
        return
    with open(path, "w", encoding="utf-8") as handle:
        write(game, handle, source, paths, side)


@dataclass
class Replay:
    """The outcome of a replay: identical, or where it first went another way."""

    game: GameState | None
    decisions: int
    divergence: str | None = None
    line: int = 0
    data_changed: bool = False
    # no divergence, but the log ends (at ``line``) before the game does, with no result
    # line: a log truncated mid-game, or one written of a game still going on
    unfinished: bool = False

    @property
    def identical(self) -> bool:
        """Every logged decision replays the same (an unfinished log can be identical)."""
        return self.divergence is None


class LogError(RuleError):
    """A log that cannot be read at all (not JSON Lines, no header, unknown format), or a
    record of the wrong shape: ``path:line: field: problem``."""


# Bounds of what a log may hold: far beyond any game (a log line is a few hundred bytes,
# nested four levels), so a hostile log is refused before it costs memory or recursion.
MAX_LOG_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 16
RECORD_TYPES = ("game", "decision", "result")


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in ``value`` (without recursion)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            depth += 1
            deepest = max(deepest, depth)
            if depth > MAX_DEPTH:
                return depth
            stack.extend((child, depth) for child in
                         (item.values() if isinstance(item, dict) else item))
    return deepest


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _header_problem(record: dict[str, Any]) -> str | None:
    """What is wrong with the shape of the header line, as ``field: problem``."""
    if record.get("format") != FORMAT:
        return f"format: log format {record.get('format')!r}, this engine reads {FORMAT}"
    game = record.get("game")
    if game is not None and not (isinstance(game, str) and game):
        return f"game: {game!r} is not a shipped game's name or a path"
    paths = record.get("paths", [])
    if paths is not None and not (isinstance(paths, list)
                                  and all(isinstance(p, str) and p for p in paths)):
        return "paths: a list of file or folder paths"
    for field in ("players", "seed"):
        if not _is_int(record.get(field)):
            return f"{field}: {record.get(field)!r} is not a whole number"
    if not 1 <= record["players"] <= 100:
        return f"players: {record['players']} is not a number of players"
    try:
        sides_option(record)
    except ValueError as exc:
        return f"sides: {exc}"
    if "content_hash" in record and not isinstance(record["content_hash"], str):
        return "content_hash: a text"
    return None


def _decision_problem(record: dict[str, Any], players: int) -> str | None:
    actions = record.get("actions")
    if not isinstance(actions, dict) or not actions:
        return f"actions: {_short(actions)} is not an object of seats and their actions"
    for seat, action in actions.items():
        # (a length bound first: int() of thousands of digits raises ValueError)
        if not (seat.isascii() and seat.isdigit() and len(seat) <= 9 and int(seat) < players):
            return f"actions: seat {_short(seat)} is not a seat (0 to {players - 1})"
        if not isinstance(action, dict):
            return f"actions.{seat}: {_short(action)} is not an action object"
    coins = record.get("coins")
    if "coins" in record and not (isinstance(coins, list) and all(_is_int(c) for c in coins)):
        return f"coins: {_short(coins)} is not a list of coin counts"
    return None


def _result_problem(record: dict[str, Any]) -> str | None:
    sheet = record.get("score_sheet")
    rows = sheet.get("players") if isinstance(sheet, dict) else None
    if not (isinstance(rows, list) and all(isinstance(r, dict) and "seat" in r and "total" in r
                                           for r in rows)):
        return f"score_sheet: {_short(sheet)} is not a score sheet"
    return None


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def read(path: Path) -> list[dict[str, Any]]:
    """The records of a log, each checked for its shape; :class:`LogError` locates the
    first problem as ``path:line: field: problem``."""
    refused = file_problem(path)
    if refused is not None:
        raise LogError(f"{path}: cannot read the log: {refused}")
    try:
        if path.stat().st_size > MAX_LOG_BYTES:
            raise LogError(f"{path}: the log is larger than {MAX_LOG_BYTES // 1048576} MB")
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LogError(f"{path}: cannot read the log: {exc}") from None
    records: list[dict[str, Any]] = []
    players = 0
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        where = f"{path}:{number}"
        try:
            record = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise LogError(f"{where}: not a JSON line: {exc.msg}") from None
        except (ValueError, RecursionError) as exc:  # a number of 4,300+ digits; deep nesting
            raise LogError(f"{where}: not a JSON line the engine reads: "
                           f"{str(exc).splitlines()[0][:80]}") from None
        if not isinstance(record, dict):
            raise LogError(f"{where}: each line must be a JSON object")
        if _depth(record) > MAX_DEPTH:
            raise LogError(f"{where}: values nest more than {MAX_DEPTH} levels deep")
        kind = record.get("type")
        if not records:
            if kind != "game":
                raise LogError(f"{where}: a log starts with a 'game' header line")
            problem = _header_problem(record)
            players = record.get("players", 0)
        elif kind not in RECORD_TYPES or kind == "game":
            problem = (f"type: {_short(kind)} is not a record type (decision, result)" if
                       kind != "game" else "type: a second 'game' header")
        elif kind == "decision":
            problem = _decision_problem(record, players)
        else:
            problem = _result_problem(record)
        if problem is not None:
            raise LogError(f"{where}: {problem}")
        record["_line"] = number
        records.append(record)
    if not records:
        raise LogError(f"{path}:1: a log starts with a 'game' header line")
    return records


def _find(game: GameState, seat: int, wanted: dict[str, Any]) -> AnyAction | None:
    for action in game.legal_actions(seat):
        if action.to_json() == wanted:
            return action
    return None


def replay(path: Path) -> Replay:
    """Replay a log on the current data and engine; never raises for a divergent log."""
    records = read(path)
    head = records[0]
    extra = [str(p) for p in head.get("paths") or []]
    spec = head.get("game")
    try:
        if isinstance(spec, str):
            result = resolve(spec).load(extra)
        else:
            result = load(extra, None)
    except SourceError as exc:
        raise LogError(f"{path}:1: the log's game: {exc}") from None
    except Exception as exc:  # pragma: no cover - load itself never raises for data
        raise LogError(f"{path}:1: game: cannot load the game of the log: {exc}") from None
    if result.game is None:
        problems = "; ".join(d.render() for d in result.report.errors[:5])
        raise LogError(f"{path}:1: game: the log's game does not load: {problems}")
    data = result.game
    changed = data.content_hash != head.get("content_hash")
    try:
        sides = sides_option(head)
        options = {} if sides is None else {"sides": sides}
        game = new_game(data, int(head["players"]), int(head["seed"]), **options)
    except (KeyError, ValueError, TypeError, RuleError) as exc:
        raise LogError(f"{path}:1: cannot set up the logged game: {exc}") from None
    for key, dealt in game.setup_record().items():
        if dealt != head.get(key):
            return Replay(game, 0, f"the setup differs: the log's {key} are {head.get(key)}, "
                          f"this engine deals {dealt}", 1, changed)
    decisions = 0
    for record in records[1:]:
        line = record["_line"]
        if record.get("type") == "result":
            sheet = game.score_sheet().to_json() if game.over else None
            if sheet != record.get("score_sheet"):
                return Replay(game, decisions, "the final score sheet differs: the log has "
                              f"{_totals(record.get('score_sheet'))}, the replay "
                              f"{_totals(sheet)}", line, changed)
            continue
        if record.get("type") != "decision":
            continue
        where = f"age {record.get('age')}, turn {record.get('turn')} ({record.get('phase')})"
        if game.over:
            return Replay(game, decisions, f"{where}: the game is already over", line, changed)
        actions: dict[int, AnyAction] = {}
        for seat_text, wanted in (record.get("actions") or {}).items():
            seat = int(seat_text)
            action = _find(game, seat, wanted)
            if action is None:
                return Replay(game, decisions, f"{where}: seat {seat}'s logged action "
                              f"{_describe(wanted)} is not legal now", line, changed)
            actions[seat] = action
        try:
            game.play(actions)
        except RuleError as exc:
            return Replay(game, decisions, f"{where}: {exc}", line, changed)
        decisions += 1
        coins = [city.coins for city in game.cities]
        if "coins" in record and record["coins"] != coins:
            return Replay(game, decisions, f"{where}: after this decision the coins are "
                          f"{coins}, the log has {record['coins']}", line, changed)
    outcome = Replay(game, decisions, None, 0, changed)
    if not game.over and not any(r.get("type") == "result" for r in records):
        outcome.unfinished = True  # truncated, or written while the game was still going on
        outcome.line = records[-1]["_line"]
    return outcome


def _describe(action: dict[str, Any]) -> str:
    kind = action.get("action")
    card = action.get("card", "")
    payment = action.get("payment")
    shown = _plain(payment) if isinstance(payment, str) else payment
    paid = (f" paying {shown}" if payment and (not isinstance(payment, dict)
                                               or any(payment.values())) else "")
    method = action.get("method")
    how = f" ({method})" if method and method != "pay" else ""
    return f"{_plain(kind)} {_plain(card)}{how}{paid}".strip()


def _plain(value: Any) -> str:
    """A logged value in a message: text as it is, anything else as its short repr."""
    return value[:60] if isinstance(value, str) else _short(value)


def _totals(sheet: Any) -> str:
    if not isinstance(sheet, dict):
        return "nothing (the game did not end)"
    rows = sheet.get("players")
    return ", ".join(f"seat {row.get('seat')}: {row.get('total')}" for row in
                     (rows if isinstance(rows, list) else []) if isinstance(row, dict))
