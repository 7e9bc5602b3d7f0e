"""Trading with the bank: each missing unit costs a price that depends on the rival.

The rule set's ``trade: {mechanism: bank, price: 2, add: {colours: [brown, grey],
place: opponent}}`` says: a unit of a resource costs ``price`` plus the units of
it the opponent's cards of those colours produce; ``buy RES at N`` effects fix
the price of a resource for their owner.  Supply is unlimited, so the cheapest
payment is one number: own production covers what it can (each choice card
assigned where it saves most), the rest is bought, and a ``discount N
resources`` effect waives the N dearest units still to buy.
"""

from __future__ import annotations

from dataclasses import dataclass

from wonders.dsl.rules_model import Trade


@dataclass(frozen=True)
class BankRules:
    price: int
    add_colours: frozenset[str]
    add_place: str

    @classmethod
    def from_model(cls, trade: Trade) -> "BankRules":
        """The rule set's typed ``trade`` section."""
        return cls(trade.price, frozenset(trade.add.colours), trade.add.place)


def shortfall(need: tuple[tuple[str, int], ...], fixed: dict[str, int],
              choices: tuple[tuple[str, ...], ...], prices: dict[str, int],
              discount: int) -> int:
    """Coins to buy what fixed units and choices leave of ``need``, ``discount`` units
    waived (no cache here: :class:`~wonders.engine.bank_terms.TradeTerms` keeps the
    answer per card, and answers the common cases itself)."""
    units: list[str] = []  # one entry per unit still to get, the dearest first
    values: list[int] = []  # their prices
    for resource, count in need:
        short = count - fixed.get(resource, 0)
        if short > 0:
            price = prices[resource]
            at = len(values)  # after the units as dear (a few units: no sort call)
            while at > 0 and values[at - 1] < price:
                at -= 1
            for _ in range(short):
                units.insert(at, resource)
                values.insert(at, price)
    if len(units) <= discount:
        return 0
    useful: list[tuple[str, ...]] = []  # the choices offering a missing resource
    for choice in choices:
        for resource in choice:
            if resource in units:
                useful.append(choice)
                break
    paid = 0
    if not useful:  # waive the dearest, pay for the others
        for at in range(discount, len(values)):
            paid += values[at]
        return paid
    for value in values:
        paid += value
    if not discount and len(useful) == 1:
        # Nothing to waive, one choice: it covers one unit of the dearest missing
        # resource it offers (what the greedy below does), and the rest is bought.
        offered = useful[0]
        for at, unit in enumerate(units):
            if unit in offered:
                return paid - values[at]
    return _best(units, values, useful, discount)


def _best(units: list[str], values: list[int], choices: list[tuple[str, ...]],
          discount: int) -> int:
    """Cheapest purchase of the ``units`` (dearest first, priced ``values``) when each
    choice (each offering one of them) may cover one unit and ``discount`` units are
    waived.

    The sets of units that can be covered by distinct choices form a matroid (a
    transversal matroid); adding up to ``discount`` waived units keeps it one (a
    union with a uniform matroid).  So the greedy is exact: take units from the
    dearest, keep a unit when an augmenting path gives it a choice, else waive it
    while waivers last, else pay for it.
    """
    owner: list[int] = [-1] * len(choices)  # choice -> index of the unit it covers
    seen: list[bool] = [False] * len(choices)
    kept: list[str] = []
    waived = 0
    paid = 0
    for at, unit in enumerate(units):
        kept.append(unit)
        for c in range(len(seen)):
            seen[c] = False
        if _augment(len(kept) - 1, kept, choices, owner, seen):
            continue
        kept.pop()
        if waived < discount:
            waived += 1
        else:
            paid += values[at]
    return paid


def _augment(index: int, kept: list[str], choices: list[tuple[str, ...]], owner: list[int],
             seen: list[bool]) -> bool:
    """Find a choice for ``kept[index]``, moving other units' choices if need be (Kuhn)."""
    unit = kept[index]
    for c, choice in enumerate(choices):
        if seen[c] or unit not in choice:
            continue
        seen[c] = True
        if owner[c] < 0 or _augment(owner[c], kept, choices, owner, seen):
            owner[c] = index
            return True
    return False
