"""A bounded fuzz suite of rule scenarios (issue 16).

Hypothesis (derandomized, so every run tries the same inputs) takes one scenario of
a file in tests/scenarios/ and mutates it: values replaced (seats out of range,
huge and negative numbers, names that do not exist or name another kind of thing,
wrong types), keys renamed to other keys of the scenario schema, keys added or
removed, list items dropped or repeated.  ``check_file`` must then never raise;
every diagnostic must carry a documented code (wonders/dsl/codes.py, or a scenario code
of wonders/scenarios/draft.py, documented in docs/errors.md) and a location in the file;
no scenario may end in an internal error (X903: bad input must be refused before it
runs); and each input must answer within a time bound.  Before the scenario checks
of issue 16 it found a player without 'wonder' (KeyError), a single Duel wonder
pool (IndexError), seats out of range in 'to_move', 'looted' and 'starter', and
tokens written with huge numbers.
"""

from __future__ import annotations

import copy
import json
import time
from pathlib import Path
from typing import Any

import yaml
from document_paths import value_paths
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wonders.dsl.codes import CODES
from wonders.scenarios.draft import INTERNAL, SCENARIO_CODES, check_file

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "tests" / "scenarios").glob("*.yaml"))
DATA = {path: yaml.safe_load(path.read_text(encoding="utf-8")) for path in FILES}
TIME_BOUND = 3.0  # seconds per input: generous under a loaded machine; a hang is minutes
DOCUMENTED = set(CODES) | set(SCENARIO_CODES)


def _keys(schema: Any) -> dict[str, str]:
    """Every property name the scenario schema knows, with the type of its value
    (renames and additions use them)."""
    found: dict[str, str] = {}
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            properties = node.get("properties")
            for name, spec in (properties.items() if isinstance(properties, dict) else ()):
                ref = spec.get("$ref", "")
                found.setdefault(name, "names" if ref.endswith("/names") else
                                 str(spec.get("type", "object" if ref else "string")))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


KEYS = _keys(json.loads((ROOT / "src" / "wonders" / "dsl" / "schemas" / "scenario.schema.json").read_text()))
KEY_NAMES = sorted(KEYS)
NAMES = ["Gizah", "Gizha", "Rhodos", "Lumber Yard", "Loom (2)", "Loom (9)", "Loom (x)",
         "Baths", "The Pyramids", "The Sphinx", "Law", "Economy", "victory", "defeat",
         "victory 3", "defeat -1", "victory 99999999999999999999", "board", "box", "stone",
         "B", "Z", "", "x" * 300, "²"]
NUMBERS = [-1, 0, 1, 2, 3, 4, 7, 8, 9, 10, 20, 99, 1000, 10 ** 9, 10 ** 30]
REPLACEMENTS = st.one_of(
    st.sampled_from(NUMBERS), st.sampled_from(NAMES), st.just(None), st.just(True),
    st.just(False), st.just([]), st.just({}), st.just([0]), st.just([0, 1]),
    st.just([NAMES[0]]), st.just([[]]), st.just([["The Pyramids"]]), st.just({"0": {}}),
    st.just({"2": {"sell": "Baths"}}), st.just([{"player": 9, "zone": 3}]),
    st.just(1.5), st.just("9" * 4400))


_paths = value_paths


def _mutate(data: Any, path: tuple[Any, ...], how: str, key: str, value: Any) -> None:
    node = data
    for part in path[:-1]:
        node = node[part]
    last = path[-1]
    target = node[last]
    if how == "replace":
        node[last] = value
    elif how == "rename" and isinstance(node, dict):
        node[key] = node.pop(last)
    elif how == "add":
        for place in (target, node):
            if isinstance(place, dict):
                place[key] = value
                break
    elif how == "remove":
        del node[last]
    elif how == "repeat" and isinstance(target, list) and target:
        target.append(copy.deepcopy(target[0]))
    elif how == "repeat" and isinstance(node, list):
        node.append(copy.deepcopy(target))


def _scenario(data: Any) -> bool:
    scenarios = data.get("scenarios") if isinstance(data, dict) else None
    return isinstance(scenarios, list) and bool(scenarios) and isinstance(scenarios[0], dict)


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        data = data[part]
    return data


def _of_type(kind: str) -> st.SearchStrategy[Any]:
    return {"integer": st.sampled_from(NUMBERS), "string": st.sampled_from(NAMES),
            "boolean": st.booleans(), "names": st.lists(st.sampled_from(NAMES), max_size=3),
            "array": st.lists(st.sampled_from(NUMBERS), max_size=3)}.get(kind, REPLACEMENTS)


def _like(value: Any) -> st.SearchStrategy[Any]:
    if isinstance(value, bool):
        return st.just(not value)
    if isinstance(value, int):
        return st.sampled_from(NUMBERS)
    if isinstance(value, str):
        return st.sampled_from(NAMES)
    if isinstance(value, list):
        return st.lists(st.sampled_from(NAMES) if not value or isinstance(value[0], str)
                        else st.sampled_from(NUMBERS), max_size=3)
    return REPLACEMENTS


@st.composite
def mutated_scenario(draw: st.DrawFn) -> tuple[Path, str]:
    path = draw(st.sampled_from(FILES))
    data = copy.deepcopy(DATA[path])
    data["scenarios"] = [draw(st.sampled_from(data["scenarios"]))]
    if draw(st.integers(0, 5)) == 0:  # the scenario under the other game loop's runner
        data["game"] = {"base": "duel", "duel": "dice", "dice": "base"}.get(data["game"], "base")
    for _ in range(draw(st.integers(1, 3))):
        # inside the position and the expectations (the whole file, rarely, for the rest)
        places = [p for p in _paths(data["scenarios"][0], ("scenarios", 0)) if len(p) > 3] \
            if _scenario(data) else []
        if not places or draw(st.integers(0, 9)) == 0:
            places = _paths(data)
        target = draw(st.sampled_from(places))
        how = draw(st.sampled_from(["replace", "typed", "typed", "typed", "rename", "add",
                                    "add", "remove", "remove", "repeat"]))
        key = draw(st.sampled_from(KEY_NAMES))
        # mostly values of the type the schema wants: their meaning is what is tested
        if how == "typed":
            how, value = "replace", draw(_like(_at(data, target)))
        elif how == "add":
            value = draw(_of_type(KEYS[key]))
        else:
            value = draw(REPLACEMENTS)
        value = copy.deepcopy(value)  # st.just gives the same object each time
        _mutate(data, target, how, key, value)
    return path, yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


FUZZ = settings(derandomize=True, max_examples=250, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))


@FUZZ
@given(mutated_scenario())
def test_mutated_scenarios(tmp_path_factory: Any, case: tuple[Path, str]) -> None:
    original, text = case
    path = Path(tmp_path_factory.mktemp("fuzz")) / original.name
    path.write_text(text, encoding="utf-8")
    started = time.perf_counter()
    result = check_file(path)
    elapsed = time.perf_counter() - started
    found = list(result.report.diagnostics)
    for outcome in result.outcomes:
        found += outcome.failures
    for diagnostic in found:
        assert diagnostic.code in DOCUMENTED, diagnostic.render()
        assert diagnostic.code != INTERNAL, f"{diagnostic.render()}\n{text}"
        assert diagnostic.location.file and diagnostic.location.line > 0, diagnostic.render()
    assert elapsed < TIME_BOUND, f"{elapsed:.1f} s"
