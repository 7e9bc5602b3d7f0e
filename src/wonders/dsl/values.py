"""Reading a schema-checked document's values: a value of the wrong type (already a schema
error, reported at its place) reads as empty or as the default, so checking goes on and
reports every other mistake of the file in the same run."""

from __future__ import annotations

from typing import Any


def as_map(value: Any) -> dict[str, Any]:
    """A map value, or {} when the data has something else there."""
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    """A list value, or [] when the data has something else there."""
    return value if isinstance(value, list) else []


def as_int(value: Any, default: int) -> int:
    """A whole number (not a boolean), or ``default``."""
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def as_str(value: Any, default: str = "") -> str:
    """A string value, or ``default``."""
    return value if isinstance(value, str) else default


__all__ = ["as_int", "as_list", "as_map", "as_str"]
