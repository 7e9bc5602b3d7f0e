"""``python -m wonders.lsp``: the language server over standard input and output."""

from wonders.lsp.server import main

main()
