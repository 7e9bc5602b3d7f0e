"""Checks shared by the commands that play games (``play``, ``simulate``)."""

from __future__ import annotations

import errno
import os
import stat
import sys
from pathlib import Path
from typing import Callable, NoReturn, Optional, TextIO

import typer

from wonders.bots import BOTS, BotError, bot_factory
from wonders.cli.render import print_text
from wonders.dsl.errors import closest
from wonders.dsl.loader import file_problem
from wonders.dsl.model import Game as GameData
from wonders.engine.registry import default_players
from wonders.engine.sides import CHOOSE_SIDE, RANDOM_SIDE, side_names
from wonders.engine.sources import Source, SourceError, resolve

GAME_HELP = ("A shipped game by name (see 'wonders games'), e.g. base or duel; or the path of "
             "a rule-set file or folder.")

SIDE_HELP = ("Wonder sides: one for every seat or one per seat, comma-separated: a side (A, B, "
             "or the rule set's name for it, e.g. Day, Night), random, or choose (the player "
             "chooses before Age I)")


BOTS_HELP = ("Comma-separated bots, one per seat or one for all: a shipped name "
             f"({', '.join(BOTS)}), a name an installed package registers (entry points "
             "'wonders.bots'), or module:Class / module:function of your own (the current "
             "folder is searched too); default random.")


def parse_bots(bots: Optional[str], players: int, human_seat: int | None = None) -> list[str]:
    """One bot name per seat from ``a,b,c`` (or one name for every seat); usage errors otherwise.

    Each name is resolved now (a ``module:Class`` imported), so a name that names no bot
    is a usage error before any game.  With a human at ``human_seat``, names may be given
    for the other seats only; the human's seat gets a placeholder bot that never plays.
    """
    names = [n.strip() for n in (bots or "random").split(",") if n.strip()]
    if not names:
        raise typer.BadParameter("give at least one bot name", param_hint="--bots")
    for name in dict.fromkeys(names):
        try:
            bot_factory(name)
        except BotError as exc:
            raise typer.BadParameter(str(exc), param_hint="--bots") from None
    if len(names) == 1:
        return names * players
    if human_seat is not None and len(names) == players - 1:
        return names[:human_seat] + ["random"] + names[human_seat:]
    if len(names) != players:
        others = f" or one per other seat ({players - 1})" if human_seat is not None else ""
        raise typer.BadParameter(f"{len(names)} bots for {players} players: give one name for "
                                 f"every seat, or one per seat{others}", param_hint="--bots")
    return names


def check_game_name(game: str) -> Source:
    """``--game`` resolved (a shipped name or a path); a usage error (exit 2) with a
    "did you mean" otherwise."""
    try:
        return resolve(game)
    except SourceError as exc:
        raise typer.BadParameter(str(exc), param_hint="--game") from None


def parse_sides(side: Optional[str], data: GameData, players: int) -> str | list[str] | None:
    """``--side`` as the engine's ``sides`` option: None (the rule set's way), one value for
    every seat, or one per seat; usage errors for unknown sides, with a "did you mean"."""
    if side is None:
        return None
    values = [v.strip() for v in side.split(",")]
    if not has_sides(data):
        if all(v.lower() == RANDOM_SIDE for v in values):
            return None
        raise typer.BadParameter(f"{data.rules.title}'s wonders have no sides",
                                 param_hint="--side")
    if len(values) not in (1, players):
        raise typer.BadParameter(f"give one side for every seat or one per seat ({players}), "
                                 f"not {len(values)}", param_hint="--side")
    letters = sorted({letter for wonder in data.wonders for letter in wonder.sides})
    known = [*letters, *side_names(data).values(), RANDOM_SIDE, CHOOSE_SIDE]
    for value in values:
        if value.lower() not in {k.lower() for k in known}:
            hint = closest(value, known)
            raise typer.BadParameter(
                f"no side '{value}'" + (f"; did you mean '{hint}'?" if hint else "")
                + f" (known: {', '.join(known)})", param_hint="--side")
    normal = [v.lower() if v.lower() in (RANDOM_SIDE, CHOOSE_SIDE) else v for v in values]
    return normal[0] if len(normal) == 1 else normal


def check_paths(paths: Optional[list[Path]], hint: str = "PATH…") -> None:
    """Every PATH a file or folder that can be read: a usage error (exit 2) for a missing
    path, a special file (FIFO, device), a symbolic link loop or the file-system root."""
    for path in paths or []:
        problem = file_problem(path)
        if problem == "no such file or folder":
            raise typer.BadParameter(f"no such file or folder: {path}", param_hint=hint)
        if problem is not None:
            raise typer.BadParameter(f"{path}: {problem}", param_hint=hint)


def open_output(path: Path, what: str = "the output") -> TextIO:
    """Open a user-named output file for writing (UTF-8); a clean exit 1 naming the file
    and the reason when it cannot be (a missing folder, a folder, a full device, no
    permission) instead of an exception."""
    if str(path) in ("", "."):
        fail(f"cannot write {what}: no file name given")
    try:
        if stat.S_ISFIFO(os.stat(path).st_mode):
            # a pipe blocks an ordinary open until something reads it: open without
            # waiting, so a pipe nobody reads is an error (ENXIO), not a hang
            descriptor = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            os.set_blocking(descriptor, True)
            return os.fdopen(descriptor, "w", encoding="utf-8")
    except FileNotFoundError:
        pass
    except OSError as exc:
        reason = "no process reads that pipe" if exc.errno == errno.ENXIO else exc.strerror
        fail(f"cannot write {what} to {path}: {reason or exc}")
    try:
        return open(path, "w", encoding="utf-8")
    except (OSError, ValueError) as exc:
        fail(f"cannot write {what} to {path}: {getattr(exc, 'strerror', None) or exc}")


def write_output(path: Path, write: Callable[[TextIO], object], what: str = "the output") -> None:
    """Write a user-named output file through ``write(handle)``; any OSError on the way
    (e.g. ``/dev/full``: no space left) is a clean exit 1."""
    handle = open_output(path, what)
    try:
        with handle:
            write(handle)
    except OSError as exc:
        fail(f"cannot write {what} to {path}: {exc.strerror or exc}")


def fail(message: str) -> NoReturn:
    """Print ``wonders: message`` and exit 1 (bad data or a file that cannot be written)."""
    sys.stderr.write(f"wonders: {message}\n")
    raise typer.Exit(1)


def players_range(data: GameData) -> str:
    rules = data.rules
    if rules.min_players == rules.max_players:
        return f"{rules.min_players} players"
    return f"{rules.min_players} to {rules.max_players} players"


def load_playable(source: Source, paths: Optional[list[Path]],
                  players: int | None) -> tuple[GameData, int]:
    """Load the game plus extra card files for play, and the player count (the rule set's
    default when not given): data errors exit 1, a count the rule set does not allow exits 2."""
    result = source.load(paths or [])
    if result.game is None:
        print_text(result.report.sorted(), sys.stderr)
        raise typer.Exit(1)
    rules = result.game.rules
    if players is None:
        players = default_players(result.game)
    if not rules.min_players <= players <= rules.max_players:
        raise typer.BadParameter(f"{rules.title} is for {players_range(result.game)}, not "
                                 f"{players}", param_hint="--players")
    return result.game, players


def has_sides(data: GameData) -> bool:
    """Whether some wonder of the rule set has more than one side (else ``--side`` means
    nothing, and the loop is not asked for one)."""
    return any(len(wonder.sides) > 1 for wonder in data.wonders)
