"""Benchmark: how long the ``wonders`` command takes to start, as a user meets it.

Each figure is the median of ``--runs`` new processes (after one unmeasured run
that writes the bytecode caches and the effect language's syntax cache), in wall
time and in CPU time (user + system of the child, which other load on a shared
machine disturbs less).  The children run without ``PYTHONDONTWRITEBYTECODE`` (a
user's Python writes its bytecode caches; with the variable set, an editable
install recompiles every module on every start).  The floors are what no change to
this project removes: the interpreter with its site packages, and Typer (with the
Rich help it prints, and Pydantic, with which Typer 0.29 checks every option of the
command that runs).  ``play`` is also measured with ``WONDERS_NO_CACHE=1``: a start
that parses every effect with Lark (the first start after an install or a change of
the language, or with the cache turned off).

    python benchmarks/startup.py [--runs 5]
    python benchmarks/startup.py --python /path/to/venv/bin/python   # another build
    python benchmarks/startup.py --python A/bin/python --python B/bin/python  # both

The targets (issue 29): ``wonders --help`` under 0.3 s, ``wonders play --players 4``
under 0.6 s; the methods and the figures measured are in docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

# the floors: Python alone, then Typer's share of each command
FLOORS: dict[str, list[str]] = {
    "python -c pass": ["-c", "pass"],
    "import typer": ["-c", "import typer"],
    "import typer.rich_utils (the help's Rich)": ["-c", "import typer.rich_utils"],
    "import typer, pydantic (options checked)": ["-c", "import typer._adapters"],
}
COMMANDS: dict[str, tuple[list[str], dict[str, str]]] = {
    "wonders --help": (["--help"], {}),
    "wonders play --players 4": (["play", "--players", "4"], {}),
    "  the same, WONDERS_NO_CACHE=1": (["play", "--players", "4"], {"WONDERS_NO_CACHE": "1"}),
}
TARGETS = {"wonders --help": 0.3, "wonders play --players 4": 0.6}


def child_env(extra: dict[str, str]) -> dict[str, str]:
    """The environment of a measured process: as a user's, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(extra)
    return env


def measure(argv: list[str], runs: int, extra: dict[str, str] | None = None,
            ) -> tuple[float, float]:
    """Median wall and CPU seconds of ``runs`` processes of ``argv`` (output discarded)."""
    env = child_env(extra or {})
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                   env=env)
    walls: list[float] = []
    cpus: list[float] = []
    for _ in range(runs):
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 env=env)
        _, status, usage = os.wait4(child.pid, 0)
        walls.append(time.perf_counter() - start)
        cpus.append(usage.ru_utime + usage.ru_stime)
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            raise SystemExit(f"{' '.join(argv)} exited with {child.returncode}")
    return statistics.median(walls), statistics.median(cpus)


def wonders_command(python: Path) -> list[str]:
    """The console script installed beside ``python`` (what users run), else ``-m``."""
    script = python.parent / "wonders"
    return [str(script)] if script.is_file() else [str(python), "-m", "wonders.cli"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="processes per figure (median)")
    parser.add_argument("--python", type=Path, action="append",
                        help="the interpreter of a build to measure; repeat it to measure "
                             "several builds, e.g. an editable and a compiled one (default: "
                             "this one)")
    args = parser.parse_args()
    for python in args.python or [Path(sys.executable)]:
        report(python, args.runs)


def report(python: Path, runs: int) -> None:
    """Print the floors and the commands' figures for the build of ``python``."""
    compiled = subprocess.run(
        [str(python), "-c", "import wonders.engine as e; print(e.COMPILED)"],
        capture_output=True, text=True, check=True, env=child_env({})).stdout.strip()
    print(f"{python}: hot path compiled: {compiled}; median of {runs} runs; "
          f"load average before: {os.getloadavg()[0]:.2f}")
    print(f"{'':44} {'wall s':>7} {'CPU s':>7}")
    for label, tail in FLOORS.items():
        wall, cpu = measure([str(python), *tail], runs)
        print(f"{label:44} {wall:7.3f} {cpu:7.3f}   (floor)")
    base = wonders_command(python)
    for label, (tail, extra) in COMMANDS.items():
        wall, cpu = measure([*base, *tail], runs, extra)
        target = TARGETS.get(label)
        verdict = "" if target is None else \
            f"   target {target} s: {'met' if wall < target else 'NOT met'}"
        print(f"{label:44} {wall:7.3f} {cpu:7.3f}{verdict}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
