"""Benchmark: a replay's steps as the replay page asks for them (``/api/tables/ID/replay/N``).

For each game, a finished table of random legal moves (one per seat kind: all humans, so
nothing plays in the background), then through Starlette's TestClient (no network):

* every step in order, forward (what the scrubber and the "next" button ask), in a seat's
  view, then in the public view;
* a jump from the last step back to the first, and steps in a random order (shared links).

It prints the median and the slowest request of each, in milliseconds, and the steps.

    python benchmarks/serve_replay.py [--games base duel dice architects] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import warnings

warnings.filterwarnings("ignore", category=DeprecationWarning)

from starlette.testclient import TestClient  # noqa: E402

from wonders.serve.app import create_app  # noqa: E402
from wonders.serve.tables import Tables, load_source  # noqa: E402

PLAYERS = {"base": 3, "duel": 2, "dice": 3, "architects": 3, "leaders": 4, "cities": 3}


def timed(client: TestClient, path: str) -> float:
    start = time.perf_counter()
    answer = client.get(path)
    spent = (time.perf_counter() - start) * 1000
    assert answer.status_code == 200, answer.text
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["base", "duel", "dice", "architects"])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    tables = Tables(None, [load_source(g) for g in args.games])
    client = TestClient(create_app(tables))
    for game in args.games:
        players = PLAYERS.get(game, 3)
        table = tables.create({"game": game, "players": players, "seats": ["human"] * players,
                               "seed": args.seed})
        rng = random.Random(args.seed)
        while not table.game.over:
            for seat in table.waiting_for():
                table.submit(seat, table.decision_number,
                             rng.choice(table.game.legal_actions(seat)).to_json())
        steps = table.decision_number
        base = f"/api/tables/{table.id}/replay"
        seated = [timed(client, f"{base}/{n}?seat=0") for n in range(steps + 1)]
        public = [timed(client, f"{base}/{n}") for n in range(steps + 1)]
        back = timed(client, f"{base}/0")
        order = list(range(steps + 1))
        rng.shuffle(order)
        jumps = [timed(client, f"{base}/{n}?seat=1") for n in order]
        middle = statistics.median
        print(f"{game:11s} {steps:3d} steps | forward, seat view: median {middle(seated):5.1f} "
              f"ms, max {max(seated):5.1f} | public: median {middle(public):5.1f}, max "
              f"{max(public):5.1f} | last->first {back:5.1f} | random order: median "
              f"{middle(jumps):5.1f}, max {max(jumps):5.1f}")


if __name__ == "__main__":
    main()
