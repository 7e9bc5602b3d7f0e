"""Every drawing of a game, and a browsable HTML gallery of them.

:func:`drawings` lists what a game has to draw (each card in the decks, each wonder
side, each token, each Dice sheet and the dice), with the file name the gallery gives
it; :func:`write_gallery` writes them and an ``index.html`` grouped by age and colour.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Callable

from wonders.dsl import describe
from wonders.dsl.components_model import describe_kind, describe_progress
from wonders.dsl.model import Game
from wonders.render.card import card_svg, players_line
from wonders.render.pieces import kind_svg, progress_svg
from wonders.render.pieces import wonder_svg as piece_wonder_svg
from wonders.render.sheet import dice_svg, sheet_svg
from wonders.render.svg import el, roman, slug
from wonders.render.token import token_svg
from wonders.render.wonder import side_label, wonder_svg


@dataclass(frozen=True)
class Drawing:
    """One picture: the gallery section and group it sits in, its caption, the file it is
    written to (relative, without suffix), and how to draw it."""

    section: str
    group: str
    caption: str
    detail: str
    path: str
    draw: Callable[[], str]


def _age_title(age: int) -> str:
    return f"Age {roman(age)}" if age else "Cards without an age"


def _unique(path: str, taken: set[str]) -> str:
    """``path``, or ``path-2``… when another drawing already has that file name."""
    found, number = path, 1
    while found in taken:
        number += 1
        found = f"{path}-{number}"
    taken.add(found)
    return found


def drawings(game: Game) -> list[Drawing]:
    """What the gallery of ``game`` shows, in order: the cards by age then by colour (in
    the vocabulary's order), the wonder sides, the tokens, the Dice sheets and dice.
    Cards a rule set removes (``remove:``) are left out, as they are out of the game."""
    out: list[Drawing] = []
    taken: set[str] = set()
    order = {name: index for index, name in enumerate(game.rules.vocabulary.colours)}
    cards = [c for c in game.cards if c.name not in game.removed]
    cards.sort(key=lambda c: (c.age == 0, c.age, order.get(c.colour, len(order)), c.colour))
    for card in cards:
        who = players_line(card, game)
        out.append(Drawing(_age_title(card.age), card.colour, card.name,
                           "; ".join(x for x in (describe.cost(card.cost), who) if x),
                           _unique(f"cards/{slug(card.name)}-{card.age}", taken),
                           partial(card_svg, card, game)))
    for wonder in game.wonders:
        for side in wonder.sides.values():
            label = side_label(game, side) if len(wonder.sides) > 1 else ""
            out.append(Drawing("Wonders", "", wonder.name, f"side {label}" if label else "",
                               _unique(f"wonders/{slug(wonder.name)}-{slug(side.side)}",
                                       taken), partial(wonder_svg, wonder, side, game)))
    for token in game.tokens:
        out.append(Drawing("Tokens", token.kind, token.name, f"{token.kind} token",
                           _unique(f"tokens/{slug(token.name)}", taken),
                           partial(token_svg, token)))
    components = game.components
    if components is not None:   # a decks game: its card kinds, Wonders and progress tokens
        for kind in components.kinds:
            out.append(Drawing("Cards", kind.colour, kind.name, describe_kind(kind),
                               _unique(f"cards/{slug(kind.name)}", taken),
                               partial(kind_svg, kind)))
        for built in components.wonders:
            out.append(Drawing("Wonders", "", built.name,
                               f"{len(built.pieces)} pieces, "
                               f"{sum(p.points for p in built.pieces)} points",
                               _unique(f"wonders/{slug(built.name)}", taken),
                               partial(piece_wonder_svg, built)))
        for progress in components.progress:
            out.append(Drawing("Tokens", "progress", progress.name, describe_progress(progress),
                               _unique(f"tokens/{slug(progress.name)}", taken),
                               partial(progress_svg, progress)))
    if game.dice is not None:
        for board in game.dice.boards:
            out.append(Drawing("Sheets", "", board.name, "the player sheet with this board",
                               _unique(f"sheets/{slug(board.name)}", taken),
                               partial(sheet_svg, game, board.name)))
        out.append(Drawing("Dice", "", "The dice", f"{len(game.dice.dice)} dice",
                           _unique("sheets/dice", taken), partial(dice_svg, game)))
    return out


def catalogue(game: Game) -> dict[str, dict[str, object]]:
    """Every drawing keyed as :func:`wonders.serve.present.catalogue` keys the data, for a
    page that draws what a view names: ``cards`` by name and, where a name recurs in
    another age, by ``name (age)`` too; ``wonders`` by name then side; ``tokens`` by name.
    Each value is an SVG document to put inline in the page (no ids, so any number of
    them can share a page) or to serve as ``image/svg+xml``."""
    cards: dict[str, object] = {}
    for card in game.cards:
        svg = card_svg(card, game)
        cards.setdefault(card.name, svg)
        cards[card.key] = svg
    wonders: dict[str, object] = {
        wonder.name: {letter: wonder_svg(wonder, side, game)
                      for letter, side in wonder.sides.items()} for wonder in game.wonders}
    tokens: dict[str, object] = {token.name: token_svg(token) for token in game.tokens}
    return {"cards": cards, "wonders": wonders, "tokens": tokens}


_STYLE = """
body { font-family: Georgia, 'DejaVu Serif', serif; background: #efe6cf; color: #2b2118;
       margin: 2em; }
h1 { margin-bottom: 0.2em; }
h2 { border-bottom: 2px solid #8a6d3b; padding-bottom: 0.2em; margin-top: 1.6em; }
h3 { font-size: 1em; text-transform: capitalize; color: #5a4a30; margin: 1em 0 0.4em; }
nav a { margin-right: 1em; }
.grid { display: flex; flex-wrap: wrap; gap: 14px; }
figure { margin: 0; text-align: center; width: 200px; }
figure.wide { width: 400px; }
figure img { width: 100%; height: auto; }
figcaption { font-size: 0.85em; }
figcaption small { display: block; color: #6b5a40; font-family: sans-serif; }
"""


def index_html(game: Game, items: list[Drawing], suffix: str) -> str:
    """The gallery page: a section per age (then wonders, tokens, sheets), a heading per
    colour, each picture linked to its file.  Well-formed XML as well as HTML, and every
    name escaped."""
    title = f"{game.rules.title}: the cards"
    html = el(None, "html", lang="en")
    head = el(html, "head")
    el(head, "meta", charset="utf-8")
    el(head, "title", title)
    el(head, "style", _STYLE)
    body = el(html, "body")
    el(body, "h1", title)
    sections: list[str] = []
    for item in items:
        if item.section not in sections:
            sections.append(item.section)
    counts = ", ".join(f"{sum(1 for i in items if i.section == s)} in {s}" for s in sections)
    removed = f"; {len(game.removed)} removed by the rule set, not shown" if game.removed else ""
    el(body, "p", f"{len(items)} drawings ({counts}){removed}. Drawn by 'wonders render' "
                  "from the data; each links to its picture.")
    nav = el(body, "nav")
    for section in sections:
        el(nav, "a", section, href=f"#{slug(section)}")
    for section in sections:
        el(body, "h2", section, id=slug(section))
        group: str | None = None
        grid: ET.Element | None = None
        for item in (i for i in items if i.section == section):
            if grid is None or item.group != group:
                group = item.group
                if group:
                    el(body, "h3", group)
                grid = el(body, "div", class_="grid")
            wide = item.section in ("Wonders", "Sheets", "Dice")
            figure = el(grid, "figure", class_="wide" if wide else "card")
            link = el(figure, "a", href=f"{item.path}{suffix}")
            el(link, "img", src=f"{item.path}{suffix}", alt=item.caption, loading="lazy")
            caption = el(figure, "figcaption", item.caption)
            if item.detail:
                el(caption, "small", item.detail)
    return "<!DOCTYPE html>\n" + ET.tostring(html, encoding="unicode") + "\n"


def write_gallery(game: Game, folder: Path, png: Callable[[str], bytes] | None = None) -> int:
    """Write every drawing (SVG, or PNG through ``png``) and ``index.html`` into
    ``folder``; returns the number of drawings.  OSError when a file cannot be written."""
    items = drawings(game)
    suffix = ".svg" if png is None else ".png"
    folder.mkdir(parents=True, exist_ok=True)
    for item in items:
        target = folder / f"{item.path}{suffix}"
        target.parent.mkdir(parents=True, exist_ok=True)
        svg = item.draw()
        if png is None:
            target.write_text(svg, encoding="utf-8")
        else:
            target.write_bytes(png(svg))
    (folder / "index.html").write_text(index_html(game, items, suffix), encoding="utf-8")
    return len(items)


__all__ = ["Drawing", "catalogue", "drawings", "index_html", "write_gallery"]
