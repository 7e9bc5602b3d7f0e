"""Every example in docs/ is checked against the code.

The convention (see the top of docs/language.md): examples live in fenced code
blocks whose info string says what they are.

``effect`` / ``cost`` / ``formula``
    one example per non-blank line; each must compile without a problem against
    the base game's vocabulary.
``rejected`` / ``rejected-cost``
    one bad effect (or cost) per line, ending in a comment ``# CODE …``; each must
    fail to compile with that code.
``yaml``
    a complete file; loaded alone (a card file brings in the shipped game its
    ``game:`` names) it must give no error and no warning.
``yaml excerpt=PATH``
    a piece of a shipped file: it must appear, line for line, in PATH.
``<any> file=PATH``
    a file written into the document's scratch folder, for the commands below it
    (it may be deliberately wrong); with ``append``, the block is added to the end
    of that file after a blank line, as the tutorial tells its reader to do.
``console``
    ``$ wonders …`` commands run in that scratch folder, each followed by the exact
    output it prints; a line ``…`` stands for any number of lines.  ``$ echo $?``
    prints the previous command's exit status.
``text``
    not an example (a folder tree, a diagram); nothing is checked.

Any other info string fails the test, so no example goes unchecked.  The scratch
folder is one per document: files written by earlier blocks stay for later ones.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterator

import pytest
import yaml
from typer.testing import CliRunner

from wonders.cli import app, render
from wonders.dsl.codes import CODES
from wonders.dsl.compiler import compile_cost, compile_effects, compile_formula
from wonders.dsl.effects import Timing
from wonders.dsl.effects_table import effects_table, marked, replace_marked, shipped
from wonders.dsl.loader import games_dir, load
from wonders.dsl.mechanisms import LOOPS
from wonders.dsl.vocabulary import Vocabulary

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
DOC_FILES = ("language.md", "errors.md", "tutorial.md", "new-game.md")
TUTORIAL = ROOT / "expansions" / "tutorial"
# Messages name shipped files by their full path when the command runs outside the
# install folder; the docs show them as seen from the repository (cards/base/…).
SHIPPED = str(Path(str(games_dir())).parent) + os.sep

KNOWN = {"effect", "cost", "formula", "rejected", "rejected-cost", "yaml", "console", "text"}

_FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.M | re.S)


@dataclass
class Block:
    doc: str
    line: int
    lang: str
    options: dict[str, str]
    text: str
    section: str = ""  # the heading the block is under

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"


def parse_blocks(doc: str, markdown: str) -> list[Block]:
    """The fenced blocks of a markdown text, with their line numbers and headings."""
    blocks = []
    for match in _FENCE.finditer(markdown):
        info = match.group(1).split()
        lang = info[0] if info else ""
        options = dict(item.split("=", 1) if "=" in item else (item, "") for item in info[1:])
        line = markdown.count("\n", 0, match.start()) + 1
        headings = re.findall(r"^#{1,6} (.*)$", markdown[:match.start()], re.M)
        blocks.append(Block(doc, line, lang, options, match.group(2),
                            headings[-1] if headings else ""))
    return blocks


def all_blocks() -> list[Block]:
    blocks: list[Block] = []
    for name in DOC_FILES:
        if (DOCS / name).is_file():  # a missing document fails test_docs_exist
            blocks.extend(parse_blocks(name, (DOCS / name).read_text(encoding="utf-8")))
    return blocks


def lines_of(block: Block) -> list[str]:
    return [line for line in block.text.splitlines() if line.strip()]


def base_vocabulary() -> Vocabulary:
    root = games_dir()
    assert root is not None
    data = yaml.safe_load((root / "base" / "rules.yaml").read_text(encoding="utf-8"))
    return Vocabulary.from_data(data["vocabulary"])


_COMPILERS = {"effect": compile_effects, "cost": compile_cost, "formula": compile_formula,
              "rejected": compile_effects, "rejected-cost": compile_cost}


# --- checkers (raise AssertionError on a wrong example) ---------------------------

def check_good(block: Block, vocabulary: Vocabulary) -> int:
    compile_ = _COMPILERS[block.lang]
    examples = lines_of(block)
    assert examples, f"{block.id}: empty {block.lang} block"
    for text in examples:
        _, problems = compile_(text, vocabulary)
        assert not problems, f"{block.id}: {text!r}: " + "; ".join(
            f"{p.code} {p.message}" for p in problems)
    return len(examples)


def check_rejected(block: Block, vocabulary: Vocabulary) -> int:
    compile_ = _COMPILERS[block.lang]
    examples = lines_of(block)
    assert examples, f"{block.id}: empty {block.lang} block"
    for text in examples:
        found = re.search(r"#\s*([A-Z][0-9]{3})\b", text)
        assert found, f"{block.id}: {text!r} does not end in a '# CODE' comment"
        _, problems = compile_(text, vocabulary)
        codes = [p.code for p in problems]
        assert found.group(1) in codes, (
            f"{block.id}: {text!r} should give {found.group(1)}, gives {codes or 'nothing'}")
    return len(examples)


def check_whole_file(block: Block, folder: Path) -> int:
    path = folder / "example.yaml"
    path.write_text(block.text, encoding="utf-8")
    result = load([path])
    assert not result.report.diagnostics, f"{block.id}: " + "; ".join(
        d.render() for d in result.report.sorted())
    return 1


def _plain(text: str) -> list[str]:
    return [line.rstrip() for line in text.strip("\n").splitlines()]


def check_excerpt(block: Block) -> int:
    target = ROOT / block.options["excerpt"]
    assert target.is_file(), f"{block.id}: no file {block.options['excerpt']}"
    wanted = "\n".join(_plain(block.text))
    whole = "\n".join(_plain(target.read_text(encoding="utf-8")))
    assert wanted in whole, f"{block.id}: this excerpt is not in {block.options['excerpt']}"
    return 1


def write_file(block: Block, folder: Path) -> None:
    path = folder / block.options["file"]
    path.parent.mkdir(parents=True, exist_ok=True)
    text = block.text
    if "pad" in block.options:  # make the file this many bytes long with comment lines
        size = int(block.options["pad"])
        filler = "# padding padding padding padding padding padding padding padding\n"
        text += filler * (size // len(filler) + 1)
    data = text.encode(block.options.get("encoding", "utf-8"))
    if "append" in block.options:  # the block is added at the end of the file
        data = path.read_bytes() + b"\n" + data
    path.write_bytes(data)


def _matches(expected: list[str], actual: list[str]) -> bool:
    """Line-by-line equality where an expected line '…' matches any number of lines."""
    if not expected:
        return not actual
    if expected[0] == "…":
        return any(_matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and _matches(expected[1:], actual[1:])


def commands(block: Block) -> Iterator[tuple[str, list[str]]]:
    command: str | None = None
    output: list[str] = []
    for line in block.text.splitlines():
        if line.startswith("$ "):
            if command is not None:
                yield command, output
            command, output = line[2:], []
        else:
            assert command is not None, f"{block.id}: output before the first '$ ' command"
            output.append(line.rstrip())
    assert command is not None, f"{block.id}: a console block without a '$ ' command"
    yield command, output


@dataclass
class Shell:
    folder: Path
    status: int = 0
    runner: CliRunner = field(default_factory=CliRunner)

    def run(self, command: str) -> list[str]:
        args = shlex.split(command)
        if args == ["echo", "$?"]:
            return [str(self.status)]
        assert args and args[0] == "wonders", f"only 'wonders' commands are run: {command}"
        render._lines.cache_clear()  # files are rewritten between examples
        result = self.runner.invoke(app, args[1:])
        self.status = result.exit_code
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            f"{command}: {result.exception!r}")
        return _plain(result.output.replace(SHIPPED, ""))


def check_console(block: Block, shell: Shell) -> int:
    for command, expected in commands(block):
        while expected and not expected[-1]:
            expected.pop()
        actual = shell.run(command)
        assert _matches(expected, actual), (
            f"{block.id}: '$ {command}' printed:\n" + "\n".join(actual)
            + "\n--- but the docs say:\n" + "\n".join(expected))
    return 1


# --- the tests ------------------------------------------------------------------

def test_docs_exist() -> None:
    for name in DOC_FILES:
        assert (DOCS / name).is_file(), name


@pytest.mark.parametrize("block", all_blocks(), ids=lambda b: b.id)
def test_block_kind_is_known(block: Block) -> None:
    assert block.lang in KNOWN or "file" in block.options, (
        f"{block.id}: a ```{block.lang} block is neither a checked example kind "
        f"({', '.join(sorted(KNOWN))}) nor a file=… block")


_EXPRESSION_BLOCKS = [b for b in all_blocks() if b.lang in _COMPILERS and "file" not in b.options]


@pytest.mark.parametrize("block", _EXPRESSION_BLOCKS, ids=lambda b: b.id)
def test_expression_examples(block: Block) -> None:
    vocabulary = base_vocabulary()
    if block.lang.startswith("rejected"):
        check_rejected(block, vocabulary)
    else:
        check_good(block, vocabulary)


_YAML_BLOCKS = [b for b in all_blocks() if b.lang == "yaml" and "file" not in b.options]


@pytest.mark.parametrize("block", _YAML_BLOCKS, ids=lambda b: b.id)
def test_yaml_examples(block: Block, tmp_path: Path) -> None:
    if "excerpt" in block.options:
        check_excerpt(block)
    else:
        check_whole_file(block, tmp_path)


@pytest.mark.parametrize("doc", DOC_FILES)
def test_console_examples(doc: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The commands of a document, in order, with the files its blocks write."""
    monkeypatch.chdir(tmp_path)
    shell = Shell(tmp_path)
    for block in parse_blocks(doc, (DOCS / doc).read_text(encoding="utf-8")):
        if "file" in block.options:
            write_file(block, tmp_path)
        elif block.lang == "console":
            check_console(block, shell)


def test_tutorial_builds_the_shipped_expansion(tmp_path: Path) -> None:
    """The last version of each expansion file the tutorial writes is the shipped file."""
    last: dict[str, Block] = {}
    for block in parse_blocks("tutorial.md", (DOCS / "tutorial.md").read_text(encoding="utf-8")):
        name = block.options.get("file", "")
        if name.startswith("expansions/tutorial/"):
            last[name] = block
    shipped = sorted(p.name for p in TUTORIAL.glob("*.yaml"))
    assert sorted(Path(n).name for n in last) == shipped
    for name, block in last.items():
        assert "append" not in block.options, f"{block.id}: show the whole final {name}"
        assert _plain(block.text) == _plain((ROOT / name).read_text(encoding="utf-8")), (
            f"{block.id}: the tutorial's final {name} differs from the shipped file")


def test_tutorial_expansion_validates() -> None:
    result = load([TUTORIAL])
    assert result.ok and not result.report.warnings, "\n".join(
        d.render() for d in result.report.sorted())
    assert result.game is not None
    assert "tutorial" in result.game.sets and "base" in result.game.sets
    for path in TUTORIAL.glob("*.yaml"):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        kind = yaml.safe_load(path.read_text(encoding="utf-8"))["kind"]
        schema = f"../../src/wonders/dsl/schemas/{kind}.schema.json"
        assert first == f"# yaml-language-server: $schema={schema}"


def _sections(markdown: str) -> dict[str, str]:
    """errors.md: the text under each heading that starts with a code."""
    parts = re.split(r"^#{2,4} ", markdown, flags=re.M)
    found = {}
    for part in parts[1:]:
        code = part.split()[0]
        if re.fullmatch(r"[A-Z][0-9]{3}", code):
            found[code] = part
    return found


# Codes no input can produce through the shipped schemas (S100 is the fallback for
# schema rules the shipped schemas do not use); errors.md says so instead of
# showing an example.
NO_EXAMPLE = {"S100"}


def test_every_code_is_documented_with_an_example() -> None:
    sections = _sections((DOCS / "errors.md").read_text(encoding="utf-8"))
    assert sorted(sections) == sorted(CODES), (
        f"missing: {sorted(set(CODES) - set(sections))}, "
        f"unknown: {sorted(set(sections) - set(CODES))}")
    for code, text in sections.items():
        if "<!-- no-example:" in text:
            assert code in NO_EXAMPLE, f"errors.md: {code} has no example"
            continue
        outputs = [out for b in parse_blocks("errors.md", "```" + text.split("```", 1)[-1])
                   if b.lang == "console" for _, out in commands(b)]
        printed = [line for out in outputs for line in out]
        assert any(re.search(rf": {code} ", line) for line in printed), (
            f"errors.md: the example of {code} does not show {code} in its output")


# --- the checks themselves can fail -------------------------------------------------

def _block(lang: str, text: str, **options: str) -> Block:
    return Block("test", 1, lang, options, text)


def test_checkers_catch_wrong_examples(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    vocabulary = base_vocabulary()
    with pytest.raises(AssertionError):
        check_good(_block("effect", "prodcue wood\n"), vocabulary)
    with pytest.raises(AssertionError):
        check_good(_block("cost", "2 stnoe\n"), vocabulary)
    with pytest.raises(AssertionError):
        check_rejected(_block("rejected", "points 3   # T401\n"), vocabulary)
    with pytest.raises(AssertionError):
        check_rejected(_block("rejected", "now: points 3   # N301\n"), vocabulary)
    with pytest.raises(AssertionError):
        check_whole_file(_block("yaml", "kind: cards\nset: x\ngame: base\ncards: []\nextra: 1\n"),
                         tmp_path)
    with pytest.raises(AssertionError):
        check_excerpt(_block("yaml", "  - name: Nowhere\n", excerpt="expansions/tutorial/cards.yaml"))
    monkeypatch.chdir(tmp_path)
    shell = Shell(tmp_path)
    with pytest.raises(AssertionError):
        check_console(_block("console", "$ wonders validate --game base\n"
                             "6 files checked: 0 errors, 0 warnings — invalid\n"), shell)
    with pytest.raises(AssertionError):
        check_console(_block("console", "$ ls\n"), shell)


def test_checkers_accept_right_examples(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    vocabulary = base_vocabulary()
    assert check_good(_block("effect", "produce wood\npoints 3\n"), vocabulary) == 2
    assert check_rejected(_block("rejected", "now: points 3   # T401\n"), vocabulary) == 1
    monkeypatch.chdir(tmp_path)
    assert check_console(_block("console", "$ wonders validate --game base\n…\n"
                                "$ echo $?\n0\n"), Shell(tmp_path)) == 1


def test_example_count() -> None:
    """Report how many examples the docs hold (and that there are plenty)."""
    blocks = all_blocks()
    expressions = sum(len(lines_of(b)) for b in blocks if b.lang in _COMPILERS
                      and "file" not in b.options)
    files = sum(1 for b in blocks if b.lang == "yaml" and "file" not in b.options)
    runs = sum(1 for b in blocks if b.lang == "console" for _ in commands(b))
    assert expressions >= 60 and files >= 4 and runs >= 40, (expressions, files, runs)


# --- docs/engine.md: its Python examples run ------------------------------------------

def test_engine_examples_run(capsys: pytest.CaptureFixture[str]) -> None:
    """Each ```python block of docs/engine.md runs, in order, in one namespace (the
    examples assert what they show)."""
    doc = (DOCS / "engine.md").read_text(encoding="utf-8")
    blocks = parse_blocks("engine.md", doc)
    assert {b.lang for b in blocks} <= {"python", "text"}, "a block kind nothing checks"
    python = [b for b in blocks if b.lang == "python"]
    assert len(python) >= 4
    namespace: dict[str, object] = {}
    for block in python:
        exec(compile(block.text, f"docs/engine.md:{block.line}", "exec"), namespace)
    assert "'winners'" in capsys.readouterr().out


# --- the generated tables of docs/language.md ----------------------------------------

REGENERATE = "python -m wonders.dsl.effects_table docs/language.md"


def test_effects_table_is_current() -> None:
    """docs/language.md holds exactly the tables the code makes (effects, abilities, slots
    × loops × shipped games)."""
    text = (DOCS / "language.md").read_text(encoding="utf-8")
    assert marked(text) == effects_table(), (
        "docs/language.md: the effects table between the effects-table markers is not what "
        f"the catalogue (wonders.dsl.mechanisms) says; regenerate it with: {REGENERATE}")


def test_effects_table_follows_the_catalogue(monkeypatch: pytest.MonkeyPatch) -> None:
    """Change the catalogue and the generated table changes, so the test above fails."""
    games = shipped()
    before = effects_table(games)
    draft = LOOPS["draft"]
    monkeypatch.setitem(LOOPS, "draft", replace(
        draft, effects=draft.effects | {("replay", Timing.NOW)},
        abilities=draft.abilities - {"free_build"}))
    after = effects_table(games)
    assert after != before
    # (the draft and structure loops' columns come first; later columns: other loops and games)
    assert "| `replay` | `now:` | runs | runs | " in after
    assert "| `replay` | `on …:` | M901: replay needs sequential turns | runs | " in after
    assert "| `free_build` | M902 | M902 | " in after
    text = (DOCS / "language.md").read_text(encoding="utf-8")
    assert marked(text) != after
    assert marked(replace_marked(text, after)) == after


def test_effects_table_markers() -> None:
    text = "before\n<!-- effects-table:start -->\nold\n<!-- effects-table:end -->\nafter\n"
    assert replace_marked(text, "new\n") == (
        "before\n<!-- effects-table:start -->\nnew\n<!-- effects-table:end -->\nafter\n")
    assert marked(text) == "old\n"
    with pytest.raises(ValueError):
        marked("no markers")
    with pytest.raises(ValueError):
        replace_marked("<!-- effects-table:end --> <!-- effects-table:start -->", "x")


# --- README.md: every command in it runs -------------------------------------------------
#
# The README's ```sh blocks are what a newcomer types in a clone.  Each block runs with bash
# (``set -e``: a failing command fails the test), in a scratch folder that links the clone's
# top-level entries (so ``expansions/tutorial`` and ``examples/…`` resolve, and a file the
# block writes lands in the scratch folder), with this interpreter's ``bin`` first on PATH
# (``wonders`` and ``python`` are the installed ones).  Three kinds of line are not run
# as they stand, and are checked instead:
#   ``pip install …``      its target is the clone (``.``) and each extra it names exists in
#                          pyproject.toml (the suite's environment is that install);
#   ``python -m pytest``   the suite itself: the set-up's test command must be .ci/run's;
#   ``wonders serve``      started on a free port, checked to serve the page, then stopped;
# and ``wonders play --human`` reads its answers from a script that leaves at the first
# prompt.  A ```text block is output, not a command.

README = ROOT / "README.md"
README_KINDS = {"sh", "python", "text"}


def readme_blocks() -> list[Block]:
    return parse_blocks("README.md", README.read_text(encoding="utf-8"))


def _extras() -> set[str]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return set(config["project"]["optional-dependencies"])


def check_pip(command: str) -> None:
    """``pip install [-e] TARGET``: the clone, with extras pyproject.toml defines."""
    words = shlex.split(command)
    assert words[:2] == ["pip", "install"], command
    targets = [w for w in words[2:] if w not in ("-e", "-v")]
    assert len(targets) == 1, command
    match = re.fullmatch(r"\.(?:\[([a-z,]+)\])?", targets[0])
    assert match, f"{command}: installs something other than this clone"
    for extra in (match.group(1) or "").split(","):
        assert not extra or extra in _extras(), f"{command}: no extra '{extra}'"


def ci_test_command() -> str:
    """The command .ci/run runs (its last line), without the quiet flag."""
    last = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    return last.replace("python -m pip install -q ", "pip install ")


def scratch(folder: Path) -> Path:
    """A folder holding links to the clone's top-level entries: a newcomer's clone whose
    new files do not land in the real one."""
    for entry in ROOT.iterdir():
        if not entry.name.startswith(".") and entry.name not in ("build", "dist"):
            (folder / entry.name).symlink_to(entry)
    return folder


def shell_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env["COLUMNS"] = "120"
    return env


def serve_and_check(command: str, folder: Path) -> None:
    """Start ``wonders serve`` (on a free port), fetch the page, stop it."""
    import urllib.request

    from ports import free_port

    port = free_port()
    words = shlex.split(command)
    server = subprocess.Popen([*words, "--port", str(port)], cwd=folder, env=shell_env(),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 90
        while True:
            assert server.poll() is None, f"{command} stopped: {server.communicate()[0]}"
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
                    assert page.status == 200 and b"<html" in page.read().lower()
                    break
            except OSError:
                assert time.monotonic() < deadline, f"{command}: no page after 90 s"
                time.sleep(0.5)
    finally:
        server.terminate()
        server.wait(timeout=30)


def readme_script(block: Block, folder: Path) -> str:
    """The block as a bash script, with the lines that are checked rather than run taken
    out (and checked)."""
    script = []
    for line in block.text.splitlines():
        parts = line.split(" && ") if not line.startswith((" ", "\t")) else [line]
        kept = []
        for part in parts:
            if part.startswith("pip install"):
                check_pip(part)
            elif part.startswith("python -m pytest"):
                assert block.section == "Set-up: two commands", f"{block.id}: {part}"
            elif part.startswith("wonders serve"):
                serve_and_check(part, folder)
            elif part.startswith("wonders play") and "--human" in part.split():
                kept.append(part + " <<< $'quit\\ny\\nquit\\ny'")
            else:
                kept.append(part)
        if kept:
            script.append(" && ".join(kept))
    return "\n".join(script)


def test_readme_block_kinds_are_known() -> None:
    for block in readme_blocks():
        assert block.lang in README_KINDS, f"{block.id}: a ```{block.lang} block nothing checks"


def test_readme_test_command_is_the_ci_command() -> None:
    """The set-up's second command is exactly what .ci/run runs."""
    setup = [b for b in readme_blocks() if b.section == "Set-up: two commands" and b.lang == "sh"]
    assert len(setup) == 2, "the set-up is two commands"
    main_job, tests = (b.text.strip() for b in setup)
    assert tests == ci_test_command(), (tests, ci_test_command())
    assert main_job.startswith("pip install . && wonders ")


@pytest.mark.parametrize("block", [b for b in readme_blocks() if b.lang == "sh"],
                         ids=lambda b: f"{b.id} {b.text.splitlines()[0][:40]}")
def test_readme_commands_run(block: Block, tmp_path: Path) -> None:
    folder = scratch(tmp_path)
    script = readme_script(block, folder)
    if "examples/agent_vs_bots.py" in script:
        pytest.importorskip("pettingzoo", reason="the env extra is not installed")
    if not script:
        return
    done = subprocess.run(["bash", "-e", "-c", script], cwd=folder, env=shell_env(),
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, (f"{block.id}:\n{script}\n--- exit {done.returncode}:\n"
                                  f"{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    assert "Traceback" not in done.stdout + done.stderr


def test_readme_shows_the_real_error_of_its_typo(tmp_path: Path) -> None:
    """The error the README shows for its card with ``grene`` is what ``validate`` prints."""
    blocks = readme_blocks()
    card = next(b for b in blocks if "cat > my-guild.yaml" in b.text)
    shown = next(b for b in blocks if b.lang == "text" and "N302" in b.text)
    yaml_text = card.text.split("<<'END'\n", 1)[1].split("\nEND\n", 1)[0] + "\n"
    (tmp_path / "my-guild.yaml").write_text(yaml_text.replace("green card", "grene card"),
                                            encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "wonders.cli", "validate", "my-guild.yaml"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    assert shown.text.strip() in done.stdout + done.stderr


if __name__ == "__main__":  # pragma: no cover - print the counts
    blocks = all_blocks()
    print(sum(len(lines_of(b)) for b in blocks if b.lang in _COMPILERS), "expressions,",
          sum(1 for b in blocks if b.lang == "yaml" and "file" not in b.options), "files,",
          sum(1 for b in blocks if b.lang == "console" for _ in commands(b)), "commands")
