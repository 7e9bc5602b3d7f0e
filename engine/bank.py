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
    answer per card)."""
    missing: list[tuple[str, int]] = []
    for resource, units in need:
        short = units - fixed.get(resource, 0)
        if short > 0:
            missing.append((resource, short))
    if not missing:
        return 0
    useful: list[tuple[str, ...]] = []  # the choices offering a missing resource
    for choice in choices:
        for resource, _ in missing:
            if resource in choice:
                useful.append(choice)
                break
    if not discount and len(useful) <= 1:
        # Nothing to waive, at most one choice: it covers one unit of the dearest missing
        # resource it offers (what the greedy below does), and the rest is bought.
        total = 0
        saved = 0
        offered = useful[0] if useful else ()
        for resource, short in missing:
            price = prices[resource]
            total += price * short
            if price > saved and resource in offered:
                saved = price
        return total - saved
    to_buy: list[str] = []  # one entry per unit
    for resource, short in missing:
        to_buy.extend([resource] * short)
    return _best(to_buy, tuple(useful), prices, discount)


def _best(short: list[str], choices: tuple[tuple[str, ...], ...], prices: dict[str, int],
          discount: int) -> int:
    """Cheapest purchase of the ``short`` units when each choice (each offering one of
    them) may cover one unit and ``discount`` units are waived.

    The sets of units that can be covered by distinct choices form a matroid (a
    transversal matroid); adding up to ``discount`` waived units keeps it one (a
    union with a uniform matroid).  So the greedy is exact: take units from the
    dearest, keep a unit when an augmenting path gives it a choice, else waive it
    while waivers last, else pay for it.
    """
    units = sorted(short, key=prices.__getitem__, reverse=True)
    if not choices:  # waive the dearest, pay for the others
        paid = 0
        for unit in units[discount:]:
            paid += prices[unit]
        return paid
    owner: list[int] = [-1] * len(choices)  # choice -> index of the unit it covers
    kept: list[str] = []
    waived = 0
    paid = 0
    for unit in units:
        kept.append(unit)
        if _augment(len(kept) - 1, kept, choices, owner, [False] * len(choices)):
            continue
        kept.pop()
        if waived < discount:
            waived += 1
        else:
            paid += prices[unit]
    return paid


def _augment(index: int, kept: list[str], choices: tuple[tuple[str, ...], ...], owner: list[int],
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
