"""Safe YAML loading that remembers where every value came from.

PyYAML's *composer* gives a node graph with start marks and never constructs
objects, so nothing in a card file can run code.  We build plain values (str,
int, float, bool, None, list, dict) from the nodes ourselves, refusing every
tag outside that set, and keep the position of each value and key by its path
(``("cards", 3, "cost")``).  Positions inside a string (an effect's bad word)
are found by aligning the parsed string with its source text, which handles
plain, quoted, folded and literal block scalars alike.

Hostile input is stopped early with a diagnostic, never a traceback: files over
:data:`MAX_BYTES`, text that is not UTF-8, alias bombs (expansion is capped at
:data:`MAX_NODES`) and absurd nesting.
"""

from __future__ import annotations

import bisect
import math
import re
import sys
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterator, Mapping, Union

import yaml

from wonders.dsl.errors import Diagnostic, Location, Severity

Key = Union[str, int]
PathKey = tuple[Key, ...]

MAX_BYTES = 2 * 1024 * 1024
MAX_NODES = 200_000
MAX_DEPTH = 64

try:  # libyaml is much faster; both composers are safe (they build no objects)
    _LOADER: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _LOADER = yaml.SafeLoader

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_SCALARS = {_STR, _INT, _FLOAT, _BOOL, _NULL, _TIMESTAMP}

_constructor = yaml.constructor.SafeConstructor()


class _CachedResolver(_LOADER):  # type: ignore[misc]
    """The safe loader, its implicit tags of plain scalars remembered by text: the
    resolver tries its regular expressions on every scalar, and card files repeat
    the same values (``age: 3``, ``colour: purple``) thousands of times."""

    _tags: dict[tuple[Any, Any, Any], str] = {}

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        # one look-up for every node (lists and maps too: their tag depends only on these)
        key = (kind, value, implicit)
        tag = self._tags.get(key)
        if tag is None:
            tag = super().resolve(kind, value, implicit)
            if len(self._tags) < 100_000:
                self._tags[key] = tag
        return tag


# What YAML (and so the marks libyaml gives) counts as a line break.
_LINE_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")


class SourceText:
    """The text of one file with a line index, to turn offsets into line:col.

    Lines are counted as YAML counts them (CR LF, LF, a lone CR, NEL, LS, PS),
    so that positions from the YAML parser and from this index agree.
    """

    def __init__(self, name: str, text: str) -> None:
        self.name = name
        self.text = text
        self._line_starts = [0] + [m.end() for m in _LINE_BREAK.finditer(text)]

    def index(self, line0: int, col0: int) -> int:
        starts = self._line_starts
        if line0 >= len(starts):
            return len(self.text)
        found = starts[line0] + col0
        return found if found < len(self.text) else len(self.text)

    def location(self, index: int) -> Location:
        line0 = bisect.bisect_right(self._line_starts, index) - 1
        return Location(self.name, line0 + 1, index - self._line_starts[line0] + 1)


@dataclass
class _Scalar:
    """What is needed to place an offset inside a string value."""

    start: int  # index in the source text of the node's first character
    end: int
    style: str | None


@dataclass
class Document:
    """A loaded YAML document: plain data plus the position of every part of it."""

    source: SourceText
    data: Any
    # Positions are kept as the YAML nodes themselves and turned into text offsets only
    # when a diagnostic asks (most documents are valid: a 2 MB card file has 165,000
    # nodes, and computing each offset up front was a tenth of validating it).
    value_at: dict[PathKey, yaml.Node] = field(default_factory=dict)
    key_at: dict[PathKey, yaml.Node] = field(default_factory=dict)
    scalars: dict[PathKey, yaml.ScalarNode] = field(default_factory=dict)
    # per string value, the source index of each character (filled when first asked)
    aligned: dict[PathKey, list[int]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.source.name

    def location(self, path: PathKey, *, key: bool = False) -> Location:
        """Where the value (or its key) at ``path`` starts; nearest ancestor if unknown."""
        probe = tuple(path)
        while True:
            table = self.key_at if key else self.value_at
            if probe in table:
                return self.source.location(self.offset(table[probe]))
            if key and probe in self.value_at:
                return self.source.location(self.offset(self.value_at[probe]))
            if not probe:
                return Location(self.name, 1, 1)
            probe = probe[:-1]
            key = False

    def offset(self, node: yaml.Node) -> int:
        """The index in the source text where ``node`` starts."""
        return self.source.index(node.start_mark.line, node.start_mark.column)

    def string_location(self, path: PathKey, offset: int) -> Location:
        """Where character ``offset`` of the string value at ``path`` is in the file."""
        key = tuple(path)
        node = self.scalars.get(key)
        value = self.get(path)
        if node is None or not isinstance(value, str):
            return self.location(path)
        table = self.aligned.get(key)
        if table is None or len(table) != len(value) + 1:
            scalar = _Scalar(self.offset(node),
                             self.source.index(node.end_mark.line, node.end_mark.column),
                             node.style)
            table = self.aligned[key] = _align_all(self.source.text, scalar, value)
        return self.source.location(table[max(0, min(offset, len(value)))])

    def get(self, path: PathKey) -> Any:
        node: Any = self.data
        for part in path:
            try:
                node = node[part]
            except (KeyError, IndexError, TypeError):
                return None
        return node


_ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v",
    "f": "\f", "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\",
    "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029",
}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}


def _escape(text: str, pos: int) -> tuple[str | None, int]:
    """The character a double-quoted escape at ``text[pos]`` stands for, and its length.

    An escaped line break stands for nothing (None); so does a malformed escape.
    """
    code = text[pos + 1] if pos + 1 < len(text) else ""
    if code in _ESCAPES:
        return _ESCAPES[code], 2
    if code in _HEX_ESCAPES:
        digits = text[pos + 2:pos + 2 + _HEX_ESCAPES[code]]
        try:
            return chr(int(digits, 16)), 2 + len(digits)
        except (ValueError, OverflowError):
            return None, 2
    if code == "\r" and text[pos + 2:pos + 3] == "\n":
        return None, 3
    return None, 2 if code else 1


def _align_all(text: str, scalar: _Scalar, value: str) -> list[int]:
    """Source index of every ``value[i]`` (and, last, of the value's end), found in one
    walk of the scalar's source: a string with thousands of diagnostics is walked
    once, not once per diagnostic (which was quadratic).

    The walk is greedy.
    Each character of the value is matched with the next source character equal
    to it; what does not match (quotes, indentation, the block header) is
    skipped, and a folded line break matches a space.  In double-quoted strings
    an escape (``\\t``, ``\\x62``, ``\\"``) matches the character it stands for,
    and the position is that of its backslash.
    """
    pos = scalar.start
    end = max(scalar.end, pos)
    double = scalar.style == '"'
    if scalar.style in ("|", ">"):
        newline = text.find("\n", pos)
        pos = end if newline < 0 else newline + 1
    elif scalar.style in ("'", '"'):
        pos += 1
    table: list[int] = []
    for ch in value:
        width = 1
        while pos < end:
            src = text[pos]
            if double and src == "\\":
                produced, width = _escape(text, pos)
                if produced == ch:
                    break
                pos += width
                width = 1
                continue
            if src == ch or (ch == " " and src == "\n"):
                break
            pos += 1
        table.append(min(pos, len(text)))
        if scalar.style == "'" and ch == "'" and text[pos:pos + 2] == "''":
            pos += 1
        pos += width
    table.append(min(pos, len(text)))
    return table


def _shown(tag: str) -> str:
    """A tag as it is usually written in the file (``!!python/…``, not its full URI)."""
    prefix = "tag:yaml.org,2002:"
    return "!!" + tag[len(prefix):] if tag.startswith(prefix) else tag


class _Builder:
    """Turns composed nodes into plain values, recording positions; collects problems."""

    def __init__(self, source: SourceText) -> None:
        self.source = source
        self.doc = Document(source, None)
        self.problems: list[Diagnostic] = []
        self.nodes = 0
        self.too_big = False
        self._starts = source._line_starts
        self._length = len(source.text)

    def _index(self, node: yaml.Node) -> int:
        """``source.index`` of the node's start, inlined: it runs for every node."""
        mark = node.start_mark
        line = mark.line
        if line < len(self._starts):
            found: int = self._starts[line] + mark.column
            if found < self._length:
                return found
        return self._length

    def problem(self, code: str, message: str, node: yaml.Node, text: str | None = None) -> None:
        self.problems.append(
            Diagnostic(code, message, self.source.location(self._index(node)), text=text)
        )

    def build(self, node: yaml.Node, path: PathKey, depth: int) -> Any:
        if self.too_big:
            return None
        self.nodes += 1
        if self.nodes > MAX_NODES:
            self.too_big = True
            self.problem("Y004", f"the document expands to more than {MAX_NODES} values "
                         "(an alias bomb, or far too large for a card file)", node)
            return None
        if depth > MAX_DEPTH:
            self.too_big = True
            self.problem("Y004", f"values are nested more than {MAX_DEPTH} levels deep", node)
            return None
        self.doc.value_at.setdefault(path, node)
        if isinstance(node, yaml.ScalarNode):
            return self._scalar(node, path)
        if isinstance(node, yaml.SequenceNode):
            if node.tag != _SEQ:
                self.problem("Y005", f"the tag '{_shown(node.tag)}' is not allowed; "
                             "card files hold plain lists, maps and scalars", node,
                             _shown(node.tag))
            return [self.build(item, path + (i,), depth + 1) for i, item in enumerate(node.value)]
        if isinstance(node, yaml.MappingNode):
            if node.tag != _MAP:
                self.problem("Y005", f"the tag '{_shown(node.tag)}' is not allowed; "
                             "card files hold plain lists, maps and scalars", node,
                             _shown(node.tag))
            return self._mapping(node, path, depth)
        self.problem("Y005", "unsupported YAML node", node)  # pragma: no cover
        return None

    def _scalar(self, node: yaml.ScalarNode, path: PathKey) -> Any:
        if node.tag not in _SCALARS:
            self.problem("Y005", f"the tag '{_shown(node.tag)}' is not allowed; card files "
                         "hold plain lists, maps and scalars (nothing can build objects)",
                         node, _shown(node.tag))
            return node.value
        if node.tag == _STR or node.tag == _TIMESTAMP:
            # Interned: names recur across files (a colour, a resource, a card a chain
            # names), and the engine compares and hashes them on every decision; one
            # object per name makes each comparison an identity test.
            value: Any = sys.intern(node.value)
            self.doc.scalars[path] = node
            return value
        try:
            if node.tag == _INT:
                return _constructor.construct_yaml_int(node)
            if node.tag == _FLOAT:
                number = _constructor.construct_yaml_float(node)
                return number if math.isfinite(number) else node.value
            if node.tag == _BOOL:
                return _constructor.construct_yaml_bool(node)
            return None
        except (ValueError, yaml.YAMLError):
            return node.value

    def _mapping(self, node: yaml.MappingNode, path: PathKey, depth: int) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if (not isinstance(key_node, yaml.ScalarNode)
                    or key_node.tag == "tag:yaml.org,2002:merge"):
                what = "merge keys (<<)" if getattr(key_node, "tag", "").endswith(":merge") \
                    else "keys that are lists or maps"
                self.problem("Y005", f"{what} are not supported; write the key as plain text",
                             key_node)
                continue
            key = sys.intern(str(key_node.value))
            if key in result:
                self.problem("Y006", f"duplicate key '{key}' (YAML would silently keep only one)",
                             key_node, key)
                continue
            self.doc.key_at[path + (key,)] = key_node
            result[key] = self.build(value_node, path + (key,), depth + 1)
        return result


def _too_deep(text: str, loader: type = _LOADER) -> Any:
    """Where (a YAML mark) a value first sits more than MAX_DEPTH levels deep, or None.

    Checked before composing: libyaml's composer recurses once per level (tens of
    thousands of '[' crash the process) and slows down quadratically, while the
    event parser can stop at the first value that is too deep.  The rule is the
    builder's: a value inside more than MAX_DEPTH lists or maps.
    """
    stack: list[list[bool]] = []  # per open list or map: [is a map, next node is a key]
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, yaml.CollectionEndEvent):
            stack.pop()
            continue
        if not isinstance(event, yaml.NodeEvent):
            continue
        is_key = False
        if stack and stack[-1][0]:
            is_key = stack[-1][1]
            stack[-1][1] = not is_key
        # text keys are not values (the builder never descends into them)
        if len(stack) > MAX_DEPTH and not (is_key and isinstance(event, yaml.ScalarEvent)):
            return event.start_mark
        if isinstance(event, yaml.CollectionStartEvent):
            stack.append([isinstance(event, yaml.MappingStartEvent), True])
    return None


_BLOCK_PREFIX = re.compile(r"^[ ?:-]*", re.MULTILINE)


def _may_be_deep(text: str) -> bool:
    """Whether a value might sit more than MAX_DEPTH levels deep (else the event pass of
    :func:`_too_deep` is skipped: it parses the whole file a second time).

    A flow collection opens with '[' or '{'; a block one needs a longer line prefix of
    indentation and indicators ('- ', '? ', ': ') than its parent, and a map's
    sequence may share its indentation: so a value's depth is at most the number of
    brackets plus twice the longest such prefix, plus one."""
    brackets = text.count("[") + text.count("{")
    if brackets > MAX_DEPTH:
        return True
    prefix = max((m.end() - m.start() for m in _BLOCK_PREFIX.finditer(text)), default=0)
    return brackets + 2 * (prefix + 1) > MAX_DEPTH


def _colon_hint(text: str, mark: Any) -> str:
    """The hint for a ': ' YAML did not expect: after a key on the same line, a value that
    needed quotes (``effect: now: coins 5``); alone on its line, a key indented deeper
    than the one before it (YAML reads it as the continuation of that key's value)."""
    quote = " (a value containing ': ' must be quoted, e.g. effect: \"now: coins 5\")"
    if mark is None:
        return quote
    lines = text.splitlines()
    if mark.line >= len(lines):
        return quote
    line = lines[mark.line]
    if ": " in line[:mark.column] or line[:mark.column].rstrip().endswith(":"):
        return quote
    indent = len(line) - len(line.lstrip(" "))
    before = next((b for b in reversed(lines[:mark.line]) if b.strip()
                   and not b.lstrip().startswith("#")), None)
    if before is None:
        return quote
    above = len(before) - len(before.lstrip(" "))
    if before.lstrip().startswith("- "):
        above += 2  # the keys of a list item stand after its "- "
    if indent > above:
        return (f" (this line is indented {indent} spaces, deeper than the key above it "
                f"({above}): YAML reads it as part of that key's value; indent it as its "
                "siblings)")
    return quote


def load_text(name: str, text: str) -> tuple[Document | None, list[Diagnostic]]:
    """Load one YAML document from text; return it (or None) and the problems found."""
    source = SourceText(name, text)
    try:
        deep = _too_deep(text) if _may_be_deep(text) else None
        if deep is not None:
            return None, [Diagnostic(
                "Y004", f"values are nested more than {MAX_DEPTH} levels deep",
                source.location(source.index(deep.line, deep.column)))]
        nodes = list(yaml.compose_all(text, Loader=_CachedResolver))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        location = (source.location(source.index(mark.line, mark.column)) if mark
                    else Location(name, 1, 1))
        message = " ".join(str(part) for part in (exc.context, exc.problem) if part)
        if "nesting depth" in message:
            # newer libyaml refuses deep nesting itself (at 1000 levels, scanning ahead):
            # find the first value too deep with the pure-Python parser, which has no limit
            try:
                deep = _too_deep(text, yaml.SafeLoader)
            except (yaml.YAMLError, RecursionError):
                deep = None
            if deep is not None:
                location = source.location(source.index(deep.line, deep.column))
            return None, [Diagnostic(
                "Y004", f"values are nested more than {MAX_DEPTH} levels deep", location)]
        if "mapping values are not allowed" in message:
            message += _colon_hint(text, mark)
        return None, [Diagnostic("Y002", f"YAML syntax error: {message}", location)]
    except yaml.YAMLError as exc:
        return None, [Diagnostic("Y002", f"YAML syntax error: {exc}", Location(name, 1, 1))]
    except RecursionError:
        return None, [Diagnostic("Y004", "values are nested too deeply", Location(name, 1, 1))]
    nodes = [n for n in nodes if n is not None]
    if not nodes:
        return None, [Diagnostic("Y007", "the file is empty: expected a map with a 'kind' key",
                                 Location(name, 1, 1))]
    builder = _Builder(source)
    if len(nodes) > 1:
        second = nodes[1]
        builder.problem("Y007", "more than one YAML document in the file (only one per file "
                        "is read)", second)
    try:
        builder.doc.data = builder.build(nodes[0], (), 0)
    except RecursionError:
        builder.problem("Y004", "values are nested too deeply", nodes[0])
        return None, builder.problems
    if builder.too_big:
        return None, builder.problems
    return builder.doc, builder.problems


# Files open in an editor with changes not yet saved: their text by resolved path.  The
# language server sets it around one load (``unsaved``), so a buffer is checked as typed
# with the saved files beside it; every other load reads the disk.
_UNSAVED: ContextVar[Mapping[Path, str]] = ContextVar("unsaved", default=MappingProxyType({}))


@contextmanager
def unsaved(texts: Mapping[Path, str]) -> Iterator[None]:
    """Load ``texts`` (resolved path -> text) instead of those files' saved contents."""
    token = _UNSAVED.set({path.resolve(): text for path, text in texts.items()})
    try:
        yield
    finally:
        _UNSAVED.reset(token)


def load_file(path: Path, display: str | None = None) -> tuple[Document | None, list[Diagnostic]]:
    """Read and load one YAML file, refusing oversized, binary or non-UTF-8 input."""
    name = display or str(path)
    edited = _UNSAVED.get()
    if edited:
        text = edited.get(path.resolve())
        if text is not None:
            return load_text(name, text)
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            return None, [Diagnostic(
                "Y003", f"the file is {size / 1048576:.1f} MB; card files are limited to "
                f"{MAX_BYTES // 1048576} MB", Location(name, 1, 1))]
        raw = path.read_bytes()
    except OSError as exc:
        return None, [Diagnostic("Y001", f"cannot read the file: {exc.strerror or exc}",
                                 Location(name))]
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        column = len(before) - (before.rfind(b"\n") + 1) + 1
        return None, [Diagnostic("Y001",
                                 f"the file is not UTF-8 text (byte 0x{raw[exc.start]:02x})",
                                 Location(name, line, column))]
    if "\x00" in text:
        index = text.index("\x00")
        source = SourceText(name, text)
        return None, [Diagnostic("Y001", "the file contains NUL bytes: it looks binary, not YAML",
                                 source.location(index))]
    return load_text(name, text)


__all__ = ["Document", "SourceText", "Severity", "load_file", "load_text", "unsaved"]
