"""A wonder board's side drawn from its data: the name, what it gives from the start, and
each stage's cost and effect (symbols and words)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from wonders.dsl import describe
from wonders.dsl.model import Game, Wonder, WonderSide
from wonders.render import symbols
from wonders.render.parts import cost_column, effect_rows
from wonders.render.svg import FONT, INK, PARCHMENT, el, paragraph, roman, svg_root, text, to_string

WIDTH = 480
HEIGHT = 250
SAND = "#d9c08a"


def side_label(game: Game, side: WonderSide) -> str:
    """``A · Day`` where the rule set names its sides, else the letter."""
    named = dict(game.rules.model.setup.side_names).get(side.side)
    return f"{side.side} · {named}" if named else side.side


def wonder_element(wonder: Wonder, side: WonderSide, game: Game) -> ET.Element:
    """One side of a wonder board as an ``<svg>`` element (480 × 250 units)."""
    sided = len(wonder.sides) > 1
    title = wonder.name + (f" ({side_label(game, side)})" if sided else "")
    root = svg_root(WIDTH, HEIGHT, title)
    el(root, "desc", "; ".join(f"stage {n}: {describe.cost(s.cost)} → "
                               f"{describe.effects(s.effects)}"
                               for n, s in enumerate(side.stages, 1)) or "no stages")
    el(root, "rect", x=1, y=1, width=WIDTH - 2, height=HEIGHT - 2, rx=10, fill=SAND,
       stroke="#3a2a10", stroke_width=2)
    el(root, "rect", x=8, y=8, width=WIDTH - 16, height=HEIGHT - 16, rx=7, fill="none",
       stroke="#8a6d3b", stroke_width=1, stroke_dasharray="4 2")
    # what the city has from the start: a tile at the top left
    start_width = 0
    if side.start.clauses:
        start_width = 96
        el(root, "rect", x=14, y=14, width=start_width, height=62, rx=6, fill=PARCHMENT,
           stroke="#3a2a10", stroke_width=0.8)
        effect_rows(el(root, "g", class_="start"), side.start, 16, 16, start_width - 4, 44,
                    biggest=34)
        text(root, 14 + start_width / 2, 71, "from the start", size=7, fill="#5a4a30")
    # the name
    name_x = (14 + start_width + WIDTH - 14) / 2
    text(root, name_x, 44, wonder.name, size=22 if len(wonder.name) < 26 else 16,
         weight="bold", family=FONT, fill="#2b1d08")
    if sided:
        text(root, name_x, 64, f"side {side_label(game, side)}", size=10, family=FONT,
             fill="#5a4a30", font_style="italic")
    # the stages, side by side along the bottom
    count = max(1, len(side.stages))
    gap = 8.0
    box_width = (WIDTH - 28 - gap * (count - 1)) / count
    top, box_height = 86.0, HEIGHT - 86.0 - 14
    for number, stage in enumerate(side.stages, 1):
        x = 14 + (number - 1) * (box_width + gap)
        box = el(root, "g", class_="stage")
        el(box, "rect", x=x, y=top, width=box_width, height=box_height, rx=6, fill=PARCHMENT,
           stroke="#3a2a10", stroke_width=1)
        costs = symbols.cost(stage.cost)
        inner = 30 if costs else 4
        if costs:
            cost_column(el(box, "g", class_="cost"), costs, x + 4, top + 4, 18,
                        box_height - 8)
        effect_rows(el(box, "g", class_="effect"), stage.effects, x + inner, top + 6,
                    box_width - inner - 4, 64, biggest=36)
        paragraph(box, x + inner + (box_width - inner - 4) / 2, top + 86,
                  describe.effects(stage.effects), box_width - inner - 8,
                  size=9 if box_width > 200 else 7.5, max_lines=6, style="italic")
        text(box, x + inner + (box_width - inner - 4) / 2, top + box_height - 6,
             roman(number), size=10, weight="bold", family=FONT, fill=INK)
    if not side.stages:
        text(root, WIDTH / 2, top + box_height / 2, "no stages", size=12, family=FONT)
    return root


def wonder_svg(wonder: Wonder, side: WonderSide, game: Game) -> str:
    """One side of a wonder board as an SVG document (text)."""
    return to_string(wonder_element(wonder, side, game))


__all__ = ["side_label", "wonder_element", "wonder_svg"]
