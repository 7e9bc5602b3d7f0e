"""A card drawn from its data: colour, name, age, copies per player count, cost, chains,
effect as symbols with its plain-English description."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from wonders.dsl import describe
from wonders.dsl.model import Card, Game
from wonders.render import symbols
from wonders.render.icons import CHAIN, Glyph, place
from wonders.render.parts import cost_column, effect_rows
from wonders.render.svg import (
    FONT,
    INK,
    PARCHMENT,
    SANS,
    colour,
    el,
    on,
    paragraph,
    roman,
    svg_root,
    text,
    to_string,
    wrap,
)

WIDTH = 200
HEIGHT = 300


def players_line(card: Card, game: Game) -> str:
    """Who plays with the card: ``3+ 4+ 6+`` (a copy per marker) where the player count
    varies, ``×2`` for two copies at a fixed count, ``drawn`` for cards drawn at random."""
    if card.drawn:
        return "drawn"
    if game.rules.min_players == game.rules.max_players:
        count = card.copies(game.rules.max_players)
        return f"×{count}" if count != 1 else ""
    return " ".join(f"{p}+" for p in sorted(card.players))


def _temple(parent: ET.Element, paint: str) -> None:
    """A faint temple where a printed card has its picture: the body reads as a card."""
    group = el(parent, "g", fill=paint, opacity=0.13)
    el(group, "polygon", points="52,176 100,152 148,176")
    for x in range(56, 146, 18):
        el(group, "rect", x=x, y=180, width=8, height=44)
    el(group, "rect", x=48, y=226, width=104, height=6)
    el(group, "rect", x=42, y=234, width=116, height=6)


def card_element(card: Card, game: Game) -> ET.Element:
    """The card as an ``<svg>`` element (200 × 300 units; scale it with width/height)."""
    paint = colour(card.colour)
    ink = on(card.colour)
    root = svg_root(WIDTH, HEIGHT, f"{card.name}: {describe.effects(card.effects)}")
    el(root, "desc", f"{card.colour} card, age {card.age}; cost {describe.cost(card.cost)}")
    # the frame in the card's colour, a parchment body
    el(root, "rect", x=1, y=1, width=WIDTH - 2, height=HEIGHT - 2, rx=12, fill=paint,
       stroke="#1e1608", stroke_width=2)
    el(root, "rect", x=8, y=130, width=WIDTH - 16, height=116, rx=6, fill=PARCHMENT,
       stroke="#1e1608", stroke_width=0.8)
    _temple(root, paint)
    # the effect: a plate at the top, the cost on a tab at the left
    costs = symbols.cost(card.cost)
    left = 40 if costs else 10
    el(root, "rect", x=left, y=8, width=WIDTH - left - 8, height=114, rx=8, fill=PARCHMENT,
       stroke="#1e1608", stroke_width=0.8)
    effect_rows(el(root, "g", class_="effect"), card.effects, left + 2, 12, WIDTH - left - 12,
                106, biggest=66)
    if costs:
        cost_column(el(root, "g", class_="cost"), costs, 8, 8, 22, 120)
    # the words: the description, then the chains
    y = paragraph(el(root, "g", class_="description"), WIDTH / 2, 146,
                  describe.effects(card.effects), WIDTH - 30, size=9, max_lines=6,
                  style="italic")
    chains = [(True, n) for n in card.free_if_built] + [(False, n) for n in card.makes_free]
    if chains:
        y = max(y + 2, 246 - 16 * len(chains) - 4)
        group = el(root, "g", class_="chains")
        for free_here, name in chains:
            place(group, Glyph(CHAIN), 16, y - 1, 14)
            label = f"free if you built {name}" if free_here else f"makes {name} free"
            fits = min(8.5, (WIDTH - 50) / (max(1, len(label)) * 0.55))
            text(group, 34, y + 10, label, size=fits, anchor="start",
                 weight="bold" if free_here else "normal")
            y += 16
    # the banner: name, players, age
    lines = wrap(card.name, WIDTH - 60, 15)
    size = 15 if len(lines) == 1 else 12
    name_y = 270 if len(lines) == 1 else 264
    banner = el(root, "g", class_="name")
    for index, line in enumerate(lines[:2]):
        text(banner, WIDTH / 2, name_y + index * 14, line, size=size, weight="bold", fill=ink,
             family=FONT)
    who = players_line(card, game)
    if who:
        text(root, 14, 292, who, size=8, anchor="start", fill=ink, family=SANS,
             class_="players")
    if card.age:
        el(root, "circle", cx=WIDTH - 18, cy=HEIGHT - 18, r=11, fill=PARCHMENT,
           stroke="#1e1608", stroke_width=1)
        text(root, WIDTH - 18, HEIGHT - 14, roman(card.age), size=10, weight="bold",
             fill=INK, family=FONT, class_="age")
    if card.name in game.removed:
        el(root, "rect", x=4, y=HEIGHT / 2 - 14, width=WIDTH - 8, height=28, fill="#000000",
           fill_opacity=0.55)
        text(root, WIDTH / 2, HEIGHT / 2 + 5, "removed by this rule set", size=12,
             weight="bold", fill="#ffffff")
    return root


def card_svg(card: Card, game: Game) -> str:
    """The card as an SVG document (text)."""
    return to_string(card_element(card, game))


__all__ = ["card_element", "card_svg", "players_line"]
