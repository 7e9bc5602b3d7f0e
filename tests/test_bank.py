"""The bank's payment search against a brute force over every use of choice production."""

from __future__ import annotations

from collections import Counter
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from wonders.dsl.effects import Cost
from wonders.engine.bank import shortfall
from wonders.engine.bank_terms import TradeTerms
from wonders.engine.production import Production

RESOURCES = ("wood", "stone", "clay", "glass", "papyrus")


def brute_force(need: dict[str, int], own: Production, prices: dict[str, int],
                discount: int) -> int:
    best = None
    for picks in product(*[list(c) + [None] for c in own.choices]):
        have = Counter(dict(own.fixed))
        have.update(p for p in picks if p is not None)
        units = sorted((prices[r] for r, n in need.items()
                        for _ in range(max(0, n - have[r]))), reverse=True)
        paid = sum(units[discount:])
        best = paid if best is None else min(best, paid)
    assert best is not None
    return best


needs = st.dictionaries(st.sampled_from(RESOURCES), st.integers(1, 3), max_size=4)
fixed = st.dictionaries(st.sampled_from(RESOURCES), st.integers(1, 2), max_size=3)
choices = st.lists(st.lists(st.sampled_from(RESOURCES), min_size=2, max_size=3, unique=True),
                   max_size=3)
price_lists = st.lists(st.integers(1, 6), min_size=len(RESOURCES), max_size=len(RESOURCES))


@settings(max_examples=300, deadline=None)
@given(needs, fixed, choices, price_lists, st.integers(0, 2))
def test_shortfall_is_the_brute_force_minimum(need: dict[str, int], units: dict[str, int],
                                                   options: list[list[str]], price: list[int],
                                                   discount: int) -> None:
    own = Production.build(Counter(units), [tuple(c) for c in options])
    prices = dict(zip(RESOURCES, price))
    wanted = brute_force(need, own, prices, discount)
    got = shortfall(tuple(sorted(need.items())), dict(own.fixed), own.choices, prices, discount)
    assert got == wanted


def test_discount_waives_the_dearest_units() -> None:
    own = Production()
    prices = {"wood": 2, "stone": 5, "clay": 3, "glass": 4, "papyrus": 2}
    need = (("clay", 1), ("glass", 1), ("stone", 1), ("wood", 1))
    assert shortfall(need, dict(own.fixed), own.choices, prices, 2) == 5


@settings(max_examples=300, deadline=None)
@given(needs, fixed, choices, price_lists, st.integers(0, 2), st.integers(0, 3))
def test_trade_terms_cost_is_the_brute_force_minimum(need: dict[str, int],
                                                     units: dict[str, int],
                                                     options: list[list[str]],
                                                     price: list[int], discount: int,
                                                     coins: int) -> None:
    """The terms' shortcut (one pass when no resource is offered twice) agrees with the
    brute force, as the general search does."""
    own = Production.build(Counter(units), [tuple(c) for c in options])
    prices = dict(zip(RESOURCES, price))
    terms = TradeTerms(own, own.ident, prices, 0, {}, 0)
    cost = Cost(coins, tuple(sorted(need.items())))
    assert terms.cost(cost, discount) == coins + brute_force(need, own, prices, discount)


# a few choices, drawn with repeats: equal choices are grouped by the terms' shortcut
repeated = st.lists(st.sampled_from([("clay", "stone", "wood"), ("glass", "papyrus"),
                                     ("stone", "wood"), ("clay", "glass")]), max_size=4)


@settings(max_examples=300, deadline=None)
@given(needs, fixed, repeated, price_lists)
def test_trade_terms_cost_with_equal_choices(need: dict[str, int], units: dict[str, int],
                                             options: list[tuple[str, ...]],
                                             price: list[int]) -> None:
    """Equal choices (two wood|clay|stone cards) cover the dearest units they offer, as
    many as there are of them, as the brute force says."""
    own = Production.build(Counter(units), options)
    prices = dict(zip(RESOURCES, price))
    terms = TradeTerms(own, own.ident, prices, 0, {}, 0)
    cost = Cost(0, tuple(sorted(need.items())))
    assert terms.cost(cost, 0) == brute_force(need, own, prices, 0)


@settings(max_examples=200, deadline=None)
@given(needs, st.dictionaries(st.sampled_from(RESOURCES), st.integers(1, 2_000), max_size=3),
       repeated, st.lists(st.integers(1, 3_000), min_size=len(RESOURCES),
                          max_size=len(RESOURCES)))
def test_trade_terms_cost_beyond_the_packed_rates(need: dict[str, int], units: dict[str, int],
                                                  options: list[tuple[str, ...]],
                                                  price: list[int]) -> None:
    """Prices or units too large for a packed rate (10 bits each) leave the terms to the
    general search, which still answers the brute force's minimum."""
    own = Production.build(Counter(units), options)
    prices = dict(zip(RESOURCES, price))
    terms = TradeTerms(own, own.ident, prices, 0, {}, 0)
    if max(price) > 1_023 or max(units.values(), default=0) > 1_023:
        assert terms.rates is None
    cost = Cost(0, tuple(sorted(need.items())))
    assert terms.cost(cost, 0) == brute_force(need, own, prices, 0)


def test_trade_terms_rates_pack_price_units_and_group() -> None:
    """One dict lookup a cost line: a resource's rate holds its price, the units produced
    and its group of equal choices (plus one), and one just below the bound still packs."""
    own = Production.build(Counter({"wood": 1_023}), [("clay", "stone")])
    prices = dict(zip(RESOURCES, (1_023, 2, 3, 4, 5)))
    terms = TradeTerms(own, own.ident, prices, 0, {}, 0)
    assert terms.rates is not None
    assert terms.rates["wood"] == (1_023 << 20) | (1_023 << 10)
    assert terms.rates["clay"] == (3 << 20) | 1 and terms.rates["stone"] == (2 << 20) | 1
    # 1,024 wood needed, 1,023 produced: one bought at 1,023; one clay, the choice covers it
    assert terms.cost(Cost(1, (("clay", 1), ("wood", 1_024))), 0) == 1 + 1_023
