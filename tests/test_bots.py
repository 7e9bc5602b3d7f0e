"""Bots: legal actions only, deterministic for a seed, stronger in order, and no peeking."""

from __future__ import annotations

from typing import Callable

import pytest

from wonders.bots import BOTS, Bot, make_bot
from wonders.bots.greedy import GreedyBot
from wonders.bots.mcts import MCTSBot
from wonders.bots.random_bot import RandomBot
from wonders.dsl.loader import load_game
from wonders.dsl.model import Game as GameData
from wonders.engine import Game
from wonders.engine.contract import GameState
from wonders.engine.flow import FlowGame
from wonders.engine.mechanisms import structure as structure_part
from wonders.engine.registry import new_game

Factory = Callable[[int], Bot]

FACTORIES: dict[str, Factory] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "mcts": lambda seed: MCTSBot(seed, playouts=6, candidates=3),  # small budget: legality only
}


@pytest.fixture(scope="module")
def data() -> GameData:
    return load_game(game="base")


def play(data: GameData, factories: list[Factory], seed: int,
         check_legal: bool = False, sides: str | None = None) -> Game:
    game = Game(data, len(factories), seed, sides=sides)
    bots = [factory(seed * 100 + seat) for seat, factory in enumerate(factories)]
    while not game.over:
        moves = {}
        for seat in game.to_move():
            action = bots[seat].choose(game, seat)
            if check_legal:
                assert action in game.legal_actions(seat), (seat, str(action))
            moves[seat] = action
        game.play(moves)
    return game


def test_registry_names() -> None:
    assert {"random", "greedy", "mcts"} <= set(BOTS)
    for name in ("random", "greedy", "mcts"):
        assert make_bot(name, 1).name == name


@pytest.mark.parametrize("players", [3, 7])
@pytest.mark.parametrize("name", ["greedy", "mcts"])
def test_only_legal_actions_over_complete_games(data: GameData, name: str, players: int) -> None:
    factory = FACTORIES[name]
    # the bot in every seat at 3 players; at 7, two of them among random players
    if players == 3:
        seats = [factory] * players
    else:
        seats = [factory if seat in (0, 4) else FACTORIES["random"] for seat in range(players)]
    game = play(data, seats, seed=11, check_legal=True)
    assert game.over
    assert len(game.score_sheet().totals) == players


def test_every_phase_is_handled(data: GameData) -> None:
    """Over many seeds greedy games meet the side, last-card and discard-build decisions too
    (the first games let the bots choose sides, the others deal them at random: greedy
    may prefer sides without the powers these decisions come from)."""
    phases: set[str] = set()
    for seed in range(12):
        game = play(data, [GreedyBot] * 7, seed, check_legal=True,
                    sides=None if seed < 2 else "random")
        phases |= {entry["phase"] for entry in game.history}
    assert {"side", "turn", "last_card", "discard_build"} <= phases


@pytest.mark.parametrize("name", ["random", "greedy", "mcts"])
def test_same_seed_same_game(data: GameData, name: str) -> None:
    factory = FACTORIES[name]
    first = play(data, [factory] * 3, seed=5)
    second = play(data, [factory] * 3, seed=5)
    assert first.history == second.history
    assert first.score_sheet().to_json() == second.score_sheet().to_json()


def _match(data: GameData, hero: Factory, villain: Factory, games: int, players: int = 3,
           offset: int = 0) -> tuple[float, float]:
    """(hero's share of wins, hero's mean margin over the best other player); seats rotate."""
    wins = 0.0
    margin = 0.0
    for index in range(games):
        seat = index % players
        factories = [villain] * players
        factories[seat] = hero
        sheet = play(data, factories, seed=offset + index).score_sheet()
        winners = sheet.winners
        wins += 1.0 / len(winners) if seat in winners else 0.0
        margin += sheet.total(seat) - max(sheet.total(s) for s in range(players) if s != seat)
    return wins / games, margin / games


def test_greedy_beats_random(data: GameData) -> None:
    # measured ~98% over hundreds of games; 1/3 would be no better than random
    share, margin = _match(data, GreedyBot, RandomBot, games=30)
    assert share >= 0.6
    assert margin > 5


def test_mcts_beats_greedy(data: GameData) -> None:
    # a small budget keeps this quick; the benchmark measures the default budget
    def mcts(seed: int) -> Bot:
        return MCTSBot(seed, playouts=16)

    share, margin = _match(data, mcts, GreedyBot, games=12, offset=500)
    assert share >= 0.45  # 1/3 if no better than greedy; the benchmark measures ~90%
    assert margin > 0


def _midgame(data: GameData, players: int, turns: int, seed: int) -> Game:
    game = Game(data, players, seed)
    bots = [GreedyBot(seat) for seat in range(players)]
    for _ in range(turns):
        game.play({seat: bots[seat].choose(game, seat) for seat in game.to_move()})
    return game


@pytest.mark.parametrize("players,turns", [(3, 2), (3, 9), (4, 15), (5, 4)])
def test_mcts_does_not_peek(data: GameData, players: int, turns: int) -> None:
    """Rearranging what seat 0 cannot see (others' hands, the discard pile) changes nothing."""
    game = _midgame(data, players, turns, seed=players * 10 + turns)
    hidden = game.clone()
    others = list(range(1, players))
    rotated = [hidden.hands[s] for s in others[1:] + others[:1]]
    for seat, hand in zip(others, rotated):
        hidden.hands[seat] = hand
    hidden.discard.reverse()
    hidden.invalidate()
    assert [hidden.hands[s] for s in others] != [game.hands[s] for s in others]
    for seed in (1, 2):
        real = MCTSBot(seed, playouts=20).choose(game, 0)
        swapped = MCTSBot(seed, playouts=20).choose(hidden, 0)
        assert real.to_json() == swapped.to_json()


def test_mcts_time_budget(data: GameData) -> None:
    game = _midgame(data, 3, 1, seed=3)
    action = MCTSBot(1, time_limit=0.2).choose(game, 0)
    assert action in game.legal_actions(0)


# --- the same bots in a card-structure game (7 Wonders Duel), through the contract alone ---

@pytest.fixture(scope="module")
def duel() -> GameData:
    return load_game(game="duel")


def _duel_game(duel: GameData, factories: list[Factory], seed: int) -> GameState:
    game = new_game(duel, 2, seed)
    bots = [factory(seed * 100 + seat) for seat, factory in enumerate(factories)]
    while not game.over:
        (seat,) = game.to_move()
        action = bots[seat].choose(game, seat)
        assert action in game.legal_actions(seat), (seat, str(action))
        game.play({seat: action})
    return game


def test_mcts_searches_duel(duel: GameData) -> None:
    """The search plays Duel legally and reproducibly with the loop's own greedy policy."""
    def mcts(seed: int) -> Bot:
        return MCTSBot(seed, playouts=4, candidates=2)

    assert _duel_game(duel, [GreedyBot, mcts], seed=3).over
    game = new_game(duel, 2, 4)
    while game.decision().kind != "turn":
        (seat,) = game.to_move()
        game.play({seat: GreedyBot(seat).choose(game, seat)})
    (seat,) = game.to_move()
    bot = MCTSBot(1, playouts=8, candidates=2)
    chosen = bot.choose(game, seat)
    assert chosen.to_json() == MCTSBot(1, playouts=8, candidates=2).choose(game, seat).to_json()
    stats = bot.last_stats  # it searched: several candidates, each played out
    assert isinstance(stats["candidates"], list) and len(stats["candidates"]) >= 2
    assert isinstance(stats["playouts"], int) and 2 <= stats["playouts"] <= 8


def test_mcts_does_not_peek_in_duel(duel: GameData) -> None:
    """Rearranging the face-down cards (and those removed unseen) changes nothing."""
    game = new_game(duel, 2, 21)
    bots = [GreedyBot(0), GreedyBot(1)]
    while game.age < 1 or game.turn < 4:
        (seat,) = game.to_move()
        game.play({seat: bots[seat].choose(game, seat)})
    assert isinstance(game, FlowGame) and structure_part.state(game).structure is not None
    hidden = game.clone()
    assert isinstance(hidden, FlowGame) and structure_part.state(hidden).structure is not None
    slots = structure_part.state(hidden).structure.hidden_slots()
    pool = [structure_part.state(hidden).structure.cards[s] for s in slots] + structure_part.state(hidden).removed
    pool = pool[1:] + pool[:1]
    for slot, card in zip(slots, pool):
        structure_part.state(hidden).structure.cards[slot] = card
    structure_part.state(hidden).removed = pool[len(slots):]
    hidden.invalidate()
    assert len(slots) > 1 and [structure_part.state(hidden).structure.cards[s] for s in slots] != \
        [structure_part.state(game).structure.cards[s] for s in slots]
    (seat,) = game.to_move()
    for seed in (1, 2):
        real = MCTSBot(seed, playouts=8, candidates=2).choose(game, seat)
        swapped = MCTSBot(seed, playouts=8, candidates=2).choose(hidden, seat)
        assert real.to_json() == swapped.to_json()
