"""Start-up: each ``wonders`` command imports what it needs when it needs it.

Each command runs in a new interpreter, as a user starts it, and reports the modules
loaded when it ends; a heavy library (or a part of this package) that the command does
not use must not be among them.  The times are measured by ``benchmarks/startup.py``
(``docs/performance.md``, "Start-up"); a test cannot time a shared machine reliably,
but it can keep out the imports that made ``wonders --help`` take a second.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from wonders import cli, extras
from wonders.cli import COMMANDS, app

# Run the command line, then print the names of the loaded modules as the last line.
DRIVER = """
import atexit, json, sys
atexit.register(lambda: print(json.dumps(sorted(sys.modules))))
from wonders.cli import main
main(sys.argv[1:])
"""

# libraries that only some commands use (the optional extras and the heavy dependencies)
HEAVY = ("networkx", "jsonschema", "pydot", "starlette", "uvicorn", "websockets", "httpx",
         "ray", "numpy", "matplotlib", "pettingzoo", "gymnasium", "playwright")


def modules_of(*args: str, stdin: str = "", env: dict[str, str] | None = None) -> set[str]:
    """The modules loaded by ``wonders ARGS`` run in a new interpreter."""
    done = subprocess.run([sys.executable, "-c", DRIVER, *args], input=stdin,
                          capture_output=True, text=True, timeout=120,
                          env=None if env is None else {**os.environ, **env})
    assert done.returncode in (0, 1), done.stderr
    loaded = json.loads(done.stdout.splitlines()[-1])
    assert "wonders.cli" in loaded
    return set(loaded)


def tops(modules: set[str]) -> set[str]:
    return {name.split(".")[0] for name in modules}


def under(modules: set[str], package: str) -> set[str]:
    return {m for m in modules if m == package or m.startswith(package + ".")}


def test_help_imports_typer_and_no_command() -> None:
    """``wonders --help`` lists the commands without importing one: no part of the
    engine, the language, the bots or the web table, and no library but Typer's."""
    loaded = modules_of("--help")
    assert not tops(loaded) & {*HEAVY, "lark", "yaml", "pydantic"}
    for package in ("wonders.engine", "wonders.dsl", "wonders.bots", "wonders.serve",
                    "wonders.scenarios", "wonders.env", "wonders.simulate"):
        assert not under(loaded, package), package
    assert under(loaded, "wonders.cli") == {"wonders.cli"}


def test_play_imports_the_engine_not_the_extras() -> None:
    """``wonders play`` loads the data (the language stack) and plays, but does not import
    the web table, the environment, simulations, scenarios or the JSON Schema validator
    (valid data passes the quick check without it)."""
    loaded = modules_of("play", "--players", "4")
    assert under(loaded, "wonders.engine") and under(loaded, "wonders.dsl.loader")
    # not even networkx: the loader's chain checks run on plain dictionaries
    assert not tops(loaded) & set(HEAVY), tops(loaded) & set(HEAVY)
    for package in ("wonders.serve", "wonders.env", "wonders.simulate", "wonders.scenarios",
                    "wonders.cli.data_commands", "wonders.cli.simulate_command"):
        assert not under(loaded, package), package


def test_play_with_a_warm_cache_imports_neither_pydantic_nor_lark(tmp_path: Path) -> None:
    """The second ``wonders play`` reads its effects from the syntax cache (no Lark, no
    parser to build) and its options without Typer's Pydantic adapters; a bad option
    value still gets Typer's own message (which Pydantic writes)."""
    env = {"WONDERS_CACHE_DIR": str(tmp_path)}
    modules_of("play", "--players", "4", env=env)  # writes the cache
    loaded = modules_of("play", "--players", "4", "--seed", "2", "--game", "base", env=env)
    assert not tops(loaded) & {"pydantic", "pydantic_core", "lark"}, tops(loaded)
    result = CliRunner().invoke(app, ["play", "--players", "four"])
    assert result.exit_code == 2
    assert "Input should be a valid integer" in result.output


# values an option may be given: plain ones (read without Pydantic) and every other kind
SAMPLES = ["4", "0", "-3", "12345678901234567890", "007", "+4", " 4", "4.0", "4_0", "x", "",
           "-", "-0", "text", "json", "TEXT", "Json", "png", "svg", "cards", "base", "A", "é",
           "１２", "1e3", "true", "/", "no/such/file", "."]


def test_quick_checks_read_every_value_as_typer_does() -> None:
    """For every parameter of every command, each sample value (and the parameter's
    default) reads to the same value, or fails with the same message, through the quick
    check as through Typer's own (Pydantic) one."""
    from typer._click.exceptions import BadParameter
    from typer._coercion import build_runtime_param

    group = typer.main.get_command(app)
    checked = 0
    for name in COMMANDS:
        with group.make_context("wonders", [name], resilient_parsing=True) as ctx:
            command = group.get_command(ctx, name)  # type: ignore[attr-defined]
            for param in [*command.params, command.get_help_option(ctx)]:
                quick = param.get_runtime_param()
                assert isinstance(quick, cli.QuickCoercion), (name, param.name)
                own = build_runtime_param(param.type_descriptor)
                values = [None, param.default, *SAMPLES]
                if param.multiple or param.nargs != 1:
                    values = [None, ["4"], ("a", "b"), ["x", "y"]]
                for value in values:
                    outcomes = []
                    for check in (quick, own):
                        try:
                            outcomes.append(("value", repr(check.coerce(value, param, ctx))))
                        except BadParameter as exc:
                            outcomes.append(("error", exc.format_message()))
                    assert outcomes[0] == outcomes[1], (name, param.name, value)
                    checked += 1
    assert checked > 1000


def test_play_human_imports_only_its_loop_terminal() -> None:
    loaded = modules_of("play", "--human", "--seed", "1", stdin="quit\ny\n")
    assert "wonders.cli.human" in loaded
    assert not tops(loaded) & set(HEAVY)
    assert not under(loaded, "wonders.cli.dice_human")


@pytest.mark.parametrize("args, allowed", [
    (["games"], set()),
    (["validate", "--game", "base"], set()),
    (["schema", "cards"], set()),
    (["graph", "--game", "base"], {"networkx"}),  # the graph it prints is networkx's
    (["simulate", "--games", "2", "--workers", "1"], set()),
    (["serve", "--help"], set()),
])
def test_commands_import_no_extra_they_do_not_use(args: list[str], allowed: set[str]) -> None:
    """Data commands, simulations without --ray/--plot and ``serve --help`` import no
    optional extra (no web server, no Ray, no matplotlib, no PettingZoo) and no library
    they do not call (pydot only for a PNG or DOT graph)."""
    loaded = modules_of(*args)
    assert tops(loaded) & set(HEAVY) <= allowed, args


def test_the_listing_is_the_commands_own_help(capsys: pytest.CaptureFixture[str]) -> None:
    """``wonders --help`` lists each command with its own help (the first paragraph of its
    docstring) from :data:`COMMANDS`, so the listing cannot drift from the commands; and
    the listing once every command is loaded is the same text."""
    group = typer.main.get_command(app)
    assert isinstance(group, cli.LazyGroup)

    def listing() -> str:
        with group.make_context("wonders", [], resilient_parsing=True) as ctx:
            formatter = ctx.make_formatter()
            group.format_help(ctx, formatter)  # Rich prints it
        return capsys.readouterr().out + formatter.getvalue()

    lazy = listing()
    assert all(name in lazy for name in COMMANDS)
    for name, (module, text) in COMMANDS.items():
        command = group.get_command(None, name)  # type: ignore[arg-type]  # imports it
        assert command is not None and command.callback is not None, name
        assert command.callback.__module__ == module, name
        assert command.help is not None
        assert command.help.split("\n\n")[0].strip() == text, name
    assert listing() == lazy


def test_a_typo_still_gets_a_did_you_mean() -> None:
    result = CliRunner().invoke(app, ["plya"])
    assert result.exit_code == 2
    assert "Did you mean 'play'" in result.output


# --- the install hint of an optional extra ------------------------------------------------

BLOCKED = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("starlette", "uvicorn"):
            raise ImportError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, Block())
from wonders.cli import main
main(sys.argv[1:])
"""


@pytest.mark.parametrize("where", ["checkout", "elsewhere"])
def test_serve_without_the_extra_names_the_command_that_works_here(
        where: str, tmp_path: Path) -> None:
    """From a checkout, ``wonders serve`` without Starlette says to install the extra from
    that checkout, editable (``pip install 'wonders[serve]'`` would look for a published
    package); the path is ``.`` in the checkout's own folder."""
    root = Path(__file__).resolve().parent.parent
    if extras.checkout() != root:
        pytest.skip("the package is installed from a wheel, not imported from this checkout "
                    "(an editable install): the published form applies, tested below")
    done = subprocess.run([sys.executable, "-c", BLOCKED, "serve"], capture_output=True,
                          text=True, timeout=120, cwd=root if where == "checkout" else tmp_path)
    assert done.returncode == 2
    shown = "." if where == "checkout" else str(root)
    assert done.stderr == ("wonders: serve needs Starlette and uvicorn: "
                           f"pip install -e '{shown}[serve]'\n")


def test_an_installed_copy_names_the_published_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """Installed from a wheel (no checkout beside the package), pip adds an extra's
    requirements to the installed package: ``pip install 'wonders[serve]'``."""
    monkeypatch.setattr(extras, "checkout", lambda: None)
    assert extras.install_command("serve") == "pip install 'wonders[serve]'"
    assert extras.install_command("env") == "pip install 'wonders[env]'"
