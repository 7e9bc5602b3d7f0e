"""``wonders tune``: search tunable numbers for values that meet a target, by simulation."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Optional

import typer

from wonders.cli.options import check_paths
from wonders.cli.render import print_text


def tune(
    spec_file: Path = typer.Argument(..., metavar="SPEC", help="The tune spec (YAML, "
                                     "kind: tune), e.g. examples/tune/duel-military.yaml.",
                                     show_default=False),
    games: Optional[int] = typer.Option(None, "--games", "-G", help="Games per evaluation "
                                        "(replaces the spec's budget.games).",
                                        show_default=False),
    max_games: Optional[int] = typer.Option(None, "--max-games", help="Games in all, at most "
                                            "(replaces the spec's budget.max_games).",
                                            show_default=False),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help="Every candidate plays "
                                       "seeds S, S+1, … (replaces the spec's seed).",
                                       show_default=False),
    workers: Optional[int] = typer.Option(
        None, "--workers", "-w", help="Worker processes (default: every CPU); 1 runs "
        "in-process. Results do not depend on it.", show_default=False),
    as_json: bool = typer.Option(False, "--json", help="Print the search and every "
                                 "candidate as JSON."),
) -> None:
    """Search tunable numbers (a rule parameter, a card's points or cost) for values that
    meet a target, by simulation.

    The spec names the game, the numbers and their candidate values, the
    target (e.g. military victories in 25 ± 8 % of the games) and a budget of
    games. Every candidate plays the same seeds, as an in-memory change of the
    data: the files are never written. Exit 0 when the best value meets the
    target, 1 when none does or the spec is wrong (docs/simulate.md, "Tuning").
    """
    from wonders import tune as tuning

    check_paths([spec_file], "SPEC")
    if spec_file.is_dir():
        raise typer.BadParameter(f"{spec_file} is a folder: give a tune spec file",
                                 param_hint="SPEC")
    for value, name in ((games, "--games"), (max_games, "--max-games")):
        if value is not None and value < 1:
            raise typer.BadParameter("give at least one game", param_hint=name)
    if seed is not None and seed < 0:
        raise typer.BadParameter("seeds are 0 or more", param_hint="--seed")
    if workers is not None and workers < 1:
        raise typer.BadParameter("use at least one worker", param_hint="--workers")
    try:
        spec = tuning.read_spec(spec_file, games, max_games, seed)
    except tuning.SpecError as exc:
        print_text(exc.diagnostics, sys.stderr)
        raise typer.Exit(1) from None
    count = workers if workers is not None else (os.cpu_count() or 1)
    show = sys.stderr.isatty()

    def progress(evaluation: Any, spec: Any) -> None:
        if show:
            sys.stderr.write(f"  {_values(spec, evaluation)}: {_metric(evaluation, spec)}\n")

    if show:
        sys.stderr.write(f"tuning {', '.join(s.label for s in spec.sites)} for "
                         f"{spec.target.describe()} ({spec.method})\n")
    try:
        result = tuning.search(spec, count, progress)
    except tuning.SearchError as exc:
        print_text(exc.diagnostics, sys.stderr)
        raise typer.Exit(1) from None
    if as_json:
        json.dump(result.to_json(), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        _print(result)
    if result.best is None or not result.best.meets(spec.target):
        raise typer.Exit(1)


def _values(spec: Any, evaluation: Any) -> str:
    from wonders.tune import _fmt

    return ", ".join(f"{site.label} = {_fmt(value)}"
                     for site, value in zip(spec.sites, evaluation.candidate))


def _metric(evaluation: Any, spec: Any) -> str:
    unit = {"%": " %", "pp": " pp", "points": ""}[spec.target.unit]
    if evaluation.value is None:
        return "–"
    ci = (f" [{evaluation.ci[0]:.1f}, {evaluation.ci[1]:.1f}]" if evaluation.ci else "")
    return f"{evaluation.value:.1f}{unit}{ci}"


def _print(result: Any) -> None:
    from rich.console import Console
    from rich.table import Table

    from wonders.dsl.loader import display_name
    from wonders.tune import _fmt

    spec, target = result.spec, result.spec.target
    console = Console(width=None if sys.stdout.isatty() else 110)
    bots = ", ".join(dict.fromkeys(spec.bots))
    console.print(f"[bold]{spec.title}[/bold]: {spec.players} players, bots {bots}, "
                  f"seeds from {spec.seed}; {spec.method}")
    console.print(f"target: {target.describe()}, i.e. {_fmt(round(target.low, 6))} to "
                  f"{_fmt(round(target.high, 6))}")
    for site in spec.sites:
        console.print(f"tuning {site.label} (now {_fmt(site.current)}; candidates "
                      f"{_fmt(site.values[0])} to {_fmt(site.values[-1])}, "
                      f"{len(site.values)} values) in {display_name(site.file)}")
    table = Table()
    for site in spec.sites:
        table.add_column(site.label, justify="right")
    for header in ("metric [95 % CI]", "games", "meets"):
        table.add_column(header, justify="right" if header != "meets" else "left")
    ordered = sorted(result.evaluations, key=lambda e: e.candidate)
    for evaluation in ordered:
        mark = evaluation is result.best
        cells = [_fmt(v) for v in evaluation.candidate] + [
            _metric(evaluation, spec), str(evaluation.games), evaluation.verdict(target)
            + ("  ← best" if mark else "")]
        table.add_row(*cells, style="bold" if mark else None)
    console.print(table)
    console.print("meets: yes = the 95 % interval is inside the band; likely = the "
                  "estimate is;\n       unlikely = only the interval reaches in; no = the "
                  "interval is outside")
    for step in result.steps:
        console.print(f"  {step}")
    best = result.best
    played = (f"{result.games} games played in {result.seconds:.1f} s "
              f"({len(result.evaluations)} candidates evaluated)")
    if best is not None and best.meets(target):
        console.print(f"best: {_values(spec, best)}: {_metric(best, spec)} on {best.games} "
                      f"games ({best.verdict(target)}); {played}")
    else:
        near = f"nearest: {_values(spec, best)}: {_metric(best, spec)}; " if best else ""
        console.print(f"no candidate meets the target; {near}{played}")


def register(app: typer.Typer) -> None:
    app.command()(tune)
