"""A search bot: determinized Monte Carlo evaluation of a few candidate actions.

At each decision the bot

1. ranks its legal actions with the greedy policy the game's loop registers
   (``rank``) and keeps a few candidates (in 7 Wonders: the best payment of each
   card, the best few builds, and the best of each kind missing — a wonder
   stage, a sale);
2. samples *determinizations*: ``game.determinize(seat, rng)`` deals what the
   seat cannot see (other players' hands and the face-down discard pile; a
   structure's face-down cards) again from a canonical (sorted) pool — so its
   choice depends only on what it may see, not on how the hidden cards happen
   to be arranged in the real game;
3. plays each surviving candidate out to the end of the game in every sample,
   everyone (itself included, after the first move) following the loop's
   greedy policy, fast and with a little noise (one compiled loop plays it:
   :func:`wonders.engine.playout.playout`); the *same* sample and rollout
   seed serve every candidate (common random numbers), so differences between
   candidates are not drowned in the noise of the deal;
4. keeps the better half of the candidates after N, 2N, 4N … samples, N the budget
   over the candidates and the rounds of halving (at least 4: successive halving),
   until the budget is spent, and plays the best mean.

The value of a playout is a win (1, shared wins split) plus the margin over
the best opponent / 10.  The budget is a number of playouts (deterministic
for a seed) or, if ``time_limit`` is given, seconds per decision (then the
choice depends on the machine's speed).

Only the game contract is used, so the same search plays every registered game.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any, Sequence

from wonders.bots.policy import Policy, PolicyFactory, greedy_policy
from wonders.engine.contract import AnyAction, GameState
from wonders.engine.playout import GREEDY, playout

if TYPE_CHECKING:
    from wonders.dsl.model import Game as GameData


class MCTSBot:
    """Determinized Monte Carlo search with successive halving over candidate actions."""

    name = "mcts"

    def __init__(self, seed: int = 0, playouts: int = 96, time_limit: float | None = None,
                 candidates: int = 5, noise: float = 0.3, first_cut: int = 4) -> None:
        self.rng = random.Random(seed)
        self.playouts = playouts
        self.time_limit = time_limit
        self.candidates = candidates
        self.noise = noise
        self.first_cut = first_cut
        self.last_stats: dict[str, object] = {}
        # the data last played -> its loop's greedy policy class and a ranking policy
        self._policy: tuple[GameData, PolicyFactory[Any], Policy[Any]] | None = None

    def _policies(self, game: GameState) -> tuple[PolicyFactory[Any], Policy[Any]]:
        """The running loop's greedy policy class, and one instance of it for ranking."""
        found = self._policy
        if found is None or found[0] is not game.data:
            factory = greedy_policy(game.data)
            found = (game.data, factory, factory(0))
            self._policy = found
        return found[1], found[2]

    # --- choosing ----------------------------------------------------------------

    def choose(self, game: GameState, seat: int) -> AnyAction:
        actions = game.legal_actions(seat)
        if len(actions) == 1:
            return actions[0]
        candidates = self.shortlist(game, seat, actions)
        seed = self.rng.getrandbits(64)
        if len(candidates) == 1:
            return candidates[0]
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        alive = list(range(len(candidates)))
        totals = [0.0] * len(candidates)
        samples = 0
        used = 0
        # successive halving spreads the budget over its rounds (about log2 of the candidates):
        # a first cut of budget / (candidates × rounds) samples, never under first_cut, so a
        # decision between few candidates still spends the playouts it may
        rounds = max(1, (len(candidates) - 1).bit_length())
        cut = max(self.first_cut, self.playouts // (len(candidates) * rounds))
        while len(alive) > 1:
            if deadline is None and used + len(alive) > self.playouts and samples > 0:
                break
            if deadline is not None and time.perf_counter() > deadline and samples > 0:
                break
            world, rollout_seed = self.sample(game, seat, seed, samples)
            for index in alive:
                totals[index] += self.playout(world, seat, candidates[index], rollout_seed)
            samples += 1
            used += len(alive)
            if samples >= cut:
                alive.sort(key=lambda i: (-totals[i], i))
                alive = sorted(alive[:(len(alive) + 1) // 2])
                cut *= 2
        best = max(alive, key=lambda i: (totals[i], -i))
        self.last_stats = {"candidates": [str(c) for c in candidates], "samples": samples,
                           "playouts": used,
                           "means": [t / max(samples, 1) for t in totals]}
        return candidates[best]

    def shortlist(self, game: GameState, seat: int,
                  actions: Sequence[AnyAction]) -> list[AnyAction]:
        """A few candidate actions: the loop's greedy ranking's best few, plus the best of
        each kind of action missing among them (a wonder stage, a sale …)."""
        _, ranker = self._policies(game)
        ranked = [action for _, action in ranker.rank(game, seat, actions)]
        chosen = ranked[:self.candidates]
        kinds = {type(action) for action in chosen}
        for action in ranked[self.candidates:]:
            if type(action) not in kinds:
                kinds.add(type(action))
                chosen.append(action)
        return chosen

    # --- samples and playouts ------------------------------------------------------

    def sample(self, game: GameState, seat: int, seed: int, index: int) -> tuple[GameState, int]:
        """One determinization of what ``seat`` cannot see (``game.determinize`` deals the
        hidden cards again from a canonical pool)."""
        rng = random.Random(seed * 1_000_003 + index)
        world = game.determinize(seat, rng)
        return world, rng.getrandbits(64)

    def playout(self, world: GameState, seat: int, first: AnyAction, seed: int) -> float:
        """Play ``first`` in a copy of ``world``, then everyone greedily (noisy) to the end."""
        # one greedy policy seeded ``seed`` for every seat, fast and noisy, in the compiled
        # whole-game loop (:mod:`wonders.engine.playout`)
        game = playout(world.clone(), GREEDY, seed, shared=True, noise=self.noise, fast=True,
                       first={seat: first})
        sheet = game.score_sheet()
        mine = sheet.total(seat)
        best_other = max(sheet.total(s) for s in range(game.players) if s != seat)
        winners = sheet.winners
        win = 1.0 / len(winners) if seat in winners else 0.0
        return win + (mine - best_other) / 10.0


__all__ = ["MCTSBot"]
