"""Cards and wonders moved between cities, the structure and the discard pile, by effects.

Each is a follow-up choice of the effect's owner (asked after what is being done, as the
runtime's own are; none to choose: it lapses), carried out here:

* ``take COLOURS card from PLACES``: a built card of those colours leaves its city and
  joins the owner's, as built there (its ``now:`` clauses do not act again);
* ``take unbuilt wonder from PLACES``: an unbuilt wonder becomes the owner's;
* ``unbuild wonder in PLACES``: a built wonder is unbuilt again (it may be built again);
  its card goes to the discard pile; what it gave once (coins, shields, a token, a
  replay) stays, what it gives for the game (production, points, abilities) goes;
* ``build wonder with discarded card``: a card of the discard pile builds one of the
  owner's unbuilt wonders, free (its effects act as when built);
* ``science of COLOURS card in PLACES``: the science symbol of a built card of those
  colours becomes the owner's too (the card stays where it is), at once: pairs and
  supremacy count it;
* ``discard any structure card``: a card of the structure not yet taken (covered or face
  down too) goes to the discard pile; the cards it uncovers turn face up (and a priced
  row's token on it goes to the owner, as a card turned face up does).

A structure game's moves name cards and wonders; a structure place is ``row R card C``
(1-based from the top left), so a face-down card is chosen without being named.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, cast

from wonders.dsl import effects as fx
from wonders.engine.actions import Action
from wonders.engine.drafted_city import DraftedCity
from wonders.engine.errors import RuleError
from wonders.engine.flow_actions import Move
from wonders.engine.flow_state import Ask
from wonders.engine.mechanisms import bank, cities, priced_row, structure, track
from wonders.engine.runtime import (
    COPY_SCIENCE,
    DISCARD_ACCESSIBLE,
    DISCARD_CARD,
    TAKE_CARD,
    TRACK_MOVES,
    WONDER_EVENT,
    WONDER_MOVES,
    Pending,
)
from wonders.engine.table import seats_at

if TYPE_CHECKING:
    from wonders.engine.flow import FlowGame

# the kinds the runtime asks (named once, in runtime.py)
TAKE_WONDER: Final = WONDER_MOVES["take"]
UNBUILD: Final = WONDER_MOVES["unbuild"]
REMOVE_WONDER: Final = WONDER_MOVES["remove"]
SKIP: Final = Move("skip")
BUILD_WONDER: Final = WONDER_MOVES["build"]
BLOCK: Final = TRACK_MOVES["block"]
DISCARD_TOKEN: Final = TRACK_MOVES["discard"]
USE_TOKEN: Final = TRACK_MOVES["use"]
#: the decisions, in words
WORDING: Final[dict[str, str]] = {
    TAKE_CARD: "choosing a card of another city to take",
    COPY_SCIENCE: "choosing a card of another city whose science symbol becomes yours",
    TAKE_WONDER: "choosing an unbuilt wonder to take",
    UNBUILD: "choosing a built wonder to unbuild",
    REMOVE_WONDER: "choosing a built wonder to put out of the game",
    DISCARD_ACCESSIBLE: "choosing an accessible card of the structure to discard",
    BUILD_WONDER: "choosing a discarded card and a wonder to build with it",
    DISCARD_CARD: "choosing a card of the structure to discard",
    BLOCK: "choosing a space of the conflict track to block",
    DISCARD_TOKEN: "choosing a military token to discard",
    USE_TOKEN: "choosing a military token to apply",
}
#: the runtime's kind of each effect (what ``runtime.now`` asks for)
KINDS: Final[dict[type, str]] = {fx.TakeCard: TAKE_CARD, fx.DiscardStructure: DISCARD_CARD,
                                 fx.CopyScience: COPY_SCIENCE}


def kind_of(effect: fx.Effect) -> str:
    """The follow-up kind an effect of this module asks ('' for another effect)."""
    if isinstance(effect, fx.MoveWonder):
        return WONDER_MOVES[effect.verb]
    if isinstance(effect, fx.DiscardStructure) and effect.accessible:
        return DISCARD_ACCESSIBLE
    return KINDS.get(type(effect), "")


def _targets(seat: int, places: tuple[str, ...], players: int) -> list[int]:
    found: list[int] = []
    for place in places:
        for target in seats_at(seat, place, players):
            if target not in found:
                found.append(target)
    return found


def options(game: FlowGame, kind: str, seat: int, effect: fx.Effect) -> list[Move]:
    """The choices of ``seat``'s follow-up now."""
    towns = cities.cities_of(game)
    found: list[Move] = []
    if isinstance(effect, fx.TakeCard):
        for target in _targets(seat, effect.places, len(towns)):
            for card in dict.fromkeys(towns[target].built):
                if card.colour in effect.colours:
                    found.append(Move("take", (card.name, "of", "player", str(target))))
    elif isinstance(effect, fx.CopyScience):
        for target in _targets(seat, effect.places, len(towns)):
            for card in dict.fromkeys(towns[target].built):
                symbol = science_symbol(card) if card.colour in effect.colours else ""
                if symbol:
                    found.append(Move("copy", (symbol, "of", card.name, "of", "player",
                                               str(target))))
    elif isinstance(effect, fx.MoveWonder) and effect.verb in ("take", "unbuild", "remove"):
        for target in _targets(seat, effect.places, len(towns)):
            city = towns[target]
            wonders = city.wonders if effect.verb == "take" else city.built_wonders
            for wonder in wonders:
                found.append(Move(effect.verb, (wonder.name, "of", "player", str(target))))
    elif isinstance(effect, fx.MoveWonder):
        for card in dict.fromkeys(structure.state(game).discard):
            for wonder in towns[seat].wonders:
                found.append(Move("wonder", (wonder.name, "with", card.name, "free")))
    elif isinstance(effect, fx.DiscardStructure):
        laid = structure.state(game).structure
        if laid is not None:
            layout = laid.layout
            open_slots = set(laid.accessible) if effect.accessible else None
            for slot in range(layout.size):
                if not laid.taken[slot] and (open_slots is None or slot in open_slots):
                    row = layout.slot_rows[slot]
                    place = slot - sum(len(r) for r in layout.rows[:row - 1]) + 1
                    found.append(Move("discard", ("row", str(row), "card", str(place))))
            if found and effect.upto:   # ("up to N": each may be skipped)
                found.append(SKIP)
    elif isinstance(effect, fx.TrackPiece):
        pawn = track.state(game)
        if effect.verb == "block":   # (any space but the pawn's: a capital too)
            reach = pawn.rules.supremacy
            found += [Move("block", ("space", str(n))) for n in range(-reach, reach + 1)
                      if n != pawn.position]
        else:
            found += [Move(effect.verb, ("military", "token", str(pawn.rules.zones[i].start),
                                         "of", "player", str(side)))
                      for i, side in sorted(pawn.tokens)]
    return found


def science_symbol(card: Any) -> str:
    """The science symbol a card shows ('' for none; of a choice, none either: a copy
    takes one symbol)."""
    for clause in card.effects.clauses:
        effect = clause.effect
        if isinstance(effect, fx.Science) and len(effect.symbols) == 1:
            return effect.symbols[0]
    return ""


def ask(game: FlowGame, kind: str, seat: int, effect: fx.Effect) -> None:
    """Queue the follow-up after what is being done (its options settled now)."""
    found = options(game, kind, seat, effect)
    if found:
        cities.state(game).pending.append(Pending(kind, seat, cast("list[Action]", found),
                                                  effect))
        game.agenda.append((cities.FOLLOW_UP, seat, 0))


def _named(items: list[Any], name: str) -> int:
    for i, item in enumerate(items):
        if item.name == name:
            return i
    raise RuleError(f"{name} is not there")


def resolve(game: FlowGame, asked: Ask, move: Any) -> None:
    """Carry out the answer (see the module's docstring)."""
    seat = asked.seat
    towns = cities.cities_of(game)
    owner: DraftedCity = towns[seat]
    words = move.words
    offer = structure.state(game)
    if asked.kind == COPY_SCIENCE:
        symbol = words[0]
        owner.add_symbol(symbol)
        game.table.science_arrived(seat, symbol)
    elif asked.kind == TAKE_CARD:
        source = towns[int(words[3])]
        card = source.built[_named(source.built, words[0])]
        source.remove_card(card)
        owner.add_card(card)
    elif asked.kind == TAKE_WONDER:
        source = towns[int(words[3])]
        owner.wonders.append(source.wonders.pop(_named(source.wonders, words[0])))
        source.changed()   # (the wonders each can tuck a card under: found again)
        owner.changed()
    elif asked.kind in (UNBUILD, REMOVE_WONDER):
        source = towns[int(words[3])]
        index = _named(source.built_wonders, words[0])
        wonder = source.built_wonders.pop(index)
        offer.discard.append(source.stage_cards.pop(index))
        source.stages -= 1
        if asked.kind == UNBUILD:   # (removed: out of the game)
            source.wonders.append(wonder)
        source.changed()
    elif asked.kind == BUILD_WONDER:
        card = offer.discard.pop(_named(offer.discard, words[2]))
        wonder = owner.wonders[_named(owner.wonders, words[0])]
        structure.arrived(game, seat, wonder, owner.add_wonder(wonder, card), WONDER_EVENT, None)
        limit = offer.setup.wonder_limit
        if limit and structure.wonders_built(game) >= limit:
            for other in towns:
                other.wonders.clear()  # the rest leave the game
    elif asked.kind in (DISCARD_CARD, DISCARD_ACCESSIBLE):
        if move.verb != "skip":
            _discard(game, seat, words)
    elif asked.kind == BLOCK:
        track.state(game).blocker = int(words[1])
    elif asked.kind in (DISCARD_TOKEN, USE_TOKEN):
        pawn = track.state(game)
        start, side = int(words[2]), int(words[5])
        index = next(i for i, zone in enumerate(pawn.rules.zones) if zone.start == start)
        if asked.kind == USE_TOKEN:
            pawn.use_token(game, index, side)
        else:
            pawn.tokens.discard((index, side))
    if asked.kind in (TAKE_WONDER, UNBUILD, REMOVE_WONDER, BUILD_WONDER):
        kept = bank.state(game).kept   # (the wonders each can tuck under: priced again)
        for s in range(len(kept)):
            kept[s] = bank.KeptTerms()


def _discard(game: FlowGame, seat: int, words: tuple[str, ...]) -> None:
    """A structure card at ``row R card C`` to the discard pile (``discard any …``)."""
    offer = structure.state(game)
    if offer.structure is not None:
        laid = offer.structure
        assert laid is not None
        slot = priced_row.structure_slot(laid.layout.rows, [int(words[1]), int(words[3])])
        offer.discard.append(laid.cards[slot])
        laid.remove(slot)
        if priced_row.NAME in game.parts and priced_row.state(game).on_slots:
            game.agenda.append((priced_row.TOKENS_TASK, seat, 0))


def every_move(data: Any, players: int) -> list[Move]:
    """Every move these effects can offer in a game of ``data`` (the fixed action ids of
    agents and OpenSpiel): none unless one of its effects is there."""
    from wonders.engine.runtime import every_effects
    kinds = {type(c.effect) for e in every_effects(data) for c in e.clauses}
    found: list[Move] = []
    seats = [str(s) for s in range(players)]
    cards = list(dict.fromkeys(c.name for c in data.cards))
    wonders = [w.name for w in data.wonders]
    if fx.TakeCard in kinds:
        found += [Move("take", (c, "of", "player", s)) for c in cards for s in seats]
    if fx.CopyScience in kinds:
        shown = {c.name: science_symbol(c) for c in data.cards}
        found += [Move("copy", (symbol, "of", name, "of", "player", s))
                  for name, symbol in shown.items() if symbol for s in seats]
    verbs = {c.effect.verb for e in every_effects(data) for c in e.clauses
             if isinstance(c.effect, fx.MoveWonder)}
    if fx.MoveWonder in kinds:
        found += [Move(verb, (w, "of", "player", s)) for verb in ("take", "unbuild")
                  for w in wonders for s in seats]
        found += [Move("wonder", (w, "with", c, "free")) for w in wonders for c in cards]
    if "remove" in verbs:
        found += [Move("remove", (w, "of", "player", s)) for w in wonders for s in seats]
    if fx.DiscardStructure in kinds:
        layouts = data.rules.model.offer.layouts
        longest = max((len(row) for layout in layouts.values() for row in layout.rows),
                      default=0)
        rows = max((len(layout.rows) for layout in layouts.values()), default=0)
        found += [Move("discard", ("row", str(r), "card", str(c)))
                  for r in range(1, rows + 1) for c in range(1, longest + 1)]
        if any(isinstance(c.effect, fx.DiscardStructure) and c.effect.upto
               for e in every_effects(data) for c in e.clauses):
            found.append(SKIP)
    if fx.TrackPiece in kinds:
        model = data.rules.model.military.track
        reach = model.supremacy
        found += [Move("block", ("space", str(n))) for n in range(-reach, reach + 1)]
        found += [Move(verb, ("military", "token", str(zone.start), "of", "player", s))
                  for verb in ("discard", "use") for zone in model.zones for s in seats]
    return found


for _kind in WORDING:   # (the runtime's follow-ups of these kinds come here)
    cities.ROUTED[_kind] = ask
for _kind in (DISCARD_TOKEN, USE_TOKEN, DISCARD_ACCESSIBLE):   # (one done, then another)
    cities.LATE[_kind] = options

__all__ = ["BUILD_WONDER", "DISCARD_CARD", "KINDS", "TAKE_CARD", "TAKE_WONDER", "UNBUILD",
           "WORDING", "ask", "kind_of", "options", "resolve"]
