"""A Wonder draft from pools: Wonders dealt into pools, picked one by one in a fixed order.

``setup: {wonders: {mechanism: draft, pools: P, size: S, order: [...]}}``: the set-up step
``draft_wonders`` shuffles the rule set's Wonders, keeps P × S of them in P pools of S, and
asks the seats in ``order`` to pick from the current pool (decision ``wonder_draft``);
the pick goes to the picker's city, and the Wonder's ``on draft:`` clauses act for the
picker at once (their follow-up decisions, a cube placed or a token kept, are asked before
the next pick).  After the last pick the first seat of ``order`` starts.  Fixed lists (a
scenario's) skip the draft, and so its ``on draft:`` clauses; a Wonder that changes hands
later (taken from a city) is not picked, so they never act again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Mapping, Sequence, cast

from wonders.dsl import effects as fx
from wonders.dsl.mechanisms import DRAFT_EVENT
from wonders.dsl.model import Game as GameData
from wonders.dsl.model import Wonder
from wonders.engine.actions import ChooseWonder, choose_wonder
from wonders.engine.errors import RuleError
from wonders.engine.flow_state import Ask, Part, part_index
from wonders.engine.mechanisms.bank import cities_of
from wonders.engine.randomness import shuffle
from wonders.engine.runtime import now
from wonders.engine.scoring import holds
from wonders.engine.structure_rules import WonderDraft as DraftRules
from wonders.engine.structure_rules import structure_rules

if TYPE_CHECKING:
    from wonders.engine.flow import FlowGame

NAME: Final = "wonder_draft"
SLOT: Final = part_index(NAME)   # (the part's index in a game's slots)
PICK: Final = "wonder_draft"   # the decision, and its task on the agenda
WORDING: Final[dict[str, str]] = {PICK: "choosing a wonder"}


class WonderPools(Part):
    """The pools still to pick from and the ``picks`` made; ``boards``: the rule set's
    Wonders; ``dealt``: each seat's Wonders before the draft (the set-up record's)."""

    def __init__(self, rules: DraftRules, boards: tuple[Wonder, ...]) -> None:
        self.rules = rules
        self.boards = boards
        self.pools: list[list[Wonder]] = []
        self.picks = 0
        self.dealt: list[list[str]] = []
        self.dealt_pools: list[list[str]] = []

    def copy(self) -> WonderPools:
        other = WonderPools(self.rules, self.boards)
        other.pools = [list(pool) for pool in self.pools]
        other.picks = self.picks
        other.dealt = self.dealt
        other.dealt_pools = self.dealt_pools
        return other

    def set(self, pools: Sequence[Sequence[Wonder]], picks: int = 0) -> None:
        """Lay the pools a position says (scenarios)."""
        self.pools = [list(pool) for pool in pools]
        self.picks = picks

    def drafting(self) -> bool:
        """Whether picks are still to be made."""
        return bool(self.pools) and self.picks < len(self.rules.order)

    def pool(self) -> list[Wonder]:
        """The pool the next pick is made from."""
        return self.pools[self.picks // self.rules.size]

    def keep_setup(self, game: FlowGame) -> None:
        self.dealt = [[w.name for w in city.wonders] for city in cities_of(game)]
        self.dealt_pools = [[w.name for w in pool] for pool in self.pools]

    def setup_record(self, game: FlowGame, record: dict[str, Any]) -> None:
        record["seats"] = [{"seat": s, "wonders": names} for s, names in enumerate(self.dealt)]
        record["wonder_pools"] = self.dealt_pools

    def view(self, game: FlowGame, seat: int, found: dict[str, Any]) -> None:
        found["wonder_pool"] = [w.name for w in self.pool()] if self.drafting() else []


def draft(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    """Set-up step ``draft_wonders``: the pools dealt (or the fixed lists given to the
    game), then the first pick asked."""
    part = state(game)
    fixed = game.options.get("wonders")
    if fixed is not None:
        _fixed(game, fixed)
        return
    rules = part.rules
    wanted = rules.pools * rules.size
    if len(part.boards) < wanted:
        raise RuleError(f"{len(part.boards)} wonders for a draft of {wanted}")
    if not wanted:
        return
    chosen = list(part.boards)
    shuffle(game.generator(), chosen, game.drawer())
    del chosen[wanted:]
    part.pools = [chosen[i * rules.size:(i + 1) * rules.size] for i in range(rules.pools)]
    game.current = rules.order[0]
    game.schedule([(PICK, rules.order[0], 0)])


def _fixed(game: FlowGame, names: Sequence[Sequence[str]]) -> None:
    if len(names) != game.players:
        raise RuleError(f"{len(names)} wonder lists for {game.players} players")
    for seat, seat_names in enumerate(names):
        for name in seat_names:
            wonder = game.data.wonder(name)
            if wonder is None:
                raise RuleError(f"no wonder named '{name}'")
            cities_of(game)[seat].wonders.append(wonder)


def ask(game: FlowGame, seat: int, about: int) -> None:
    """The agenda's pick: ``seat`` chooses a Wonder of the current pool."""
    game.current = seat   # (the picker again, after the previous pick's follow-ups)
    game.wait(PICK, seat, [choose_wonder(w) for w in state(game).pool()])


def resolve(game: FlowGame, asked: Ask, action: Any) -> None:
    """The pick made: the Wonder to the picker's city, then the next pick (or the first
    seat of the order starts)."""
    part = state(game)
    wonder = cast(ChooseWonder, action).wonder
    pool = part.pool()
    for index in range(len(pool)):  # by identity (``remove`` calls ``==`` on each)
        if pool[index] is wonder:
            pool.pop(index)
            break
    else:
        raise RuleError(f"{wonder.name} is not in the wonders to pick from")
    cities_of(game)[asked.seat].wonders.append(wonder)
    part.picks += 1
    order = part.rules.order
    waiting = game.agenda
    game.agenda = []   # (what the pick's clauses raise is asked first, then the next pick)
    _drafted(game, asked.seat, wonder)
    if game.finished:
        return
    if part.picks < len(order):
        game.current = order[part.picks]
        game.agenda.append((PICK, order[part.picks], 0))
    else:
        game.current = order[0]
    game.agenda += waiting


def draft_clauses(wonder: Wonder) -> list[fx.Clause]:
    """The ``on draft:`` clauses of a Wonder's effects, in the order written."""
    return [clause for side in wonder.sides.values()
            for effects in (side.start, *(stage.effects for stage in side.stages))
            for clause in effects.clauses
            if clause.trigger is not None and clause.trigger.event == DRAFT_EVENT]


def _drafted(game: FlowGame, seat: int, wonder: Wonder) -> None:
    """The picked Wonder's ``on draft:`` clauses act for ``seat`` (a condition checked)."""
    clauses = draft_clauses(wonder)
    if not clauses:
        return
    table = game.table
    for clause in clauses:
        if clause.condition is not None and not holds(clause.condition, seat,
                                                      table.city_list()):
            continue
        now(table, seat, clause.effect)
        if game.finished:
            return


def make(data: GameData, players: int,
         arguments: Mapping[str, Mapping[str, Any]]) -> WonderPools:
    setup = structure_rules(data)
    return WonderPools(setup.draft, setup.wonders)


def state(game: FlowGame) -> WonderPools:
    """The game's Wonder draft."""
    return game.slots[SLOT]  # type: ignore[return-value]  # (no cast: a call)


__all__ = ["NAME", "PICK", "WORDING", "WonderPools", "ask", "draft", "draft_clauses", "make",
           "resolve", "state"]
