"""Play N random-bot games and nothing else: the workload for counting instructions.

Timings on a shared machine vary by tens of percent; instruction counts do not.
Run it twice under callgrind and divide the difference by the extra games:

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        python benchmarks/random_games.py duel 30
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        python benchmarks/random_games.py duel 90
    # ("Collected" of the second − of the first) / 60 = instructions per game

    python benchmarks/random_games.py GAME N [PLAYERS] [--side MODE]

``--side`` is the table's side option (``random``, ``choose``, ``A`` …); without it
the rule set's ``setup.wonder_side`` applies.
"""

from __future__ import annotations

import random
import sys
from typing import Any, Callable

from wonders.dsl.loader import load_game
from wonders.engine.randomness import below
from wonders.engine.registry import default_players, new_game


def play(data: Any, players: int, count: int, options: dict[str, str],
         starting: Callable[[int], None] | None = None) -> None:
    """Play ``count`` random games on loaded ``data`` (seeds 0 … count − 1): the counted
    workload.  ``starting(seed)`` is called before each game (``instructions.py
    --passes`` notes where the collector's full passes fall)."""
    for seed in range(count):
        if starting is not None:
            starting(seed)
        match = new_game(data, players, seed, **options)
        rng = random.Random(seed)
        while not match.over:
            moves = {}
            for seat in match.to_move():
                actions = match.legal_actions(seat)
                moves[seat] = actions[below(rng, len(actions))]  # rng.randrange, compiled
            match.play(moves)


def main() -> None:
    args = sys.argv[1:]
    options: dict[str, str] = {}
    if "--side" in args:
        at = args.index("--side")
        options["sides"] = args[at + 1]
        del args[at:at + 2]
    game, count = args[0], int(args[1])
    data = load_game(game=game)
    players = int(args[2]) if len(args) > 2 else default_players(data)
    play(data, players, count, options)

if __name__ == "__main__":
    main()
