"""A token drawn from its data: a disc in its kind's colour, the effect as symbols, the
name and the plain-English description."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from wonders.dsl import describe
from wonders.dsl.model import Token
from wonders.render.parts import effect_rows
from wonders.render.svg import FONT, PARCHMENT, colour, el, paragraph, svg_root, text, to_string

WIDTH = 200
HEIGHT = 270

# the kinds of the shipped rule sets, as painted; another kind gets a colour of its own
_KIND_PAINT = {"progress": "#3d8b3d", "victory": "#b03a2e", "defeat": "#3b3b3b",
               "debt": "#6b4423", "diplomacy": "#5b7fb5"}


def token_element(token: Token) -> ET.Element:
    """The token as an ``<svg>`` element (200 × 270 units)."""
    root = svg_root(WIDTH, HEIGHT, f"{token.name}: {describe.effects(token.effects)}")
    el(root, "desc", f"{token.kind} token")
    paint = _KIND_PAINT.get(token.kind) or colour(token.kind)
    el(root, "rect", x=1, y=1, width=WIDTH - 2, height=HEIGHT - 2, rx=12, fill="#efe6cf",
       stroke="#8a6d3b", stroke_width=1)
    cx, cy, r = WIDTH / 2, 94.0, 84.0
    el(root, "circle", cx=cx, cy=cy, r=r, fill=paint, stroke="#161616", stroke_width=2)
    el(root, "circle", cx=cx, cy=cy, r=r - 8, fill="none", stroke="#f4ead2", stroke_width=1,
       stroke_dasharray="3 2")
    el(root, "circle", cx=cx, cy=cy - 8, r=r - 24, fill=PARCHMENT, stroke="#161616",
       stroke_width=1)
    effect_rows(el(root, "g", class_="effect"), token.effects, cx - 52, cy - 54, 104, 88,
                biggest=40)
    text(root, cx, cy + r - 14, token.name, size=13 if len(token.name) < 16 else 10,
         weight="bold", family=FONT, fill="#ffffff")
    paragraph(root, cx, cy + r + 20, describe.effects(token.effects), WIDTH - 16, size=9,
              max_lines=5, style="italic")
    return root


def token_svg(token: Token) -> str:
    """The token as an SVG document (text)."""
    return to_string(token_element(token))


__all__ = ["token_element", "token_svg"]
