"""The public API: ``import wonders`` — one screen of names, loaded on first use.

The package's docstring example runs as written; every action type, the game
contract and the errors are reachable from the top; importing the package or the
engine does not pull in the data-language stack (YAML, Lark, jsonschema).
"""

from __future__ import annotations

import doctest
import importlib.metadata
import subprocess
import sys
import typing
from pathlib import Path

import pytest
import tomllib

import wonders
from wonders.dsl.loader import shipped_games
from wonders.engine import actions
from wonders.engine.contract import Decision, GameState
from wonders.engine.errors import IllegalActionError, RuleError

ROOT = Path(__file__).resolve().parent.parent
LANGUAGE_STACK = ("yaml", "lark", "jsonschema")


def _modules_after(code: str) -> list[str]:
    """The top-level modules of the language stack loaded by ``code`` in a fresh interpreter
    (run from a neutral folder, so the installed package is what is imported)."""
    probe = (f"{code}\nimport sys\nprint(sorted(m for m in sys.modules "
             f"if m.split('.')[0] in {LANGUAGE_STACK!r}))")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            cwd=Path(sys.prefix), timeout=120, check=True)
    return list(eval(result.stdout.strip()))  # a printed list of names


def test_the_docstring_example_runs() -> None:
    assert wonders.__doc__ is not None and len(wonders.__doc__.splitlines()) <= 30
    result = doctest.testmod(wonders, verbose=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 8
    assert result.failed == 0


def test_importing_the_engine_leaves_out_the_language_stack() -> None:
    assert _modules_after("import wonders.engine") == []
    assert _modules_after("import wonders, wonders.engine.registry, wonders.engine.contract") \
        == []
    # the probe sees the stack when it is loaded: the test can fail
    assert "yaml" in _modules_after("import wonders.dsl.loader")


def test_import_wonders_alone_loads_nothing_else() -> None:
    probe = ("import wonders, sys\n"
             "print(sorted(m for m in sys.modules if m.startswith('wonders')))")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            cwd=Path(sys.prefix), timeout=120, check=True)
    assert result.stdout.strip() == "['wonders']"


def test_the_version_is_the_package_metadata() -> None:
    assert wonders.__version__ == importlib.metadata.version("wonders")
    assert wonders.__version__[0].isdigit()


def test_every_public_name_resolves() -> None:
    for name in wonders.__all__:
        assert getattr(wonders, name) is not None, name
    assert set(wonders.__all__) <= set(dir(wonders))
    with pytest.raises(AttributeError, match="no attribute 'Nonesuch'"):
        wonders.Nonesuch


def test_every_action_type_is_exposed() -> None:
    kinds = typing.get_args(actions.Action)
    assert len(kinds) >= 10
    for kind in kinds:
        assert getattr(wonders, kind.__name__) is kind
    assert wonders.Action is actions.Action


def test_the_contract_and_the_errors_are_the_engine_s() -> None:
    assert wonders.GameState is GameState and wonders.Decision is Decision
    assert wonders.RuleError is RuleError and wonders.IllegalActionError is IllegalActionError
    assert issubclass(wonders.IllegalActionError, wonders.RuleError)
    for error in (wonders.RuleError, wonders.DataError, wonders.EffectSyntaxError,
                  wonders.SourceError):
        assert issubclass(error, wonders.WondersError)
    assert set(wonders.BOTS) >= {"random", "greedy"}
    assert wonders.make_bot("random", 1).name == "random"


@pytest.mark.parametrize("name", sorted(shipped_games()))
def test_new_game_by_name_path_or_data(name: str) -> None:
    folder = shipped_games()[name]
    by_name = wonders.new_game(name, seed=5)
    by_folder = wonders.new_game(str(folder), seed=5)
    by_rules_file = wonders.new_game(folder / "rules.yaml", seed=5)
    data = wonders.load_game(name)
    by_data = wonders.new_game(data, by_name.players, 5)
    for game in (by_name, by_folder, by_rules_file, by_data):
        assert isinstance(game, wonders.GameState)
        assert game.setup_record() == by_name.setup_record()
        assert game.decision() == by_name.decision()
    with pytest.raises(TypeError, match="paths"):
        wonders.new_game(data, paths=["x.yaml"])


def test_unknown_games_and_bad_data_raise_the_documented_errors(tmp_path: Path) -> None:
    with pytest.raises(wonders.SourceError, match="did you mean 'duel'"):
        wonders.new_game("duell")
    broken = tmp_path / "rules.yaml"
    broken.write_text("kind: rules\nname: Broken\nplayers: {min: 'three'}\n", encoding="utf-8")
    with pytest.raises(wonders.DataError) as caught:
        wonders.load_game(broken)
    assert caught.value.diagnostics
    with pytest.raises(wonders.RuleError, match="players"):
        wonders.new_game("base", players=9)


def test_the_source_folder_is_the_package_with_its_type_marker() -> None:
    """src/wonders/ is the import package as it is (a src layout: no links for the type
    checker, and a test run in the checkout imports the installed package, never the bare
    sources); only the shipped data is mapped into it."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["tool"]["setuptools"]["package-dir"] == {
        "": "src", "wonders.cards": "cards", "wonders.expansions": "expansions"}
    assert (ROOT / "src" / "wonders" / "py.typed").is_file()
    assert not (ROOT / "typecheck").exists() and not (ROOT / "api").exists()
    # the shipped data are packages too, so an editable install finds them under `wonders`
    for data in ("cards", "expansions"):
        assert (ROOT / data / "__init__.py").is_file()


def _first_python_block(path: Path, after: str = "") -> str:
    text = path.read_text(encoding="utf-8")
    start = text.index("```python\n", text.index(after) if after else 0) + len("```python\n")
    return text[start:text.index("```", start)]


@pytest.mark.parametrize(("doc", "after"), [("README.md", "## Python API"),
                                            ("docs/engine.md", "")])
def test_the_documented_first_examples_run(doc: str, after: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    code = _first_python_block(ROOT / doc, after)
    assert "import wonders\n" in code and len(code.splitlines()) <= 15
    exec(compile(code, doc, "exec"), {})
    printed = capsys.readouterr().out
    assert "'winners'" in printed
