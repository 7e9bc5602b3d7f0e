"""``wonders simulate``: many games with bots, and the statistics a designer acts on."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Optional

import typer

from wonders.bots import BotError
from wonders.cli.options import (
    BOTS_HELP,
    GAME_HELP,
    SIDE_HELP,
    check_game_name,
    check_paths,
    fail,
    load_playable,
    open_output,
    parse_bots,
    parse_sides,
)
from wonders.engine.errors import IllegalActionError
from wonders.engine.sources import Source, SourceError, resolve
from wonders.extras import install_command
from wonders.simulate import (
    ALPHA,
    Outcome,
    PlotUnavailable,
    RayUnavailable,
    Run,
    Selection,
    SelectionError,
    compare,
    drafted_wonders,
    filtered,
    plot,
    plot_comparison,
    ranked_cards,
    replacements,
    run_games,
    select,
    session,
    timing,
)

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
    bots: Optional[str] = typer.Option(None, "--bots", "-b", help=BOTS_HELP),
    side: str = typer.Option("random", "--side", help=SIDE_HELP + " (bots choose)."),
    as_json: bool = typer.Option(False, "--json", help="Print every statistic as JSON."),
    plot_file: Optional[Path] = typer.Option(None, "--plot", help="Write a figure (PNG, SVG, "
                                             "PDF by extension) of the main statistics; "
                                             "needs matplotlib."),
    top: int = typer.Option(10, "--top", help="How many cards to list at each end of the "
                            "win-rate lift ranking."),
    use_ray: bool = typer.Option(False, "--ray", help="Play the games as Ray tasks: a local "
                                 "Ray runtime of --workers CPUs, or the cluster at --address "
                                 "(needs Ray: the package's 'ray' extra). Same results as "
                                 "--workers."),
    address: Optional[str] = typer.Option(None, "--address", help="The Ray cluster to run on "
                                          "(implies --ray), e.g. 'auto' or 'ray://head:10001'.",
                                          show_default=False),
    cards: Optional[list[str]] = typer.Option(None, "--card", help="Report on this card only "
                                              "(repeat for several); with --set, the union.",
                                              show_default=False),
    sets: Optional[list[str]] = typer.Option(None, "--set", help="Report on the cards (and "
                                             "wonders) of this card set only (repeatable).",
                                             show_default=False),
    compare: Optional[tuple[str, str]] = typer.Option(
        None, "--compare", help="Play the same seeds on two games A and B (shipped names, "
        "rule-set files or folders, e.g. 'base expansions/tutorial') and report the "
        "significant differences, B minus A.", show_default=False, metavar="A B"),
) -> None:
    """Play many games with bots: win rates by wonder, side, card and bot; score categories.

    Game i uses seed S+i and its bots are seeded from it, so 'wonders play --seed S+i'
    plays the same game again and the results never depend on --workers.
    """
    source = check_game_name(game)
    compared = None
    if compare is not None:
        compared = [_compared(spec) for spec in compare]
        source = compared[0]
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
                             f"{install_command('plot')}\n")
            raise typer.Exit(1) from None
    if players is None:
        data, players = load_playable(source, paths, None)
        if data.rules.min_players <= DEFAULT_PLAYERS <= data.rules.max_players:
            players = DEFAULT_PLAYERS
    else:
        data, players = load_playable(source, paths, players)
    loaded = [data]
    if compared is not None:
        loaded.append(load_playable(compared[1], paths, players)[0])
    selection = None
    if cards or sets:
        try:
            selection = select(loaded, cards or [], sets or [], players)
        except SelectionError as exc:
            raise typer.BadParameter(str(exc), param_hint="--card" if cards else "--set"
                                     ) from None
    sides = parse_sides(side, data, players)
    if compared is not None:
        parse_sides(side, loaded[1], players)
    seat_bots = parse_bots(bots, players)
    count = workers if workers is not None else (os.cpu_count() or 1)
    count = max(1, min(count, games))
    use_ray = use_ray or address is not None
    if use_ray:
        try:
            import ray  # noqa: F401
        except ImportError:
            fail(f"--ray needs Ray, which is not installed: {install_command('ray')}")
    run = Run(game=source.spec, players=players, games=games, seed=seed, bots=tuple(seat_bots),
              workers=count, paths=tuple(str(p) for p in paths or []),
              side=sides if sides is None or isinstance(sides, str) else tuple(sides),
              ray=use_ray, address=address)
    runs = [run] if compared is None else [replace(run, game=other.spec) for other in compared]
    # progress on a terminal, --json or not (it goes to stderr and disappears at the end)
    outcomes = _run_all(runs, show_progress=sys.stderr.isatty())
    if compared is not None:
        _report_comparison(compare or ("", ""), loaded, runs, outcomes, selection, as_json,
                           side, plot_file)
        return
    outcome = outcomes[0]
    stats = outcome.stats
    if selection is not None:
        stats = filtered(stats, selection)
    times = timing(outcome)
    if plot_file is not None:
        try:
            plot(stats, str(plot_file), top, data.rules.title, seat_bots)
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
    _print(stats, times, run, data.rules.title, top, drafted_wonders(stats), selection)
    if plot_file is not None:
        sys.stdout.write(f"wrote {plot_file}\n")


def _compared(spec: str) -> Source:
    try:
        return resolve(spec)
    except SourceError as exc:
        raise typer.BadParameter(str(exc), param_hint="--compare") from None


def _run(run: Run, progress: Callable[[int], None] | None) -> Outcome:
    try:
        return run_games(run, progress, keep_records=False)
    except RayUnavailable as exc:
        fail(str(exc))


def _run_all(runs: list[Run], show_progress: bool) -> list[Outcome]:
    """Play each run in turn (in one Ray session for Ray runs), with one progress bar over
    all of them on a terminal; a bot of one's own that fails or plays an illegal action
    (in whichever worker) ends the run with its message."""
    try:
        with session(runs[0]):
            return _run_each(runs, show_progress)
    except RayUnavailable as exc:
        fail(str(exc))
    except BotError as exc:
        fail(str(exc))
    except IllegalActionError as exc:
        bots = runs[0].seat_bots()
        name = bots[exc.player] if 0 <= exc.player < len(bots) else "?"
        fail(f"bot '{name}' of player {exc.player}: {exc.action} is not allowed: "
             f"{exc.reason}")


def _run_each(runs: list[Run], show_progress: bool) -> list[Outcome]:
    if not show_progress:
        return [_run(run, None) for run in runs]
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("games", total=sum(run.games for run in runs))
        return [_run(run, lambda n: progress.advance(task, n)) for run in runs]


def _ci(interval: list[float] | None, scale: float = 100.0, digits: int = 1) -> str:
    if interval is None:
        return ""
    return f" [{scale * interval[0]:.{digits}f}, {scale * interval[1]:.{digits}f}]"


def _report_comparison(specs: tuple[str, str], loaded: list[Any], runs: list[Run],
                       outcomes: list[Outcome], selection: Selection | None, as_json: bool,
                       side: str, plot_file: Path | None = None) -> None:
    """Print what differs between two runs of the same seeds (text or JSON), and draw it
    when asked."""
    stats = [outcome.stats for outcome in outcomes]
    if selection is not None:
        stats = [filtered(one, selection) for one in stats]
    pairs = replacements(loaded[1])
    rows = compare(stats[0], stats[1], pairs=pairs)
    run = runs[0]
    if plot_file is not None:
        heading = (f"{specs[1]} − {specs[0]}: {run.games} games each, {run.players} players, "
                   f"bots {', '.join(sorted(set(run.bots)))}")
        try:
            plot_comparison(rows, str(plot_file), heading)
        except PlotUnavailable as exc:
            fail(str(exc))
        except (OSError, ValueError) as exc:
            fail(f"cannot write the plot to {plot_file}: {getattr(exc, 'strerror', None) or exc}")
    if as_json:
        record = {
            "run": {"compare": list(specs), "paths": list(run.paths), "players": run.players,
                    "games": run.games, "seed": run.seed,
                    "seeds": [run.seed, run.seed + run.games - 1], "bots": list(run.bots),
                    "side": side, "alpha": ALPHA},
            "a": {"game": specs[0], "stats": stats[0], "timing": timing(outcomes[0])},
            "b": {"game": specs[1], "stats": stats[1], "timing": timing(outcomes[1])},
            "differences": rows,
        }
        json.dump(record, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return
    from rich.console import Console
    from rich.table import Table

    console = Console(width=None if sys.stdout.isatty() else 120)
    if plot_file is not None:
        console.print(f"wrote {plot_file}")
    console.print(f"[bold]A[/bold] = {specs[0]} ({loaded[0].rules.title}), [bold]B[/bold] = "
                  f"{specs[1]} ({loaded[1].rules.title}): {run.games} games each on the same "
                  f"seeds {run.seed}–{run.seed + run.games - 1}, {run.players} players, bots "
                  f"{', '.join(sorted(set(run.bots)))}")
    tested = [row for row in rows if row.get("p") is not None]
    significant = [row for row in tested if row["significant"]]
    console.print(f"{len(significant)} of {len(tested)} differences tested are significant "
                  f"(Holm–Bonferroni, family-wise {100 * ALPHA:.0f} %); intervals are 95 %")
    if significant:
        table = Table(title="Significant differences, B − A")
        for header in ("figure", "of", "A", "B", "B − A [95 % CI]", "p"):
            table.add_column(header, justify="left" if header in ("figure", "of") else "right")
        for row in significant:
            rate = row["what"] not in ("average score", "average points")
            scale, unit = (100.0, " pp") if rate else (1.0, "")
            table.add_row(row["what"], row["name"],
                          _pct(row["a"]) if rate else _num(row["a"], 2),
                          _pct(row["b"]) if rate else _num(row["b"], 2),
                          f"{_signed(row['difference'], scale, unit)}"
                          f"{_ci(row['ci'], scale, 1)}", f"{row['p']:.2g}")
        console.print(table)
    replaced = [row for row in rows if row["what"] == "replacement win-rate lift"]
    if replaced:
        table = Table(title="Replacements: each new card beside the card it replaces, B − A",
                      caption="lift: win rate when built − when dealt but not built; a lift "
                      "is a correlation with winning, not its cause")
        for header in ("new card (replacing)", "lift A (old)", "lift B (new)",
                       "change [95 % CI]", "p"):
            table.add_column(header, justify="left" if header.startswith("new") else "right")
        for row in replaced:
            table.add_row(row["name"], _signed(row["a"]), _signed(row["b"]),
                          f"{_signed(row['difference'], 100.0, ' pp')}{_ci(row['ci'], 100.0, 1)}",
                          f"{row['p']:.2g}" + (" *" if row.get("significant") else ""))
        console.print(table)
    only = [row for row in rows if row.get("only")]
    if only:
        table = Table(title="Only in one of them")
        for header in ("figure", "of", "in", "rate [95 % CI]", "win lift [95 % CI]"):
            table.add_column(header, justify="left" if header in ("figure", "of", "in")
                             else "right")
        for row in only:
            side_name = row["only"]
            value = row[side_name]
            table.add_row(row["what"], row["name"], side_name.upper(),
                          _pct(value) + _ci(row.get(f"{side_name}_ci")),
                          _signed(row.get(f"{side_name}_lift")) + _ci(
                              row.get(f"{side_name}_lift_ci")) if row.get(
                                  f"{side_name}_lift") is not None else "–")
        console.print(table)


def _print(stats: dict[str, Any], times: dict[str, Any], run: Run, title: str, top: int,
           drafted: bool = False, selection: Selection | None = None) -> None:
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
        f"{row['victory']} {row['games']} ({_pct(row['share'])})" for row in stats["victories"])
        + "; 95 % intervals: " + ", ".join(f"{row['victory']}{_ci(row.get('share_ci'))}"
                                           for row in stats["victories"]))

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
        wonders.add_row(row["wonder"], row["side"], str(row["played"]),
                        _pct(row["win_rate"]) + _ci(row.get("win_rate_ci")),
                        _num(row["avg_score"]))
    console.print(wonders)

    best, worst = ranked_cards(stats, top)
    # (a game without cards, Dice's, has no card tables to show)
    tables: list[tuple[list[dict[str, Any]], str]] = [
        (best, f"Cards: top {top} by win-rate lift"),
        (worst, f"Cards: bottom {top} by win-rate lift")] if stats["cards"] else []
    if selection is not None:  # every card asked about, best lift first
        chosen = sorted(stats["cards"], key=lambda c: (-(c["win_lift"] if c["win_lift"]
                                                        is not None else -2), c["card"]))
        missing = sorted(selection.cards - {c["card"] for c in chosen})
        worst = chosen
        tables = [(chosen, f"Selected cards ({len(chosen)})")]
        if missing:
            console.print("never dealt in these games: " + ", ".join(missing))
    for rows, heading in tables:
        table = Table(title=heading, caption="build rate: share of players who built it in "
                      "the games it was dealt in; lift: win rate when built − when dealt "
                      "but not built "
                      "(percentage points); [95 % interval]" if rows is worst else None)
        for header in ("card", "built", "build rate", "win if built", "win if not", "lift",
                       "score if built", "score if not"):
            table.add_column(header, justify="left" if header == "card" else "right",
                             no_wrap=header == "card")
        for row in rows:
            table.add_row(row["card"], str(row["built"]),
                          _pct(row["build_rate"]) + _ci(row.get("build_rate_ci")),
                          _pct(row["win_rate_built"]) + _ci(row.get("win_rate_built_ci")),
                          _pct(row["win_rate_not_built"]),
                          _signed(row["win_lift"]) + _ci(row.get("win_lift_ci")),
                          _num(row["avg_score_built"]), _num(row["avg_score_not_built"]))
        console.print(table)

    if len(stats["bots"]) > 1:
        table = Table(title="Bots")
        for header in ("bot", "seats", "win rate", "avg score"):
            table.add_column(header, justify="left" if header == "bot" else "right")
        for row in sorted(stats["bots"], key=lambda b: -(b["win_rate"] or 0)):
            table.add_row(row["bot"], str(row["seats"]),
                          _pct(row["win_rate"]) + _ci(row.get("win_rate_ci")),
                          _num(row["avg_score"]))
        console.print(table)


def _winner_total(stats: dict[str, Any]) -> float:
    return float(sum(row["avg_winner"] or 0 for row in stats["categories"]))


def register(app: typer.Typer) -> None:
    app.command()(simulate)
