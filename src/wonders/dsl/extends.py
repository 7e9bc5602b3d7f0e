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

A rule set may extend several (``extends: [expansions/leaders, expansions/cities]``):
:func:`combine` joins the parents first, in the order written, as changes to what
they have in common, and the child is merged over the result:

* a value a parent takes unchanged from an ancestor it shares with an earlier parent
  (both extend ``base``) is that ancestor's, which an earlier parent may have changed:
  the shared ancestor counts once;
* a value only one parent changes is that parent's; maps merge key by key;
* lists in ``vocabulary`` and the score sheet's ``score.order`` are united: the first
  parent's, then each later parent's names not in it yet, in its order;
* any other value two parents change differently is a *conflict*, reported by the
  loader (L709) unless the child sets that value itself.
"""

from __future__ import annotations

import copy
from typing import Any

from wonders.dsl.errors import Location
from wonders.dsl.source import Document, PathKey

# Keys of a rules document that are never inherited as written.
NOT_INHERITED = ("extends",)
# Keys of a rule set that name it: not joined from several parents (the child's own).
NAMING = ("kind", "name", "title")


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
        # the names of the files its values come from (itself and every ancestor)
        found: set[str] = {child.name}
        for doc, _ in owners.values():
            found |= sources(doc)
        self.sources: frozenset[str] = frozenset(found)

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


def sources(doc: Document) -> frozenset[str]:
    """The names of the files a document's values come from (a merged document's
    file and those of every rule set it extends)."""
    return doc.sources if isinstance(doc, MergedDocument) else frozenset((doc.name,))


def origin(doc: Document, path: PathKey) -> Document:
    """The file (its document, not a merge) that holds the value at ``path``."""
    while isinstance(doc, MergedDocument):
        doc, path = doc._owner(path)
    return doc


class Conflict:
    """Two parents of a rule set that change one value differently (L709 unless the
    child sets it): the path, and each parent's document with its value."""

    def __init__(self, path: PathKey, first: Document, first_value: Any, second: Document,
                 second_value: Any) -> None:
        self.path = path
        self.first = first
        self.first_value = first_value
        self.second = second
        self.second_value = second_value

    def settled_by(self, child: Any) -> bool:
        """Whether the child's data sets this value (or a non-map above it)."""
        node = child
        for part in self.path:
            if not isinstance(node, dict) or part not in node:
                return False
            node = node[part]
            if not isinstance(node, dict):
                return True
        return True


def _united(path: PathKey) -> bool:
    """Whether the list at ``path`` is united across parents, not replaced."""
    return path[:1] == ("vocabulary",) or path == ("score", "order")


def combine(parents: list[Document]) -> tuple[MergedDocument, list[Conflict]]:
    """Several parents joined into one rule set (see the module's rules), and the
    values two of them change differently (the loader reports those the child does not
    settle).  The result names the first parent; its lineage holds the others."""
    first = parents[0]
    data: dict[str, Any] = copy.deepcopy(first.data) if isinstance(first.data, dict) else {}
    owners: dict[PathKey, tuple[Document, PathKey]] = {(): (first, ())}
    seen = set(sources(first))
    conflicts: list[Conflict] = []
    for parent in parents[1:]:
        own = sources(parent)
        over = parent.data if isinstance(parent.data, dict) else {}
        _join(data, over, (), parent, owners, seen & own, own, conflicts)
        seen |= own
    for key in NOT_INHERITED:
        data.pop(key, None)
    names: list[str] = []
    for parent in parents:
        name = parent.data.get("name") if isinstance(parent.data, dict) else None
        if isinstance(name, str) and name not in names:
            names.append(name)
    for parent in parents:
        for name in (parent.lineage if isinstance(parent, MergedDocument) else ()):
            if name not in names:
                names.append(name)
    titles = [_own_title(p) for p in parents if isinstance(p.data, dict)]
    data["title"] = " + ".join(dict.fromkeys(titles))
    return MergedDocument(first, data, owners, tuple(names[1:])), conflicts


def _own_title(doc: Document) -> str:
    """The title a parent declares itself, else its name: a title made from the parents'
    own (" + ", " — ") is not repeated, so a lattice of rule sets (each extending several
    of the next) does not grow its titles with every path through it."""
    data = doc.data if isinstance(doc.data, dict) else {}
    if isinstance(doc, MergedDocument):
        owner = doc.owners.get(("title",))
        if owner is None or owner[1] != ("title",):
            return str(data.get("name", ""))
    return str(data.get("title", data.get("name", "")))


def _holder(owners: dict[PathKey, tuple[Document, PathKey]], path: PathKey) -> Document:
    for size in range(len(path), -1, -1):
        found = owners.get(path[:size])
        if found is not None:
            doc, base = found
            return origin(doc, base + path[size:])
    return origin(owners[()][0], path)


def _join(into: dict[str, Any], over: dict[str, Any], path: PathKey, parent: Document,
          owners: dict[PathKey, tuple[Document, PathKey]], common: set[str],
          own: frozenset[str], conflicts: list[Conflict]) -> None:
    for key, value in over.items():
        here = path + (key,)
        if not path and key in NAMING + NOT_INHERITED:
            continue
        old = into.get(key)
        if isinstance(value, dict) and isinstance(old, dict):
            _join(old, value, here, parent, owners, common, own, conflicts)
        elif _united(here) and isinstance(value, list) and isinstance(old, list):
            for i, item in enumerate(value):
                if item not in old:
                    owners[here + (len(old),)] = (parent, here + (i,))
                    old.append(copy.deepcopy(item))
        elif origin(parent, here).name in common:
            continue  # the shared ancestor's value (an earlier parent may have changed it)
        elif key not in into or old == value or _holder(owners, here).name in own:
            into[key] = copy.deepcopy(value)  # new, the same, or the ancestor's overridden
            owners[here] = (parent, here)
        else:
            conflicts.append(Conflict(here, _holder(owners, here), old, origin(parent, here),
                                      value))


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
    lineage = tuple(dict.fromkeys(lineage))
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


__all__ = ["Conflict", "MergedDocument", "combine", "merge", "origin", "sources"]
