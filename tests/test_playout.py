"""Whole-game playouts (:mod:`wonders.engine.playout`): legal, deterministic, the bots' very
games, and what ``simulate`` and the search bot play through."""

from __future__ import annotations

import random
from typing import Any, Callable

import pytest

from wonders import simulate
from wonders.bots import QuickRandomBot, RandomBot
from wonders.bots import mcts as mcts_module
from wonders.bots.greedy import GreedyBot
from wonders.bots.mcts import MCTSBot
from wonders.engine.actions import Action
from wonders.engine.contract import GameState
from wonders.engine.playout import GREEDY, POLICIES, QUICK, RANDOM, playout, seat_seed
from wonders.engine.registry import new_game

# every registered loop, at the smallest and largest tables of the shipped games
TABLES = [("base", 3), ("base", 7), ("base2e", 3), ("base2e", 7), ("duel", 2), ("dice", 3),
          ("dice", 4)]


def fresh(game: str, players: int, seed: int) -> GameState:
    return new_game(simulate.game_data(game), players, seed)


def replay(game: str, players: int, seed: int, decisions: list[dict[int, Action]]) -> GameState:
    """The recorded decisions played again through the normal API, each action checked
    against ``legal_actions`` by ``play`` itself (and here, by equality)."""
    match = fresh(game, players, seed)
    for moves in decisions:
        assert sorted(moves) == match.to_move()
        for seat, action in moves.items():
            assert action in match.legal_actions(seat)
        match.play(moves)
    return match


@pytest.mark.parametrize("policy", [RANDOM, QUICK])
@pytest.mark.parametrize(("game", "players"), TABLES)
def test_a_random_playout_reaches_a_legal_end(game: str, players: int, policy: str) -> None:
    for seed in (1, 2):
        decisions: list[dict[int, Action]] = []
        finished = playout(fresh(game, players, seed), policy, seed, record=decisions,
                           check=True)
        assert finished.over and finished.to_move() == []
        again = replay(game, players, seed, decisions)
        assert again.over
        assert again.score_sheet().totals == finished.score_sheet().totals
        assert again.history == finished.history


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(("game", "players"), [("base", 3), ("duel", 2), ("dice", 4)])
def test_playouts_are_deterministic_per_seed(game: str, players: int, policy: str) -> None:
    first = playout(fresh(game, players, 5), policy, 9)
    second = playout(fresh(game, players, 5), policy, 9)
    assert first.history == second.history
    assert first.score_sheet().totals == second.score_sheet().totals
    shared = playout(fresh(game, players, 5), policy, 9, shared=True)
    assert shared.history == playout(fresh(game, players, 5), policy, 9, shared=True).history
    # the debug check plays the very same game
    checked = playout(fresh(game, players, 5), policy, 9, check=True)
    assert checked.history == first.history


def test_other_seeds_give_other_games() -> None:
    games = {str(playout(fresh("base", 4, 5), RANDOM, seed).history) for seed in range(4)}
    assert len(games) == 4


def _bot_game(game: str, players: int, seed: int, bots: list[Any]) -> GameState:
    match = fresh(game, players, seed)
    while not match.over:
        match.play({s: bots[s].choose(match, s) for s in match.to_move()})
    return match


@pytest.mark.parametrize(("game", "players"), [("base", 3), ("base2e", 4), ("duel", 2),
                                               ("dice", 3)])
def test_per_seat_playouts_are_the_bots_games(game: str, players: int) -> None:
    """``random``, ``quick`` and ``greedy`` make the choices of the bots of those names
    seeded as ``simulate`` seeds them (the same draws, in the same order)."""
    seed = 4
    for policy, bot in ((RANDOM, RandomBot), (QUICK, QuickRandomBot), (GREEDY, GreedyBot)):
        bots = [bot(seat_seed(seed, s)) for s in range(players)]
        expected = _bot_game(game, players, seed, bots)
        found = playout(fresh(game, players, seed), policy, seed)
        assert found.history == expected.history, policy


def test_a_policy_per_seat_and_forced_first_actions() -> None:
    seed = 6
    names = [GREEDY, RANDOM, QUICK]
    bots = [GreedyBot(seat_seed(seed, 0)), RandomBot(seat_seed(seed, 1)),
            QuickRandomBot(seat_seed(seed, 2))]
    assert (playout(fresh("base", 3, seed), names, seed).history
            == _bot_game("base", 3, seed, bots).history)
    match = fresh("base", 3, seed)
    while match.decision().kind != "turn":
        match.play({s: match.legal_actions(s)[0] for s in match.to_move()})
    forced = match.legal_actions(1)[-1]
    decisions: list[dict[int, Action]] = []
    playout(match, RANDOM, seed, first={1: forced}, record=decisions)
    assert decisions[0][1] is forced


def test_bad_policies_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown playout policy"):
        playout(fresh("base", 3, 1), "clever", 1)
    with pytest.raises(ValueError, match="2 policies for 3 seats"):
        playout(fresh("base", 3, 1), [RANDOM, RANDOM], 1)


def test_the_quick_sampler_draws_a_card_then_a_kind_then_a_payment() -> None:
    """The draft loop's sampler: every kind of action of a card comes up, every draw is
    legal, and a card's many payments do not make it likelier than others."""
    match = fresh("base", 3, 2)
    while match.decision().kind != "turn":
        match.play({s: match.legal_actions(s)[0] for s in match.to_move()})
    rng = random.Random(0)
    legal = match.legal_actions(0)
    kinds = set()
    cards: dict[str, int] = {}
    probe = fresh("base", 3, 2)
    while probe.decision().kind != "turn":
        probe.play({s: probe.legal_actions(s)[0] for s in probe.to_move()})
    for _ in range(600):
        action = probe.random_action(0, rng)  # type: ignore[attr-defined]
        assert action in legal
        kinds.add(type(action).__name__)
        name = action.card.name
        cards[name] = cards.get(name, 0) + 1
    assert {"Build", "Sell"} <= kinds
    hand = {card.name for card in match.hands[0]}  # type: ignore[attr-defined]
    assert set(cards) == hand
    assert max(cards.values()) < 2 * min(cards.values())  # about 600/7 each


def test_simulate_plays_built_in_bots_through_the_playout(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """Every seat a built-in policy: the game goes through :func:`playout` (a spy), and its
    record is the one the bot objects give (the slow path, forced by emptying the set)."""
    calls: list[str] = []
    real: Callable[..., GameState] = simulate.playout

    def spy(game: GameState, *args: Any, **kwargs: Any) -> GameState:
        calls.append(type(game).__name__)
        return real(game, *args, **kwargs)

    monkeypatch.setattr(simulate, "playout", spy)
    data = {name: simulate.game_data(name) for name in ("base", "duel", "dice")}
    cases = [("base", 3, ["random"] * 3), ("base", 4, ["greedy", "random", "quick", "random"]),
             ("duel", 2, ["random", "greedy"]), ("dice", 3, ["random"] * 3)]
    sides = {"base": "random", "duel": None, "dice": None}  # the dice boards have one side
    fast = [simulate.play_game(data[g], n, 12, bots, sides[g]) for g, n, bots in cases]
    assert len(calls) == len(cases)
    monkeypatch.setattr(simulate, "PLAYOUT_BOTS", frozenset())
    slow = [simulate.play_game(data[g], n, 12, bots, sides[g]) for g, n, bots in cases]
    assert len(calls) == len(cases)  # not called on the slow path
    for a, b in zip(fast, slow):
        a.pop("seconds")
        b.pop("seconds")
        assert a == b
    # a search bot at the table: the bot objects play (the playouts inside the search are
    # the search module's, not simulate's)
    monkeypatch.setattr(simulate, "PLAYOUT_BOTS", frozenset(POLICIES))
    calls.clear()
    simulate.play_game(data["duel"], 2, 3, ["random", "random"], None)
    assert len(calls) == 1
    real_bot = simulate.make_bot
    monkeypatch.setattr(simulate, "make_bot", lambda name, seed: (
        MCTSBot(seed, playouts=4) if name == "mcts" else real_bot(name, seed)))
    simulate.play_game(data["duel"], 2, 3, ["mcts", "random"], None)
    assert len(calls) == 1


class _OldSearch(MCTSBot):
    """The search bot's playout as it was written before the playout module: greedy,
    fast and noisy, one policy seeded ``seed`` for every seat, through ``play``."""

    def playout(self, world: GameState, seat: int, first: Action, seed: int) -> float:
        game = world.clone()
        factory, _ = self._policies(game)
        policy = factory(seed, self.noise, True)
        moves = {s: first if s == seat else policy.choose(game, s) for s in game.to_move()}
        game.play(moves)
        while not game.over:
            game.play({s: policy.choose(game, s) for s in game.to_move()})
        sheet = game.score_sheet()
        best_other = max(sheet.total(s) for s in range(game.players) if s != seat)
        win = 1.0 / len(sheet.winners) if seat in sheet.winners else 0.0
        return win + (sheet.total(seat) - best_other) / 10.0


@pytest.mark.parametrize(("game", "players"), [("base", 3), ("duel", 2), ("dice", 3)])
def test_the_search_bot_plays_out_through_the_playout(monkeypatch: pytest.MonkeyPatch,
                                                      game: str, players: int) -> None:
    calls: list[int] = []
    real: Callable[..., GameState] = mcts_module.playout

    def spy(match: GameState, *args: Any, **kwargs: Any) -> GameState:
        calls.append(1)
        return real(match, *args, **kwargs)

    monkeypatch.setattr(mcts_module, "playout", spy)
    match = fresh(game, players, 3)
    seat = match.to_move()[0]
    new, old = MCTSBot(7, playouts=16), _OldSearch(7, playouts=16)
    assert new.choose(match, seat) == old.choose(match, seat)
    assert new.last_stats["means"] == old.last_stats["means"]
    assert len(calls) == new.last_stats["playouts"]
    assert calls
