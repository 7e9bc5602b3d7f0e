"""Build and check a decks game's components files (:mod:`.components_model`).

Called by the loader once the rule set is built, like the dice forum's builder.  Every
problem is a located diagnostic: a deck counting a card kind that is not defined, a
Wonder without a deck or a deck without a Wonder, a piece resting on a piece that is
not below it (D617, with "did you mean"); a colour, resource or science symbol the
vocabulary lacks (N302, N301, N303); a components file with a rule set that does not
offer by decks, or a decks rule set without them (M905).  The schema has already
checked the shape; a value of the wrong type is read as absent, so checking goes on.
"""

from __future__ import annotations

from typing import Any, Sequence

from wonders.dsl.components_model import (
    CENTRAL,
    CardKind,
    Components,
    Deck,
    EndPoints,
    ExtraCard,
    Piece,
    PieceWonder,
    Progress,
    Take,
)
from wonders.dsl.effects import FREE, NO_EFFECTS
from wonders.dsl.errors import Diagnostic, Report, closest
from wonders.dsl.model import Card, RuleSet
from wonders.dsl.source import Document, PathKey
from wonders.dsl.values import as_int as _int
from wonders.dsl.values import as_list as _list
from wonders.dsl.values import as_map as _map

OFFER = "decks"
KIND = "components"
SECTIONS = ("cards", "decks", "wonders", "progress")
REQUIRED = ("cards", "decks", "wonders")   # (a game without progress tokens leaves it out)


def _strs(value: Any) -> tuple[str, ...]:
    return tuple(v for v in _list(value) if isinstance(v, str))


class _Builder:
    def __init__(self, rules: RuleSet, report: Report) -> None:
        self.rules = rules
        self.report = report
        self.vocabulary = rules.vocabulary

    def problem(self, code: str, message: str, doc: Document, path: PathKey,
                text: str | None = None, suggestion: str | None = None,
                key: bool = False) -> None:
        self.report.add(Diagnostic(code, message, doc.location(path, key=key), text=text,
                                   suggestion=suggestion))

    def name_in(self, doc: Document, path: PathKey, value: Any, known: Sequence[str],
                code: str, what: str) -> bool:
        """Whether ``value`` is one of ``known``; else a located ``code`` problem."""
        if not isinstance(value, str) or value in known:
            return isinstance(value, str)
        self.problem(code, f"unknown {what} '{value}'; the rule set's vocabulary has: "
                     f"{', '.join(known) or 'none'}", doc, path, text=value,
                     suggestion=closest(value, known))
        return False

    def kinds(self, doc: Document) -> list[CardKind]:
        vocabulary = self.vocabulary
        resources = list(vocabulary.resources)
        kinds = []
        for name, raw in _map(doc.data.get("cards")).items():
            spec = _map(raw)
            path: PathKey = ("cards", name)
            colour = spec.get("colour")
            self.name_in(doc, path + ("colour",), colour, list(vocabulary.colours), "N302",
                         "colour")
            resource = spec.get("resource")
            if resource is not None:
                self.name_in(doc, path + ("resource",), resource, resources, "N301", "resource")
            science = spec.get("science")
            if science is not None:
                self.name_in(doc, path + ("science",), science, list(vocabulary.science),
                             "N303", "science symbol")
            card = Card(name=str(name), age=1, colour=str(colour), players=(), cost=FREE,
                        effects=NO_EFFECTS, set=str(doc.data.get("set", "")),
                        location=doc.location(path, key=True))
            kinds.append(CardKind(
                name=str(name), colour=str(colour), card=card,
                resource=resource if isinstance(resource, str) else None,
                coins=_int(spec.get("coins"), 0), points=_int(spec.get("points"), 0),
                cat=spec.get("cat") is True,
                science=science if isinstance(science, str) else None,
                shields=_int(spec.get("shields"), 0), horns=_int(spec.get("horns"), 0)))
        return kinds

    def decks(self, doc: Document, kinds: Sequence[CardKind]) -> list[Deck]:
        names = [k.name for k in kinds]
        decks = []
        for name, raw in _map(doc.data.get("decks")).items():
            spec = _map(raw)
            cards: list[int] = []
            for kind, count in _map(spec.get("cards")).items():
                if kind not in names:
                    self.problem("D617", f"deck '{name}' counts cards of kind '{kind}', which "
                                 f"the 'cards' section does not define", doc,
                                 ("decks", name, "cards", kind), text=str(kind),
                                 suggestion=closest(str(kind), names), key=True)
                    continue
                cards += [names.index(kind)] * _int(count, 0)
            decks.append(Deck(str(name), spec.get("face", "down" if name == CENTRAL else "up")
                              == "up", tuple(cards)))
        return decks

    def take(self, value: Any) -> Take | None:
        spec = _map(value)
        if not spec:
            return None
        return Take(_strs(spec.get("from")) or (CENTRAL,), spec.get("each") is True,
                    max(1, _int(spec.get("look"), 1)))

    def wonders(self, doc: Document, decks: Sequence[Deck]) -> list[PieceWonder]:
        deck_names = [d.name for d in decks]
        wonders = []
        for name, raw in _map(doc.data.get("wonders")).items():
            path: PathKey = ("wonders", name)
            if name not in deck_names:
                others = [d for d in deck_names if d != CENTRAL]
                self.problem("D617", f"Wonder '{name}' has no deck: the 'decks' section needs "
                             f"one named '{name}' (it has {', '.join(others) or 'none'})",
                             doc, path, text=str(name), suggestion=closest(str(name), others),
                             key=True)
            pieces = []
            for i, piece_raw in enumerate(_list(raw)):
                spec = _map(piece_raw)
                count, _, rule = str(spec.get("cost", "1 any")).partition(" ")
                rests = []
                for j, below in enumerate(_list(spec.get("rests_on"))):
                    if not isinstance(below, int) or not 1 <= below <= i:
                        self.problem("D617", f"piece {i + 1} of '{name}' rests on piece "
                                     f"{below}, which is not one of the pieces before it "
                                     f"(1 to {i})" if i else f"the first piece of '{name}' "
                                     "rests on nothing", doc, path + (i, "rests_on", j),
                                     text=str(below))
                        continue
                    rests.append(below - 1)
                pieces.append(Piece(_int(int(count) if count.isdigit() else None, 1),
                                    rule or "any", _int(spec.get("points"), 0), tuple(rests),
                                    self.take(spec.get("take")),
                                    _int(spec.get("progress"), 0), _int(spec.get("shields"), 0)))
            wonders.append(PieceWonder(str(name), deck_names.index(name)
                                       if name in deck_names else -1, tuple(pieces)))
        return wonders

    def progress(self, doc: Document) -> list[Progress]:
        vocabulary = self.vocabulary
        tokens = []
        for name, raw in _map(doc.data.get("progress")).items():
            spec = _map(raw)
            path: PathKey = ("progress", name)
            extra = None
            if "extra_card" in spec:
                when = _map(spec["extra_card"])
                for i, resource in enumerate(_strs(when.get("resources"))):
                    self.name_in(doc, path + ("extra_card", "resources", i), resource,
                                 list(vocabulary.resources), "N301", "resource")
                for i, colour in enumerate(_strs(when.get("colours"))):
                    self.name_in(doc, path + ("extra_card", "colours", i), colour,
                                 list(vocabulary.colours), "N302", "colour")
                extra = ExtraCard(_strs(when.get("resources")), _strs(when.get("colours")),
                                  _int(when.get("horns"), 0), when.get("piece") is True)
            end = None
            if "end" in spec:
                points = _map(spec["end"])
                complete = points.get("complete")
                per = points.get("per")
                end = EndPoints(_int(points.get("points"), 1),
                                complete if isinstance(complete, int) else None,
                                per if isinstance(per, str) else None,
                                tuple(v for v in _list(points.get("held")) if isinstance(v, int)))
            tokens.append(Progress(str(name), max(1, _int(spec.get("copies"), 1)), extra,
                                   _int(spec.get("coin_value"), 1),
                                   spec.get("any_resources") is True,
                                   _int(spec.get("shields"), 0), end))
        return tokens


def _game_of(doc: Document, rules: RuleSet) -> bool:
    return doc.data.get("game") in (rules.name, *rules.lineage)


def build_components(rules: RuleSet, docs: Sequence[tuple[Document, str]], report: Report,
                     rules_doc: Document) -> Components | None:
    """The rule set's components (None when it does not offer by decks, or on errors).

    ``docs`` are the loaded documents with their kinds; only ``components`` files are
    read, each section (cards, decks, wonders, progress) from the one file that has it."""
    files = [doc for doc, kind in docs if kind == KIND]
    offer = rules.model.offer.mechanism
    if offer != OFFER:
        for doc in files:
            if _game_of(doc, rules):
                report.add(Diagnostic("M905", "a components file is read only by a decks game "
                                      f"(offer: decks); this rule set offers by {offer}",
                                      doc.location(("kind",)), text=KIND))
        return None
    for doc, kind in docs:  # a decks game deals no hands, structures or dice
        if kind in ("cards", "wonders", "tokens", "forum", "sheets") and _game_of(doc, rules):
            report.add(Diagnostic("M905", f"a {kind} file is never read by a decks game "
                                  "(offer: decks), which plays components files: nothing of "
                                  "it would come into play", doc.location(("kind",)), text=kind))
    builder = _Builder(rules, report)
    found: dict[str, Document] = {}
    for doc in files:
        for section in SECTIONS:
            if section not in doc.data:
                continue
            if section in found:
                report.add(Diagnostic("D617", f"the '{section}' section is given twice (also "
                                      f"in {found[section].name})",
                                      doc.location((section,), key=True), text=section))
                continue
            found[section] = doc
    missing = [s for s in REQUIRED if s not in found]
    if missing:
        report.add(Diagnostic("M905", "a decks game needs components files with the sections "
                              f"{', '.join(REQUIRED)}; missing: {', '.join(missing)}",
                              rules_doc.location(("offer",))))
        return None
    kinds = builder.kinds(found["cards"])
    decks = builder.decks(found["decks"], kinds)
    wonders = builder.wonders(found["wonders"], decks)
    progress = builder.progress(found["progress"]) if "progress" in found else []
    names = [d.name for d in decks]
    if CENTRAL not in names:
        report.add(Diagnostic("D617", "the 'decks' section has no 'central' deck",
                              found["decks"].location(("decks",), key=True)))
        return None
    wonder_names = {w.name for w in wonders}
    deckless = any(w.deck < 0 for w in wonders)   # (then that D617 names the deck meant)
    for deck in decks:
        if deck.name != CENTRAL and deck.name not in wonder_names and not deckless:
            report.add(Diagnostic("D617", f"deck '{deck.name}' belongs to no Wonder (the "
                                  f"'wonders' section has {', '.join(sorted(wonder_names))})",
                                  found["decks"].location(("decks", deck.name), key=True),
                                  text=deck.name,
                                  suggestion=closest(deck.name, sorted(wonder_names))))
    if len(wonders) < rules.max_players:
        report.add(Diagnostic("M904", f"{len(wonders)} Wonders for up to {rules.max_players} "
                              "players: each player builds one",
                              found["wonders"].location(("wonders",), key=True)))
    _check_flow_runs(rules, found, kinds, wonders, progress, report, rules_doc)
    return Components(tuple(kinds), tuple(decks), names.index(CENTRAL), tuple(wonders),
                      tuple(progress))


def _check_flow_runs(rules: RuleSet, found: dict[str, Document], kinds: Sequence[CardKind],
                     wonders: Sequence[PieceWonder], progress: Sequence[Progress],
                     report: Report, rules_doc: Document) -> None:
    """What the components say that no step of the flow would ever do (M909): horns
    without ``flip_conflict``, a cat without ``take_cat``, science without
    ``progress_on_sets``, tokens never laid out, pieces never built, conflict tokens that
    call no battle."""
    flow = rules.model.flow
    if flow is None:
        return   # (M909 already: a decks game needs a flow)
    steps = {step.name for step in (*flow.setup, *flow.after_card, *flow.after)}

    def missing(step: str, what: str, doc: Document, path: PathKey) -> None:
        if step not in steps:
            report.add(Diagnostic("M909", f"{what}, but the flow has no '{step}' step: it "
                                  "would never act", doc.location(path, key=True),
                                  text=str(path[-1])))

    cards = found["cards"]
    for kind in kinds:
        if kind.horns:
            missing("flip_conflict", f"card '{kind.name}' has horns", cards,
                    ("cards", kind.name, "horns"))
        if kind.cat:
            missing("take_cat", f"card '{kind.name}' has a cat", cards,
                    ("cards", kind.name, "cat"))
        if kind.science is not None:
            missing("progress_on_sets", f"card '{kind.name}' has a science symbol", cards,
                    ("cards", kind.name, "science"))
    if progress:
        missing("lay_progress", "progress tokens are defined", found["progress"], ("progress",))
    for wonder in wonders:
        for i, piece in enumerate(wonder.pieces):
            if piece.progress:
                missing("lay_progress", f"piece {i + 1} of '{wonder.name}' gives a progress "
                        "token", found["wonders"], ("wonders", wonder.name, i, "progress"))
    if wonders:
        missing("build_when_paid", "Wonders are built in pieces", found["wonders"],
                ("wonders",))
    order = rules.model.score.order
    lines = (("wonder", any(p.points for w in wonders for p in w.pieces), "pieces' points"),
             ("civilian", any(k.points for k in kinds), "cards' points"),
             ("military", "battle_if_due" in steps, "victory tokens"),
             ("progress", any(t.end is not None for t in progress), "progress tokens' points"),
             ("cat", "take_cat" in steps, "the cat's points"))
    for line, scored, what in lines:
        if scored and line not in order:
            where = ("score", "order") if "order" in _map(rules_doc.data.get("score")) else ()
            report.add(Diagnostic("M909", f"the {what} go to the score line '{line}', which "
                                  f"score.order leaves out: they would count for nothing",
                                  rules_doc.location(where), text=line))
    if "flip_conflict" in steps or "lay_conflict" in steps:
        for needed, what in (("lay_conflict", "horns flip conflict tokens"),
                             ("battle_if_due", "the last conflict token flipped calls a "
                              "battle")):
            if needed not in steps:
                report.add(Diagnostic("M909", f"{what}, but the flow has no '{needed}' step: "
                                      "nothing would come of it",
                                      rules_doc.location(("flow",), key=True), text="flow"))


__all__ = ["KIND", "OFFER", "build_components"]
