"""Rule sets that inherit: ``extends: base`` and only what differs.

A rule-set file may name another rule set (a shipped game's name, or a path to a
rule-set file or folder, relative to the file that says it) under ``extends:``.
The loader (:mod:`.loader`) reads the parent — itself perhaps extending another —
and this module merges the two documents:

* maps merge key by key, recursively (``setup: {coins: 5}`` changes the starting
  coins and keeps the parent's ``wonder_side``);
* lists in ``vocabulary`` are *additions*: the child's names join the parent's
  (``colours: [black]`` adds a colour), so a variant never has to repeat the
  vocabulary it inherits;
* every other value (a number, a string, a list such as ``military.victory``)
  is replaced by the child's;
* ``name`` and ``title`` are the child's (a title defaults to the parent's with
  the child's name after it), and ``extends`` itself is not part of the result.

The merged document keeps where every value came from: a problem in an inherited
value is reported in the parent's file, a problem in an override in the child's,
so a chain of variants stays as well located as a single file.

Cards, wonders and tokens of the parent are loaded with the child (see the
loader): a card or token the variant defines under an inherited name replaces it,
a wonder under an inherited name replaces the sides it gives, and ``remove:``
lists drop cards, wonders or single sides.
"""

from __future__ import annotations

import copy
from typing import Any

from .errors import Location
from .source import Document, PathKey

# Keys of a rules document that are never inherited as written.
NOT_INHERITED = ("extends",)


class MergedDocument(Document):
    """A rule-set document merged from a parent and a child, each value located in
    the file it came from (:meth:`location` and :meth:`string_location` ask the
    document that owns the value)."""

    def __init__(self, child: Document, data: Any,
                 owners: dict[PathKey, tuple[Document, PathKey]],
                 lineage: tuple[str, ...]) -> None:
        super().__init__(child.source, data)
        self.owners = owners
        self.lineage = lineage  # the rule sets it extends, nearest first

    def _owner(self, path: PathKey) -> tuple[Document, PathKey]:
        probe = tuple(path)
        for size in range(len(probe), -1, -1):
            found = self.owners.get(probe[:size])
            if found is not None:
                doc, base = found
                return doc, base + probe[size:]
        return Document(self.source, self.data), probe  # not reached: () is always owned

    def location(self, path: PathKey, *, key: bool = False) -> Location:
        doc, own = self._owner(path)
        return doc.location(own, key=key)

    def string_location(self, path: PathKey, offset: int) -> Location:
        doc, own = self._owner(path)
        return doc.string_location(own, offset)


def merge(parent: Document, child: Document) -> MergedDocument:
    """The child's rule set over its parent's (see the module's rules)."""
    data: dict[str, Any] = copy.deepcopy(parent.data) if isinstance(parent.data, dict) else {}
    owners: dict[PathKey, tuple[Document, PathKey]] = {(): (parent, ())}
    child_data = child.data if isinstance(child.data, dict) else {}
    for key in NOT_INHERITED:
        data.pop(key, None)
    _overlay(data, child_data, (), child, owners)
    for key in NOT_INHERITED:
        data.pop(key, None)
    parent_name = str(parent.data.get("name", "")) if isinstance(parent.data, dict) else ""
    if "title" not in child_data and isinstance(child_data.get("name"), str):
        title = parent.data.get("title", parent_name) if isinstance(parent.data, dict) else ""
        data["title"] = f"{title} — {child_data['name']}"
        owners[("title",)] = (child, ("name",))
    lineage = (parent_name,) + (parent.lineage if isinstance(parent, MergedDocument) else ())
    return MergedDocument(child, data, owners, lineage)


def _overlay(into: dict[str, Any], over: dict[str, Any], path: PathKey, child: Document,
             owners: dict[PathKey, tuple[Document, PathKey]]) -> None:
    for key, value in over.items():
        here = path + (key,)
        old = into.get(key)
        if isinstance(value, dict) and isinstance(old, dict):
            _overlay(old, value, here, child, owners)
        elif here[:1] == ("vocabulary",) and isinstance(value, list) and isinstance(old, list):
            for i, item in enumerate(value):
                if item not in old:
                    owners[here + (len(old),)] = (child, here + (i,))
                    old.append(copy.deepcopy(item))
        else:
            into[key] = copy.deepcopy(value)
            owners[here] = (child, here)


__all__ = ["MergedDocument", "merge"]
