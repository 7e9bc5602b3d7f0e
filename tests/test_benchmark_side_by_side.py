"""benchmarks/side_by_side.py reads what benchmarks/throughput.py prints: a change to
either's format must not leave the comparison silently empty."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "side_by_side.py"


def test_side_by_side_reads_both_builds_rates() -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--before", sys.executable, "--after", sys.executable,
         "--game", "duel", "--games", "3", "--repeat", "1", "--passes", "2"],
        capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    # each pass names both builds, each with a rate for the two players
    assert sum(line.startswith("pass ") for line in lines) == 4
    assert all("2 players" in line for line in lines if line.startswith("pass "))
    summary = [line for line in lines if line.strip().startswith("2 players: before")]
    assert len(summary) == 1 and "x  (best runs" in summary[0]


def test_side_by_side_stops_on_a_failing_build() -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--before", sys.executable, "--after", sys.executable,
         "--game", "no-such-game", "--games", "1", "--repeat", "1", "--passes", "1"],
        capture_output=True, text=True, timeout=300)
    assert result.returncode != 0
    assert "throughput.py failed" in result.stderr
