"""The shipped JSON Schemas and the translation of schema errors into diagnostics.

jsonschema reports errors by path; the loaded :class:`~wonders.dsl.source.Document`
knows where every path is in the file, so each error lands on the offending key
or value.  Messages are rewritten for people ("'cost' must be text, not a
number"), and unknown keys and enum values get a "did you mean".
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Callable, Iterator

if TYPE_CHECKING:  # imported where used: valid files never need jsonschema (the quick check)
    import jsonschema
    from jsonschema.exceptions import ValidationError

from wonders.dsl.errors import Diagnostic, Location, closest
from wonders.dsl.source import Document, PathKey

KINDS = ("cards", "wonders", "rules", "tokens", "forum", "sheets", "components")
ALL_SCHEMAS = KINDS + ("scenario",)


@lru_cache(maxsize=None)
def schema(kind: str) -> dict[str, Any]:
    """The JSON Schema (draft-07) of one kind of file."""
    text = resources.files(__package__).joinpath("schemas", f"{kind}.schema.json").read_text(
        encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


@lru_cache(maxsize=None)
def _validator(kind: str) -> jsonschema.Draft7Validator:
    import jsonschema

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
        from jsonschema.exceptions import best_match

        # an alternative of another type (a text position beside a map) says nothing about
        # what is wrong inside the value: the alternatives of the value's own type do
        inside = [e for e in error.context if not (e.validator == "type" and not e.path)]
        best = best_match(inside or error.context)
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

Check = Callable[[Any], bool]
_IGNORED = {"description", "examples", "title", "default", "errorMessage", "$schema", "$id",
            "definitions"}
_TYPES: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
    "null": lambda v: v is None,
}


class _Unsupported(Exception):
    """A schema keyword the quick check does not know: always use jsonschema."""


def _quick(node: Any, root: dict[str, Any]) -> Check:
    """A check that answers True only for data the schema accepts (False means "run
    jsonschema to find out why"): valid files, the common case, skip the slow
    generic validator (a 2 MB card file: most of validation's time)."""
    if node is True or node == {}:
        return lambda value: True
    if not isinstance(node, dict):
        raise _Unsupported(node)
    checks: list[Any] = []  # closures with default arguments (mypy cannot type them)
    for keyword, arg in node.items():
        if keyword in _IGNORED:
            continue
        if keyword == "$ref":
            if not isinstance(arg, str) or not arg.startswith("#/definitions/"):
                raise _Unsupported(arg)
            target = root["definitions"][arg.split("/")[-1]]
            cell: list[Check] = []
            checks.append(lambda v, c=cell, t=target: (c or c.append(_quick(t, root)) or True)
                          and c[0](v))
        elif keyword == "type":
            names = arg if isinstance(arg, list) else [arg]
            tests = [_TYPES[n] for n in names]  # KeyError (number): unsupported
            checks.append(lambda v, ts=tests: any(t(v) for t in ts))
        elif keyword == "enum":
            options = list(arg)
            checks.append(lambda v, o=options: type(v) in (str, int) and v in o
                          and not isinstance(v, bool))
        elif keyword == "required":
            keys = list(arg)
            checks.append(lambda v, k=keys: not isinstance(v, dict) or all(x in v for x in k))
        elif keyword == "properties":
            props = {k: _quick(sub, root) for k, sub in arg.items()}
            checks.append(lambda v, p=props: not isinstance(v, dict) or all(
                p[k](x) for k, x in v.items() if k in p))
        elif keyword == "additionalProperties":
            known = set(node.get("properties", {}))
            if "patternProperties" in node:
                raise _Unsupported(keyword)
            if arg is False:
                checks.append(lambda v, k=known: not isinstance(v, dict) or all(
                    x in k for x in v))
            else:
                extra = _quick(arg, root)
                checks.append(lambda v, k=known, e=extra: not isinstance(v, dict) or all(
                    e(x) for key, x in v.items() if key not in k))
        elif keyword == "propertyNames":
            names_check = _quick(arg, root)
            checks.append(lambda v, n=names_check: not isinstance(v, dict) or all(
                n(k) for k in v))
        elif keyword == "items":
            item = _quick(arg, root)
            checks.append(lambda v, i=item: not isinstance(v, list) or all(i(x) for x in v))
        elif keyword in ("minItems", "maxItems", "minLength", "maxLength", "minProperties",
                         "maxProperties"):
            kind = list if "Items" in keyword else str if "Length" in keyword else dict
            low = keyword.startswith("min")
            checks.append(lambda v, n=arg, k=kind, lo=low: not isinstance(v, k) or (
                len(v) >= n if lo else len(v) <= n))
        elif keyword == "uniqueItems":
            checks.append(lambda v: not isinstance(v, list) or (
                all(type(x) in (str, int) for x in v) and len({(type(x), x) for x in v}) == len(v)))
        elif keyword in ("minimum", "maximum"):
            low = keyword == "minimum"
            checks.append(lambda v, n=arg, lo=low: not isinstance(v, (int, float))
                          or isinstance(v, bool) or (v >= n if lo else v <= n))
        elif keyword == "pattern":
            compiled = re.compile(arg)
            checks.append(lambda v, c=compiled: not isinstance(v, str) or c.search(v) is not None)
        elif keyword == "if":
            condition = _quick(arg, root)
            then = _quick(node.get("then", {}), root)
            otherwise = _quick(node.get("else", {}), root)
            checks.append(lambda v, c=condition, t=then, o=otherwise: t(v) if c(v) else o(v))
        elif keyword in ("then", "else"):
            continue  # read with "if"
        elif keyword == "anyOf":
            options_checks = [_quick(sub, root) for sub in arg]
            checks.append(lambda v, o=options_checks: any(c(v) for c in o))
        else:
            raise _Unsupported(keyword)
    return lambda value: all(check(value) for check in checks)


@lru_cache(maxsize=None)
def _quick_check(kind: str) -> Check | None:
    try:
        return _quick(schema(kind), schema(kind))
    except (_Unsupported, KeyError, re.error):
        return None


def validate(doc: Document, kind: str,
             refused: set[PathKey] | None = None) -> list[Diagnostic]:
    """Every schema error of a document of the given kind, located in its file.

    ``refused`` collects the paths of numbers outside their schema bounds (S106):
    the loader reads them as absent, so a count of 10^9 is reported, never used."""
    quick = _quick_check(kind)
    if quick is not None and quick(doc.data):
        return []
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
        return None, [Diagnostic("S102",
                                 f"missing required key 'kind' (one of: {', '.join(KINDS)})",
                                 doc.location(()))]
    if kind not in KINDS:
        return None, [Diagnostic("S104", f"'kind' is '{_show(kind)}', not one of: "
                                 f"{', '.join(KINDS)}", doc.location(("kind",)),
                                 text=_show(kind), suggestion=closest(str(kind), KINDS))]
    return str(kind), []
