"""Checks shared by the commands that play games (``play``, ``simulate``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from wonders.dsl.errors import closest
from wonders.dsl.loader import load, shipped_games
from wonders.dsl.model import Game as GameData

from .render import print_text

SIDES = ("random", "A", "B")


def check_game_name(game: str) -> None:
    """A usage error (exit 2) with a "did you mean" for a game that is not shipped."""
    games = shipped_games()
    if game not in games:
        hint = closest(game, games)
        raise typer.BadParameter(f"no shipped game '{game}'" + (
            f" (did you mean '{hint}'?)" if hint else ""), param_hint="--game")


def check_side_and_paths(side: str, paths: Optional[list[Path]]) -> None:
    if side not in SIDES:
        raise typer.BadParameter("use random, A or B", param_hint="--side")
    for path in paths or []:
        if not path.exists():
            raise typer.BadParameter(f"no such file or folder: {path}", param_hint="PATH…")


def load_playable(game: str, paths: Optional[list[Path]], players: int) -> GameData:
    """Load the game plus extra card files for play: data errors exit 1, a player count
    the rule set does not allow exits 2."""
    result = load(paths or [], game)
    if result.game is None:
        print_text(result.report.sorted(), sys.stderr)
        raise typer.Exit(1)
    rules = result.game.rules
    if not rules.min_players <= players <= rules.max_players:
        raise typer.BadParameter(f"{rules.title} is for {rules.min_players} to "
                                 f"{rules.max_players} players", param_hint="--players")
    return result.game
