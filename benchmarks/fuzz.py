"""A long fuzz campaign against every input the project reads (issue 16, item 2).

Why: ``tests/test_fuzz_*.py`` run a few hundred derandomized inputs so the normal
test run stays fast; they hold the families of issue 16 shut, but they cannot look
for new ones.  This script keeps generating hostile inputs for as long as it is
given, the way a careless or malicious user would, and says by family what it tried
and what broke: a traceback, an "internal error", an exit code outside {0, 1, 2},
an exception escaping an API that promises not to raise, a broken game invariant,
a hang.  It is the campaign issue 16 asks to run for 30 minutes before closing.

    python benchmarks/fuzz.py --minutes N [--seed S] [--families a,b,...] [--out FILE]
    python benchmarks/fuzz.py --seed S --case FAMILY:INDEX    # re-run one input, in the foreground

Families (cycled round-robin, an equal slice of time each):

* ``effects``: effect, cost and formula strings derived at random from the grammar
  (``wonders/dsl/effects.lark``, with the base or Duel vocabulary's names) or mutated from
  the shipped ones (characters deleted or inserted, huge and Unicode numbers, a
  piece repeated up to 4,000 times), compiled three ways against both vocabularies:
  every problem must carry a documented CODE and a span inside the text.  An effect
  or cost that compiles cleanly is sometimes put on a shipped card, wonder stage or
  token and played in a seeded random game ("valid data crashes the engine").
* ``files``: the shipped card, wonder, token and rule files of base and Duel, and
  half the time those of an expansion that is a rule set of its own (Leaders, Cities,
  Leaders + Cities: ``extends:`` one game or two, written to a folder of their own),
  mutated as trees (values replaced by hostile ones, keys renamed or dropped, list
  items copied up to 5,000 times) or as text (lines inserted, bytes that are not
  UTF-8, raw YAML such as 4,400-digit numbers, tags, anchors and deep nesting),
  loaded with ``wonders.dsl.loader.load`` (which promises never to raise): every
  diagnostic must carry a documented CODE and a file; a set that loads is played;
  some are also given to ``validate``, ``cards``, ``graph`` or ``play``.
* ``scenarios``: the rule scenarios of ``tests/scenarios/`` mutated the same way,
  run with ``wonders.scenarios.draft.check_file`` (never raises) and some with
  ``wonders check``.
* ``cli``: command lines of play, simulate, replay, validate, check, graph, cards,
  effects, schema and games with hostile values (the file-system root, FIFOs,
  symbolic-link loops, special files, unwritable outputs, huge, negative and
  Unicode numbers, unknown names), in-process through typer's ``CliRunner`` and,
  for a sample, as a real ``wonders`` subprocess.  Outputs are only ever written
  inside the campaign's temporary folder or to ``/dev/null`` and ``/dev/full``.
* ``logs``: real logs written by ``wonders play --log`` (base and Duel, several
  tables), mutated (records dropped, repeated, swapped, truncated; values replaced;
  bytes broken; deep nesting; the game or paths pointing at the root or a FIFO),
  given to ``wonders replay``.
* ``terminal``: random lines typed to ``wonders play --human`` (base and Duel):
  numbers in and out of range, names, commands, Unicode, control characters, huge
  numbers, with or without ``quit`` at the end.
* ``games``: seeded random games through the public contract
  (``wonders.engine.registry.new_game``, uniformly random legal actions) of base and
  Duel, and half the time of an expansion (base2e, Leaders, Cities, Leaders + Cities)
  or a test variant whose cards use constructs no shipped card uses
  (``tests/scenarios/variants/``: age-start triggers, ``gives``), with the
  invariants checked after every decision: the decision's seats are the ones with
  legal actions, ``sum(coins) == start_coins + bank_gave - bank_paid``, nobody in
  debt, the game ends, the score sheet's totals are the sums of its lines and its
  winners the best; sometimes a clone plays on like its original and the same seed
  gives the same game.

Each input runs in a worker process (forked, in its own process group, with a
4 GiB address-space limit so a runaway allocation is a ``MemoryError`` and not the
machine's memory).  The bound per input is CPU time of the worker and its children
(so a loaded machine or ``nice`` does not count), or a stall: no process of the
group runnable and no CPU used for as long as the bound (a FIFO that blocks).  On a
time-out the worker's Python stacks are dumped (``faulthandler``) to locate the
hang, the worker is killed, and the input is run once more in a fresh worker with
three times the bound: a time-out again is a ``time-out`` failure; an answer is
reported as ``slow`` (not counted as a failure, listed).  A worker that dies
without answering is a ``crash``.

Failure kinds: ``traceback`` (the text "Traceback" in a command's output),
``internal error`` (the CLI's last line of defence was reached: an exception
escaped a command), ``exit code`` (outside {0, 1, 2}), ``exception`` (escaped an
API that promises not to raise, or a game from valid data), ``time-out``,
``invariant``, ``crash``.  The first example of each distinct (family, kind,
exception type, location) is kept, the location being the innermost frame in the
project's own code; the summary table and the examples are printed at the end and
written to ``--out`` as JSON.  Errors of this script itself are reported apart
(``harness``), never as engine failures.

Determinism: input number i of a family is generated from
``random.Random(f"{seed}/{family}/{i}")`` alone, so a given seed always tries the
same inputs in the same order; how far down each family's sequence a run gets
depends on the time given and the machine's speed.  ``--case FAMILY:INDEX`` (with
the same ``--seed``) regenerates one input and runs it in the foreground with the
whole traceback.  What this script does not try: ``mcts`` bots and large
``simulate --games`` counts (legitimately long runs, not hangs), memory growth over
long runs, validation speed beyond the per-input bound.

The 30-minute run of issue 16 (2026-11-30, 22:25-22:55 UTC, on the shared 2-core
machine, while other work ran), on the tree of commit ddf85f4 (plus colleagues'
uncommitted edits to wonders/bots/greedy.py, game.py, runtime.py, structure_game.py;
modules imported once at the start, the workers forked from that)::

    nice -n 19 python benchmarks/fuzz.py --minutes 30 --seed 1 --out /tmp/fuzz30.json

    108401 inputs in 30.0 min (seed 1)
    family     inputs  passed  tb  int  exit  exc  time-out  inv  crash  slow  harness
    effects     46862   46862   0    0     0    0         0    0      0     0        0
    files        3443    3443   0    0     0    0         0    0      0     0        0
    scenarios    3774    3774   0    0     0    0         0    0      0     0        0
    cli          2455    2454   0    0     0    0         1    0      0     0        0
    logs         3908    3908   0    0     0    0         0    0      0     0        0
    terminal     1320    1320   0    0     0    0         0    0      0     0        0
    games       46639   46639   0    0     0    0         0    0      0     0        0
    total      108401  108400   0    0     0    0         1    0      0     0        0

(tb traceback, int internal error, exit exit code, exc exception, inv invariant.)

What the inputs reached: effects: 6,878 compiled cleanly against their vocabulary;
1,394 put on a card, wonder stage or token loaded valid and were played (65,356
decisions); files: 2,771 refused, 672 valid and played (29,713 decisions); 99 exit 0
and 389 exit 1 through validate/cards/graph/play; scenarios: 2,625 refused, 1,149
valid, 21,719 scenarios run; cli: exit 0 540, exit 1 285, exit 2 1,629, 223 as
subprocesses; logs: exit 0 175 (mutations that leave a replayable log), exit 1 3,733;
terminal: 1,177 exit 0 (99 games played to the end, 1,078 abandoned at the end of
the input), 143 exit 2; games: 46,639 random games, 2,132,093 decisions.

One failure: ``cli`` #2047, ``play --side Day --seed 123456 --log <a FIFO> -b random``,
a time-out (blocked; again with 3x the bound), in ``open_output``
(wonders/cli/options.py:108): ``open(path, "w")`` on a pipe nobody reads waits forever
(``graph -o`` and ``simulate --plot`` share the helper).  Fixed after the run found
it, by a colleague, in 31b14fc (a pipe is opened without waiting: exit 1, "no
process reads that pipe"); ``--seed 1 --case cli:2047`` passes there.  No
traceback, internal error, exit code, escaping exception, broken invariant or crash.

Two more 30-minute runs on 2026-12-01, on the shared machine while four other
engineers built and tested (load 5-10, so far fewer inputs):

* seed 2, tree 50e3789 (00:00-00:30 UTC): 20,919 inputs.  One failure: a scenario
  file whose ``game:`` was too long for a file name was looked up as a variant path
  and ended in X903 (``OSError: File name too long``); fixed in 75eb606 (L702 at
  ``game:``, test).  One harness error: an argument with a NUL byte cannot be passed
  to a subprocess (now run in-process).
* seed 3, tree 75923f9 (00:33-01:03 UTC, the Dice loop, variants, the web table and
  the agents' environment in): 65,009 inputs (effects 29,318, files 2,233, scenarios
  2,211 running 10,891 scenarios, cli 1,388, logs 2,176, terminal 751, games 26,932
  with 1,225,329 decisions).  No failure of any kind: no traceback, internal error,
  bad exit code, escaping exception, time-out, broken invariant or crash.
"""

from __future__ import annotations

import argparse
import copy
import datetime as dt
import faulthandler
import json
import multiprocessing
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import asdict, dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Callable, Final, Sequence

import yaml

ROOT = Path(__file__).resolve().parents[1]
FAMILIES = ("effects", "files", "scenarios", "cli", "logs", "terminal", "games")
KINDS = ("traceback", "internal error", "exit code", "exception", "time-out", "invariant",
         "crash")
# CPU seconds per input (worker and children).  A command or a load takes well under a
# second; these are far above that, and far below "minutes".
BOUNDS = {"effects": 5.0, "files": 15.0, "scenarios": 15.0, "cli": 30.0, "logs": 15.0,
          "terminal": 30.0, "games": 20.0}
SLICE = 3.0  # seconds of each family's turn in the round-robin
MEMORY_LIMIT = 4 << 30  # address space of a worker (and its subprocesses)
RESTART_EVERY = 500  # inputs per worker, so its caches do not grow without end
MAX_DECISIONS = 2000  # far above any real game (base at 7 players: about 70)
SUBPROCESS_SHARE = {"cli": 0.08, "logs": 0.05, "terminal": 0.05}

Case = dict[str, Any]


# --- outcomes ----------------------------------------------------------------------------

@dataclass
class Outcome:
    """What one input did: ``kind`` None when it passed."""

    kind: str | None = None
    exception: str = ""  # the exception's class, or what stands for it
    location: str = ""   # the innermost project frame, the invariant, the command
    detail: str = ""     # a short trace or message
    cpu: float = 0.0
    wall: float = 0.0
    notes: dict[str, int] = field(default_factory=dict)  # what the input reached


NOTES: Counter[str] = Counter()


def note(what: str, count: int = 1) -> None:
    """Count what an input reached (a game played, an exit code), for the summary."""
    NOTES[what] += count


class Found(Exception):
    """Raised inside a run to stop at the first failure of the input."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome.kind)
        self.outcome = outcome


_RUN = re.compile(r"(.)\1{29,}", re.DOTALL)
_REPEAT = re.compile(r"(.{2,24}?)\1{9,}", re.DOTALL)


def shorten(text: str, limit: int = 600) -> str:
    """Printable and short: long runs written as ⟨'x'×N⟩, then cut to ``limit``."""
    if len(text) > 200_000:
        text = text[:100_000] + text[-100_000:]
    text = _RUN.sub(lambda m: f"⟨{m.group(1)!r}×{len(m.group(0))}⟩", text)
    text = _REPEAT.sub(lambda m: f"⟨{m.group(1)!r}×{len(m.group(0)) // len(m.group(1))}⟩",
                       text)
    return text if len(text) <= limit else text[:limit - 20] + f"…(+{len(text) - limit + 20})"


def _project_frame(frames: Sequence[tuple[str, int, str]]) -> str:
    """The innermost frame in the project's code (not this script), else the innermost."""
    here = str(Path(__file__).resolve())
    for filename, line, name in reversed(frames):
        path = str(Path(filename).resolve()) if filename.startswith("/") else filename
        if path.startswith(str(ROOT)) and path != here and "/site-packages/" not in path:
            return f"{Path(path).relative_to(ROOT)}:{line} ({name})"
    if frames:
        filename, line, name = frames[-1]
        return f"{Path(filename).name}:{line} ({name})"
    return "?"


def where(exc: BaseException) -> str:
    return _project_frame([(f.filename, f.lineno or 0, f.name)
                           for f in traceback.extract_tb(exc.__traceback__)])


def short_trace(exc: BaseException, frames: int = 6) -> str:
    lines = traceback.format_exception(type(exc), exc, exc.__traceback__, limit=-frames)
    return shorten("".join(lines[-2 * frames - 1:]), 2000)


def escaped(exc: BaseException, stage: str) -> Outcome:
    return Outcome("exception", type(exc).__name__, where(exc),
                   f"{stage}: " + short_trace(exc))


def broken(invariant: str, detail: str) -> Found:
    return Found(Outcome("invariant", "", invariant, shorten(detail, 1000)))


def guarded(stage: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call project code: anything it raises is a failure of the input."""
    try:
        return fn(*args, **kwargs)
    except Found:
        raise
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # SystemExit, MemoryError, RecursionError included
        raise Found(escaped(exc, stage)) from None


# --- the context every generator and runner shares (built before the workers fork) -------

class Grammar:
    """Random derivations of the effect language, from the grammar file itself."""

    WORDS = {"CARDS": ("card", "cards"), "STAGES": ("stage", "stages"),
             "TOKENS": ("token", "tokens"), "COINS": ("coin", "coins"),
             "RESOURCES": ("resource", "resources"), "WONDER": ("wonder", "wonders")}

    def __init__(self) -> None:
        from lark import Lark

        from wonders.dsl.parser import START_RULES, grammar_text

        lark = Lark(grammar_text(), parser="lalr", start=list(START_RULES))
        self.rules: dict[str, list[tuple[tuple[str, bool], ...]]] = {}
        for rule in lark.rules:
            self.rules.setdefault(str(rule.origin.name), []).append(
                tuple((str(s.name), bool(s.is_term)) for s in rule.expansion))
        self.literals = {str(t.name): str(t.pattern.value) for t in lark.terminals
                         if t.pattern.type == "str"}
        self.height = self._heights()

    def _heights(self) -> dict[str, int]:
        """Per rule, the depth of its shortest derivation (to stop deep recursion)."""
        height = {name: 10 ** 9 for name in self.rules}
        changed = True
        while changed:
            changed = False
            for name, expansions in self.rules.items():
                for expansion in expansions:
                    value = 1 + max((height[s] for s, term in expansion if not term), default=0)
                    if value < height[name]:
                        height[name], changed = value, True
        return height

    # The kind of name a rule's NAMEs stand for (the innermost such rule decides), so a
    # derivation is often meaningful to the compiler and not only to the parser.
    CONTEXT = {"resource_choice": "resources", "science": "science", "trade": "resources",
               "place_list": "places", "ability": "abilities", "frequency": "periods",
               "take": "tokens", "cost_item": "resources", "atom": "variables",
               "trigger": "colours", "countable": "colours", "copy": "colours",
               "destroy": "colours", "discount_target": "colours"}

    def derive(self, rng: random.Random, start: str, names: Sequence[str],
               typed: dict[str, list[str]] | None = None) -> str:
        """A random sentence of ``start``; NAMEs from ``typed`` by context (90 %) or
        from ``names``."""
        limit = rng.randint(3, 12)
        out: list[str] = []

        def expand(rule: str, depth: int, context: str) -> None:
            context = self.CONTEXT.get(rule, context)
            expansions = self.rules[rule]
            if depth > limit:
                low = min(1 + max((self.height[s] for s, t in e if not t), default=0)
                          for e in expansions)
                expansions = [e for e in expansions
                              if 1 + max((self.height[s] for s, t in e if not t), default=0)
                              == low]
            for symbol, terminal in rng.choice(expansions):
                if not terminal:
                    expand(symbol, depth + 1, context)
                elif symbol == "NAME" and typed and typed.get(context) and rng.random() < 0.9:
                    out.append(rng.choice(typed[context]))
                else:
                    out.append(self.terminal(rng, symbol, names))

        expand(start, 0, "")
        glue = rng.choice([" ", " ", " ", "  ", "\t", " \n "])
        text = glue.join(out)
        if rng.random() < 0.05:
            text += " # " + rng.choice(names)
        return text

    def terminal(self, rng: random.Random, symbol: str, names: Sequence[str]) -> str:
        if symbol in self.literals:
            return self.literals[symbol]
        if symbol in self.WORDS:
            return rng.choice(self.WORDS[symbol])
        if symbol == "INT":
            return number(rng)
        if symbol == "NAME":
            roll = rng.random()
            if roll < 0.85:
                return rng.choice(names)
            if roll < 0.9:
                return rng.choice(sorted(set(self.literals.values()) - set("|,;:+-*/()")))
            return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz_0123456789")
                           for _ in range(rng.randint(1, 12))).lstrip("0123456789_") or "x"
        return symbol.lower()


def number(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.85:
        return str(rng.randint(0, 12))
    if roll < 0.93:
        return str(rng.randint(13, 999_999))
    return rng.choice(["0", "00", "007", "999999", "1000000", "4294967296",
                       "18446744073709551616", "9" * 4400, "9" * 4301, "1" + "0" * 20])


@dataclass
class Context:
    """Everything generated inputs are made from, loaded once."""

    vocabularies: dict[str, Any] = field(default_factory=dict)
    names: dict[str, list[str]] = field(default_factory=dict)   # vocabulary names per game
    typed: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # by kind of name
    things: dict[str, list[str]] = field(default_factory=dict)  # card, wonder, token names
    samples: dict[str, list[str]] = field(default_factory=dict)  # effect and cost strings
    files: dict[str, dict[str, str]] = field(default_factory=dict)  # game -> name -> text
    trees: dict[tuple[str, str], Any] = field(default_factory=dict)
    paths: dict[tuple[str, str], list[tuple[Any, ...]]] = field(default_factory=dict)
    slots: dict[tuple[str, str], list[tuple[str, tuple[Any, ...]]]] = field(
        default_factory=dict)  # (game, start rule) -> (file, path) where such a string lives
    scenarios: dict[str, str] = field(default_factory=dict)
    logs: list[tuple[str, str]] = field(default_factory=list)  # (game, text)
    data: dict[str, Any] = field(default_factory=dict)
    grammar: Grammar | None = None
    wonders_command: list[str] = field(default_factory=list)


CTX = Context()


def tree_paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix] if prefix else []
    if isinstance(data, dict):
        for key, value in data.items():
            found += tree_paths(value, prefix + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            found += tree_paths(value, prefix + (i,))
    return found


def get(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        data = data[part]
    return data


def build_context(families: Sequence[str]) -> None:
    """Load the shipped data, the grammar, the scenarios, and write the good logs."""
    from typer.testing import CliRunner

    from wonders.cli import app
    from wonders.dsl.loader import load_game, shipped_games
    from wonders.engine.sources import variant_expansions

    CTX.grammar = Grammar()
    games = {**shipped_games(), **variant_expansions()}
    for name in FILE_GAMES:
        data = game_data(name) if name in variant_expansions() else load_game(game=name)
        CTX.data[name] = data
        vocabulary = data.rules.vocabulary
        CTX.vocabularies[name] = vocabulary
        names = {*vocabulary.resources, *vocabulary.resource_categories, *vocabulary.colours,
                 *vocabulary.science, *vocabulary.tokens, *vocabulary.places,
                 *vocabulary.abilities, *vocabulary.periods, *vocabulary.variables,
                 *vocabulary.pools}
        CTX.names[name] = sorted(names)
        CTX.typed[name] = {
            "resources": sorted({*vocabulary.resources, *vocabulary.resource_categories}),
            "science": list(vocabulary.science), "places": list(vocabulary.places),
            "abilities": list(vocabulary.abilities), "periods": list(vocabulary.periods),
            "tokens": sorted({*vocabulary.tokens, *vocabulary.pools}),
            "variables": list(vocabulary.variables),
            "colours": sorted({*vocabulary.colours, *vocabulary.tokens})}
        CTX.things[name] = sorted({c.name for c in data.cards} | {w.name for w in data.wonders}
                                  | {t.name for t in data.tokens})
        CTX.files[name] = {p.name: p.read_text(encoding="utf-8")
                           for p in sorted(games[name].glob("*.yaml"))}
        samples: list[str] = []
        for file, text in CTX.files[name].items():
            tree = yaml.safe_load(text)
            CTX.trees[(name, file)] = tree
            CTX.paths[(name, file)] = tree_paths(tree)
            for path in CTX.paths[(name, file)]:
                value = get(tree, path)
                key = path[-1]
                if not isinstance(value, str):
                    continue
                if key in ("effect", "start"):
                    CTX.slots.setdefault((name, "effects"), []).append((file, path))
                    samples.append(value)
                elif key == "cost":
                    CTX.slots.setdefault((name, "cost"), []).append((file, path))
                    samples.append(value)
                elif file == "rules.yaml" and "players" in value:
                    CTX.slots.setdefault((name, "formula"), []).append((file, path))
                    samples.append(value)
        CTX.samples[name] = samples
    for scenario in sorted((ROOT / "tests" / "scenarios").glob("*.yaml")):
        CTX.scenarios[scenario.name] = scenario.read_text(encoding="utf-8")
    for name, text in CTX.scenarios.items():
        tree = yaml.safe_load(text)
        CTX.trees[("scenario", name)] = tree
        CTX.paths[("scenario", name)] = tree_paths(tree)
    if {"logs", "cli"} & set(families):
        runner = CliRunner()
        folder = Path(tempfile.mkdtemp(prefix="wonders-fuzz-logs-"))
        try:
            for i, args in enumerate([
                    ["--seed", "4"], ["--players", "7", "--seed", "11"],
                    ["--players", "5", "--side", "random",
                     "--bots", "greedy,random,random,greedy,random"],
                    ["--game", "duel", "--seed", "2"],
                    ["--game", "duel", "--seed", "9", "--bots", "greedy,random"]]):
                log = folder / f"{i}.jsonl"
                result = runner.invoke(app, ["play", *args, "--log", str(log)])
                if result.exit_code != 0:
                    raise RuntimeError(f"cannot write a good log: {args}: {result.output}")
                CTX.logs.append(("duel" if "duel" in args else "base",
                                 log.read_text(encoding="utf-8")))
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    found = shutil.which("wonders")
    CTX.wonders_command = [found] if found else [sys.executable, "-m", "wonders.cli"]


# --- text and tree mutations ---------------------------------------------------------------

INSERTS = ["²", "٣", "½", "Ⅻ", "\u200b", "\u00a0", "\x00", "\t", "\n", "9" * 4400, "9" * 7,
           "-1", "(", ")", "(" * 200, "|", ";", ":", ",", "+", "*", "/", "#", "per", "in",
           "from", "any", "once", "now:", "end:", "on cards:", "'", '"', "\\", "é", "𝟗",
           "ＰＲＯＤＵＣＥ", "\ufeff", "\r"]
REPEATED = [" | wood", "; points 1", " + 1", "(", "produce wood", ", wood", " 1 per card",
            "+", "players * "]


def mutate_text(rng: random.Random, text: str, names: Sequence[str]) -> tuple[str, list[str]]:
    """One to four edits of a string; returns the text and what was done, in words."""
    done: list[str] = []
    for _ in range(rng.randint(1, 4)):
        op = rng.choice(["delete", "insert", "insert", "name", "repeat", "swap", "case",
                         "truncate", "char"])
        at = rng.randint(0, len(text))
        if op == "delete" and text:
            size = rng.randint(1, 5)
            text = text[:at] + text[at + size:]
            done.append(f"delete {size} at {at}")
        elif op == "insert":
            piece = rng.choice(INSERTS)
            text = text[:at] + piece + text[at:]
            done.append(f"insert {shorten(piece, 30)!r} at {at}")
        elif op == "name":
            piece = " " + rng.choice(names) + " "
            text = text[:at] + piece + text[at:]
            done.append(f"insert {piece!r} at {at}")
        elif op == "repeat":
            times = rng.choice([2, 10, 100, 1000, 4000])
            if text and rng.random() < 0.6:
                start = rng.randint(0, len(text) - 1)
                piece = text[start:start + rng.randint(1, 20)]
                at = start + len(piece)
            else:
                piece = rng.choice(REPEATED)
            text = text[:at] + piece * times + text[at:]
            done.append(f"repeat {piece!r} ×{times}")
        elif op == "swap":
            words = text.split(" ")
            if len(words) > 1:
                i, j = rng.randrange(len(words)), rng.randrange(len(words))
                words[i], words[j] = words[j], words[i]
                text = " ".join(words)
                done.append(f"swap words {i} and {j}")
        elif op == "case" and text:
            end = rng.randint(at, len(text))
            text = text[:at] + text[at:end].upper() + text[end:]
            done.append(f"upper {at}:{end}")
        elif op == "truncate":
            text = text[:at]
            done.append(f"truncate at {at}")
        elif op == "char":
            piece = chr(rng.choice([rng.randint(0x20, 0x7e), rng.randint(0xa0, 0x3000),
                                    rng.randint(0x1f300, 0x1f6ff)]))
            text = text[:at] + piece + text[at:]
            done.append(f"insert {piece!r} at {at}")
    return text, done


# Raw YAML written in place of a value (after dumping): what yaml.safe_dump never writes.
RAW_YAML = ["9" * 4400, "-" + "9" * 4400, "²", ".nan", ".inf", "-.inf", "0x1F", "0o17",
            "1e400", "1_000", "12:30:00", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "yes",
            "off", "~", "!!binary SGVsbG8=", "!!set {a, b}", "!!str 3", "!!float 3",
            "!!python/object/apply:os.getpid []", "&a [1, 2]", "*nope", "[" * 3000 + "]" * 3000,
            "{a: 1, a: 2}", '"\\ud800"', '"\\x00"', "'", "@", "`", "[1, 2", "{", "!custom x",
            "&anchor 3", "? a", "- - - - x"]


class _Dumper(yaml.SafeDumper):
    """No anchors or aliases for repeated objects (the loader refuses them, rightly)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def replacement(rng: random.Random, game: str, raws: list[str]) -> Any:
    """A hostile value for a YAML tree; raw YAML is returned as a placeholder name."""
    roll = rng.random()
    if roll < 0.2:
        return rng.choice([-2, -1, 0, 1, 2, 3, 7, 8, 12, 999_999, 10 ** 6, 10 ** 7, 10 ** 9,
                           10 ** 18, 2 ** 63, 2 ** 64, 1.5, -0.0, 1e308, True, False, None])
    if roll < 0.35:
        raws.append(rng.choice(RAW_YAML))
        return f"RAWPLACEHOLDER{len(raws) - 1}X"
    if roll < 0.5:
        return rng.choice(["", "x", "-1", "²+", "3+", "0+", "8+", "9" * 4400 + "+", "free",
                           "5 coins, 394310778480787074 glass", "players + 2", "players / 0",
                           "players * 999999 * 999999", "0 - players", "players - 10",
                           "(" * 100 + "players" + ")" * 100, "1 coin", "copy red cards from left",
                           "é" * 100, "x" * 100_000])
    if roll < 0.65:
        return rng.choice(CTX.names[game] + CTX.things[game])
    if roll < 0.8:
        assert CTX.grammar is not None
        start = rng.choice(["effects", "effects", "cost", "formula"])
        text = CTX.grammar.derive(rng, start, CTX.names[game], CTX.typed[game])
        return mutate_text(rng, text, CTX.names[game])[0] if rng.random() < 0.3 else text
    deep: Any = "x"
    for _ in range(rng.choice([40, 64, 65, 200])):
        deep = [deep]
    return rng.choice([[], {}, [1, "x"], {"²": 1}, {"min": 3, "max": 10 ** 9}, deep,
                       ["wood"] * 10_000, list(range(300)), {"x": None},
                       [rng.choice(CTX.things[game])] * 50])


def mutate_tree(rng: random.Random, tree: Any, paths: list[tuple[Any, ...]], game: str,
                raws: list[str]) -> list[str]:
    """One to three edits of a YAML tree, in place; returns them in words."""
    done: list[str] = []
    for _ in range(rng.randint(1, 3)):
        if not paths:
            break
        path = rng.choice(paths)
        op = rng.choice(["set", "set", "set", "rename", "delete", "copy", "swap", "add", "wrap"])
        try:
            parent, last = get(tree, path[:-1]), path[-1]
            if op == "set":
                value = replacement(rng, game, raws)
                parent[last] = value
                done.append(f"set {path} = {shorten(repr(value), 80)}")
            elif op == "rename" and isinstance(parent, dict):
                new = replacement(rng, game, raws)
                key = new if isinstance(new, (str, int)) and not isinstance(new, bool) else "²"
                parent[key] = parent.pop(last)
                done.append(f"rename {path} to {shorten(repr(key), 60)}")
            elif op == "delete":
                del parent[last]
                done.append(f"delete {path}")
            elif op == "copy" and isinstance(parent, list):
                times = rng.choice([1, 10, 1000, 5000])
                parent[last + 1:last + 1] = [copy.deepcopy(parent[last]) for _ in range(times)]
                done.append(f"copy {path} ×{times}")
            elif op == "swap":
                other = rng.choice(paths)
                other_parent = get(tree, other[:-1])
                parent[last], other_parent[other[-1]] = other_parent[other[-1]], parent[last]
                done.append(f"swap {path} and {other}")
            elif op == "add" and isinstance(parent, dict):
                key = rng.choice(["extra", "kind", "game", "²", "players", "load", "to_move",
                                  "wonder", "cards", "x" * 200])
                parent[key] = replacement(rng, game, raws)
                done.append(f"add {path[:-1] + (key,)}")
            elif op == "wrap":
                value = parent[last]
                parent[last] = value[0] if isinstance(value, list) and value else [value]
                done.append(f"wrap/unwrap {path}")
        except (KeyError, IndexError, TypeError, RecursionError):
            continue  # an earlier edit removed or changed the place
    return done


RAW_LINES = ["\t", "- ", ": :", "&a x", "*a", "%YAML 1.1", "---", "...", "kind: cards",
             "? [a]: b", "\x85", "<<: *a", "  - {name: X, age: 9999999999}", "cards: !!str",
             "a: &a [x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]",
             "#" + "x" * 10_000, "'unclosed", "players: [" + "3+, " * 2000 + "]"]


def mutate_bytes(rng: random.Random, text: str) -> tuple[bytes, list[str]]:
    """One to three edits of a file's text; may leave bytes that are not UTF-8."""
    lines = text.split("\n")
    done: list[str] = []
    tail = b""
    head = b""
    for _ in range(rng.randint(1, 3)):
        op = rng.choice(["line", "line", "delete", "dup", "truncate", "bytes", "indent",
                         "block", "crlf", "bom"])
        at = rng.randrange(len(lines)) if lines else 0
        if op == "line":
            raw = rng.choice(RAW_LINES)
            indent = lines[at][:len(lines[at]) - len(lines[at].lstrip())] if lines else ""
            lines.insert(at, indent + raw)
            done.append(f"insert line {at}: {shorten(raw, 60)!r}")
        elif op == "delete" and lines:
            count = rng.randint(1, 4)
            del lines[at:at + count]
            done.append(f"delete lines {at}+{count}")
        elif op == "dup" and lines:
            lines.insert(at, lines[at])
            done.append(f"duplicate line {at}")
        elif op == "truncate":
            lines = lines[:at]
            if lines and rng.random() < 0.5:
                lines[-1] = lines[-1][:rng.randint(0, len(lines[-1]))]
            done.append(f"truncate at line {at}")
        elif op == "bytes":
            tail = rng.choice([b"\xff\xfe", b"\x00", b"\xc3", b"\xed\xa0\x80", b"\x80abc"])
            done.append(f"append bytes {tail!r}")
        elif op == "indent" and lines:
            lines[at] = rng.choice(["", " ", "  ", "\t", "   "]) + lines[at].lstrip() \
                if rng.random() < 0.5 else " " + lines[at]
            done.append(f"indent line {at}")
        elif op == "block" and lines:
            size, times = rng.randint(1, 12), rng.choice([2, 50, 2000])
            block = lines[at:at + size]
            lines[at + size:at + size] = block * times
            done.append(f"repeat lines {at}+{size} ×{times}")
        elif op == "crlf":
            lines = [line + "\r" for line in lines]
            done.append("CRLF line ends")
        elif op == "bom":
            head = b"\xef\xbb\xbf" if rng.random() < 0.5 else b"\xff\xfe"
            done.append(f"start with {head!r}")
    return head + "\n".join(lines).encode("utf-8", "surrogatepass") + tail, done


def plausible_edits(rng: random.Random, tree: Any, paths: list[tuple[Any, ...]],
                    game: str) -> list[str]:
    """Edits that keep a file well-formed and often valid (values swapped between two
    places of the same key, numbers nudged, list items repeated, a clean grammar effect):
    data that validates must then play."""
    assert CTX.grammar is not None
    done: list[str] = []
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(paths)
        op = rng.choice(["swap", "swap", "nudge", "repeat", "effect"])
        try:
            parent, last = get(tree, path[:-1]), path[-1]
            value = parent[last]
            if op == "swap":
                same = [p for p in paths if p[-1] == last and p != path] or paths
                other = rng.choice(same)
                other_parent = get(tree, other[:-1])
                parent[last], other_parent[other[-1]] = other_parent[other[-1]], value
                done.append(f"swap {path} and {other}")
            elif op == "nudge" and isinstance(value, int) and not isinstance(value, bool):
                parent[last] = max(0, value + rng.choice([-2, -1, 1, 2, 3, value]))
                done.append(f"nudge {path}: {value} -> {parent[last]}")
            elif op == "repeat" and isinstance(parent, list):
                parent.insert(last, copy.deepcopy(value))
                done.append(f"repeat {path}")
            elif op == "effect" and last in ("effect", "start", "cost"):
                start = "cost" if last == "cost" else "effects"
                parent[last] = CTX.grammar.derive(rng, start, CTX.names[game], CTX.typed[game])
                done.append(f"set {path} = {shorten(repr(parent[last]), 80)}")
        except (KeyError, IndexError, TypeError):
            continue
    return done


def mutated_document(rng: random.Random, key: tuple[str, str], text: str,
                     game: str) -> tuple[bytes, list[str]]:
    """A shipped YAML file, mutated as a tree (most often; sometimes plausibly) or as
    text."""
    roll = rng.random()
    if roll < 0.25:
        return mutate_bytes(rng, text)
    tree = copy.deepcopy(CTX.trees[key])
    raws: list[str] = []
    if roll < 0.5:
        done = plausible_edits(rng, tree, CTX.paths[key], game)
        dumped = yaml.dump(tree, Dumper=_Dumper, allow_unicode=True, sort_keys=False,
                           width=120)
        return dumped.encode("utf-8", "surrogatepass"), ["(plausible)"] + done
    done = mutate_tree(rng, tree, CTX.paths[key], game, raws)
    try:
        dumped = yaml.dump(tree, Dumper=_Dumper, allow_unicode=True, sort_keys=False,
                           width=120)
    except (ValueError, RecursionError, yaml.YAMLError) as exc:  # e.g. a list 200 deep
        done.append(f"(not dumpable: {type(exc).__name__}; original text)")
        dumped = text
    for i, raw in enumerate(raws):
        dumped = dumped.replace(f"RAWPLACEHOLDER{i}X", raw)
    if rng.random() < 0.2:
        data, more = mutate_bytes(rng, dumped)
        return data, done + more
    return dumped.encode("utf-8", "surrogatepass"), done


# --- running project code and checking what it says ------------------------------------------

def check_diagnostics(diagnostics: Sequence[Any], stage: str) -> None:
    from wonders.dsl.codes import CODES

    for diagnostic in diagnostics:
        if diagnostic.code not in CODES:
            raise broken("diagnostic has a documented CODE", f"{stage}: {diagnostic!r}")
        if not diagnostic.location.file:
            raise broken("diagnostic has a location", f"{stage}: {diagnostic!r}")


def run_command(args: list[str], input: str | None, in_subprocess: bool,
                cwd: Path) -> str:
    """One command line: exit 0, 1 or 2; no traceback, no internal error."""
    command = next((a for a in args if not a.startswith("-")), "(none)")
    if any("\x00" in a for a in args):
        in_subprocess = False  # no operating system passes a NUL byte in an argument
    if in_subprocess:
        proc = subprocess.run([*CTX.wonders_command, *args],
                              input=(input or "").encode("utf-8", "surrogateescape"),
                              capture_output=True, cwd=cwd, check=False)
        output = (proc.stdout + proc.stderr).decode("utf-8", "replace")
        code = proc.returncode
        exception: BaseException | None = None
    else:
        from typer.testing import CliRunner

        from wonders.cli import app

        result = CliRunner().invoke(app, args, input=input)
        output, code, exception = result.output, result.exit_code, result.exception
        if exception is not None and not isinstance(exception, SystemExit):
            raise Found(Outcome("internal error", type(exception).__name__, where(exception),
                                f"wonders {shorten(' '.join(args), 300)}: "
                                + short_trace(exception)))
    if "internal error" in output:
        named = re.search(r"internal error: (\w+)", output)
        raise Found(Outcome("internal error", named.group(1) if named else "?",
                            f"wonders {command} ({'subprocess' if in_subprocess else 'output'})",
                            shorten(output[-1500:], 1500)))
    if "Traceback (most recent call last)" in output:
        frames = re.findall(r'File "([^"]+)", line (\d+), in (\w+)', output)
        location = _project_frame([(f, int(n), name) for f, n, name in frames])
        last = output.strip().splitlines()[-1] if output.strip() else "?"
        raise Found(Outcome("traceback", last.split(":")[0][:60], location,
                            shorten(output[-1500:], 1500)))
    note(f"exit {code}")
    if in_subprocess:
        note("in a subprocess")
    if code not in (0, 1, 2):
        raise Found(Outcome("exit code", str(code), f"wonders {command}",
                            shorten(output[-1000:], 1000)))
    return output


def check_game(game: Any) -> None:
    """The contract's invariants at one point of a game."""
    decision = guarded("decision", game.decision)
    seats = tuple(decision.seats)
    if seats != tuple(guarded("to_move", game.to_move)) or bool(seats) == game.over:
        raise broken("decision shape", f"seats {seats}, to_move {game.to_move()}, "
                                       f"over {game.over}")
    for seat in range(game.players):
        legal = guarded("legal_actions", game.legal_actions, seat)
        if (seat in seats) != bool(legal):
            raise broken("exactly the deciding seats have legal actions",
                         f"seat {seat}, deciding {seats}, {len(legal)} actions, "
                         f"decision {decision.kind}")
    coins = [city.coins for city in game.cities]
    if sum(coins) != game.start_coins + game.bank_gave - game.bank_paid:
        raise broken("coins conserved", f"coins {coins}, start {game.start_coins}, bank gave "
                                        f"{game.bank_gave}, bank paid {game.bank_paid}")
    if min(coins) < 0:
        raise broken("nobody in debt", f"coins {coins}")


def check_sheet(game: Any) -> None:
    sheet = guarded("score_sheet", game.score_sheet)
    record = guarded("score_sheet.to_json", sheet.to_json)
    rows = record["players"]
    if len(rows) != game.players:
        raise broken("score sheet has a row per seat", repr(record)[:500])
    for _seat, row in enumerate(rows):
        if row["total"] != sum(row["lines"].values()):
            raise broken("score sheet totals are sums of lines", repr(row))
    winners = record["winners"]
    if not winners:
        raise broken("a game has winners", repr(record)[:500])
    if sheet.decided is None and max(sheet.totals) != sheet.total(winners[0]):
        raise broken("the winners have the most points", repr(record)[:500])


def play_game(data: Any, players: int, seed: int, rng_seed: int,
              options: dict[str, Any] | None = None, clone_at: int | None = None,
              same_seed: bool = False, allow: tuple[type[BaseException], ...] = ()) -> None:
    """A game of random legal actions with every invariant checked after each decision."""
    from wonders.engine.registry import new_game

    try:
        game = new_game(data, players, seed, **(options or {}))
    except allow:
        return
    except BaseException as exc:
        raise Found(escaped(exc, f"new_game(players={players}, seed={seed}, {options})")) \
            from None
    rng = random.Random(rng_seed)
    clone = None
    after: list[dict[int, Any]] = []
    for step in range(MAX_DECISIONS):
        check_game(game)
        if game.over:
            break
        seats = game.decision().seats
        moves = {seat: rng.choice(game.legal_actions(seat)) for seat in seats}
        if step == clone_at:
            clone = guarded("clone", game.clone)
        if clone is not None:
            after.append(moves)
        guarded(f"play at decision {step} ({game.decision().kind})", game.play, moves)
    else:
        raise broken("the game ends", f"no end after {MAX_DECISIONS} decisions")
    check_sheet(game)
    note("games played")
    note("decisions", len(game.history))
    if clone is not None:
        for moves in after:
            guarded("play on a clone", clone.play, moves)
        if clone.history != game.history or \
                clone.score_sheet().to_json() != game.score_sheet().to_json():
            raise broken("a clone plays on like its original", f"clone at decision {clone_at}")
    if same_seed:
        again = guarded("new_game (same seed)", new_game, data, players, seed,
                        **(options or {}))
        rng = random.Random(rng_seed)
        while not again.over:
            guarded("play (same seed)", again.play,
                    {s: rng.choice(again.legal_actions(s)) for s in again.decision().seats})
        if again.history != game.history:
            raise broken("same seed, same game", f"seed {seed}")


def write_game_folder(folder: Path, game: str, replace: dict[str, bytes]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in CTX.files[game].items():
        (folder / name).write_bytes(replace.get(name, text.encode("utf-8")))


def load_checked(paths: list[Path], stage: str) -> Any:
    from wonders.dsl.loader import load

    result = guarded(stage, load, paths)
    check_diagnostics(result.report.sorted(), stage)
    return result


# --- the families: generate (deterministic from the seed) and run ---------------------------

def gen_effects(rng: random.Random) -> Case:
    assert CTX.grammar is not None
    game = rng.choice(["base", "duel"])
    start = rng.choices(["effects", "cost", "formula"], [6, 2, 2])[0]
    names = CTX.names[game]
    done: list[str] = []
    if rng.random() < 0.5:
        text = CTX.grammar.derive(rng, start, names, CTX.typed[game])
        origin = "grammar"
        if rng.random() < 0.3:
            text, done = mutate_text(rng, text, names)
            origin = "grammar, mutated"
    else:
        text = rng.choice(CTX.samples[game]) if rng.random() < 0.7 else \
            CTX.grammar.derive(rng, start, names, CTX.typed[game])
        text, done = mutate_text(rng, text, names)
        origin = "mutated"
    play = None
    slots = CTX.slots.get((game, start))
    if slots and rng.random() < 0.3:
        file, path = rng.choice(slots)
        rules = CTX.data[game].rules
        play = {"file": file, "path": list(path), "seed": rng.randrange(10 ** 6),
                "players": rng.randint(rules.min_players, rules.max_players)}
    return {"text": text, "game": game, "start": start, "origin": origin, "edits": done,
            "play": play}


def run_effects(case: Case, work: Path) -> None:
    from wonders.dsl.codes import CODES
    from wonders.dsl.compiler import compile_cost, compile_effects, compile_formula

    text = case["text"]
    clean = False
    for game, vocabulary in CTX.vocabularies.items():
        for name, compile_ in (("effects", compile_effects), ("cost", compile_cost),
                               ("formula", compile_formula)):
            _, problems = guarded(f"compile_{name} ({game})", compile_, text, vocabulary)
            for problem in problems:
                if problem.code not in CODES:
                    raise broken("problem has a documented CODE", repr(problem))
                if not 0 <= problem.start <= max(len(text), 1) or problem.end < problem.start:
                    raise broken("problem span inside the text",
                                 f"{problem!r} in a text of {len(text)}")
            if game == case["game"] and name == case["start"] and not problems:
                clean = True
    play = case["play"]
    if clean:
        note("compiled cleanly")
    if play is None or not clean:
        return
    game = case["game"]
    file, path = play["file"], tuple(play["path"])
    tree = copy.deepcopy(CTX.trees[(game, file)])
    get(tree, path[:-1])[path[-1]] = text
    dumped = yaml.dump(tree, Dumper=_Dumper, allow_unicode=True, sort_keys=False)
    folder = work / game
    write_game_folder(folder, game, {file: dumped.encode("utf-8", "surrogatepass")})
    result = load_checked([folder], f"load with {file} {path} = the text")
    note("put on a card" if result.game is None else "put on a card, valid")
    if result.game is not None:
        play_game(result.game, play["players"], play["seed"], play["seed"])


def gen_files(rng: random.Random) -> Case:
    # half the time an expansion's own files (a rule set that ``extends:`` one game, or
    # two: Leaders + Cities), written to a folder of their own and loaded from there
    game = rng.choice(["base", "duel"]) if rng.random() < 0.5 else rng.choice(FILE_GAMES[2:])
    file = rng.choice(sorted(CTX.files[game]))
    data, done = mutated_document(rng, (game, file), CTX.files[game][file], game)
    rules = CTX.data[game].rules
    command = None
    if rng.random() < 0.15:
        command = rng.choice([["validate", "@"], ["cards", "@"], ["graph", "@"],
                              ["play", "--game", "@", "--seed", str(rng.randrange(100))],
                              ["cards", "--wonders", "@"], ["validate", "--format", "json", "@"]])
    return {"game": game, "file": file, "data": data, "edits": done,
            "players": rng.randint(rules.min_players, rules.max_players),
            "seed": rng.randrange(10 ** 6), "command": command}


def run_files(case: Case, work: Path) -> None:
    folder = work / case["game"]
    write_game_folder(folder, case["game"], {case["file"]: case["data"]})
    result = load_checked([folder], f"load (mutated {case['file']})")
    note("refused" if result.game is None else "valid")
    if result.game is not None:
        play_game(result.game, case["players"], case["seed"], case["seed"])
    if case["command"]:
        run_command([str(folder) if a == "@" else a for a in case["command"]], None, False,
                    work)


def gen_scenarios(rng: random.Random) -> Case:
    name = rng.choice(sorted(CTX.scenarios))
    game = CTX.trees[("scenario", name)].get("game", "base")
    data, done = mutated_document(rng, ("scenario", name), CTX.scenarios[name],
                                  game if game in CTX.names else "base")
    return {"file": name, "data": data, "edits": done, "command": rng.random() < 0.3}


def run_scenarios(case: Case, work: Path) -> None:
    from wonders.scenarios.draft import check_file

    path = work / case["file"]
    path.write_bytes(case["data"])
    result = guarded("check_file", check_file, path)
    check_diagnostics(result.report.sorted(), "check_file")
    note("refused" if not result.report.ok else "valid")
    note("scenarios run", len(result.outcomes))
    if case["command"]:
        run_command(["check", str(path)], None, False, work)


# Values for command lines.  '@name' is a file of the place made for each input; every
# value given to an option that writes (--log, --output, --plot) is inside that place,
# relative to it, or /dev/null and /dev/full: the campaign runs as whatever user starts it.
PLACE_KEYS = ["root", "game", "clean", "duel", "pipe", "loop", "fifo", "selfloop", "log",
              "duellog", "empty", "binary", "big", "scen", "dir", "missing", "out"]
READ = ["@" + k for k in PLACE_KEYS] + [
    "@clean/rules.yaml", "@clean/age1.yaml", "@duel/rules.yaml", "/", ".", "..", "/dev/null",
    "/dev/zero", "/dev/full", "/dev/urandom", "/etc/passwd", "/proc/self/status", "base",
    "duel", "bsae", "", "-", "x", "@missing/.."]
WRITE = ["@out", "@missing", "@root", "@fifo", "@game", "@dir", "@selfloop", "@log", "@pipe",
         "@clean/new.txt", "/dev/full", "/dev/null", "", ".", "..", "/", "out.jsonl",
         "x/y/z.jsonl", "é" * 50, "a\x00b", "a" * 300, "-", "--", "out.png", "out.dot"]
NUMBERS = ["-1", "0", "1", "2", "3", "4", "5", "6", "7", "8", "--5", "-0", "9" * 5000,
           "1" + "0" * 30, "²", "٣", "1.5", "x", "", "+3", " 3", "0x10", "2147483648",
           "18446744073709551616", "1e3", "nan"]
TEXT = NUMBERS + ["A", "B", "Q", "A,B", "random", "choose", "greedy", "base", "duel", "\x00",
                  "é" * 50, "%s", "{}", "$HOME", "--help", "-h", "--json", "\n", " ", "a" * 300,
                  "red", "purple", "(", "\\", ".*", "Altar"]
SIDES = ["A", "B", "Day", "Night", "day", "random", "choose", "Q", "A,B", "A,B,random,choose,A,B,A",
         "A,B,A,B,A,B,A,B", "", ",", "A,,B", "random,Q"]
BOTS = ["random", "greedy", "random,greedy", "greedy,random,greedy,random,greedy,random,greedy",
        "random," * 8, "mc", "RANDOM", "", ",", ",".join(["random"] * 8)]
GAMES = ["base", "duel", "bsae", "Base", "tutorial", ""] + READ
FORMATS = ["text", "dot", "png", "json", "yaml", "TEXT", ""]
SIM_GAMES = ["1", "2", "0", "-3", "x", "9" * 5000, "²", "1.5"]
WORKERS = ["1", "2", "0", "-1", "x", "9" * 5000, "²"]
FLAG = None
GOOD = {  # values that work, so a command line gets past the usage check more often
    "--game": ["base", "duel", "@clean", "@duel", "@clean/rules.yaml"],
    "--players": ["2", "3", "4", "5", "6", "7"], "--seed": ["0", "1", "7", "123456"],
    "--side": ["A", "B", "random", "choose", "Day", "Night"], "--bots": ["random", "greedy"],
    "--log": ["@out", "out.jsonl"], "--seat": ["0", "1", "2"], "--top": ["1", "5"],
    "--plot": ["out.png"], "--format": ["text", "dot", "json"], "--output": ["out.dot"],
    "--age": ["1", "2", "3"], "--colour": ["red", "blue", "purple"],
    "--search": ["coin", "produce"], "--set": ["base", "duel"]}
GOOD.update({"-g": GOOD["--game"], "-n": GOOD["--players"], "-s": GOOD["--seed"],
             "-b": GOOD["--bots"], "-f": GOOD["--format"], "-o": GOOD["--output"]})
OPTIONS: dict[str, dict[str, list[str] | None]] = {
    "play": {"--game": GAMES, "-g": GAMES, "--players": NUMBERS, "-n": NUMBERS,
             "--seed": NUMBERS, "-s": NUMBERS, "--side": SIDES, "--bots": BOTS, "-b": BOTS,
             "--log": WRITE, "--seat": NUMBERS, "--json": FLAG, "--human": FLAG},
    "simulate": {"--game": GAMES, "--players": NUMBERS, "--seed": NUMBERS, "--side": SIDES,
                 "--bots": BOTS, "--json": FLAG, "--plot": WRITE, "--top": NUMBERS},
    "replay": {}, "check": {"--verbose": FLAG}, "schema": {}, "games": {},
    "validate": {"--game": GAMES, "--format": FORMATS, "-f": FORMATS, "--quiet": FLAG},
    "graph": {"--game": GAMES, "--format": FORMATS, "--output": WRITE, "-o": WRITE},
    "cards": {"--game": GAMES, "--json": FLAG, "--age": NUMBERS, "--colour": TEXT,
              "--search": TEXT, "--set": TEXT, "--removed": FLAG, "--tokens": FLAG,
              "--wonders": FLAG},
    "effects": {"--game": GAMES},
}
POSITIONAL = {"replay": (1, 2, READ), "check": (1, 3, READ), "validate": (0, 2, READ),
              "graph": (0, 2, READ), "cards": (0, 2, READ),
              "schema": (0, 2, ["cards", "wonders", "rules", "tokens", "scenario", "x", ""]),
              "games": (0, 1, TEXT), "effects": (0, 1, READ), "play": (0, 1, READ),
              "simulate": (0, 2, READ)}
WRITES = {"--log", "--output", "-o", "--plot"}


def gen_cli(rng: random.Random) -> Case:
    roll = rng.random()
    if roll < 0.03:
        return {"args": rng.choice([[], ["--help"], ["bogus"], ["--version"], ["-h", "play"],
                                    ["play", "--nope"], ["--", "play"]]), "subprocess": False}
    command = rng.choice(sorted(OPTIONS))
    options = OPTIONS[command]
    args = [command]
    # how hostile: every value good, exactly one bad, or any mix (one bad value already
    # stops most command lines at the usage check)
    mode = rng.choice(["good", "one", "any", "any"])
    chosen = rng.sample(sorted(options), k=min(len(options), rng.randint(0, 4)))
    bad = rng.randrange(len(chosen)) if chosen else -1
    for i, option in enumerate(chosen):
        pool = options[option]
        if pool is None:
            args.append(option)
            continue
        roll = rng.random()
        if option in GOOD and (mode == "good" or (mode == "one" and i != bad)):
            value = rng.choice(GOOD[option])
        elif roll < 0.5 and option in GOOD and mode == "any":
            value = rng.choice(GOOD[option])
        elif roll < 0.85 or option in WRITES:
            value = rng.choice(pool)
        else:
            value = rng.choice(TEXT)
        if rng.random() < 0.1 and value and not value.startswith("-"):
            args.append(f"{option}={value}")
        else:
            args += [option, value]
    if command == "simulate":  # a few games, or a bad count: never a long run
        args += ["--games", rng.choice(SIM_GAMES), "--workers",
                 rng.choice(WORKERS) if rng.random() < 0.3 else "1"]
    low, high, pool = POSITIONAL[command]
    good = {"replay": ["@log", "@duellog"], "check": ["@scen"], "validate": ["@clean"]}
    args += [rng.choice(good[command]) if command in good and rng.random() < 0.4
             else rng.choice(pool) for _ in range(rng.randint(low, high))]
    if rng.random() < 0.05:
        args.insert(rng.randint(1, len(args)), rng.choice(["--nope", "--", "-x", "-"]))
    return {"args": args, "subprocess": rng.random() < SUBPROCESS_SHARE["cli"]}


def make_place(root: Path) -> dict[str, str]:
    """The hostile files and folders the '@' values name, fresh for each input."""
    place = {"root": root}
    game, clean, duel = root / "game", root / "clean", root / "duel"
    write_game_folder(game, "base", {})
    write_game_folder(clean, "base", {})
    write_game_folder(duel, "duel", {})
    os.mkfifo(game / "pipe.yaml")
    (game / "a.yaml").symlink_to("b.yaml")
    (game / "b.yaml").symlink_to("a.yaml")
    os.mkfifo(root / "fifo.jsonl")
    (root / "loop.jsonl").symlink_to("loop.jsonl")
    logs = {g: text for g, text in reversed(CTX.logs)}
    (root / "good.jsonl").write_text(logs.get("base", ""), encoding="utf-8")
    (root / "duel.jsonl").write_text(logs.get("duel", ""), encoding="utf-8")
    (root / "empty.yaml").write_text("", encoding="utf-8")
    (root / "binary.yaml").write_bytes(bytes(range(256)) * 4)
    (root / "big.yaml").write_bytes(b"# x\n" * (600 * 1024))  # 2.4 MB, over the limit
    (root / "scen.yaml").write_text(CTX.scenarios.get("science.yaml", ""), encoding="utf-8")
    (root / "dir").mkdir()
    place.update({"game": game, "clean": clean, "duel": duel, "pipe": game / "pipe.yaml",
                  "loop": game / "a.yaml", "fifo": root / "fifo.jsonl",
                  "selfloop": root / "loop.jsonl", "log": root / "good.jsonl",
                  "duellog": root / "duel.jsonl", "empty": root / "empty.yaml",
                  "binary": root / "binary.yaml", "big": root / "big.yaml",
                  "scen": root / "scen.yaml", "dir": root / "dir",
                  "missing": root / "no" / "such" / "file", "out": root / "out.txt"})
    return {key: str(value) for key, value in place.items()}


def resolve(value: str, place: dict[str, str]) -> str:
    if value.startswith("@"):
        key, _, rest = value[1:].partition("/")
        if key in place:
            return place[key] + ("/" + rest if rest else "")
    return value


def run_cli(case: Case, work: Path) -> None:
    place = make_place(work)
    run_command([resolve(a, place) for a in case["args"]], None, case["subprocess"], work)


JSON_VALUES: list[Any] = [
    None, True, 0, -1, 10 ** 40, 1.5, "", "x", "Q", [], [1, 2], {}, {"x": 1}, "/", "@fifo",
    "@clean", "@selfloop", "duel", "base", {"0": "side"}, {"x": {"action": "side"}},
    json.loads("[" * 20 + "]" * 20), 2 ** 64, -(2 ** 63), 1e308, "9" * 5000, "A", "B",
    {"action": "build", "card": "Altar"}, {"action": "sell", "card": "x", "age": 99},
    ["/"], ["@fifo"], ["@clean/rules.yaml"], "RAWJSON0"]
RAW_JSON = ["9" * 5000, "NaN", "Infinity", "-0", "1e999", "[" * 5000 + "]" * 5000]


def gen_logs(rng: random.Random) -> Case:
    game, text = rng.choice(CTX.logs)
    records: list[Any] = [json.loads(line) for line in text.splitlines()]
    done: list[str] = []
    raws: list[str] = []
    for _ in range(rng.randint(1, 4)):
        how = rng.choice(["value", "value", "nested", "drop", "repeat", "swap", "truncate",
                          "line", "bytes", "deep", "card"])
        index = rng.randrange(len(records))
        record = records[index]
        if how == "value" and isinstance(record, dict):
            key = rng.choice(sorted(record) + ["actions", "type", "game", "paths", "seed",
                                               "players", "sides", "score_sheet"])
            value = copy.deepcopy(rng.choice(JSON_VALUES))
            if value == "RAWJSON0":
                raws.append(rng.choice(RAW_JSON))
                value = f"RAWJSON{len(raws) - 1}X"
            record[key] = value
            done.append(f"record {index}: {key} = {shorten(repr(value), 60)}")
        elif how in ("nested", "card") and isinstance(record, dict):
            paths = [p for p in tree_paths(record) if len(p) > 1]
            if paths:
                path = rng.choice(paths)
                value = rng.choice(CTX.things[game]) if how == "card" else \
                    copy.deepcopy(rng.choice(JSON_VALUES))
                try:
                    get(record, path[:-1])[path[-1]] = value
                    done.append(f"record {index}: {path} = {shorten(repr(value), 60)}")
                except (KeyError, IndexError, TypeError):
                    pass
        elif how == "drop" and len(records) > 1:
            del records[index]
            done.append(f"drop record {index}")
        elif how == "repeat":
            records.insert(index, copy.deepcopy(record))
            done.append(f"repeat record {index}")
        elif how == "swap":
            other = rng.randrange(len(records))
            records[index], records[other] = records[other], records[index]
            done.append(f"swap records {index} and {other}")
        elif how == "truncate":
            records = records[:index + 1]
            done.append(f"truncate after record {index}")
        elif how == "line":
            line = rng.choice(["x", "[]", "1", "{", '"s"', "{}", "", " ", "null", "\x00",
                               '{"type": "decision"}', '{"type": "result"}', "{" * 100])
            records.insert(index, line)  # written raw
            done.append(f"insert line {line!r} at {index}")
        elif how == "deep":
            records.insert(index, rng.choice(["[" * 50_000 + "]" * 50_000,
                                              '{"a":' * 5000 + "1" + "}" * 5000]))
            done.append(f"insert deep nesting at {index}")
        elif how == "bytes":
            line = record if isinstance(record, str) else json.dumps(record)
            at = rng.randint(0, max(0, len(line) - 1))
            piece = rng.choice(["", "}", '"', "9" * 5000, "\x00", "\udcff", ",", "\\"])
            records[index] = line[:at] + piece + line[at + 1:]
            done.append(f"record {index}: byte {at} -> {shorten(piece, 20)!r}")
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
    text = "\n".join(lines) + ("\n" if rng.random() < 0.9 else "")
    for i, raw in enumerate(raws):
        text = text.replace(f'"RAWJSON{i}X"', raw)
    head = b""
    if rng.random() < 0.05:
        head = rng.choice([b"\xef\xbb\xbf", b"\xff\xfe", b"\x80"])
        done.append(f"start with {head!r}")
    data = head + text.encode("utf-8", "surrogateescape")
    if rng.random() < 0.05:
        data = data.replace(b"\n", b"\r\n")
        done.append("CRLF")
    return {"game": game, "data": data, "edits": done,
            "subprocess": rng.random() < SUBPROCESS_SHARE["logs"]}


def run_logs(case: Case, work: Path) -> None:
    place = make_place(work)
    data: bytes = case["data"]
    def named(match: re.Match[bytes]) -> bytes:  # '"@fifo' and the like: a place's path
        key = match.group(1).decode()
        return json.dumps(place[key])[:-1].encode() if key in place else match.group(0)

    data = re.sub(rb'"@(\w+)', named, data)
    path = work / "mutated.jsonl"
    path.write_bytes(data)
    run_command(["replay", str(path)], None, case["subprocess"], work)


TYPED = ["--5", "-5", "0", "1", "2", "9" * 5000, "²", "٣", "", "b", "s", "w", "back", "help",
         "show", "?", "-", "--", "1-2", " 3 ", "é", "A", "B", "random", "x" * 300, "quit", "n",
         "y", "q", "1 2", "b 3", "3b", "99", "-0", "+1", "0x1", "1.0", "１", "\t1"]
CONTROL = ["\x1b[A", "\x04", "\t", "\x7f", "\r", "\x00", "\x1b", "\x03", "\x1a"]


def gen_terminal(rng: random.Random) -> Case:
    game = rng.choice(["base", "duel"])
    args = ["play", "--human", "--game", game, "--seed", str(rng.randrange(1000))]
    if game == "base":
        players = rng.randint(3, 7)
        if rng.random() < 0.5:
            args += ["--players", str(players)]
        else:
            players = 3
        args += ["--side", rng.choice(["choose", "random", "A", "B", "Day", "choose,random"])]
        if rng.random() < 0.3:
            args += ["--seat", str(rng.randrange(players))]
    if rng.random() < 0.3:
        args += ["--bots", rng.choice(["random", "greedy", "greedy,random"])]
    lines: list[str] = []
    progressing = rng.random() < 0.4  # mostly answers that move the game on, some noise
    for _ in range(rng.randint(1, 60) if not progressing else rng.randint(20, 250)):
        roll = rng.random()
        if progressing and roll < 0.8:
            line = rng.choice(["1", "2", "3", "1", "s", "s", "b", "w", ""])
        elif roll < 0.4:
            line = str(rng.randint(0, 12))
        elif roll < 0.55:
            line = rng.choice(["b", "w", "s", "back", "help", "?", "", " ", "show"])
        elif roll < 0.65:
            name = rng.choice(CTX.things[game])
            line = rng.choice([name, name.lower(), name[:-1], name.upper()])
        elif roll < 0.8:
            line = rng.choice(TYPED)
        elif roll < 0.9:
            line = "".join(chr(rng.choice([rng.randint(0x20, 0x7e), rng.randint(0xa0, 0x3000)]))
                           for _ in range(rng.randint(0, 20)))
        else:
            line = rng.choice(CONTROL) + rng.choice(["", "1", "b"])
        lines.append(line.replace("\n", " "))
    end = rng.choices(["quit\ny\n", "quit\nn\n", ""], [6, 2, 2])[0]
    return {"args": args, "input": "\n".join(lines) + "\n" + end,
            "subprocess": rng.random() < SUBPROCESS_SHARE["terminal"]}


def run_terminal(case: Case, work: Path) -> None:
    output = run_command(case["args"], case["input"], case["subprocess"], work)
    note("game finished" if "Final score sheet" in output else
         "game abandoned" if "abandoned" in output.lower() else "other end")


# the games whose own files the ``files`` family mutates: base and Duel, and the shipped
# expansions that are rule sets of their own (each ``extends:`` others by name)
FILE_GAMES: Final = ["base", "duel", "leaders", "cities", "leaders-cities"]
# whole games: the shipped games and expansions of both hand-draft and structure loops,
# and the test variants whose cards use constructs no shipped card does (issue 12)
GAME_TABLES: Final = ["base", "duel", "base2e", "leaders", "cities", "leaders-cities",
                      "tests/scenarios/variants/starts", "tests/scenarios/variants/duel-gives",
                      "tests/scenarios/variants/leaders-starts",
                      "tests/scenarios/variants/constructs"]


def gen_games(rng: random.Random) -> Case:
    game = rng.choice(["base", "duel"]) if rng.random() < 0.5 else rng.choice(GAME_TABLES)
    rules = game_data(game).rules
    players = rng.randint(rules.min_players, rules.max_players)
    seed = rng.randrange(2 ** 31) if rng.random() < 0.9 else \
        rng.choice([0, 1, 2 ** 31 - 1, 2 ** 32, 2 ** 63, 2 ** 64 + 1, 10 ** 30, -1])
    options: dict[str, Any] = {}
    if game == "base" and rng.random() < 0.6:
        choices = ["A", "B", "random", "choose"]
        options["sides"] = rng.choice(choices) if rng.random() < 0.6 else \
            [rng.choice(choices) for _ in range(players)]
    return {"game": game, "players": players, "seed": seed, "options": options,
            "rng": rng.randrange(2 ** 32),
            "clone_at": rng.randrange(80) if rng.random() < 0.15 else None,
            "same_seed": rng.random() < 0.1}


def game_data(game: str) -> Any:
    """The loaded data of a game or variant (loaded once; base and Duel at start-up)."""
    data = CTX.data.get(game)
    if data is None:
        from wonders.engine.sources import load_source

        root = Path(__file__).resolve().parent.parent
        result = load_source(str(root / game) if "/" in game else game)
        assert result.game is not None, result.report.sorted()
        data = CTX.data[game] = result.game
    return data


def run_games(case: Case, work: Path) -> None:
    from wonders.engine.errors import RuleError

    play_game(game_data(case["game"]), case["players"], case["seed"], case["rng"],
              case["options"], case["clone_at"], case["same_seed"], allow=(RuleError,))


GENERATORS: dict[str, Callable[[random.Random], Case]] = {
    "effects": gen_effects, "files": gen_files, "scenarios": gen_scenarios, "cli": gen_cli,
    "logs": gen_logs, "terminal": gen_terminal, "games": gen_games}
RUNNERS: dict[str, Callable[[Case, Path], None]] = {
    "effects": run_effects, "files": run_files, "scenarios": run_scenarios, "cli": run_cli,
    "logs": run_logs, "terminal": run_terminal, "games": run_games}


def generate(seed: int, family: str, index: int) -> Case:
    case = GENERATORS[family](random.Random(f"{seed}/{family}/{index}"))
    case["family"], case["index"] = family, index
    return case


def describe(case: Case) -> dict[str, Any]:
    """The input in a form to read (long values shortened; files and logs by their edits)."""
    shown: dict[str, Any] = {}
    for key, value in case.items():
        if key == "data":
            shown["size"] = len(value)
        elif isinstance(value, str):
            shown[key] = shorten(value, 800)
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            shown[key] = [shorten(v, 200) for v in value]
        else:
            shown[key] = value
    return shown


def run_case(case: Case, work: Path) -> Outcome:
    """Run one input (in a worker); a failure of this script is kind ``harness``."""
    if work.exists():
        shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    NOTES.clear()
    here = os.getcwd()
    os.chdir(work)
    try:
        RUNNERS[case["family"]](case, work)
        return Outcome(notes=dict(NOTES))
    except Found as found:
        found.outcome.notes = dict(NOTES)
        return found.outcome
    except Exception as exc:  # a bug of this script: never counted as the engine's
        return Outcome("harness", type(exc).__name__, where(exc), short_trace(exc, 10))
    finally:
        os.chdir(here)
        shutil.rmtree(work, ignore_errors=True)


# --- workers: one input at a time, bounded ---------------------------------------------------

TICK = os.sysconf("SC_CLK_TCK")


def group_usage(group: int) -> tuple[float, bool]:
    """CPU seconds of a process group (children reaped included), and whether any of its
    processes is runnable."""
    total, running = 0.0, False
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as handle:
                stat = handle.read().decode("ascii", "replace")
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[2]) != group:
            continue
        total += sum(int(v) for v in fields[11:15]) / TICK
        running = running or fields[0] == "R"
    return total, running


def _worker_main(conn: Connection, dump: str, work: str) -> None:
    os.setpgrp()  # its own group: a time-out kills it and whatever it started
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    log = os.open(dump + ".out", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(log, 1)
    os.dup2(log, 2)
    handle = open(dump, "w")
    faulthandler.register(signal.SIGUSR1, file=handle, all_threads=True)
    while True:
        try:
            case = conn.recv()
        except EOFError:
            return
        started, cpu = time.monotonic(), time.process_time()
        outcome = run_case(case, Path(work))
        outcome.cpu, outcome.wall = time.process_time() - cpu, time.monotonic() - started
        conn.send(outcome)


class Worker:
    """A forked process running inputs one by one; replaced after a failure."""

    count = 0

    def __init__(self, scratch: Path) -> None:
        Worker.count += 1
        self.dump = scratch / f"stacks-{Worker.count}.txt"
        self.conn, child = multiprocessing.get_context("fork").Pipe()
        self.process = multiprocessing.get_context("fork").Process(
            target=_worker_main, args=(child, str(self.dump), str(scratch / "case")),
            daemon=False)  # not daemonic: simulate --workers starts processes
        self.process.start()
        child.close()
        self.runs = 0

    def stop(self) -> None:
        pid = self.process.pid
        if pid is not None:
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.process.join(5)
        self.conn.close()

    def stacks(self) -> str:
        """Dump the worker's Python stacks (faulthandler) and read them."""
        if self.process.pid is None:
            return ""
        try:
            os.kill(self.process.pid, signal.SIGUSR1)
        except ProcessLookupError:
            return ""
        time.sleep(0.5)
        try:
            return self.dump.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def run(self, case: Case, bound: float) -> Outcome:
        self.runs += 1
        pid = self.process.pid
        assert pid is not None
        started = time.monotonic()
        self.conn.send(case)
        if self.conn.poll(min(0.25, bound)):
            return self._receive()
        cpu0, _ = group_usage(pid)
        cpu0 = max(0.0, cpu0 - 0.25)  # the first quarter second was surely spent on it
        last_cpu, progress = cpu0, time.monotonic()
        while True:
            if self.conn.poll(0.5):
                return self._receive()
            if not self.process.is_alive():
                return Outcome("crash", f"exit {self.process.exitcode}", "worker",
                               "the worker died without answering")
            cpu, running = group_usage(pid)
            now = time.monotonic()
            if running or cpu > last_cpu + 0.01:
                progress = now
            last_cpu = cpu
            stalled = now - progress > bound
            if cpu - cpu0 > bound or stalled or now - started > 20 * bound:
                stacks = self.stacks()
                frames = re.findall(r'File "([^"]+)", line (\d+) in (\S+)', stacks)
                # faulthandler lists the most recent call first
                location = _project_frame([(f, int(n), name) for f, n, name in reversed(frames)])
                if case.get("subprocess"):
                    location = f"wonders {case['args'][0] if case.get('args') else 'replay'}" \
                               " (subprocess)"
                why = "blocked" if stalled else "CPU" if cpu - cpu0 > bound else "starved"
                return Outcome("time-out", why, location,
                               f"{why}: {cpu - cpu0:.1f} s CPU, {now - started:.1f} s wall; "
                               + shorten(stacks[:1500], 1500), cpu - cpu0, now - started)

    def _receive(self) -> Outcome:
        try:
            outcome: Outcome = self.conn.recv()
            return outcome
        except (EOFError, OSError):
            self.process.join(2)
            return Outcome("crash", f"exit {self.process.exitcode}", "worker",
                           "the worker died while answering")


# --- the campaign ---------------------------------------------------------------------------

@dataclass
class Tally:
    tried: int = 0
    passed: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    slow: int = 0
    harness: int = 0
    notes: Counter[str] = field(default_factory=Counter)


@dataclass
class Example:
    family: str
    kind: str
    exception: str
    location: str
    count: int
    first: dict[str, Any]


class Campaign:
    def __init__(self, seed: int, families: Sequence[str], scratch: Path) -> None:
        self.seed, self.families, self.scratch = seed, list(families), scratch
        self.tallies = {family: Tally() for family in families}
        self.examples: dict[tuple[str, str, str, str], Example] = {}
        self.next = {family: 0 for family in families}
        self.worker = Worker(scratch)

    def restart(self) -> None:
        self.worker.stop()
        self.worker = Worker(self.scratch)

    def one(self, family: str) -> None:
        index = self.next[family]
        self.next[family] += 1
        case = generate(self.seed, family, index)
        bound = BOUNDS[family]
        if self.worker.runs >= RESTART_EVERY:
            self.restart()
        outcome = self.worker.run(case, bound)
        slow = False
        if outcome.kind in ("time-out", "crash"):
            self.restart()
            if outcome.kind == "time-out":  # once more, fresh, with three times the bound
                again = self.worker.run(case, 3 * bound)
                self.restart()
                if again.kind is None:
                    slow = True
                    outcome = Outcome("slow", outcome.exception, outcome.location,
                                      outcome.detail + f" | again: {again.cpu:.1f} s CPU",
                                      outcome.cpu, outcome.wall)
                elif again.kind != "time-out":
                    outcome = again
        elif outcome.kind is not None:
            self.restart()  # a fresh process for the next input
        tally = self.tallies[family]
        tally.tried += 1
        tally.notes.update(outcome.notes)
        if outcome.kind is None:
            tally.passed += 1
            return
        if slow:
            tally.slow += 1
            tally.passed += 1
        elif outcome.kind == "harness":
            tally.harness += 1
        else:
            tally.kinds[outcome.kind] += 1
        key = (family, outcome.kind, outcome.exception, outcome.location)
        if key in self.examples:
            self.examples[key].count += 1
        else:
            self.examples[key] = Example(family, outcome.kind, outcome.exception,
                                         outcome.location, 1, {
                                             "index": index, "input": describe(case),
                                             "detail": outcome.detail,
                                             "cpu": round(outcome.cpu, 2),
                                             "wall": round(outcome.wall, 2)})
            print(f"  new: {family} #{index}: {outcome.kind} {outcome.exception} at "
                  f"{outcome.location}", flush=True)

    def run(self, seconds: float) -> float:
        started = time.monotonic()
        end = started + seconds
        report = started + 60
        try:
            while time.monotonic() < end:
                for family in self.families:
                    turn_end = min(time.monotonic() + SLICE, end)
                    while time.monotonic() < turn_end:
                        self.one(family)
                    if time.monotonic() >= report:
                        report += 60
                        print(f"[{(time.monotonic() - started) / 60:5.1f} min] " + ", ".join(
                            f"{f} {t.tried}" for f, t in self.tallies.items())
                            + f"; distinct failures {len(self.failures())}", flush=True)
                    if time.monotonic() >= end:
                        break
        except KeyboardInterrupt:
            print("interrupted: the summary of what ran", flush=True)
        finally:
            self.worker.stop()
        return time.monotonic() - started

    def failures(self) -> list[Example]:
        return [e for e in self.examples.values() if e.kind in KINDS]

    def table(self) -> str:
        heads = ["family", "inputs", "passed", *KINDS, "slow", "harness"]
        rows = [[family, str(t.tried), str(t.passed), *(str(t.kinds[k]) for k in KINDS),
                 str(t.slow), str(t.harness)] for family, t in self.tallies.items()]
        total = [sum(int(r[i]) for r in rows) for i in range(1, len(heads))]
        rows.append(["total", *map(str, total)])
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(heads)]
        lines = ["  ".join(h.rjust(w) if i else h.ljust(w) for i, (h, w) in
                           enumerate(zip(heads, widths)))]
        lines += ["  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in
                            enumerate(zip(row, widths))) for row in rows]
        return "\n".join(lines)

    def summary(self, elapsed: float) -> str:
        out = [f"{sum(t.tried for t in self.tallies.values())} inputs in {elapsed / 60:.1f} min "
               f"(seed {self.seed})", "", self.table(), "", "What the inputs reached:"]
        for family, tally in self.tallies.items():
            out.append(f"  {family}: " + ", ".join(
                f"{what} {n}" for what, n in sorted(tally.notes.items())))
        out.append("")
        groups = [("Distinct failures (first example of each)", self.failures()),
                  ("Slow inputs (over the bound once, answered on a retry with 3x)",
                   [e for e in self.examples.values() if e.kind == "slow"]),
                  ("Errors of this script (harness; not the engine's)",
                   [e for e in self.examples.values() if e.kind == "harness"])]
        for title, examples in groups:
            out.append(f"{title}: {len(examples)}")
            for e in examples:
                out.append(f"- {e.family} / {e.kind} / {e.exception or '-'} / {e.location} "
                           f"(×{e.count}), first: #{e.first['index']} "
                           f"{json.dumps(e.first['input'], ensure_ascii=False)[:400]}")
                out.append("    " + e.first["detail"][-600:].replace("\n", "\n    "))
            out.append("")
        return "\n".join(out)

    def to_json(self, elapsed: float, argv: list[str]) -> dict[str, Any]:
        return {
            "command": " ".join(["python", "benchmarks/fuzz.py", *argv]),
            "date": dt.datetime.now().isoformat(timespec="seconds"),
            "seed": self.seed, "elapsed_s": round(elapsed, 1),
            "bounds_cpu_s": BOUNDS,
            "families": {f: {"inputs": t.tried, "passed": t.passed, "failures": dict(t.kinds),
                             "slow": t.slow, "harness": t.harness, "reached": dict(t.notes)}
                         for f, t in self.tallies.items()},
            "examples": [asdict(e) for e in self.examples.values()],
        }


def _json_default(value: Any) -> Any:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return repr(value)


def reproduce(seed: int, spec: str, scratch: Path) -> int:
    family, _, index = spec.partition(":")
    if family not in FAMILIES or not index.isdigit():
        print(f"--case wants FAMILY:INDEX with FAMILY one of {', '.join(FAMILIES)}")
        return 2
    case = generate(seed, family, int(index))
    print(json.dumps(describe(case), ensure_ascii=False, indent=1, default=_json_default))
    started = time.process_time()
    outcome = run_case(case, scratch / "case")
    outcome.cpu = time.process_time() - started
    print(json.dumps(asdict(outcome), ensure_ascii=False, indent=1))
    return 0 if outcome.kind is None else 1


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--minutes", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--families", default=",".join(FAMILIES),
                        help="comma-separated, among: " + ", ".join(FAMILIES))
    parser.add_argument("--out", type=Path, default=None, help="the examples, as JSON")
    parser.add_argument("--case", default=None, help="FAMILY:INDEX: run one input, verbosely")
    options = parser.parse_args(argv)
    families = [f.strip() for f in options.families.split(",") if f.strip()]
    unknown = [f for f in families if f not in FAMILIES]
    if unknown or not families:
        parser.error(f"unknown families {unknown}; known: {', '.join(FAMILIES)}")
    scratch = Path(tempfile.mkdtemp(prefix="wonders-fuzz-"))
    try:
        build_context(FAMILIES if options.case else families)
        if options.case:
            return reproduce(options.seed, options.case, scratch)
        print(f"fuzz campaign: {options.minutes:g} min, seed {options.seed}, families "
              f"{', '.join(families)}; bound per input (CPU s) "
              + ", ".join(f"{f} {BOUNDS[f]:g}" for f in families), flush=True)
        campaign = Campaign(options.seed, families, scratch)
        elapsed = campaign.run(options.minutes * 60)
        print(campaign.summary(elapsed), flush=True)
        if options.out:
            options.out.write_text(json.dumps(campaign.to_json(elapsed, argv), indent=1,
                                              ensure_ascii=False, default=_json_default),
                                   encoding="utf-8")
            print(f"examples written to {options.out}")
        return 1 if campaign.failures() else 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
