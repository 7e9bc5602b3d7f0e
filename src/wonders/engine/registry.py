"""The registry of game loops: the only place that knows which loop plays a rule set.

A rule set names how cards are offered (``offer.mechanism``); the offer decides
the shape of a turn, so it selects the loop, and the loop reads its other slots
(trade, military, science, end) from the same rule set.  Like python-chess's
variants, each loop registers itself here with what the rest of the engine needs
from it *beyond* the game contract (:mod:`wonders.engine.contract`): the runner of
its rule scenarios, its terminal UI and its greedy policy, and its kind (OpenSpiel's
metadata: dynamics, chance, information, table sizes, maximum length).  Companions are
imported by small typed functions when first used, so loading a game never pulls in
the command line, and mypy checks every registered game class against the contract.

Everything else — bots, logs, simulations, scenarios, the command line — asks
the registry, never a concrete loop class: a new game registers here and nothing
else is edited.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Generic, Literal, Sequence, TypeVar, cast

from wonders.dsl.mechanisms import capabilities
from wonders.engine import memo
from wonders.engine.errors import RuleError

if TYPE_CHECKING:
    from wonders.bots.policy import PolicyFactory
    from wonders.dsl.model import Game as GameData
    from wonders.engine.flow import FlowGame
    from wonders.engine.game import Game
    from wonders.scenarios.draft import DraftRunner

from wonders.engine.contract import GameState

#: A loop's game class: ``Class(data, players, seed, **options)`` is a :class:`GameState`.
GameFactory = Callable[..., GameState]
#: The game class of one registered loop.
G = TypeVar("G", bound=GameState)


@dataclass(frozen=True)
class GameKind:
    """What kind of game a loop plays, declared once (OpenSpiel's ``GameType``).

    ``dynamics``: who is asked at once (every deciding seat, or one); ``chance``: how
    randomness enters (``sampled``: shuffles and rolls drawn inside ``play`` from the
    game's own seeded generator, never a chance player's decision); ``information``:
    ``imperfect`` when a seat cannot see everything (hands, face-down cards, decks);
    ``players``: the table sizes the loop can play (a rule set narrows it);
    ``max_decisions``: an upper bound on the decisions of one game, which the
    conformance suite holds every random game to.
    """

    dynamics: Literal["simultaneous", "sequential"]
    chance: Literal["sampled"]
    information: Literal["imperfect", "perfect"]
    players: tuple[int, int]
    max_decisions: int


@dataclass(frozen=True)
class Loop(Generic[G]):
    """A registered game loop: its kind and its companions, each imported when first asked
    for (so loading a game never pulls in the command line).  Generic in the loop's game
    class, so mypy checks that the class is a :class:`GameState` and that the policy
    values games of that class."""

    offer: str                                  # the ``offer.mechanism`` it plays
    summary: str                                # one line for people
    kind: GameKind
    game: Callable[[], Callable[..., G]]        # the GameState class
    scenarios: Callable[[], type[DraftRunner]]  # the scenario runner (``wonders check``)
    terminal: Callable[[], Callable[..., bool]]  # ``play(game, seat, bots) -> bool``: a human
    greedy: Callable[[], PolicyFactory[G]]      # the greedy policy (wonders.bots.policy)
    # the agent environment's observation encoder, ``Encoder(data, players)``
    # (:mod:`wonders.env.observe`; None: the environment walks ``view``)
    encoder: Callable[[], Callable[..., Any]] | None = None


LOOPS: dict[str, Loop[Any]] = {}


def register(loop: Loop[G]) -> Loop[G]:
    """Add a loop (a later registration of the same offer replaces the earlier one)."""
    LOOPS[loop.offer] = loop
    return loop


def _dynamics(offer: str) -> Literal["simultaneous", "sequential"]:
    """The turn order the language's catalogue declares for the offer's loop."""
    caps = capabilities(offer)
    assert caps is not None and caps.turns in ("simultaneous", "sequential"), offer
    return "simultaneous" if caps.turns == "simultaneous" else "sequential"


# Each companion is imported inside a small typed function: mypy checks that the class a
# record names is a GameState (and its policy a PolicyFactory), and nothing is imported
# before a game of that loop asks for it.

def _draft_game() -> type[Game]:
    from wonders.engine.game import Game
    return Game


def _draft_scenarios() -> type[DraftRunner]:
    from wonders.scenarios.draft import DraftRunner
    return DraftRunner


def _draft_terminal() -> Callable[..., bool]:
    from wonders.cli.human import play_human
    return play_human


def _draft_greedy() -> PolicyFactory[Game]:
    from wonders.bots.greedy import DraftGreedy
    return DraftGreedy


def _draft_encoder() -> Callable[..., Any]:
    from wonders.env.observe import DraftEncoder
    return DraftEncoder


def _structure_game() -> type[FlowGame]:
    from wonders.engine.flow import FlowGame  # (the rule set's flow: section, run as data)
    return FlowGame


def _structure_scenarios() -> type[DraftRunner]:
    from wonders.scenarios.structure import StructureRunner
    return StructureRunner


def _structure_terminal() -> Callable[..., bool]:
    from wonders.cli.structure_human import play_structure_human
    return play_structure_human


def _structure_greedy() -> PolicyFactory[FlowGame]:
    from wonders.bots.greedy_structure import StructureGreedy
    return StructureGreedy


def _structure_encoder() -> Callable[..., Any]:
    from wonders.env.observe import StructureEncoder
    return StructureEncoder


def _flow_game() -> type[FlowGame]:
    from wonders.engine.flow import FlowGame
    return FlowGame


def _dice_scenarios() -> type[DraftRunner]:
    from wonders.scenarios.dice import DiceRunner
    return DiceRunner


def _dice_terminal() -> Callable[..., bool]:
    from wonders.cli.dice_human import play_dice_human
    return play_dice_human


def _dice_greedy() -> PolicyFactory[FlowGame]:
    from wonders.bots.greedy_dice import DiceGreedy
    return DiceGreedy


register(Loop(
    offer="draft",
    summary="hands passed around the table, everyone plays at once (7 Wonders)",
    kind=GameKind(dynamics=_dynamics("draft"), chance="sampled", information="imperfect",
                  players=(3, 8), max_decisions=400),
    game=_draft_game, scenarios=_draft_scenarios, terminal=_draft_terminal,
    greedy=_draft_greedy, encoder=_draft_encoder,
))
register(Loop(
    offer="structure",
    summary="cards taken in turn from overlapping rows (7 Wonders Duel)",
    kind=GameKind(dynamics=_dynamics("structure"), chance="sampled", information="imperfect",
                  players=(2, 2), max_decisions=400),
    game=_structure_game, scenarios=_structure_scenarios, terminal=_structure_terminal,
    greedy=_structure_greedy, encoder=_structure_encoder,
))
register(Loop(
    offer="dice",
    summary="dice shaken into a shared forum, sheets crossed by everyone at once, run by "
            "the flow interpreter from the rule set's flow: (7 Wonders Dice)",
    kind=GameKind(dynamics=_dynamics("dice"), chance="sampled", information="perfect",
                  players=(2, 7), max_decisions=400),
    game=_flow_game, scenarios=_dice_scenarios, terminal=_dice_terminal,
    greedy=_dice_greedy,
))


def _flow_scenarios() -> type[DraftRunner]:
    from wonders.scenarios.flow import FlowRunner
    return FlowRunner


def _flow_terminal() -> Callable[..., bool]:
    from wonders.cli.flow_human import play_flow_human
    return play_flow_human


def _flow_greedy() -> PolicyFactory[FlowGame]:
    from wonders.bots.greedy_flow import FlowGreedy
    return FlowGreedy


register(Loop(
    offer="decks",
    summary="cards taken in turn from the decks between neighbours, run by the flow "
            "interpreter from the rule set's flow: (7 Wonders Architects)",
    kind=GameKind(dynamics=_dynamics("decks"), chance="sampled", information="imperfect",
                  players=(2, 7), max_decisions=1200),
    game=_flow_game, scenarios=_flow_scenarios, terminal=_flow_terminal,
    greedy=_flow_greedy,
))


def offer_of(data: GameData) -> str:
    """The rule set's offer mechanism (its typed ``offer`` section holds the default)."""
    return data.rules.model.offer.mechanism


def loop_for(data: GameData) -> Loop[Any]:
    """The registered loop that plays ``data``'s rule set."""
    mechanism = offer_of(data)
    loop = LOOPS.get(mechanism)
    if loop is None:
        raise RuleError(f"rule set '{data.rules.name}' offers cards by '{mechanism}'; the "
                        f"engine knows {', '.join(sorted(LOOPS))}")
    return loop


def default_players(data: GameData) -> int:
    """A sensible player count for the rule set: its minimum, at least 3 when it allows 3."""
    rules = data.rules
    return max(rules.min_players, min(3, rules.max_players))


_FACTORY = "registry.game"  # new_game's entry in GameData.derived: the loop's game class


def new_game(data: GameData, players: int | None = None, seed: int = 0,
             **options: Any) -> GameState:
    """Set up a game of the loaded data with the loop its rule set selects.

    The game class is found once per data set (and loop) and kept in its ``derived`` dict: this
    module is interpreted, and finding the loop, loading its class and watching the data
    on every game cost about a tenth of a random Duel game's set-up.
    """
    derived = data.derived
    # (the offer, its loop and the loop's class): used while that loop is still the one
    # registered for the offer (a later registration may replace it)
    kept = cast("tuple[str, Loop[Any], GameFactory] | None", derived.get(_FACTORY))
    if kept is not None and LOOPS.get(kept[0]) is kept[1]:
        factory = kept[2]
    else:
        loop = loop_for(data)
        factory = loop.game()
        memo.watch(data)  # any loop: the memo tables are emptied when the data is dropped
        derived[_FACTORY] = (loop.offer, loop, factory)
    return factory(data, default_players(data) if players is None else players, seed, **options)


def load_new_game(game: str, players: int | None = None, seed: int = 0,
                  paths: Sequence[str] = (), **options: Any) -> GameState:
    """Load a shipped game (or a rule-set path) plus optional files, and set up a game."""
    from wonders.dsl.loader import load_game  # the language stack, only when loading

    return new_game(load_game(paths, game), players, seed, **options)


__all__ = ["LOOPS", "GameFactory", "GameKind", "Loop", "default_players", "load_new_game",
           "loop_for", "new_game", "offer_of", "register"]
