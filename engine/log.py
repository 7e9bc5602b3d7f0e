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

from wonders.dsl.loader import load

from .actions import Action
from .contract import GameState
from .errors import RuleError
from .registry import new_game
from .sources import SourceError, resolve

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

    @property
    def identical(self) -> bool:
        return self.divergence is None


class LogError(RuleError):
    """A log that cannot be read at all (not JSON Lines, no header, unknown format)."""


def read(path: Path) -> list[dict[str, Any]]:
    records = []
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LogError(f"{path}: cannot read the log: {exc}") from None
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise LogError(f"{path}:{number}: not a JSON line: {exc.msg}") from None
        if not isinstance(record, dict):
            raise LogError(f"{path}:{number}: each line must be a JSON object")
        record["_line"] = number
        records.append(record)
    if not records or records[0].get("type") != "game":
        raise LogError(f"{path}:1: a log starts with a 'game' header line")
    if records[0].get("format") != FORMAT:
        raise LogError(f"{path}:1: log format {records[0].get('format')!r}, this engine reads "
                       f"{FORMAT}")
    return records


def _find(game: GameState, seat: int, wanted: dict[str, Any]) -> Action | None:
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
        raise LogError(f"cannot load the game of the log: {exc}") from None
    if result.game is None:
        problems = "; ".join(d.render() for d in result.report.errors[:5])
        raise LogError(f"the log's game does not load: {problems}")
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
        actions: dict[int, Action] = {}
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
    return Replay(game, decisions, None, 0, changed)


def _describe(action: dict[str, Any]) -> str:
    kind = action.get("action")
    card = action.get("card", "")
    payment = action.get("payment")
    paid = f" paying {payment}" if payment and any(payment.values()) else ""
    method = action.get("method")
    how = f" ({method})" if method and method != "pay" else ""
    return f"{kind} {card}{how}{paid}".strip()


def _totals(sheet: Any) -> str:
    if not isinstance(sheet, dict):
        return "nothing (the game did not end)"
    return ", ".join(f"seat {row['seat']}: {row['total']}" for row in sheet.get("players", []))
