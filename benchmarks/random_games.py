"""Play N random-bot games and nothing else: the workload for counting instructions.

Timings on a shared machine vary by tens of percent; instruction counts do not.
Run it twice under callgrind and divide the difference by the extra games:

    valgrind --tool=callgrind --callgrind-out-file=/dev/null python benchmarks/random_games.py duel 30
    valgrind --tool=callgrind --callgrind-out-file=/dev/null python benchmarks/random_games.py duel 90
    # ("Collected" of the second − of the first) / 60 = instructions per game
"""

from __future__ import annotations

import random
import sys

from wonders.dsl.loader import load_game
from wonders.engine.flows import default_players, new_game
from wonders.engine.randomness import below


def main() -> None:
    game, count = sys.argv[1], int(sys.argv[2])
    data = load_game(game=game)
    players = int(sys.argv[3]) if len(sys.argv) > 3 else default_players(data)
    for seed in range(count):
        match = new_game(data, players, seed)
        rng = random.Random(seed)
        while not match.over:
            moves = {}
            for seat in match.to_move():
                actions = match.legal_actions(seat)
                moves[seat] = actions[below(rng, len(actions))]  # rng.randrange, compiled
            match.play(moves)


if __name__ == "__main__":
    main()
