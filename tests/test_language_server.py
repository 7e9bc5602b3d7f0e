"""The language server, as an editor meets it: a real LSP client session over stdio.

A pygls client starts ``python -m wonders.lsp`` (what ``wonders lsp`` runs), opens a
card file of the tutorial's kind with mistakes typed into the buffer (not saved), and
gets the same diagnostics ``wonders validate`` prints for that text; completion offers
keys where a key goes and the rule set's names in an effect; hover describes the card.
"""

from __future__ import annotations

import asyncio
import base64
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls", reason="the language server needs the 'lsp' extra (pygls)")

from lsprotocol import types as lsp  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from wonders.cli import app  # noqa: E402
from wonders.lsp import analysis  # noqa: E402

TUTORIAL = Path(__file__).resolve().parents[1] / "expansions" / "tutorial"

CARD = """kind: cards
game: base
set: lsp-test
requires: [base]
cards:
  - name: Quarry Guild
    age: 3
    colour: purpel
    cost: 2 wod
    effect: "now: coins 2"
  - name: Stone Bench Guild
    age: 3
    colour: purple
    cost: 2 stone
    effect: "end: points 2"
"""


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    """A copy of the tutorial expansion (a card set for base) to type into."""
    target = tmp_path / "tutorial"
    shutil.copytree(TUTORIAL, target)
    (target / "lsp.yaml").write_text("kind: cards\ngame: base\nset: lsp-test\ncards: []\n",
                                     encoding="utf-8")
    return target


def run(session: Any) -> Any:
    return asyncio.run(asyncio.wait_for(session, timeout=120))


async def _session(path: Path, text: str) -> dict[str, Any]:
    client = LanguageClient("test-client", "1")
    published: asyncio.Queue[lsp.PublishDiagnosticsParams] = asyncio.Queue()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
        published.put_nowait(params)

    await client.start_io(sys.executable, "-m", "wonders.lsp")
    uri = path.as_uri()
    await client.initialize_async(lsp.InitializeParams(
        capabilities=lsp.ClientCapabilities(), root_uri=path.parent.as_uri()))
    client.initialized(lsp.InitializedParams())
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(
        uri=uri, language_id="yaml", version=1, text=text)))
    first = await published.get()
    lines = text.splitlines()
    effect_line = next(i for i, line in enumerate(lines) if "end: points 2" in line)
    in_effect = await client.text_document_completion_async(lsp.CompletionParams(
        lsp.TextDocumentIdentifier(uri), lsp.Position(effect_line, len(lines[effect_line]) - 1)))
    at_key = await client.text_document_completion_async(lsp.CompletionParams(
        lsp.TextDocumentIdentifier(uri), lsp.Position(effect_line + 1, 0)))
    # the mistakes mended in the buffer: the card's hover reads the game loaded now
    fixed = text.replace("purpel", "purple").replace("2 wod", "2 wood")
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
        [lsp.TextDocumentContentChangeWholeDocument(text=fixed)]))
    second = await published.get()
    hovered = await client.text_document_hover_async(lsp.HoverParams(
        lsp.TextDocumentIdentifier(uri), lsp.Position(effect_line, 4)))
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return {"first": first, "second": second, "in_effect": in_effect, "at_key": at_key,
            "hover": hovered}


def test_an_editor_session_sees_what_validate_sees(folder: Path) -> None:
    path = folder / "lsp.yaml"
    (path).write_text(CARD, encoding="utf-8")   # validate reads the disk
    result = CliRunner().invoke(app, ["validate", str(folder)])
    assert result.exit_code == 1
    expected = sorted((d.location.line, d.code) for d in analysis.diagnostics(path, CARD))
    (path).write_text("kind: cards\ngame: base\nset: lsp-test\ncards: []\n", encoding="utf-8")

    found = run(_session(path, CARD))  # the buffer, not the file, holds the mistakes
    first: lsp.PublishDiagnosticsParams = found["first"]
    got = sorted((d.range.start.line + 1, str(d.code)) for d in first.diagnostics)
    assert got == expected and got
    assert all(d.source == "wonders" for d in first.diagnostics)
    for line, code in got:   # each as validate prints it, file:line: CODE
        assert f"lsp.yaml:{line}:" in result.stdout and code in result.stdout
    assert list(found["second"].diagnostics) == []

    in_effect = {item.label for item in found["in_effect"].items}
    assert {"wood", "stone", "yellow", "left", "neighbours", "coins", "points"} <= in_effect
    at_key = {item.label for item in found["at_key"].items}
    assert {"name", "age", "colour", "cost", "effect", "players"} <= at_key
    assert "wood" not in at_key

    hover: lsp.Hover = found["hover"]
    assert isinstance(hover.contents, lsp.MarkupContent)
    assert "**Stone Bench Guild** — purple, age 3" in hover.contents.value
    assert "cost: 2 stone" in hover.contents.value
    # and its drawing, inline: the SVG `wonders render` draws, in a data: address
    image = re.search(r"!\[Stone Bench Guild\]\(data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)\)",
                      hover.contents.value)
    assert image is not None
    drawn = base64.b64decode(image.group(1)).decode("utf-8")
    assert drawn.startswith("<svg") and "Stone Bench Guild" in drawn


def test_the_buffer_with_every_mistake_reports_all_of_them(folder: Path) -> None:
    """Unrelated mistakes in one buffer: each at its place, with its "did you mean"."""
    text = CARD.replace('"end: points 2"', '"end: pionts 2"')
    found = analysis.diagnostics(folder / "lsp.yaml", text)
    by_line = {d.location.line: d for d in found}
    assert by_line[8].suggestion == "purple"    # colour: purpel
    assert by_line[9].suggestion == "wood"      # cost: 2 wod
    assert 15 in by_line                        # effect: end: pionts 2


def test_schema_write_writes_every_kind(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["schema", "--write", str(tmp_path / "schemas")])
    assert result.exit_code == 0, result.output
    written = sorted(p.name for p in (tmp_path / "schemas").iterdir())
    assert written == sorted(f"{kind}.schema.json" for kind in analysis.KINDS)
    assert CliRunner().invoke(app, ["schema"]).exit_code == 2
