"""``wonders render``: cards, wonder sides, tokens and Dice sheets drawn as SVG (or PNG),
one at a time or as a whole gallery.

The drawing code (:mod:`wonders.render`) and the data are imported inside the command,
so registering it costs the command line's start-up nothing.
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Optional, Sequence

import typer

if TYPE_CHECKING:
    from wonders.dsl.model import Game

PATHS_HELP = "Card, wonder, token or rule files, or folders of them (added to --game)."


class PictureFormat(str, Enum):
    svg = "svg"
    png = "png"


def _pick(kind: str, name: str, known: Sequence[str], hint: str) -> None:
    """A usage error for a name the game does not have, with a "did you mean"."""
    from wonders.dsl.errors import closest

    if name in known:
        return
    near = closest(name, known)
    listing = f" (known: {', '.join(known[:12])}{', …' if len(known) > 12 else ''})" \
        if known else f" (this game has no {kind}s)"
    raise typer.BadParameter(f"no {kind} named '{name}'" + (
        f"; did you mean '{near}'?" if near else listing), param_hint=hint)


def _one(game: "Game", card: str | None, wonder: str | None, token: str | None,
         sheet: str | None, side: str | None, age: int | None) -> str:
    """The one drawing asked for, as SVG text (usage errors for unknown names)."""
    from wonders.render import card_svg, dice_svg, sheet_svg, token_svg, wonder_svg

    components = game.components
    if components is not None and sheet is None:   # a decks game's kinds, Wonders, tokens
        from wonders.render.pieces import kind_svg, progress_svg
        from wonders.render.pieces import wonder_svg as piece_wonder_svg

        if card is not None:
            _pick("card", card, [k.name for k in components.kinds], "--card")
            return kind_svg(next(k for k in components.kinds if k.name == card))
        if wonder is not None:
            _pick("wonder", wonder, [w.name for w in components.wonders], "--wonder")
            return piece_wonder_svg(next(w for w in components.wonders if w.name == wonder))
        assert token is not None
        _pick("token", token, [t.name for t in components.progress], "--token")
        return progress_svg(next(t for t in components.progress if t.name == token))
    if card is not None:
        _pick("card", card, list(dict.fromkeys(c.name for c in game.cards)), "--card")
        found = [c for c in game.cards if c.name == card and (age is None or c.age == age)]
        if not found:
            ages = ", ".join(str(c.age) for c in game.cards if c.name == card)
            raise typer.BadParameter(f"'{card}' is a card of age {ages}, not {age}",
                                     param_hint="--age")
        if len(found) > 1:
            ages = ", ".join(str(c.age) for c in found)
            raise typer.BadParameter(f"'{card}' is in ages {ages}: give --age",
                                     param_hint="--card")
        return card_svg(found[0], game)
    if wonder is not None:
        _pick("wonder", wonder, [w.name for w in game.wonders], "--wonder")
        board = game.wonder(wonder)
        assert board is not None
        letters = list(board.sides)
        names = {v.lower(): k for k, v in game.rules.model.setup.side_names.items()}
        chosen = letters[0] if side is None else names.get(side.lower(), side)
        _pick("side", chosen, letters, "--side")
        return wonder_svg(board, board.sides[chosen], game)
    if token is not None:
        _pick("token", token, [t.name for t in game.tokens], "--token")
        return token_svg(next(t for t in game.tokens if t.name == token))
    assert sheet is not None
    if game.dice is None:
        raise typer.BadParameter(f"{game.rules.title} has no player sheets (only a dice "
                                 "game has)", param_hint="--sheet")
    boards = [b.name for b in game.dice.boards]
    if sheet == "dice" and "dice" not in boards:
        return dice_svg(game)
    _pick("sheet", sheet, boards + ["dice"], "--sheet")
    return sheet_svg(game, sheet)


def render(
    paths: Optional[list[Path]] = typer.Argument(None, help=PATHS_HELP, show_default=False),
    game: Optional[str] = typer.Option(None, "--game", "-g", help=(
        "A shipped game by name (see 'wonders games'), e.g. base, duel, dice, leaders; or "
        "the path of a rule-set file or folder.")),
    card: Optional[str] = typer.Option(None, "--card", help="Draw this card."),
    wonder: Optional[str] = typer.Option(None, "--wonder", help="Draw a side of this wonder."),
    token: Optional[str] = typer.Option(None, "--token", help="Draw this token."),
    sheet: Optional[str] = typer.Option(None, "--sheet", help=(
        "A dice game: draw the player sheet with this board ('dice': the dice).")),
    side: Optional[str] = typer.Option(None, "--side", help=(
        "With --wonder: the side (A, B or the rule set's name for it); default the first.")),
    age: Optional[int] = typer.Option(None, "--age", help=(
        "With --card: the age, for a name that recurs in several ages.")),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help=(
        "With a name: the file to write (default: standard output, SVG only). Without "
        "one: the folder that gets the gallery (index.html and a picture of everything).")),
    picture_format: PictureFormat = typer.Option(PictureFormat.svg, "--format", "-f", help=(
        "svg, or png (needs CairoSVG, the optional extra: pip install "
        "'wonders\\[render]').")),
) -> None:
    """Draw a card, wonder side, token or Dice sheet from its data, or a whole gallery.

    'wonders render --game base --card NAME' prints that card as SVG.

    'wonders render --game base -o DIR' writes a gallery: DIR/index.html and every picture.
    """
    from wonders.cli.data_commands import _load, _require_game
    from wonders.cli.options import fail, write_output

    chosen = [n for n, v in (("--card", card), ("--wonder", wonder), ("--token", token),
                             ("--sheet", sheet)) if v is not None]
    if len(chosen) > 1:
        raise typer.BadParameter(f"draw one thing at a time: {' and '.join(chosen)}",
                                 param_hint=chosen[1])
    if side is not None and wonder is None:
        raise typer.BadParameter("--side goes with --wonder", param_hint="--side")
    if age is not None and card is None:
        raise typer.BadParameter("--age goes with --card", param_hint="--age")
    if not chosen and output is None:
        raise typer.BadParameter("name what to draw (--card, --wonder, --token or --sheet), "
                                 "or give -o DIR for the whole gallery", param_hint="--output")
    png = picture_format is PictureFormat.png
    if png and chosen and output is None:
        raise typer.BadParameter("a PNG needs --output FILE", param_hint="--output")
    loaded = _require_game(_load(paths, game))
    if png:
        from wonders.render.png import PngUnavailable, require

        try:
            require()
        except PngUnavailable as exc:
            fail(str(exc))
    from wonders.render import to_png, write_gallery

    if not chosen:
        assert output is not None
        if output.exists() and not output.is_dir():
            fail(f"cannot write the gallery to {output}: it is a file, not a folder")
        try:
            count = write_gallery(loaded, output, to_png if png else None)
        except OSError as exc:
            fail(f"cannot write the gallery to {output}: {exc.strerror or exc}")
        sys.stdout.write(f"wrote {count} drawings and {output / 'index.html'}\n")
        return
    picture = _one(loaded, card, wonder, token, sheet, side, age)
    if output is None:
        sys.stdout.write(picture + "\n")
        return
    if png:
        try:
            output.write_bytes(to_png(picture))
        except OSError as exc:
            fail(f"cannot write the picture to {output}: {exc.strerror or exc}")
    else:
        write_output(output, lambda handle: handle.write(picture + "\n"), "the picture")
    sys.stdout.write(f"wrote {output}\n")


def register(app: typer.Typer) -> None:
    app.command()(render)


__all__ = ["register", "render"]
