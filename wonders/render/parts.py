"""Pieces every drawing shares: a box of effect rows, a cost column, a name banner."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from wonders.dsl import effects as fx
from wonders.render import symbols
from wonders.render.icons import Glyph, place, row
from wonders.render.svg import INK, Number, el


def effect_rows(parent: ET.Element, value: fx.Effects, x: Number, y: Number, width: Number,
                height: Number, biggest: Number = 30, ink: str = INK) -> None:
    """Each clause's symbols on a row of its own, centred in the box, as big as fits."""
    rows = symbols.effects(value)
    if not rows:
        el(parent, "text", "—", x=x + width / 2, y=y + height / 2 + 5, font_size=14,
           text_anchor="middle", fill=ink)
        return
    gap = 4.0
    size = min(float(biggest), (height - gap * (len(rows) - 1)) / len(rows))
    top = y + (height - size * len(rows) - gap * (len(rows) - 1)) / 2
    for glyphs in rows:
        used = row(parent, glyphs, x + width / 2, top, size, width - 6, ink)
        top += size + gap
        del used


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
