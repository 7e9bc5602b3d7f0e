"""The dice offer's greedy policy: one seat's action tried alone, the sheet valued.

Turns are simultaneous, so an action is valued on a copy of the game in which only
this seat has acted (:meth:`FlowGame.trial`): the points it has then, plus generic
estimates of what a position is worth later — resource types (every later space costs
less), coins (bounded by the reserve), bonuses and follow-ups waiting, dice unlocked,
progress towards completing buildings (a bonus) — weighed less as the game nears its
end.  With ``fast`` (search playouts) an action is valued by :func:`quick` instead,
from the space's own numbers, without copying the game.  Nothing here names a
building or a board: the weights read the data's shape.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from wonders.bots.policy import best_of
from wonders.dsl import effects as fx
from wonders.engine.dice_actions import BuildWonderStage, CrossSpace, TakeBonus
from wonders.engine.flow import FlowGame
from wonders.engine.mechanisms import end_trigger, sheets

# value of one unit of each estimate, early in the game (they fade towards the end)
RESOURCE = 2.2
COIN = 0.45
FOLLOW_UP = 3.0
UNLOCKED = 2.5
PROGRESS = 4.0      # per building, times the share of its spaces crossed, squared
STAGE = 0.5


def value(game: FlowGame, seat: int) -> float:
    """How good ``seat``'s position is: its points plus what it promises."""
    sheet = sheets.state(game)
    city = sheet.cities[seat]
    dice = sheet.dice
    left = 1.0
    trigger = end_trigger.state(game)
    if trigger.triggered >= 0:
        left = 0.15 if game.turn >= trigger.triggered + trigger.extra else 0.4
    estimate = (RESOURCE * len(city.resources) + COIN * city.coins
                + FOLLOW_UP * len(game.follow_ups[seat]) + UNLOCKED * len(city.unlocked)
                + STAGE * city.stages)
    for b, building in enumerate(dice.buildings):
        share = city.counts[b] / len(building.spaces)
        estimate += PROGRESS * share * share
    return sheets.points(game, seat) + left * estimate


def quick(game: FlowGame, seat: int, action: Any) -> float:
    """A cheap estimate of one action, without copying the game (search playouts): the
    space's fixed points and attack, a new resource type, completing its building, less
    the coins paid; a Wonder stage's fixed points; passing's coins."""
    sheet = sheets.state(game)
    city = sheet.cities[seat]
    if isinstance(action, CrossSpace):
        b = sheet.tables.index[action.building]
        building = sheet.dice.buildings[b]
        space = building.spaces[action.space]
        gains = space.gains
        found = (space.attack + 2.0 * space.defence + 1.0 + 1.5 * len(gains.prices)
                 + 1.5 * len(gains.die_gains) + FOLLOW_UP * (gains.cross is not None))
        for clause in space.effects.clauses:
            effect = clause.effect
            if isinstance(effect, fx.Points):
                found += effect.amount.fixed + 2.0 * len(effect.amount.terms)
            elif isinstance(effect, fx.Produce) and effect.resources[0] not in city.resources:
                found += RESOURCE * 1.5
            elif isinstance(effect, fx.Coins):
                found += COIN * (effect.amount.fixed + 2 * len(effect.amount.terms))
            elif isinstance(effect, fx.Ability):
                found += FOLLOW_UP
        if space.unlock is not None:
            found += UNLOCKED
        if city.counts[b] + 1 == len(building.spaces):
            found += FOLLOW_UP
        return found - COIN * action.pay
    if isinstance(action, BuildWonderStage):
        stage = city.board.stages[action.stage]
        found = 2.0
        for clause in stage.effects.clauses:
            if isinstance(clause.effect, fx.Points):
                found += clause.effect.amount.fixed + 2.0 * len(clause.effect.amount.terms)
        return found - COIN * action.shortfall
    if isinstance(action, TakeBonus):
        return 3.0
    return COIN * 3 if city.coins < sheet.dice.reserve - 3 else 0.0


class DiceGreedy:
    """Registered as the ``dice`` offer's ``greedy``: ``Policy(seed, noise, fast)``."""

    name = "greedy"

    def __init__(self, seed: int = 0, noise: float = 0.0, fast: bool = False) -> None:
        self.rng = random.Random(seed)
        self.noise = noise
        self.fast = fast

    def choose(self, game: FlowGame, seat: int) -> Any:
        actions = game.legal_actions(seat)
        if len(actions) == 1:
            return actions[0]
        if self.fast:
            return best_of(actions, lambda action: quick(game, seat, action), self.rng,
                           self.noise)
        return best_of(actions, lambda action: value(game.trial(seat, action), seat), self.rng,
                       self.noise)

    def rank(self, game: FlowGame, seat: int,
             actions: Sequence[Any]) -> list[tuple[float, Any]]:
        valued = [(value(game.trial(seat, a), seat), a) for a in actions]
        order = sorted(range(len(valued)), key=lambda i: -valued[i][0])
        return [valued[i] for i in order]


__all__ = ["DiceGreedy", "quick", "value"]
