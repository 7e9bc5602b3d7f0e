"""docs/duel.md quotes the shipped Duel data: every quoted YAML block must still be true.

A reader copies these blocks to write a variant, so a block that drifted from
cards/duel/ would teach the wrong thing.  Blocks are compared key by key with
the shipped rule set (a quoted mapping may be a part of the real one), tokens
with the shipped tokens, and a quoted ``effect:`` with some shipped card's.
Its ``console`` blocks run from the repository's folder and must print what they
show (``…`` stands for any lines), as in tests/test_docs.py.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "duel.md"
DUEL = ROOT / "cards" / "duel"

BLOCKS = re.findall(r"```yaml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def _shipped(name: str) -> Any:
    return yaml.safe_load((DUEL / name).read_text(encoding="utf-8"))


def _contained(part: Any, whole: Any) -> bool:
    """Whether ``part`` says nothing ``whole`` does not (mappings may leave keys out)."""
    if isinstance(part, dict):
        return isinstance(whole, dict) and all(
            key in whole and _contained(value, whole[key]) for key, value in part.items())
    return bool(part == whole)


def test_the_page_quotes_yaml() -> None:
    assert len(BLOCKS) >= 8


@pytest.mark.parametrize("text", BLOCKS, ids=[f"block{i + 1}" for i in range(len(BLOCKS))])
def test_quoted_block_matches_the_shipped_data(text: str) -> None:
    block = yaml.safe_load(text)
    assert isinstance(block, dict)
    if block.get("kind") == "tokens":
        shipped = {t["name"]: t for t in _shipped("tokens.yaml")["tokens"]}
        for token in block["tokens"]:
            assert _contained(token, shipped[token["name"]]), token["name"]
        return
    if set(block) == {"effect"}:
        effects = [c.get("effect") for name in ("age1.yaml", "age2.yaml", "age3.yaml",
                                                "guilds.yaml")
                   for c in _shipped(name)["cards"]]
        assert block["effect"] in effects
        return
    rules = _shipped("rules.yaml")
    for key, value in block.items():
        assert _contained({key: value}, rules), f"{key}: {value!r} is not what rules.yaml says"


def test_console_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    from test_docs import Shell, check_console, parse_blocks

    monkeypatch.chdir(ROOT)
    shell = Shell(ROOT)
    blocks = [b for b in parse_blocks("duel.md", DOC.read_text(encoding="utf-8"))
              if b.lang == "console"]
    assert len(blocks) >= 2
    for block in blocks:
        check_console(block, shell)
