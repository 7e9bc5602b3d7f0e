"""The ``wonders`` command line.

Exit codes, the same for every command: 0 ok, 1 invalid data or a failed
check, 2 a usage error (bad option, unknown game, missing file).  Bad input
never ends in a traceback; an unexpected internal error prints one line and
asks for a report (``--debug`` shows the traceback).
"""

from __future__ import annotations

import sys

import typer

from wonders.serve import command as serve_command
from wonders.cli import data_commands, lsp_command, play_commands, simulate_command

app = typer.Typer(
    name="wonders",
    help="A declarative rules engine for the 7 Wonders family: validate, inspect and play "
         "card sets written as data.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
data_commands.register(app)
play_commands.register(app)
simulate_command.register(app)
serve_command.register(app)
lsp_command.register(app)


def main(argv: list[str] | None = None) -> None:
    """Console entry point; turns every failure into an exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args
    if debug:
        args.remove("--debug")
    try:
        app(args=args, prog_name="wonders", standalone_mode=True)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        raise SystemExit(130) from None
    except Exception as exc:  # the last line of defence: never a traceback for users
        if debug:
            raise
        sys.stderr.write(f"wonders: internal error: {type(exc).__name__}: {exc}\n"
                         "This is a bug in wonders; please report it with the command you ran "
                         "(add --debug for the traceback).\n")
        raise SystemExit(3) from None
