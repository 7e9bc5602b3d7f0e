"""A rule set's ``flow:`` section, typed, and the catalogue of steps the flow interpreter runs.

The flow says how a game proceeds (``docs/flow.md``): what set-up lays out, the turn
(who decides, what it offers, what each card taken sets off, what follows the turn) and
what ends the game.  The other sections stay the parameters of the mechanisms; a step
carries its own parameters (``lay_progress: {face_up: 3}``).  :func:`read_flow` turns the
schema-valid section into a :class:`Flow` (every default here); :func:`check_flow` reports,
located, a step, offer or end condition that no mechanism runs, a step where it cannot
run, and a parameter that step does not read (M909, with "did you mean").

The catalogue (:data:`STEPS`, :data:`OFFERS`, :data:`END_CONDITIONS`) lives in the language
package because the loader checks data against it and the language never imports the
engine; the engine's interpreter (:mod:`wonders.engine.flow`) implements exactly these
names, and a test holds the two equal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Mapping

from wonders.dsl.errors import Diagnostic, Report, closest

if TYPE_CHECKING:   # (the engine reads flows; the YAML stack stays out of its imports)
    from wonders.dsl.source import Document, PathKey

SETUP, START, AFTER_CARD, AFTER = "setup", "start", "after_card", "after"
ROUND_START: Final = "round.start"
PLACES: Final = (SETUP, START, AFTER_CARD, AFTER, ROUND_START)


@dataclass(frozen=True)
class StepSpec:
    """What a step is: where in the flow it may stand, its parameters (name -> the
    JSON types it takes, and its default) and what it does, in a line for the docs."""

    places: frozenset[str]
    parameters: Mapping[str, tuple[tuple[type, ...], object]]
    does: str


_INT = (int,)
_MAP = (dict,)
_STR = (str,)
_LIST = (list,)

#: Every step the flow interpreter runs (the engine implements each; a test checks).
STEPS: Final[Mapping[str, StepSpec]] = {
    "deal_boards": StepSpec(frozenset({SETUP}), {},
                            "deal each seat a Wonder at random, with its deck"),
    "place_decks": StepSpec(frozenset({SETUP}), {},
                            "shuffle every deck; each Wonder's deck on its owner's left"),
    "lay_progress": StepSpec(frozenset({SETUP}), {"face_up": (_INT, 3)},
                             "shuffle the progress tokens into a stack, turn N face up"),
    "lay_conflict": StepSpec(frozenset({SETUP}), {"tokens": (_MAP, {})},
                             "lay conflict tokens peace side up, by player count"),
    "take_cat": StepSpec(frozenset({AFTER_CARD}), {"points": (_INT, 2)},
                         "a card with a cat: its taker takes the cat pawn (points at the end)"),
    "flip_conflict": StepSpec(frozenset({AFTER_CARD}), {},
                              "flip a peace token per horn; the last one flipped calls a battle"),
    "build_when_paid": StepSpec(frozenset({AFTER_CARD}), {},
                                "build every Wonder piece the cards taken pay for (mandatory)"),
    "progress_on_sets": StepSpec(frozenset({AFTER_CARD}),
                                 {"same": (_INT, 2), "different": (_INT, 3)},
                                 "N identical or M different science symbols: take a token"),
    "extra_card": StepSpec(frozenset({AFTER_CARD}), {},
                           "a progress token's 'one more card', optional, once a turn each"),
    "battle_if_due": StepSpec(frozenset({AFTER}), {"victory": (_INT, 3), "double": (_INT, 2)},
                              "a battle called this turn: shields compared, tokens won"),
    "deal_sheets": StepSpec(frozenset({SETUP}), {},
                            "deal each seat a sheet's board at random, and the starting coins"),
    "shake_forum": StepSpec(frozenset({START}), {},
                            "shake the forum's dice: each a face and a priced quadrant"),
    "note_counts": StepSpec(frozenset({START}), {},
                            "note each sheet's counts and defences: what gates and attacks "
                            "read this turn"),
    "bring_in_dice": StepSpec(frozenset({AFTER}), {},
                              "dice unlocked this turn join the forum"),
    "deal_pools": StepSpec(frozenset({SETUP}), {},
                           "deal the tokens into their pools (setup: tokens), shuffled"),
    "draft_wonders": StepSpec(frozenset({SETUP}), {},
                              "deal Wonders into pools (setup: wonders), picked in its order"),
    "lay_structure": StepSpec(frozenset({ROUND_START}), {},
                              "lay the round's deck out in its layout (offer: layouts)"),
    "choose_starter": StepSpec(frozenset({ROUND_START}),
                               {"who": (_STR, "weaker_military"), "from_round": (_INT, 2)},
                               "from round N, the weaker military chooses who starts"),
    "lay_chambers": StepSpec(frozenset({SETUP}),
                             {"kind": (_STR, "decree"), "chambers": (_INT, 6),
                              "sections": (_MAP, {}), "supply": (_INT, 12),
                              "face_up": (_LIST, [1, 2, 3, 4, 5, 6]), "points": (_LIST, []),
                              "line": (_STR, "chambers"), "actions": (_MAP, {})},
                             "a board of chambers in a line, a KIND token on each, N pieces "
                             "per seat; the majority controls a chamber and holds its tokens"),
    "stack_held": StepSpec(frozenset({SETUP}), {"kind": (_STR, "conspiracy")},
                           "shuffle the KIND tokens face down: drawn by 'conspire', prepared "
                           "with a taken card, triggered once"),
    "offer_held": StepSpec(frozenset({START}), {},
                           "as a turn starts, its seat may trigger one prepared held token"),
    "spread_cards": StepSpec(frozenset({SETUP}), {"colours": (_LIST, []),
                                                  "counts": (_LIST, [])},
                             "shuffle the cards of COLOURS into one stack; each round's deck "
                             "takes the next COUNTS[round] of them"),
    "price_by_count": StepSpec(frozenset({SETUP}), {"colours": (_LIST, []), "per": (_LIST, [])},
                               "cards of COLOURS cost a coin per card of PER in the city "
                               "(free with the free_counted ability)"),
    "lay_track_tokens": StepSpec(frozenset({SETUP}), {"kind": (_STR, "military"),
                                                      "zones": (_MAP, {})},
                                 "KIND tokens on the conflict track's zones, one per side: "
                                 "the seat whose shields enter the zone takes it"),
    # a priced row (mechanism priced_row): stacks of items, tokens on structure cards
    "stack_decks": StepSpec(frozenset({SETUP}),
                            {"kind": (_STR, ""), "decks": (_MAP, {}),
                             "deck_tokens": (_MAP, {})},
                            "sort the tokens of a kind into named stacks, each shuffled; "
                            "a deck token taken places an item of its stack on the row"),
    "lay_structure_tokens": StepSpec(frozenset({ROUND_START}),
                                     {"round": (_INT, 1), "kind": (_STR, ""), "draw": (_INT, 0),
                                      "slots": (_LIST, [])},
                                     "in round N, N tokens of a kind at random on structure "
                                     "cards ([row, card] from the top left, 1-based); taken "
                                     "by the player who turns the card face up"),
    "fill_row": StepSpec(frozenset({ROUND_START}), {"round": (_INT, 2), "token": (_STR, "")},
                         "in round N, put a token in the priced row's one empty space"),
    "reveal_row": StepSpec(frozenset({ROUND_START}), {"round": (_INT, 2)},
                           "in round N, turn every item of the priced row face up"),
}

#: The offers a turn may make beside its offer (``turn.offer: [structure, {NAME: …}]``):
#: another action a turn may take instead of the offer's.
PRICED_ROW: Final = "priced_row"
EXTRA_OFFERS: Final[Mapping[str, StepSpec]] = {
    PRICED_ROW: StepSpec(frozenset({"structure"}),
                         {"from_round": (_INT, 2), "prices": (_LIST, []),
                          "double": (_LIST, [])},
                         "activate an item of the row (a space per price), paying the "
                         "seat's price for its space"),
}

IN_ORDER, ALL = "in_order", "all"


@dataclass(frozen=True)
class OfferSpec:
    """What an offer is: who it asks (``in_order`` or ``all``), the follow-up decisions it
    asks with ``decide: all`` (which the flow's ``follow_ups`` orders), what it offers."""

    decide: str
    follow_ups: tuple[str, ...]
    does: str


#: The offers the interpreter runs: what a turn offers (a mechanism each).
OFFERS: Final[Mapping[str, OfferSpec]] = {
    "decks": OfferSpec(IN_ORDER, (), "the top card of the deck on the left, on the right, or "
                       "of the central deck"),
    "dice": OfferSpec(ALL, ("bonus", "extra"), "a die of the forum to cross a sheet's space "
                      "with, the next Wonder stage, or to pass"),
    "structure": OfferSpec(IN_ORDER, (), "an accessible card of the round's structure: build, "
                           "sell or tuck it under a Wonder"),
}

#: Offers whose rule sets may leave the flow out (their other sections are checked alone;
#: a game needs the flow).
FLOW_OPTIONAL: Final = frozenset({"structure"})

#: What ends a round's turns (``turn.until``).
UNTIL: Final[Mapping[str, str]] = {
    "offer_empty": "the offer has no card left",
}

#: What grants a seat another turn (``turn.again``).
AGAIN: Final[Mapping[str, str]] = {
    "replay": "an effect's 'replay': the same seat plays the next turn",
}

#: The victories raised at once, as they happen (``end.at_once``).
AT_ONCE: Final[Mapping[str, str]] = {
    "military_supremacy": "the conflict pawn reaches a capital",
    "science_supremacy": "a seat holds the rule set's number of different symbols",
    "political_supremacy": "a seat controls every chamber of the board (lay_chambers)",
}

#: The normal ends (``end.after``).
AFTER_END: Final[Mapping[str, str]] = {
    "last_round": "the last round's turns are over",
}

#: The end conditions the interpreter checks after each turn.
END_CONDITIONS: Final[Mapping[str, str]] = {
    "wonder_complete": "a seat has built every piece of its Wonder",
    "no_card": "the seat to move has no card to take",
    "end_trigger": "the sheets' end trigger was reached and its extra turns are played "
                   "(or the turn limit)",
}


@dataclass(frozen=True)
class Step:
    """A step of the flow: its name and its arguments (the parameters as written, with
    the defaults filled in)."""

    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Flow:
    """``flow``: set-up, the turn and the end (see the module's docstring)."""

    setup: tuple[Step, ...] = ()
    decide: str = IN_ORDER
    offer: str = "decks"
    start: tuple[Step, ...] = ()
    follow_ups: tuple[str, ...] = ()
    after_card: tuple[Step, ...] = ()
    after: tuple[Step, ...] = ()
    end_when: tuple[str, ...] = ()
    then: str = "end_of_turn"
    until: str | None = None
    rounds: int = 0                          # rounds: {count: N} (0: no rounds)
    round_name: str = "round"                # rounds: {name: …}
    round_start: tuple[Step, ...] = ()       # round: {start: [...]}
    again: str | None = None                 # turn.again
    until_turns: str | None = None           # turn.until
    at_once: tuple[str, ...] = ()            # end.at_once
    end_after: str | None = None             # end.after
    also: tuple[Step, ...] = ()              # turn.offer's later items: extra offers

    def step(self, name: str) -> Step | None:
        """The first step called ``name`` anywhere in the flow (None: not in it)."""
        for step in (*self.setup, *self.start, *self.after_card, *self.after,
                     *self.round_start, *self.also):
            if step.name == name:
                return step
        return None


def _section(data: Any, key: str) -> dict[str, Any]:
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, dict) else {}


def _items(data: Any, key: str) -> list[Any]:
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, list) else []


def _step(raw: Any, catalogue: Mapping[str, StepSpec] = STEPS) -> Step | None:
    if isinstance(raw, str):
        name, given = raw, {}
    elif isinstance(raw, dict) and len(raw) == 1:
        name, value = next(iter(raw.items()))
        given = value if isinstance(value, dict) else {}
    else:
        return None
    spec = catalogue.get(str(name))
    arguments = {key: default for key, (_, default) in spec.parameters.items()} if spec else {}
    arguments.update(given)
    return Step(str(name), arguments)


def _steps(raw: Any) -> tuple[Step, ...]:
    items = raw if isinstance(raw, list) else []
    return tuple(s for s in (_step(item) for item in items) if s is not None)


def _offer_items(turn: Mapping[str, Any]) -> tuple[Any, list[Any]]:
    """``turn.offer`` as (the offer, the extra offers): a name, or a list of the offer's
    name and then extra offers (each a name or ``{name: parameters}``)."""
    offer = turn.get("offer", "decks")
    if isinstance(offer, list):
        return (offer[0] if offer else "decks"), offer[1:]
    return offer, []


def has_extra_offer(flow: Flow | None, name: str) -> bool:
    """Whether ``flow``'s turn offers the extra offer ``name`` (``turn.offer: [… name]``)."""
    return flow is not None and any(step.name == name for step in flow.also)


def read_flow(data: Any) -> Flow | None:
    """The typed flow (None: the rule set has no ``flow:`` section)."""
    if not isinstance(data, dict):
        return None
    turn, end = _section(data, "turn"), _section(data, "end")
    offer, extra = _offer_items(turn)
    also = tuple(s for s in (_step(item, EXTRA_OFFERS) for item in extra) if s is not None)
    rounds = _section(data, "rounds")
    until = rounds.get("until")
    count, again, until_turns = rounds.get("count"), turn.get("again"), turn.get("until")
    after = end.get("after")
    return Flow(setup=_steps(data.get("setup")), decide=str(turn.get("decide", IN_ORDER)),
                offer=str(offer), start=_steps(turn.get("start")), also=also,
                follow_ups=tuple(str(k) for k in _items(turn, "follow_ups")),
                after_card=_steps(turn.get("after_card")),
                after=_steps(turn.get("after")),
                end_when=tuple(w for w in _items(end, "when") if isinstance(w, str)),
                then=str(end.get("then", "end_of_turn")),
                until=until if isinstance(until, str) else None,
                rounds=count if isinstance(count, int) and not isinstance(count, bool) else 0,
                round_name=str(rounds.get("name", "round")),
                round_start=_steps(_section(data, "round").get("start")),
                again=again if isinstance(again, str) else None,
                until_turns=until_turns if isinstance(until_turns, str) else None,
                at_once=tuple(w for w in _items(end, "at_once") if isinstance(w, str)),
                end_after=after if isinstance(after, str) else None)


def _unknown(report: Report, doc: Document, path: PathKey, what: str, name: str,
             known: Mapping[str, object], key: bool = False) -> None:
    report.add(Diagnostic("M909", f"unknown {what} '{name}'; the flow interpreter runs: "
                          f"{', '.join(known)}", doc.location(path, key=key), text=name,
                          suggestion=closest(name, list(known))))


def check_flow(doc: Document, report: Report, offer: str) -> None:
    """Report, located, what in the rule set's ``flow:`` no mechanism runs (M909).

    A flow is run only by the flow interpreter, which plays the offers of :data:`OFFERS`;
    the other offers are still played by their own loops (``docs/flow.md``), so a flow
    beside them is refused rather than silently ignored.  Who decides must be who the
    offer asks, and with ``decide: all`` the ``follow_ups`` must order exactly the
    offer's follow-up decisions (one left out would never be asked)."""
    data = doc.data.get("flow")
    if not isinstance(data, dict):
        if offer in OFFERS and offer not in FLOW_OPTIONAL:
            report.add(Diagnostic("M909", f"offer '{offer}' is played by the flow interpreter, "
                                  "which needs a 'flow:' section (docs/flow.md)",
                                  doc.location(("offer",), key=True), text="offer"))
        return
    if offer not in OFFERS:
        report.add(Diagnostic("M909", f"a 'flow:' section is read only by the flow interpreter "
                              f"(offer: {', '.join(OFFERS)}); offer '{offer}' is played by its "
                              "own loop, which would ignore it", doc.location(("flow",), key=True),
                              text="flow"))
        return
    turn = _section(data, "turn")
    chosen, extra = _offer_items(turn)
    if not isinstance(chosen, str):
        report.add(Diagnostic("M909", "turn.offer's list starts with the offer's name (then "
                              "its extra offers: [structure, {priced_row: …}])",
                              doc.location(("flow", "turn", "offer", 0)), text="offer"))
    for i, raw in enumerate(extra):
        _check_step(doc, report, ("flow", "turn", "offer", i + 1), chosen, raw, EXTRA_OFFERS,
                    "extra offer")
    if isinstance(chosen, str) and chosen not in OFFERS:
        _unknown(report, doc, ("flow", "turn", "offer"), "offer", chosen, OFFERS)
    elif isinstance(chosen, str) and chosen != offer:
        report.add(Diagnostic("M909", f"the turn offers '{chosen}', but the rule set's offer "
                              f"is '{offer}'", doc.location(("flow", "turn", "offer")
                                                            + ((0,) if extra else ())),
                              text=chosen))
    spec = OFFERS.get(offer)
    decide = turn.get("decide", IN_ORDER)
    if spec is not None and isinstance(decide, str) and decide != spec.decide:
        report.add(Diagnostic("M909", f"offer '{offer}' asks {spec.decide}, not {decide}",
                              doc.location(("flow", "turn", "decide") if "decide" in turn
                                           else ("flow", "turn"), key="decide" not in turn),
                              text=str(decide), suggestion=spec.decide))
    listed = [k for k in _items(turn, "follow_ups") if isinstance(k, str)]
    if spec is not None and set(listed) != set(spec.follow_ups):
        wanted = ", ".join(spec.follow_ups) or "none"
        where = ("flow", "turn", "follow_ups") if "follow_ups" in turn else ("flow", "turn")
        report.add(Diagnostic("M909", f"turn.follow_ups must order the follow-up decisions "
                              f"offer '{offer}' asks ({wanted}), not "
                              f"{', '.join(listed) or 'none'}",
                              doc.location(where, key="follow_ups" not in turn),
                              text="follow_ups"))
    sections: list[tuple[PathKey, str, Any]] = [
        (("flow", "setup"), SETUP, data.get("setup")),
        (("flow", "turn", "start"), START, turn.get("start")),
        (("flow", "turn", "after_card"), AFTER_CARD, turn.get("after_card")),
        (("flow", "turn", "after"), AFTER, turn.get("after")),
        (("flow", "round", "start"), ROUND_START, _section(data, "round").get("start"))]
    for path, place, items in sections:
        for i, raw in enumerate(items if isinstance(items, list) else []):
            _check_step(doc, report, path + (i,), place, raw)
    when = _items(_section(data, "end"), "when")
    for i, name in enumerate(when):
        if isinstance(name, str) and name not in END_CONDITIONS:
            _unknown(report, doc, ("flow", "end", "when", i), "end condition", name,
                     END_CONDITIONS)
    end = _section(data, "end")
    named: list[tuple[PathKey, str, Mapping[str, str], Any]] = [
        (("flow", "turn", "until"), "turn end", UNTIL, turn.get("until")),
        (("flow", "turn", "again"), "extra turn", AGAIN, turn.get("again")),
        (("flow", "end", "after"), "normal end", AFTER_END, end.get("after"))]
    named += [(("flow", "end", "at_once", i), "at-once victory", AT_ONCE, name)
              for i, name in enumerate(_items(end, "at_once"))]
    for path, what, known, name in named:
        if isinstance(name, str) and name not in known:
            _unknown(report, doc, path, what, name, known)
    if not when and not isinstance(end.get("after"), str):
        report.add(Diagnostic("M909", "the flow never ends: 'end: when:' names no end "
                              f"condition ({', '.join(END_CONDITIONS)}) and there is no "
                              "'end: after:'", doc.location(("flow",), key=True), text="flow"))
    rounds = _section(data, "rounds")
    if isinstance(end.get("after"), str) and not isinstance(rounds.get("count"), int):
        report.add(Diagnostic("M909", f"'end: after: {end.get('after')}' needs a number of "
                              "rounds ('rounds: {count: N}')", doc.location(("flow", "end",
                              "after")), text=str(end.get("after"))))
    if isinstance(rounds.get("count"), int) and not isinstance(turn.get("until"), str):
        report.add(Diagnostic("M909", "rounds of turns need 'turn: until:' (what ends a "
                              f"round's turns: {', '.join(UNTIL)})",
                              doc.location(("flow", "rounds"), key=True), text="rounds"))
    until = _section(data, "rounds").get("until")
    if isinstance(until, str) and until not in when:
        report.add(Diagnostic("M909", f"rounds.until '{until}' is not one of the end "
                              f"conditions the flow checks ('end: when:' has "
                              f"{', '.join(str(w) for w in when) or 'none'})",
                              doc.location(("flow", "rounds", "until")), text=until,
                              suggestion=closest(until, [str(w) for w in when])))


def _check_step(doc: Document, report: Report, path: PathKey, place: str, raw: Any,
                catalogue: Mapping[str, StepSpec] = STEPS, what: str = "step") -> None:
    name = raw if isinstance(raw, str) else next(iter(raw)) if isinstance(raw, dict) and raw \
        else None
    if not isinstance(name, str):
        return  # (a schema error already)
    spec = catalogue.get(name)
    where = path if isinstance(raw, str) else path + (name,)
    if spec is None:
        _unknown(report, doc, where, what, name, catalogue, key=not isinstance(raw, str))
        return
    if place not in spec.places:
        fits = ", ".join(sorted(spec.places))
        runs = "with offer" if catalogue is EXTRA_OFFERS else "in"
        report.add(Diagnostic("M909", f"{what} '{name}' cannot run {runs} {place} (it runs "
                              f"{runs} {fits}): it would never act", doc.location(where,
                              key=not isinstance(raw, str)), text=name))
    given = raw.get(name) if isinstance(raw, dict) else None
    for key, value in (given.items() if isinstance(given, dict) else ()):
        wanted = spec.parameters.get(key)
        if wanted is None:
            known = list(spec.parameters)
            report.add(Diagnostic("M909", f"{what} '{name}' reads no parameter '{key}' (it reads "
                                  f"{', '.join(known) or 'none'})",
                                  doc.location(where + (key,), key=True), text=str(key),
                                  suggestion=closest(str(key), known)))
        elif not isinstance(value, wanted[0]) or isinstance(value, bool):
            kind = ("a number" if wanted[0] == _INT else "a name" if wanted[0] == _STR
                    else "a list" if wanted[0] == _LIST else "a map")
            report.add(Diagnostic("M909", f"{what} '{name}': '{key}' is {kind}",
                                  doc.location(where + (key,)), text=str(value)))


__all__ = ["AFTER_END", "AGAIN", "ALL", "AT_ONCE", "END_CONDITIONS", "EXTRA_OFFERS",
           "FLOW_OPTIONAL", "Flow", "PRICED_ROW", "has_extra_offer",
           "IN_ORDER", "OFFERS", "OfferSpec", "ROUND_START", "STEPS", "Step", "StepSpec", "UNTIL",
           "check_flow", "read_flow"]
