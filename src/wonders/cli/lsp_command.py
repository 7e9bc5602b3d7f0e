"""``wonders lsp``: the language server for editors (``docs/editors.md``)."""

from __future__ import annotations

import typer


def lsp() -> None:
    """Run the language server over standard input and output (for editors: diagnostics
    as you type, completion of keys and names, hovers that describe cards)."""
    try:
        from wonders.lsp.server import main
    except ImportError as exc:  # pygls is an optional extra
        from wonders.extras import install_command

        typer.echo(f"wonders lsp needs the 'lsp' extra ({exc.name} is missing): "
                   f"{install_command('lsp')}", err=True)
        raise typer.Exit(2) from None
    main()


def register(app: typer.Typer) -> None:
    app.command()(lsp)
