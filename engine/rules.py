"""The engine's reading of a rule set: the parameters its mechanisms need, typed.

The dsl validates the rule set's shape; here it becomes the numbers and names
the game loop uses.  Abilities the rule set declares must be ones the engine
implements (a rule set cannot ask for a power nobody wrote).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wonders.dsl.effects import Effects
from wonders.dsl.model import RuleSet

from .errors import RuleError

IMPLEMENTED_ABILITIES = frozenset({"free_build", "build_from_discard", "play_last_card",
                                   "trade_income"})
DEFAULT_SCORE_ORDER = ("military", "treasury", "wonder", "civilian", "science", "commercial",
                       "guilds")


@dataclass(frozen=True)
class Parameters:
    start_coins: int
    wonder_side: str
    hand: int
    passes: tuple[str, ...]
    last_card: str
    sell: Effects | None
    trade_price: int
    buyable: frozenset[str]
    victory: tuple[int, ...]
    defeat: int
    science_set: int
    treasury: Effects | None
    score_order: tuple[str, ...]
    colour_lines: dict[str, str]
    tie_break: tuple[str, ...]
    resources: tuple[str, ...]
    science_mechanism: str = "sets"
    token_lines: dict[str, str] = field(default_factory=dict)


def _section(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def parameters(rules: RuleSet) -> Parameters:
    data = rules.parameters
    unknown = set(rules.vocabulary.abilities) - IMPLEMENTED_ABILITIES
    if unknown:
        raise RuleError(f"rule set '{rules.name}' declares abilities the engine does not "
                        f"implement: {', '.join(sorted(unknown))}")
    offer = _section(data, "offer").get("mechanism", "draft")
    if offer == "draft" and rules.hand is None:
        raise RuleError(f"rule set '{rules.name}' has no hand size: the drafting game needs "
                        "ages.hand")
    setup = _section(data, "setup")
    ages = _section(data, "ages")
    trade = _section(data, "trade")
    military = _section(data, "military")
    science = _section(data, "science")
    score = _section(data, "score")
    passes = tuple(ages.get("pass") or ["left", "right", "left"][: rules.ages])
    victory = tuple(military.get("victory") or [1, 3, 5][: rules.ages])
    return Parameters(
        start_coins=int(setup.get("coins", 3)),
        wonder_side=str(setup.get("wonder_side", "random")),
        hand=rules.hand or 0,
        passes=passes,
        last_card=str(ages.get("last_card", "discard")),
        sell=rules.sell,
        trade_price=int(trade.get("price", 2)),
        buyable=frozenset(trade.get("buyable") or (trade.get("add") or {}).get("colours")
                          or ["start", "brown", "grey"]),
        victory=victory,
        defeat=int(military.get("defeat", -1)),
        science_set=int(science.get("set", 7)),
        treasury=rules.treasury,
        score_order=tuple(score.get("order") or DEFAULT_SCORE_ORDER),
        colour_lines=dict(score.get("colours") or {}),
        tie_break=tuple(data.get("tie_break") or ["coins"]),
        resources=rules.vocabulary.resources,
        science_mechanism=str(science.get("mechanism", "sets")),
        token_lines=dict(score.get("tokens") or {}),
    )
