"""Build and check a dice-forum game's forum and sheets files (:mod:`.sheets_model`).

Called by the loader once the rule set is built.  Every problem is a located
diagnostic: a face, a bonus or an unlock naming a building, symbol or die that is
not defined (D615, with "did you mean"), a colour the vocabulary lacks (N302),
fewer boards than players (M904), an effect the dice loop does not run (M901, the
catalogue of :mod:`.mechanisms`), a forum or sheets file with a rule set that does
not offer by dice, or a dice rule set without them (M905).  Effects are compiled by
the loader's compiler (so they are checked against the rule set's vocabulary).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from wonders.dsl import effects as fx
from wonders.dsl.errors import Diagnostic, Location, Report, closest
from wonders.dsl.mechanisms import capabilities, refusal_code
from wonders.dsl.model import RuleSet
from wonders.dsl.sheets_model import (
    ANY,
    LISTED,
    NO_GAINS,
    Board,
    Bonus,
    Building,
    Crossing,
    DiceSet,
    Die,
    DieGain,
    DiePrice,
    Face,
    Gains,
    Space,
    Stage,
)
from wonders.dsl.source import Document, PathKey
from wonders.dsl.values import as_int as _int
from wonders.dsl.values import as_list as _list
from wonders.dsl.values import as_map as _map
from wonders.dsl.values import as_str as _str

Compile = Callable[[Document, PathKey], "fx.Effects | None"]
OFFER = "dice"
WONDER = "wonder"   # what a face's 'compare:' names for the Wonder stages built


class _Builder:
    def __init__(self, rules: RuleSet, compile_effects: Compile, report: Report) -> None:
        self.rules = rules
        self.compile = compile_effects
        self.report = report
        caps = capabilities(OFFER)
        assert caps is not None
        self.caps = caps
        self.colour_uses: list[tuple[Document, PathKey]] = []   # die colours named, checked
        self.keys: list[str] = []   # the sheets' building keys (a space may cross a later one)

    def problem(self, code: str, message: str, where: Location, text: str | None = None,
                suggestion: str | None = None) -> None:
        self.report.add(Diagnostic(code, message, where, text=text, suggestion=suggestion))

    def effects(self, doc: Document, path: PathKey) -> fx.Effects:
        """Compile an effect string and refuse, located, what the dice loop does not run."""
        if not isinstance(doc.get(path), str):
            return fx.NO_EFFECTS
        compiled = self.compile(doc, path)
        if compiled is None:
            return fx.NO_EFFECTS
        for clause in compiled.clauses:
            found = refusal_code(self.caps, clause)
            code, why = found if found is not None else ("M901", None)
            if why is None and getattr(clause, "condition", None) is not None:
                why = "a condition ('if …') is not run by the dice loop"
            effect = clause.effect
            if why is None and isinstance(effect, fx.Produce) and (
                    len(effect.resources) != 1 or effect.amount != 1):
                why = ("a dice sheet counts the different resource types a player has: "
                       "a space produces one resource ('produce wood')")
            if why is not None:
                self.problem(code, why, doc.location(path), text=str(doc.get(path)))
        return compiled

    def building_index(self, doc: Document, path: PathKey, name: Any,
                       keys: Sequence[str]) -> int | None:
        if not isinstance(name, str):
            return None
        if name in keys:
            return keys.index(name)
        self.problem("D615", f"unknown building '{name}'; the sheets define: "
                     f"{', '.join(keys) or 'none'}", doc.location(path), text=name,
                     suggestion=closest(name, keys))
        return None

    def gains(self, doc: Document, path: PathKey) -> Gains:
        """A space's or a stage's sheet-only gains: ``die_discount`` (N coins off every
        die, or ``{colour: C, less: N}`` / ``{colour: C, at_most: N}`` for dice of one
        colour), ``on_die: {colour: C, coins: N}`` (coins on choosing a die of C) and
        ``cross`` (a list of buildings: cross the next space of one; ``{buildings: […],
        up_to: N}``: up to N).  Building names are resolved later (:meth:`resolve`)."""
        raw = _map(doc.get(path))
        prices: list[DiePrice] = []
        discount = raw.get("die_discount")
        if isinstance(discount, int) and not isinstance(discount, bool):
            prices.append(DiePrice(None, discount))
        elif isinstance(discount, dict):
            most = discount.get("at_most")
            prices.append(DiePrice(_str(discount.get("colour")) or None,
                                   _int(discount.get("less"), 0),
                                   most if isinstance(most, int) else None))
            self.colour_uses.append((doc, path + ("die_discount", "colour")))
        gains: list[DieGain] = []
        on_die = _map(raw.get("on_die"))
        if on_die:
            gains.append(DieGain(_str(on_die.get("colour")), _int(on_die.get("coins"), 0)))
            self.colour_uses.append((doc, path + ("on_die", "colour")))
        cross = None
        if "cross" in raw:
            spec = raw["cross"]
            names = _list(spec.get("buildings") if isinstance(spec, dict) else spec)
            up_to = _int(spec.get("up_to"), 1) if isinstance(spec, dict) else 1
            where = path + (("cross", "buildings") if isinstance(spec, dict) else ("cross",))
            found = [self.building_index(doc, where + (k,), name, self.keys)
                     for k, name in enumerate(names)]
            cross = Crossing(tuple(b for b in found if b is not None), up_to)
        if not prices and not gains and cross is None:
            return NO_GAINS
        return Gains(tuple(prices), tuple(gains), cross)

    # --- sheets ----------------------------------------------------------------------

    def buildings(self, doc: Document) -> list[Building]:
        found: list[Building] = []
        colours = self.rules.vocabulary.colours
        self.keys = [_str(_map(b).get("key")) for b in _list(doc.data.get("buildings"))]
        for i, item in enumerate(_list(doc.data.get("buildings"))):
            item = _map(item)
            path: PathKey = ("buildings", i)
            colour = _str(item.get("colour"))
            if colour and colour not in colours:
                self.problem("N302", f"unknown colour '{colour}'; the rule set declares: "
                             f"{', '.join(colours)}", doc.location(path + ("colour",)),
                             text=colour, suggestion=closest(colour, colours))
            spaces: list[Space] = []
            for j, raw in enumerate(_list(item.get("spaces"))):
                raw = _map(raw)
                where = path + ("spaces", j)
                given = [_str(x) for x in _list(raw.get("symbols"))]
                if "symbol" in raw and "symbols" in raw:
                    self.problem("D615", "a space has 'symbol' or 'symbols' (several: any of "
                                 "them crosses it), not both", doc.location(where + ("symbols",)))
                elif isinstance(raw.get("symbol"), str):
                    given = [raw["symbol"]]
                spaces.append(Space(
                    index=j, symbols=tuple(dict.fromkeys(given)),
                    cost=_int(raw.get("cost"), 0),
                    effects=self.effects(doc, where + ("effect",)),
                    attack=_int(raw.get("attack"), 0), defence=raw.get("defence") is True,
                    unlock=raw.get("unlock") if isinstance(raw.get("unlock"), str) else None,
                    gains=self.gains(doc, where), confidence=_str(raw.get("confidence"))))
            side = item.get("side")
            if any(s.attack or s.defence for s in spaces) and side not in ("left", "right"):
                self.problem("D615", "a building with attack or defence spaces needs "
                             "'side: left' or 'side: right' (the neighbour they face)",
                             doc.location(path))
            symbols = tuple(dict.fromkeys(x for s in spaces for x in (s.symbols or ("",))))
            key = _str(item.get("key"))
            if key == WONDER:
                self.problem("D615", f"'{WONDER}' is not a building key: a face's "
                             f"'compare: {WONDER}' counts the Wonder stages built",
                             doc.location(path + ("key",)), text=key)
            if key in [b.key for b in found]:
                self.problem("D615", f"building '{key}' is defined twice",
                             doc.location(path + ("key",)), text=key)
            found.append(Building(key, _str(item.get("name"), key), colour,
                                  ANY if item.get("order") == ANY else LISTED,
                                  side if isinstance(side, str) else None, tuple(spaces),
                                  symbols, _str(item.get("confidence")),
                                  _int(item.get("first"), 0)))
        return found

    def boards(self, doc: Document) -> list[Board]:
        boards: list[Board] = []
        for i, item in enumerate(_list(doc.data.get("boards"))):
            item = _map(item)
            stages = tuple(
                Stage(_int(_map(s).get("cost"), 0),
                      self.effects(doc, ("boards", i, "stages", j, "effect")),
                      _str(_map(s).get("confidence")),
                      self.gains(doc, ("boards", i, "stages", j)))
                for j, s in enumerate(_list(item.get("stages"))))
            name = _str(item.get("name"))
            if name in [b.name for b in boards]:
                self.problem("D615", f"board '{name}' is defined twice",
                             doc.location(("boards", i, "name")), text=name)
            boards.append(Board(name, stages, _str(item.get("confidence"))))
        if 0 < len(boards) < self.rules.max_players:
            self.problem("M904", f"{len(boards)} boards are loaded, but each of up to "
                         f"{self.rules.max_players} players is dealt one (players.max)",
                         doc.location(("boards",)))
        return boards

    def bonuses(self, doc: Document, buildings: Sequence[Building]) -> list[Bonus]:
        keys = [b.key for b in buildings]
        found = []
        for i, item in enumerate(_list(doc.data.get("bonuses"))):
            item = _map(item)
            cross = []
            for j, name in enumerate(_list(item.get("cross"))):
                index = self.building_index(doc, ("bonuses", i, "cross", j), name, keys)
                if index is not None:
                    cross.append(index)
            found.append(Bonus(_str(item.get("name")),
                               self.effects(doc, ("bonuses", i, "effect")), tuple(cross),
                               _str(item.get("confidence"))))
        return found

    # --- the forum -------------------------------------------------------------------

    def dice(self, doc: Document, buildings: Sequence[Building]) -> list[Die]:
        keys = [b.key for b in buildings]
        found: list[Die] = []
        for i, item in enumerate(_list(doc.data.get("dice"))):
            item = _map(item)
            faces = []
            for j, raw in enumerate(_list(item.get("faces"))):
                raw = _map(raw)
                where: PathKey = ("dice", i, "faces", j)
                # one building, or a choice of several (a face the player may put on either)
                named = raw.get("building")
                many = isinstance(named, list)
                indices = [self.building_index(doc, where + (("building", k) if many
                                                             else ("building",)), name, keys)
                           for k, name in enumerate(_list(named) if many else [named])]
                crossed = tuple(b for b in indices if b is not None)
                symbol = raw.get("symbol") if isinstance(raw.get("symbol"), str) else None
                if crossed and symbol is not None and \
                        not any(symbol in buildings[b].symbols for b in crossed):
                    known = list(dict.fromkeys(x for b in crossed for x in buildings[b].symbols
                                               if x))
                    self.problem("D615", f"no space of '{' or '.join(keys[b] for b in crossed)}'"
                                 f" has the symbol '{symbol}' (its symbols: "
                                 f"{', '.join(known) or 'none'})",
                                 doc.location(where + ("symbol",)), text=symbol,
                                 suggestion=closest(symbol, known))
                compare: list[int] = []
                if "compare" in raw:
                    # buildings counted together, or the Wonder stages built ('wonder')
                    given = raw.get("compare")
                    listed = isinstance(given, list)
                    for k, name in enumerate(_list(given) if listed else [given]):
                        at = where + (("compare", k) if listed else ("compare",))
                        index = len(keys) if name == WONDER else \
                            self.building_index(doc, at, name, keys)
                        if index is not None:
                            compare.append(index)
                if len(crossed) == len(indices):
                    faces.append(Face(crossed, symbol, tuple(compare)))
            name = _str(item.get("name"))
            if name in [d.name for d in found]:
                self.problem("D615", f"die '{name}' is defined twice",
                             doc.location(("dice", i, "name")), text=name)
            found.append(Die(name, _str(item.get("colour")), tuple(faces),
                             item.get("start") is not False,
                             item.get("replaces") if isinstance(item.get("replaces"), str)
                             else None, _str(item.get("confidence"))))
        starting = {d.colour for d in found if d.start}
        for i, die in enumerate(found):
            if not die.start and die.replaces not in starting:
                self.problem("D615", f"die '{die.name}' waits to be unlocked, so it needs "
                             "'replaces:' naming the colour of a starting die "
                             f"({', '.join(sorted(starting))})",
                             doc.location(("dice", i, "replaces") if die.replaces is not None
                                          else ("dice", i)), text=die.replaces,
                             suggestion=closest(die.replaces or "", starting))
        return found


def build_dice(rules: RuleSet, docs: Sequence[tuple[Document, str]], compile_effects: Compile,
               report: Report, rules_doc: Document) -> DiceSet | None:
    """The rule set's dice set (None when the rule set does not offer by dice, or on errors).

    ``docs`` are the loaded documents with their kinds; only ``forum`` and ``sheets``
    are read."""
    forums = [doc for doc, kind in docs if kind == "forum"]
    sheets = [doc for doc, kind in docs if kind == "sheets"]
    offer = rules.model.offer.mechanism
    if offer != OFFER:
        for doc in forums + sheets:
            if doc.data.get("game") not in (rules.name, *getattr(rules, "lineage", ())):
                continue  # written for another game: L704 says so
            report.add(Diagnostic("M905", f"a {doc.data.get('kind')} file is read only by a "
                                  f"dice-forum game (offer: dice); this rule set offers by "
                                  f"{offer}", doc.location(("kind",))))
        return None
    for doc, kind in docs:  # a dice forum deals no cards, wonders or tokens: never in play
        if kind in ("cards", "wonders", "tokens") and doc.data.get("game") in (
                rules.name, *getattr(rules, "lineage", ())):
            report.add(Diagnostic("M905", f"a {kind} file is never read by the dice-forum "
                                  "loop (offer: dice), which plays a forum and sheets: "
                                  f"nothing of it would come into play", doc.location(("kind",)),
                                  text=kind))
    if len(forums) != 1 or len(sheets) != 1:
        what = "forum" if len(forums) != 1 else "sheets"
        count = len(forums) if what == "forum" else len(sheets)
        report.add(Diagnostic("M905", f"a dice-forum game needs exactly one '{what}' file "
                              f"(kind: {what}); {count} loaded", rules_doc.location(("offer",))))
        return None
    builder = _Builder(rules, compile_effects, report)
    sheet, forum = sheets[0], forums[0]
    buildings = builder.buildings(sheet)
    boards = builder.boards(sheet)
    bonuses = builder.bonuses(sheet, buildings)
    dice = builder.dice(forum, buildings)
    waiting = {d.colour for d in dice if not d.start}
    colours = sorted({d.colour for d in dice})
    for doc, path in builder.colour_uses:
        colour = doc.get(path)
        if colour is not None and colour not in colours:
            builder.problem("D615", f"no die has the colour '{colour}' (the dice's colours: "
                            f"{', '.join(colours)})", doc.location(path), text=str(colour),
                            suggestion=closest(str(colour), colours))
    for i, building in enumerate(buildings):
        for space in building.spaces:
            if space.unlock is not None and space.unlock not in waiting:
                builder.problem("D615", f"'unlock: {space.unlock}' names no die waiting to be "
                                f"unlocked ({', '.join(sorted(waiting)) or 'none'})",
                                sheet.location(("buildings", i, "spaces", space.index,
                                                "unlock")), text=space.unlock,
                                suggestion=closest(space.unlock, waiting))
    data = sheet.data
    reserve = _map(data.get("reserve"))
    end = _map(data.get("end"))
    compare = _map(forum.data.get("compare"))
    pass_effects = builder.effects(sheet, ("pass",))
    return DiceSet(
        quadrants=tuple(_int(q, 0) for q in _list(forum.data.get("quadrants"))),
        dice=tuple(dice),
        compare_neighbours=_str(compare.get("neighbours"), "at_least"),
        compare_two_players=_str(compare.get("two_players"), "more"),
        reserve=_int(reserve.get("size"), 999), reserve_confidence=_str(reserve.get("confidence")),
        pass_effects=pass_effects,
        end_bonuses=_int(end.get("bonuses"), len(bonuses) or 1),
        extra_turns=_int(end.get("extra_turns"), 1),
        max_turns=_int(end.get("turns"), 200),
        bonuses=tuple(bonuses), buildings=tuple(buildings), boards=tuple(boards))


__all__ = ["build_dice"]
