"""Benchmark: complete games per second of the whole-game playout (:mod:`wonders.engine.playout`).

Each game is set up (``new_game``) and played to the end by
:func:`~wonders.engine.playout.playout` with one policy for every seat: ``random``
(uniform over the legal actions: every decision lists every legal action with every
Pareto-optimal payment, the same work as ``benchmarks/throughput.py``, without a
bot object or a Python loop per decision), ``quick`` (the loop's cheap sampler
where it has one: in the draft loop a card, a kind of action, then a payment; the
others fall back to ``random``) and ``greedy`` (the loop's greedy policy, as
``simulate --bots greedy`` plays it).  The score sheet is computed.  One core, CPU
time of this process; the best and the median of ``--repeat`` runs on new seeds.

Run it on the compiled build (a regular install, see ``setup.py``): the first line
says which one runs.

    python benchmarks/playout.py                        # base 3 and 7, Duel, Dice 4
    python benchmarks/playout.py --games 200 --repeat 5
    python benchmarks/playout.py --table duel:2 --policy random quick

Instructions per game, repeatable where timings are not: ``--workload N`` plays
seeds 0 … N-1 of the first table and policy and prints nothing; run it under
callgrind for two values of N and divide the difference by the extra games (as
``benchmarks/random_games.py``, the same games played through bot-less Python
loops, for the comparison):

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        python benchmarks/playout.py --table base:3 --policy random --workload 40
"""

from __future__ import annotations

import argparse
import time

from wonders.dsl.loader import load_game
from wonders.dsl.model import Game
from wonders.engine import COMPILED
from wonders.engine.playout import POLICIES, playout
from wonders.engine.registry import new_game

TABLES = ("base:3", "base:7", "duel:2", "dice:4")
GAMES = {"random": 300, "quick": 300, "greedy": 60}  # greedy games cost ~5-10 times more


def bench(data: Game, players: int, policy: str, games: int, first_seed: int) -> float:
    """Games per second (CPU time) of ``games`` playouts from fresh games."""
    start = time.process_time()
    for seed in range(first_seed, first_seed + games):
        playout(new_game(data, players, seed), policy, seed).score_sheet()
    return games / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--table", nargs="*", default=list(TABLES),
                        help="GAME:PLAYERS tables (default: base:3 base:7 duel:2 dice:4)")
    parser.add_argument("--policy", nargs="*", default=list(POLICIES), choices=POLICIES)
    parser.add_argument("--games", type=int, default=None,
                        help="games per run (default: 300, 60 for greedy)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workload", type=int, default=None, metavar="N",
                        help="play seeds 0 … N-1 of the first table and policy, print nothing")
    args = parser.parse_args()
    if args.workload is not None:
        game, _, count = args.table[0].partition(":")
        data = load_game(game=game)
        for seed in range(args.workload):
            playout(new_game(data, int(count), seed), args.policy[0], seed).score_sheet()
        return
    print("engine hot path: " + ("compiled (mypyc)" if COMPILED else "pure Python (an editable "
                                 "install, or WONDERS_COMPILE=0; see setup.py)"))
    loaded: dict[str, Game] = {}
    for table in args.table:
        game, _, count = table.partition(":")
        data = loaded.get(game) or loaded.setdefault(game, load_game(game=game))
        players = int(count)
        for number, policy in enumerate(args.policy):
            games = args.games or GAMES[policy]
            # a whole run to warm up, as throughput.py does: the shared caches fill over the
            # first thousands of games, and a shorter warm-up left the first policy measured
            # (Duel random: 2,976 games/s against 6,838 when measured second) paying for it
            bench(data, players, policy, games, first_seed=10**6)
            # each policy on seeds of its own: in a loop without a sampler ``quick`` plays
            # as ``random`` does, and the same seeds would find every answer cached
            runs = range(number * args.repeat + 1, (number + 1) * args.repeat + 1)
            rates = sorted(bench(data, players, policy, games, first_seed=run * games)
                           for run in runs)
            print(f"{game} {players} players, {policy}: {rates[-1]:.1f} games/s best, "
                  f"{rates[len(rates) // 2]:.1f} median of {args.repeat} runs ({games} games "
                  "each; CPU time)")


if __name__ == "__main__":
    main()
