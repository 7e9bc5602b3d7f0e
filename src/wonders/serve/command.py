"""``wonders serve``: the online table, from the command line."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from wonders.dsl.loader import shipped_games
from wonders.engine.sources import variant_expansions
from wonders.serve import FINISHED_KEEP_SECONDS


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (localhost by "
                             "default; 0.0.0.0 opens it to the network)."),
    port: int = typer.Option(8000, "--port", "-p", min=1, max=65535,
                             help="The TCP port to listen on."),
    data: Path = typer.Option(Path("wonders-tables"), "--data", help="Folder the database "
                              "(SQLite, wonders.db) is kept in, unless --database names "
                              "another; restarting restores the unfinished tables."),
    database: Optional[str] = typer.Option(
        None, "--database", metavar="URL", help="A database URL instead of the SQLite file "
        "in --data, e.g. postgresql+psycopg://user:password@host/wonders (accounts, "
        "tables, moves and ratings live there).", show_default=False),
    games: Optional[list[str]] = typer.Option(
        None, "--game", "-g", help="A game the page offers: a shipped game's name or a "
        "variant's rule-set file or folder (repeatable; default: every shipped game).",
        show_default=False),
    search_seconds: float = typer.Option(2.0, "--search-seconds", min=0.05, max=120.0,
                                         help="Time limit of the search bot per move."),
    workers: int = typer.Option(2, "--workers", min=1, max=64,
                                help="Threads the bots choose in."),
    request_timeout: float = typer.Option(
        10.0, "--request-timeout", min=0.5, max=600.0, metavar="SECONDS",
        help="A request's headers, then its body, must arrive within this; a connection "
        "that trickles them is closed."),
    insecure_cookies: bool = typer.Option(
        False, "--insecure-cookies", help="Send the session cookies without 'Secure', for a "
        "server reached over plain http from other machines (browsers send Secure cookies "
        "over https, and to localhost)."),
    keep_finished: float = typer.Option(
        FINISHED_KEEP_SECONDS, "--keep-finished", min=0.0, metavar="SECONDS",
        help="How long a finished game stays in memory (and in the lobby's list) after it "
        "ended or was last opened; its link still works later, loading it from --data."),
) -> None:
    """Serve the online table: humans and bots playing together in the browser."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        from wonders.extras import install_command

        sys.stderr.write("wonders: serve needs Starlette and uvicorn: "
                         f"{install_command('serve')}\n")
        raise typer.Exit(2) from None
    try:
        import alembic  # noqa: F401
        import argon2  # noqa: F401
        import sqlalchemy  # noqa: F401
    except ImportError:
        from wonders.extras import install_command

        sys.stderr.write("wonders: serve needs SQLAlchemy, Alembic and argon2-cffi (its "
                         "database and accounts): "
                         f"{install_command('serve')}\n")
        raise typer.Exit(2) from None
    from wonders.serve.tables import TableError, Tables, load_source

    if database is None and data.exists() and not data.is_dir():
        raise typer.BadParameter(f"{data} is not a folder", param_hint="--data")
    sources = []
    if games:   # the games asked for must all load
        try:
            sources = [load_source(g) for g in games]
        except TableError as exc:
            raise typer.BadParameter(str(exc), param_hint="--game") from None
    else:       # every shipped game and expansion that loads; one that does not is
        # reported, not fatal
        for name in [*shipped_games(), *variant_expansions()]:
            try:
                sources.append(load_source(name))
            except TableError as exc:
                sys.stderr.write(f"wonders: not offered: {exc}\n")
        if not sources:
            sys.stderr.write("wonders: no shipped game loads; nothing to serve\n")
            raise typer.Exit(1)
    from wonders.serve.store import StoreError

    try:
        tables = Tables(data, sources, search_seconds, finished_keep_seconds=keep_finished,
                        database=database)
    except OSError as exc:   # cannot create it, or cannot write in it (read-only, full)
        sys.stderr.write(f"wonders: cannot use {data}: {exc.strerror or exc} (the tables "
                         "are kept there: the folder must be writable)\n")
        raise typer.Exit(1) from None
    except StoreError as exc:   # a special file, an unreachable server, a bad URL
        sys.stderr.write(f"wonders: {exc}\n")
        raise typer.Exit(1) from None
    for problem in tables.restore_problems:
        sys.stderr.write(f"wonders: not restored: {problem}\n")
    where = tables.store.describe()
    sys.stdout.write(f"wonders: {tables.live} unfinished table(s) restored from {where} "
                     f"(finished games load when their link is opened); open "
                     f"http://{host}:{port}/\n")
    sys.stdout.flush()
    from wonders.serve.app import run

    run(tables, host, port, workers, request_timeout, secure_cookies=not insecure_cookies)


def register(app: typer.Typer) -> None:
    app.command()(serve)
