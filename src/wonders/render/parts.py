"""Pieces every drawing shares: a box of effect rows, a cost column, a name banner."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from wonders.dsl import effects as fx
from wonders.render import symbols
from wonders.render.icons import TEXT, Glyph, place, row, row_width
from wonders.render.svg import INK, Number, el


def _fit(glyphs: list[Glyph], width: float, height: float, biggest: float) -> float:
    """The biggest size at which a row fits ``width`` (and ``height``)."""
    unit = row_width(glyphs, 1.0, 0.1)
    return min(biggest, height, width / unit if unit else biggest)


def effect_rows(parent: ET.Element, value: fx.Effects, x: Number, y: Number, width: Number,
                height: Number, biggest: Number = 30, ink: str = INK) -> None:
    """The clauses' symbols, centred in the box, as big as fits: a row per clause, or
    all on one row (a dot between clauses) when that draws them bigger (a wide box)."""
    rows = symbols.effects(value)
    if not rows:
        el(parent, "text", "—", x=x + width / 2, y=y + height / 2 + 5, font_size=14,
           text_anchor="middle", fill=ink)
        return
    gap = 4.0
    room = float(width) - 6
    stacked = min(_fit(r, room, (height - gap * (len(rows) - 1)) / len(rows), biggest)
                  for r in rows)
    joined = [g for index, r in enumerate(rows) for g in ([Glyph(TEXT, " · ")] if index else [])
              + r]
    single = _fit(joined, room, float(height), biggest) if len(rows) > 1 else 0.0
    if single > stacked:
        rows, stacked = [joined], single
    size = stacked
    top = y + (height - size * len(rows) - gap * (len(rows) - 1)) / 2
    for glyphs in rows:
        row(parent, glyphs, x + width / 2, top, size, room, ink, gap=size * 0.1)
        top += size + gap


def cost_column(parent: ET.Element, glyphs: list[Glyph], x: Number, y: Number,
                size: Number, max_height: Number, paint: str = "#f7efd9") -> float:
    """A cost as a column of symbols on a tab (nothing for a free build); returns the
    height used."""
    if not glyphs:
        return 0.0
    gap = 2.0
    height = len(glyphs) * size + (len(glyphs) - 1) * gap
    if height > max_height - 8:
        size = size * (max_height - 8) / height
        gap = gap * (max_height - 8) / height
        height = max_height - 8
    el(parent, "rect", x=x, y=y, width=size + 6, height=height + 8, rx=(size + 6) / 2.6,
       fill=paint, stroke="#3a2a1a", stroke_width=0.8, fill_opacity=0.95)
    top = y + 4
    for glyph in glyphs:
        place(parent, glyph, x + 3, top, size)
        top += size + gap
    return height + 8


__all__ = ["cost_column", "effect_rows"]
