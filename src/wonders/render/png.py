"""PNG output through CairoSVG, an optional extra (``pip install 'wonders[render]'``)."""

from __future__ import annotations

import importlib
from typing import Any

EXTRA_HINT = ("PNG output needs the CairoSVG library, which is not installed: "
              "pip install 'wonders[render]' (or pip install cairosvg); "
              "--format svg works without it")


class PngUnavailable(RuntimeError):
    """CairoSVG (or the Cairo library under it) is missing."""


def _cairosvg() -> Any:
    try:
        return importlib.import_module("cairosvg")
    except ImportError as exc:  # also raised when libcairo itself cannot be loaded
        detail = "" if isinstance(exc, ModuleNotFoundError) else f" ({exc})"
        raise PngUnavailable(EXTRA_HINT + detail) from None
    except OSError as exc:
        raise PngUnavailable(f"{EXTRA_HINT} ({exc})") from None


def require() -> None:
    """:class:`PngUnavailable`, saying what to install, unless PNGs can be made."""
    _cairosvg()


def available() -> bool:
    try:
        require()
    except PngUnavailable:
        return False
    return True


def to_png(svg: str, scale: float = 2.0) -> bytes:
    """The SVG document as PNG bytes, ``scale`` pixels per unit."""
    data: bytes = _cairosvg().svg2png(bytestring=svg.encode("utf-8"), scale=scale)
    return data


__all__ = ["EXTRA_HINT", "PngUnavailable", "available", "require", "to_png"]
