"""Random-policy games through the engine and through the PettingZoo environment, side by side.

    python benchmarks/env.py                    # base at 3 players and Duel
    python benchmarks/env.py --seconds 5 --rounds 5 --table leaders:4

Both sides run in this process, on the same build and interpreter, in alternating
short rounds, timed in this process's CPU time (``time.process_time``: on a shared
machine, wall time counts the other processes' turns too); each figure is the
median of the rounds' games per CPU second, and the ratio the median of the
rounds' ratios.  The engine side plays each seat's legal actions
uniformly at random (``benchmarks/random_games.py``'s workload); the environment
side plays the AEC API as an agent does — ``last()`` (the observation vector and
the action mask, made at every step), a uniformly random index among the mask's
ones, ``step()`` — until every agent is done, rewards included.  The third column
is the environment's speed as a share of the engine's (the issue's target: at
least 1/3 for base at 3 players and for Duel).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any, Callable

import wonders
from wonders.engine.randomness import below
from wonders.engine.registry import new_game
from wonders.env import env


def engine_games(data: Any, players: int, seconds: float, first: int) -> float:
    """Random games of the engine alone for about ``seconds``: games per second."""
    start = time.process_time()
    games = 0
    while True:
        seed = first + games
        game = new_game(data, players, seed)
        rng = random.Random(seed)
        while not game.over:
            moves = {}
            for seat in game.to_move():
                actions = game.legal_actions(seat)
                moves[seat] = actions[below(rng, len(actions))]
            game.play(moves)
        games += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return games / elapsed


def env_games(aec: Any, seconds: float, first: int) -> float:
    """Random-policy games through the AEC environment for about ``seconds``."""
    start = time.process_time()
    games = 0
    while True:
        seed = first + games
        aec.reset(seed=seed)
        rng = random.Random(seed)
        for _ in aec.agent_iter():
            observation, _, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                aec.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0]
            aec.step(int(legal[below(rng, len(legal))]))
        games += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return games / elapsed


def measure(name: str, players: int | None, seconds: float, rounds: int,
            report: Callable[[str], None] = print) -> tuple[float, float, float]:
    """The median engine and environment games per CPU second over ``rounds``, and the
    median of the rounds' ratios (environment / engine)."""
    data = wonders.load_game(name)
    aec = env(data, players)  # (the spaces are made here, outside the timing)
    players = aec.players
    engine: list[float] = []
    through_env: list[float] = []
    engine_games(data, players, 0.3, 10_000)  # warm the engine's tables
    env_games(aec, 0.3, 10_000)
    for round_ in range(rounds):
        engine.append(engine_games(data, players, seconds, round_ * 100_000))
        through_env.append(env_games(aec, seconds, round_ * 100_000))
    a, b = statistics.median(engine), statistics.median(through_env)
    ratio = statistics.median(e / g for g, e in zip(engine, through_env))
    report(f"{name:>15} {players}p  engine {a:8.1f} games/s   env {b:8.1f} games/s   "
           f"env/engine {ratio:5.2f}   (observation {aec.encoder.size} numbers, "
           f"{len(aec.catalogue)} actions)")
    return a, b, ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="per side and round")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--table", action="append", default=[],
                        help="GAME or GAME:PLAYERS (default: base:3 and duel:2)")
    args = parser.parse_args()
    tables = args.table or ["base:3", "duel:2"]
    for table in tables:
        name, _, count = table.partition(":")
        measure(name, int(count) if count else None, args.seconds, args.rounds)


if __name__ == "__main__":
    main()
