"""SVG building blocks: elements, text, wrapping, colours and file names.

Pictures are built as :mod:`xml.etree.ElementTree` trees, never by pasting strings, so
every drawing is well-formed XML and every name or description from the data is
escaped (a card called ``<&">`` draws safely).
"""

from __future__ import annotations

import colorsys
import hashlib
import re
import textwrap
import unicodedata
import xml.etree.ElementTree as ET
from typing import Union

SVG_NS = "http://www.w3.org/2000/svg"
Number = Union[int, float]
Attribute = Union[str, int, float]

FONT = "Georgia, 'DejaVu Serif', serif"
SANS = "'DejaVu Sans', Verdana, Arial, sans-serif"
INK = "#2b2118"
PARCHMENT = "#f4ead2"

# Card colours of the shipped vocabularies, as painted; any other colour a rule set
# declares gets a steady colour of its own from its name (see :func:`colour`).
PALETTE = {
    "brown": "#8b5a2b", "grey": "#8c8c8c", "gray": "#8c8c8c", "yellow": "#e0b030",
    "blue": "#2f6db5", "green": "#3d8b3d", "red": "#c0392b", "purple": "#7d3c98",
    "black": "#2d2d2d", "white": "#e8e4da", "orange": "#e67e22", "pink": "#d98cb3",
    "gold": "#d4a017", "silver": "#b8bcc2",
}


def _fmt(value: Attribute) -> str:
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return str(value)


def el(parent: ET.Element | None, tag: str, content: str | None = None, /,
       **attrs: Attribute) -> ET.Element:
    """An element (added to ``parent`` if given); ``stroke_width`` is written
    ``stroke-width``, a trailing ``_`` is dropped (``class_``)."""
    names = {key.rstrip("_").replace("_", "-"): _fmt(value) for key, value in attrs.items()}
    node = ET.Element(tag, names) if parent is None else ET.SubElement(parent, tag, names)
    if content is not None:
        node.text = content
    return node


def svg_root(width: Number, height: Number, title: str) -> ET.Element:
    """An ``<svg>`` of that size (in user units, scalable) with an accessible title."""
    root = el(None, "svg", xmlns=SVG_NS, width=width, height=height,
              viewBox=f"0 0 {_fmt(width)} {_fmt(height)}", role="img")
    el(root, "title", title)
    return root


def to_string(root: ET.Element) -> str:
    """The SVG document as text (UTF-8, no XML declaration: it embeds in HTML as is)."""
    return ET.tostring(root, encoding="unicode")


def text(parent: ET.Element, x: Number, y: Number, value: str, size: Number = 10,
         anchor: str = "middle", weight: str = "normal", fill: str = INK,
         family: str = SANS, **attrs: Attribute) -> ET.Element:
    return el(parent, "text", value, x=x, y=y, font_size=size, text_anchor=anchor,
              font_weight=weight, fill=fill, font_family=family, **attrs)


def wrap(value: str, width: Number, size: Number) -> list[str]:
    """``value`` broken into lines that fit ``width`` at font ``size`` (an average glyph
    is about half the font size wide in the sans face used)."""
    chars = max(8, int(width / (size * 0.53)))
    return textwrap.wrap(value, chars) or [""]


def paragraph(parent: ET.Element, x: Number, y: Number, value: str, width: Number,
              size: Number = 8, max_lines: int = 0, anchor: str = "middle",
              fill: str = INK, style: str = "normal") -> float:
    """Wrapped text from baseline ``y``; returns the y below the last line.  With
    ``max_lines`` the text is cut there and ends in an ellipsis."""
    lines = wrap(value, width, size)
    if max_lines and len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = lines[-1].rstrip(" ,;.") + "…"
    node = el(parent, "text", x=x, y=y, font_size=size, text_anchor=anchor, fill=fill,
              font_family=SANS, font_style=style)
    for index, line in enumerate(lines):
        el(node, "tspan", line, x=x, dy=0 if index == 0 else size * 1.2)
    return y + size * 1.2 * len(lines)


def colour(name: str) -> str:
    """The paint of a colour name: the palette's, or a steady hue from the name's hash
    (a designer's new colour draws the same every time)."""
    if name in PALETTE:
        return PALETTE[name]
    if re.fullmatch(r"#[0-9a-fA-F]{6}", name):
        return name
    return hashed(name, 0.45, 0.45)


def hashed(name: str, saturation: float, lightness: float) -> str:
    """A steady ``#rrggbb`` for a name: the hue from its hash (hex, as every SVG renderer
    reads it; CairoSVG paints ``hsl()`` black)."""
    hue = int(hashlib.sha256(name.encode()).hexdigest()[:4], 16) % 360 / 360
    red, green, blue = colorsys.hls_to_rgb(hue, lightness, saturation)
    return "#" + "".join(f"{round(c * 255):02x}" for c in (red, green, blue))


def light(name: str) -> bool:
    """Whether a colour is pale enough to want dark text on it."""
    paint = colour(name)
    if not paint.startswith("#"):
        return False
    red, green, blue = (int(paint[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * red + 0.587 * green + 0.114 * blue > 170


def on(name: str) -> str:
    """Text colour readable on that card colour."""
    return INK if light(name) else "#ffffff"


def roman(number: int) -> str:
    """``3`` → ``III`` (ages); 0 and big numbers as digits."""
    if not 0 < number < 40:
        return str(number)
    out = ""
    for value, letters in ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while number >= value:
            out += letters
            number -= value
    return out


def slug(name: str) -> str:
    """A file name for a thing's name: ASCII letters, digits and dashes."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-") or "item"


__all__ = ["FONT", "INK", "PARCHMENT", "SANS", "colour", "el", "hashed", "light", "on", "paragraph",
           "roman", "slug", "svg_root", "text", "to_string", "wrap"]
