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
  row's token on it goes to the owner, as a card turned face up does);
* ``remove KIND token from POOLS, PLACES``: a token of a pool, or one a city owns, leaves
  the game (its owner's abilities, production and points from it stop);
* ``build free COLOURS card from last row``: a card of the structure's bottom row is
  built free (as taken: what it uncovers turns face up);
* ``build free COLOURS card from removed``: a card set-up removed unseen (every age's so
  far) is built free; only the owner sees them, while choosing (options worked out when
  asked, not kept in the queue the other seat's copy holds);
* ``swap COLOURS card with PLACES``: a built card of the owner's and one of the same
  colour of another city's change cities (a science symbol arriving counts for pairs).

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
from wonders.engine.mechanisms import bank, cities, pools, priced_row, structure, track
from wonders.engine.runtime import (
    BUILD_FREE,
    CARD_EVENT,
    COPY_SCIENCE,
    DISCARD_ACCESSIBLE,
    DISCARD_CARD,
    REMOVE_TOKEN,
    SWAP,
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
BUILD_LAST_ROW: Final = BUILD_FREE["last row"]
BUILD_REMOVED: Final = BUILD_FREE["removed"]
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
    REMOVE_TOKEN: "choosing a token to put out of the game",
    BUILD_LAST_ROW: "choosing a card of the structure's last row to build free",
    BUILD_REMOVED: "choosing a card removed at set-up to build free (only you see them)",
    SWAP: "choosing a card of another city's and one of yours of its colour to swap",
}
#: the runtime's kind of each effect (what ``runtime.now`` asks for)
KINDS: Final[dict[type, str]] = {fx.TakeCard: TAKE_CARD, fx.DiscardStructure: DISCARD_CARD,
                                 fx.CopyScience: COPY_SCIENCE, fx.RemoveToken: REMOVE_TOKEN,
                                 fx.Swap: SWAP}


def kind_of(effect: fx.Effect) -> str:
    """The follow-up kind an effect of this module asks ('' for another effect)."""
    if isinstance(effect, fx.MoveWonder):
        return WONDER_MOVES[effect.verb]
    if isinstance(effect, fx.DiscardStructure) and effect.accessible:
        return DISCARD_ACCESSIBLE
    if isinstance(effect, fx.BuildFree):
        return BUILD_FREE[effect.source]
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
    elif isinstance(effect, fx.RemoveToken):
        held = pools.state(game).pools
        for pool in effect.pools:
            found += [Move("remove", (t.name, "from", pool))
                      for t in dict.fromkeys(held.get(pool, ())) if t.kind == effect.kind]
        for target in _targets(seat, effect.places, len(towns)):
            found += [Move("remove", (t.name, "of", "player", str(target)))
                      for t in dict.fromkeys(towns[target].owned_tokens)
                      if t.kind == effect.kind]
    elif isinstance(effect, fx.BuildFree) and effect.source == "removed":
        offer = structure.state(game)
        offer.free_colours = effect.colours   # (a determinized copy asks the same again)
        found += structure.removed_moves(game, seat, effect.colours)
    elif isinstance(effect, fx.BuildFree):
        laid = structure.state(game).structure
        if laid is not None:
            layout = laid.layout
            last = len(layout.rows)
            first = len(layout.slot_rows) - len(layout.rows[-1]) if layout.rows else 0
            for slot in range(first, layout.size):
                card = laid.cards[slot]
                if (not laid.taken[slot] and layout.slot_rows[slot] == last
                        and _fits(card, effect.colours, towns[seat])):
                    found.append(Move("build", ("row", str(last), "card", str(slot - first + 1),
                                                "free")))
    elif isinstance(effect, fx.Swap):
        own = towns[seat]
        for target in _targets(seat, effect.places, len(towns)):
            for theirs in dict.fromkeys(towns[target].built):
                if theirs.colour not in effect.colours:
                    continue
                found += [Move("swap", (theirs.name, "of", "player", str(target), "for",
                                        mine.name))
                          for mine in dict.fromkeys(own.built) if mine.colour == theirs.colour]
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


def _fits(card: Any, colours: frozenset[str] | None, city: DraftedCity) -> bool:
    """Whether a free build may be ``card``: of the colours, and not one the city has."""
    return (colours is None or card.colour in colours) and card.name not in city.names


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
        if kind == BUILD_REMOVED:   # (hidden: worked out again when asked, never queued)
            found = []
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
    elif asked.kind == REMOVE_TOKEN:
        _remove_token(game, words)
    elif asked.kind == BUILD_LAST_ROW:
        laid = offer.structure
        assert laid is not None
        slot = priced_row.structure_slot(laid.layout.rows, [int(words[1]), int(words[3])])
        card = laid.cards[slot]
        laid.remove(slot)
        _build_free(game, seat, card)
        if priced_row.NAME in game.parts and priced_row.state(game).on_slots:
            game.agenda.append((priced_row.TOKENS_TASK, seat, 0))
    elif asked.kind == BUILD_REMOVED:
        for removed in (offer.removed_before, offer.removed):
            index = next((i for i, c in enumerate(removed) if c.name == words[0]), -1)
            if index >= 0:
                _build_free(game, seat, removed.pop(index))
                break
        else:
            raise RuleError(f"{words[0]} is not a card removed at set-up")
        offer.free_colours = None
    elif asked.kind == SWAP:
        _swap(game, seat, words)
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
    if asked.kind in (TAKE_WONDER, UNBUILD, REMOVE_WONDER, BUILD_WONDER, REMOVE_TOKEN, SWAP):
        kept = bank.state(game).kept   # (the wonders each can tuck under: priced again)
        for s in range(len(kept)):
            kept[s] = bank.KeptTerms()


def _build_free(game: FlowGame, seat: int, card: Any) -> None:
    """``card`` built free by ``seat``: its effects and the triggers act as for a build."""
    cities.cities_of(game)[seat].add_card(card)
    structure.arrived(game, seat, card, card.effects, CARD_EVENT, card.colour)


def _remove_token(game: FlowGame, words: tuple[str, ...]) -> None:
    """``remove NAME from POOL`` or ``remove NAME of player S``: out of the game."""
    if words[1] == "from":
        held = pools.state(game).pools[words[2]]
        held.pop(_named(held, words[0]))
        return
    city = cities.cities_of(game)[int(words[3])]
    city.owned_tokens.pop(_named(city.owned_tokens, words[0]))
    city.changed()   # (its abilities, production, symbols and points counted again)


def _swap(game: FlowGame, seat: int, words: tuple[str, ...]) -> None:
    """``swap THEIRS of player S for OWN``: each card joins the other city."""
    towns = cities.cities_of(game)
    target = int(words[3])
    owner, other = towns[seat], towns[target]
    theirs = other.built[_named(other.built, words[0])]
    mine = owner.built[_named(owner.built, words[5])]
    other.remove_card(theirs)
    owner.remove_card(mine)
    owner.add_card(theirs)
    other.add_card(mine)
    for city, card in ((seat, theirs), (target, mine)):   # (a pair, supremacy: as built)
        symbol = science_symbol(card)
        if symbol and not game.finished:
            game.table.science_arrived(city, symbol)


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
    found += _free_moves(data, players, kinds)   # (last: the earlier ids stay as they were)
    return found


def _free_moves(data: Any, players: int, kinds: set[type]) -> list[Move]:
    """Every move of ``remove … token``, ``build free …`` and ``swap …`` in ``data``."""
    from wonders.engine.runtime import every_effects
    effects = [c.effect for e in every_effects(data) for c in e.clauses]
    seats = [str(s) for s in range(players)]
    found: list[Move] = []
    if fx.RemoveToken in kinds:
        pools_named = sorted({p for e in effects if isinstance(e, fx.RemoveToken)
                              for p in e.pools})
        places = any(e.places for e in effects if isinstance(e, fx.RemoveToken))
        wanted = {e.kind for e in effects if isinstance(e, fx.RemoveToken)}
        tokens = list(dict.fromkeys(t.name for t in data.tokens if t.kind in wanted))
        found += [Move("remove", (t, "from", p)) for t in tokens for p in pools_named]
        if places:
            found += [Move("remove", (t, "of", "player", s)) for t in tokens for s in seats]
    sources = {e.source for e in effects if isinstance(e, fx.BuildFree)}
    if "last row" in sources:
        layouts = data.rules.model.offer.layouts
        rows = max((len(layout.rows) for layout in layouts.values()), default=0)
        longest = max((len(layout.rows[-1]) for layout in layouts.values() if layout.rows),
                      default=0)
        found += [Move("build", ("row", str(r), "card", str(c), "free"))
                  for r in range(1, rows + 1) for c in range(1, longest + 1)]
    cards = list(dict.fromkeys(c.name for c in data.cards))
    if "removed" in sources:
        found += [Move("build", (c, "from", "removed")) for c in cards]
    if fx.Swap in kinds:
        colours = {colour for e in effects if isinstance(e, fx.Swap) for colour in e.colours}
        by_colour: dict[str, list[str]] = {}
        for card in data.cards:
            if card.colour in colours and card.name not in by_colour.get(card.colour, []):
                by_colour.setdefault(card.colour, []).append(card.name)
        found += [Move("swap", (theirs, "of", "player", s, "for", mine))
                  for names in by_colour.values() for theirs in names for s in seats
                  for mine in names]
    return found


for _kind in WORDING:   # (the runtime's follow-ups of these kinds come here)
    cities.ROUTED[_kind] = ask
for _kind in (DISCARD_TOKEN, USE_TOKEN, DISCARD_ACCESSIBLE, BUILD_REMOVED):   # (one done,
    # then another; the removed cards: seen only by the one asked, when asked)
    cities.LATE[_kind] = options

__all__ = ["BUILD_WONDER", "DISCARD_CARD", "KINDS", "TAKE_CARD", "TAKE_WONDER", "UNBUILD",
           "WORDING", "ask", "kind_of", "options", "resolve"]
