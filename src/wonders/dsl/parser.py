"""Parse effect, cost and formula strings into the typed AST of :mod:`wonders.dsl.ast`.

The parsing itself is Lark's LALR parser (:mod:`wonders.dsl.lalr`): parse errors become
:class:`EffectSyntaxError` with a stable code, the offending text, what was expected in
words a designer reads, and a "did you mean".  This module is the front the compiler
calls, with a cache: the AST of every text parsed without error is kept in a file of the
user's cache folder (keyed by the grammar, the parser's code and Lark's), so that a
start-up loading data parsed before neither imports Lark nor builds its parser (about a
seventh of a second; ``docs/performance.md``, "Start-up").  A text not in the cache, and
every text with an error, goes through Lark exactly as without the cache.
"""

from __future__ import annotations

import atexit
import dataclasses
import hashlib
import importlib.util
import json
import os
import sys
import tempfile
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from wonders.dsl import ast
from wonders.dsl.errors import EffectSyntaxError

START_RULES = ("effects", "cost", "formula")

# The largest number a literal of the language may write: six digits.  No count, price
# or amount of any game comes near it, and the bound keeps every later step (Python's
# int conversion, the payment search, the score) far from its limits: a literal of
# thousands of digits is refused here (E204) instead of raising deep inside.
MAX_DIGITS = 6
MAX_NUMBER = 10 ** MAX_DIGITS - 1

# The cache: at most this many texts (every shipped game together has about 700), and
# the newest few files (one per version of the parser, e.g. an editable and an
# installed copy) kept in the folder.
CACHE_ENTRIES = 20_000
CACHE_FILES = 4
CACHE_PREFIX = "syntax-"


@lru_cache(maxsize=1)
def grammar_text() -> str:
    return resources.files(__package__).joinpath("effects.lark").read_text(encoding="utf-8")


def keywords() -> list[str]:
    """Every reserved word of the language (they cannot be used as names)."""
    from wonders.dsl import lalr

    return lalr.keywords()


def parse_effects(text: str) -> ast.Effects:
    """Parse an ``effect:`` string; raises :class:`EffectSyntaxError`."""
    if not text.strip():
        raise EffectSyntaxError("E203", "the effect is empty", 0, text)
    result = _parse(text, "effects")
    assert isinstance(result, ast.Effects)
    return result


def parse_cost(text: str) -> ast.Cost:
    """Parse a ``cost:`` string such as ``2 stone, 1 loom`` or ``free``."""
    if not text.strip():
        raise EffectSyntaxError("E203", "the cost is empty (write 'free' for no cost)", 0, text)
    result = _parse(text, "cost")
    assert isinstance(result, ast.Cost)
    return result


def parse_formula(text: str) -> ast.Expression:
    """Parse a rule-set formula such as ``players + 2``."""
    if not text.strip():
        raise EffectSyntaxError("E203", "the formula is empty", 0, text)
    return _parse(text, "formula")  # type: ignore[no-any-return]


def _parse(text: str, start: str) -> Any:
    cache = syntax_cache()
    found = cache.get(start, text)
    if found is not None:
        return found
    from wonders.dsl import lalr

    result = lalr.parse(text, start)  # EffectSyntaxError: never cached
    cache.put(start, text, result)
    return result


# --- the cache of syntax trees ----------------------------------------------------------

def cache_dir() -> Path | None:
    """The folder of this package's caches: ``$WONDERS_CACHE_DIR``, else the user's cache
    folder (``$XDG_CACHE_HOME/wonders``, ``~/.cache/wonders``; ``%LOCALAPPDATA%`` on
    Windows); None when ``WONDERS_NO_CACHE`` is set (to anything but empty or 0)."""
    if os.environ.get("WONDERS_NO_CACHE", "") not in ("", "0"):
        return None
    chosen = os.environ.get("WONDERS_CACHE_DIR")
    if chosen:
        return Path(chosen)
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA")
        return Path(base) / "wonders" / "Cache" if base else None
    base = os.environ.get("XDG_CACHE_HOME")
    if base and os.path.isabs(base):
        return Path(base) / "wonders"
    try:
        home = Path.home()
    except (RuntimeError, KeyError):  # no home folder
        return None
    return home / ".cache" / "wonders" if home.is_absolute() else None


def cache_key() -> str | None:
    """What the trees depend on, hashed: the grammar, the code that builds the trees (this
    module, :mod:`wonders.dsl.lalr`, :mod:`wonders.dsl.ast`) and Lark's version (its
    ``__init__.py``, found without importing it); None if one cannot be read."""
    digest = hashlib.sha256(grammar_text().encode())
    try:
        lark = importlib.util.find_spec("lark")
        sources = [Path(__file__), Path(__file__).with_name("lalr.py"), Path(ast.__file__)]
        if lark is None or lark.origin is None:
            return None
        for path in [*sources, Path(lark.origin)]:
            digest.update(path.read_bytes())
    except (OSError, ImportError, ValueError, TypeError):
        return None
    return digest.hexdigest()[:24]


# Every class a tree is made of, by name (the only things a cache file can make).
_NODES: dict[str, type] = {name: value for name, value in vars(ast).items()
                           if isinstance(value, type) and dataclasses.is_dataclass(value)}


def _encode(node: Any) -> Any:
    """A tree as JSON values: a node ``{"Class": [fields...]}``, a tuple a list."""
    if isinstance(node, tuple):
        return [_encode(item) for item in node]
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        name = type(node).__name__
        if _NODES.get(name) is not type(node):
            raise TypeError(f"not a syntax-tree node: {name}")
        return {name: [_encode(getattr(node, f.name)) for f in dataclasses.fields(node)]}
    if node is None or isinstance(node, (str, int, bool)):
        return node
    raise TypeError(f"not a syntax-tree value: {type(node).__name__}")


def _as_field(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_as_field(item) for item in value)
    if isinstance(value, str):
        return sys.intern(value)  # names interned, as the parser does
    return value


# The root of each start rule's tree (checked when a cached tree is read; a formula's is
# any node: a number, a variable, an operation).
_TOPS: dict[str, type] = {"effects": ast.Effects, "cost": ast.Cost}


def _decode_node(obj: dict[str, Any]) -> Any:
    ((name, fields),) = obj.items()
    if not isinstance(fields, list):
        raise TypeError("a node's fields are a list")
    return _NODES[name](*[_as_field(value) for value in fields])


class SyntaxCache:
    """Syntax trees by (start rule, text), read from one file and written back at exit.

    The file is trusted only if this user owns it and no one else may write it; a file
    that cannot be read, or an entry that does not decode to a tree, is ignored (the
    text is parsed again).  Decoding makes nothing but the AST's own classes.
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._entries: dict[str, dict[str, str]] | None = None  # start -> text -> JSON
        self._trees: dict[tuple[str, str], Any] = {}
        self._new = 0
        self._registered = False

    def _load(self) -> dict[str, dict[str, str]]:
        if self._entries is None:
            self._entries = {start: {} for start in START_RULES}
            data = self._read()
            if isinstance(data, dict):
                for start in START_RULES:
                    texts = data.get(start)
                    if isinstance(texts, dict):
                        self._entries[start].update(
                            (t, e) for t, e in texts.items() if isinstance(e, str))
        return self._entries

    def _read(self) -> Any:
        if self.path is None:
            return None
        try:
            with open(self.path, "rb") as handle:
                status = os.fstat(handle.fileno())
                if hasattr(os, "getuid") and (status.st_uid != os.getuid()
                                              or status.st_mode & 0o022):
                    return None  # someone else could have written it
                return json.loads(handle.read())
        except (OSError, ValueError, RecursionError):
            return None

    def get(self, start: str, text: str) -> Any:
        """The tree of ``text`` parsed from ``start``, or None if it is not cached."""
        tree = self._trees.get((start, text))
        if tree is not None:
            return tree
        entries = self._load().get(start, {})
        encoded = entries.get(text)
        if encoded is None:
            return None
        try:
            tree = json.loads(encoded, object_hook=_decode_node)
        except (ValueError, TypeError, KeyError, RecursionError):
            tree = None
        if type(tree) not in _NODES.values() or not isinstance(tree, _TOPS.get(start, object)):
            del entries[text]
            return None
        self._remember(start, text, tree)
        return tree

    def _remember(self, start: str, text: str, tree: Any) -> None:
        if len(self._trees) < CACHE_ENTRIES:  # a long session (the language server) is bounded
            self._trees[(start, text)] = tree

    def put(self, start: str, text: str, tree: Any) -> None:
        """Remember the tree Lark made of ``text``; the file is written at exit."""
        self._remember(start, text, tree)
        if self.path is None or self._new >= CACHE_ENTRIES:
            return
        try:
            encoded = json.dumps(_encode(tree), separators=(",", ":"))
        except (TypeError, ValueError, RecursionError):
            return  # e.g. a formula nested too deep to write: parsed each time
        self._load()[start][text] = encoded
        self._new += 1
        if not self._registered:
            self._registered = True
            atexit.register(self.save)

    def save(self) -> None:
        """Write the trees to the file (atomically, readable by this user alone), keeping
        the newest :data:`CACHE_ENTRIES`; any failure leaves the cache as it was."""
        if self.path is None or not self._new or self._entries is None:
            return
        entries = self._entries
        while sum(len(texts) for texts in entries.values()) > CACHE_ENTRIES:
            for texts in entries.values():  # the oldest first, in every start rule
                if texts:
                    del texts[next(iter(texts))]
        folder = self.path.parent
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(prefix=".syntax-", dir=folder)
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as out:
                    json.dump(entries, out, separators=(",", ":"))
                os.replace(temporary, self.path)
            except BaseException:
                os.unlink(temporary)
                raise
            self._new = 0
            others = sorted(folder.glob(CACHE_PREFIX + "*.json"),
                            key=lambda p: p.stat().st_mtime, reverse=True)
            for stale in others[CACHE_FILES:]:
                stale.unlink()
        except OSError:
            pass


@lru_cache(maxsize=1)
def syntax_cache() -> SyntaxCache:
    """This process's cache (no file when caching is off or its key cannot be made)."""
    folder, key = cache_dir(), cache_key()
    return SyntaxCache(folder / f"{CACHE_PREFIX}{key}.json" if folder and key else None)
