"""Diagnostics and the exception hierarchy.

Every problem found in data is a :class:`Diagnostic`: a stable code, a
location (file, line, column, 1-based), a message naming the offending text and,
where a known name is close, a suggestion.  Loaders *collect* diagnostics instead
of raising on the first one, so a designer sees every mistake of a file in one
run.  The exceptions exist for callers who want a single failure to propagate
(``load_game`` raises :class:`DataError` carrying all the diagnostics).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from enum import Enum
from typing import Iterable


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, order=True)
class Location:
    """A point in a source file; line and column are 1-based."""

    file: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if self.line <= 0:
            return self.file
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Diagnostic:
    """One problem in the data, printable as ``file:line:col: CODE message``."""

    code: str
    message: str
    location: Location
    severity: Severity = Severity.ERROR
    text: str | None = None  # the offending text, shown under the message
    suggestion: str | None = None  # a close known name ("did you mean")

    def render(self) -> str:
        message = self.message
        if self.suggestion:
            message += f" (did you mean '{self.suggestion}'?)"
        prefix = "" if self.severity is Severity.ERROR else "warning: "
        return f"{self.location}: {self.code} {prefix}{message}"

    def to_json(self) -> dict[str, object]:
        return {
            "file": self.location.file,
            "line": self.location.line,
            "column": self.location.column,
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "text": self.text,
            "suggestion": self.suggestion,
        }


def closest(name: str, known: Iterable[str]) -> str | None:
    """The known name a typo most likely meant, or None when nothing is close."""
    candidates = list(known)
    lowered = {c.lower(): c for c in candidates}
    if name.lower() in lowered and lowered[name.lower()] != name:
        return lowered[name.lower()]
    match = difflib.get_close_matches(name.lower(), list(lowered), n=1, cutoff=0.6)
    return lowered[match[0]] if match else None


class WondersError(Exception):
    """Base of every error this package raises on purpose."""


class DataError(WondersError):
    """Data (card sets, wonders, rule sets) failed to load; carries every diagnostic."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = diagnostics
        errors = [d for d in diagnostics if d.severity is Severity.ERROR]
        head = "\n".join(d.render() for d in errors[:20])
        more = f"\n... and {len(errors) - 20} more" if len(errors) > 20 else ""
        super().__init__(f"{len(errors)} error(s) in the data:\n{head}{more}")


class EffectSyntaxError(WondersError):
    """An effect string that does not parse; ``offset`` is a 0-based index into it."""

    def __init__(self, code: str, message: str, offset: int, text: str,
                 suggestion: str | None = None) -> None:
        self.code = code
        self.message = message
        self.offset = offset
        self.text = text
        self.suggestion = suggestion
        super().__init__(f"{code} {message} at column {offset + 1} of {text!r}")


@dataclass
class Problem:
    """A problem inside one effect string, before it is placed in a file."""

    code: str
    message: str
    start: int  # 0-based offset into the effect string
    end: int
    suggestion: str | None = None
    severity: Severity = Severity.ERROR


@dataclass
class Report:
    """The diagnostics of one validation run, in the order found."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def add(self, diagnostic: Diagnostic) -> None:
        self.diagnostics.append(diagnostic)

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.diagnostics.extend(diagnostics)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.WARNING]

    @property
    def ok(self) -> bool:
        return not self.errors

    def sorted(self) -> list[Diagnostic]:
        return sorted(self.diagnostics, key=lambda d: (d.location, d.code))
