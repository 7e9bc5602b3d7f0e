"""The generated cases of the modifier proof (tests/test_effects_matrix.py, part three).

Each case is an effect text made from the grammar's forms and a game's vocabulary and
rule parameters — every colour and place it declares, every token kind, every timing on a
card of each of its ages, trade prices around the rule set's, every ability with every
frequency — written on a probe card.  Where the case can be shown in a hand-draft
position, it carries that position and the scenario expectations its description
(``wonders cards``) promises: the numbers are worked out here from the vocabulary and the
rule set (seats, counts, token worths, battle values), never read from the engine.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

from wonders.dsl import effects as fx
from wonders.dsl.model import Card
from wonders.dsl.model import Game as GameData

NOW, ON, END, ONGOING = fx.Timing.NOW, fx.Timing.ON, fx.Timing.END, fx.Timing.ONGOING
PLAYERS = 4  # seats 0-3: left 1, right 3, seat 2 across (every place is told apart)
PROBE = "Probe"  # the probe card's name in positions (each case's own name replaces it)


@dataclasses.dataclass
class Modifier:
    """One effect text on a probe card of ``age`` (and ``colour``).  ``position`` and
    ``expect``: a scenario position and what must hold in it — after seat 0 builds the
    probe on a turn (every other seat selling a card) when ``turn``, else at once (the
    probe already built); None where no position shows the form (see ``PROVEN``)."""

    id: str
    text: str
    age: int
    colour: str
    position: dict[str, Any] | None = None
    expect: list[dict[str, Any]] | None = None
    turn: bool = True

    def scenario(self, name: str, last_card_played: bool) -> dict[str, Any]:
        """The scenario of this case, its probe named ``name``; ``last_card_played``: the
        rule set plays every hand's last card, so an age's last turn takes two turns."""
        assert self.position is not None and self.expect is not None
        position = _renamed(copy.deepcopy(self.position), name)
        expect: list[dict[str, Any]] = copy.deepcopy(self.expect)
        if self.turn and "offer" in position:  # a card structure: seat 0 takes the probe
            expect = [{"turn": {"actions": {0: {"build": name}}, "expect": expect}}]
        elif self.turn:
            players = position["players"]
            actions = {0: {"build": name}}
            actions.update({s: {"sell": players[s]["hand"][0]} for s in range(1, PLAYERS)})
            if last_card_played and len(players[0]["hand"]) == 2:
                last = {s: {"sell": players[s]["hand"][-1]} for s in range(PLAYERS)}
                expect = [{"turn": {"actions": last, "expect": expect}}]
            expect = [{"turn": {"actions": actions, "expect": expect}}]
        return {"name": self.id, "position": position, "expect": expect}


def _renamed(value: Any, name: str) -> Any:
    if isinstance(value, dict):
        return {k: _renamed(v, name) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, name) for v in value]
    return name if value == PROBE else value


def _plain(card: Card) -> bool:
    """Whether a card only scores at the end, produces or gives science (nothing it does
    moves coins or shields, or waits for a trigger, while a generated turn is played)."""
    return all(clause.condition is None and clause.timing in (END, ONGOING)
               and isinstance(clause.effect, (fx.Points, fx.Produce, fx.Science))
               for clause in card.effects.clauses)


def _boards(data: GameData, avoid: frozenset[str] = frozenset()) -> list[str]:
    """Wonders whose side A starts with one resource (none of ``avoid``) and nothing else."""
    found = []
    for wonder in data.wonders:
        side = wonder.sides.get("A")
        if side is not None and all(
                isinstance(c.effect, fx.Produce) and len(c.effect.resources) == 1
                and not set(c.effect.resources) & avoid and c.timing is ONGOING
                and c.effect.amount == 1 for c in side.start.clauses):
            found.append(wonder.name)
    return found


def _names(cards: list[Card]) -> list[str]:
    return sorted({c.name for c in cards})


def _by_colour(data: GameData, colour: str) -> list[str]:
    return _names([c for c in data.cards if c.colour == colour and _plain(c) and c.age >= 1])


# The seats each place names for seat 0 at the table of PLAYERS (the rulebook's: the left
# neighbour is seat 1, the right one seat 3; docs/scenarios.md, Seating).
SEATS: dict[str, tuple[int, ...]] = {"self": (0,), "left": (1,), "right": (3,),
                                     "neighbours": (1, 3), "others": (1, 2, 3),
                                     "all": (0, 1, 2, 3)}


def _seats(place: str) -> list[int] | None:
    """The seats a place (or places, comma-separated) names for seat 0 at the table (None:
    a place of a table without neighbours, Duel's opponent)."""
    if any(p not in SEATS for p in place.split(", ")):
        return None
    return [s for p in place.split(", ") for s in SEATS[p]]


def _position(data: GameData, age: int, last_turn: bool,
              cities: list[dict[str, Any]] | None = None,
              avoid: frozenset[str] = frozenset()) -> dict[str, Any] | None:
    """A position of ``age`` at the table: seat 0 holds the probe and cards of the age,
    every other seat cards of the age (two each on the age's ``last_turn``, else three),
    no coins, no stage built; ``cities`` adds to each seat's entry."""
    boards = _boards(data, avoid)
    size = 2 if last_turn else 3
    hand = _names([c for c in data.cards if c.age == age and _plain(c)])[:size + 1]
    if len(boards) < PLAYERS or len(hand) < size + 1:
        return None
    players = []
    for seat in range(PLAYERS):
        player: dict[str, Any] = {"wonder": boards[seat], "side": "A", "coins": 0,
                                  "hand": [PROBE] + hand[:size - 1] if seat == 0
                                  else hand[1:size + 1]}
        player.update((cities or [{}] * PLAYERS)[seat])
        players.append(player)
    return {"age": age, "players": players}


def _token_worth(data: GameData, kind: str, age: int) -> int:
    """What a counter token of ``kind`` taken in ``age`` is worth, by the rules
    (docs/language.md, take): ``score.worth``, else a battle's token of the age."""
    model = data.rules.model
    worth = model.score.worth.get(kind)
    if worth is not None:
        return worth
    battles = model.military.battles
    return battles.victory_in(age) if kind == "victory" else (
        battles.defeat if kind == "defeat" else 0)


def modifiers(data: GameData) -> list[Modifier]:
    """Every generated case of one game."""
    vocabulary, model = data.rules.vocabulary, data.rules.model
    ages, battles = model.ages.count, model.military.battles
    colours = vocabulary.colours
    other = colours[-1]  # the probe's colour where it must not count itself
    found: list[Modifier] = []

    # timings relative to the game's rounds, on a card of each age built on its last turn:
    # the age's end comes after the turn, then (but after the last age) the next age's start
    for age in range(1, ages + 1):
        for timing, times in (("now:", 1), ("on age end:", 1),
                              ("on age start:", 1 if age < ages else 0)):
            found.append(Modifier(
                f"coins-{timing[:-1].replace(' ', '-')}-age{age}", f"{timing} coins 2", age,
                other, _position(data, age, True),
                [{"state": {"player": 0, "coins": 2 * times}}]))
        # shields against neighbours without any: two victories in each battle they count in
        for timing, in_this_age in (("", True), ("now: ", True), ("on age end: ", False)):
            won = 2 if in_this_age and battles.fought_in(age) else 0
            expect: list[dict[str, Any]] = [{"state": {"player": 0, "tokens": {"victory": won}}}]
            if age < ages and battles.fought_in(age + 1):  # the next age's battles count them
                expect.append({"military": {"player": 0, "tokens": [
                    f"victory {battles.victory_in(age + 1)}"] * 2}})
            found.append(Modifier(
                f"shields-{timing.strip(': ').replace(' ', '-') or 'ongoing'}-age{age}",
                f"{timing}shields 2", age, other, _position(data, age, True), expect))

    # counts: each colour in the owner's city, each place with the first colour (seat s
    # holds s + 1 cards of it); each token kind the same way; N per counted thing
    places = [p for p in vocabulary.places if p != "most"]
    if {"left", "right"} <= set(places):
        places.append("left, right")
    counted_colours = [c for c in colours if c != other and len(_by_colour(data, c)) >= PLAYERS]
    for colour in counted_colours:
        for place in places if colour == counted_colours[0] else ["self"]:
            cities = [{"cards": _by_colour(data, colour)[:seat + 1]} for seat in range(PLAYERS)]
            seats = _seats(place)
            found.append(Modifier(
                f"coins-per-{colour}-card-in-{place.replace(', ', '-')}",
                f"now: coins 2 per {colour} card in {place}", 2, other,
                None if seats is None else _position(data, 2, False, cities),
                [{"state": {"player": 0, "coins": 2 * sum(s + 1 for s in seats or ())}}]))
    for kind in vocabulary.tokens:
        for place in places if kind == vocabulary.tokens[0] else ["self"]:
            cities = [{"tokens": [f"{kind} 1"] * (seat + 1)} for seat in range(PLAYERS)]
            seats = _seats(place)
            found.append(Modifier(
                f"coins-per-{kind}-token-in-{place.replace(', ', '-')}",
                f"now: coins 1 per {kind} token in {place}", 2, other,
                None if seats is None else _position(data, 2, False, cities),
                [{"state": {"player": 0, "coins": sum(s + 1 for s in seats or ())}}]))
        # counters taken: held, and worth their points on their line
        line = model.score.tokens.get(kind, "military")
        found.append(Modifier(
            f"take-2-{kind}-tokens", f"now: take 2 {kind} tokens", 2, other,
            _position(data, 2, False),
            [{"state": {"player": 0, "tokens": {kind: 2}}},
             {"score": {"player": 0, line: 2 * _token_worth(data, kind, 2)}}]))

    # trade prices around the rule set's: one unit of a card's cost, sold by seat 1 (left)
    price = model.trade.price
    trade_places = [p for p in places if p in ("left", "right", "neighbours")] + [""]
    for category, resources in vocabulary.resource_categories.items():
        target = next((c for c in sorted(data.cards, key=lambda c: c.name) if c.age >= 1
                       and not c.cost.coins and len(c.cost.resources) == 1
                       and c.cost.resources[0][1] == 1 and c.cost.resources[0][0] in resources
                       and not c.free_if_built), None)
        unit = target.cost.resources[0][0] if target is not None else ""
        seller = next((c for c in sorted(data.cards, key=lambda c: c.name) if _plain(c) and [
            cl.effect.resources for cl in c.effects.clauses
            if isinstance(cl.effect, fx.Produce)] == [(unit,)]), None)
        for at in range(price + 2):
            for place in trade_places:
                position = expect = None
                if target is not None and seller is not None:
                    position = _position(data, 1, False, [
                        {"cards": [PROBE], "coins": 9, "hand": [target.name]},
                        {"cards": [seller.name]}, {}, {}], avoid=frozenset({unit}))
                    # the description's price from the seller, the rule set's otherwise
                    paid = at if not place or 1 in (_seats(place) or ()) else price
                    expect = [{"payments": {"player": 0, "build": target.name,
                                            "cheapest": paid}}]
                found.append(Modifier(
                    f"buy-{category}-from-{place.replace(', ', '-') or 'anyone'}-at-{at}",
                    f"buy {category}{' from ' + place if place else ''} at {at}", 1, other,
                    position, expect, turn=False))

    # the other forms of the grammar: conditions, sums, several clauses, other counts
    first = counted_colours[0] if counted_colours else colours[0]
    two = _by_colour(data, first)[:2]
    for need, paid in ((2, 3), (3, 0)):  # "if at least N": met with 2 cards, not with 3
        found.append(Modifier(
            f"coins-if-at-least-{need}-{first}", f"now: coins 3 if at least {need} {first} "
            "cards", 2, other, _position(data, 2, False, [{"cards": two}, {}, {}, {}]),
            [{"state": {"player": 0, "coins": paid}}]))
    found.append(Modifier(
        "coins-plus-per", f"now: coins 1 + 2 per {first} card", 2, other,
        _position(data, 2, False, [{"cards": two}, {}, {}, {}]),
        [{"state": {"player": 0, "coins": 1 + 2 * 2}}]))
    found.append(Modifier(
        "two-clauses", "now: coins 1; now: coins 2", 2, other, _position(data, 2, False),
        [{"state": {"player": 0, "coins": 3}}]))
    found.append(Modifier(  # every card of the city, the probe itself included once built
        "coins-per-card", "now: coins 1 per card", 2, other,
        _position(data, 2, False, [{"cards": two}, {}, {}, {}]),
        [{"state": {"player": 0, "coins": 3}}]))
    found.append(Modifier(
        "coins-per-stage", "now: coins 2 per wonder stage", 2, other,
        _position(data, 2, False, [{"stages": 1}, {}, {}, {}]),
        [{"state": {"player": 0, "coins": 2}}]))
    found.append(Modifier(
        "coins-if-wonder-complete", "now: coins 3 if wonder complete", 2, other,
        _position(data, 2, False, [{"stages": 1}, {}, {}, {}]),
        [{"state": {"player": 0, "coins": 0}}]))   # one stage built: not complete
    if len(counted_colours) >= 2:
        a, b = counted_colours[:2]
        found.append(Modifier(  # 2 of a, 1 of b: one set
            "coins-per-set", f"now: coins 2 per set of {a}, {b} cards", 2, other,
            _position(data, 2, False, [{"cards": _by_colour(data, a)[:2]
                                        + _by_colour(data, b)[:1]}, {}, {}, {}]),
            [{"state": {"player": 0, "coins": 2}}]))
    science = [next((c.name for c in sorted(data.cards, key=lambda c: c.name) if _plain(c)
                     and [cl.effect.symbols for cl in c.effects.clauses
                          if isinstance(cl.effect, fx.Science)] == [(symbol,)]), "")
               for symbol in vocabulary.science]
    if vocabulary.science and all(science):
        found.append(Modifier(  # one card of each symbol: one complete set
            "coins-per-science-set", "now: coins 2 per science set", 2, other,
            _position(data, 2, False, [{"cards": science}, {}, {}, {}]),
            [{"state": {"player": 0, "coins": 2}}]))
    line = model.score.colours.get(other)
    found.append(Modifier(  # "points -2": taken from the line of the probe's colour
        "points-negative", "points -2", 1, other,
        _position(data, 1, False, [{"cards": [PROBE]}, {}, {}, {}]) if line else None,
        [{"score": {"player": 0, line or "": -2}}], turn=False))
    found += [Modifier(f"form-{i}", text, 2, other) for i, text in enumerate(FORMS)]

    # ability frequencies: none, once, once per period (their proofs: PROVEN)
    for ability in vocabulary.abilities:
        for frequency in ("", " once", *(f" once per {p}" for p in vocabulary.periods)):
            found.append(Modifier(f"ability-{ability}{frequency.replace(' ', '-')}",
                                  f"ability {ability}{frequency}", 1, other))
    if model.offer.mechanism == "structure":
        for case in found:
            case.position, case.expect, case.turn = _structure(data, case)
    return found


# The seats each place names for seat 0 at a table of two (a card structure's: Duel).
DUEL_SEATS: dict[str, tuple[int, ...]] = {"self": (0,), "opponent": (1,)}


def _structure(data: GameData, case: Modifier) -> tuple[dict[str, Any] | None,
                                                        list[dict[str, Any]] | None, bool]:
    """The position and expectations of a case in a card-structure game (two players; the
    probe offered alone, seat 0 to move; docs/scenarios.md, Card-structure games): seat 0
    holds 1 counted thing, seat 1 2 (of cards of a colour, of tokens)."""
    vocabulary = data.rules.vocabulary
    words = case.id.split("-")

    def position(players: list[dict[str, Any]], age: int = case.age) -> dict[str, Any]:
        return {"age": age, "offer": [PROBE],
                "players": [{"coins": 0, **p} for p in players]}

    def coins(n: int) -> list[dict[str, Any]]:
        return [{"state": {"player": 0, "coins": n}}]

    tokens = [t.name for t in data.tokens if all(
        c.timing in (NOW, END) and c.condition is None for c in t.effects.clauses)]
    if words[0] == "coins" and words[1] == "now":
        return position([{}, {}]), coins(2), True
    if words[0] == "shields" and words[1] in ("ongoing", "now"):
        return position([{}, {}]), [{"conflict": 2}], True  # the pawn moves as they arrive
    if case.id.startswith("coins-per-") and words[-2] == "in" and words[-1] in DUEL_SEATS:
        counted = DUEL_SEATS[words[-1]][0] + 1
        if words[3] == "card":
            have = _by_colour(data, words[2])
            players = [{"cards": have[:1]}, {"cards": have[:2]}]
        else:
            players = [{"owned_tokens": tokens[:1]}, {"owned_tokens": tokens[1:3]}]
        amount = 2 if words[3] == "card" else 1
        return position(players), coins(amount * counted), True
    if words[0] == "buy" and words[3] == "anyone":  # the bank's 2 + 1 (seat 1's unit): above
        at = int(words[-1])
        resources = vocabulary.resource_categories[words[1]]
        seller = next((c for c in sorted(data.cards, key=lambda c: c.name) if _plain(c) and [
            cl.effect.resources for cl in c.effects.clauses
            if isinstance(cl.effect, fx.Produce)] == [(resources[0],)]), None)
        if seller is None:
            return None, None, False
        return ({"age": 1, "offer": [], "players": [{"cards": [PROBE]},
                                                   {"cards": [seller.name]}]},
                [{"prices": {"player": 0, resources[0]: at}}], False)
    first = next(c for c in vocabulary.colours if len(_by_colour(data, c)) >= PLAYERS)
    two = _by_colour(data, first)[:2]
    simple: dict[str, tuple[list[dict[str, Any]], int]] = {
        f"coins-if-at-least-2-{first}": ([{"cards": two}, {}], 3),
        f"coins-if-at-least-3-{first}": ([{"cards": two}, {}], 0),
        "coins-plus-per": ([{"cards": two}, {}], 5),
        "two-clauses": ([{}, {}], 3),
        "coins-per-card": ([{"cards": two}, {}], 3),
        "coins-per-stage": ([{"built_wonders": [data.wonders[0].name]}, {}], 2),
    }
    if case.id in simple:
        players, n = simple[case.id]
        return position(players), coins(n), True
    if case.id == "coins-per-set":
        a, b = case.text.split("set of ")[1].split(" cards")[0].split(", ")
        return (position([{"cards": _by_colour(data, a)[:2] + _by_colour(data, b)[:1]}, {}]),
                coins(2), True)
    if case.id == "points-negative":
        line = data.rules.model.score.colours.get(case.colour)
        if line is None:
            return None, None, False
        return ({"age": 1, "offer": [], "players": [{"cards": [PROBE]}, {}]},
                [{"score": {"player": 0, line: -2}}], False)
    return None, None, False


# Forms of the grammar the shipped data writes, each proven by the scenarios of the cards
# that carry it (PROVEN); here they are checked to be refused wherever a loop lacks them.
FORMS: tuple[str, ...] = (
    "now: coins 6; on chain: coins 4", "on buy: coins 1", "on bank coins: coins 1",
    "produce any produced unbuyable", "produce any unproduced unbuyable",
    "produce any raw unbuyable", "produce wood | stone", "science any",
    "discount every resource on wonder", "discount 1 coin on trade from left",
    "discount 1 resource on cards for 1 coin", "discount 1 coin on yellow cards",
    "discount 1 resource on wonder", "others loses 2 coins or debt tokens",
    "others loses 1 coin per victory token in them or debt tokens",
    "end: points 1 per 3 coins", "ability free_build on purple cards",
    "on victory token: coins 2",
)

# The forms that validate and have no generated position, with where they are proven.
PROVEN: dict[str, str] = {
    "now: coins 6; on chain: coins 4": "tests/scenarios/leaders.yaml (a leader's chain coins)",
    "on buy: coins 1": "tests/scenarios/leaders.yaml",
    "on bank coins: coins 1": "tests/scenarios/leaders-cities.yaml",
    "produce any produced unbuyable": "tests/scenarios/cities.yaml",
    "produce any unproduced unbuyable": "tests/scenarios/cities.yaml",
    "produce any raw unbuyable": "tests/scenarios/trading.yaml (Caravansery)",
    "produce wood | stone": "tests/scenarios/trading.yaml",
    "science any": "tests/scenarios/science.yaml (the wildcards)",
    "discount every resource on wonder": "tests/scenarios/cities.yaml",
    "discount 1 coin on trade from left": "tests/scenarios/cities.yaml",
    "discount 1 resource on cards for 1 coin": "tests/scenarios/leaders.yaml",
    "discount 1 coin on yellow cards": "tests/scenarios/conditions.yaml",
    "discount 1 resource on wonder": "tests/scenarios/leaders.yaml",
    "others loses 2 coins or debt tokens": "tests/scenarios/cities.yaml",
    "others loses 1 coin per victory token in them or debt tokens":
        "tests/scenarios/cities.yaml",
    "end: points 1 per 3 coins": "tests/scenarios/leaders.yaml, the treasury everywhere",
    "ability free_build on purple cards": "tests/scenarios/conditions.yaml",
    "on victory token: coins 2": "tests/scenarios/modifiers.yaml (a token taken too)",
    "ability free_build": "tests/test_modifiers.py (every turn it is of use)",
    "ability free_build once": "tests/test_modifiers.py (one card in the game)",
    "ability free_build once per age": "tests/test_modifiers.py, tests/scenarios/powers.yaml",
    "ability play_last_card": "tests/scenarios/powers.yaml (Babylon B)",
    "ability play_last_card once": "tests/test_modifiers.py (the first age only)",
    "ability play_last_card once per age": "tests/test_modifiers.py (every age)",
    "ability build_from_discard": "tests/scenarios/powers.yaml (Halikarnassus)",
    "ability build_from_discard once": "the same as without a frequency: it acts when built",
    "ability free_first_of_colour": "tests/scenarios/base2e.yaml",
    "ability free_first_of_age": "tests/scenarios/base2e.yaml",
    "ability free_last_of_age": "tests/scenarios/base2e.yaml",
    "ability defeats_to_victor": "tests/scenarios/leaders.yaml",
    "ability trade_income": "tests/scenarios/duel-trading.yaml",
    "ability extra_action": "tests/scenarios/dice-rules.yaml",
    "ability extra_action once": "the same as without a frequency: it acts when crossed",
    "ability free_die": "tests/scenarios/dice-rules.yaml",
    "ability free_die once": "the same as without a frequency: it acts when crossed",
}
