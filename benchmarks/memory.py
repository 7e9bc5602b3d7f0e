"""Memory of a long-running process: resident size over many games and many data reloads.

A server or a training run plays for weeks in one process; its memory must level
off, not grow with the games played or the times data was reloaded.  This plays
random games (every legal action equally likely, the game's own seed) on one
loaded data set, then loads the data again and again, playing one game on each,
and prints the resident set size (``/proc/self/statm``, Linux) and how full the
engine's memo tables are (:mod:`wonders.engine.memo`) at checkpoints.

    python benchmarks/memory.py --game duel --games 100000
    python benchmarks/memory.py --game base --players 3 --games 100000 --reloads 1000

Figures measured on this project's machine are in docs/engine.md ("Memory").
"""

from __future__ import annotations

import argparse
import gc
import random
import time

from wonders.dsl.loader import load_game
from wonders.engine import memo
from wonders.engine.registry import new_game


def resident_mb() -> float:
    """The process's resident set size now, in MB (Linux)."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        pages = int(statm.read().split()[1])
    return pages * 4096 / 1e6


def play(data: object, players: int | None, seed: int) -> None:
    game = new_game(data, players, seed)  # type: ignore[arg-type]
    rng = random.Random(seed)
    while not game.over:
        game.play({s: rng.choice(game.legal_actions(s)) for s in game.to_move()})


def report(label: str, started: float) -> None:
    gc.collect()
    entries = sum(n for n, _ in memo.sizes().values())
    print(f"{label:>22}  {resident_mb():8.1f} MB  {entries:8d} memo entries  "
          f"{time.perf_counter() - started:7.1f} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="base")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--reloads", type=int, default=0)
    parser.add_argument("--checkpoints", type=int, default=10)
    args = parser.parse_args()
    started = time.perf_counter()
    data = load_game([], args.game)
    play(data, args.players, 0)
    report("after one game", started)
    step = max(args.games // args.checkpoints, 1)
    for seed in range(1, args.games + 1):
        play(data, args.players, seed)
        if seed % step == 0:
            report(f"{seed} games", started)
    tables("after the games")
    del data
    step = max(args.reloads // args.checkpoints, 1)
    for load in range(1, args.reloads + 1):
        reloaded = load_game([], args.game)
        play(reloaded, args.players, load)
        del reloaded
        if load % step == 0:
            report(f"{load} reloads", started)
    if args.reloads:
        tables("after the reloads")


def tables(when: str) -> None:
    print(f"memo tables {when} (entries / bound):")
    for name, (entries, bound) in memo.sizes().items():
        print(f"  {name:32} {entries:8d} / {bound}")


if __name__ == "__main__":
    main()
