"""A non-editable install must carry every code package and the shipped data.

Editable installs map whole folders, so a package missing from pyproject.toml's
list only shows on a real install (``pip install .``): this test catches it
without building anything.
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def test_every_code_package_is_listed() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    for init in (ROOT / "src" / "wonders").rglob("__init__.py"):
        name = ".".join(init.parent.relative_to(ROOT / "src").parts)
        assert name in listed, f"{name} is missing from [tool.setuptools] packages"


def test_shipped_data_is_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    data = config["tool"]["setuptools"]["package-data"]
    assert "**/*.yaml" in data["wonders.cards"] and "**/*.yaml" in data["wonders.expansions"]
    assert "*.lark" in data["wonders.dsl"] and "schemas/*.json" in data["wonders.dsl"]
