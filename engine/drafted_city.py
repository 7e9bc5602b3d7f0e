"""A city without a board: it owns drafted one-stage wonders and tokens taken in play.

7 Wonders Duel gives each player four wonders chosen in a draft instead of one
board, and lets them take progress tokens; both are effect sources like built
cards.  Everything else (production, prices, counting, scoring) is the
ordinary :class:`City`'s, which reads effects only through ``sources()``.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterator

from wonders.dsl import effects as fx
from wonders.dsl.model import Card, Token, Wonder, WonderSide

from .city import CARD, STAGE, TOKEN, City

NO_SIDE = WonderSide("", fx.NO_EFFECTS, ())
NO_BOARD = Wonder("", {})


class DraftedCity(City):
    """A city whose wonders are a hand of single-stage wonders (built in any order)."""

    def __init__(self, seat: int, coins: int) -> None:
        super().__init__(seat, NO_BOARD, NO_SIDE, coins)
        self.wonders: list[Wonder] = []        # drafted, not built yet
        self.built_wonders: list[Wonder] = []
        self.owned_tokens: list[Token] = []
        self.triggers: list[tuple[object, fx.Clause]] = []  # (source, ``on …:`` clause)

    def clone(self) -> "DraftedCity":
        other = object.__new__(DraftedCity)
        other.__dict__.update(self.__dict__)
        other.built = list(self.built)
        other.tokens = list(self.tokens)
        other.free_build_ages = set(self.free_build_ages)
        other.stage_cards = list(self.stage_cards)
        other._cache = dict(self._cache)
        other.wonders = list(self.wonders)
        other.built_wonders = list(self.built_wonders)
        other.owned_tokens = list(self.owned_tokens)
        other.triggers = list(self.triggers)
        return other

    def _note_triggers(self, source: object, effects: fx.Effects) -> None:
        self.triggers.extend((source, c) for c in effects.clauses if c.timing is fx.Timing.ON)

    def add_card(self, card: Card) -> None:
        super().add_card(card)
        self._note_triggers(card, card.effects)

    def add_wonder(self, wonder: Wonder, card: Card) -> None:
        self.wonders.remove(wonder)
        self.built_wonders.append(wonder)
        self.stages += 1
        self.stage_cards.append(card)
        self._forget(stage_effects(wonder), ("counts",))
        self._note_triggers(wonder, stage_effects(wonder))

    def add_token(self, token: Token) -> None:
        self.owned_tokens.append(token)
        self._forget(token.effects, ("counts",))
        self._note_triggers(token, token.effects)

    def remove_card(self, card: Card) -> None:
        self.built.remove(card)
        self.changed()

    def changed(self) -> None:
        """Forget cached answers and list the ``on …:`` clauses again (after any change
        that is not an addition: a destroyed card, a position set up by hand)."""
        super().changed()
        self.triggers = []
        for _, what, effects in self.sources():
            self._note_triggers(what, effects)

    def sources(self) -> Iterator[tuple[str, object, fx.Effects]]:
        for card in self.built:
            yield CARD, card, card.effects
        for wonder in self.built_wonders:
            yield STAGE, wonder, stage_effects(wonder)
        for token in self.owned_tokens:
            yield TOKEN, token, token.effects

    def count(self, counted: fx.Counted) -> int:
        if isinstance(counted, fx.CountTokens):
            return (sum(1 for t in self.owned_tokens if t.kind == counted.kind)
                    + sum(1 for kind, _ in self.tokens if kind == counted.kind))
        return super().count(counted)

    def symbols(self) -> Counter[str]:
        """Science symbols held (each source's first symbol; choices are not used here)."""
        found: Counter[str] = Counter()
        for _, _, effect in self.clauses(fx.Timing.ONGOING):
            if isinstance(effect, fx.Science):
                found[effect.symbols[0]] += 1
        return found

    def to_json(self) -> dict[str, object]:
        data = super().to_json()
        del data["side"]
        data["wonder"] = None
        data["wonders"] = [w.name for w in self.wonders]
        data["built_wonders"] = [w.name for w in self.built_wonders]
        data["owned_tokens"] = [t.name for t in self.owned_tokens]
        return data


def stage_effects(wonder: Wonder) -> fx.Effects:
    """The effects of a one-stage wonder (its first side's only stage)."""
    side = next(iter(wonder.sides.values()))
    return side.stages[0].effects


def stage_cost(wonder: Wonder) -> fx.Cost:
    side = next(iter(wonder.sides.values()))
    return side.stages[0].cost
