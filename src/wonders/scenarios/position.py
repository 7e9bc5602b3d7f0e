"""Positions as text: any game written on one line and read back to the very same state.

A game is a function of its data, players, seed, set-up options and decisions, so a
position names the first four and lists the decisions played so far, each in the action
notation (``docs/engine.md``, "Action notation").  Reading it sets the game up and plays
those decisions: the state read is the state written, the cards still hidden and the
generator's future deals included.  (A picture of the table alone could not hold that
future: this engine draws its shuffles during play, from the game's own generator.)

Version 1, one line (``docs/positions.md``)::

    wonders/1 duel players=2 seed=7 | 0 choose <a wonder> | 1 choose <another wonder> | …

The game is a shipped name or a rule-set path (quoted as a shell would when it holds
spaces); ``players`` and ``seed`` are always written, ``sides`` when the game was set up
with one, ``load`` for extra card files.  Each decision after a ``|`` gives, for every
seat that decided it, the seat and its action; a simultaneous decision lists its seats
in order, separated by ``;``.  A ``|``, ``;`` or ``\\`` inside a name is written ``\\|``,
``\\;``, ``\\\\``.  Line breaks around the ``|`` are spaces: the same position may be
written one decision a line.

The YAML form is a scenario file (``wonders check`` runs it) whose one scenario's
``position:`` is that text, one decision a line (:func:`write_yaml`, :func:`read_yaml`).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import yaml

from wonders.engine.contract import GameState
from wonders.engine.errors import RuleError
from wonders.engine.notation import NotationError, notation, parse_action
from wonders.engine.registry import new_game
from wonders.engine.sources import SourceError, resolve

VERSION = "wonders/1"
_SPLIT = {"|": re.compile(r"(?<!\\)(?:\\\\)*\|"), ";": re.compile(r"(?<!\\)(?:\\\\)*;")}


class PositionError(RuleError):
    """A position text that cannot be read: the message says where and why."""


@dataclass(frozen=True)
class Header:
    """What a position's game is a function of, besides its decisions."""

    game: str
    players: int
    seed: int
    sides: str | tuple[str, ...] | None = None
    load: tuple[str, ...] = ()


def write(game: GameState, spec: str, load: Sequence[str] = (),
          sides: str | Sequence[str] | None = None, decisions: int | None = None) -> str:
    """``game`` as a position (after its first ``decisions`` decisions when given):
    ``spec`` names its data (what ``--game`` takes), ``load`` any extra card files,
    ``sides`` the set-up option it was made with."""
    return " | ".join(_fields(game, spec, load, sides, decisions))


def write_yaml(game: GameState, spec: str, load: Sequence[str] = (),
               sides: str | Sequence[str] | None = None, decisions: int | None = None,
               name: str | None = None, source: str | None = None) -> str:
    """``game`` as a scenario file whose scenario starts from its position (the arguments
    of :func:`write`), one decision a line, and expects whose move it is there: ``wonders
    check`` runs it as it is, and expectations may be added to it.  ``name`` and
    ``source`` are the scenario's (by default: the decision it is after)."""
    fields = _fields(game, spec, load, sides, decisions)
    after = len(fields) - 1
    again = read(" | ".join(fields))
    scenario: dict[str, Any] = {
        "name": name or f"the position after {after} decision{'s' if after != 1 else ''}",
        **({"source": source} if source else {}),
        "position": "\n| ".join(fields),
        "expect": [{"to_move": sorted(again.to_move())}],
    }
    document = {"kind": "scenarios", "game": spec, "scenarios": [scenario]}
    return yaml.dump(document, Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                     width=100)


def read_yaml(text: str, scenario: int | str = 0) -> GameState:
    """The game of a position in YAML: a scenario file (its scenario ``scenario``, by
    number from 0 or by name), one scenario, or a mapping with a ``position:`` text."""
    try:
        data = yaml.safe_load(text) if isinstance(text, str) else None
    except yaml.YAMLError as exc:
        raise PositionError(f"the position's YAML does not read: {exc}") from None
    if isinstance(data, dict) and isinstance(data.get("scenarios"), list):
        chosen = data["scenarios"]
        names = [s.get("name") for s in chosen if isinstance(s, dict)]
        if isinstance(scenario, str):
            if scenario not in names:
                raise PositionError(f"no scenario named '{scenario}' (scenarios: "
                                    f"{', '.join(map(str, names))})")
            data = chosen[names.index(scenario)]
        elif isinstance(scenario, int) and not isinstance(scenario, bool) \
                and 0 <= scenario < len(chosen):
            data = chosen[scenario]
        else:
            raise PositionError(f"no scenario {scenario!r}: the file has {len(chosen)} "
                                f"(0 to {len(chosen) - 1})")
    written = data.get("position") if isinstance(data, dict) else None
    if isinstance(written, dict):
        raise PositionError("this position is drawn as a map (a rulebook example), which "
                            "'wonders check' sets up; read_yaml reads a position written as "
                            "text ('position: wonders/1 …', as 'wonders position LOG --format "
                            "yaml' writes it)")
    if not isinstance(written, str):
        raise PositionError("the YAML has no 'position:' text (a scenario file, a scenario, "
                            "or a mapping with 'position: wonders/1 …')")
    return read(written)


class _Dumper(yaml.SafeDumper):
    """YAML as people write it: a text of several lines as a literal block."""


def _text(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    return dumper.represent_scalar("tag:yaml.org,2002:str", text,
                                   style="|" if "\n" in text else None)


def _list(dumper: yaml.SafeDumper, items: list[Any]) -> yaml.SequenceNode:
    flat = all(not isinstance(item, (list, dict)) for item in items)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", items, flow_style=flat)


_Dumper.add_representer(str, _text)
_Dumper.add_representer(list, _list)


def _fields(game: GameState, spec: str, load: Sequence[str],
            sides: str | Sequence[str] | None, decisions: int | None) -> list[str]:
    """The header, then each decision: the fields of a position."""
    header = Header(spec, game.players, game.seed,
                    sides if sides is None or isinstance(sides, str) else tuple(sides),
                    tuple(load))
    history = game.history if decisions is None else game.history[:max(decisions, 0)]
    return [_header_text(header), *(_decision(record) for record in _replayed(history, header))]


def read(text: str) -> GameState:
    """The game a position writes, set up and played to its last decision."""
    header, decisions = parse(text)
    game = _set_up(header)
    for number, decision in enumerate(decisions, start=1):
        if game.over:
            raise PositionError(f"decision {number}: the game is already over")
        moves: dict[int, Any] = {}
        for seat, written in decision:
            try:
                moves[seat] = parse_action(game, seat, written)
            except NotationError as exc:
                raise PositionError(f"decision {number}: {exc}") from None
        try:
            game.play(moves)
        except RuleError as exc:
            raise PositionError(f"decision {number}: {exc}") from None
    return game


def parse(text: str) -> tuple[Header, list[list[tuple[int, str]]]]:
    """A position's header and its decisions (each a list of (seat, notation))."""
    if not isinstance(text, str) or not text.strip():
        raise PositionError(f"a position is a line starting with '{VERSION}'")
    parts = _split(text.strip(), "|")
    header = _read_header(parts[0].strip())
    decisions = []
    for number, part in enumerate(parts[1:], start=1):
        moves = []
        for move in _split(part, ";"):
            seat_text, _, written = move.strip().partition(" ")
            if not seat_text.isdigit() or not written.strip():
                raise PositionError(f"decision {number}: '{move.strip()}' is not a seat "
                                    "number and an action (e.g. '0 sell <card>')")
            moves.append((int(seat_text), _unescape(written.strip())))
        decisions.append(moves)
    return header, decisions


def _read_header(text: str) -> Header:
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise PositionError(f"the position's header: {exc}") from None
    if not words or words[0] != VERSION:
        raise PositionError(f"a position starts with '{VERSION}', not "
                            f"'{words[0] if words else text}'")
    if len(words) < 2:
        raise PositionError("the position names no game")
    options: dict[str, str] = {}
    for word in words[2:]:
        key, equals, value = word.partition("=")
        if not equals or key not in ("players", "seed", "sides", "load"):
            raise PositionError(f"'{word}' in the position's header: expected players=N, "
                                "seed=N, sides=… or load=…")
        options[key] = value
    try:
        players, seed = int(options["players"]), int(options["seed"])
    except KeyError as exc:
        raise PositionError(f"the position's header has no {exc.args[0]}=") from None
    except ValueError:
        raise PositionError("players= and seed= take whole numbers") from None
    sides: str | tuple[str, ...] | None = options.get("sides")
    if isinstance(sides, str) and "," in sides:
        sides = tuple(sides.split(","))
    load = tuple(options["load"].split(",")) if options.get("load") else ()
    return Header(words[1], players, seed, sides, load)


def _header_text(header: Header) -> str:
    words = [VERSION, shlex.quote(header.game), f"players={header.players}",
             f"seed={header.seed}"]
    if header.sides is not None:
        sides = header.sides if isinstance(header.sides, str) else ",".join(header.sides)
        words.append(f"sides={shlex.quote(sides)}")
    if header.load:
        words.append("load=" + shlex.quote(",".join(header.load)))
    return " ".join(words)


def _set_up(header: Header) -> GameState:
    try:
        result = resolve(header.game).load(list(header.load))
    except SourceError as exc:
        raise PositionError(f"the position's game: {exc}") from None
    if result.game is None:
        problems = "; ".join(d.render() for d in result.report.errors[:3])
        raise PositionError(f"the position's game does not load: {problems}")
    options: dict[str, Any] = {} if header.sides is None else {"sides": header.sides}
    try:
        return new_game(result.game, header.players, header.seed, **options)
    except (RuleError, TypeError, ValueError) as exc:
        raise PositionError(f"cannot set up the position's game: {exc}") from None


def _replayed(history: Sequence[Mapping[str, Any]], header: Header) -> list[dict[int, Any]]:
    """The actions of each decision of ``history``, as objects of a replay of the game
    (history records hold their JSON form)."""
    again = _set_up(header)
    played: list[dict[int, Any]] = []
    for record in history:
        wanted: Mapping[str, Any] = record.get("actions") or {}
        moves: dict[int, Any] = {}
        for seat_text, json_form in wanted.items():
            seat = int(seat_text)
            found = next((a for a in again.legal_actions(seat) if a.to_json() == json_form),
                         None)
            if found is None:
                raise PositionError(f"decision {len(played) + 1}: seat {seat}'s action does "
                                    "not replay on this game's data and set-up")
            moves[seat] = found
        again.play(moves)
        played.append(moves)
    return played


def _decision(moves: Mapping[int, Any]) -> str:
    return " ; ".join(f"{seat} {_escape(notation(action))}" for seat, action in
                      sorted(moves.items()))


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace(";", "\\;")


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def _split(text: str, separator: str) -> list[str]:
    """``text`` cut at each unescaped ``separator``."""
    pieces, start = [], 0
    for found in _SPLIT[separator].finditer(text):
        end = found.end() - 1
        pieces.append(text[start:end])
        start = found.end()
    pieces.append(text[start:])
    return pieces


__all__ = ["Header", "PositionError", "VERSION", "parse", "read", "read_yaml", "write",
           "write_yaml"]
