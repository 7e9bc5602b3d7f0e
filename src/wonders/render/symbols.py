"""Compiled effects and costs as rows of symbols (:class:`~wonders.render.icons.Glyph`).

Read from the compiled objects, as :mod:`wonders.dsl.describe` is, so a picture shows
what the engine will do; the describe text goes beside it on every drawing.
"""

from __future__ import annotations

from typing import Callable

from wonders.dsl import effects as fx
from wonders.render.icons import (
    ABILITY,
    CARD,
    CHAIN,
    COIN,
    PLACE,
    POINTS,
    RESOURCE,
    SCIENCE,
    SHIELD,
    STAGE,
    TEXT,
    TOKEN,
    Glyph,
)

Make = Callable[[str], Glyph]
MAX_REPEAT = 4  # "produce 2 stone" draws two stones; more than this draws one with a number


def _or(groups: list[list[Glyph]]) -> list[Glyph]:
    out: list[Glyph] = []
    for index, group in enumerate(groups):
        if index:
            out.append(Glyph(TEXT, "/"))
        out += group
    return out


def places(names: tuple[str, ...]) -> list[Glyph]:
    """Whose cities a clause looks at: nothing for the owner's own, arrows for the
    neighbours (◀ ● ▶ when the owner's city counts too), labels for other places."""
    wanted = list(names)
    if not wanted or wanted == ["self"]:
        return []
    both = ("left" in wanted and "right" in wanted) or "neighbours" in wanted
    out: list[Glyph] = []
    if both:
        with_self = "self" in wanted
        out += ([Glyph(PLACE, "left"), Glyph(PLACE, "self"), Glyph(PLACE, "right")]
                if with_self else [Glyph(PLACE, "neighbours")])
        wanted = [p for p in wanted if p not in ("left", "right", "neighbours", "self")]
    out += [Glyph(PLACE, p) if p in ("left", "right", "self", "all", "others")
            else Glyph(TEXT, p.replace("_", " ")) for p in wanted]
    return out


def counted(item: fx.Counted) -> list[Glyph]:
    """What a ``per …`` term counts."""
    if isinstance(item, fx.CountCards):
        if not item.colours:
            return [Glyph(CARD)]
        return _or([[Glyph(CARD, c)] for c in sorted(item.colours)])
    if isinstance(item, fx.CountStages):
        return [Glyph(STAGE)]
    if isinstance(item, fx.CountTokens):
        return [Glyph(TOKEN, item.kind)]
    if isinstance(item, fx.CountCoins):
        return [Glyph(COIN)]
    if isinstance(item, fx.CountAsideCoins):
        return [Glyph(COIN), Glyph(TEXT, "aside")]
    if isinstance(item, fx.CountSets):
        return [Glyph(CARD, c) for c in item.colours]
    if isinstance(item, fx.CountKept):   # (a count the game keeps: written as a word)
        return [Glyph(TEXT, item.name)]
    return [Glyph(SCIENCE, s) for s in item.symbols]


def amount(value: fx.Amount, make: Make) -> list[Glyph]:
    """``2 + 1 per brown card in left, right`` as symbols: the unit ``make(n)`` for the
    fixed part and for each term, each term followed by what it counts and where (side by
    side, as printed cards show it; "/" separates alternatives only)."""
    parts: list[list[Glyph]] = []
    if value.fixed or not value.terms:
        parts.append([make(str(value.fixed))])
    for term in value.terms:
        per = [make(str(term.value))]   # "1 per brown card": the laurel beside the card
        if term.divisor != 1 and isinstance(term.counted, fx.CountCoins):
            what = [Glyph(COIN, value=str(term.divisor))]      # "1 per 3 coins"
        elif term.divisor != 1:
            what = [Glyph(TEXT, f"{term.divisor}×"), *counted(term.counted)]
        else:
            what = counted(term.counted)
        parts.append(per + what + places(term.places))
    out: list[Glyph] = []
    for index, part in enumerate(parts):
        if index:
            out.append(Glyph(TEXT, "+"))
        out += part
    return out


def _repeat(glyph: Glyph, count: int, numbered: Glyph) -> list[Glyph]:
    return [glyph] * count if 0 < count <= MAX_REPEAT else [numbered]


def effect(item: fx.Effect) -> list[Glyph]:
    """One effect as symbols."""
    if isinstance(item, fx.Produce):
        if item.relative:
            return [Glyph(RESOURCE, f"any {item.relative}")]
        return _or([_repeat(Glyph(RESOURCE, r), item.amount,
                            Glyph(RESOURCE, r, str(item.amount))) for r in item.resources])
    if isinstance(item, fx.Points):
        return amount(item.amount, lambda n: Glyph(POINTS, value=n))
    if isinstance(item, fx.Coins):
        return amount(item.amount, lambda n: Glyph(COIN, value=n))
    if isinstance(item, fx.Shields):
        if item.each is not None:
            return amount(fx.Amount(item.count, item.each.terms),
                          lambda n: Glyph(SHIELD, value=n))
        return _repeat(Glyph(SHIELD), item.count, Glyph(SHIELD, value=str(item.count)))
    if isinstance(item, fx.Science):
        return _or([[Glyph(SCIENCE, s)] for s in item.symbols])
    if isinstance(item, fx.TradePrice):
        return [*places(item.places), *_or([[Glyph(RESOURCE, r)]
                                            for r in sorted(item.resources)]),
                Glyph(TEXT, "="), Glyph(COIN, value=str(item.price))]
    if isinstance(item, fx.Ability):
        out = [Glyph(ABILITY, item.name)]
        if item.colours:
            out += _or([[Glyph(CARD, c)] for c in sorted(item.colours)])
        if item.once_per:
            out.append(Glyph(TEXT, "1×" if item.once_per == "game" else f"1×/{item.once_per}"))
        return out
    if isinstance(item, fx.CopyCard):
        return [Glyph(TEXT, "copy"), *_or([[Glyph(CARD, c)] for c in sorted(item.colours)]),
                *places(item.places)]
    if isinstance(item, (fx.LoseCoins, fx.GainCoins, fx.GiveCoins)):
        sign = {fx.LoseCoins: "-", fx.GainCoins: "+", fx.GiveCoins: ""}[type(item)]
        def coin(n: str) -> Glyph:
            return Glyph(COIN, value=f"{sign}{n}")
        each = None if isinstance(item, fx.GainCoins) else item.each
        coins = [] if each is not None and item.amount.is_fixed and not item.amount.fixed \
            else amount(item.amount, coin)
        if each is not None:
            coins += [Glyph(TEXT, "+")] if coins else []
            coins += amount(fx.Amount(0, each.terms), coin)
        out = [*places(item.places), Glyph(TEXT, "→" if isinstance(item, fx.GiveCoins) else ":"),
               *coins]
        if isinstance(item, fx.LoseCoins) and item.debt:
            out += [Glyph(TEXT, "or"), Glyph(TOKEN, item.debt)]
        return out
    if isinstance(item, fx.Replay):
        return [Glyph(ABILITY, "play_again")]
    if isinstance(item, fx.Destroy):
        return [Glyph(TEXT, "✕"), *_or([[Glyph(CARD, c)] for c in sorted(item.colours)]),
                *places(item.places)]
    if isinstance(item, fx.TakeToken):
        out = _repeat(Glyph(TOKEN, item.kind), item.count,
                      Glyph(TOKEN, item.kind, str(item.count)))
        if item.draw:
            out.append(Glyph(TEXT, f"1 of {item.draw}"))
        return out
    if isinstance(item, fx.Discount):
        if item.target == "wonder":
            target = [Glyph(STAGE)]
        elif item.target == "trade":
            target = [*places(item.places), Glyph(TEXT, "trade")]
        elif item.colours:
            target = _or([[Glyph(CARD, c)] for c in sorted(item.colours)])
        else:
            target = [Glyph(CARD)]
        less = "all" if item.every else f"-{item.count}"
        unit = Glyph(COIN, value=less) if item.unit == "coins" else \
            Glyph(RESOURCE, "resource", less)
        out = [*places(item.cities), *target, Glyph(TEXT, ":"), unit]
        if item.price:
            out += [Glyph(TEXT, "for"), Glyph(COIN, value=str(item.price))]
        return out
    if isinstance(item, fx.ChainPrice):   # (a card showing a chain, for N coins)
        return [Glyph(CARD), Glyph(CHAIN), Glyph(TEXT, "for"), Glyph(COIN, value=str(item.coins))]
    if isinstance(item, fx.CoinsAside):
        return [*amount(item.amount, lambda n: Glyph(COIN, value=n)), Glyph(TEXT, "aside")]
    if isinstance(item, fx.CopyScience):
        return [Glyph(TEXT, "copy"), Glyph(SCIENCE, "?"),
                *_or([[Glyph(CARD, c)] for c in sorted(item.colours)]), *places(item.places)]
    if isinstance(item, fx.DrawReserve):
        return [Glyph(TEXT, "draw"), Glyph(CARD, value=f"+{item.count}")]
    if isinstance(item, fx.BuildReserve):
        return [Glyph(TEXT, "build"), Glyph(CARD, value=str(item.count))]
    return [Glyph(TEXT, type(item).__name__)]


def trigger(item: fx.Trigger | None) -> list[Glyph]:
    """What an ``on …:`` clause waits for."""
    if item is None or item.event == "card":
        if item is None or not item.colours:
            return [Glyph(CARD)]
        return _or([[Glyph(CARD, c)] for c in sorted(item.colours)])
    if item.event == "wonder":
        return [Glyph(STAGE)]
    if item.event == "chain":
        return [Glyph(CHAIN)]
    if item.event.endswith("_token"):
        return [Glyph(TOKEN, item.event[:-6])]
    return [Glyph(TEXT, item.event.replace("_", " "))]


def condition(item: fx.Condition | None) -> list[Glyph]:
    if item is None:
        return []
    if item.kind == "wonder":
        return [Glyph(TEXT, "if"), Glyph(STAGE, value="all")]
    assert item.amount is not None and item.amount.terms
    term = item.amount.terms[0]
    return [Glyph(TEXT, f"if ≥{item.count}"), *counted(term.counted), *places(term.places)]


def clause(item: fx.Clause) -> list[Glyph]:
    """One clause: its trigger (``on …:``), the effect, its condition."""
    out: list[Glyph] = []
    if item.timing is fx.Timing.ON:
        out += [*trigger(item.trigger), Glyph(TEXT, "→")]
    out += effect(item.effect)
    return out + condition(item.condition)


def effects(value: fx.Effects) -> list[list[Glyph]]:
    """Each clause's symbols, one row per clause."""
    return [clause(c) for c in value.clauses]


def cost(value: fx.Cost) -> list[Glyph]:
    """A cost as a column of symbols: the coins, then each resource unit."""
    out: list[Glyph] = [Glyph(COIN, value=str(value.coins))] if value.coins else []
    for name, count in value.resources:
        out += _repeat(Glyph(RESOURCE, name), count, Glyph(RESOURCE, name, str(count)))
    return out


__all__ = ["amount", "clause", "cost", "counted", "effect", "effects", "places"]
