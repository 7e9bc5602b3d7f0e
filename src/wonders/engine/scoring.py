"""Final scoring: the score sheet in the rule set's categories, and the winners.

Each line says where points came from, so a reader sees why someone won:
military tokens, treasury (coins), wonder stages, card points by colour
(civilian, commercial, guilds), science (identical symbols squared plus a bonus
per complete set, wildcards chosen for the best score), and copied cards
(scored as the copier's own, on the line of the card's colour, once).
"""

from __future__ import annotations

from itertools import product
from typing import Final, Sequence, cast

from wonders.dsl import effects as fx
from wonders.dsl.model import Card, Token
from wonders.engine.city import CARD, COPIED, STAGE, TOKEN, City, with_picks
from wonders.engine.rules import Parameters
from wonders.engine.table import at, seats_at

MOST: Final = "most"
_END: Final = fx.Timing.END
_SELF: Final = ("self",)
_SELF_NAME: Final = "self"
Source = tuple[str, object, fx.Effects]


def amount(value: fx.Amount, seat: int, cities: Sequence[City]) -> int:
    """Evaluate an amount for the city at ``seat`` (``1 per brown card in left, right``)."""
    total = value.fixed
    for term in value.terms:
        places = term.places
        # the common case, without building a list of cities (not ``places == _SELF``:
        # compiled, a Final tuple is built anew at each use).  Every loop hands a list:
        # compiled, a list is indexed natively, a Sequence through a generic call.
        if len(places) == 1 and places[0] == _SELF_NAME:
            city: City
            if isinstance(cities, list):  # (a list of Any once narrowed: typed again here)
                city = cast("list[City]", cities)[seat]
            else:
                city = cities[seat]
            what = term.counted
            if isinstance(what, fx.CountCards):  # the commonest count, asked directly
                found = city.cards_of(what.colours)
            else:
                found = city.count(what)
            total += term.value * (-(-found // term.divisor) if term.up
                                   else found // term.divisor)
            continue
        if MOST in places:  # the city with the most of the counted thing (a plain loop:
            # compiled, max() of a generator is a generic call)
            counted = cities[0].count(term.counted)
            for other in range(1, len(cities)):
                found = cities[other].count(term.counted)
                if found > counted:
                    counted = found
        else:   # each city the places name once (at two seats, left is right)
            counted = 0
            seen: list[int] = []
            for place in places:
                for other in seats_at(seat, place, len(cities)):
                    if other not in seen:
                        seen.append(other)
                        counted += cities[other].count(term.counted)
        total += term.value * (-(-counted // term.divisor) if term.up
                               else counted // term.divisor)
    return total


def holds(condition: fx.Condition | None, seat: int, cities: Sequence[City]) -> bool:
    """Whether a clause's condition holds for the city at ``seat`` now (None: always):
    ``if wonder complete`` — every stage of its board built; ``if at least N …`` — the
    count reaches N.  The effect runtime asks when a clause would act, scoring at the end."""
    if condition is None:
        return True
    if condition.kind == "wonder":
        city = cities[seat]
        return 0 < len(city.side.stages) <= city.stages
    counted = condition.amount
    return counted is not None and amount(counted, seat, cities) >= condition.count


def science_and_sets(fixed: dict[str, int], choices: Sequence[tuple[str, ...]],
                     symbols: Sequence[str], set_points: int, bonus: int) -> tuple[int, int]:
    """The science score and the complete sets of the wildcard choice that is best for the
    science score plus ``bonus`` points per set (``end: points 3 per science set``)."""
    best, best_sets, best_total = 0, 0, -1
    for picks in product(*choices) if choices else [()]:
        counts = with_picks(fixed, picks)
        sets = min((counts.get(s, 0) for s in symbols), default=0) if symbols else 0
        score = sum(n * n for n in counts.values()) + set_points * sets
        if score + bonus * sets > best_total:
            best, best_sets, best_total = score, sets, score + bonus * sets
    return best, best_sets


def _science_set_bonus(sources: Sequence[Source]) -> int:
    """Points per own complete science set the city's ``end:`` clauses give (0: none)."""
    bonus = 0
    for _, _, effects in sources:
        for clause in effects.clauses:
            if clause.timing is _END and isinstance(clause.effect, fx.Points):
                for term in clause.effect.amount.terms:
                    if isinstance(term.counted, fx.CountScienceSets) and term.places == _SELF:
                        bonus += term.value
    return bonus


def science_points(fixed: dict[str, int], choices: Sequence[tuple[str, ...]],
                   symbols: Sequence[str], set_points: int) -> int:
    """Best science score: each symbol's count squared + ``set_points`` per complete set."""
    best = 0
    for picks in product(*choices) if choices else [()]:
        counts = with_picks(fixed, picks)
        score = sum(n * n for n in counts.values())
        if symbols:
            score += set_points * min(counts.get(s, 0) for s in symbols)
        best = max(best, score)
    return best


class ScoreSheet:
    """One row per player: the lines in order and the total; winners share first place.

    Ties in points are broken by ``tie_break``: ``coins`` or a score line's name
    (Duel breaks ties on civilian points).  A game won outright (military or
    scientific supremacy) has ``decided`` set to the winners and ``victory`` says
    how it was won; ``civilian`` is the win on points after the last age.

    A plain class with its ``__init__``, ``__eq__`` and ``__repr__`` written out rather
    than a dataclass: compiled, a dataclass's generated ``__init__`` runs interpreted, and a
    greedy policy builds a sheet for every action it values.
    """

    def __init__(self, order: tuple[str, ...], lines: list[dict[str, int]], coins: list[int],
                 copied: list[list[str]] | None = None, tie_break: tuple[str, ...] = ("coins",),
                 victory: str = "civilian", decided: tuple[int, ...] | None = None,
                 counts: dict[str, list[int]] | None = None) -> None:
        self.order = order
        self.lines = lines
        self.coins = coins
        self.copied: list[list[str]] = [] if copied is None else copied
        self.tie_break = tie_break
        self.victory = victory
        self.decided = decided
        # per seat, counts a tie-break may name that are no score line (pieces built)
        self.counts: dict[str, list[int]] = {} if counts is None else counts

    def _fields(self) -> tuple[object, ...]:
        return (self.order, self.lines, self.coins, self.copied, self.tie_break, self.victory,
                self.decided, self.counts)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ScoreSheet):
            return NotImplemented
        return self._fields() == other._fields()

    def __repr__(self) -> str:
        return (f"ScoreSheet(order={self.order!r}, lines={self.lines!r}, coins={self.coins!r}, "
                f"copied={self.copied!r}, tie_break={self.tie_break!r}, "
                f"victory={self.victory!r}, decided={self.decided!r})")

    def total(self, seat: int) -> int:
        return sum(self.lines[seat].values())

    @property
    def totals(self) -> list[int]:
        return [self.total(s) for s in range(len(self.lines))]

    def _key(self, seat: int) -> tuple[int, ...]:
        won = 1 if self.decided is not None and seat in self.decided else 0
        return (won, self.total(seat),
                *(self.coins[seat] if name == "coins" else self.counts[name][seat]
                  if name in self.counts else self.lines[seat].get(name, 0)
                  for name in self.tie_break))

    def ranking(self) -> list[int]:
        """Seats from first to last: an outright win, then points, then the tie-breaks."""
        return sorted(range(len(self.lines)), key=lambda s: tuple(-v for v in self._key(s)) + (s,))

    @property
    def winners(self) -> list[int]:
        if self.decided is not None:
            return list(self.decided)
        best = max(self._key(s) for s in range(len(self.lines)))
        return [s for s in range(len(self.lines)) if self._key(s) == best]

    def to_json(self) -> dict[str, object]:
        return {
            "order": list(self.order),
            "players": [
                {"seat": s, "lines": dict(self.lines[s]), "total": self.total(s),
                 "coins": self.coins[s], "copied": self.copied[s] if self.copied else []}
                for s in range(len(self.lines))
            ],
            "winners": self.winners,
            "victory": self.victory,
        }


def _city_lines(city: City, cities: Sequence[City], params: Parameters, science: Sequence[str],
                extra: Sequence[Card], own: list[Source]) -> dict[str, int]:
    """The city's lines, its effect sources ``own`` (``city.sources()``) and the copied
    cards ``extra`` scored as its own."""
    lines: dict[str, int] = {name: 0 for name in params.score_order}
    colour_lines = params.colour_lines  # the rule set's, or its model's default
    token_lines = params.token_lines
    for kind, points in city.tokens:  # military tokens, and counters on their own lines
        line = token_lines.get(kind, "military") if token_lines else "military"
        lines[line] = lines.get(line, 0) + points
    if params.treasury is not None:
        for clause in params.treasury.clauses:
            if isinstance(clause.effect, fx.Points):
                lines["treasury"] = (lines.get("treasury", 0)
                                     + amount(clause.effect.amount, city.seat, cities))
    sources = own + [(CARD, card, card.effects) for card in extra] if extra else own
    science_line: int | None = None
    own_sets = -1  # the complete science sets of the wildcards chosen (-1: not needed)
    if params.science_mechanism == "sets":  # other mechanisms score science elsewhere
        fixed, choices = city.science_symbols()
        for card in extra:
            for clause in card.effects.clauses:
                if isinstance(clause.effect, fx.Science):
                    if len(clause.effect.symbols) == 1:
                        symbol = clause.effect.symbols[0]
                        fixed[symbol] = fixed.get(symbol, 0) + 1
                    else:
                        choices.append(clause.effect.symbols)
        bonus = _science_set_bonus(sources)
        if bonus:
            science_line, own_sets = science_and_sets(fixed, choices, science,
                                                      params.science_set, bonus)
        else:
            science_line = science_points(fixed, choices, science, params.science_set)
    for kind, what, effects in sources:
        for clause in effects.clauses:
            if clause.timing is not _END or not isinstance(clause.effect, fx.Points):
                continue
            if clause.condition is not None and not holds(clause.condition, city.seat, cities):
                continue
            if own_sets >= 0 and any(isinstance(t.counted, fx.CountScienceSets)
                                     and t.places == _SELF
                                     for t in clause.effect.amount.terms):
                points = _with_sets(clause.effect.amount, city.seat, cities, own_sets)
            else:
                points = amount(clause.effect.amount, city.seat, cities)
            if kind == STAGE:
                line = "wonder"
            elif (kind == CARD or kind == COPIED) and isinstance(what, Card):
                line = colour_lines.get(what.colour, what.colour)
            elif kind == TOKEN and isinstance(what, Token):
                line = params.token_lines.get(what.kind, what.kind)
            else:
                line = "wonder"
            lines[line] = lines.get(line, 0) + points
    if science_line is not None:
        lines["science"] = lines.get("science", 0) + science_line
    return lines


def _with_sets(value: fx.Amount, seat: int, cities: Sequence[City], sets: int) -> int:
    """``amount`` with the city's own science sets taken as ``sets`` (the wildcard choice
    the science score made together with these points)."""
    total = value.fixed
    for term in value.terms:
        if isinstance(term.counted, fx.CountScienceSets) and term.places == _SELF:
            total += term.value * (sets // term.divisor)
        else:
            total += amount(fx.Amount(0, (term,)), seat, cities)
    return total


def score_city(city: City, cities: Sequence[City], params: Parameters,
               science: Sequence[str]) -> tuple[dict[str, int], list[str]]:
    """A city's lines, with copy effects resolved to the best choice; and what was copied."""
    own = list(city.sources())   # listed once: every pick of the copies reads them again
    copies: list[fx.CopyCard] = []
    for _, _, effects in own:
        for clause in effects.clauses:
            if clause.timing is _END and isinstance(clause.effect, fx.CopyCard):
                copies.append(clause.effect)
    if not copies:
        return _city_lines(city, cities, params, science, (), own), []
    # each copy's candidates: (seat, card) of the cities it copies from, by name then
    # seat. Each copy chooses on its own, from every card of those colours there: a card
    # whose name the owner has built too (a neighbour's green card of a name the owner
    # has gives a second symbol), the same card another copy of the city chose (the
    # rules copy what a card shows, and say nothing against two copies of it). None last: a
    # copy with no candidate copies nothing; a card adds no negative points, so None never beats
    # a real pick
    options: list[list[Card | None]] = []
    for copy in copies:
        found = [(other.seat, c) for other in at(cities, city.seat, copy.places)
                 for c in other.built if c.colour in copy.colours]
        found.sort(key=lambda pick: (pick[1].name, pick[0]))
        offered: list[Card | None] = []
        for _, card in found:  # one card twice (same-named in both cities) scores the same
            if card not in offered:
                offered.append(card)
        offered.append(None)
        options.append(offered)
    best: tuple[int, dict[str, int], list[str]] | None = None
    for picks in product(*options):
        cards = [card for card in picks if card is not None]
        lines = _city_lines(city, cities, params, science, cards, own)
        total = sum(lines.values())
        if best is None or total > best[0]:
            best = (total, lines, [card.name for card in cards])
    assert best is not None  # the all-None pick is always allowed
    return best[1], best[2]


def score(cities: Sequence[City], params: Parameters, science: Sequence[str],
          extra: Sequence[dict[str, int]] = ()) -> ScoreSheet:
    """The score sheet; ``extra`` adds points per seat to named lines (a conflict track's)."""
    lines, copied = [], []
    extra_lines: list[str] = []
    score_order = params.score_order
    for seat, city in enumerate(cities):
        city_lines, city_copied = score_city(city, cities, params, science)
        if extra:
            for name, points in extra[seat].items():
                city_lines[name] = city_lines.get(name, 0) + points
        lines.append(city_lines)
        copied.append(city_copied)
        # a city's lines are the rule set's, in its order, and then any others it scored
        if len(city_lines) > len(score_order):
            extra_lines += [k for k in city_lines if k not in score_order
                            and k not in extra_lines]
    if not extra_lines:  # every row already holds exactly the rule set's lines, in order
        return ScoreSheet(score_order, lines, [c.coins for c in cities], copied,
                          params.tie_break)
    order = score_order + tuple(extra_lines)
    ordered = [{name: row.get(name, 0) for name in order} for row in lines]
    return ScoreSheet(order, ordered, [c.coins for c in cities], copied, params.tie_break)
