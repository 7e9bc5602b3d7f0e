"""Two builds' games per second, measured at the same time: one on each core, then swapped.

A shared VM's speed drifts by tens of percent from one minute to the next, so two
builds measured one after the other (even interleaved) can differ by more than the
change being measured.  Run at the same moment on the machine's two cores, both see
the same neighbours, the same frequency and the same host; swapping the cores on
each pass cancels a difference between the cores themselves.  Each run is
``benchmarks/throughput.py`` in that build's interpreter (the same script for both:
only the engine differs), pinned to its core::

    python benchmarks/side_by_side.py --before /tmp/old/bin/python \\
        --after .venv/bin/python --game duel --games 1000
    python benchmarks/side_by_side.py --before A --after B --games 300 --players 3 7

It prints, per pass and player count, each build's median and best of ``--repeat``
runs, then the median over the passes and the ratio after / before.  The two runs
share the cores' common cache and memory, so both are a little slower than alone:
the ratio is what it is for.  Needs two cores (``os.sched_setaffinity``, Linux); with
one it runs the two builds one after the other and says so.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Callable

THROUGHPUT = Path(__file__).with_name("throughput.py")
# "3 players: 2167.3 games/s best, 2150.1 median of 3 runs on new seeds (…)"
_RATES = re.compile(r"^(\d+) players: ([\d.]+) games/s best, ([\d.]+) median of")


def _pinned(core: int | None) -> Callable[[], None] | None:
    """A ``preexec_fn`` pinning the child to ``core`` (None: no pinning)."""
    if core is None:
        return None

    def pin() -> None:
        os.sched_setaffinity(0, {core})
    return pin


def _start(python: str, arguments: list[str], core: int | None) -> subprocess.Popen[str]:
    return subprocess.Popen([python, str(THROUGHPUT), *arguments], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=_pinned(core))


def _rates(process: subprocess.Popen[str], python: str) -> dict[int, tuple[float, float]]:
    """players -> (median, best) games/s, from a finished throughput run."""
    out, err = process.communicate()
    if process.returncode != 0:
        sys.exit(f"{python} {THROUGHPUT.name} failed ({process.returncode}):\n{err.strip()}")
    found: dict[int, tuple[float, float]] = {}
    for line in out.splitlines():
        match = _RATES.match(line)
        if match:
            found[int(match.group(1))] = (float(match.group(3)), float(match.group(2)))
    if not found:
        sys.exit(f"{python} {THROUGHPUT.name} printed no rates:\n{out.strip()}")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, help="the first build's python")
    parser.add_argument("--after", required=True, help="the second build's python")
    parser.add_argument("--passes", type=int, default=3,
                        help="passes (each build on each core in turn; default 3)")
    parser.add_argument("--game", default="base")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, nargs="*", default=None)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    passthrough = ["--game", args.game, "--games", str(args.games), "--repeat", str(args.repeat)]
    if args.players:
        passthrough += ["--players", *map(str, args.players)]
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    together = len(cores) >= 2
    if not together:
        print("one core: the builds run one after the other, not side by side")
    builds = {"before": args.before, "after": args.after}
    results: dict[str, list[dict[int, tuple[float, float]]]] = {"before": [], "after": []}
    for number in range(args.passes):
        # even passes: before on the first core; odd passes: swapped
        order = ["before", "after"] if number % 2 == 0 else ["after", "before"]
        if together:
            running = {name: _start(builds[name], passthrough, cores[at])
                       for at, name in enumerate(order)}
            try:
                for name in order:
                    results[name].append(_rates(running[name], builds[name]))
            finally:  # one build failed: do not leave the other running
                for process in running.values():
                    if process.poll() is None:
                        process.kill()
        else:
            for name in order:
                results[name].append(_rates(_start(builds[name], passthrough, None),
                                            builds[name]))
        for name in ("before", "after"):
            line = ", ".join(f"{players} players {median:,.0f} (best {best:,.0f})"
                             for players, (median, best) in sorted(results[name][-1].items()))
            core = f" on core {cores[order.index(name)]}" if together else ""
            print(f"pass {number + 1}, {name}{core}: {line}")
    print(f"{args.game}, median games/s over {args.passes} passes (each a median of "
          f"{args.repeat} runs of {args.games} games):")
    for players in sorted(results["before"][0]):
        before = statistics.median(run[players][0] for run in results["before"])
        after = statistics.median(run[players][0] for run in results["after"])
        best_before = max(run[players][1] for run in results["before"])
        best_after = max(run[players][1] for run in results["after"])
        print(f"  {players} players: before {before:,.0f}, after {after:,.0f}: "
              f"{after / before:.2f}x  (best runs {best_before:,.0f} and {best_after:,.0f}: "
              f"{best_after / best_before:.2f}x)")


if __name__ == "__main__":
    main()
