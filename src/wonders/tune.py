"""Search the numbers a designer marks as tunable for values that meet a target.

A *tune spec* (YAML, ``kind: tune``) names a game, the numbers to tune (a rule
parameter, a number in a card's or wonder's text, or any number of a data file),
their candidate values, a target on one statistic of :mod:`wonders.simulate`
(a seat's or a bot's win rate, a card's lift or build rate, a victory type's
share, an average score) and a budget of games.  Each candidate is played as an
in-memory overlay of the data files (:data:`wonders.simulate.Overlay`: the
user's files are never written) on the same seeds as every other candidate
(common random numbers), through :func:`wonders.simulate.run_games`.

Search methods (``docs/simulate.md``, "Tuning"):

* ``bisect`` (one tunable whose statistic moves one way with it): both ends,
  then halve the bracket that holds the target, then *confirm* the finalists by
  doubling their games until their 95 % intervals settle or the budget ends
  (walking the bracket on when the confirmed figures no longer hold the target);
* ``halving`` (successive halving, any number of tunables): every candidate of
  the grid on ``games`` games, keep the better half, double the games, again;
* ``grid``: every candidate on ``games`` games, nothing dropped.

A search is a function of the spec and the seed: the same spec gives the same
evaluations, the same figures and the same answer, for any number of workers.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any, Callable, Final, Iterable, Sequence

from wonders.dsl.errors import DataError, Diagnostic, Location, closest
from wonders.dsl.loader import display_name, find_parent, kind_of
from wonders.dsl.source import Document, PathKey, load_file

# --- the spec's shape --------------------------------------------------------------------

METRICS: Final = {
    # metric: (the keys it needs, the keys it may take, unit)
    "seat_win_rate": (("seat",), (), "%"),
    "bot_win_rate": (("bot",), (), "%"),
    "victory_share": (("victory",), (), "%"),
    "card_lift": (("card",), (), "pp"),
    "card_build_rate": (("card",), ("per",), "%"),
    "card_win_rate": (("card",), (), "%"),
    "wonder_win_rate": (("wonder",), ("side",), "%"),
    "average_points": ((), ("category",), "points"),
}
METHODS: Final = ("bisect", "halving", "grid")
MAX_CANDIDATES: Final = 1000  # values of one tunable
MAX_GRID: Final = 256         # candidates of a grid (each is loaded and kept in memory)

_NUMBER = {"type": "number"}
_PATH = {"anyOf": [{"type": "string", "minLength": 1},
                   {"type": "array", "minItems": 1,
                    "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}],
         "errorMessage": "a path is written 'military.supremacy' or as a list of keys"}

SCHEMA: Final[dict[str, Any]] = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "title": "wonders tune spec",
    "type": "object",
    "additionalProperties": False,
    "required": ["kind", "game", "tune", "target"],
    "properties": {
        "kind": {"enum": ["tune"]},
        "game": {"type": "string", "minLength": 1},
        "paths": {"type": "array", "items": {"type": "string", "minLength": 1}},
        "players": {"type": "integer", "minimum": 1, "maximum": 20},
        "bots": {"anyOf": [{"type": "string", "minLength": 1},
                           {"type": "array", "minItems": 1,
                            "items": {"type": "string", "minLength": 1}}],
                 "errorMessage": "bots are a name, 'a,b,c' or a list of names"},
        "side": {"type": "string", "minLength": 1},
        "seed": {"type": "integer", "minimum": 0, "maximum": 2 ** 40},
        "note": {"type": "string"},
        "tune": {
            "type": "array", "minItems": 1, "maxItems": 8,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "name": {"type": "string", "minLength": 1},
                    "rule": _PATH,
                    "card": {"type": "string", "minLength": 1},
                    "wonder": {"type": "string", "minLength": 1},
                    "field": _PATH,
                    "file": {"type": "string", "minLength": 1},
                    "path": _PATH,
                    "number": {"type": "integer", "minimum": 1, "maximum": 99},
                    "values": {"type": "array", "minItems": 1, "maxItems": MAX_CANDIDATES,
                               "items": _NUMBER, "uniqueItems": True},
                    "range": {
                        "type": "object", "additionalProperties": False,
                        "required": ["min", "max"],
                        "properties": {"min": _NUMBER, "max": _NUMBER,
                                       "step": {"type": "number", "exclusiveMinimum": 0}},
                    },
                },
            },
        },
        "target": {
            "type": "object",
            "additionalProperties": False,
            "required": ["metric", "value", "within"],
            "properties": {
                "metric": {"enum": list(METRICS)},
                "seat": {"type": "integer", "minimum": 0, "maximum": 19},
                "bot": {"type": "string", "minLength": 1},
                "victory": {"type": "string", "minLength": 1},
                "card": {"type": "string", "minLength": 1},
                "per": {"enum": ["seat", "game", "copy"]},
                "wonder": {"type": "string", "minLength": 1},
                "side": {"type": "string", "minLength": 1},
                "category": {"type": "string", "minLength": 1},
                "value": _NUMBER,
                "within": {"type": "number", "exclusiveMinimum": 0},
            },
        },
        "search": {"enum": list(METHODS)},
        "budget": {
            "type": "object", "additionalProperties": False,
            "properties": {
                "games": {"type": "integer", "minimum": 1, "maximum": 10 ** 7},
                "max_games": {"type": "integer", "minimum": 1, "maximum": 10 ** 9},
            },
        },
    },
}

DEFAULT_GAMES: Final = 200
DEFAULT_MAX_GAMES: Final = 4000
DEFAULT_PLAYERS: Final = 4  # as simulate: when the rule set allows it


class SpecError(Exception):
    """A tune spec that cannot be run: every problem found, located in its file."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = diagnostics
        super().__init__("\n".join(d.render() for d in diagnostics))


# --- where a tunable number is ----------------------------------------------------------

@dataclass(frozen=True)
class Site:
    """One tunable number: the file it is in, its place in the text, and its value now."""

    label: str          # how the report names it ("military.supremacy", "Archive effect #1")
    file: Path          # resolved
    path: PathKey       # the YAML value holding it
    start: int          # its characters in the file's text: [start, end)
    end: int
    current: float
    values: tuple[float, ...]  # the candidates, ascending
    where: Location     # the spec entry (for errors found while searching)


@dataclass(frozen=True)
class Target:
    metric: str
    options: dict[str, Any]
    value: float
    within: float
    unit: str

    @property
    def low(self) -> float:
        return self.value - self.within

    @property
    def high(self) -> float:
        return self.value + self.within

    def describe(self) -> str:
        what = ", ".join(f"{k} {v}" for k, v in self.options.items())
        unit = {"%": " %", "pp": " points", "points": " points"}[self.unit]
        return (f"{self.metric}{' (' + what + ')' if what else ''} within "
                f"{_fmt(self.value)} ± {_fmt(self.within)}{unit}")


@dataclass
class Spec:
    """A checked tune spec, ready to search."""

    file: str
    game: str            # the resolved game (what Run.game takes)
    given_game: str
    paths: tuple[str, ...]
    players: int
    bots: tuple[str, ...]
    side: str | tuple[str, ...] | None
    seed: int
    sites: list[Site]
    target: Target
    method: str
    games: int
    max_games: int
    texts: dict[Path, str]  # the saved text of each file a tunable is in
    title: str = ""


# --- reading and checking a spec -----------------------------------------------------------

def _schema_problems(doc: Document) -> list[Diagnostic]:
    """The spec's shape errors, in the words and codes of the data files' (S101–S106)."""
    import jsonschema

    # read-only use of the data files' translation of schema errors into diagnostics
    from wonders.dsl.schema import _diagnostics, _leaf_errors

    found: list[Diagnostic] = []
    seen: set[tuple[str, Location, str]] = set()
    for error in jsonschema.Draft7Validator(SCHEMA).iter_errors(doc.data):
        for leaf in _leaf_errors(error):
            for diagnostic in _diagnostics(leaf, doc):
                key = (diagnostic.code, diagnostic.location, diagnostic.message)
                if key not in seen:
                    seen.add(key)
                    found.append(diagnostic)
    return found


def _key_path(value: Any) -> PathKey:
    """'military.supremacy' or ['cards', 0, 'effect'] as a path (digits are list indexes)."""
    parts: list[Any] = value.split(".") if isinstance(value, str) else list(value)
    return tuple(int(p) if isinstance(p, str) and p.isdigit() else p for p in parts)


def _dotted(path: PathKey) -> str:
    return ".".join(str(p) for p in path)


def _all_paths(data: Any, prefix: PathKey = ()) -> list[PathKey]:
    """Every path to a number or a text in ``data`` (for "did you mean")."""
    if isinstance(data, dict):
        return [p for k, v in data.items() for p in _all_paths(v, prefix + (k,))]
    if isinstance(data, list):
        return [p for i, v in enumerate(data) for p in _all_paths(v, prefix + (i,))]
    return [prefix] if isinstance(data, (int, float, str)) and not isinstance(data, bool) else []


_DIGITS = re.compile(r"(?<![A-Za-z0-9_.])\d+(?:\.\d+)?(?![A-Za-z0-9_.])")


def _fmt(value: float) -> str:
    """A number as a data file writes it: 7, not 7.0; 1.5 as 1.5."""
    if float(value).is_integer():
        return str(int(value))
    return format(Decimal(repr(float(value))).normalize(), "f")


def _candidates(entry: dict[str, Any], doc: Document, at: PathKey,
                problems: list[Diagnostic]) -> tuple[float, ...]:
    values = entry.get("values")
    if values is not None:
        return tuple(sorted(float(v) for v in values))
    spread = entry.get("range")
    if not isinstance(spread, dict):
        problems.append(Diagnostic("U004", "give the candidate values: 'values: [...]' or "
                                   "'range: {min: A, max: B, step: S}'", doc.location(at)))
        return ()
    low, high = float(spread["min"]), float(spread["max"])
    step = float(spread.get("step", 1))
    if low > high:
        problems.append(Diagnostic("U004", f"the range's min ({_fmt(low)}) is above its max "
                                   f"({_fmt(high)})", doc.location(at + ("range", "min"))))
        return ()
    count = int(math.floor((high - low) / step + 1e-9)) + 1
    if count > MAX_CANDIDATES:
        problems.append(Diagnostic("U004", f"the range holds {count} values; at most "
                                   f"{MAX_CANDIDATES}: take a larger step",
                                   doc.location(at + ("range",))))
        return ()
    # Decimal steps: 0.1 * 3 is 0.3, not 0.30000000000000004
    first, size = Decimal(repr(low)), Decimal(repr(step))
    return tuple(float(first + size * i) for i in range(count))


def _rule_files(data_files: Sequence[Path]) -> list[Path]:
    """The rule-set files of a loaded game: its own, then each one it extends (depth
    first, in the order written), each once."""
    start = [f for f in data_files if kind_of(f) == "rules"]
    order: list[Path] = []

    def visit(path: Path, depth: int) -> None:
        resolved = path.resolve()
        if resolved in order or depth > 64:
            return
        order.append(resolved)
        doc, _ = load_file(resolved)
        written = doc.data.get("extends") if doc is not None and isinstance(doc.data, dict) \
            else None
        for target in [written] if isinstance(written, str) else (
                written if isinstance(written, list) else []):
            if isinstance(target, str):
                found = find_parent(target, resolved.parent)
                if not isinstance(found, str):
                    visit(found[0], depth + 1)

    for path in start[:1]:  # the game's rule set (a second one is the loader's L703)
        visit(path, 0)
    return order


def _site(entry: dict[str, Any], at: PathKey, doc: Document, spec_dir: Path,
          rule_files: list[Path], data_files: list[Path], texts: dict[Path, str],
          problems: list[Diagnostic]) -> Site | None:
    """Where one ``tune:`` entry's number is; None (a problem added) when it is not found."""
    where = doc.location(at)
    # 'file:' names the file on its own, or says which file's card or wonder is meant
    kinds: list[str] = [k for k in ("rule", "card", "wonder") if k in entry] or (
        ["file"] if "file" in entry else [])
    if len(kinds) != 1 or (kinds == ["rule"] and "file" in entry):
        kinds += ["file"] if "file" in entry and "file" not in kinds else []
        problems.append(Diagnostic(
            "U002", "say which number to tune with one of 'rule:', 'card:', 'wonder:' or "
            "'file:' (with 'path:')" + (f", not {' and '.join(kinds)}" if kinds else ""),
            where))
        return None
    kind = kinds[0]
    if kind == "file" and "path" not in entry:
        problems.append(Diagnostic("U002", "'file:' needs 'path:', the value's keys in the "
                                   "file ('cards.0.effect')", doc.location(at + ("file",))))
        return None
    if kind != "file" and "path" in entry:
        problems.append(Diagnostic("U002", f"'path:' goes with 'file:'; with '{kind}:' give "
                                   "'field:'" if kind != "rule" else
                                   "'path:' goes with 'file:'; with 'rule:' the rule's keys "
                                   "are the path", doc.location(at + ("path",), key=True)))
        return None
    if kind != "card" and kind != "wonder" and "field" in entry:
        problems.append(Diagnostic("U002", "'field:' goes with 'card:' or 'wonder:'",
                                   doc.location(at + ("field",), key=True)))
        return None

    file: Path | None = None
    path: PathKey = ()
    if kind == "rule":
        path = _key_path(entry["rule"])
        for candidate in rule_files:
            rules_doc, _ = load_file(candidate)
            if rules_doc is not None and rules_doc.get(path) is not None:
                file = candidate
                break
        if file is None:
            known = sorted({_dotted(p) for f in rule_files
                            for d in [load_file(f)[0]] if d is not None
                            for p in _all_paths(d.data) if p and p[0] not in ("kind", "name",
                                                                               "vocabulary")})
            problems.append(Diagnostic(
                "U003", f"no rule parameter '{_dotted(path)}' in the rule set"
                + (" or the rule sets it extends" if len(rule_files) > 1 else ""),
                doc.location(at + ("rule",)), text=_dotted(path),
                suggestion=closest(_dotted(path), known)))
            return None
    elif kind in ("card", "wonder"):
        name = entry[kind]
        plural = kind + "s"
        found: list[tuple[Path, int]] = []
        known_names: list[str] = []
        for candidate in data_files:
            data_doc, _ = load_file(candidate)
            if data_doc is None or not isinstance(data_doc.data, dict):
                continue
            items = data_doc.data.get(plural)
            if not isinstance(items, list):
                continue
            for i, item in enumerate(items):
                if isinstance(item, dict) and isinstance(item.get("name"), str):
                    known_names.append(item["name"])
                    if item["name"] == name:
                        found.append((candidate, i))
        if "file" in entry:
            wanted = (spec_dir / entry["file"]).resolve()
            found = [f for f in found if f[0] == wanted]
        if not found:
            problems.append(Diagnostic("U003", f"no {kind} '{name}' in the game's files",
                                       doc.location(at + (kind,)), text=str(name),
                                       suggestion=closest(str(name), known_names)))
            return None
        if len(found) > 1:
            shown = ", ".join(display_name(f) for f, _ in found)
            problems.append(Diagnostic("U003", f"the {kind} '{name}' is defined in "
                                       f"{len(found)} places ({shown}): say which with "
                                       "'file:'", doc.location(at + (kind,)), text=str(name)))
            return None
        file, index = found[0]
        default = ("effect",) if kind == "card" else ()
        inner = _key_path(entry["field"]) if "field" in entry else default
        if not inner:
            problems.append(Diagnostic("U002", "a wonder's number needs 'field:', e.g. "
                                       "'sides.A.stages.0.effect'", where))
            return None
        path = (plural, index) + inner
    else:
        file = (spec_dir / entry["file"]).resolve()
        path = _key_path(entry["path"])
        if not file.is_file():
            problems.append(Diagnostic("U001", f"no such file: {entry['file']}",
                                       doc.location(at + ("file",)), text=entry["file"]))
            return None
        if file not in data_files and file not in rule_files:
            problems.append(Diagnostic(
                "U001", f"{entry['file']} is not one of the game's files (the game, its "
                "parents and 'paths:'): tuning it would change nothing",
                doc.location(at + ("file",)), text=entry["file"]))
            return None

    data_doc, _ = load_file(file)
    assert data_doc is not None  # the game loaded, and this file with it
    texts[file] = data_doc.source.text
    value = data_doc.get(path)
    label = str(entry.get("name") or (
        _dotted(path) if kind == "rule" else
        f"{entry[kind]} {_dotted(path[2:])}" if kind in ("card", "wonder") else
        f"{display_name(file)}:{_dotted(path)}"))
    field_at = at + ("field",) if "field" in entry else at + (
        "path" if kind == "file" else kind,)
    if isinstance(value, (dict, list)):
        inside = [_dotted(path + p) for p in _all_paths(value)
                  if isinstance(data_doc.get(path + p), (int, float))]
        problems.append(Diagnostic(
            "U003", f"'{_dotted(path)}' is a {'map' if isinstance(value, dict) else 'list'}, "
            "not a number: tune one of the numbers in it"
            + (f" ({', '.join(inside[:6])}{', …' if len(inside) > 6 else ''})" if inside
               else ""), doc.location(field_at)))
        return None
    if value is None or isinstance(value, bool):
        close = closest(_dotted(path), [_dotted(p) for p in _all_paths(data_doc.data)])
        problems.append(Diagnostic(
            "U003", f"{display_name(file)} has no number or text at '{_dotted(path)}'",
            doc.location(field_at), suggestion=close if value is None else None))
        return None
    number = entry.get("number")
    node = data_doc.value_at.get(path)
    if isinstance(value, (int, float)):
        if number not in (None, 1):
            problems.append(Diagnostic("U004", f"'{_dotted(path)}' is the number "
                                       f"{_fmt(value)}: 'number: {number}' does not apply",
                                       doc.location(at + ("number",))))
            return None
        assert node is not None
        start = data_doc.offset(node)
        end = data_doc.source.index(node.end_mark.line, node.end_mark.column)
        current = float(value)
    else:
        numbers = list(_DIGITS.finditer(value))
        if not numbers:
            problems.append(Diagnostic("U004", f"'{value}' holds no number to tune",
                                       doc.location(field_at), text=value))
            return None
        if number is None and len(numbers) > 1:
            listed = ", ".join(f"{i} = {m.group()}" for i, m in enumerate(numbers, 1))
            problems.append(Diagnostic(
                "U004", f"'{value}' holds {len(numbers)} numbers ({listed}): say which "
                "with 'number: N'", doc.location(field_at), text=value))
            return None
        if number is not None and number > len(numbers):
            problems.append(Diagnostic(
                "U004", f"'{value}' holds {len(numbers)} number"
                f"{'s' if len(numbers) != 1 else ''}, not {number}",
                doc.location(at + ("number",))))
            return None
        match = numbers[(number or 1) - 1]
        first = data_doc.string_location(path, match.start())
        last = data_doc.string_location(path, match.end() - 1)
        start = data_doc.source.index(first.line - 1, first.column - 1)
        end = data_doc.source.index(last.line - 1, last.column - 1) + 1
        if data_doc.source.text[start:end] != match.group():
            problems.append(Diagnostic("U004", f"the number {match.group()} of '{value}' "
                                       "is written in a way tune cannot edit (an escape?)",
                                       doc.location(field_at), text=value))
            return None
        current = float(match.group())
        if len(numbers) > 1 and "name" not in entry:
            label = f"{label} #{number or 1}"
    values = _candidates(entry, doc, at, problems)
    if not values:
        return None
    return Site(str(label), file, path, start, end, current, values, where)


def _target(doc: Document, problems: list[Diagnostic], players: int, bots: Sequence[str],
            data: Any) -> Target | None:
    from wonders.simulate import VICTORIES

    written = doc.data["target"]
    metric = written["metric"]
    needs, may, unit = METRICS[metric]
    options = {k: v for k, v in written.items() if k not in ("metric", "value", "within")}
    ok = True
    for key in needs:
        if key not in options:
            problems.append(Diagnostic("U005", f"the metric '{metric}' needs '{key}:'",
                                       doc.location(("target", "metric"))))
            ok = False
    for key in options:
        if key not in needs and key not in may:
            allowed = ", ".join(needs + may) or "no other key"
            problems.append(Diagnostic("U005", f"'{key}:' does not apply to the metric "
                                       f"'{metric}' (it takes: {allowed})",
                                       doc.location(("target", key), key=True)))
            ok = False
    if not ok:
        return None

    def check(key: str, known: Sequence[str]) -> None:
        nonlocal ok
        value = options.get(key)
        if value is not None and value not in known:
            problems.append(Diagnostic("U005", f"no {key} '{value}' in this game (known: "
                                       f"{', '.join(known)})", doc.location(("target", key)),
                                       text=str(value), suggestion=closest(str(value), known)))
            ok = False

    if "seat" in options and options["seat"] >= players:
        problems.append(Diagnostic("U005", f"seat {options['seat']} at {players} players: "
                                   f"seats are 0 to {players - 1}",
                                   doc.location(("target", "seat"))))
        ok = False
    check("bot", sorted(set(bots)))
    check("victory", list(VICTORIES))
    check("card", sorted({c.name for c in data.cards if c.name not in data.removed}))
    if ok and "card" in options:  # a card the game never deals at this table has no figures
        from wonders.simulate import SelectionError, select

        try:
            select([data], [options["card"]], [], players)
        except SelectionError as exc:
            problems.append(Diagnostic("U005", str(exc), doc.location(("target", "card")),
                                       text=options["card"]))
            ok = False
    check("wonder", sorted({w.name for w in data.wonders}))
    if "side" in options:
        check("side", sorted({s for w in data.wonders for s in w.sides}))
    check("category", ["total", *data.rules.model.score.order])
    if not ok:
        return None
    if unit == "%" and not 0 <= float(written["value"]) <= 100:
        problems.append(Diagnostic("U005", f"'{metric}' is a rate in percent: the value "
                                   f"{_fmt(written['value'])} is outside 0 to 100",
                                   doc.location(("target", "value"))))
        return None
    return Target(metric, options, float(written["value"]), float(written["within"]), unit)


def read_spec(path: Path, games: int | None = None, max_games: int | None = None,
              seed: int | None = None) -> Spec:
    """Read and check a tune spec: :class:`SpecError` with every problem, located (the
    shape, then the game, the tunables and the target); ``games``, ``max_games`` and
    ``seed`` replace the spec's own."""
    from wonders.bots import BotError, bot_factory
    from wonders.engine.registry import default_players
    from wonders.engine.sources import SourceError, resolve

    shown = display_name(path)
    doc, problems = load_file(path, shown)
    if doc is None:
        raise SpecError(problems)
    if not isinstance(doc.data, dict):
        raise SpecError([Diagnostic("S101", "a tune spec is a map (kind: tune, game:, tune:, "
                                    "target: …)", doc.location(()))])
    problems += _schema_problems(doc)
    if problems:
        raise SpecError(problems)
    data = doc.data
    spec_dir = path.resolve().parent
    # the game: a shipped name, or a path relative to the spec
    given = data["game"]
    try:
        from wonders.dsl.loader import looks_like_path, shipped_games

        relative = looks_like_path(given) or given not in shipped_games()
        candidate = spec_dir / given
        source = resolve(str(candidate) if relative and candidate.exists() else given)
    except SourceError as exc:
        raise SpecError([Diagnostic("U001", str(exc), doc.location(("game",)), text=given)]
                        ) from None
    extra: list[str] = []
    for i, name in enumerate(data.get("paths", [])):
        file = spec_dir / name
        if not file.exists():
            problems.append(Diagnostic("U001", f"no such file or folder: {name}",
                                       doc.location(("paths", i)), text=name))
        extra.append(str(file.resolve()))
    if problems:
        raise SpecError(problems)
    result = source.load(extra)
    if result.game is None:
        raise SpecError([Diagnostic("U001", f"the game '{given}' does not load: "
                                    f"{len(result.report.errors)} error(s) in its data "
                                    "(below)", doc.location(("game",)), text=given),
                         *result.report.sorted()])
    game = result.game
    rules = game.rules
    players = data.get("players")
    if players is None:
        players = (DEFAULT_PLAYERS if rules.min_players <= DEFAULT_PLAYERS <= rules.max_players
                   else default_players(game))
    elif not rules.min_players <= players <= rules.max_players:
        problems.append(Diagnostic("U006", f"{rules.title} is for {rules.min_players} to "
                                   f"{rules.max_players} players, not {players}",
                                   doc.location(("players",))))
    written_bots = data.get("bots", "random")
    names = ([n.strip() for n in written_bots.split(",") if n.strip()]
             if isinstance(written_bots, str) else list(written_bots))
    for name in dict.fromkeys(names):
        try:
            bot_factory(name)
        except BotError as exc:
            problems.append(Diagnostic("U006", str(exc), doc.location(("bots",)), text=name))
    if names and len(names) not in (1, players):
        problems.append(Diagnostic("U006", f"{len(names)} bots for {players} players: give "
                                   "one name for every seat, or one per seat",
                                   doc.location(("bots",))))
    seat_bots = tuple(names * players if len(names) == 1 else names)
    side = _side(data.get("side", "random"), game, players, doc, problems)
    # the tunables
    data_files = [Path(name).resolve() for name in result.files]
    rule_files = _rule_files(data_files)
    texts: dict[Path, str] = {}
    sites = []
    for i, entry in enumerate(data["tune"]):
        site = _site(entry, ("tune", i), doc, spec_dir, rule_files, data_files, texts, problems)
        if site is not None:
            sites.append(site)
    places = [(s.file, s.path, s.start) for s in sites]
    for i, site in enumerate(sites):
        if (site.file, site.path, site.start) in places[:i]:
            problems.append(Diagnostic("U002", f"'{site.label}' is tuned twice", site.where))
    target = _target(doc, problems, players, seat_bots, game)
    method = data.get("search") or ("bisect" if len(data["tune"]) == 1 else "halving")
    if method == "bisect" and len(data["tune"]) > 1:
        problems.append(Diagnostic("U007", "bisection tunes one number; for several use "
                                   "'search: halving' (or grid)", doc.location(("search",))))
    budget = data.get("budget", {})
    per = games if games is not None else budget.get("games", DEFAULT_GAMES)
    cap = max_games if max_games is not None else budget.get("max_games", DEFAULT_MAX_GAMES)
    grid = math.prod(len(s.values) for s in sites) if sites else 0
    if method != "bisect" and grid > MAX_GRID:
        problems.append(Diagnostic("U007", f"the tunables make {grid} candidates; at most "
                                   f"{MAX_GRID}: fewer values or larger steps",
                                   doc.location(("tune",))))
    first = {"bisect": 2, "halving": grid, "grid": grid}[method] * per if sites else 0
    if sites and first > cap:
        need = {"bisect": "the two ends", "halving": f"all {grid} candidates",
                "grid": f"all {grid} candidates"}[method]
        problems.append(Diagnostic(
            "U007", f"the budget of {cap} games cannot play {need} once at {per} games "
            f"each ({first} games): raise max_games or lower games",
            doc.location(("budget",) if "budget" in data else ())))
    if problems:
        raise SpecError(problems)
    assert target is not None
    return Spec(shown, source.spec, given, tuple(extra), players, seat_bots, side,
                int(data.get("seed", 0) if seed is None else seed), sites, target, method,
                per, cap, texts, rules.title)


def _side(value: str, game: Any, players: int, doc: Document,
          problems: list[Diagnostic]) -> str | tuple[str, ...] | None:
    """The ``side:`` as :class:`wonders.simulate.Run` takes it (as ``--side`` is read)."""
    from wonders.engine.sides import CHOOSE_SIDE, RANDOM_SIDE, side_names

    values = [v.strip() for v in value.split(",")]
    if not any(len(w.sides) > 1 for w in game.wonders):
        if all(v.lower() == RANDOM_SIDE for v in values):
            return None
        problems.append(Diagnostic("U006", f"{game.rules.title}'s wonders have no sides",
                                   doc.location(("side",))))
        return None
    if len(values) not in (1, players):
        problems.append(Diagnostic("U006", f"give one side for every seat or one per seat "
                                   f"({players}), not {len(values)}", doc.location(("side",))))
        return None
    letters = sorted({letter for wonder in game.wonders for letter in wonder.sides})
    known = [*letters, *side_names(game).values(), RANDOM_SIDE, CHOOSE_SIDE]
    for v in values:
        if v.lower() not in {k.lower() for k in known}:
            problems.append(Diagnostic("U006", f"no side '{v}' (known: {', '.join(known)})",
                                       doc.location(("side",)), text=v,
                                       suggestion=closest(v, known)))
            return None
    normal = [v.lower() if v.lower() in (RANDOM_SIDE, CHOOSE_SIDE) else v for v in values]
    return normal[0] if len(normal) == 1 else tuple(normal)


# --- candidates and their evaluation --------------------------------------------------------

Candidate = tuple[float, ...]  # one value per site


def overlay(spec: Spec, candidate: Candidate) -> tuple[tuple[str, str], ...]:
    """The data files' texts with the candidate's numbers written in (files unchanged by
    it are left out: the loader reads them from the disk)."""
    edits: dict[Path, list[tuple[int, int, str]]] = {}
    for site, value in zip(spec.sites, candidate):
        if value != site.current:
            edits.setdefault(site.file, []).append((site.start, site.end, _fmt(value)))
    texts = []
    for file, changes in sorted(edits.items()):
        text = spec.texts[file]
        for start, end, written in sorted(changes, reverse=True):
            text = text[:start] + written + text[end:]
        texts.append((str(file), text))
    return tuple(texts)


@dataclass
class Evaluation:
    """One candidate's games so far and the target metric over them."""

    candidate: Candidate
    games: int = 0
    stats: Any = None          # wonders.simulate.Statistics, fed in game order
    seat_credits: list[float] = field(default_factory=list)
    value: float | None = None
    ci: list[float] | None = None
    evaluations: int = 0       # how many times games were added

    def distance(self, target: Target) -> float:
        """How far the metric is from the band (0 inside it), inf without a value."""
        if self.value is None:
            return math.inf
        return max(target.low - self.value, self.value - target.high, 0.0)

    def meets(self, target: Target) -> bool:
        return self.value is not None and target.low <= self.value <= target.high

    def verdict(self, target: Target) -> str:
        """yes: the whole 95 % interval is in the band; likely: the estimate is; no:
        the interval is outside it; unlikely: the estimate is out, the interval reaches in."""
        if self.value is None or self.ci is None:
            return "no value"
        low, high = self.ci
        if target.low <= low and high <= target.high:
            return "yes"
        if high < target.low or low > target.high:
            return "no"
        return "likely" if self.meets(target) else "unlikely"

    def rank(self, target: Target) -> tuple[float, float]:
        centre = abs(self.value - target.value) if self.value is not None else math.inf
        return (self.distance(target), centre)


def measure(stats: dict[str, Any], credits: Sequence[float], games: int,
            target: Target) -> tuple[float | None, list[float] | None]:
    """The target's metric (in the target's unit) and its 95 % interval, from a
    candidate's statistics and its seats' win credits."""
    from wonders.simulate import wilson

    options = target.options
    scale = 1.0 if target.unit == "points" else 100.0

    def scaled(value: float | None, ci: list[float] | None) -> tuple[float | None,
                                                                     list[float] | None]:
        if value is None:
            return None, None
        return value * scale, [ci[0] * scale, ci[1] * scale] if ci else None

    metric = target.metric
    if metric == "seat_win_rate":
        won = credits[options["seat"]]
        return scaled(won / games, wilson(won, games))
    if metric == "victory_share":
        row = next(r for r in stats["victories"] if r["victory"] == options["victory"])
        return scaled(row["share"], row["share_ci"])
    if metric == "bot_win_rate":
        row = next(r for r in stats["bots"] if r["bot"] == options["bot"])
        return scaled(row["win_rate"], row["win_rate_ci"])
    if metric in ("card_lift", "card_build_rate", "card_win_rate"):
        card = next((r for r in stats["cards"] if r["card"] == options["card"]), None)
        if card is None:
            return None, None
        if metric == "card_lift":
            return scaled(card["win_lift"], card["win_lift_ci"])
        if metric == "card_win_rate":
            return scaled(card["win_rate_built"], card["win_rate_built_ci"])
        key = {"seat": "build_rate", "game": "build_rate_game",
               "copy": "build_rate_copy"}[options.get("per", "seat")]
        return scaled(card[key], card[key + "_ci"])
    if metric == "wonder_win_rate":
        if "side" in options:
            rows = [r for r in stats["wonder_sides"] if r["wonder"] == options["wonder"]
                    and r["side"] == options["side"]]
        else:
            rows = [r for r in stats["wonders"] if r["wonder"] == options["wonder"]]
        return scaled(rows[0]["win_rate"], rows[0]["win_rate_ci"]) if rows else (None, None)
    category = options.get("category", "total")
    if category == "total":
        return scaled(stats["avg_score"], stats["avg_score_ci"])
    row = next((r for r in stats["categories"] if r["category"] == category), None)
    return scaled(row["avg"], row["avg_ci"]) if row else (None, None)


class SearchError(Exception):
    """A candidate value the data refuses: its diagnostics, and the spec entry it is of."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = diagnostics
        super().__init__("\n".join(d.render() for d in diagnostics))


@dataclass
class Result:
    """What a search found: every candidate evaluated, in the order first evaluated."""

    spec: Spec
    evaluations: list[Evaluation]
    best: Evaluation | None
    games: int               # played in all
    steps: list[str]         # what the search did, one line per step
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        spec, target = self.spec, self.spec.target

        def row(e: Evaluation) -> dict[str, Any]:
            return {"values": {s.label: _number(v) for s, v in zip(spec.sites, e.candidate)},
                    "value": e.value, "ci": e.ci, "games": e.games,
                    "meets": e.meets(target), "verdict": e.verdict(target)}

        return {
            "spec": spec.file, "game": spec.given_game, "players": spec.players,
            "bots": list(spec.bots), "seed": spec.seed, "method": spec.method,
            "tunables": [{"name": s.label, "file": display_name(s.file),
                          "path": list(s.path), "current": _number(s.current),
                          "candidates": [_number(v) for v in s.values]} for s in spec.sites],
            "target": {"metric": target.metric, **target.options, "value": target.value,
                       "within": target.within, "band": [target.low, target.high],
                       "unit": target.unit},
            "budget": {"games": spec.games, "max_games": spec.max_games},
            "games_played": self.games,
            "best": row(self.best) if self.best is not None else None,
            "met": self.best is not None and self.best.meets(target),
            "candidates": [row(e) for e in self.evaluations],
            "steps": self.steps,
            "seconds": self.seconds,
        }


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


class Search:
    """Evaluates candidates on common seeds within the budget; the methods drive it."""

    def __init__(self, spec: Spec, workers: int = 1,
                 report: Callable[[Evaluation, Spec], None] | None = None) -> None:
        self.spec = spec
        self.workers = workers
        self.report = report
        self.played = 0
        self.found: dict[Candidate, Evaluation] = {}
        self.order: list[Evaluation] = []
        self.steps: list[str] = []

    def left(self) -> int:
        return self.spec.max_games - self.played

    def label(self, candidate: Candidate) -> str:
        return ", ".join(f"{s.label} = {_fmt(v)}" for s, v in zip(self.spec.sites, candidate))

    def short(self, candidate: Candidate) -> str:
        """A candidate in a step's line: its value alone when one number is tuned."""
        if len(candidate) == 1:
            return _fmt(candidate[0])
        return ", ".join(f"{s.label}={_fmt(v)}" for s, v in zip(self.spec.sites, candidate))

    def play(self, candidate: Candidate, games: int) -> Evaluation:
        """Bring the candidate up to ``games`` games (seeds S … S+games-1, the same for
        every candidate), within the budget; its metric recomputed."""
        from wonders.simulate import Run, Statistics, game_data, run_games

        spec = self.spec
        found = self.found.get(candidate)
        if found is None:
            found = self.found[candidate] = Evaluation(candidate, stats=Statistics(spec.players),
                                                       seat_credits=[0.0] * spec.players)
            self.order.append(found)
        more = min(games - found.games, self.left())
        if more <= 0:
            return found
        texts = overlay(spec, candidate)
        try:
            game_data(spec.game, spec.paths, texts)
        except DataError as exc:
            changed = [(s, v) for s, v in zip(spec.sites, candidate) if v != s.current]
            where = changed[0][0].where if changed else spec.sites[0].where
            values = ", ".join(f"{s.label} = {_fmt(v)}" for s, v in changed)
            raise SearchError([Diagnostic(
                "U008", f"the data refuses {values} (the errors below, in the data as "
                "tuned): leave it out of the candidates", where),
                *exc.diagnostics]) from None
        run = Run(game=spec.game, players=spec.players, games=more,
                  seed=spec.seed + found.games, bots=spec.bots,
                  workers=max(1, min(self.workers, more)), paths=spec.paths,
                  side=spec.side, overlay=texts)
        outcome = run_games(run, keep_records=True)
        for record in outcome.records:
            found.stats.add(record)
            winners = record["winners"]
            for seat in winners:
                found.seat_credits[seat] += 1.0 / len(winners)
        found.games += more
        found.evaluations += 1
        self.played += more
        found.value, found.ci = measure(found.stats.result(), found.seat_credits, found.games,
                                        spec.target)
        if self.report is not None:
            self.report(found, spec)
        return found

    # --- the methods ---------------------------------------------------------------------

    def bisect(self) -> Evaluation:
        spec, target = self.spec, self.spec.target
        values = spec.sites[0].values
        games = spec.games
        low, high = 0, len(values) - 1
        first = self.play((values[low],), games)
        if high == low:
            self.steps.append("one candidate: evaluated")
            return self.confirm([first])
        last = self.play((values[high],), games)
        if first.value is None or last.value is None:
            self.steps.append("a candidate gave no value: no bisection")
            return self.finish()

        def side(e: Evaluation) -> int:
            assert e.value is not None
            return (e.value > target.value) - (e.value < target.value)

        rising = last.value >= first.value
        self.steps.append(f"ends: {self.short(first.candidate)} → {_fmt_value(first, target)}"
                          f"; {self.short(last.candidate)} → {_fmt_value(last, target)}: "
                          f"the metric {'rises' if rising else 'falls'} as "
                          f"{spec.sites[0].label} rises")
        if side(first) == side(last) != 0 and not first.meets(target) \
                and not last.meets(target):
            self.steps.append(f"the target {_fmt(target.value)} is not between the ends: out "
                              "of reach in this range")
            return self.confirm([min((first, last), key=lambda e: e.rank(target))])
        below, above = (low, high) if side(first) <= 0 else (high, low)
        # 'below' holds a value under the target, 'above' one over it (or at it)
        while abs(above - below) > 1 and self.left() >= games:
            middle = (below + above) // 2
            tried = self.play((values[middle],), games)
            if tried.value is None:
                break
            if side(tried) <= 0:
                below = middle
            else:
                above = middle
        pair = [self.found[(values[i],)] for i in sorted({below, above})
                if (values[i],) in self.found]
        self.steps.append("bracket: " + "; ".join(
            f"{self.short(e.candidate)} → {_fmt_value(e, target)}" for e in pair))
        visited = {tuple(e.candidate for e in pair)}
        while True:
            best = self.confirm(pair)
            if len(pair) != 2 or any(e.value is None or e.meets(target) for e in pair):
                return best
            sides = {side(e) for e in pair}
            if len(sides) != 1 or 0 in sides:
                return best  # the confirmed figures still bracket the target
            # More games put both on one side: the crossing lies beyond the nearer one
            # (a noisy estimate sent the bisection the wrong way); walk the bracket on.
            toward = 1 if (sides.pop() < 0) == rising else -1
            indexes = [values.index(e.candidate[0]) for e in pair]
            edge = max(indexes) if toward > 0 else min(indexes)
            step = edge + toward
            games_now = max(e.games for e in pair)
            known = self.found.get((values[step],)) if 0 <= step < len(values) else None
            cost = games_now - (known.games if known is not None else 0)
            moved = tuple(sorted(((values[edge],), (values[step],)))) \
                if 0 <= step < len(values) else None
            if moved is None or moved in visited or cost > self.left():
                self.steps.append("the confirmed figures are both on one side of the target;"
                                  " the bracket cannot move on")
                return best
            visited.add(moved)
            self.play((values[step],), games_now)
            pair = [self.found[c] for c in moved]
            self.steps.append("the confirmed figures are both on one side of the target: "
                              "bracket moved to " + "; ".join(
                                  f"{self.short(e.candidate)} → {_fmt_value(e, target)}"
                                  for e in pair))

    def confirm(self, finalists: list[Evaluation]) -> Evaluation:
        """Double the games of the finalists whose 95 % intervals still straddle an edge
        of the band, while the budget allows; then the best of all evaluated."""
        target = self.spec.target
        while True:
            open_ = [e for e in finalists if e.verdict(target) in ("likely", "unlikely")]
            settled = [e for e in finalists if e.verdict(target) == "yes"]
            if settled:  # a sure answer: only a candidate nearer the centre could beat it
                best = min(e.rank(target) for e in settled)
                open_ = [e for e in open_ if e.rank(target) < best]
            if not open_:
                break
            games = max(e.games for e in open_) * 2
            cost = sum(games - e.games for e in open_)
            if cost > self.left():
                self.steps.append(f"confirmation stopped: {cost} more games needed, "
                                  f"{self.left()} left in the budget")
                break
            for e in open_:
                self.play(e.candidate, games)
            self.steps.append(f"confirmation on {games} games: " + "; ".join(
                f"{self.short(e.candidate)} → {_fmt_value(e, target, False)}" for e in open_))
        return self.finish(finalists)

    def halving(self, keep_all: bool = False) -> Evaluation:
        spec, target = self.spec, self.spec.target
        grid = [tuple(c) for c in itertools.product(*(s.values for s in spec.sites))]
        survivors = grid
        games = spec.games
        while True:
            cost = sum(max(0, games - self.found[c].games) if c in self.found else games
                       for c in survivors)
            if cost > self.left():
                self.steps.append(f"stopped: the next round needs {cost} games, "
                                  f"{self.left()} left in the budget")
                break
            for c in survivors:
                self.play(c, games)
            ranked = sorted(survivors, key=lambda c: (self.found[c].rank(target), grid.index(c)))
            self.steps.append(f"round of {len(survivors)} on {games} games: best "
                              f"{self.short(ranked[0])} → "
                              f"{_fmt_value(self.found[ranked[0]], target, False)}")
            if keep_all or len(ranked) == 1:
                break
            survivors = ranked[:math.ceil(len(ranked) / 2)]
            games *= 2
        return self.finish([self.found[c] for c in survivors if c in self.found])

    def finish(self, preferred: Iterable[Evaluation] = ()) -> Evaluation:
        """The best candidate: in the band and nearest its centre; among those evaluated
        on the most games first (their figures are the surest), then in candidate order."""
        target = self.spec.target
        pool = list(preferred) or self.order
        everyone = sorted(self.order, key=lambda e: (e.rank(target), -e.games))
        if not any(e.meets(target) for e in pool) and any(e.meets(target) for e in everyone):
            pool = everyone
        return min(pool, key=lambda e: (e.rank(target), -e.games, self.order.index(e)))


def _fmt_value(e: Evaluation, target: Target, games: bool = True) -> str:
    if e.value is None:
        return "no value"
    unit = {"%": " %", "pp": " pp", "points": ""}[target.unit]
    ci = f" [{e.ci[0]:.1f}, {e.ci[1]:.1f}]" if e.ci else ""
    return f"{e.value:.1f}{unit}{ci}" + (f" on {e.games} games" if games else "")


def search(spec: Spec, workers: int = 1,
           report: Callable[[Evaluation, Spec], None] | None = None) -> Result:
    """Run the spec's search; every candidate played on the seeds S, S+1, … (the same for
    all), in an order fixed by the spec, so the result depends on nothing else."""
    import time

    started = time.perf_counter()
    driver = Search(spec, workers, report)
    if spec.method == "bisect":
        best = driver.bisect()
    else:
        best = driver.halving(keep_all=spec.method == "grid")
    return Result(spec, driver.order, best, driver.played, driver.steps,
                  time.perf_counter() - started)


__all__ = ["SCHEMA", "METRICS", "METHODS", "Spec", "SpecError", "SearchError", "Result",
           "read_spec", "search", "overlay", "measure"]
