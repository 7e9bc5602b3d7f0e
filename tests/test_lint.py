"""The code is ruff-clean: the rules pyproject.toml selects ([tool.ruff.lint]) hold over the
sources, tests, benchmarks and examples, as CI checks them (house rule 9)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing() -> None:
    try:
        import ruff  # noqa: F401  (installed with the test extra)
    except ImportError:
        if shutil.which("ruff") is None:
            pytest.fail("ruff is not installed: pip install '.[test]' installs it")
    found = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "src", "tests",
                            "benchmarks", "examples"], cwd=ROOT, capture_output=True,
                           text=True, timeout=120)
    assert found.returncode == 0, found.stdout + found.stderr
