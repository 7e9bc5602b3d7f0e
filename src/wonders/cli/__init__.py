"""The ``wonders`` command line.

Exit codes, the same for every command: 0 ok, 1 invalid data or a failed
check, 2 a usage error (bad option, unknown game, missing file).  Bad input
never ends in a traceback; an unexpected internal error prints one line and
asks for a report (``--debug`` shows the traceback).

Each command's module is imported when that command runs (or its own ``--help``
is asked for): ``wonders --help`` lists the commands from :data:`COMMANDS` alone,
so it costs Typer and nothing of the engine (``docs/performance.md``, "Start-up").
The common option values (none given, a string, a whole number, a choice) are checked
without Pydantic (:class:`QuickCoercion`); anything else goes to Typer's own check.
"""

from __future__ import annotations

import importlib
import re
import sys
from typing import Any

import typer
from typer.core import TyperGroup

# Each command: the module whose ``register(app)`` defines it, and the help line
# ``wonders --help`` shows (its docstring's first paragraph; tests/test_startup.py
# checks the two agree).  The order is the order of ``wonders --help``.
COMMANDS: dict[str, tuple[str, str]] = {
    "diff": ("wonders.cli.data_commands",
             "Show what rule set B changes against A: parameters, cards, wonder boards, tokens\n"
             "(e.g. 'wonders diff base examples/house-rules/rich-start.yaml')."),
    "validate": ("wonders.cli.data_commands",
                 "Check card sets, wonders and rule sets: every error, located as "
                 "file:line:col."),
    "schema": ("wonders.cli.data_commands",
               "Print the JSON Schema (draft-07) of a file kind, or write them all, for "
               "editors."),
    "graph": ("wonders.cli.data_commands",
              "Show the chain graph (free builds): as text, as Graphviz DOT, or as a PNG."),
    "render": ("wonders.cli.render_command",
               "Draw a card, wonder side, token or Dice sheet from its data, or a whole "
               "gallery."),
    "cards": ("wonders.cli.data_commands",
              "List the cards of a set: age, colour, copies per player count, cost, chains, "
              "effect."),
    "games": ("wonders.cli.data_commands", "List the shipped games and expansions."),
    "effects": ("wonders.cli.data_commands",
                "Print which effects, abilities and mechanisms each game loop and game runs "
                "(Markdown\ntables made from the catalogue 'wonders validate' checks against)."),
    "play": ("wonders.cli.play_commands",
             "Play one game with bots and print the score sheet; --human to play yourself."),
    "check": ("wonders.cli.play_commands",
              "Run rule scenarios and report every expectation that fails, located in its "
              "file."),
    "replay": ("wonders.cli.play_commands",
               "Replay a game log on the current data and engine; report the first "
               "divergence."),
    "position": ("wonders.cli.position_command",
                 "Print a logged game's position at any decision: one line that reads back "
                 "to the same state."),
    "simulate": ("wonders.cli.simulate_command",
                 "Play many games with bots: win rates by wonder, side, card and bot; score "
                 "categories."),
    "tune": ("wonders.cli.tune_command",
             "Search tunable numbers (a rule parameter, a card's points or cost) for values "
             "that\nmeet a target, by simulation."),
    "serve": ("wonders.serve.command",
              "Serve the online table: humans and bots playing together in the browser."),
    "lsp": ("wonders.cli.lsp_command",
            "Run the language server over standard input and output (for editors: diagnostics\n"
            "as you type, completion of keys and names, hovers that describe cards)."),
}


class LazyGroup(TyperGroup):
    """The command group: a command's module is imported the first time the command is
    looked up to run; listing the commands (``wonders --help``) uses :data:`COMMANDS`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._listing = False
        # placeholders carry name and help for the listing (and for "did you mean")
        for name, (_, text) in COMMANDS.items():
            self.commands.setdefault(name, typer.core.TyperCommand(name, help=text))
        self._loaded: set[str] = set()

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        QuickCoercion.install(self, ctx, own=True)  # the group's own option: --help
        return super().parse_args(ctx, args)

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        entry = COMMANDS.get(cmd_name)
        if entry is None or self._listing:
            return self.commands.get(cmd_name)
        if entry[0] not in self._loaded:
            self._load(entry[0])
        command = self.commands.get(cmd_name)
        if command is not None:
            QuickCoercion.install(command, ctx)
        return command

    def _load(self, module: str) -> None:
        """Import ``module`` and put the real commands it registers in place of the
        placeholders (Typer builds each from its function's signature)."""
        commands = typer.Typer(rich_markup_mode=self.rich_markup_mode)
        importlib.import_module(module).register(commands)
        # a group of one command would be that command: add a no-op callback
        commands.callback()(lambda: None)
        built = typer.main.get_group(commands)
        self.commands.update(built.commands)
        self._loaded.add(module)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False


# A whole number as Pydantic reads it to the same int (anything else goes to Pydantic).
_WHOLE = re.compile(r"-?[1-9][0-9]{0,17}|0")


class QuickCoercion:
    """A command parameter's value check, as Typer's own gives it, without Pydantic.

    Typer (0.29) checks each option's value with a Pydantic ``TypeAdapter`` that it
    builds when the command runs: importing Pydantic and building the adapters is about a
    tenth of a second of ``wonders play``.  The values met on nearly every run (an option
    not given, a string, a plain whole number such as ``4``, a valid choice) are read here
    exactly as that adapter reads them; any other value (``007``, ``x``, a wrong choice, a
    path, a list) is handed to Typer's own check, so its result and its error message are
    Typer's.  Installed on a parameter only where this Typer has that mechanism.
    """

    def __init__(self, param: Any) -> None:
        self.param = param
        descriptor = param.type_descriptor
        info = descriptor.parameter_info
        self.multiple = bool(param.multiple or param.nargs == -1)
        plain = not self.multiple and info.parser is None
        self.annotation = descriptor.annotation if plain else None
        self.whole = self.annotation is int and info.min is None and info.max is None \
            and not info.clamp
        self.choices = descriptor.choices if plain and descriptor.is_choice else None
        self.case_sensitive = bool(info.case_sensitive)
        self._typer: Any = None

    @classmethod
    def install(cls, command: Any, ctx: Any, own: bool = False) -> None:
        """Put a quick check in front of each parameter of ``command`` that Typer checks
        with a ``TypeAdapter`` of its own making, and of its --help: named as in ``ctx``,
        the command's own context (``own``) or its group's, which the command's inherits."""
        params = list(getattr(command, "params", ()))
        if ctx is not None and (own or "help_option_names" not in (command.context_settings
                                                                    or {})):
            params.append(command.get_help_option(ctx))
        for param in params:
            if getattr(param, "_runtime_param", "absent") is None and \
                    getattr(param, "type_descriptor", None) is not None and \
                    callable(getattr(param, "get_runtime_param", None)):
                param._runtime_param = cls(param)

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        """The checked value (Typer's ``RuntimeParam.coerce``)."""
        if value is None:  # not given and no default: as Typer's, before any adapter
            return () if self.multiple else None
        if self.annotation is str and type(value) is str:
            return value
        if self.whole and (type(value) is int or type(value) is str and _WHOLE.fullmatch(value)):
            return int(value)
        if self.choices is not None:
            from typer._param_types import coerce_cli_choice

            try:
                return coerce_cli_choice(value, choices=self.choices,
                                         case_sensitive=self.case_sensitive, ctx=ctx)
            except ValueError:
                pass  # Typer's adapter says what is wrong, in its words
        return self.typer().coerce(value, param, ctx)

    def typer(self) -> Any:
        """Typer's own check of this parameter (built, with Pydantic, when first needed)."""
        if self._typer is None:
            from typer._coercion import build_runtime_param

            self._typer = build_runtime_param(self.param.type_descriptor)
        return self._typer


app = typer.Typer(
    name="wonders",
    cls=LazyGroup,
    help="A declarative rules engine for the 7 Wonders family: validate, inspect and play "
         "card sets written as data.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


@app.callback()
def _group() -> None:
    """(The group's own options: none beyond --help.)"""


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
