"""Cards, wonder sides, tokens and Dice sheets drawn from their data, as SVG.

Each drawing is a function of the compiled data (no YAML, no game named in code) that
returns an SVG document as text, ready to write to a file or to put inline in a page
(the ``<svg>`` carries its ``viewBox``, so CSS sizes it):

* :func:`card_svg` (card, game), :func:`wonder_svg` (wonder, side, game),
  :func:`token_svg` (token), :func:`sheet_svg` (game, board name), :func:`dice_svg`;
* :func:`drawings` lists every drawing of a game, :func:`write_gallery` writes them
  with a browsable ``index.html``; :func:`catalogue` keys them as the web table's
  catalogue keys its data, for a page to draw what a view names;
* :func:`to_png` converts through CairoSVG (the optional extra ``wonders[render]``).

Symbols come from the vocabulary: a resource, science symbol, token kind or colour with
no designed icon gets a generic labelled one, so a designer's new names still draw.
"""

from __future__ import annotations

from wonders.render.card import card_svg
from wonders.render.gallery import Drawing, catalogue, drawings, index_html, write_gallery
from wonders.render.png import PngUnavailable, to_png
from wonders.render.sheet import dice_svg, sheet_svg
from wonders.render.token import token_svg
from wonders.render.wonder import wonder_svg

__all__ = ["Drawing", "PngUnavailable", "card_svg", "catalogue", "dice_svg", "drawings",
           "index_html", "sheet_svg", "to_png", "token_svg", "wonder_svg", "write_gallery"]
