"""Deck checks: for every supported player count, each age deals exactly a hand per player,
or (``offer.mechanism: structure``) fills exactly its card structure.

For the base game: Age I and II hold 7 × N cards at N players (counted from the
cards' player markers), Age III holds its non-guild cards plus N+2 guilds drawn
at random.  For Duel: each age's cards, less the ``ages.remove`` taken out
unseen, plus the drawn guilds, fill the age's layout.  A mismatch names the age,
the player count and the numbers.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Callable

from wonders.dsl.errors import Diagnostic, Location, Severity
from wonders.dsl.mechanisms import capabilities
from wonders.dsl.model import Card, Game
from wonders.dsl.rules_model import Offer


def check_decks(game: Game, rules_location: Callable[[tuple[str | int, ...]], Location],
                ) -> list[Diagnostic]:
    rules = game.rules
    found: list[Diagnostic] = []
    deck = game.deck_cards()
    by_age: dict[int, list[Card]] = defaultdict(list)
    for card in deck:
        by_age[card.age].append(card)

    pools = {(pool.age, pool.colour) for pool in rules.draws}
    colours = rules.vocabulary.colours
    # a card in an age the rule set lacks, or of an unknown colour (D603, N302): the deck
    # counts would only repeat that mistake (and advise wrongly), so they wait for its fix
    misplaced = any(card.age > rules.ages or card.colour not in colours for card in deck)
    for card in deck:
        if card.age > rules.ages:
            found.append(Diagnostic("D603", f"'{card.name}' is in age {card.age}, but the rule "
                                    f"set has {rules.ages} ages", card.location))
        elif card.age == 0:
            reserve = rules.model.reserve.colour
            found.append(Diagnostic(
                "D603", f"'{card.name}' is in age 0, which no age deals: age 0 is for the "
                + (f"reserve's {reserve} cards" if reserve else
                   "cards of a reserve, and this rule set has none (reserve: {colour: …})"),
                card.location))
            continue
        if card.drawn and (card.age, card.colour) not in pools and card.colour in colours:
            found.append(Diagnostic(
                "D602", f"'{card.name}' has no 'players' markers, but the rule set draws no "
                f"{card.colour} cards into age {card.age}: add players: [3+] (or similar)",
                card.location))
        for marker in card.players:
            if marker > rules.max_players:
                found.append(Diagnostic(
                    "D604", f"'{card.name}' has a copy marked {marker}+, but the game is for at "
                    f"most {rules.max_players} players: that copy is never used",
                    card.location, severity=Severity.WARNING))
                break

    found.extend(_check_setup(game, rules_location))
    found.extend(_check_reserve(game, rules_location))
    remove = rules.model.ages.remove
    layouts = _layouts(rules.model.offer)
    if (rules.hand is None and layouts is None) or misplaced:
        return found
    for age in range(1, rules.ages + 1):
        cards = by_age.get(age, [])
        where = cards[-1].location if cards else rules_location(("ages",))
        for players in rules.player_counts:
            dealt = sum(card.copies(players) for card in cards if not card.drawn)
            drawn = 0
            for pool in rules.draws:
                if pool.age != age:
                    continue
                wanted = pool.count.evaluate({"players": players})
                available = sum(1 for c in cards if c.drawn and c.colour == pool.colour)
                if available < wanted:
                    found.append(Diagnostic(
                        "D608", f"age {age} at {players} players draws {wanted} {pool.colour} "
                        f"cards ({pool.count.text}), but only {available} exist",
                        pool.location if pool.location.file else where))
                drawn += wanted
            spread = game.spread_counts()
            if age <= len(spread) and spread[age - 1]:   # (``spread_cards``' share)
                drawn += spread[age - 1]
            detail = f"{dealt} " + ("in the deck" if layouts is not None else "by player markers")
            detail += f" − {remove} removed" if remove else ""
            detail += f" + {drawn} drawn" if drawn else ""
            total = dealt - remove + drawn
            if layouts is not None:
                if age not in layouts:
                    continue  # D610, from the rule set's checks
                slots = layouts[age]
                if total != slots:
                    found.append(Diagnostic(
                        "D609", f"age {age} at {players} players puts {total} cards in its "
                        f"structure ({detail}), but the structure holds {slots}",
                        rules_location(("offer", "layouts", str(age)))))
                continue
            hand = rules.model.ages.hand_in(age)
            assert hand is not None
            expected = hand * players
            if total != expected:
                found.append(Diagnostic(
                    "D601", f"age {age} at {players} players has {total} cards "
                    f"({detail}), but needs {expected} ({hand} cards × {players} players)",
                    where))
    return found


def _check_setup(game: Game, rules_location: Callable[[tuple[str | int, ...]], Location],
                 ) -> list[Diagnostic]:
    """The setup lays out no more tokens (per kind) and draft wonders than are loaded."""
    found: list[Diagnostic] = []
    setup = game.rules.model.setup
    vocabulary = game.rules.vocabulary
    for kind, pools in setup.tokens.items():
        if kind not in vocabulary.tokens:
            continue  # N305, from the rule set's checks
        loaded = sum(1 for token in game.tokens if token.kind == kind)
        for pool, count in pools.items():
            if pool in vocabulary.pools and count > loaded:
                found.append(Diagnostic(
                    "D614", f"the setup puts {count} {kind} tokens in the {pool}, but only "
                    f"{loaded} are loaded", rules_location(("setup", "tokens", kind, pool))))
    draft = setup.wonders
    if draft.mechanism == "draft" and draft.pools * draft.size > len(game.wonders):
        found.append(Diagnostic(
            "D614", f"the wonder draft lays out {draft.pools} pools of {draft.size} wonders, "
            f"but only {len(game.wonders)} are loaded", rules_location(("setup", "wonders"))))
    return found


def _check_reserve(game: Game, rules_location: Callable[[tuple[str | int, ...]], Location],
                   ) -> list[Diagnostic]:
    """The reserve deals ``reserve.hand`` cards to each of the most players (D616)."""
    reserve = game.rules.model.reserve
    caps = capabilities(game.rules.model.offer.mechanism)
    if reserve.colour is None or reserve.colour not in game.rules.vocabulary.colours or (
            caps is not None and not caps.reserve):
        return []  # (an unknown colour is N302; a loop without a reserve, M905)
    cards = len(game.reserve_cards())
    wanted = reserve.hand * game.rules.max_players
    if cards >= wanted:
        return []
    return [Diagnostic("D616", f"the reserve deals {reserve.hand} {reserve.colour} cards to "
                       f"each of up to {game.rules.max_players} players ({wanted}), but only "
                       f"{cards} are loaded", rules_location(("reserve", "colour")))]


def _layouts(offer: Offer) -> dict[int, int] | None:
    """Cards in each age's structure (``offer.mechanism: structure``), else None."""
    if offer.mechanism != "structure":
        return None
    return {age: sum(len(row) for row in layout.rows) for age, layout in offer.layouts.items()}
