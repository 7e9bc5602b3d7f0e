"""The Language Server Protocol side: pygls hands each request to :mod:`.analysis`."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from wonders.dsl.errors import Diagnostic, Severity
from wonders.lsp import analysis

NAME = "wonders"
_SORTS = {"key": lsp.CompletionItemKind.Property, "name": lsp.CompletionItemKind.Value,
          "word": lsp.CompletionItemKind.Keyword}

server = LanguageServer(NAME, "1")


def _path(uri: str) -> Path | None:
    found = to_fs_path(uri)
    return Path(found) if found else None


def to_lsp(diagnostic: Diagnostic, text: str) -> lsp.Diagnostic:
    """A diagnostic at its place; it spans the offending text when that stands there."""
    location = diagnostic.location
    line = max(location.line - 1, 0)
    start = max(location.column - 1, 0)
    lines = text.splitlines()
    width = 1
    if diagnostic.text and line < len(lines) and lines[line].startswith(diagnostic.text, start):
        width = len(diagnostic.text)
    message = diagnostic.message + (f" (did you mean '{diagnostic.suggestion}'?)"
                                    if diagnostic.suggestion else "")
    return lsp.Diagnostic(
        range=lsp.Range(lsp.Position(line, start), lsp.Position(line, start + width)),
        message=message, code=diagnostic.code, source=NAME,
        severity=(lsp.DiagnosticSeverity.Error if diagnostic.severity is Severity.ERROR
                  else lsp.DiagnosticSeverity.Warning))


def publish(ls: LanguageServer, uri: str) -> None:
    """Check the document as it stands in the editor and show what was found."""
    path = _path(uri)
    if path is None:
        return
    document = ls.workspace.get_text_document(uri)
    found = analysis.diagnostics(path, document.source)
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
        uri=uri, version=document.version,
        diagnostics=[to_lsp(d, document.source) for d in found]))


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: LanguageServer, params: lsp.DidOpenTextDocumentParams) -> None:
    publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: LanguageServer, params: lsp.DidChangeTextDocumentParams) -> None:
    publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: LanguageServer, params: lsp.DidSaveTextDocumentParams) -> None:
    publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION,
                lsp.CompletionOptions(trigger_characters=[" ", ":", "-"]))
def completion(ls: LanguageServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    path = _path(params.text_document.uri)
    if path is None:
        return lsp.CompletionList(is_incomplete=False, items=[])
    document = ls.workspace.get_text_document(params.text_document.uri)
    found = analysis.completions(path, document.source, params.position.line,
                                 params.position.character)
    return lsp.CompletionList(is_incomplete=False, items=[
        lsp.CompletionItem(label=s.label, kind=_SORTS[s.sort], detail=s.detail) for s in found])


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: LanguageServer, params: lsp.HoverParams) -> lsp.Hover | None:
    path = _path(params.text_document.uri)
    if path is None:
        return None
    text = analysis.hover(path, params.position.line)
    if text is None:
        return None
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text))


def main() -> None:
    """Serve over standard input and output until the editor closes the connection."""
    server.start_io()


__all__ = ["main", "publish", "server", "to_lsp"]
