"""A search bot: determinized Monte Carlo evaluation of a few candidate actions.

At each decision the bot

1. ranks its legal actions with the greedy evaluator and keeps a few
   candidates (the best payment of each card, the best few builds, the best
   wonder stage and a sale);
2. samples *determinizations*: ``game.determinize(seat, rng)`` redeals what
   the bot cannot see, and the bot then redeals the other players' hands and
   the face-down discard pile once more from a canonical (sorted) pool with its
   own generator — so its choice depends only on what it may see, not on how
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

from wonders.dsl.model import Card

from ..actions import Action, BuildStage, Sell
from ..game import Game, Phase
from .greedy import Evaluator, GreedyBot


def _card_key(card: Card) -> tuple[int, str, str]:
    return (card.age, card.name, card.colour)


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

    # --- choosing ----------------------------------------------------------------

    def choose(self, game: Game, seat: int) -> Action:
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
        """One determinization of what ``seat`` cannot see, from a canonical pool."""
        rng = random.Random(seed * 1_000_003 + index)
        world = game.determinize(seat, rng)
        others = [s for s in range(world.players) if s != seat]
        pool = [card for s in others for card in world.hands[s]]
        hide_discard = not (world.phase is Phase.DISCARD_BUILD and seat in world.movers)
        mine: list[Card] = []
        if hide_discard:
            # the discard pile is face down: only the bot's own sales are known
            mine = self._own_sales(world, seat)
            unknown = list(world.discard)
            for card in mine:
                unknown.remove(card)
            pool += unknown
        pool.sort(key=_card_key)
        rng.shuffle(pool)
        start = 0
        for s in others:
            size = len(world.hands[s])
            world.hands[s] = pool[start:start + size]
            start += size
        if hide_discard:
            world.discard = mine + pool[start:]
        world.invalidate()
        return world, rng.getrandbits(64)

    @staticmethod
    def _own_sales(game: Game, seat: int) -> list[Card]:
        """Cards the bot itself sold (in the discard pile still), from its own history."""
        names: dict[str, int] = {}
        for entry in game.history:
            action = entry["actions"].get(str(seat))
            if action and action.get("action") == "sell":
                key = f"{action['card']}|{action['age']}"
                names[key] = names.get(key, 0) + 1
        found: list[Card] = []
        for card in game.discard:
            key = f"{card.name}|{card.age}"
            if names.get(key, 0) > 0:
                names[key] -= 1
                found.append(card)
        return found

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
