"""The payment search against a brute-force reference, on random productions and costs.

The reference is written independently of the engine's algorithm: it tries every
assignment of every choice card (own and neighbours'), then every split of the
missing units between the neighbours, and keeps the Pareto-optimal (left, right)
pairs.  The engine's fast path, its general path and its caches must agree.
"""

from __future__ import annotations

from collections import Counter
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from wonders.dsl.effects import Cost
from wonders.engine.payment import NeighbourMarket, Payment, payment_options
from wonders.engine.production import Production

RESOURCES = ("wood", "stone", "ore", "clay", "glass")

units = st.dictionaries(st.sampled_from(RESOURCES), st.integers(1, 2), max_size=3)
choices = st.lists(st.lists(st.sampled_from(RESOURCES), min_size=2, max_size=4, unique=True),
                   max_size=3)
prices = st.lists(st.integers(1, 2), min_size=len(RESOURCES), max_size=len(RESOURCES))


def production(fixed: dict[str, int], options: list[list[str]]) -> Production:
    return Production.build(Counter(fixed), [tuple(o) for o in options])


def reachable(prod: Production) -> list[Counter[str]]:
    result = []
    for picks in product(*[list(c) for c in prod.choices]) if prod.choices else [()]:
        supply: Counter[str] = Counter(dict(prod.fixed))
        supply.update(picks)
        result.append(supply)
    return result


def reference(need: dict[str, int], own: Production, left: Production, right: Production,
              left_prices: list[int], right_prices: list[int]) -> set[tuple[int, int]]:
    points: set[tuple[int, int]] = set()
    for mine in reachable(own):
        missing = {r: max(n - mine[r], 0) for r, n in need.items()}
        wanted = [r for r in missing if missing[r]]
        for on_left in reachable(left):
            for on_right in reachable(right):
                for split in product(*[range(missing[r] + 1) for r in wanted]):
                    ok = all(k <= on_left[r] and missing[r] - k <= on_right[r]
                             for r, k in zip(wanted, split))
                    if ok:
                        points.add((
                            sum(k * left_prices[RESOURCES.index(r)]
                                for r, k in zip(wanted, split)),
                            sum((missing[r] - k) * right_prices[RESOURCES.index(r)]
                                for r, k in zip(wanted, split))))
    return {p for p in points
            if not any(q != p and q[0] <= p[0] and q[1] <= p[1] for q in points)}


@settings(max_examples=400, deadline=None, derandomize=True)
@given(need=st.dictionaries(st.sampled_from(RESOURCES), st.integers(1, 3), min_size=1,
                            max_size=3),
       own_fixed=units, own_choices=choices, left_fixed=units, left_choices=choices,
       right_fixed=units, right_choices=choices, left_prices=prices, right_prices=prices,
       coins=st.integers(0, 12), bank=st.integers(0, 2))
def test_matches_brute_force(need: dict[str, int], own_fixed: dict[str, int],
                             own_choices: list[list[str]], left_fixed: dict[str, int],
                             left_choices: list[list[str]], right_fixed: dict[str, int],
                             right_choices: list[list[str]], left_prices: list[int],
                             right_prices: list[int], coins: int, bank: int) -> None:
    own = production(own_fixed, own_choices)
    left = production(left_fixed, left_choices)
    right = production(right_fixed, right_choices)
    market = NeighbourMarket(RESOURCES, left, right, tuple(left_prices), tuple(right_prices))
    cost = Cost(bank, tuple(sorted(need.items())))
    got = payment_options(cost, own, coins, market)
    expected = {Payment(l, r, bank) for l, r in reference(need, own, left, right, left_prices,
                                                          right_prices)
                if bank + l + r <= coins} if bank <= coins else set()
    assert set(got) == expected
    assert len(got) == len(set(got))
    totals = [p.total for p in got]
    assert totals == sorted(totals)  # cheapest first


def test_rulebook_trading_example() -> None:
    """Buying 2 units at 2 coins each, one from each side, or both from the side that has two."""
    left = production({"wood": 2}, [])
    right = production({"wood": 1}, [])
    market = NeighbourMarket(RESOURCES, left, right, (2,) * 5, (1,) * 5)
    options = payment_options(Cost(0, (("wood", 2),)), production({}, []), 10, market)
    assert set(options) == {Payment(2, 1, 0), Payment(4, 0, 0)}
    assert options[0] == Payment(2, 1, 0)


def test_a_huge_cost_is_answered_at_once_from_what_the_neighbours_make() -> None:
    """Neighbours whose choices couple two resources make the search try splits: bounded by
    what they make, a cost of 999,999 glass and 999,999 stone is refused at once (it tried
    a million squared splits before), and a real cost still finds its payments."""
    left = production({}, [["glass", "stone"], ["glass", "stone"]])
    right = production({"glass": 1}, [["glass", "stone"]])
    market = NeighbourMarket(RESOURCES, left, right, (2,) * 5, (1,) * 5)
    huge = Cost(0, (("glass", 999_999), ("stone", 999_999)))
    assert payment_options(huge, production({}, []), 10**9, market) == []
    real = payment_options(Cost(0, (("glass", 2), ("stone", 2))), production({}, []), 20, market)
    # left gives 2 from its two choices, right 1 glass and 1 from its choice: left pays
    # 2 coins a unit, right 1, so the cheapest takes all right can give (2) and 2 from left
    assert real[0] == Payment(4, 2, 0)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(units=st.integers(1, 6), least=st.integers(0, 6), most=st.integers(0, 6),
       price_left=st.integers(0, 4), price_right=st.integers(0, 4))
def test_one_resource_front_is_the_general_front_in_its_order(
        units: int, least: int, most: int, price_left: int, price_right: int) -> None:
    """The single-resource shortcut (a range walked from the cheaper side) gives exactly
    what the general Pareto filter gives, order included (cheapest total, then least to
    the left), also with free or equal prices."""
    from wonders.engine.payment import _one_resource, _pareto
    least, most = min(least, most, units), min(max(least, most), units)
    expected = _pareto({(k * price_left, (units - k) * price_right)
                        for k in range(least, most + 1)})
    assert _one_resource(units, least, most, price_left, price_right) == expected
