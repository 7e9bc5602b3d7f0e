"""A dice-forum game's player sheet drawn from its data: every building's spaces (symbol,
how many resource types they need, effect), the bonuses, and one board's wonder stages;
and the forum's dice, face by face."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from wonders.dsl import describe
from wonders.dsl.model import Game
from wonders.dsl.sheets_model import Board, DiceSet, Space
from wonders.render import symbols
from wonders.render.icons import CARD, COIN, SHIELD, SPACE, Glyph, row
from wonders.render.parts import effect_rows
from wonders.render.svg import (
    FONT,
    INK,
    PARCHMENT,
    colour,
    el,
    on,
    paragraph,
    roman,
    svg_root,
    text,
    to_string,
)

WIDTH = 820
LABEL = 150
BOX = 62
GAP = 4
ROW = BOX + 10


def _types_badge(parent: ET.Element, x: float, y: float, count: int) -> None:
    """How many different resource types a space needs (one coin per type lacking)."""
    el(parent, "rect", x=x, y=y, width=15, height=13, rx=3, fill="#6d6d6d", stroke="#2b2b2b",
       stroke_width=0.6)
    text(parent, x + 7.5, y + 10, str(count), size=9, weight="bold", fill="#ffffff")


def _space_glyphs(space: Space) -> list[Glyph]:
    """What crossing a space gives besides its effect clauses."""
    out: list[Glyph] = []
    if space.attack:
        out.append(Glyph(SHIELD, value=str(space.attack)))
    if space.defence:
        out.append(Glyph(SPACE, "defence"))
    if space.unlock:
        out.append(Glyph(CARD, space.unlock, "die"))
    if space.die_discount:
        out.append(Glyph(COIN, value=f"-{space.die_discount}"))
    return out


def _space(parent: ET.Element, space: Space, x: float, y: float) -> None:
    el(parent, "rect", x=x, y=y, width=BOX, height=BOX, rx=5, fill=PARCHMENT,
       stroke="#3a2a1a", stroke_width=0.8)
    _types_badge(parent, x + 3, y + 3, space.cost)
    rows = [glyphs for glyphs in symbols.effects(space.effects)]
    extra = _space_glyphs(space)
    if extra:
        rows.append(extra)
    if space.symbol and not rows:   # nothing else to show: the symbol is the picture
        rows = [[Glyph(SPACE, space.symbol)]]
    elif space.symbol and not space.attack and not space.defence:
        row(parent, [Glyph(SPACE, space.symbol)], x + BOX - 10, y + 3, 13, 14)
    if not rows:
        return
    size = min(24.0, (BOX - 22) / len(rows))
    top = y + 19 + (BOX - 22 - size * len(rows)) / 2
    for glyphs in rows:
        row(parent, glyphs, x + BOX / 2, top, size, BOX - 6)
        top += size


def _label(parent: ET.Element, x: float, y: float, name: str, paint_name: str,
           note: str) -> None:
    el(parent, "rect", x=x, y=y, width=LABEL - 8, height=BOX, rx=5, fill=colour(paint_name),
       stroke="#1e1608", stroke_width=1)
    ink = on(paint_name)
    text(parent, x + (LABEL - 8) / 2, y + BOX / 2 + (0 if note else 4), name,
         size=13 if len(name) < 15 else 10, weight="bold", family=FONT, fill=ink)
    if note:
        text(parent, x + (LABEL - 8) / 2, y + BOX / 2 + 16, note, size=8, fill=ink)


def sheet_element(game: Game, board: Board) -> ET.Element:
    """A player's sheet with ``board``'s wonder as an ``<svg>`` element."""
    dice = game.dice
    assert dice is not None
    rows = len(dice.buildings) + (1 if dice.bonuses else 0) + 1
    height = 60 + rows * ROW + 40
    root = svg_root(WIDTH, height, f"{board.name}: the player sheet ({game.rules.title})")
    el(root, "desc", f"{len(dice.buildings)} buildings, {len(dice.bonuses)} bonuses, "
       f"{len(board.stages)} wonder stages")
    el(root, "rect", x=1, y=1, width=WIDTH - 2, height=height - 2, rx=10, fill="#e9dcb8",
       stroke="#3a2a10", stroke_width=2)
    text(root, WIDTH / 2, 34, board.name, size=24, weight="bold", family=FONT)
    text(root, WIDTH / 2, 50, "grey badge: the number of different resource types a space "
         "needs (1 coin for each type lacking)", size=8, fill="#5a4a30")
    y = 60.0
    for building in dice.buildings:
        notes = [n for n in ("any order" if building.order == "any" else "",
                             f"first to finish: {building.first} points" if building.first
                             else "", f"against the {building.side}" if building.side else "")
                 if n]
        line = el(root, "g", class_="building")
        _label(line, 12, y, building.name, building.colour, "; ".join(notes))
        for index, space in enumerate(building.spaces):
            _space(el(line, "g", class_="space"), space, 12 + LABEL + index * (BOX + GAP), y)
        y += ROW
    if dice.bonuses:
        _label(root, 12, y, "Bonuses", "gold", "one per building completed")
        width = 150.0
        for index, bonus in enumerate(dice.bonuses):
            x = 12 + LABEL + index * (width + GAP)
            el(root, "rect", x=x, y=y, width=width, height=BOX, rx=5, fill=PARCHMENT,
               stroke="#3a2a1a", stroke_width=0.8)
            if bonus.effects.clauses:
                effect_rows(root, bonus.effects, x + 2, y + 3, width - 4, 30, biggest=24)
                words = describe.effects(bonus.effects)
            else:
                words = "cross a space of " + ", ".join(dice.buildings[i].name
                                                         for i in bonus.cross)
            paragraph(root, x + width / 2, y + 44, words, width - 8, size=7.5, max_lines=2,
                      style="italic")
        y += ROW
    _label(root, 12, y, "Wonder", "gold", f"{len(board.stages)} stages, in order")
    width = (WIDTH - 24 - LABEL - GAP * (len(board.stages) - 1)) / max(1, len(board.stages))
    for number, stage in enumerate(board.stages, 1):
        x = 12 + LABEL + (number - 1) * (width + GAP)
        box = el(root, "g", class_="stage")
        el(box, "rect", x=x, y=y, width=width, height=BOX, rx=5, fill=PARCHMENT,
           stroke="#3a2a1a", stroke_width=0.8)
        _types_badge(box, x + 3, y + 3, stage.cost)
        text(box, x + width - 10, y + 13, roman(number), size=9, weight="bold", family=FONT)
        effect_rows(el(box, "g", class_="effect"), stage.effects, x + 20, y + 2, width - 40,
                    34, biggest=26)
        paragraph(box, x + width / 2, y + 46, describe.effects(stage.effects), width - 10,
                  size=7.5, max_lines=2, style="italic")
    y += ROW
    turns = f"{dice.extra_turns} more turn{'' if dice.extra_turns == 1 else 's'}"
    text(root, WIDTH / 2, y + 14, f"Coin reserve: {dice.reserve}. Passing gives: "
         f"{describe.effects(dice.pass_effects)}. The game ends when a player has "
         f"{dice.end_bonuses} bonuses, after {turns}.", size=9, fill=INK)
    return root


def dice_element(game: Game) -> ET.Element:
    """The forum's dice, each face as the symbol it crosses (or its building's name)."""
    dice = game.dice
    assert dice is not None
    faces = max((len(d.faces) for d in dice.dice), default=1)
    width = 170 + faces * 52 + 12
    height = 56 + len(dice.dice) * 56 + 12
    root = svg_root(width, height, f"The dice ({game.rules.title})")
    el(root, "rect", x=1, y=1, width=width - 2, height=height - 2, rx=10, fill="#e9dcb8",
       stroke="#3a2a10", stroke_width=2)
    quadrants = ", ".join(map(str, dice.quadrants))
    text(root, width / 2, 30, "The dice", size=20, weight="bold", family=FONT)
    text(root, width / 2, 46, f"the forum's quadrants cost {quadrants} coins", size=9)
    for index, die in enumerate(dice.dice):
        y = 56 + index * 56
        paint = colour(die.colour)
        when = "from the start" if die.start else "unlocked"
        text(root, 14, y + 22, die.name.replace("_", " "), size=12, weight="bold",
             anchor="start", family=FONT)
        text(root, 14, y + 36, when, size=8, anchor="start", fill="#5a4a30")
        for number, face in enumerate(die.faces):
            x = 170 + number * 52
            el(root, "rect", x=x, y=y, width=46, height=46, rx=8, fill=paint,
               stroke="#1e1608", stroke_width=1)
            building = dice.buildings[face.building]
            el(root, "rect", x=x + 5, y=y + 5, width=36, height=36, rx=5, fill=PARCHMENT,
               stroke="#1e1608", stroke_width=0.5)
            # the symbol it crosses, or (any next space) its building
            face_group = el(root, "g", class_="face")
            el(face_group, "title", building.name + (f": {face.symbol}" if face.symbol else ""))
            row(face_group, [Glyph(SPACE, face.symbol or building.key)], x + 23, y + 8, 30, 32)
    return root


def board(dice: DiceSet, name: str) -> Board | None:
    for item in dice.boards:
        if item.name == name:
            return item
    return None


def sheet_svg(game: Game, board_name: str) -> str:
    """The sheet with that board as an SVG document (text); KeyError for an unknown board."""
    assert game.dice is not None
    found = board(game.dice, board_name)
    if found is None:
        raise KeyError(board_name)
    return to_string(sheet_element(game, found))


def dice_svg(game: Game) -> str:
    return to_string(dice_element(game))


__all__ = ["board", "dice_element", "dice_svg", "sheet_element", "sheet_svg"]
