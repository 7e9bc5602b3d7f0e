"""Benchmark: complete random-bot games per second, and the time to load the data.

Every decision enumerates all legal actions with their payments (what a bot
or an agent needs); one core; the figures go in the README.

    python benchmarks/throughput.py [--games 300] [--players 3 7]
"""

from __future__ import annotations

import argparse
import random
import time

from wonders.dsl.loader import load_game
from wonders.engine import Game


def bench_load(repeat: int = 5) -> float:
    """Seconds to load, validate and compile the shipped base game (best of ``repeat``)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        load_game(game="base")
        best = min(best, time.process_time() - start)
    return best


def bench_games(players: int, games: int) -> tuple[float, int]:
    data = load_game(game="base")
    decisions = 0
    start = time.process_time()
    for seed in range(games):
        game = Game(data, players, seed)
        rng = random.Random(seed)
        while not game.over:
            moves = {}
            for seat in game.to_move():
                actions = game.legal_actions(seat)
                decisions += 1
                moves[seat] = actions[rng.randrange(len(actions))]
            game.play(moves)
        game.score_sheet()
    return games / (time.process_time() - start), decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, nargs="*", default=[3, 7])
    args = parser.parse_args()
    first = time.process_time()
    load_game(game="base")
    cold = time.process_time() - first
    print(f"load + validate + compile (first, in a fresh process): {cold:.3f} s")
    print(f"load + validate + compile (warm, best of 5): {bench_load():.3f} s")
    for players in args.players:
        rate, decisions = bench_games(players, args.games)
        print(f"{players} players: {rate:.1f} games/s ({args.games} games, "
              f"{decisions} decisions)")


if __name__ == "__main__":
    main()
