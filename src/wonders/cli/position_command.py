"""``wonders position``: a logged game, at any decision, as a one-line position or as a
scenario file in YAML."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Optional

import typer


class PositionFormat(str, Enum):
    line = "line"
    yaml = "yaml"


def position(
    log: Path = typer.Argument(..., help="A game log (wonders play --log FILE)."),
    at: Optional[int] = typer.Option(None, "--at", help="After this many decisions "
                                     "(default: all of the log's)."),
    output_format: PositionFormat = typer.Option(
        PositionFormat.line, "--format", "-f", help="line (one line of text) or yaml (a "
        "scenario file starting from the position, for 'wonders check')."),
) -> None:
    """Print a logged game's position at any decision: one line that reads back to the same state.

    The line (docs/positions.md) is what 'wonders.scenarios.position.read' sets up again,
    hidden cards and future deals included; a scenario may start from it.  With --format
    yaml: a scenario file whose scenario starts from the position (one decision a line)
    and expects whose move it is; 'wonders check' runs it and 'read_yaml' reads it."""
    from wonders.scenarios.log import LogError, replay, sides_option
    from wonders.scenarios.log import read as read_log
    from wonders.scenarios.position import PositionError, write, write_yaml

    if at is not None and at < 0:
        raise typer.BadParameter("a number of decisions is 0 or more", param_hint="--at")
    try:
        head = read_log(log)[0]
        result = replay(log)
    except (LogError, OSError) as exc:
        typer.echo(f"wonders position: {exc}", err=True)
        raise typer.Exit(2) from None
    if result.game is None or not result.identical:
        typer.echo(f"wonders position: the log does not replay: {result.divergence}", err=True)
        raise typer.Exit(1)
    if at is not None and at > len(result.game.history):
        raise typer.BadParameter(f"the log holds {len(result.game.history)} decisions",
                                 param_hint="--at")
    spec = str(head.get("game") or "")
    paths = [str(p) for p in head.get("paths") or []]
    try:
        if output_format is PositionFormat.yaml:
            after = len(result.game.history) if at is None else at
            text = write_yaml(result.game, spec, paths, sides_option(head), at,
                              source=f"wonders position {log} --at {after}")
        else:
            text = write(result.game, spec, paths, sides_option(head), at)
    except PositionError as exc:
        typer.echo(f"wonders position: {exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(text, nl=not text.endswith("\n"))


def register(app: typer.Typer) -> None:
    app.command()(position)
