"""The shipped JSON Schemas and the translation of schema errors into diagnostics.

jsonschema reports errors by path; the loaded :class:`~wonders.dsl.source.Document`
knows where every path is in the file, so each error lands on the offending key
or value.  Messages are rewritten for people ("'cost' must be text, not a
number"), and unknown keys and enum values get a "did you mean".
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any, Iterator

import jsonschema
from jsonschema.exceptions import ValidationError

from .errors import Diagnostic, Location, closest
from .source import Document, PathKey

KINDS = ("cards", "wonders", "rules", "tokens")
ALL_SCHEMAS = KINDS + ("scenario",)


@lru_cache(maxsize=None)
def schema(kind: str) -> dict[str, Any]:
    """The JSON Schema (draft-07) of one kind of file."""
    text = resources.files(__package__).joinpath("schemas", f"{kind}.schema.json").read_text(
        encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


@lru_cache(maxsize=None)
def _validator(kind: str) -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator(schema(kind))


_TYPE_WORDS = {
    "string": "text", "integer": "a whole number", "number": "a number", "boolean": "true or false",
    "array": "a list", "object": "a map (key: value lines)", "null": "empty",
}


def _type_word(value: Any) -> str:
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a map"
    return type(value).__name__


def _field(path: PathKey) -> str:
    for part in reversed(path):
        if isinstance(part, str):
            return f"'{part}'"
    return "the file"


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
    return text if len(text) <= 60 else text[:57] + "..."


def _leaf_errors(error: ValidationError) -> Iterator[ValidationError]:
    """For anyOf/oneOf, report the error of the best alternative unless a message is given."""
    if (error.validator in ("anyOf", "oneOf") and error.context
            and "errorMessage" not in _schema_of(error)):
        best = jsonschema.exceptions.best_match(error.context)
        if best is not None:
            yield from _leaf_errors(best)
            return
    yield error


def _schema_of(error: ValidationError) -> dict[str, Any]:
    return error.schema if isinstance(error.schema, dict) else {}


def _diagnostics(error: ValidationError, doc: Document) -> Iterator[Diagnostic]:
    path: PathKey = tuple(error.absolute_path)
    instance = error.instance
    schema_map = _schema_of(error)
    custom = schema_map.get("errorMessage")
    validator = error.validator
    validator_value: Any = error.validator_value
    location = doc.location(path)
    text = _show(instance) if not isinstance(instance, (dict, list)) else None

    if validator == "additionalProperties" and isinstance(instance, dict):
        known = list(schema_map.get("properties", {}))
        for key in instance:
            if key in known:
                continue
            if schema_map.get("patternProperties") or isinstance(
                    schema_map.get("additionalProperties"), dict):
                continue
            yield Diagnostic("S103", f"unknown key '{key}'" + (
                f"; allowed here: {', '.join(known)}" if known else ""),
                doc.location(path + (key,), key=True), text=key,
                suggestion=closest(key, known))
        return
    if validator == "required" and isinstance(instance, dict):
        for key in validator_value:
            if key not in instance:
                close = closest(key, [k for k in instance if k not in schema_map.get(
                    "properties", {})])
                where = _field(path) if path else "the file"
                message = f"missing required key '{key}'" + (f" in {where}" if path else "")
                if close:
                    message += f" ('{close}' is not a key here)"
                yield Diagnostic("S102", message, location)
        return
    if validator == "propertyNames":
        key = str(instance)
        yield Diagnostic("S105", custom or f"'{key}' is not a valid name here",
                         doc.location(path + (key,), key=True), text=key)
        return
    if validator == "type":
        expected = validator_value
        wanted = " or ".join(_TYPE_WORDS.get(str(t), str(t)) for t in (
            expected if isinstance(expected, list) else [expected]))
        yield Diagnostic("S101", f"{_field(path)} must be {wanted}, not {_type_word(instance)}",
                         location, text=text)
        return
    if validator == "enum":
        options = [str(o) for o in validator_value]
        yield Diagnostic("S104", f"{_field(path)} is '{_show(instance)}', not one of: "
                         f"{', '.join(options)}", location, text=text,
                         suggestion=closest(str(instance), options))
        return
    if validator in ("pattern", "anyOf", "oneOf"):
        message = custom or f"{_field(path)}: '{_show(instance)}' is not valid here"
        yield Diagnostic("S105", f"{message}, not '{_show(instance)}'" if custom else message,
                         location, text=text)
        return
    if validator == "uniqueItems":
        yield Diagnostic("S106", f"{_field(path)} lists the same item twice", location)
        return
    if validator in ("minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems",
                     "minProperties", "maxProperties", "exclusiveMinimum", "exclusiveMaximum"):
        limits = {
            "minimum": "at least {}", "maximum": "at most {}",
            "exclusiveMinimum": "more than {}", "exclusiveMaximum": "less than {}",
            "minLength": "at least {} characters long", "maxLength": "at most {} characters long",
            "minItems": "a list of at least {} items", "maxItems": "a list of at most {} items",
            "minProperties": "a map of at least {} entries",
            "maxProperties": "a map of at most {} entries",
        }
        limit = limits[str(validator)].format(validator_value)
        if validator_value == 1:  # "at least 1 item", not "1 items"
            limit = limit.replace("characters", "character").replace("items", "item").replace(
                "entries", "entry")
        yield Diagnostic("S106", f"{_field(path)} must be {limit}", location, text=text)
        return
    yield Diagnostic("S100", f"{_field(path)}: {error.message}", location, text=text)


_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")


def validate(doc: Document, kind: str,
             refused: set[PathKey] | None = None) -> list[Diagnostic]:
    """Every schema error of a document of the given kind, located in its file.

    ``refused`` collects the paths of numbers outside their schema bounds (S106):
    the loader reads them as absent, so a count of 10^9 is reported, never used."""
    found: list[Diagnostic] = []
    seen: set[tuple[str, Location, str]] = set()
    for error in _validator(kind).iter_errors(doc.data):
        for leaf in _leaf_errors(error):
            if (refused is not None and leaf.validator in _BOUNDS
                    and isinstance(leaf.instance, (int, float))
                    and not isinstance(leaf.instance, bool)):
                refused.add(tuple(leaf.absolute_path))
            for diagnostic in _diagnostics(leaf, doc):
                key = (diagnostic.code, diagnostic.location, diagnostic.message)
                if key not in seen:
                    seen.add(key)
                    found.append(diagnostic)
    return found


def detect_kind(doc: Document) -> tuple[str | None, list[Diagnostic]]:
    """The ``kind:`` of a document, or a diagnostic saying why it has none."""
    data = doc.data
    if not isinstance(data, dict):
        return None, [Diagnostic("S101", "the file must be a map with a 'kind' key "
                                 f"({', '.join(KINDS)}), not {_type_word(data)}",
                                 doc.location(()))]
    kind = data.get("kind")
    if kind is None:
        return None, [Diagnostic("S102", f"missing required key 'kind' (one of: {', '.join(KINDS)})",
                                 doc.location(()))]
    if kind not in KINDS:
        return None, [Diagnostic("S104", f"'kind' is '{_show(kind)}', not one of: "
                                 f"{', '.join(KINDS)}", doc.location(("kind",)),
                                 text=_show(kind), suggestion=closest(str(kind), KINDS))]
    return str(kind), []
