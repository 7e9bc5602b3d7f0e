"""``wonders simulate``: many games with bots, and the statistics a designer acts on."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Callable, Optional

import typer



from ..bots import BOTS
from ..simulate import (Outcome, PlotUnavailable, RayUnavailable, Run, drafted_wonders, plot,
                        ranked_cards, run_games, timing)
from .options import (GAME_HELP, SIDE_HELP, check_game_name, check_paths, fail,
                      load_playable, open_output, parse_bots, parse_sides)

DEFAULT_PLAYERS = 4  # when the rule set allows it; else the rule set's own default

def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def _num(value: float | None, digits: int = 1) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _signed(value: float | None, scale: float = 100.0, unit: str = "") -> str:
    return "–" if value is None else f"{scale * value:+.1f}{unit}"




def simulate(
    game: str = typer.Option("base", "--game", "-g", help=GAME_HELP),
    paths: Optional[list[Path]] = typer.Argument(None, help="Extra card files or folders "
                                                 "(e.g. a custom card to balance).",
                                                 show_default=False),
    players: Optional[int] = typer.Option(
        None, "--players", "-n", help=f"Number of players (default: {DEFAULT_PLAYERS} when the "
        "rule set allows it, else its own default: 2 for duel).", show_default=False),
    games: int = typer.Option(100, "--games", "-G", help="Number of games."),
    seed: int = typer.Option(0, "--seed", "-s", help="Game i uses seed S+i."),
    workers: Optional[int] = typer.Option(
        None, "--workers", "-w", help="Worker processes (default: every CPU); 1 runs in-process. "
        "Results do not depend on it."),
    bots: Optional[str] = typer.Option(
        None, "--bots", "-b", help="Comma-separated bot names, one per seat or one for all "
        f"(known: {', '.join(BOTS)}); default random."),
    side: str = typer.Option("random", "--side", help=SIDE_HELP + " (bots choose)."),
    as_json: bool = typer.Option(False, "--json", help="Print every statistic as JSON."),
    plot_file: Optional[Path] = typer.Option(None, "--plot", help="Write a figure (PNG, SVG, "
                                             "PDF by extension) of the main statistics; "
                                             "needs matplotlib."),
    top: int = typer.Option(10, "--top", help="How many cards to list at each end of the "
                            "win-rate lift ranking."),
    use_ray: bool = typer.Option(False, "--ray", help="Play the games as Ray tasks: a local "
                                 "Ray runtime of --workers CPUs, or the cluster at --address "
                                 "(pip install 'wonders[ray]'). Same results as --workers."),
    address: Optional[str] = typer.Option(None, "--address", help="The Ray cluster to run on "
                                          "(implies --ray), e.g. 'auto' or 'ray://head:10001'.",
                                          show_default=False),
) -> None:
    """Play many games with bots: win rates by wonder, side, card and bot; score categories.

    Game i uses seed S+i and its bots are seeded from it, so 'wonders play --seed S+i'
    plays the same game again and the results never depend on --workers.
    """
    source = check_game_name(game)
    if games < 1:
        raise typer.BadParameter("play at least one game", param_hint="--games")
    if workers is not None and workers < 1:
        raise typer.BadParameter("use at least one worker", param_hint="--workers")
    if top < 1:
        raise typer.BadParameter("list at least one card", param_hint="--top")
    check_paths(paths)
    if plot_file is not None:
        open_output(plot_file, "the plot").close()  # fail now, not after the games
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            sys.stderr.write("wonders: --plot needs matplotlib, which is not installed: "
                             "pip install 'wonders[plot]'\n")
            raise typer.Exit(1) from None
    if players is None:
        data, players = load_playable(source, paths, None)
        if data.rules.min_players <= DEFAULT_PLAYERS <= data.rules.max_players:
            players = DEFAULT_PLAYERS
    else:
        data, players = load_playable(source, paths, players)
    sides = parse_sides(side, data, players)
    seat_bots = parse_bots(bots, players)
    count = workers if workers is not None else (os.cpu_count() or 1)
    count = max(1, min(count, games))
    use_ray = use_ray or address is not None
    if use_ray:
        try:
            import ray  # noqa: F401
        except ImportError:
            fail("--ray needs Ray, which is not installed: pip install 'wonders[ray]'")
    run = Run(game=source.spec, players=players, games=games, seed=seed, bots=tuple(seat_bots),
              workers=count, paths=tuple(str(p) for p in paths or []),
              side=sides if sides is None or isinstance(sides, str) else tuple(sides),
              ray=use_ray, address=address)
    show_progress = not as_json and sys.stderr.isatty()
    if show_progress:
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)

        with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), TimeRemainingColumn(),
                      console=Console(stderr=True), transient=True) as progress:
            task = progress.add_task("games", total=games)
            outcome = _run(run, lambda n: progress.advance(task, n))
    else:
        outcome = _run(run, None)
    stats = outcome.stats
    times = timing(outcome)
    if plot_file is not None:
        try:
            plot(stats, str(plot_file), top)
        except PlotUnavailable as exc:
            fail(str(exc))
        except (OSError, ValueError) as exc:
            fail(f"cannot write the plot to {plot_file}: {getattr(exc, 'strerror', None) or exc}")
    if as_json:
        record: dict[str, Any] = {
            "run": {"game": game, "paths": list(run.paths), "players": players, "games": games,
                    "seed": seed, "seeds": [seed, seed + games - 1], "bots": seat_bots,
                    "side": side},
            "stats": stats,
            "timing": times,
        }
        json.dump(record, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return
    _print(stats, times, run, data.rules.title, top, drafted_wonders(stats))
    if plot_file is not None:
        sys.stdout.write(f"wrote {plot_file}\n")


def _run(run: Run, progress: Callable[[int], None] | None) -> Outcome:
    try:
        return run_games(run, progress, keep_records=False)
    except RayUnavailable as exc:
        fail(str(exc))


def _print(stats: dict[str, Any], times: dict[str, Any], run: Run, title: str, top: int,
           drafted: bool = False) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=None if sys.stdout.isatty() else 110)
    players = stats["players"]
    bots = ", ".join(sorted(set(run.bots)))
    console.print(f"[bold]{title}[/bold]: {stats['games']} games, {players} players, bots "
                  f"{bots}, seeds {run.seed}–{run.seed + run.games - 1}")
    where = (f"{times['workers']} CPU{'s' if times['workers'] > 1 else ''} of Ray, "
             f"{times['tasks']} tasks, {times['setup_seconds']:.1f} s to start"
             if times["backend"] == "ray" else
             f"{times['workers']} worker{'s' if times['workers'] > 1 else ''}")
    overhead = times["overhead"]
    console.print(f"time: {times['wall_seconds']:.1f} s with {where} "
                  f"({times['games_per_second']:.0f} games/s), "
                  f"{1000 * times['avg_game_seconds']:.1f} ms per game"
                  + (f"; overhead {100 * overhead:.1f} %" if overhead is not None
                     and times["workers"] > 1 else ""))
    console.print(f"game length: {_num(stats['avg_decisions'])} decisions per game; "
                  f"average score {_num(stats['avg_score'])}; a fair win rate is "
                  f"{_pct(1 / players)}")
    console.print("victories: " + ", ".join(
        f"{row['victory']} {row['games']} ({_pct(row['share'])})" for row in stats["victories"]))

    categories = Table(title="Average points per category")
    categories.add_column("category")
    categories.add_column("all players", justify="right")
    categories.add_column("winners", justify="right")
    for row in stats["categories"]:
        categories.add_row(row["category"], _num(row["avg"], 2), _num(row["avg_winner"], 2))
    categories.add_row("[bold]total[/bold]", f"[bold]{_num(stats['avg_score'], 2)}[/bold]",
                       f"[bold]{_num(_winner_total(stats), 2)}[/bold]")
    console.print(categories)

    wonders = Table(title="Drafted wonders, built or not" if drafted else "Wonders by side")
    for header in ("wonder", "built" if drafted else "side", "drafted" if drafted else "played",
                   "win rate", "avg score"):
        wonders.add_column(header, justify="left" if header in ("wonder", "side", "built")
                           else "right")
    rows = (sorted(stats["wonder_sides"], key=lambda w: (w["wonder"], w["side"])) if drafted
            else sorted(stats["wonder_sides"], key=lambda w: (-(w["win_rate"] or 0), w["wonder"],
                                                              w["side"])))
    for row in rows:
        wonders.add_row(row["wonder"], row["side"], str(row["played"]), _pct(row["win_rate"]),
                        _num(row["avg_score"]))
    console.print(wonders)

    best, worst = ranked_cards(stats, top)
    for rows, heading in ((best, f"Cards: top {top} by win-rate lift"),
                          (worst, f"Cards: bottom {top} by win-rate lift")):
        table = Table(title=heading, caption="build rate: share of players who built it in "
                      "the games it was dealt in; lift: win rate when built − when dealt but not built "
                      "(percentage points)" if rows is worst else None)
        for header in ("card", "built", "build rate", "win if built", "win if not", "lift",
                       "score if built", "score if not"):
            table.add_column(header, justify="left" if header == "card" else "right",
                             no_wrap=header == "card")
        for row in rows:
            table.add_row(row["card"], str(row["built"]), _pct(row["build_rate"]),
                          _pct(row["win_rate_built"]), _pct(row["win_rate_not_built"]),
                          _signed(row["win_lift"]), _num(row["avg_score_built"]),
                          _num(row["avg_score_not_built"]))
        console.print(table)

    if len(stats["bots"]) > 1:
        table = Table(title="Bots")
        for header in ("bot", "seats", "win rate", "avg score"):
            table.add_column(header, justify="left" if header == "bot" else "right")
        for row in sorted(stats["bots"], key=lambda b: -(b["win_rate"] or 0)):
            table.add_row(row["bot"], str(row["seats"]), _pct(row["win_rate"]),
                          _num(row["avg_score"]))
        console.print(table)


def _winner_total(stats: dict[str, Any]) -> float:
    return float(sum(row["avg_winner"] or 0 for row in stats["categories"]))


def register(app: typer.Typer) -> None:
    app.command()(simulate)
