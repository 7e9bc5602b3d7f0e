"""Benchmark: complete random-bot games per second, and the time to load the data.

Every decision enumerates all legal actions with every Pareto-optimal payment
(what a bot or an agent needs), on one core; rates are measured in CPU time of
this process, so other load on the machine disturbs them less.  The figures go
in docs/performance.md.

    python benchmarks/throughput.py [--games 300] [--players 3 7]
    python benchmarks/throughput.py --game duel --games 2000    # 2 players
    python benchmarks/throughput.py --game dice --players 4    # 7 Wonders Dice
    python benchmarks/throughput.py --game expansions/cities --players 3 7   # an expansion
    python benchmarks/throughput.py --side random    # sides drawn, none chosen

``--side`` is the table's side option (``random``, ``choose``, ``A`` …); without it
the rule set's ``setup.wonder_side`` applies (base: ``choose``: a side decision
before Age I, every seat choosing at random like every other decision).
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from wonders.dsl.loader import load_game
from wonders.dsl.model import Game
from wonders.engine import COMPILED
from wonders.engine.randomness import below
from wonders.engine.registry import default_players, new_game


def bench_load(game: str, repeat: int = 5) -> float:
    """Seconds to load, validate and compile a shipped game (best of ``repeat``)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        load_game(game=game)
        best = min(best, time.process_time() - start)
    return best


def bench_games(data: Game, players: int, games: int, first_seed: int = 0,
                **options: Any) -> tuple[float, int]:
    """Games per second on loaded ``data`` (loaded once, as a simulation does: the
    engine's shared caches then serve every run), and the decisions made."""
    decisions = 0
    start = time.process_time()
    for seed in range(first_seed, first_seed + games):
        game = new_game(data, players, seed, **options)
        rng = random.Random(seed)
        while not game.over:
            moves = {}
            for seat in game.to_move():
                actions = game.legal_actions(seat)
                decisions += 1
                moves[seat] = actions[below(rng, len(actions))]  # rng.randrange, compiled
            game.play(moves)
        game.score_sheet()
    return games / (time.process_time() - start), decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="base", help="a shipped game (base, duel, dice, "
                        "architects) or a rule-set path (expansions/cities)")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, nargs="*", default=None,
                        help="player counts (default: 3 and 7 for base, the rule set's "
                        "minimum otherwise)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs per player count; the best and the median are shown")
    parser.add_argument("--side", default=None,
                        help="wonder sides (random, choose, A, B …; default: the rule set's)")
    args = parser.parse_args()
    options = {} if args.side is None else {"sides": args.side}
    print("engine hot path: " + ("compiled (mypyc)" if COMPILED else "pure Python (an editable "
                                 "install, or WONDERS_COMPILE=0; see setup.py)"))
    first = time.process_time()
    data = load_game(game=args.game)
    cold = time.process_time() - first
    print(f"{args.game}: load + validate + compile (first, in a fresh process): {cold:.3f} s")
    print(f"{args.game}: load + validate + compile (warm, best of 5): "
          f"{bench_load(args.game):.3f} s")
    if args.side is not None:
        print(f"{args.game}: sides {args.side}")
    counts = args.players or ([3, 7] if args.game == "base" else [default_players(data)])
    for players in counts:
        cold, _ = bench_games(data, players, args.games, first_seed=10**6, **options)
        print(f"{players} players: {cold:.1f} games/s in the first {args.games} games "
              "(caches filling)")
        runs = [bench_games(data, players, args.games, first_seed=(run + 1) * args.games,
                            **options)
                for run in range(args.repeat)]
        rates = sorted(rate for rate, _ in runs)
        print(f"{players} players: {rates[-1]:.1f} games/s best, {rates[len(rates) // 2]:.1f} "
              f"median of {args.repeat} runs on new seeds ({args.games} games, {runs[0][1]} "
              "decisions each; CPU time of this process)")


if __name__ == "__main__":
    main()
