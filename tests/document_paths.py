"""Where a fuzz test may mutate a loaded YAML document: the path of every value in it."""

from __future__ import annotations

from typing import Any


def value_paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The key/index path of every value below ``data`` (the first 6 items of a list)."""
    found = [prefix] if prefix else []
    if isinstance(data, dict):
        for key, value in data.items():
            found += value_paths(value, prefix + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data[:6]):
            found += value_paths(value, prefix + (i,))
    return found
