"""Commands that play: ``play`` (one game with bots) and ``check`` (rule scenarios)."""

from __future__ import annotations

import json
import secrets
import sys
from pathlib import Path
from typing import Optional

import typer

from wonders.bots import BotError, make_bot
from wonders.cli.options import (
    BOTS_HELP,
    GAME_HELP,
    SIDE_HELP,
    check_game_name,
    check_paths,
    fail,
    load_playable,
    parse_bots,
    parse_sides,
    write_output,
)
from wonders.cli.render import print_text
from wonders.engine.city import City
from wonders.engine.contract import GameState
from wonders.engine.errors import IllegalActionError, RuleError
from wonders.engine.registry import loop_for, new_game
from wonders.engine.scoring import ScoreSheet

# With --human and no --seed: a fresh deal each time, printed so it can be replayed.
SEED_RANGE = 1_000_000
HUMAN_BOTS = "greedy"  # the default opponents of --human: the strongest quick bot


def fresh_seed() -> int:
    """A seed nobody chose: the operating system's randomness, below SEED_RANGE."""
    return secrets.randbelow(SEED_RANGE)


def play(
    game: str = typer.Option("base", "--game", "-g", help=GAME_HELP),
    paths: Optional[list[Path]] = typer.Argument(None, help="Extra card files or folders.",
                                                 show_default=False),
    players: Optional[int] = typer.Option(
        None, "--players", "-n", help="Number of players (default: the rule set's, e.g. 3 "
        "for base, 2 for duel).", show_default=False),
    seed: Optional[int] = typer.Option(
        None, "--seed", "-s", help="Random seed: same seed, same game (default 0; with "
        "--human a fresh one, printed).", show_default=False),
    side: Optional[str] = typer.Option(
        None, "--side", help=SIDE_HELP + "; default: the rule set's (base: choose).",
        show_default=False),
    as_json: bool = typer.Option(False, "--json", help="Print the score sheet as JSON."),
    bots: Optional[str] = typer.Option(
        None, "--bots", "-b", help=BOTS_HELP + f" ({HUMAN_BOTS} with --human)"),
    log: Optional[Path] = typer.Option(None, "--log", help="Write the game log (JSON Lines)."),
    human: bool = typer.Option(False, "--human", help="Play yourself at the terminal; the "
                               "other seats are bots (--bots)."),
    human_seat: int = typer.Option(0, "--seat", help="Your seat with --human (0 = first)."),
) -> None:
    """Play one game with bots and print the score sheet; --human to play yourself."""
    if seed is None:
        seed = fresh_seed() if human else 0
    source = check_game_name(game)
    check_paths(paths)
    data, players = load_playable(source, paths, players)
    sides = parse_sides(side, data, players)
    try:
        match = new_game(data, players, seed) if sides is None else new_game(
            data, players, seed, sides=sides)
    except RuleError as exc:
        sys.stderr.write(f"wonders: {exc}\n")
        raise typer.Exit(1) from None
    if human:
        if as_json:
            raise typer.BadParameter("--json is for games of bots, not --human",
                                     param_hint="--json")
        if not 0 <= human_seat < players:
            raise typer.BadParameter(f"seats are 0 to {players - 1}", param_hint="--seat")
    if human and bots is None:
        bots = HUMAN_BOTS
    names = parse_bots(bots, players, human_seat if human else None)
    try:
        players_bots = [make_bot(name, seed * 1000 + seat) for seat, name in enumerate(names)]
    except BotError as exc:
        fail(str(exc))
    extra = [str(p) for p in paths or []]
    if human:
        others = {s: b for s, b in enumerate(players_bots) if s != human_seat}
        opponents = ", ".join(sorted({n for s, n in enumerate(names) if s != human_seat}))
        sys.stdout.write(f"seed {seed} (the same deal again: --seed {seed}); "
                         f"opponents: {opponents}\n")
        play_human = loop_for(data).terminal()
        finished = bool(play_human(match, human_seat, others))
        if finished and log is not None:
            from wonders.scenarios.log import write as write_log

            write_output(log, lambda handle: write_log(match, handle, source.spec, extra, sides),
                         "the log")
            sys.stdout.write(f"wrote {log}\n")
        return
    try:
        while not match.over:
            match.play({seat: players_bots[seat].choose(match, seat)
                        for seat in match.to_move()})
    except BotError as exc:
        fail(str(exc))
    except IllegalActionError as exc:   # a bot of one's own played what it may not
        fail(f"bot '{names[exc.player]}' of player {exc.player}: {exc.action} is not "
             f"allowed: {exc.reason}")
    if log is not None:
        from wonders.scenarios.log import write as write_log

        write_output(log, lambda handle: write_log(match, handle, source.spec, extra, sides),
                     "the log")
    sheet = match.score_sheet()
    if as_json:
        record: dict[str, object] = {"game": game, "player_count": players, "seed": seed}
        sheet_json = sheet.to_json()
        rows = sheet_json["players"]
        assert isinstance(rows, list)
        for row, city in zip(rows, match.cities):
            row.update(seat_record(city))
        record.update(sheet_json)
        json.dump(record, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{data.rules.title} — {players} players, seed {seed}")
    table.add_column("")
    for city in match.cities:
        table.add_column(seat_label(city), justify="right")
    for line in sheet.order:
        table.add_row(line, *[str(row[line]) for row in sheet.lines])
    table.add_row("[bold]total[/bold]", *[f"[bold]{t}[/bold]" for t in sheet.totals])
    if "coins" in sheet.tie_break or any(sheet.coins):   # (a game without coins: no row)
        table.add_row("coins", *[str(c) for c in sheet.coins])
    for name, counts in sheet.counts.items():            # a tie-break count (pieces built)
        table.add_row(name, *[str(c) for c in counts])
    Console().print(table)
    sys.stdout.write(winner_line(match, sheet) + "\n")


def seat_record(city: City) -> dict[str, object]:
    """What a score sheet row in JSON says about the seat's city beyond its points."""
    return city.summary()


def seat_label(city: City) -> str:
    """A column heading for a seat: its board and side, or the seat alone without a board."""
    return city.label()


VICTORY_TEXT = {"military": "supremacy: the conflict pawn reached the capital",
                "science": "supremacy: enough different science symbols",
                "civilian": "most points at the end of the game",
                "points": "most points at the end"}


def winner_line(match: GameState, sheet: ScoreSheet) -> str:
    """``winner: …`` under the score sheet: each winner by its column heading, and how
    the game was won (the score sheet's victory)."""
    plural = "s" if len(sheet.winners) > 1 else ""
    winners = ", ".join(seat_label(match.cities[s]) for s in sheet.winners)
    why = VICTORY_TEXT.get(sheet.victory)
    return (f"winner{plural}: {winners} — victory: {sheet.victory}"
            + (f" ({why})" if why else ""))


def check(
    files: list[Path] = typer.Argument(..., help="Scenario files or folders of them."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="List every scenario."),
) -> None:
    """Run rule scenarios and report every expectation that fails, located in its file."""
    from wonders.dsl.loader import display_name, kind_of, walk_yaml
    from wonders.scenarios.draft import check_file

    check_paths(files, "FILES")
    paths: list[Path] = []
    ok = True
    for item in files:
        if item.is_dir():
            # an entry that cannot be read is reported; the readable files still run
            found, problems = walk_yaml(item)
            if problems:
                print_text(problems, sys.stderr)
                ok = False
            for file in found:  # a folder may hold the game's data beside its scenarios
                kind = kind_of(file)
                if kind is not None and kind != "scenarios":
                    sys.stdout.write(f"{display_name(file)}: note: skipped (kind: {kind}, not "
                                     "scenarios)\n")
                else:
                    paths.append(file)
        else:
            paths.append(item)
    total = failed = 0
    for path in paths:  # each file's results, whatever the others hold (check_file never raises)
        result = check_file(path)
        if not result.report.ok:
            ok = False
        print_text(result.report.sorted(), sys.stdout)
        for outcome in result.outcomes:
            total += 1
            if outcome.passed:
                if verbose:
                    sys.stdout.write(f"{outcome.location}: ok {outcome.name} "
                                     f"({outcome.checked} checks)\n")
                continue
            failed += 1
            ok = False
            sys.stdout.write(f"{outcome.location}: FAILED {outcome.name}\n")
            print_text(outcome.failures, sys.stdout)
    sys.stdout.write(f"{total} scenarios in {len(paths)} files: {total - failed} passed, "
                     f"{failed} failed\n")
    raise typer.Exit(0 if ok else 1)


def replay(
    log: Path = typer.Argument(..., help="A game log written by --log."),
) -> None:
    """Replay a game log on the current data and engine; report the first divergence."""
    from wonders.scenarios.log import LogError
    from wonders.scenarios.log import replay as replay_log

    check_paths([log], "LOG")
    if log.is_dir():
        raise typer.BadParameter(f"{log} is a folder, not a log file", param_hint="LOG")
    try:
        result = replay_log(log)
    except LogError as exc:
        sys.stderr.write(f"wonders: {exc}\n")
        raise typer.Exit(1) from None
    if result.data_changed:
        sys.stdout.write("note: the card data changed since the game was logged "
                         "(content hash differs)\n")
    if result.identical and result.unfinished:
        sys.stdout.write(f"{log}:{result.line}: the log ends after {result.decisions} identical "
                         "decisions before the game does, with no result line: it is "
                         "truncated (or was written of a game still going on)\n")
        raise typer.Exit(1)
    if result.identical:
        sys.stdout.write(f"{log}: replayed {result.decisions} decisions: identical\n")
        return
    sys.stdout.write(f"{log}:{result.line}: diverged after {result.decisions} identical "
                     f"decisions: {result.divergence}\n")
    raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command()(play)
    app.command()(check)
    app.command()(replay)
