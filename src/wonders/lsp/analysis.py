"""What the language server says about one file, as plain values (no protocol here).

Diagnostics are exactly those of ``wonders validate`` on the file's folder (or ``wonders
check`` for a scenario file), with the editor's unsaved text in place of the file's;
completion and hover read the game that folder last loaded without errors, so they keep
working while the file being typed is broken.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

from wonders.dsl import describe
from wonders.dsl.errors import Diagnostic, Location
from wonders.dsl.loader import load_each
from wonders.dsl.model import Card, Game, Token, Wonder
from wonders.dsl.parser import keywords
from wonders.dsl.schema import schema
from wonders.dsl.source import unsaved

KINDS = ("cards", "wonders", "rules", "tokens", "forum", "sheets", "components", "scenario")
_KIND = re.compile(r"^kind:\s*['\"]?(\w+)", re.M)
_KEY_POSITION = re.compile(r"^\s*(?:-\s+)?[A-Za-z_]*$")


@dataclass(frozen=True)
class Suggestion:
    """One completion: the text, what sort of thing it is, and a line about it."""

    label: str
    sort: str      # "key", "name" (a vocabulary name) or "word" (of the effect language)
    detail: str


def kind_of(text: str) -> str:
    """The file kind its ``kind:`` line names (``cards`` when it names none yet)."""
    found = _KIND.search(text)
    return found.group(1) if found and found.group(1) in KINDS else "cards"


_GAMES: dict[Path, Game] = {}  # folder -> the game it last loaded without errors


def diagnostics(path: Path, text: str) -> list[Diagnostic]:
    """Every problem ``validate`` (or ``check``) finds in ``path`` with ``text`` as its
    contents: all stages, all of this file's diagnostics, in file order."""
    path = path.resolve()
    with unsaved({path: text}):
        if kind_of(text) == "scenario":
            from wonders.scenarios.draft import check_file  # the engine, only for scenarios

            found = list(check_file(path).report.diagnostics)
        else:
            found = []
            for result in load_each([path.parent]):
                found += result.report.diagnostics
                if result.ok and result.game is not None:
                    _GAMES[path.parent] = result.game
    mine = [d for d in found if _is_file(d.location, path)]
    return sorted(mine, key=lambda d: (d.location.line, d.location.column, d.code))


def _is_file(location: Location, path: Path) -> bool:
    try:
        return Path(location.file).resolve() == path
    except (OSError, RuntimeError):
        return False


def game_for(path: Path) -> Game | None:
    """The game the file's folder loaded last without errors (loaded now if never)."""
    folder = path.resolve().parent
    if folder not in _GAMES:
        for result in load_each([folder]):
            if result.ok and result.game is not None:
                _GAMES[folder] = result.game
                break
    return _GAMES.get(folder)


def completions(path: Path, text: str, line: int, column: int) -> list[Suggestion]:
    """What may be typed at (0-based) ``line``/``column``: a key where a key goes, else
    the game's vocabulary names and the effect language's words."""
    lines = text.splitlines()
    before = lines[line][:column] if line < len(lines) else ""
    if _KEY_POSITION.match(before):
        return [Suggestion(name, "key", about) for name, about in keys(kind_of(text))]
    found: list[Suggestion] = []
    game = game_for(path)
    if game is not None:
        vocabulary = game.rules.vocabulary
        for sort, names in (("resource", vocabulary.resources),
                            ("resource category", tuple(vocabulary.resource_categories)),
                            ("colour", vocabulary.colours), ("science symbol", vocabulary.science),
                            ("token kind", vocabulary.tokens), ("place", vocabulary.places),
                            ("ability", vocabulary.abilities), ("period", vocabulary.periods)):
            found += [Suggestion(name, "name", sort) for name in names]
    seen = {s.label for s in found}
    found += [Suggestion(word, "word", "effect language") for word in keywords()
              if word not in seen]
    return found


@lru_cache(maxsize=None)
def keys(kind: str) -> tuple[tuple[str, str], ...]:
    """Every key the file kind's schema names, at any depth, with its description."""
    found: dict[str, str] = {}
    for name, about in _properties(schema(kind)):
        found.setdefault(name, about)
    return tuple(sorted(found.items()))


def _properties(node: Any) -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        for name, value in (node.get("properties") or {}).items():
            about = value.get("description", "") if isinstance(value, dict) else ""
            yield name, about
        for value in node.values():
            yield from _properties(value)
    elif isinstance(node, list):
        for value in node:
            yield from _properties(value)


def hover(path: Path, line: int) -> str | None:
    """Markdown about the card, wonder or token written around (0-based) ``line``."""
    game = game_for(path)
    if game is None:
        return None
    path = path.resolve()
    items: list[Card | Wonder | Token] = [*game.cards, *game.wonders, *game.tokens]
    here = [item for item in items
            if _is_file(item.location, path) and 0 < item.location.line <= line + 1]
    if not here:
        return None
    item = max(here, key=lambda found: found.location.line)
    return describe_item(item) + "\n\n" + drawing(item, game)


def drawing(item: Card | Wonder | Token, game: Game) -> str:
    """The item's drawing (``wonders render``) as a Markdown image an editor's hover shows
    inline: an SVG in a ``data:`` address (a wonder: its first side)."""
    from wonders.render import card_svg, token_svg, wonder_svg

    if isinstance(item, Card):
        svg = card_svg(item, game)
    elif isinstance(item, Token):
        svg = token_svg(item)
    else:
        svg = wonder_svg(item, next(iter(item.sides.values())), game)
    encoded = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    return f"![{item.name}](data:image/svg+xml;base64,{encoded})"


def describe_item(item: Card | Wonder | Token) -> str:
    """A card, wonder or token in a few lines of Markdown, as ``wonders cards`` says it."""
    if isinstance(item, Card):
        lines = [f"**{item.name}** — {item.colour}, age {item.age}",
                 f"cost: {describe.cost(item.cost)}",
                 f"effect: `{item.effects.text}`", "", describe.effects(item.effects)]
        if item.free_if_built:
            lines.append(f"free if you have built: {', '.join(item.free_if_built)}")
        if item.makes_free:
            lines.append(f"makes free: {', '.join(item.makes_free)}")
        return "\n".join(lines)
    if isinstance(item, Token):
        return "\n".join([f"**{item.name}** — {item.kind} token",
                          f"effect: `{item.effects.text}`", "", describe.effects(item.effects)])
    lines = [f"**{item.name}**"]
    for letter, side in item.sides.items():
        lines.append(f"side {letter}: starts with {describe.effects(side.start)}")
        for number, stage in enumerate(side.stages, start=1):
            lines.append(f"- stage {number}: {describe.cost(stage.cost)} → "
                         f"{describe.effects(stage.effects)}")
    return "\n".join(lines)


__all__ = ["KINDS", "Suggestion", "completions", "describe_item", "diagnostics", "drawing",
           "game_for",
           "hover", "keys", "kind_of"]
