"""A search bot: determinized Monte Carlo evaluation of a few candidate actions.

At each decision the bot

1. ranks its legal actions with the greedy evaluator and keeps a few
   candidates (the best payment of each card, the best few builds, the best
   wonder stage and a sale);
2. samples *determinizations*: ``game.determinize(seat, rng)`` deals the other
   players' hands and the face-down discard pile again from a canonical
   (sorted) pool — so its choice depends only on what it may see, not on how
   the hidden cards happen to be arranged in the real game;
3. plays each surviving candidate out to the end of the game in every sample,
   everyone (itself included, after the first move) following a fast greedy
   policy with a little noise; the *same* sample and rollout seed serve every
   candidate (common random numbers), so differences between candidates are
   not drowned in the noise of the deal;
4. keeps the better half of the candidates after 4, 8, 16 … samples
   (successive halving) until the budget is spent, and plays the best mean.

The value of a playout is a win (1, shared wins split) plus the margin over
the best opponent / 10.  The budget is a number of playouts (deterministic
for a seed) or, if ``time_limit`` is given, seconds per decision (then the
choice depends on the machine's speed).
"""

from __future__ import annotations

import random
import time
from typing import Sequence


from ..actions import Action, BuildStage, Sell
from ..flows import AnyGame
from ..game import Game
from ..structure_game import StructureGame
from .greedy_structure import StructureGreedyBot
from .greedy import Evaluator, GreedyBot


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
        self._structure = StructureGreedyBot(seed)

    # --- choosing ----------------------------------------------------------------

    def choose(self, game: AnyGame, seat: int) -> Action:
        if isinstance(game, StructureGame):  # the search below reads drafting hands
            return self._structure.choose(game, seat)
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
        cut = self.first_cut
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

    def shortlist(self, game: Game, seat: int, actions: Sequence[Action]) -> list[Action]:
        """A few candidate actions, by greedy value: one payment per card and kind."""
        evaluator = Evaluator(game, seat)
        best: dict[tuple[str, int], tuple[float, int, Action]] = {}
        for index, action in enumerate(actions):
            value = evaluator.value(action)
            card = getattr(action, "card", None)
            kind = type(action).__name__
            if isinstance(action, (BuildStage, Sell)):
                # any card can be tucked or sold: give away the one others would like most
                assert card is not None
                value += 0.01 * evaluator.card_value(card)
                key = (kind, 0)
            else:
                key = (kind, id(card))
            found = best.get(key)
            if found is None or value > found[0]:
                best[key] = (value, index, action)
        ranked = sorted(best.values(), key=lambda t: (-t[0], t[1]))
        chosen = [action for _, _, action in ranked[:self.candidates]]
        for wanted in (BuildStage, Sell):
            if not any(isinstance(a, wanted) for a in chosen):
                extra = [a for _, _, a in ranked if isinstance(a, wanted)]
                chosen += extra[:1]
        return chosen

    # --- samples and playouts ------------------------------------------------------

    def sample(self, game: Game, seat: int, seed: int, index: int) -> tuple[Game, int]:
        """One determinization of what ``seat`` cannot see (hidden hands and the face-down
        discard pile, dealt again from a canonical pool by ``Game.determinize``)."""
        rng = random.Random(seed * 1_000_003 + index)
        world = game.determinize(seat, rng)
        return world, rng.getrandbits(64)

    def playout(self, world: Game, seat: int, first: Action, seed: int) -> float:
        """Play ``first`` in a copy of ``world``, then everyone greedily (noisy) to the end."""
        game = world.clone()
        policy = GreedyBot(seed, noise=self.noise, fast=True)
        moves: dict[int, Action] = {}
        for s in game.to_move():
            moves[s] = first if s == seat else policy.choose(game, s)
        game.play(moves)
        while not game.over:
            game.play({s: policy.choose(game, s) for s in game.to_move()})
        sheet = game.score_sheet()
        mine = sheet.total(seat)
        best_other = max(sheet.total(s) for s in range(game.players) if s != seat)
        winners = sheet.winners
        win = 1.0 / len(winners) if seat in winners else 0.0
        return win + (mine - best_other) / 10.0


__all__ = ["MCTSBot"]
