"""Printing diagnostics for people (with the source line and a caret) and for tools (JSON)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Iterable, TextIO

from wonders.dsl.errors import Diagnostic, Severity


@lru_cache(maxsize=64)
def _lines(file: str) -> tuple[str, ...]:
    try:
        path = Path(file)
        if not path.is_file() or path.stat().st_size > 4 * 1024 * 1024:
            return ()
        return tuple(path.read_text(encoding="utf-8-sig", errors="replace").splitlines())
    except OSError:
        return ()


def excerpt(diagnostic: Diagnostic) -> list[str]:
    """The offending source line with a caret under the offending text."""
    loc = diagnostic.location
    lines = _lines(loc.file)
    if loc.line <= 0 or loc.line > len(lines):
        return []
    line = lines[loc.line - 1].replace("\t", " ")
    if len(line) > 160:
        return []
    width = 1
    if diagnostic.text:
        rest = line[loc.column - 1:]
        if rest.startswith(diagnostic.text):
            width = len(diagnostic.text)
    return [f"    {line}", "    " + " " * (loc.column - 1) + "^" * max(width, 1)]


def print_text(diagnostics: Iterable[Diagnostic], out: TextIO, *, context: bool = True) -> None:
    for diagnostic in diagnostics:
        out.write(diagnostic.render() + "\n")
        if context:
            for line in excerpt(diagnostic):
                out.write(line + "\n")


def summary(files: int, diagnostics: list[Diagnostic]) -> str:
    errors = sum(1 for d in diagnostics if d.severity is Severity.ERROR)
    warnings = len(diagnostics) - errors
    verdict = "valid" if errors == 0 else "invalid"
    return (f"{files} file{'s' if files != 1 else ''} checked: {errors} "
            f"error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}"
            f" — {verdict}")


def print_json(files: list[str], diagnostics: list[Diagnostic], out: TextIO) -> None:
    errors = sum(1 for d in diagnostics if d.severity is Severity.ERROR)
    json.dump({
        "ok": errors == 0,
        "files": files,
        "errors": errors,
        "warnings": len(diagnostics) - errors,
        "diagnostics": [d.to_json() for d in diagnostics],
    }, out, indent=2, ensure_ascii=False)
    out.write("\n")
