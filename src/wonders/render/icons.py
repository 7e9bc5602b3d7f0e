"""Symbols drawn by code: resources, coins, shields, science symbols, points, tokens…

Each icon is drawn in a 20 × 20 box and placed with a transform, so one drawing serves
every size.  A name with no designed icon (a resource, science symbol or token kind a
designer adds) gets a generic tile with the name written on it, so new vocabulary always
renders.  :class:`Glyph` is what the effect pictures are made of; :func:`row` lays a
row of them out.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Callable

from wonders.render.svg import INK, SANS, Attribute, Number, colour, el, hashed, on

Draw = Callable[[ET.Element], None]

# glyph kinds
RESOURCE = "resource"
COIN = "coin"
SHIELD = "shield"
SCIENCE = "science"
POINTS = "points"
TOKEN = "token"
CARD = "card"
STAGE = "stage"
ABILITY = "ability"
PLACE = "place"
TEXT = "text"
CHAIN = "chain"
SPACE = "space"   # a Dice sheet space's symbol (laurel, attack, …)
TEXT_CAP = 28     # words between symbols stay small however big the symbols are drawn


@dataclass(frozen=True)
class Glyph:
    """One symbol of a picture: its kind, the vocabulary name it stands for, and a value
    written on or beside it (a number of coins or points, ``-2``, a label)."""

    kind: str
    name: str = ""
    value: str = ""

    def width(self, size: Number) -> float:
        if self.kind == TEXT:
            size = min(size, TEXT_CAP)
            return max(size * 0.3, len(self.name) * size * 0.36)
        if self.kind == PLACE and self.name in ("neighbours", "all", "others"):
            return size * 1.1
        if self.kind == PLACE:
            return size * (0.5 if self.name == "self" else 0.6)
        if self.kind == CARD:
            return size * 0.75
        return float(size)


def _tile(g: ET.Element, fill: str, stroke: str = "#3a2a1a") -> None:
    el(g, "rect", x=0.6, y=0.6, width=18.8, height=18.8, rx=3.5, fill=fill, stroke=stroke,
       stroke_width=0.9)


def _wood(g: ET.Element) -> None:
    _tile(g, "#e9d3a8")
    for y in (5.5, 11.5):
        el(g, "rect", x=2.5, y=y, width=14, height=5, rx=2.5, fill="#8b5a2b", stroke="#4e3117",
           stroke_width=0.7)
        el(g, "ellipse", cx=15, cy=y + 2.5, rx=1.8, ry=2.3, fill="#d9a86c", stroke="#4e3117",
           stroke_width=0.6)
        el(g, "circle", cx=15, cy=y + 2.5, r=0.8, fill="none", stroke="#8b5a2b",
           stroke_width=0.4)


def _stone(g: ET.Element) -> None:
    _tile(g, "#dcdcd6")
    for points in ("3,16 3,11 9,10 10,16", "10,16 9,10 17,11 17,16", "5,10 6,5 12,4 14,10"):
        el(g, "polygon", points=points, fill="#9c9c96", stroke="#4a4a46", stroke_width=0.8)


def _ore(g: ET.Element) -> None:
    _tile(g, "#c9c2bb")
    el(g, "polygon", points="3,15 5,8 10,4 16,7 17,14 11,17", fill="#4d4a52",
       stroke="#1f1d22", stroke_width=0.8)
    el(g, "polyline", points="5,8 10,10 16,7 M10,10", fill="none", stroke="#7c7884",
       stroke_width=0.6)
    el(g, "line", x1=10, y1=10, x2=11, y2=17, stroke="#7c7884", stroke_width=0.6)
    el(g, "path", d="M13 5 l0.6 1.4 1.4 0.6 -1.4 0.6 -0.6 1.4 -0.6 -1.4 -1.4 -0.6 1.4 -0.6z",
       fill="#f2f2f2")


def _clay(g: ET.Element) -> None:
    _tile(g, "#f0d2b8")
    for y, xs in ((4.5, (2.5, 10)), (9.5, (6.25,)), (14.5, (2.5, 10))):
        for x in xs:
            el(g, "rect", x=x, y=y, width=7.5, height=4, rx=0.8, fill="#c0623a",
               stroke="#6e2f16", stroke_width=0.6)
    el(g, "rect", x=2.5, y=9.5, width=3.4, height=4, rx=0.8, fill="#c0623a",
       stroke="#6e2f16", stroke_width=0.6)
    el(g, "rect", x=14.1, y=9.5, width=3.4, height=4, rx=0.8, fill="#c0623a",
       stroke="#6e2f16", stroke_width=0.6)


def _glass(g: ET.Element) -> None:
    _tile(g, "#d7eef2")
    el(g, "path", d="M8 3 h4 v3 c0 1.5 4 2.5 4 6.5 c0 3.5 -2 4.5 -6 4.5 s-6 -1 -6 -4.5 "
       "c0 -4 4 -5 4 -6.5z", fill="#5fb8c9", stroke="#1d5f6b", stroke_width=0.8,
       fill_opacity=0.85)
    el(g, "path", d="M6.5 12 c0 -2 1.5 -3 2.5 -3.5", fill="none", stroke="#ffffff",
       stroke_width=0.9, stroke_linecap="round")


def _papyrus(g: ET.Element) -> None:
    _tile(g, "#efe3c0")
    el(g, "rect", x=4, y=4.5, width=12, height=11, fill="#f7edce", stroke="#7a6030",
       stroke_width=0.7)
    for x in (4, 16):
        el(g, "ellipse", cx=x, cy=10, rx=1.6, ry=6.2, fill="#d8c089", stroke="#7a6030",
           stroke_width=0.7)
    for y in (7.5, 10, 12.5):
        el(g, "line", x1=6.5, y1=y, x2=13.5, y2=y, stroke="#a58d55", stroke_width=0.6)


def _loom(g: ET.Element) -> None:
    _tile(g, "#e6d5ec")
    el(g, "path", d="M3 5 q3.5 -2 7 0 t7 0 v10 q-3.5 2 -7 0 t-7 0z", fill="#8e44ad",
       stroke="#4a1f5c", stroke_width=0.8)
    for y in (8, 11):
        el(g, "path", d=f"M3 {y} q3.5 -2 7 0 t7 0", fill="none", stroke="#d7b3e6",
           stroke_width=0.7)


def _coin(value: str) -> Draw:
    def draw(g: ET.Element) -> None:
        el(g, "circle", cx=10, cy=10, r=9, fill="#f0c419", stroke="#8a6a00", stroke_width=1)
        el(g, "circle", cx=10, cy=10, r=7, fill="none", stroke="#c99a06", stroke_width=0.7)
        if value:
            el(g, "text", value, x=10, y=13.6, font_size=10 if len(value) < 3 else 7.5,
               text_anchor="middle", font_weight="bold", fill="#4a3500", font_family=SANS)
    return draw


def _shield(value: str) -> Draw:
    def draw(g: ET.Element) -> None:
        el(g, "path", d="M10 1.5 L17.5 4 C17.5 11 15 15.5 10 18.5 C5 15.5 2.5 11 2.5 4 Z",
           fill="#c0392b", stroke="#5e140c", stroke_width=1)
        el(g, "path", d="M10 4 L15 5.7 C15 10.5 13.3 13.8 10 16 C6.7 13.8 5 10.5 5 5.7 Z",
           fill="none", stroke="#f3b4a8", stroke_width=0.7)
        if value:
            el(g, "text", value, x=10, y=12.5, font_size=8, text_anchor="middle",
               font_weight="bold", fill="#ffffff", font_family=SANS)
    return draw


def _laurel(value: str) -> Draw:
    """Points: a number in a laurel wreath."""
    def draw(g: ET.Element) -> None:
        el(g, "circle", cx=10, cy=10, r=9.3, fill="#fff8e0", stroke="#7a6a2a", stroke_width=0.6)
        for side in (-1, 1):
            for step in range(5):
                angle = 42 + step * 29
                el(g, "ellipse", cx=10, cy=2.8, rx=1.3, ry=2.6, fill="#6f8f2f",
                   transform=f"rotate({side * angle} 10 10)")
        if value:
            el(g, "text", value, x=10, y=13.5, font_size=9.5 if len(value) < 3 else 7,
               text_anchor="middle", font_weight="bold", fill=INK, font_family=SANS)
    return draw


def _science_disc(g: ET.Element) -> None:
    el(g, "circle", cx=10, cy=10, r=9.3, fill="#2e7d32", stroke="#143d17", stroke_width=0.8)


_LINE: dict[str, Attribute] = {"fill": "none", "stroke": "#f4ead2", "stroke_width": 1.2,
                               "stroke_linecap": "round", "stroke_linejoin": "round"}


def _line(g: ET.Element, d: str) -> None:
    el(g, "path", d=d, **_LINE)


def _compass(g: ET.Element) -> None:
    _science_disc(g)
    _line(g, "M10 3.5 L5.5 16 M10 3.5 L14.5 16 M6.8 12 Q10 14 13.2 12")
    el(g, "circle", cx=10, cy=4, r=1.2, fill="#f4ead2")


def _wheel(g: ET.Element) -> None:
    _science_disc(g)
    el(g, "circle", cx=10, cy=10, r=6, **_LINE)
    el(g, "circle", cx=10, cy=10, r=1.4, fill="#f4ead2")
    _line(g, "M10 4 V16 M4 10 H16 M5.8 5.8 L14.2 14.2 M14.2 5.8 L5.8 14.2")


def _tablet(g: ET.Element) -> None:
    _science_disc(g)
    el(g, "rect", x=5.5, y=4, width=9, height=12, rx=1.2, **_LINE)
    _line(g, "M7.5 7 h5 M7.5 9.5 h5 M7.5 12 h3.5")


def _globe(g: ET.Element) -> None:
    _science_disc(g)
    el(g, "circle", cx=10, cy=10, r=6, **_LINE)
    el(g, "ellipse", cx=10, cy=10, rx=2.6, ry=6, **_LINE)
    _line(g, "M4 10 H16 M5 7 H15 M5 13 H15")


def _law(g: ET.Element) -> None:
    _science_disc(g)
    _line(g, "M10 4 V15.5 M6.5 15.5 H13.5 M5 6 H15 M5 6 L3.5 10 H6.5 Z M15 6 L13.5 10 H16.5 Z")


def _sundial(g: ET.Element) -> None:
    _science_disc(g)
    _line(g, "M4 13 A6 6 0 0 1 16 13 Z M10 13 L13.5 6.5 M10 13 V8 M10 13 L6.5 9")


def _mortar(g: ET.Element) -> None:
    _science_disc(g)
    _line(g, "M4.5 10 H15.5 Q15 15.5 10 15.5 Q5 15.5 4.5 10 M11 10 L15 4")


def _plumb_line(g: ET.Element) -> None:
    _science_disc(g)
    _line(g, "M4 15 L10 4 L16 15 M10 4 V11.5")
    el(g, "path", d="M8.8 11.5 H11.2 L10 14.5 Z", fill="#f4ead2")


def _quill(g: ET.Element) -> None:
    _science_disc(g)
    _line(g, "M5 16 L14 5 M14 5 Q16.5 8 11 12 Q8.5 13 7.5 13.2 M14 5 Q10 5.5 8.2 10.5")


def _stage(value: str) -> Draw:
    """A wonder stage: a stepped pyramid."""
    def draw(g: ET.Element) -> None:
        _tile(g, "#efe0b9")
        for step, (x, w) in enumerate(((3, 14), (5, 10), (7, 6))):
            el(g, "rect", x=x, y=14 - step * 4, width=w, height=4, fill="#c9a45c",
               stroke="#6b5220", stroke_width=0.7)
        if value:
            el(g, "text", value, x=10, y=8, font_size=6, text_anchor="middle",
               font_weight="bold", fill=INK, font_family=SANS)
    return draw


def _chain(g: ET.Element) -> None:
    for x in (6.5, 13.5):
        el(g, "rect", x=x - 4.5, y=7, width=9, height=6, rx=3, fill="none", stroke="#6b5220",
           stroke_width=1.6)


def _hash_colour(name: str) -> str:
    return hashed(name, 0.4, 0.8)


def _fit(g: ET.Element, label: str, y: float, fill: str, box: float = 17) -> None:
    """A label written to fit the 20-unit box."""
    size = min(7.0, box / max(1, len(label)) * 1.75)
    el(g, "text", label, x=10, y=y, font_size=size, text_anchor="middle",
       font_weight="bold", fill=fill, font_family=SANS)


def generic(name: str, value: str = "", round_: bool = False) -> Draw:
    """A tile for a name without a designed icon: its name written on it (so a
    designer's new resource, symbol or token kind still renders, recognisably)."""
    def draw(g: ET.Element) -> None:
        if round_:
            el(g, "circle", cx=10, cy=10, r=9.3, fill=_hash_colour(name), stroke="#3a2a1a",
               stroke_width=0.9)
        else:
            _tile(g, _hash_colour(name))
        label = name.replace("_", " ")
        if value:
            el(g, "text", value, x=10, y=10.5, font_size=8, text_anchor="middle",
               font_weight="bold", fill=INK, font_family=SANS)
            _fit(g, label[:8], 16.5, INK)
        else:
            words = label.split()
            if len(words) > 1 and len(label) > 8:
                _fit(g, words[0][:8], 9.2, INK)
                _fit(g, " ".join(words[1:])[:8], 15.5, INK)
            else:
                _fit(g, label[:9], 12.3, INK)
    return draw


_TOKEN_PAINT = {"victory": ("#b03a2e", "#ffffff"), "defeat": ("#3b3b3b", "#ffffff"),
                "progress": ("#3d8b3d", "#ffffff"), "debt": ("#6b4423", "#ffffff"),
                "diplomacy": ("#5b7fb5", "#ffffff")}


def _token(kind: str, value: str) -> Draw:
    if kind not in _TOKEN_PAINT:
        return generic(kind, value, round_=True)
    fill, ink = _TOKEN_PAINT[kind]

    def draw(g: ET.Element) -> None:
        el(g, "circle", cx=10, cy=10, r=9.3, fill=fill, stroke="#1e1e1e", stroke_width=0.8)
        el(g, "circle", cx=10, cy=10, r=7.3, fill="none", stroke=ink, stroke_width=0.5,
           stroke_dasharray="1.2 0.9")
        el(g, "text", value or kind[:1].upper(), x=10, y=11, font_size=7.5,
           text_anchor="middle", font_weight="bold", fill=ink, font_family=SANS)
        el(g, "text", kind[:4].upper(), x=10, y=15.8, font_size=3.6, text_anchor="middle",
           fill=ink, font_family=SANS)
    return draw


def _card(name: str, value: str) -> Draw:
    """A card of a colour (what ``per brown card`` counts); no colour: a blank card."""
    def draw(g: ET.Element) -> None:
        paint = colour(name) if name else "#f4ead2"
        el(g, "rect", x=2.5, y=1.5, width=10, height=17, rx=1.5, fill=paint,
           stroke="#1e1e1e", stroke_width=0.9, transform="translate(-0.25 0)")
        if value:
            el(g, "text", value, x=7.25, y=12.5, font_size=7, text_anchor="middle",
               font_weight="bold", fill=on(name) if name else INK, font_family=SANS)
    return draw


def _ability(name: str) -> Draw:
    """A power the engine implements: a star with the name's initials."""
    initials = "".join(word[:1] for word in name.split("_")).upper()[:3] or "?"

    def draw(g: ET.Element) -> None:
        el(g, "polygon", points="10,0.8 12.4,6.5 18.6,7 13.9,11 15.4,17.2 10,13.9 4.6,17.2 "
           "6.1,11 1.4,7 7.6,6.5", fill="#e8c547", stroke="#6b5220", stroke_width=0.8,
           stroke_linejoin="round")
        el(g, "text", initials, x=10, y=12, font_size=5 if len(initials) < 3 else 4,
           text_anchor="middle", font_weight="bold", fill=INK, font_family=SANS)
    return draw


def _arrow(g: ET.Element, x: float, pointing: int) -> None:
    tip, back = (x - 4, x + 4) if pointing < 0 else (x + 4, x - 4)
    el(g, "polygon", points=f"{tip},10 {back},5 {back},15", fill="#3a2a1a")


def _place(name: str, size_box: float) -> Draw:
    """Whose cities: arrows for neighbours, a label for the rest."""
    def draw(g: ET.Element) -> None:
        if name == "left":
            _arrow(g, 6, -1)
        elif name == "right":
            _arrow(g, 6, 1)
        elif name == "neighbours":
            _arrow(g, 5, -1)
            _arrow(g, size_box - 5, 1)
        elif name == "self":
            el(g, "circle", cx=size_box / 2, cy=10, r=3, fill="#3a2a1a")
        elif name in ("all", "others"):
            _arrow(g, 5, -1)
            _arrow(g, size_box - 5, 1)
            el(g, "circle", cx=size_box / 2, cy=10, r=2.2,
               fill="#3a2a1a" if name == "all" else "none", stroke="#3a2a1a", stroke_width=0.9)
        else:
            el(g, "text", name[:3], x=6, y=12.5, font_size=6.5, text_anchor="middle",
               font_style="italic", fill="#3a2a1a", font_family=SANS)
    return draw


_RESOURCES: dict[str, Draw] = {"wood": _wood, "stone": _stone, "ore": _ore, "clay": _clay,
                               "glass": _glass, "papyrus": _papyrus, "loom": _loom,
                               "cloth": _loom, "textile": _loom}
_SCIENCE: dict[str, Draw] = {"compass": _compass, "wheel": _wheel, "tablet": _tablet,
                             "gear": _wheel, "globe": _globe, "law": _law,
                             "sundial": _sundial, "mortar": _mortar,
                             "plumb_line": _plumb_line, "quill": _quill}


def _space(name: str, value: str) -> Draw:
    """A Dice space's symbol: a resource or science icon, a points laurel, a shield."""
    if name in _RESOURCES:
        return _RESOURCES[name]
    if name in _SCIENCE:
        return _SCIENCE[name]
    if name == "laurel":
        return _laurel(value)
    if name in ("attack", "defence", "defense"):
        return _shield(value or ("" if name == "attack" else "D"))
    if name == "coin":
        return _coin(value)
    return generic(name, value)


def _badged(draw: Draw, value: str) -> Draw:
    """An icon with a number on a badge at its corner (``produce 5 wood``)."""
    if not value:
        return draw

    def badged(g: ET.Element) -> None:
        draw(g)
        el(g, "circle", cx=15.5, cy=15.5, r=4.5, fill="#ffffff", stroke="#1e1e1e",
           stroke_width=0.7)
        el(g, "text", value, x=15.5, y=17.6, font_size=5.8 if len(value) < 3 else 4.2,
           text_anchor="middle", font_weight="bold", fill=INK, font_family=SANS)
    return badged


def drawing(glyph: Glyph, size: Number) -> Draw | None:
    """How to draw a glyph in its 20-unit box (None: a text glyph)."""
    kind, name, value = glyph.kind, glyph.name, glyph.value
    if kind == RESOURCE:
        return _badged(_RESOURCES[name], value) if name in _RESOURCES else generic(name, value)
    if kind == COIN:
        return _coin(value)
    if kind == SHIELD:
        return _shield(value)
    if kind == SCIENCE:
        return _SCIENCE.get(name) or generic(name, round_=True)
    if kind == POINTS:
        return _laurel(value)
    if kind == TOKEN:
        return _token(name, value)
    if kind == CARD:
        return _card(name, value)
    if kind == STAGE:
        return _stage(value)
    if kind == ABILITY:
        return _ability(name)
    if kind == CHAIN:
        return _chain
    if kind == PLACE:
        return _place(name, glyph.width(size) * 20 / size)
    if kind == SPACE:
        return _space(name, value)
    return None


def place(parent: ET.Element, glyph: Glyph, x: Number, y: Number, size: Number,
          ink: str = INK) -> float:
    """Draw ``glyph`` with its box's top-left at (x, y), ``size`` units tall; returns its
    width."""
    width = glyph.width(size)
    draw = drawing(glyph, size)
    if draw is None:
        font = min(size, TEXT_CAP) * 0.6
        el(parent, "text", glyph.name, x=x + width / 2, y=y + size / 2 + font * 0.36,
           font_size=font, text_anchor="middle", font_weight="bold", fill=ink,
           font_family=SANS)
        return width
    scale = size / 20
    group = el(parent, "g", transform=f"translate({x:.2f} {y:.2f}) scale({scale:.3f})")
    el(group, "title", glyph.name or glyph.kind)
    draw(group)
    return width


def row_width(glyphs: list[Glyph], size: Number, gap: Number) -> float:
    return sum(g.width(size) for g in glyphs) + gap * max(0, len(glyphs) - 1)


def row(parent: ET.Element, glyphs: list[Glyph], cx: Number, y: Number, size: Number,
        max_width: Number, ink: str = INK, gap: Number = 2) -> float:
    """Glyphs in a row centred on ``cx`` with their top at ``y``, shrunk to fit
    ``max_width``; returns the size used."""
    if not glyphs:
        return 0
    width = row_width(glyphs, size, gap)
    if width > max_width:
        size = size * max_width / width
        gap = gap * max_width / width
        width = max_width
    x = cx - width / 2
    for glyph in glyphs:
        x += place(parent, glyph, x, y, size, ink) + gap
    return float(size)


__all__ = ["ABILITY", "CARD", "CHAIN", "COIN", "Glyph", "PLACE", "POINTS", "RESOURCE",
           "SCIENCE", "SHIELD", "SPACE", "STAGE", "TEXT", "TOKEN", "generic", "place", "row",
           "row_width"]
