"""The parameters of the card-structure flow, read once from a rule set.

The rule set selects this flow with ``offer: {mechanism: structure}`` and fills
its slots: the layouts per age, cards removed unseen, the wonder draft, token
pools, bank trading, a conflict track, science pairs and supremacy, the wonder
limit.  Everything is checked here, so a game never starts on a rule set the
flow cannot play (a :class:`RuleError` says what is missing).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from wonders.dsl import effects as fx
from wonders.dsl.model import Card, Game as GameData, Token, Wonder

from .bank import BankRules
from .errors import RuleError
from .rules import Parameters, parameters
from .structure import Layout
from .track import TrackRules

SUPPORTED = {"turns": ("sequential",), "trade": ("bank",), "military": ("track",),
             "science": ("pairs",)}


@dataclass(frozen=True)
class WonderDraft:
    pools: int
    size: int
    order: tuple[int, ...]  # the seat that picks, pick by pick


@dataclass(frozen=True)
class StructureRules:
    base: Parameters
    layouts: dict[int, Layout]
    remove: int
    draft: WonderDraft
    token_board: dict[str, int]   # token kind -> how many start face up on the board
    bank: BankRules
    track: TrackRules
    pair: fx.Effects | None       # what a pair of one science symbol gives
    science_supremacy: int        # different symbols that win at once (0: never)
    wonder_limit: int             # wonders built in all (0: no limit)
    next_age: str                 # who chooses the next age's first player
    cards_by_age: dict[int, tuple[Card, ...]]
    sell: tuple[fx.Amount, ...]   # coins a sold card gives
    decks: dict[int, tuple[Card, ...]]                       # dealt cards per age (2 players)
    draws: dict[int, tuple[tuple[tuple[Card, ...], int], ...]]  # per age: (candidates, count)
    tokens_by_kind: tuple[tuple[str, tuple[Token, ...]], ...]   # canonical order
    wonders: tuple[Wonder, ...]                              # by name
    track_tokens: frozenset[tuple[int, int]]                 # (zone, side) with a coin token
    unlocks: dict[str, tuple[Card, ...]]  # a card's name -> the cards it makes free by chain


def _section(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def _mechanism(data: dict[str, Any], slot: str, default: str) -> str:
    value = data.get(slot)
    if isinstance(value, dict):
        return str(value.get("mechanism", default))
    return str(value) if isinstance(value, str) else default


_DERIVED_KEY: Final = "structure_rules"  # this module's entry in GameData.derived


def structure_rules(data: GameData) -> StructureRules:
    """Read and check the rule set's structure-flow parameters (kept in the data's
    ``derived`` cache)."""
    cached = data.derived.get(_DERIVED_KEY)
    if isinstance(cached, StructureRules):
        return cached
    rules = data.rules
    raw = rules.parameters
    for slot, allowed in SUPPORTED.items():
        chosen = _mechanism(raw, slot, allowed[0])
        if chosen not in allowed:
            raise RuleError(f"rule set '{rules.name}': the structure offer plays with "
                            f"{slot} mechanism {' or '.join(allowed)}, not '{chosen}'")
    offer = _section(raw, "offer")
    layouts_raw = offer.get("layouts") or {}
    layouts = {int(age): Layout.from_data(layout) for age, layout in layouts_raw.items()}
    missing = [age for age in range(1, rules.ages + 1) if age not in layouts]
    if missing:
        raise RuleError(f"rule set '{rules.name}' has no structure layout for age "
                        f"{', '.join(map(str, missing))}")
    setup = _section(raw, "setup")
    wonders = _section(setup, "wonders")
    order = tuple(int(s) for s in wonders.get("order") or ())
    draft = WonderDraft(int(wonders.get("pools", 1)), int(wonders.get("size", 0)), order)
    if len(order) != draft.pools * draft.size:
        raise RuleError(f"rule set '{rules.name}': the wonder draft order has {len(order)} "
                        f"picks for {draft.pools} pools of {draft.size}")
    tokens = {str(kind): int(spec.get("board", 0))
              for kind, spec in _section(setup, "tokens").items() if isinstance(spec, dict)}
    science = _section(raw, "science")
    turns = raw.get("turns")
    next_age = str(turns.get("next_age", "weaker_military")) if isinstance(turns, dict) \
        else "weaker_military"
    by_age: dict[int, list[Card]] = {}
    for card in data.deck_cards():
        by_age.setdefault(card.age, []).append(card)
    track = TrackRules.from_data(_section(raw, "military"))
    found = StructureRules(
        base=parameters(rules),
        layouts=layouts,
        remove=int(_section(raw, "ages").get("remove", 0)),
        draft=draft,
        token_board=tokens,
        bank=BankRules.from_data(_section(raw, "trade")),
        track=track,
        pair=getattr(rules, "science_pair", None),
        science_supremacy=int(science.get("supremacy", 0)),
        wonder_limit=int(_section(raw, "wonders").get("limit", 0)),
        next_age=next_age,
        cards_by_age={age: tuple(cards) for age, cards in by_age.items()},
        sell=tuple(c.effect.amount for c in (rules.sell.clauses if rules.sell else ())
                   if isinstance(c.effect, fx.Coins)),
        decks={age: tuple(c for c in cards if not c.drawn for _ in range(c.copies(2)))
               for age, cards in by_age.items()},
        draws={age: tuple((tuple(c for c in by_age.get(age, ()) if c.drawn
                                 and c.colour == pool.colour),
                           pool.count.evaluate({"players": 2}))
                          for pool in rules.draws if pool.age == age)
               for age in range(1, rules.ages + 1)},
        tokens_by_kind=tuple((kind, tuple(sorted((t for t in data.tokens if t.kind == kind),
                                                 key=lambda t: t.name)))
                             for kind in sorted({t.kind for t in data.tokens})),
        wonders=tuple(sorted(data.wonders, key=lambda w: w.name)),
        track_tokens=frozenset((i, side) for i, zone in enumerate(track.zones) if zone.lose
                               for side in (0, 1)),
        unlocks=_unlocks(data.cards),
    )
    data.derived[_DERIVED_KEY] = found
    return found


def _unlocks(cards: tuple[Card, ...]) -> dict[str, tuple[Card, ...]]:
    """For each name a ``free_if_built`` list mentions, the cards it makes free: a city
    then keeps the set of cards its buildings make free instead of testing every
    offered card's list against its names."""
    found: dict[str, list[Card]] = {}
    for card in cards:
        for name in card.free_if_built:
            found.setdefault(name, []).append(card)
    return {name: tuple(freed) for name, freed in found.items()}

