"""Load files into a validated, compiled :class:`~wonders.dsl.model.Game`.

The pipeline, each step collecting diagnostics rather than stopping:

1. gather YAML files from paths and/or a shipped game (``--game base``);
2. load each safely, with positions (:mod:`.source`);
3. check its shape against the shipped JSON Schema of its ``kind`` (:mod:`.schema`);
4. pick the rule set (a card file's ``game:`` brings in the shipped game when
   no rule set is given) and build its vocabulary;
5. compile every cost and effect string against that vocabulary (:mod:`.compiler`);
6. check chains (:mod:`.chains`) and decks (:mod:`.decks`).
"""

from __future__ import annotations

import errno
import hashlib
import importlib.util
import json
import os
import re
import stat
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

import yaml

from wonders.dsl import effects as fx
from wonders.dsl.chains import Chains, check_chains, links_of
from wonders.dsl.compiler import DRAFT_EVENT, compile_cost, compile_effects, compile_formula
from wonders.dsl.components import build_components
from wonders.dsl.decks import check_decks
from wonders.dsl.errors import DataError, Diagnostic, Location, Report, Severity, closest
from wonders.dsl.extends import MergedDocument, combine, merge
from wonders.dsl.formula import Formula
from wonders.dsl.model import Card, Game, RuleSet, Stage, Token, Wonder, WonderSide
from wonders.dsl.parser import parse_effects
from wonders.dsl.rules_model import DrawPool, RuleModel, decimal, read_rules
from wonders.dsl.schema import detect_kind, validate
from wonders.dsl.sheets import build_dice
from wonders.dsl.source import Document, PathKey, load_file
from wonders.dsl.values import as_list as _list
from wonders.dsl.values import as_map as _map
from wonders.dsl.vocabulary import Vocabulary

if TYPE_CHECKING:  # the chain graph's type only (wonders.dsl.chains builds it)
    import networkx as nx

YAML_SUFFIXES = (".yaml", ".yml")

# Kinds of YAML file that may sit among data files but are not data: skipped, noted (L708).
SKIPPED_KINDS = ("scenarios",)

# The longest chain of rule sets extending one another (a longer one is surely a mistake).
MAX_EXTENDS = 64


def _package_dir(package: str) -> Path | None:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        if os.path.isdir(location):
            return Path(location)
    return None


def games_dir() -> Path | None:
    """Where the shipped games (``cards/``) are installed."""
    return _package_dir("wonders.cards")


def expansions_dir() -> Path | None:
    """Where the shipped expansions and examples (``expansions/``) are installed."""
    return _package_dir("wonders.expansions")


def shipped_games() -> dict[str, Path]:
    """Shipped games by name: each folder of ``cards/`` with a ``rules.yaml``."""
    root = games_dir()
    if root is None:
        return {}
    return {p.name: p for p in sorted(root.iterdir()) if (p / "rules.yaml").is_file()}


def shipped_expansions() -> dict[str, Path]:
    root = expansions_dir()
    if root is None:
        return {}
    return {p.name: p for p in sorted(root.iterdir()) if p.is_dir()
            and any(p.glob("*.yaml"))}


# Bounds of a folder walk (``validate FOLDER``, ``--game FOLDER``): a folder of card files
# is small, so a walk that looks at more entries or goes deeper than this was given the
# wrong folder (a home folder, the file-system root) and stops with L701 instead of
# walking for minutes.  The file-system root itself is refused outright.
MAX_FOLDER_ENTRIES = 10_000
MAX_FOLDER_DEPTH = 12


def _os_reason(exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "a symbolic link loop"
    if exc.errno == errno.ENOENT:
        return "a broken symbolic link (its target does not exist)"
    return exc.strerror or str(exc)


def file_problem(path: Path) -> str | None:
    """Why ``path`` cannot be read as a data file or folder, or None: only regular files
    and folders are read (never a FIFO, a socket or a device, which could block or
    never end), symbolic link loops and unreadable entries are refused, and so is the
    file-system root as a folder."""
    try:
        status = os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ENOENT and not os.path.lexists(path):
            return "no such file or folder"
        return f"cannot read it: {_os_reason(exc)}"
    except ValueError:  # a NUL byte in the name
        return "not a valid path"
    if stat.S_ISDIR(status.st_mode):
        if os.path.realpath(path) == os.path.abspath(os.sep):
            return ("the folder is the file-system root: give the folder of a game or of "
                    "card files")
        return None
    if not stat.S_ISREG(status.st_mode):
        return ("not a regular file (a FIFO, a socket or a device): only regular files and "
                "folders are read")
    return None


def walk_yaml(folder: Path) -> tuple[list[Path], list[Diagnostic]]:
    """The YAML files under ``folder`` (sorted), and a diagnostic for each entry that
    cannot be read (Y001: a special file, a symbolic link loop, a broken link, an
    unreadable folder) or for a walk beyond its bounds (L701: the file-system root,
    more than :data:`MAX_FOLDER_ENTRIES` entries or :data:`MAX_FOLDER_DEPTH` levels).
    Iterative, and symbolic links to folders are not followed, so it always ends."""
    problems: list[Diagnostic] = []
    refused = file_problem(folder)
    if refused is not None:
        return [], [Diagnostic("L701", refused, Location(display_name(folder)))]
    files: list[Path] = []
    seen = 0
    stack: list[tuple[str, int]] = [(str(folder), 0)]
    while stack:
        current, depth = stack.pop()
        try:
            with os.scandir(current) as listing:
                entries = []
                for entry in listing:
                    seen += 1
                    if seen > MAX_FOLDER_ENTRIES:
                        problems.append(Diagnostic(
                            "L701", f"the folder holds more than {MAX_FOLDER_ENTRIES:,} "
                            "entries: give the folder of a game or of card files",
                            Location(display_name(folder))))
                        return sorted(files), problems
                    entries.append(entry)
        except OSError as exc:
            problems.append(Diagnostic("Y001", f"cannot read the folder: {_os_reason(exc)}",
                                       Location(display_name(Path(current)))))
            continue
        for entry in entries:
            try:
                is_folder = entry.is_dir(follow_symlinks=False)
            except OSError:
                is_folder = False
            if is_folder:
                if depth + 1 > MAX_FOLDER_DEPTH:
                    problems.append(Diagnostic(
                        "L701", f"folders nest more than {MAX_FOLDER_DEPTH} levels deep: give "
                        "the folder of a game or of card files",
                        Location(display_name(Path(entry.path)))))
                    return sorted(files), problems
                stack.append((entry.path, depth + 1))
                continue
            if os.path.splitext(entry.name)[1] not in YAML_SUFFIXES:
                continue
            try:
                status = os.stat(entry.path)
            except OSError as exc:
                problems.append(Diagnostic("Y001", f"cannot read the file: {_os_reason(exc)}",
                                           Location(display_name(Path(entry.path)))))
                continue
            if stat.S_ISDIR(status.st_mode):  # a link to a folder: not followed
                continue
            if not stat.S_ISREG(status.st_mode):
                problems.append(Diagnostic(
                    "Y001", "not a regular file (a FIFO, a socket or a device): only regular "
                    "files are read", Location(display_name(Path(entry.path)))))
                continue
            files.append(Path(entry.path))
    return sorted(files), problems


def kind_of(path: Path) -> str | None:
    """A file's ``kind:`` read cheaply (a top-level ``kind: NAME`` line, else a full
    parse); None when it cannot be told.  Used to pick a rule set among files before
    they are loaded properly."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    found = _KIND_LINE.search(text)
    if found is not None:
        return found.group(1)
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return None
    kind = data.get("kind") if isinstance(data, dict) else None
    return kind if isinstance(kind, str) else None


_KIND_LINE = re.compile(r"^kind:[ \t]*['\"]?([A-Za-z_]+)['\"]?[ \t]*(?:#.*)?$", re.MULTILINE)


def looks_like_path(text: str) -> bool:
    """Whether a game given by name is meant as a path (it has a separator, a YAML
    suffix, or is '.' or '..'): a path is never taken for a shipped game's name."""
    return ("/" in text or os.sep in text or text.endswith(YAML_SUFFIXES)
            or text in (".", ".."))


def find_parent(target: str, folder: Path) -> tuple[Path, list[Path]] | str:
    """What ``extends: TARGET`` (written in a file of ``folder``) names: the parent's
    rule-set file and the other data files that go with it, or why nothing fits.

    A shipped game's name gives its folder; a path (relative to ``folder``) to a folder
    gives the one rule set in it and its other files; a path to a rule-set file gives
    it and the data files beside it (other rule sets left out, as with ``--game``)."""
    games = {**shipped_variants(), **shipped_games()}
    if target in games and not looks_like_path(target):
        root = games[target]
        return root / "rules.yaml", [p for p in yaml_files(root)
                                     if p.name != "rules.yaml" or p.parent != root]
    path = Path(target) if os.path.isabs(target) else folder / target
    refused = file_problem(path)
    if refused is not None:
        if refused == "no such file or folder":
            return (f"'extends: {target}' names no shipped game ('wonders games' lists "
                    f"them) and no file or folder ({display_name(path)} does not exist)")
        return f"'extends: {target}': {display_name(path)}: {refused}"
    if path.is_dir():
        files = yaml_files(path)
        rules = [f for f in files if kind_of(f) == "rules"]
        if len(rules) != 1:
            return (f"'extends: {target}': the folder {display_name(path)} holds "
                    f"{len(rules)} rule sets; name the rule-set file")
        return rules[0], [f for f in files if f != rules[0] and goes_beside(kind_of(f))]
    beside = [f for f in yaml_beside(path)[0] if goes_beside(kind_of(f))]
    return path, beside


def goes_beside(kind: str | None) -> bool:
    """Whether a file of this kind beside a rule-set file is part of its game: every
    data file but another rule set (variants sit side by side) and scenario files."""
    return kind != "rules" and kind not in SKIPPED_KINDS


def yaml_files(folder: Path) -> list[Path]:
    """The readable YAML files under ``folder`` (see :func:`walk_yaml`)."""
    return walk_yaml(folder)[0]


def yaml_beside(path: Path) -> tuple[list[Path], list[Diagnostic]]:
    """The YAML files in the folder of ``path`` itself (sorted, ``path`` left out), and a
    diagnostic for each that cannot be read: what comes with a rule-set file.

    Only that folder, not the folders below it: a house rule saved in a home or temporary
    folder must not take that folder's whole tree as its data.  Other entries are not
    counted; more than :data:`MAX_FOLDER_ENTRIES` YAML files is L701."""
    folder = path.parent
    problems: list[Diagnostic] = []
    refused = file_problem(folder)
    if refused is not None:
        return [], [Diagnostic("L701", refused, Location(display_name(folder)))]
    found: list[Path] = []
    try:
        with os.scandir(folder) as listing:
            for entry in listing:
                if os.path.splitext(entry.name)[1] not in YAML_SUFFIXES:
                    continue
                try:
                    status = os.stat(entry.path)
                except OSError as exc:
                    problems.append(Diagnostic("Y001", f"cannot read the file: "
                                               f"{_os_reason(exc)}",
                                               Location(display_name(Path(entry.path)))))
                    continue
                if stat.S_ISDIR(status.st_mode):  # a folder named *.yaml, or a link to one
                    continue
                if not stat.S_ISREG(status.st_mode):
                    problems.append(Diagnostic(
                        "Y001", "not a regular file (a FIFO, a socket or a device): only "
                        "regular files are read", Location(display_name(Path(entry.path)))))
                    continue
                if len(found) >= MAX_FOLDER_ENTRIES:
                    problems.append(Diagnostic(
                        "L701", f"the folder holds more than {MAX_FOLDER_ENTRIES:,} YAML "
                        "files: put the rule set in a folder of its own",
                        Location(display_name(folder))))
                    break
                found.append(Path(entry.path))
    except OSError as exc:
        problems.append(Diagnostic("Y001", f"cannot read the folder: {_os_reason(exc)}",
                                   Location(display_name(folder))))
    target = path.resolve()
    return sorted(f for f in found if f.resolve() != target), problems


def display_name(path: Path) -> str:
    """A path as people want to read it: relative to the working folder when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError, RuntimeError):  # outside it; a link loop
        return str(path)


@dataclass
class LoadResult:
    """What a load produced: the game (None when the data has errors) and the diagnostics."""

    game: Game | None
    report: Report
    chains: Chains | None = None
    files: list[str] = field(default_factory=list)
    partial: Game | None = None  # what could be built even with errors (for listing)

    @property
    def graph(self) -> "nx.DiGraph[str] | None":
        """The chain graph (networkx, imported and built when first asked for)."""
        return None if self.chains is None else self.chains.graph

    @property
    def ok(self) -> bool:
        return self.report.ok


@dataclass
class _Doc:
    doc: Document
    kind: str
    depth: int = 0  # 0: the files given; 1: the rule set they extend; 2: its parent …


class _Compiler:
    """Compiles strings of documents, placing each problem in its file."""

    def __init__(self, vocabulary: Vocabulary, report: Report) -> None:
        self.vocabulary = vocabulary
        self.report = report
        self._effects: dict[str, tuple[fx.Effects, list[Any]]] = {}
        self._costs: dict[str, tuple[fx.Cost, list[Any]]] = {}

    def _place(self, doc: Document, path: PathKey, text: str, problems: Iterable[Any]) -> None:
        for p in problems:
            self.report.add(Diagnostic(
                p.code, p.message, doc.string_location(path, p.start), severity=p.severity,
                text=text[p.start:p.end] or None, suggestion=p.suggestion))

    def effects(self, doc: Document, path: PathKey, wonder: bool = False) -> fx.Effects | None:
        """The compiled effect string at ``path`` (None: absent or wrong); ``wonder``: a
        wonder's own effect, the only one a wonder draft picks (``on draft:``, T422)."""
        text = doc.get(path)
        if not isinstance(text, str):
            return None
        if text not in self._effects:
            self._effects[text] = compile_effects(text, self.vocabulary)
        value, problems = self._effects[text]
        self._place(doc, path, text, problems)
        if not problems and not wonder:
            self._not_drafted(doc, path, text, value)
        return None if problems else value

    def _not_drafted(self, doc: Document, path: PathKey, text: str, value: fx.Effects) -> None:
        """T422 for each ``on draft:`` clause of what is not a wonder (nothing picks it)."""
        drafted = [i for i, c in enumerate(value.clauses)
                   if c.trigger is not None and c.trigger.event == DRAFT_EVENT]
        if not drafted:
            return
        clauses = parse_effects(text).clauses   # (compiled: it parses)
        for i in drafted:
            span = clauses[i].timing_span or clauses[i].span
            self.report.add(Diagnostic(
                "T422", "'on draft:' acts as a wonder is picked in the wonder draft: only a "
                "wonder's effect has it (not a card's, a token's, a board's start or a "
                "rule's)", doc.string_location(path, span.start),
                text=text[span.start:span.end]))

    def cost(self, doc: Document, path: PathKey) -> fx.Cost | None:
        text = doc.get(path)
        if not isinstance(text, str):
            return None
        if text not in self._costs:
            self._costs[text] = compile_cost(text, self.vocabulary)
        value, problems = self._costs[text]
        self._place(doc, path, text, problems)
        return None if problems else value

    def formula(self, doc: Document, path: PathKey) -> Formula | None:
        raw = doc.get(path)
        if isinstance(raw, bool) or not isinstance(raw, (str, int)):
            return None
        text = str(raw)
        value, problems = compile_formula(text, self.vocabulary)
        self._place(doc, path, text, problems)
        return None if problems else value


class _Load:
    def __init__(self) -> None:
        self.report = Report()
        self.docs: list[_Doc] = []
        self.seen: set[Path] = set()
        self.hashes: dict[str, str] = {}
        self.extending: list[Path] = []  # the rule-set files being extended (cycles)
        self.broken_extends = False      # an 'extends:' failed (already reported)
        self.replacing: list[tuple[str, Location]] = []  # each card's 'replaces:' and its place
        # each parent rule set read so far (its resolved file): its merged document (None:
        # refused, and reported) and how many 'extends:' levels lie beneath it, so a parent
        # several rule sets extend is read and merged once (a lattice of n files: n reads)
        self.parents: dict[Path, tuple[Document | None, int]] = {}
        self.reach = 0  # the longest chain of rule sets being extended met so far

    # --- files -------------------------------------------------------------------

    def add_path(self, path: Path, depth: int = 0) -> None:
        refused = file_problem(path)
        if refused is not None:
            code = "L701" if refused == "no such file or folder" or path.is_dir() else "Y001"
            self.report.add(Diagnostic(code, refused, Location(display_name(path))))
        elif path.is_dir():
            files, problems = walk_yaml(path)
            self.report.extend(problems)
            if not files and not problems:
                self.report.add(Diagnostic("L701", "the folder holds no .yaml files",
                                           Location(display_name(path))))
            for file in files:
                self.add_file(file, depth)
        else:
            self.add_file(path, depth)

    def add_file(self, path: Path, depth: int = 0) -> None:
        entry = self.read(path, depth)
        if entry is not None:
            self.docs.append(entry)

    def read(self, path: Path, depth: int) -> _Doc | None:
        """One file, loaded, its kind detected and its shape checked; a rule set that
        extends another comes back merged with it (its parent's other files join the
        load).  None when there is nothing to build from it."""
        resolved = path.resolve()
        if resolved in self.seen:
            return None
        self.seen.add(resolved)
        doc, problems = load_file(path, display_name(path))
        self.report.extend(problems)
        if doc is None:
            return None
        self.hashes[str(resolved)] = hashlib.sha256(doc.source.text.encode("utf-8")).hexdigest()
        if isinstance(doc.data, dict) and doc.data.get("kind") in SKIPPED_KINDS:
            # a scenario file among data files (tests/ beside cards/): not data, noted
            self.report.add(Diagnostic(
                "L708", f"skipped: a '{doc.data['kind']}' file is not game data (run it "
                "with 'wonders check')", doc.location(("kind",)), severity=Severity.WARNING,
                text=str(doc.data["kind"])))
            return None
        kind, problems = detect_kind(doc)
        self.report.extend(problems)
        if kind is None:
            return None
        refused: set[PathKey] = set()
        extending = kind == "rules" and isinstance(doc.data.get("extends"), (str, list))
        # a variant writes only what differs: a key its parent gives is not missing (the
        # merged rule set is checked for missing keys below)
        self.report.extend(d for d in validate(doc, kind, refused)
                           if not (extending and d.code == "S102"))
        _drop(doc, refused)
        if extending:
            merged = self.extend(doc, resolved, depth)
            if merged is None:
                self.broken_extends = True
                return None
            self.report.extend(d for d in validate(merged, kind) if d.code == "S102")
            doc = merged
        return _Doc(doc, kind, depth)

    def extend(self, doc: Document, resolved: Path, depth: int) -> Document | None:
        """The rule set(s) ``doc`` extends, read (with their cards, wonders and tokens,
        which join the load one level deeper) and merged under ``doc``; None, reported at
        ``extends:``, for a parent that cannot be found, is no rule set, or closes a
        cycle, or for two parents that change one value differently (L709) when ``doc``
        does not settle it."""
        written = doc.data["extends"]
        targets: list[tuple[str, PathKey]] = (
            [(written, ("extends",))] if isinstance(written, str) else
            [(t, ("extends", i)) for i, t in enumerate(written) if isinstance(t, str)])
        if not targets:
            return None  # an empty list or no names: the schema said so
        parents: list[Document] = []
        read: set[Path] = set()
        ok = True
        for target, path in targets:
            found = self.parent(doc, target, path, resolved, depth, read)
            if found is None:
                ok = False
            elif isinstance(found, Document):
                parents.append(found)
        if not ok or not parents:
            return None
        if len(parents) == 1:
            return merge(parents[0], doc)
        joined, conflicts = combine(parents)
        unsettled = [c for c in conflicts if not c.settled_by(doc.data)]
        for conflict in unsettled:
            dotted = ".".join(str(p) for p in conflict.path)
            self.report.add(Diagnostic(
                "L709", f"the rule sets it extends set '{dotted}' differently: "
                f"{_shown(conflict.first_value)} "
                f"({conflict.first.location(conflict.path)}) and "
                f"{_shown(conflict.second_value)} "
                f"({conflict.second.location(conflict.path)}); "
                f"set '{dotted}' in this rule set to choose", doc.location(("extends",)),
                text=None))
        if unsettled:
            return None
        return merge(joined, doc)

    def parent(self, doc: Document, target: str, path: PathKey, resolved: Path, depth: int,
               read: set[Path]) -> Document | bool | None:  # (True: named before)
        """One parent named at ``path``: its merged rule set, True for one already named
        (a parent named twice counts once), None when it is refused (reported)."""
        where = doc.location(path)
        found = find_parent(target, resolved.parent)
        if isinstance(found, str):
            self.report.add(Diagnostic("L706", found, where, text=target,
                                       suggestion=closest(target, [
                                           *_parent_names(),
                                           *(p.name for p in
                                             sorted(resolved.parent.glob("*.yaml")))])))
            return None
        rules_file, others = found
        if rules_file.resolve() in read:
            return True
        read.add(rules_file.resolve())
        chain = [*self.extending, resolved]
        known = self.parents.get(rules_file.resolve())
        if known is not None:  # read and merged before, on another path of the graph
            merged, height = known
            self.reach = max(self.reach, len(chain) + height)
            if merged is not None and len(chain) + height > MAX_EXTENDS:
                self.report.add(Diagnostic(
                    "L707", f"'extends: {target}' makes a chain of more than {MAX_EXTENDS} "
                    "rule sets", where, text=target))
                return None
            return merged
        if rules_file.resolve() in chain:
            names = " -> ".join(display_name(p) for p in
                                chain[chain.index(rules_file.resolve()):] + [rules_file])
            self.report.add(Diagnostic(
                "L707", f"'extends: {target}' closes a cycle ({names}): a rule set cannot "
                "extend itself, directly or through others", where, text=target))
            return None
        if len(chain) > MAX_EXTENDS:
            self.report.add(Diagnostic(
                "L707", f"'extends: {target}' makes a chain of more than {MAX_EXTENDS} rule "
                "sets", where, text=target))
            return None
        self.extending.append(resolved)
        outer, self.reach = self.reach, len(chain)
        try:
            self.seen.discard(rules_file.resolve())  # read it here even if listed too
            parent = self.read(rules_file, depth + 1)
        finally:
            self.extending.pop()
            height = self.reach - len(chain)
            self.reach = max(outer, self.reach)
        if parent is None or parent.kind != "rules":
            if parent is not None or not self.broken_extends:
                self.report.add(Diagnostic(
                    "L706", f"'extends: {target}' names {display_name(rules_file)}, which is "
                    "not a rule set (kind: rules)", where, text=target))
            self.parents[rules_file.resolve()] = (None, height)
            return None
        for other in others:
            self.add_file(other, depth + 1)
        self.parents[rules_file.resolve()] = (parent.doc, height)
        return parent.doc

    # --- the rule set --------------------------------------------------------------

    def choose_rules(self) -> _Doc | None:
        rules = [d for d in self.docs if d.kind == "rules"]
        if not rules:
            wanted = {d.doc.data.get("game") for d in self.docs if d.kind != "rules"
                      and isinstance(d.doc.data.get("game"), str)}
            wanted.discard(None)
            games = shipped_games()
            named = self.docs
            self.docs = []
            for name in sorted(str(w) for w in wanted):
                if name in games:
                    self.add_path(games[name])
            # the game comes first, as with --game: an expansion's cards follow it, so
            # deck and duplicate errors point at the expansion, not at the shipped files
            self.docs += named
            rules = [d for d in self.docs if d.kind == "rules"]
        if not rules and self.broken_extends:
            return None  # the rule set's 'extends:' is wrong, and said so
        if not rules:
            doc = next((d for d in self.docs if d.kind != "rules"), None)
            games = shipped_games()
            if doc is not None and isinstance(doc.doc.data.get("game"), str):
                name = doc.doc.data["game"]
                self.report.add(Diagnostic(
                    "L702", f"no rule set named '{name}' is loaded or shipped (shipped: "
                    f"{', '.join(games) or 'none'})", doc.doc.location(("game",)), text=name,
                    suggestion=closest(name, games)))
            elif self.docs:
                self.report.add(Diagnostic(
                    "L702", "no rule set: load a rules file or name a shipped game with --game",
                    Location(self.docs[0].doc.name)))
            return None
        for extra in rules[1:]:
            self.report.add(Diagnostic(
                "L703", f"a second rule set '{extra.doc.data.get('name')}': a game has one "
                f"(the first is {rules[0].doc.name})", extra.doc.location(("kind",))))
        return rules[0]

    def build_rules(self, entry: _Doc) -> RuleSet | None:
        doc = entry.doc
        data = doc.data
        vocab_data = data.get("vocabulary")
        if not isinstance(vocab_data, dict):
            return None
        vocabulary = Vocabulary.from_data(vocab_data)
        compiler = _Compiler(vocabulary, self.report)
        self.compiler = compiler
        players = data.get("players") if isinstance(data.get("players"), dict) else {}
        low, high = players.get("min", 3), players.get("max", 7)
        if not isinstance(low, int) or not isinstance(high, int):
            return None
        if low > high:
            self.report.add(Diagnostic("R801", f"players min ({low}) is above max ({high})",
                                       doc.location(("players",))))
        sections = read_rules(data)  # the typed sections; their defaults live there
        ages = _map(data.get("ages"))
        count = sections.ages.count
        hands = ages.get("hand")
        if isinstance(hands, list) and len(hands) != count:
            self.report.add(Diagnostic(
                "R802", f"'hand' gives {len(hands)} hand sizes for {count} ages",
                doc.location(("ages", "hand"))))
        passes = ages.get("pass")
        if isinstance(passes, list) and len(passes) != count:
            self.report.add(Diagnostic(
                "R802", f"'pass' gives {len(passes)} directions for {count} ages",
                doc.location(("ages", "pass"))))
        military = _map(data.get("military"))
        victory = military.get("victory")
        if isinstance(victory, list) and len(victory) != count:
            self.report.add(Diagnostic(
                "R802", f"'victory' gives {len(victory)} values for {count} ages",
                doc.location(("military", "victory"))))
        tokens = self_tokens = vocabulary.tokens
        sit_out = military.get("sit_out")
        if isinstance(sit_out, str) and sit_out not in tokens:
            self.report.add(Diagnostic(
                "N305", f"unknown token kind '{sit_out}' in military.sit_out; the rule set "
                f"declares: {', '.join(tokens) or 'none'}", doc.location(("military", "sit_out")),
                suggestion=closest(sit_out, list(tokens)), text=sit_out))
        for kind in _map(_map(data.get("score")).get("worth")):
            if kind not in self_tokens:
                self.report.add(Diagnostic(
                    "N305", f"unknown token kind '{kind}' in score.worth; the rule set "
                    f"declares: {', '.join(tokens) or 'none'}",
                    doc.location(("score", "worth", kind), key=True),
                    suggestion=closest(str(kind), list(tokens)), text=str(kind)))
        for i, age in enumerate(_list(military.get("ages"))):
            if isinstance(age, int) and age > count:
                self.report.add(Diagnostic(
                    "R802", f"military.ages names age {age}, but the rule set has {count} ages",
                    doc.location(("military", "ages", i)), text=str(age)))
        draws: list[DrawPool] = []
        for i, draw in enumerate(_list(ages.get("draw"))):
            if not isinstance(draw, dict):
                continue
            colour = draw.get("colour")
            if isinstance(colour, str) and colour not in vocabulary.colours:
                self.report.add(Diagnostic(
                    "N302", f"unknown colour '{colour}'",
                    doc.location(("ages", "draw", i, "colour")),
                    text=colour, suggestion=closest(colour, vocabulary.colours)))
            formula = compiler.formula(doc, ("ages", "draw", i, "count"))
            if formula is not None and isinstance(draw.get("age"), int) and isinstance(colour, str):
                draws.append(DrawPool(draw["age"], colour, formula,
                                      doc.location(("ages", "draw", i, "count"))))
        trade = _map(data.get("trade"))
        for i, name in enumerate(_list(trade.get("buyable"))):
            if name != "start" and name not in vocabulary.colours:
                known = ("start",) + vocabulary.colours
                self.report.add(Diagnostic(
                    "N302", f"'{name}' in trade.buyable is neither 'start' nor a colour",
                    doc.location(("trade", "buyable", i)), text=str(name),
                    suggestion=closest(str(name), known)))
        score = _map(data.get("score"))
        order = _list(score.get("order"))
        if "order" in score and not order and isinstance(score.get("order"), list):
            # (an empty list would fall back to the base game's lines: points scored under
            # names the rule set never meant)
            lines = sorted({str(v) for v in (*_map(score.get("colours")).values(),
                                             *_map(score.get("tokens")).values())})
            self.report.add(Diagnostic(
                "R803", "score.order is empty: the score sheet needs its lines, in order"
                + (f" (score.colours and score.tokens name {', '.join(lines)})"
                   if lines else ""), doc.location(("score", "order")), text="[]"))
        for colour, line in _map(score.get("colours")).items():
            if colour not in vocabulary.colours:
                self.report.add(Diagnostic(
                    "N302", f"unknown colour '{colour}' in score.colours",
                    doc.location(("score", "colours", colour), key=True), text=colour,
                    suggestion=closest(colour, vocabulary.colours)))
            if order and line not in order:
                self.report.add(Diagnostic(
                    "R803", f"score line '{line}' is not in score.order",
                    doc.location(("score", "colours", colour)), text=str(line),
                    suggestion=closest(str(line), [str(o) for o in order])))
        for kind, line in _map(score.get("tokens")).items():
            self.known_name(doc, ("score", "tokens", kind), kind, vocabulary.tokens, "N305",
                            "token kind", key=True)
            if order and line not in order:
                self.report.add(Diagnostic(
                    "R803", f"score line '{line}' is not in score.order",
                    doc.location(("score", "tokens", kind)), text=str(line),
                    suggestion=closest(str(line), [str(o) for o in order])))
        self.check_setup(doc, data, sections, vocabulary, high)
        reserve = _map(data.get("reserve"))
        if isinstance(reserve.get("colour"), str):
            self.known_name(doc, ("reserve", "colour"), reserve["colour"], vocabulary.colours,
                            "N302", "colour")
        self.check_track(doc, data, sections)
        add = _map(trade.get("add"))
        for i, colour in enumerate(_list(add.get("colours"))):
            self.known_name(doc, ("trade", "add", "colours", i), colour, vocabulary.colours,
                            "N302", "colour")
        if isinstance(add.get("place"), str):
            self.known_name(doc, ("trade", "add", "place"), add["place"], vocabulary.places,
                            "N304", "place")
        self.check_layouts(doc, data, sections)
        sell = compiler.effects(doc, ("sell",)) if "sell" in data else None
        treasury = compiler.effects(doc, ("treasury",)) if "treasury" in data else None
        science = _map(data.get("science"))
        pair = compiler.effects(doc, ("science", "pair")) if "pair" in science else None
        return RuleSet(
            name=str(data.get("name", "")), title=str(data.get("title", data.get("name", ""))),
            min_players=low, max_players=high, vocabulary=vocabulary,
            model=sections.compiled(tuple(draws), sell, treasury, pair), parameters=data,
            location=doc.location(()),
            lineage=doc.lineage if isinstance(doc, MergedDocument) else ())

    def known_name(self, doc: Document, path: PathKey, name: object, known: tuple[str, ...],
                   code: str, what: str, key: bool = False) -> bool:
        """Report ``name`` (at ``path`` in a rules file) unless the vocabulary has it."""
        if not isinstance(name, str) or name in known:
            return True
        listing = ", ".join(known) if known else "none"
        self.report.add(Diagnostic(
            code, f"unknown {what} '{name}'; the rule set declares: {listing}",
            doc.location(path, key=key), text=name, suggestion=closest(name, known)))
        return False

    def check_setup(self, doc: Document, data: dict[str, Any], sections: RuleModel,
                    vocabulary: Vocabulary, players: int) -> None:
        """``setup.tokens`` names token kinds and pools; ``setup.wonders`` picks add up."""
        setup = _map(data.get("setup"))
        for kind, pools in _map(setup.get("tokens")).items():
            self.known_name(doc, ("setup", "tokens", kind), kind, vocabulary.tokens, "N305",
                            "token kind", key=True)
            for pool in _map(pools):
                self.known_name(doc, ("setup", "tokens", kind, pool), pool, vocabulary.pools,
                                "N309", "token pool", key=True)
        if sections.setup.wonders.mechanism != "draft":
            return
        written = _map(setup.get("wonders"))
        if not all(isinstance(written.get(key), want) for key, want
                   in (("pools", int), ("size", int), ("order", list))):
            self.report.add(Diagnostic(
                "R804", "a wonder draft needs 'pools', 'size' and 'order' (the seat of each pick)",
                doc.location(("setup", "wonders"))))
            return
        draft = sections.setup.wonders
        pools, size, order = draft.pools, draft.size, _list(written.get("order"))
        if len(order) != pools * size:
            self.report.add(Diagnostic(
                "R804", f"the wonder draft's 'order' gives {len(order)} picks, but {pools} pools "
                f"of {size} wonders make {pools * size}",
                doc.location(("setup", "wonders", "order"))))
        for i, seat in enumerate(order):
            if isinstance(seat, int) and seat >= players:
                self.report.add(Diagnostic(
                    "R804", f"the wonder draft's pick {i + 1} goes to seat {seat}, but seats "
                    f"are 0 to {players - 1} (at most {players} players)",
                    doc.location(("setup", "wonders", "order", i))))

    def check_track(self, doc: Document, data: dict[str, Any], sections: RuleModel) -> None:
        """A conflict track's zones start further and further out, short of supremacy."""
        if sections.military.mechanism != "track":
            return
        supremacy = sections.military.track.supremacy
        previous = 0
        for i, zone in enumerate(_list(_map(data.get("military")).get("zones"))):
            start = _map(zone).get("from")
            if not isinstance(start, int):
                continue
            where = doc.location(("military", "zones", i, "from"))
            if start <= previous:
                self.report.add(Diagnostic(
                    "R805", f"conflict zone {i + 1} starts {start} spaces out, but zones must "
                    f"start further out than the one before ({previous})"
                    if previous else f"conflict zone {i + 1} starts {start} spaces out; the "
                    "first zone starts 1 or more spaces from the middle", where))
            elif start >= supremacy:
                self.report.add(Diagnostic(
                    "R805", f"conflict zone {i + 1} starts {start} spaces out, but the pawn "
                    f"wins at {supremacy} (military.supremacy): the zone can never score",
                    where))
            previous = max(previous, start)

    def check_layouts(self, doc: Document, data: dict[str, Any], sections: RuleModel) -> None:
        """A ``structure`` offer has one layout per age, and each is a sound structure."""
        if sections.offer.mechanism != "structure":
            return
        ages = sections.ages.count
        offer = _map(data.get("offer"))
        layouts = _map(offer.get("layouts"))
        for age in range(1, ages + 1):
            if str(age) not in layouts:
                self.report.add(Diagnostic(
                    "D610", f"age {age} has no card structure: offer.layouts needs an entry "
                    f"'{age}:' (offer.mechanism is structure)",
                    doc.location(("offer", "layouts") if "layouts" in offer else ("offer",))))
        for key, layout in layouts.items():
            where: PathKey = ("offer", "layouts", key)
            number = decimal(key)
            if number is not None and number > ages:
                self.report.add(Diagnostic(
                    "D610", f"a card structure for age {key}, but the rule set has {ages} ages",
                    doc.location(where, key=True), text=key))
            rows = [r for r in _list(_map(layout).get("rows")) if isinstance(r, list)]
            for r, row in enumerate(rows):
                columns = [c for c in row if isinstance(c, int)]
                for j, column in enumerate(columns):
                    if j and column - columns[j - 1] < 2:
                        self.report.add(Diagnostic(
                            "D611", f"age {key}, row {r + 1}: column {column} overlaps the card "
                            f"at column {columns[j - 1]} (columns in a row rise by at least 2: a "
                            "card is two half-columns wide)",
                            doc.location(where + ("rows", r, j)), text=str(column)))
                    if r and column - 1 not in rows[r - 1] and column + 1 not in rows[r - 1]:
                        self.report.add(Diagnostic(
                            "D611", f"age {key}, row {r + 1}: the card at column {column} covers "
                            f"no card of row {r} (it would cover columns {column - 1} or "
                            f"{column + 1})", doc.location(where + ("rows", r, j)),
                            text=str(column)))
            for i, row_number in enumerate(_list(_map(layout).get("face_down"))):
                if isinstance(row_number, int) and row_number > len(rows):
                    self.report.add(Diagnostic(
                        "D612", f"age {key}: face-down row {row_number}, but the structure has "
                        f"{len(rows)} rows", doc.location(where + ("face_down", i)),
                        text=str(row_number)))

    # --- cards and wonders -----------------------------------------------------------

    def build_cards(self, entry: _Doc, rules: RuleSet,
                    located: list[tuple[Card, Callable[[str, int], Location]]]) -> None:
        doc = entry.doc
        set_name = str(doc.data.get("set", ""))
        items = doc.data.get("cards")
        if not isinstance(items, list):
            return
        vocabulary = rules.vocabulary
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                continue
            path: PathKey = ("cards", i)
            cost = self.compiler.cost(doc, path + ("cost",))
            effects = self.compiler.effects(doc, path + ("effect",))
            colour = item.get("colour")
            if isinstance(colour, str) and colour not in vocabulary.colours:
                self.report.add(Diagnostic(
                    "N302", f"unknown colour '{colour}'; the rule set declares: "
                    f"{', '.join(vocabulary.colours)}", doc.location(path + ("colour",)),
                    text=colour, suggestion=closest(colour, vocabulary.colours)))
                # keep the card: its chain links and name still get checked in this run
            players = _markers(item.get("players"))
            copies = item.get("count")
            if isinstance(copies, int) and not isinstance(copies, bool):
                if "players" in item:
                    self.report.add(Diagnostic(
                        "S107", "give either 'players' (copies by player count) or 'count' "
                        "(copies in every game), not both", doc.location(path + ("count",),
                                                                         key=True), text="count"))
                players = (1,) * copies
            name, age = item.get("name"), item.get("age")
            if (not isinstance(name, str) or not isinstance(age, int) or isinstance(age, bool)
                    or not isinstance(colour, str) or players is None):
                continue
            card = Card(name=name, age=age, colour=colour, players=players,
                        cost=cost or fx.FREE, effects=effects or fx.NO_EFFECTS,
                        free_if_built=_names(item.get("free_if_built")),
                        makes_free=_names(item.get("makes_free")), set=set_name,
                        replaces=replaced if isinstance(replaced := item.get("replaces"), str)
                        else "", location=doc.location(path + ("name",)))
            if card.replaces:
                self.replacing.append((card.replaces, doc.location(path + ("replaces",))))

            def locate(field: str, index: int, _path: PathKey = path) -> Location:
                return doc.location(_path + (field, index))

            located.append((card, locate))

    def build_wonders(self, entry: _Doc, wonders: list[Wonder]) -> None:
        doc = entry.doc
        items = doc.data.get("wonders")
        if not isinstance(items, list):
            return
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                continue
            single = [k for k in ("cost", "effect") if k in item]
            if "sides" in item and single:
                self.report.add(Diagnostic(
                    "S107", "give either 'sides' or a single stage's 'cost' and 'effect', "
                    "not both", doc.location(("wonders", i, single[0]), key=True),
                    text=single[0]))
                continue
            if "sides" not in item:
                if len(single) < 2:
                    absent = ({"cost", "effect"} - set(single)).pop() if single else ""
                    missing = "'sides'" if not single else f"'{absent}'"
                    self.report.add(Diagnostic(
                        "S102", f"missing required key {missing}: a wonder has 'sides', or a "
                        "single stage's 'cost' and 'effect'", doc.location(("wonders", i))))
                    continue
                cost = self.compiler.cost(doc, ("wonders", i, "cost"))
                effects = self.compiler.effects(doc, ("wonders", i, "effect"), wonder=True)
                stage = Stage(cost or fx.FREE, effects or fx.NO_EFFECTS)
                name = item.get("name")
                if isinstance(name, str):
                    wonders.append(Wonder(
                        name, {"A": WonderSide("A", fx.NO_EFFECTS, (stage,))},
                        str(doc.data.get("set", "")), doc.location(("wonders", i, "name"))))
                continue
            if not isinstance(item.get("sides"), dict):
                continue
            sides: dict[str, WonderSide] = {}
            for side, side_data in item["sides"].items():
                path: PathKey = ("wonders", i, "sides", side)
                if not isinstance(side_data, dict):
                    continue
                start = self.compiler.effects(doc, path + ("start",))
                stages = []
                for j, stage in enumerate(_list(side_data.get("stages"))):
                    if not isinstance(stage, dict):
                        continue
                    cost = self.compiler.cost(doc, path + ("stages", j, "cost"))
                    effects = self.compiler.effects(doc, path + ("stages", j, "effect"),
                                                    wonder=True)
                    stages.append(Stage(cost or fx.FREE, effects or fx.NO_EFFECTS))
                sides[side] = WonderSide(side, start or fx.NO_EFFECTS, tuple(stages))
            name = item.get("name")
            if isinstance(name, str):
                wonders.append(Wonder(name, sides, str(doc.data.get("set", "")),
                                      doc.location(("wonders", i, "name"))))

    def build_tokens(self, entry: _Doc, rules: RuleSet, tokens: list[Token]) -> None:
        doc = entry.doc
        set_name = str(doc.data.get("set", ""))
        for i, item in enumerate(_list(doc.data.get("tokens"))):
            if not isinstance(item, dict):
                continue
            path: PathKey = ("tokens", i)
            effects = self.compiler.effects(doc, path + ("effect",))
            kind = item.get("kind")
            if isinstance(kind, str):
                self.known_name(doc, path + ("kind",), kind, rules.vocabulary.tokens, "N305",
                                "token kind")
            name = item.get("name")
            if isinstance(name, str) and isinstance(kind, str):
                tokens.append(Token(name, kind, effects or fx.NO_EFFECTS, set_name,
                                    doc.location(path + ("name",))))

    def check_sets(self, rules: RuleSet) -> tuple[list[str], set[str]]:
        """Set names, ``game:`` agreement, ``requires:`` and ``remove:`` lists."""
        sets: list[str] = []
        for entry in self.docs:
            if entry.kind == "rules":
                continue
            name = entry.doc.data.get("set")
            if isinstance(name, str) and name not in sets:
                sets.append(name)
            game = entry.doc.data.get("game")
            if isinstance(game, str) and game != rules.name and game not in rules.lineage:
                self.report.add(Diagnostic(
                    "L704", f"these cards are written for game '{game}', but the rule set "
                    f"loaded is '{rules.name}'", entry.doc.location(("game",)), text=game))
        removed: set[str] = set()
        for entry in self.docs:
            if entry.kind == "rules":
                continue
            for i, required in enumerate(_list(entry.doc.data.get("requires"))):
                if required not in sets:
                    self.report.add(Diagnostic(
                        "L705", f"requires set '{required}', which is not loaded",
                        entry.doc.location(("requires", i)), text=str(required),
                        suggestion=closest(str(required), sets)))
            for name in _list(entry.doc.data.get("remove")):
                removed.add(str(name))
        return sets, removed

    def check_unique(self, cards: Sequence[Card], wonders: Sequence[Wonder],
                     removed: set[str], remove_locations: list[tuple[str, Location]],
                     tokens: Sequence[Token] = ()) -> None:
        seen: dict[tuple[str, int], Card] = {}
        for card in cards:
            key = (card.name, card.age)
            if key in seen:
                self.report.add(Diagnostic(
                    "D605", f"card '{card.name}' of age {card.age} is defined twice (first at "
                    f"{seen[key].location})", card.location, text=card.name))
            else:
                seen[key] = card
        names = {c.name for c in cards}
        for name, location in remove_locations:
            if name not in names:
                self.report.add(Diagnostic(
                    "D607", f"cannot remove '{name}': no loaded card has that name", location,
                    text=name, suggestion=closest(name, names)))
        for name, location in self.replacing:
            if name not in names:
                self.report.add(Diagnostic(
                    "D620", f"'replaces: {name}' names no loaded card", location, text=name,
                    suggestion=closest(name, names)))
        wonder_seen: dict[str, Wonder] = {}
        for wonder in wonders:
            if wonder.name in wonder_seen:
                self.report.add(Diagnostic(
                    "D606", f"wonder '{wonder.name}' is defined twice (first at "
                    f"{wonder_seen[wonder.name].location})", wonder.location, text=wonder.name))
            wonder_seen[wonder.name] = wonder
        token_seen: dict[str, Token] = {}
        for token in tokens:
            if token.name in token_seen:
                self.report.add(Diagnostic(
                    "D613", f"token '{token.name}' is defined twice (first at "
                    f"{token_seen[token.name].location})", token.location, text=token.name))
            else:
                token_seen[token.name] = token


    def remove_wonders(self, wonders: list[Wonder]) -> list[Wonder]:
        """The wonders less those (or the sides) a wonder file's ``remove:`` names
        (``remove: [NAME, {name: NAME, sides: [B]}]``); a name or side that is not
        loaded is a located D607 with a "did you mean"."""
        by_name = {w.name: w for w in wonders}
        changed: dict[str, Wonder] = {}
        gone: set[str] = set()
        for entry in self.docs:
            if entry.kind != "wonders":
                continue
            for i, item in enumerate(_list(entry.doc.data.get("remove"))):
                name = item if isinstance(item, str) else _map(item).get("name")
                if not isinstance(name, str):
                    continue
                wonder = by_name.get(name)
                path: PathKey = ("remove", i) if isinstance(item, str) else ("remove", i, "name")
                if wonder is None:
                    self.report.add(Diagnostic(
                        "D607", f"cannot remove wonder '{name}': no loaded wonder has that "
                        "name", entry.doc.location(path), text=name,
                        suggestion=closest(name, by_name)))
                    continue
                sides = _names(_map(item).get("sides")) if isinstance(item, dict) else ()
                if not sides:
                    gone.add(name)
                    continue
                kept = dict(wonder.sides)
                for j, side in enumerate(sides):
                    if side not in kept:
                        self.report.add(Diagnostic(
                            "D607", f"cannot remove side '{side}' of wonder '{name}': it has "
                            f"sides {', '.join(wonder.sides) or 'none'}",
                            entry.doc.location(("remove", i, "sides", j)), text=side,
                            suggestion=closest(side, wonder.sides)))
                    kept.pop(side, None)
                if kept:
                    by_name[name] = changed[name] = replace(wonder, sides=kept)
                else:
                    gone.add(name)
        return [changed.get(w.name, w) for w in wonders if w.name not in gone]

    # --- what the game loop runs (the capability checks: wonders/dsl/playable.py) ---------

    def check_playable(self, game: Game, rules: Document) -> None:
        """Refuse, located, what the rule set's game loop does not run: every clause that
        compiled and the rules file's own keys always (so they come in the same run as the
        other errors); what depends on the whole data (pools, boards) only once the data is
        otherwise valid (a misspelt name would only make its pools or boards look unused)."""
        from wonders.dsl.playable import check_playable  # (this region's own import)

        clean = self.report.ok
        cache = self.compiler._effects

        def compiled(text: str) -> fx.Effects | None:
            found = cache.get(text)
            return found[0] if found is not None and not found[1] else None

        check_playable(game, rules, [(d.doc, d.kind) for d in self.docs], compiled,
                       self.report, clean)


def inherit(located: list[tuple[Card, Callable[[str, int], Location]]], wonders: list[Wonder],
            tokens: list[Token], depths: dict[int, int],
            ) -> tuple[list[tuple[Card, Callable[[str, int], Location]]], list[Wonder],
                       list[Token]]:
    """A variant's cards, wonders and tokens over those it inherits (``extends:``).

    Each name is defined by the nearest rule set that defines it (the lowest depth):
    a card or token of the variant replaces every inherited card or token of that
    name; a wonder of the variant replaces the inherited board's sides it gives and
    keeps the others (write only side B to change side B)."""
    def nearest(items: Sequence[Any], name: Callable[[Any], str]) -> dict[str, int]:
        found: dict[str, int] = {}
        for item in items:
            depth = depths.get(id(item), 0)
            key = name(item)
            found[key] = min(found.get(key, depth), depth)
        return found

    card_depth = nearest([c for c, _ in located], lambda c: str(c.name))
    kept_cards = [(c, where) for c, where in located
                  if depths.get(id(c), 0) == card_depth[c.name]]
    token_depth = nearest(tokens, lambda t: str(t.name))
    kept_tokens = [t for t in tokens if depths.get(id(t), 0) == token_depth[t.name]]
    merged: dict[str, Wonder] = {}
    for wonder in sorted(wonders, key=lambda w: -depths.get(id(w), 0)):  # ancestors first
        old = merged.get(wonder.name)
        if old is None:
            merged[wonder.name] = wonder
        elif depths.get(id(wonder), 0) < depths.get(id(old), 0):
            merged[wonder.name] = replace(wonder, sides={**old.sides, **wonder.sides})
            depths[id(merged[wonder.name])] = depths.get(id(wonder), 0)
        else:  # two of one level: both kept, so check_unique reports D606
            merged[f"{wonder.name}\0{len(merged)}"] = wonder
    kept_wonders = list(merged.values())
    return kept_cards, kept_wonders, kept_tokens


def _drop(doc: Document, paths: Iterable[PathKey]) -> None:
    """Read the numbers the schema refused (out of bounds, S106) as absent: a key is
    removed, a list item becomes None (the indices of the others, and so every
    location, stay); each step then skips or defaults them as it does a wrong type."""
    for path in paths:
        if not path:
            continue
        parent = doc.get(path[:-1])
        last = path[-1]
        if isinstance(parent, dict) and isinstance(last, str):
            parent.pop(last, None)
        elif isinstance(parent, list) and isinstance(last, int) and 0 <= last < len(parent):
            parent[last] = None


def _parent_names() -> list[str]:
    """What ``extends:`` may name without a path: the shipped games and the shipped
    expansions that are rule sets (``leaders``, ``cities``)."""
    return [*shipped_games(), *shipped_variants()]


def shipped_variants() -> dict[str, Path]:
    """The shipped expansions that are rule sets of their own (a ``rules.yaml``), by
    name: ``extends: leaders`` and ``--game leaders`` name ``expansions/leaders``."""
    return {name: path for name, path in shipped_expansions().items()
            if (path / "rules.yaml").is_file()}


def _shown(value: Any) -> str:
    """A value as a message shows it (YAML flow style, short)."""
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
    return text if len(text) <= 60 else text[:57] + "..."


def _markers(value: Any) -> tuple[int, ...] | None:
    if value is None:
        return ()
    if not isinstance(value, list):
        return None
    result = []
    for item in value:
        if isinstance(item, bool):
            return None
        if isinstance(item, int):
            result.append(item)
        elif isinstance(item, str) and item.endswith("+") and decimal(item[:-1]) is not None:
            result.append(int(item[:-1]))
        else:
            return None
    return tuple(sorted(result))


def _names(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(v for v in value if isinstance(v, str))


@lru_cache(maxsize=1)
def _shipped_card_sets() -> dict[str, tuple[str, str]]:
    """Card name → (set, folder) for every shipped file; used to explain unknown chain links."""
    catalog: dict[str, tuple[str, str]] = {}
    for root in (games_dir(), expansions_dir()):
        if root is None:
            continue
        for path in yaml_files(root):
            try:
                data = yaml.safe_load(path.read_text(encoding="utf-8"))
            except (OSError, yaml.YAMLError, UnicodeDecodeError):
                continue
            if isinstance(data, dict) and isinstance(data.get("cards"), list):
                for card in data["cards"]:
                    if isinstance(card, dict) and isinstance(card.get("name"), str):
                        catalog.setdefault(card["name"], (str(data.get("set")), path.parent.name))
    return catalog


def load(paths: Sequence[str | Path] = (), game: str | None = None) -> LoadResult:
    """Load a shipped game and/or files and folders; never raises for bad data.

    ``game`` names a shipped game (``base``) or a rule set on disk (a folder, or a
    rule-set file with the data files beside it); ``paths`` add files or folders (an
    expansion, custom cards).  When no rule set is among them, the shipped game
    named by the cards' ``game:`` key is loaded with them.
    """
    state = _Load()
    if game is not None and (looks_like_path(game) or game not in shipped_games()) \
            and file_problem(Path(game)) is None:
        # a rule set on disk given as the game (a variant): a folder, or a rule-set file
        # with the data files beside it (as --game takes it)
        target = Path(game)
        state.add_path(target)
        if target.is_file() and kind_of(target) == "rules":
            for other in yaml_beside(target)[0]:
                if goes_beside(kind_of(other)):
                    state.add_file(other)
        game = None
    if game is not None:
        games = shipped_games()
        if game not in games:
            state.report.add(Diagnostic(
                "L702", f"no shipped game named '{game}' (shipped: {', '.join(games) or 'none'})",
                Location(game), suggestion=closest(game, games)))
            return LoadResult(None, state.report)
        state.add_path(games[game])
    for path in paths:
        state.add_path(Path(path))
    files = [d.doc.name for d in state.docs]
    entry = state.choose_rules()
    files = [d.doc.name for d in state.docs]
    if entry is None:
        return LoadResult(None, state.report, files=files)
    rules = state.build_rules(entry)
    if rules is None:
        return LoadResult(None, state.report, files=files)
    sets, removed = state.check_sets(rules)
    located: list[tuple[Card, Callable[[str, int], Location]]] = []
    wonders: list[Wonder] = []
    tokens: list[Token] = []
    remove_locations: list[tuple[str, Location]] = []
    depths: dict[int, int] = {}  # id of a card, wonder or token -> depth of its file
    for item in state.docs:
        before = (len(located), len(wonders), len(tokens))
        if item.kind == "cards":
            state.build_cards(item, rules, located)
            for i, name in enumerate(_list(item.doc.data.get("remove"))):
                remove_locations.append((str(name), item.doc.location(("remove", i))))
        elif item.kind == "wonders":
            state.build_wonders(item, wonders)
        elif item.kind == "tokens":
            state.build_tokens(item, rules, tokens)
        for built in (*[c for c, _ in located[before[0]:]], *wonders[before[1]:],
                      *tokens[before[2]:]):
            depths[id(built)] = item.depth
    if rules.lineage:  # a variant: its definitions replace what it inherits, by name
        located, wonders, tokens = inherit(located, wonders, tokens, depths)
    wonders = state.remove_wonders(wonders)
    cards = [card for card, _ in located]
    state.check_unique(cards, wonders, removed, remove_locations, tokens)
    loaded = set(sets)

    def unloaded_set(name: str) -> str | None:
        found = _shipped_card_sets().get(name)
        return found[0] if found and found[0] not in loaded else None

    chains, chain_problems = check_chains(cards, links_of(located), unloaded_set,
                                          frozenset(t.name for t in tokens))
    # (a chain "to an earlier age" from a card in an age the rule set lacks is that D603)
    misaged = [f"'{c.name}' (age {c.age})" for c in cards if c.age > rules.ages]
    state.report.extend(d for d in chain_problems
                        if not (d.code == "C502" and any(m in d.message for m in misaged)))
    digest = hashlib.sha256("".join(sorted(state.hashes.values())).encode()).hexdigest()
    dice = build_dice(rules, [(d.doc, d.kind) for d in state.docs], state.compiler.effects,
                      state.report, entry.doc)  # forum and sheets files (offer: dice)
    components = build_components(rules, [(d.doc, d.kind) for d in state.docs], state.report,
                                  entry.doc)  # components files (offer: decks)
    built = Game(rules=rules, cards=tuple(cards), wonders=tuple(wonders), sets=tuple(sets),
                 removed=frozenset(removed), files=tuple(files), tokens=tuple(tokens),
                 content_hash=digest, dice=dice, components=components)
    rules_doc = entry.doc
    inherited = {d.doc.name for d in state.docs if d.depth > 0}
    # a copy marked for more players than a variant allows is left out on purpose (a
    # variant for fewer players): D604 is only for the variant's own cards
    state.report.extend(d for d in check_decks(built, lambda path: rules_doc.location(path))
                        if not (d.code == "D604" and d.location.file in inherited))
    state.check_playable(built, rules_doc)
    ok = state.report.ok
    return LoadResult(built if ok else None, state.report, chains, files, partial=built)


def load_each(paths: Sequence[str | Path]) -> list[LoadResult]:
    """Load files and folders that may hold several games: one load per game.

    A folder such as ``cards/`` holds one rule set per shipped game.  When the
    paths hold rule sets of several names, each is loaded with the files whose
    ``game:`` names it (files naming a shipped game whose rule set is not among
    the paths are loaded with that game); files that name no game, or cannot
    be read, are loaded on their own.  With at most one rule set this is
    exactly :func:`load`, so cards naming another game still get L704.
    """
    files: list[Path] = []
    missing: list[Path] = []
    walk_problems: list[Diagnostic] = []
    for path in map(Path, paths):
        if file_problem(path) is not None:
            missing.append(path)  # load() reports why
        elif path.is_dir():
            found, problems = walk_yaml(path)
            if found:
                files += found
                walk_problems += problems
            else:  # an empty or unreadable folder: load() reports L701 or why
                files.append(path)
        elif path.is_file():
            files.append(path)
        else:
            missing.append(path)
    groups: dict[str | None, list[Path]] = {}
    rule_sets: set[str] = set()
    for file in files:
        name, is_rules = _game_of(file)
        groups.setdefault(name, []).append(file)
        if is_rules and name is not None:
            rule_sets.add(name)
    if len(rule_sets) <= 1:  # one game: cards naming another one get L704 as usual
        return [load([*map(Path, paths)])]
    named = [name for name in groups if name is not None]
    results = [load(groups[name]) for name in named]
    if None in groups or missing:
        results.append(load([*groups.get(None, []), *missing]))
    results[-1].report.extend(walk_problems)  # entries of the folders that cannot be read
    return results


def _game_of(path: Path) -> tuple[str | None, bool]:
    """The game a file belongs to (a rule set's ``name``, another file's ``game``), and
    whether it is a rule set."""
    if path.is_dir():
        return None, False
    doc, _ = load_file(path, display_name(path))
    if doc is None or not isinstance(doc.data, dict):
        return None, False
    is_rules = doc.data.get("kind") == "rules"
    value = doc.data.get("name" if is_rules else "game")
    return (value if isinstance(value, str) else None), is_rules


def load_game(paths: Sequence[str | Path] = (), game: str | None = None) -> Game:
    """Load and return a valid game, or raise :class:`DataError` with every diagnostic."""
    result = load(paths, game)
    if result.game is None:
        raise DataError(result.report.sorted() or [Diagnostic(
            "L702", "nothing to load", Location("<arguments>"))])
    return result.game


__all__ = ["LoadResult", "load", "load_game", "shipped_games", "shipped_expansions",
           "Severity"]
