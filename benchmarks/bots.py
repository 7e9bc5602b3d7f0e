"""Benchmark: bots against each other — win rates with confidence intervals, average scores.

Each match-up ``A:B`` plays ``--games`` games of one ``A`` against ``players - 1``
copies of ``B``; ``A`` sits at seat ``game % players`` (seats rotate) and game
``i`` uses seed ``seed + i`` for the deal and ``(seed + i) * 100 + seat`` for the
bots, so a run is reproducible and does not depend on ``--workers``.  A shared
win counts as a fraction.  With equal bots ``A`` would win ``1 / players`` of
the games.

    python benchmarks/bots.py [--game base] [--games 100] [--players 3]
                              [--match greedy:random mcts:greedy]
                              [--workers 2] [--playouts 96] [--seed 0]

Measured on this machine (2 cores), default budgets:

    python benchmarks/bots.py --games 300 --match greedy:random
      greedy win rate 99.3% ± 0.9%, scores 56.9 vs 26.7, 0.03 s per game
    python benchmarks/bots.py --games 60 --match mcts:greedy
      mcts win rate 86.7% ± 8.7%, scores 61.5 vs 48.7, 8.8 s per game
"""

from __future__ import annotations

import argparse
import math
import os
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial

from wonders.bots import BOTS, Bot
from wonders.bots.mcts import MCTSBot
from wonders.dsl.loader import load_game
from wonders.dsl.model import Game as GameData
from wonders.engine.registry import default_players, new_game

_DATA: dict[str, GameData] = {}


def _data(game: str) -> GameData:
    found = _DATA.get(game)
    if found is None:
        found = _DATA[game] = load_game(game=game)
    return found


def make(name: str, seed: int, playouts: int | None) -> Bot:
    if name == "mcts" and playouts is not None:
        return MCTSBot(seed, playouts=playouts)
    return BOTS[name](seed)


@dataclass
class Result:
    win: float          # A's share of the win (0, 1, or 1/k for a k-way tie)
    score: int          # A's total
    others: float       # the B players' mean total
    margin: int         # A's total minus the best B total
    seconds: float


def play_one(index: int, a: str, b: str, players: int, seed: int,
             playouts: int | None, game_name: str = "base") -> Result:
    start = time.perf_counter()
    game_seed = seed + index
    seat_a = index % players
    names = [b] * players
    names[seat_a] = a
    bots = [make(name, game_seed * 100 + seat, playouts) for seat, name in enumerate(names)]
    game = new_game(_data(game_name), players, game_seed)
    while not game.over:
        game.play({seat: bots[seat].choose(game, seat) for seat in game.to_move()})
    sheet = game.score_sheet()
    winners = sheet.winners
    others = [sheet.total(s) for s in range(players) if s != seat_a]
    return Result(1.0 / len(winners) if seat_a in winners else 0.0, sheet.total(seat_a),
                  sum(others) / len(others), sheet.total(seat_a) - max(others),
                  time.perf_counter() - start)


def mean_ci(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval (normal approximation)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan")
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(variance / n)


def run_match(a: str, b: str, players: int, games: int, seed: int, workers: int,
              playouts: int | None, game_name: str = "base") -> None:
    job = partial(play_one, a=a, b=b, players=players, seed=seed, playouts=playouts,
                  game_name=game_name)
    start = time.perf_counter()
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(job, range(games)))
    else:
        results = [job(i) for i in range(games)]
    wall = time.perf_counter() - start
    win, win_ci = mean_ci([r.win for r in results])
    score, score_ci = mean_ci([float(r.score) for r in results])
    others, others_ci = mean_ci([r.others for r in results])
    margin, margin_ci = mean_ci([float(r.margin) for r in results])
    per_game = sum(r.seconds for r in results) / games
    print(f"{game_name}: {a} vs {players - 1}x {b}, {players} players, {games} games (seeds {seed}…"
          f"{seed + games - 1}, seats rotated):")
    print(f"  {a} win rate {win:.1%} ± {win_ci:.1%} (95% CI; {1 / players:.1%} if equal)")
    print(f"  average score: {a} {score:.1f} ± {score_ci:.1f}, {b} {others:.1f} ± {others_ci:.1f}"
          f"; margin over best {b} {margin:+.1f} ± {margin_ci:.1f}")
    print(f"  {per_game:.2f} s per game (one core); wall {wall:.1f} s with {workers} worker(s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="games per match-up")
    parser.add_argument("--game", default="base", help="a shipped game (base, duel …)")
    parser.add_argument("--players", type=int, default=None,
                        help="players (default: 3, or the game's own count, 2 for duel)")
    parser.add_argument("--match", nargs="*", default=["greedy:random", "mcts:greedy"],
                        help="match-ups A:B (one A against players-1 B)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--playouts", type=int, default=None,
                        help="playouts per decision for mcts (default: the bot's own)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for match in args.match:
        a, _, b = match.partition(":")
        for name in (a, b):
            if name not in BOTS:
                parser.error(f"no bot named '{name}' (known: {', '.join(BOTS)})")
        players = args.players or default_players(_data(args.game))
        run_match(a, b, players, args.games, args.seed, args.workers, args.playouts, args.game)


if __name__ == "__main__":
    main()
