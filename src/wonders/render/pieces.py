"""A decks game's components drawn from their data: each card kind, each Wonder built in
pieces (each piece a block placed on the pieces it rests on, with its cost, points and
effect), and each progress token (docs/language.md, "Components files")."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from wonders.dsl.components_model import (
    CardKind,
    PieceWonder,
    Progress,
    describe_kind,
    describe_piece,
    describe_progress,
)
from wonders.render.icons import COIN, POINTS, RESOURCE, SCIENCE, SHIELD, Glyph, row
from wonders.render.svg import FONT, PARCHMENT, colour, el, on, paragraph, svg_root, text, to_string

CARD_WIDTH, CARD_HEIGHT = 160, 230
_PIECE_WIDTH, _PIECE_HEIGHT, _GAP = 150, 74, 8
_RULE_MARK = {"different": "≠", "same": "=", "any": "·"}


def _glyphs(kind: CardKind) -> list[Glyph]:
    """What the card shows, as symbols: its resource, coins, points, shields, science; a
    cat and horns as words (no designed icon)."""
    glyphs: list[Glyph] = []
    if kind.resource is not None:
        glyphs.append(Glyph(RESOURCE, kind.resource))
    if kind.coins:
        glyphs.append(Glyph(COIN, value=str(kind.coins)))
    if kind.points:
        glyphs.append(Glyph(POINTS, value=str(kind.points)))
    if kind.science is not None:
        glyphs.append(Glyph(SCIENCE, kind.science))
    if kind.shields:
        glyphs.append(Glyph(SHIELD, value=str(kind.shields) if kind.shields > 1 else ""))
    return glyphs


def kind_svg(kind: CardKind) -> str:
    """A card of ``kind`` as an SVG document: its colour, name, symbols and words."""
    root = svg_root(CARD_WIDTH, CARD_HEIGHT, f"{kind.name}: {describe_kind(kind)}")
    paint = colour(kind.colour)
    el(root, "rect", x=1, y=1, width=CARD_WIDTH - 2, height=CARD_HEIGHT - 2, rx=10,
       fill=paint, stroke="#161616", stroke_width=2)
    el(root, "rect", x=10, y=40, width=CARD_WIDTH - 20, height=120, rx=6, fill=PARCHMENT,
       stroke="#3a2a1a", stroke_width=1)
    text(root, CARD_WIDTH / 2, 27, kind.name, size=15, weight="bold", family=FONT,
         fill=on(kind.colour))
    glyphs = _glyphs(kind)
    if glyphs:
        row(root, glyphs, CARD_WIDTH / 2, 62, 44, CARD_WIDTH - 30)
    extras = [w for w in (("a cat" if kind.cat else ""),
                          (f"{kind.horns} horn{'s' if kind.horns > 1 else ''}"
                           if kind.horns else "")) if w]
    if extras:
        text(root, CARD_WIDTH / 2, 140, " · ".join(extras), size=13, weight="bold")
    paragraph(root, CARD_WIDTH / 2, 182, describe_kind(kind), CARD_WIDTH - 16, size=10,
              max_lines=3, style="italic", fill=on(kind.colour))
    return to_string(root)


def _levels(wonder: PieceWonder) -> list[int]:
    """Each piece's level: 0 on the ground, else one above the highest piece it rests on."""
    levels: list[int] = []
    for piece in wonder.pieces:
        levels.append(1 + max((levels[j] for j in piece.rests_on), default=-1))
    return levels


def wonder_svg(wonder: PieceWonder) -> str:
    """A Wonder as an SVG document: its pieces stacked as they rest on each other, the
    ground level at the bottom, each with its number, cost, points and effect."""
    levels = _levels(wonder)
    rows = max(levels, default=0) + 1
    per_row = [levels.count(r) for r in range(rows)]
    width = max(per_row, default=1) * (_PIECE_WIDTH + _GAP) + _GAP
    height = 46 + rows * (_PIECE_HEIGHT + _GAP) + 34
    total = sum(p.points for p in wonder.pieces)
    root = svg_root(width, height, f"{wonder.name}: {len(wonder.pieces)} pieces, "
                    f"{total} points")
    el(root, "rect", x=1, y=1, width=width - 2, height=height - 2, rx=12, fill="#efe6cf",
       stroke="#8a6d3b", stroke_width=1)
    text(root, width / 2, 30, wonder.name, size=20, weight="bold", family=FONT)
    placed = [0] * rows
    for index, (piece, level) in enumerate(zip(wonder.pieces, levels)):
        in_row = per_row[level]
        left = (width - in_row * (_PIECE_WIDTH + _GAP) + _GAP) / 2
        x = left + placed[level] * (_PIECE_WIDTH + _GAP)
        placed[level] += 1
        y = 46 + (rows - 1 - level) * (_PIECE_HEIGHT + _GAP)
        block = el(root, "g", class_="piece")
        el(block, "rect", x=x, y=y, width=_PIECE_WIDTH, height=_PIECE_HEIGHT, rx=6,
           fill=PARCHMENT, stroke="#3a2a1a", stroke_width=1.2)
        mark = _RULE_MARK.get(piece.rule, piece.rule)
        text(block, x + 8, y + 20, f"{index + 1}", size=13, anchor="start", weight="bold")
        text(block, x + _PIECE_WIDTH / 2, y + 22, f"{piece.count}{mark}", size=18,
             weight="bold")
        row(block, [Glyph(POINTS, value=str(piece.points))], x + _PIECE_WIDTH - 20, y + 5,
            24, 30)
        effect = describe_piece(piece).split("; ", 2)[2:]   # (after the cost and the points)
        paragraph(block, x + _PIECE_WIDTH / 2, y + 42, "; ".join(effect) or " ",
                  _PIECE_WIDTH - 10, size=8.5, max_lines=3, style="italic")
    text(root, width / 2, height - 12, f"{total} points in all; ≠ different, = of one "
         "resource", size=10, font_style="italic")
    return to_string(root)


def progress_svg(token: Progress) -> str:
    """A progress token as an SVG document: a disc, its name and what it does."""
    size = 200
    root = svg_root(size, 250, f"{token.name}: {describe_progress(token)}")
    el(root, "rect", x=1, y=1, width=size - 2, height=248, rx=12, fill="#efe6cf",
       stroke="#8a6d3b", stroke_width=1)
    el(root, "circle", cx=size / 2, cy=84, r=74, fill="#3d8b3d", stroke="#161616",
       stroke_width=2)
    el(root, "circle", cx=size / 2, cy=84, r=62, fill=PARCHMENT, stroke="#161616",
       stroke_width=1)
    text(root, size / 2, 90, token.name, size=16 if len(token.name) < 12 else 12,
         weight="bold", family=FONT)
    if token.copies > 1:
        text(root, size / 2, 112, f"× {token.copies}", size=12)
    paragraph(root, size / 2, 180, describe_progress(token), size - 16, size=10,
              max_lines=6, style="italic")
    return to_string(root)


def element_of(svg: str) -> ET.Element:
    """An SVG document as an element (for pages that put drawings inline)."""
    return ET.fromstring(svg)


__all__ = ["element_of", "kind_svg", "progress_svg", "wonder_svg"]
