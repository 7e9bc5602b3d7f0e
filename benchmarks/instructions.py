"""Instructions per random game, counted by callgrind, with and without the collector.

Timings on a shared VM vary by tens of percent from one minute to the next;
instruction counts do not.  This runs ``benchmarks/random_games.py`` under
``valgrind --tool=callgrind`` for N1 and for N2 games and divides the difference by
N2 - N1, so loading the data and starting Python cancel out:

    python benchmarks/instructions.py duel 1000 4000
    python benchmarks/instructions.py base 100 300 --players 3
    python benchmarks/instructions.py duel 700 1000 --python /path/to/other/venv/bin/python

It prints the instructions a game in all, and without the garbage collector's passes
(``gc_collect_main``, inclusive).  A full pass over the engine's long-lived objects (its
shared caches: ~100,000 objects in a warm Duel process) costs about 45 million
instructions and comes when they have grown by a quarter, a few times in 5,000 games;
a window that holds one reads ~130,000 instructions a game more than one that does not.
So compare two builds on the count without the collector, or on windows that hold the
same number of full passes: ``--passes`` plays the games once, uncounted, and prints the
games at which a full pass started.  ``PYTHONHASHSEED`` is fixed (string hashing moves a
count by several thousand a game from run to run).

Needs valgrind (``callgrind_annotate`` comes with it); a few minutes for thousands of
Duel games.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

GAMES = Path(__file__).with_name("random_games.py")
_COLLECTOR = "gcmodule.c:gc_collect_main"


def counted(python: str, game: str, games: int, players: int | None,
            out: Path) -> tuple[int, int]:
    """(all instructions, those inside the collector's passes) of ``games`` random games."""
    command = ["valgrind", "--tool=callgrind", "-q", f"--callgrind-out-file={out}", python,
               str(GAMES), game, str(games)] + ([str(players)] if players else [])
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL,
                   env={**os.environ, "PYTHONHASHSEED": "0"})
    report = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100",
                             "--auto=no", str(out)], check=True, capture_output=True,
                            text=True).stdout
    total = collector = 0
    for line in report.splitlines():
        found = re.match(r"\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(.*?)\s*(?:\[[^\]]*\])?$", line)
        if not found:
            continue
        value, name = int(found.group(1).replace(",", "")), found.group(2)
        if "PROGRAM TOTALS" in name:
            total = value
        elif name.endswith(_COLLECTOR):
            collector = max(collector, value)
    return total, collector


def full_passes(game: str, games: int, players: int | None) -> list[int]:
    """The games (0-based) during which a full pass of the collector started, playing the
    very games ``random_games.py`` plays (uncounted, in this interpreter)."""
    from random_games import play  # type: ignore[import-not-found]  # (its neighbour)

    from wonders.dsl.loader import load_game
    from wonders.engine.registry import default_players

    data = load_game(game=game)
    started: list[int] = []
    current = [0]

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            started.append(current[0])

    def starting(seed: int) -> None:
        current[0] = seed

    gc.callbacks.append(note)
    try:
        play(data, players or default_players(data), games, {}, starting)
    finally:
        gc.callbacks.remove(note)
    return started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", help="a shipped game (base, duel, dice) or a rule-set path")
    parser.add_argument("first", type=int, help="N1: games in the first run")
    parser.add_argument("last", type=int, help="N2: games in the second run (more than N1)")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--python", default=sys.executable,
                        help="the interpreter whose installed engine is counted")
    parser.add_argument("--passes", action="store_true",
                        help="only list the games at which a full collection started "
                        "(with this interpreter, uncounted)")
    args = parser.parse_args()
    if args.last <= args.first:
        parser.error("N2 must be more than N1")
    if args.passes:
        started = full_passes(args.game, args.last, args.players)
        print(f"{args.game}: full collections started in games {started}")
        return
    if shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None:
        sys.exit("valgrind (with callgrind_annotate) is needed: apt-get install valgrind")
    with tempfile.TemporaryDirectory() as folder:
        first = counted(args.python, args.game, args.first, args.players,
                        Path(folder) / "first.out")
        last = counted(args.python, args.game, args.last, args.players,
                       Path(folder) / "last.out")
    games = args.last - args.first
    total = (last[0] - first[0]) / games
    without = ((last[0] - last[1]) - (first[0] - first[1])) / games
    print(f"{args.game}, games {args.first}-{args.last}: {total:,.0f} instructions a game; "
          f"{without:,.0f} without the collector's passes ({total - without:,.0f} in them)")


if __name__ == "__main__":
    main()
