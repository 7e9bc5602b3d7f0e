"""A language server for the game data: card, wonder, token, rule-set and scenario files.

``wonders lsp`` speaks the Language Server Protocol over standard input and output
(built on pygls), so any editor with an LSP client gets, while typing, the diagnostics
``wonders validate`` (and ``wonders check`` for scenario files) would print, completion
of keys, vocabulary names and effect words, and hovers that describe a card in plain
English.  The editor set-up is in ``docs/editors.md``.
"""
