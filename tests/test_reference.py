"""The shipped base set matches the reference tables card for card.

The tables in tests/reference/ are copies of the team's fact tables
(shared/reference/base-1e-*.tsv).  Their effect column is prose; it is
translated here into the compiled effects the engine uses, so a card whose
YAML says something else than the table fails.
"""

from __future__ import annotations

import re

import pytest
from reference_tables import cost as parse_cost
from reference_tables import rows as table_rows

from wonders.dsl import effects as fx
from wonders.dsl.loader import load
from wonders.dsl.model import Game

RAW = {"wood", "stone", "ore", "clay"}


@pytest.fixture(scope="module")
def base() -> Game:
    result = load(game="base")
    assert result.report.diagnostics == []
    assert result.game is not None
    return result.game


def _places(text: str) -> tuple[str, ...]:
    return tuple(text.split(","))


def _counted(text: str) -> fx.Counted:
    if text == "built wonder stage":
        return fx.CountStages()
    if text == "defeat token":
        return fx.CountTokens("defeat")
    colours = text.removesuffix(" card").split("/")
    return fx.CountCards(frozenset(colours))


def _expected_clauses(effect: str) -> list[fx.Clause]:
    """Translate one reference effect phrase into compiled clauses."""
    clauses: list[fx.Clause] = []
    for part in [p.strip() for p in effect.split(";")]:
        if m := re.fullmatch(r"produces (?:(\d+) )?([a-z|]+)( \(not buyable by neighbours\))?", part):
            clauses.append(fx.Clause(fx.Timing.ONGOING, fx.Produce(
                tuple(m.group(2).split("|")), int(m.group(1) or 1), m.group(3) is None)))
        elif m := re.fullmatch(r"(\d+) VP", part):
            clauses.append(fx.Clause(fx.Timing.END, fx.Points(fx.Amount(int(m.group(1))))))
        elif m := re.fullmatch(r"(\d+) shields?", part):
            clauses.append(fx.Clause(fx.Timing.ONGOING, fx.Shields(int(m.group(1)))))
        elif m := re.fullmatch(r"science (\w+)", part):
            clauses.append(fx.Clause(fx.Timing.ONGOING, fx.Science((m.group(1),))))
        elif part.startswith("one science symbol of your choice"):
            clauses.append(fx.Clause(fx.Timing.ONGOING,
                                     fx.Science(("compass", "wheel", "tablet"))))
        elif m := re.fullmatch(r"buy (.+) from (.+) at 1 coin", part):
            clauses.append(fx.Clause(fx.Timing.ONGOING, fx.TradePrice(
                frozenset(m.group(1).split(",")), _places(m.group(2)), 1)))
        elif m := re.fullmatch(r"\+(\d+) coins once", part):
            clauses.append(fx.Clause(fx.Timing.NOW, fx.Coins(fx.Amount(int(m.group(1))))))
        elif m := re.fullmatch(r"\+(\d+) coins once per (.+) in (.+)", part):
            term = fx.PerTerm(int(m.group(1)), 1, _counted(m.group(2)), _places(m.group(3)))
            clauses.append(fx.Clause(fx.Timing.NOW, fx.Coins(fx.Amount(0, (term,)))))
        elif m := re.fullmatch(r"\+(\d+) coins once and (\d+) VP at end per (.+) in (.+)", part):
            counted, places = _counted(m.group(3)), _places(m.group(4))
            clauses.append(fx.Clause(fx.Timing.NOW, fx.Coins(
                fx.Amount(0, (fx.PerTerm(int(m.group(1)), 1, counted, places),)))))
            clauses.append(fx.Clause(fx.Timing.END, fx.Points(
                fx.Amount(0, (fx.PerTerm(int(m.group(2)), 1, counted, places),)))))
        elif m := re.fullmatch(r"(\d+) VP at end per (.+) in (.+)", part):
            term = fx.PerTerm(int(m.group(1)), 1, _counted(m.group(2)), _places(m.group(3)))
            clauses.append(fx.Clause(fx.Timing.END, fx.Points(fx.Amount(0, (term,)))))
        elif part.startswith("may play the 7th"):
            clauses.append(fx.Clause(fx.Timing.ONGOING, fx.Ability("play_last_card")))
        elif part.startswith("build one card from the discard pile"):
            clauses.append(fx.Clause(fx.Timing.ONGOING, fx.Ability("build_from_discard")))
        elif part == "once per age, build a card for free":
            clauses.append(fx.Clause(fx.Timing.ONGOING, fx.Ability("free_build", "age")))
        elif part.startswith("at game end, copy one guild"):
            clauses.append(fx.Clause(fx.Timing.END, fx.CopyCard(frozenset({"purple"}),
                                                                 ("left", "right"))))
        else:  # pragma: no cover - a phrase this test does not know
            raise AssertionError(f"untranslated reference effect: {part!r}")
    return clauses


def _normalise(clauses: tuple[fx.Clause, ...] | list[fx.Clause]) -> list[object]:
    """Compare choices and trade sets as sets: order of alternatives carries no meaning."""
    result: list[object] = []
    for clause in clauses:
        effect = clause.effect
        if isinstance(effect, fx.Produce):
            result.append((clause.timing, "produce", frozenset(effect.resources), effect.amount,
                           effect.buyable))
        elif isinstance(effect, fx.Science):
            result.append((clause.timing, "science", frozenset(effect.symbols)))
        elif isinstance(effect, fx.PerTerm):  # pragma: no cover
            result.append(effect)
        elif isinstance(effect, (fx.Points, fx.Coins)):
            terms = tuple((t.value, t.divisor, t.counted, frozenset(t.places))
                          for t in effect.amount.terms)
            result.append((clause.timing, type(effect).__name__, effect.amount.fixed, terms))
        elif isinstance(effect, fx.TradePrice):
            result.append((clause.timing, "trade", effect.resources, frozenset(effect.places),
                           effect.price))
        else:
            result.append(clause)
    return result


CARD_ROWS = table_rows("base-1e-cards.tsv")
WONDER_ROWS = table_rows("base-1e-wonders.tsv")


def test_counts_match(base: Game) -> None:
    assert len(CARD_ROWS) == 78
    assert len(base.cards) == 78
    physical = sum(card.copies(7) for card in base.cards if not card.drawn)
    # 148 physical cards: every non-guild copy (the 7-player deck uses them all) + 10 guilds
    assert physical + sum(1 for card in base.cards if card.drawn) == 148
    assert len(base.wonders) == 7
    assert sum(len(w.sides) for w in base.wonders) == 14


@pytest.mark.parametrize("row", CARD_ROWS, ids=lambda r: f"{r['name']}-{r['age']}")
def test_card_matches_reference(base: Game, row: dict[str, str]) -> None:
    matches = [c for c in base.cards if c.name == row["name"] and c.age == int(row["age"])]
    assert len(matches) == 1, f"{row['name']} (age {row['age']}) is not in the shipped set"
    card = matches[0]
    assert card.colour == row["colour"]
    if row["copies_3p"] == "guild":
        assert card.drawn
    else:
        assert [card.copies(p) for p in range(3, 8)] == [
            int(row[f"copies_{p}p"]) for p in range(3, 8)]
    coins, resources = parse_cost(row["cost"])
    assert card.cost.coins == coins
    assert dict(card.cost.resources) == resources
    assert set(card.free_if_built) == set(filter(None, row["free_if_built"].split(",")))
    assert set(card.makes_free) == set(filter(None, row["makes_free"].split(",")))
    assert _normalise(card.effects.clauses) == _normalise(_expected_clauses(row["effect"]))


@pytest.mark.parametrize("row", WONDER_ROWS,
                         ids=lambda r: f"{r['wonder']}-{r['side']}{r['stage']}")
def test_wonder_stage_matches_reference(base: Game, row: dict[str, str]) -> None:
    wonder = base.wonder(row["wonder"])
    assert wonder is not None
    side = wonder.sides[row["side"]]
    assert _normalise(side.start.clauses) == _normalise(
        _expected_clauses(f"produces {row['starting_resource']}"))
    stage = side.stages[int(row["stage"]) - 1]
    coins, resources = parse_cost(row["cost"])
    assert (stage.cost.coins, dict(stage.cost.resources)) == (coins, resources)
    assert _normalise(stage.effects.clauses) == _normalise(_expected_clauses(row["effect"]))


def test_stage_counts(base: Game) -> None:
    expected: dict[tuple[str, str], int] = {}
    for row in WONDER_ROWS:
        key = (row["wonder"], row["side"])
        expected[key] = max(expected.get(key, 0), int(row["stage"]))
    for (name, side), stages in expected.items():
        wonder = base.wonder(name)
        assert wonder is not None and len(wonder.sides[side].stages) == stages
