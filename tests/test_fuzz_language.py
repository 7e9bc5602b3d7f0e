"""A bounded fuzz suite of the data language (issue 16).

Hypothesis (derandomized, so every run tries the same inputs) generates effect,
cost and formula strings from the grammar's pieces, then mutates them (insertions,
deletions, huge numbers, Unicode digits); and mutates the shipped YAML files
(values, keys and types replaced).  For every input the loader must return
diagnostics that each carry a documented CODE and a location, or load; never
raise; and answer within a time bound.  Before the fixes of issue 16 it found a
number of 4,400 digits (ValueError), '²' as a marker or layout key (ValueError)
and counts of 10^9 (minutes of validation).
"""

from __future__ import annotations

import time
from pathlib import Path

import yaml
from document_paths import value_paths
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wonders.dsl import schema as schema_module
from wonders.dsl.codes import CODES
from wonders.dsl.compiler import compile_cost, compile_effects, compile_formula
from wonders.dsl.loader import load, shipped_games
from wonders.dsl.source import load_text

BASE = load(game="base").game
assert BASE is not None
VOCABULARY = BASE.rules.vocabulary
TIME_BOUND = 3.0  # seconds per input: generous under a loaded machine; a hang is minutes

WORDS = ["produce", "points", "coins", "shields", "science", "buy", "from", "at", "ability",
         "once", "per", "copy", "card", "cards", "replay", "loses", "destroy", "in", "take",
         "token", "draw", "discount", "resources", "on", "wonder", "stage", "chain", "now:",
         "end:", "any", "unbuyable", "free", "coin", "wood", "clay", "glass", "loom", "red",
         "blue", "purple", "compass", "left", "right", "neighbours", "self", "victory",
         "free_build", "age", "players", "|", ",", ";", "+", "-", "*", "/", "(", ")", "#"]
NUMBERS = st.one_of(st.integers(0, 12).map(str), st.just("9" * 4400), st.just("1234567"),
                    st.sampled_from(["²", "٣", "0", "00", "-1", "1e9", "½", "007"]))
PIECE = st.one_of(st.sampled_from(WORDS), NUMBERS)
STRINGS = st.lists(PIECE, min_size=0, max_size=12).map(" ".join)


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = draw(STRINGS)
    for _ in range(draw(st.integers(0, 3))):
        where = draw(st.integers(0, len(text)))
        if draw(st.booleans()) and text:
            text = text[:where] + text[where + 1:]
        else:
            text = text[:where] + draw(st.one_of(st.characters(), NUMBERS)) + text[where:]
    return text


def _check_problems(problems: list, text: str) -> None:  # type: ignore[type-arg]
    for problem in problems:
        assert problem.code in CODES, problem
        assert 0 <= problem.start <= max(len(text), 1), problem


FUZZ = settings(derandomize=True, max_examples=300, deadline=None,
                suppress_health_check=list(HealthCheck))


@FUZZ
@given(mutated())
def test_effect_cost_and_formula_strings(text: str) -> None:
    started = time.perf_counter()
    for compile_ in (compile_effects, compile_cost, compile_formula):
        _, problems = compile_(text, VOCABULARY)
        _check_problems(problems, text)
    assert time.perf_counter() - started < TIME_BOUND


# --- mutated shipped files --------------------------------------------------------------

FILES = sorted(p for name in ("base", "duel") for p in shipped_games()[name].glob("*.yaml"))
REPLACEMENTS = st.one_of(
    st.integers(-2, 2), st.just(10 ** 9), st.just(10 ** 18),
    st.just("9" * 4400), st.just("²"), st.just("²+"), st.just("-1"), st.just(""),
    st.just(None), st.just(True), st.just([]), st.just({}), st.just([1, "x"]),
    st.just({"²": 1}), STRINGS, mutated())


_paths = value_paths


DATA = {path: yaml.safe_load(path.read_text(encoding="utf-8")) for path in FILES}
PATHS = {path: _paths(data) for path, data in DATA.items()}


def _set(data: object, path: tuple, value: object, rename: bool) -> None:  # type: ignore[type-arg]
    node = data
    for part in path[:-1]:
        node = node[part]  # type: ignore[index]
    last = path[-1]
    if rename and isinstance(node, dict):
        node[str(value)[:40] if value is not None else "²"] = node.pop(last)
    else:
        node[last] = value  # type: ignore[index]


@st.composite
def mutated_file(draw: st.DrawFn) -> tuple[Path, str]:
    path = draw(st.sampled_from(FILES))
    data = yaml.safe_load(path.read_text(encoding="utf-8"))  # a fresh copy to mutate
    for _ in range(draw(st.integers(1, 3))):
        target = draw(st.sampled_from(PATHS[path]))
        try:
            _set(data, target, draw(REPLACEMENTS), rename=draw(st.booleans()))
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation removed the place
    return path, yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


@settings(derandomize=True, max_examples=60, deadline=None,
          suppress_health_check=list(HealthCheck))
@given(mutated_file())
def test_mutated_shipped_files(tmp_path_factory: object, case: tuple[Path, str]) -> None:
    original, text = case
    folder = Path(tmp_path_factory.mktemp("fuzz"))  # type: ignore[attr-defined]
    for path in original.parent.glob("*.yaml"):
        (folder / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / original.name).write_text(text, encoding="utf-8")
    started = time.perf_counter()
    result = load([folder])
    elapsed = time.perf_counter() - started
    for diagnostic in result.report.sorted():
        assert diagnostic.code in CODES, diagnostic.render()
        assert diagnostic.location.file, diagnostic.render()
    assert elapsed < TIME_BOUND, f"{elapsed:.1f} s"
    # the quick schema check (wonders/dsl/schema.py) never accepts what jsonschema refuses
    doc, _ = load_text(original.name, text)
    kind = doc.data.get("kind") if doc is not None and isinstance(doc.data, dict) else None
    if kind in schema_module.ALL_SCHEMAS:
        quick = schema_module._quick_check(kind)
        assert quick is not None
        if quick(doc.data):
            assert not list(schema_module._validator(kind).iter_errors(doc.data))


@FUZZ
@given(STRINGS, NUMBERS)
def test_yaml_values_with_odd_numbers(text: str, number: str) -> None:
    """Any document text loads to data or to located Y diagnostics."""
    doc_text = f"kind: cards\nset: x\ngame: base\ncards:\n  - {{name: A, age: {number}, " \
               f"colour: blue, players: ['{number}+'], cost: free, effect: '{text}'}}\n"
    doc, problems = load_text("x.yaml", doc_text)
    for problem in problems:
        assert problem.code in CODES and problem.location.line > 0
