"""The engine's reading of a rule set: the parameters the hand-draft loop needs, flat.

The dsl parses the rule set's sections once into a typed model with every
default (:mod:`wonders.dsl.rules_model`); here the values the hand-draft loop,
its cities and scoring read on every decision are gathered into one compiled
record (no raw document is read again).  Abilities the rule set declares must be
ones the engine implements (a rule set cannot ask for a power nobody wrote).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wonders.dsl.effects import Effects
from wonders.dsl.mechanisms import FLOW_ADDS as _FLOW_ADDS
from wonders.dsl.mechanisms import LOOPS as _LOOPS  # noqa: E402  (what each loop implements)
from wonders.dsl.model import RuleSet
from wonders.engine.errors import RuleError

# Every ability some game loop implements (per loop: wonders.dsl.mechanisms, checked by
# ``wonders validate``, code M902); a game never starts on a rule set asking for another.
IMPLEMENTED_ABILITIES = frozenset(a for loop in _LOOPS.values() for a in loop.abilities) | \
    frozenset(a for add in _FLOW_ADDS.values() for a in add.abilities)


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
    hands: tuple[int, ...] = ()  # ``ages.hand`` as a list: the hand of each age
    token_worth: dict[str, int] = field(default_factory=dict)  # ``score.worth``

    def hand_in(self, age: int) -> int:
        """Cards dealt to each player in ``age`` (per age when the rule set lists them)."""
        if self.hands:
            return self.hands[min(age, len(self.hands)) - 1]
        return self.hand


def parameters(rules: RuleSet) -> Parameters:
    unknown = set(rules.vocabulary.abilities) - IMPLEMENTED_ABILITIES
    if unknown:
        raise RuleError(f"rule set '{rules.name}' declares abilities the engine does not "
                        f"implement: {', '.join(sorted(unknown))}")
    model = rules.model
    if model.offer.mechanism == "draft" and model.ages.hand is None:
        raise RuleError(f"rule set '{rules.name}' has no hand size: the drafting game needs "
                        "ages.hand")
    return Parameters(
        start_coins=model.setup.coins,
        wonder_side=model.setup.wonder_side,
        hand=model.ages.hand or 0,
        passes=model.ages.passes,
        last_card=model.ages.last_card,
        sell=model.sell,
        trade_price=model.trade.price,
        buyable=frozenset(model.trade.buyable),
        victory=model.military.battles.victory,
        defeat=model.military.battles.defeat,
        science_set=model.science.set,
        treasury=model.treasury,
        score_order=model.score.order,
        colour_lines=dict(model.score.colours),
        tie_break=model.tie_break,
        resources=rules.vocabulary.resources,
        science_mechanism=model.science.mechanism,
        token_lines=dict(model.score.tokens),
        hands=model.ages.hands,
        token_worth=dict(model.score.worth),
    )
