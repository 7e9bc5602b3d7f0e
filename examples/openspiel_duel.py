"""OpenSpiel's IS-MCTS plays 7 Wonders Duel against a random player.

    python examples/openspiel_duel.py --games 4 --simulations 40

Information-set MCTS (``open_spiel.python.algorithms.ismcts``) searches from what its
seat knows: each simulation starts from a world resampled from its information state
(``resample_from_infostate``: the engine's ``determinize`` deals the face-down cards and
the future again), so it never reads the opponent's hidden cards.  Leaves are valued by
the score standing (``--evaluator standing``, cheap) or by random play-outs to the end
(``--evaluator rollout``, OpenSpiel's ``RandomRolloutEvaluator``).  The searching seat
alternates from game to game.  Needs ``pip install 'wonders[openspiel]'``.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from typing import Any, Sequence

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import wonders.openspiel  # noqa: F401  (registers wonders_duel)


class StandingEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """Values a state by its score standing: ``tanh`` of each seat's lead in points over
    the best other seat, scaled by ``scale`` points; uniform priors."""

    def __init__(self, scale: float = 10.0) -> None:
        self.scale = scale

    def evaluate(self, state: Any) -> np.ndarray[Any, Any]:
        if state.is_terminal():
            return np.array(state.returns())
        totals = state.engine.score_sheet().totals
        leads = [total - max(t for s, t in enumerate(totals) if s != seat)
                 for seat, total in enumerate(totals)]
        return np.array([math.tanh(lead / self.scale) for lead in leads])

    def prior(self, state: Any) -> list[tuple[int, float]]:
        actions = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(actions)) for action in actions]


def play(games: int, simulations: int, seed: int, evaluator: str,
         out: Any = sys.stdout) -> list[float]:
    """Play ``games`` games, IS-MCTS against random; the returns of the IS-MCTS seat."""
    game = pyspiel.load_game("wonders_duel", {"seed": seed})
    rng = random.Random(seed)
    numpy_rng = np.random.RandomState(seed)
    if evaluator == "rollout":
        value: Any = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=numpy_rng)
    else:
        value = StandingEvaluator()
    bot = ismcts.ISMCTSBot(game, value, uct_c=2.0, max_simulations=simulations,
                           random_state=numpy_rng)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.random))
    results: list[float] = []
    for number in range(games):
        searcher = number % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes())
                state.apply_action(int(numpy_rng.choice(outcomes, p=probabilities)))
            elif state.current_player() == searcher:
                state.apply_action(int(bot.step(state)))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        sheet = state.engine.score_sheet()
        result = state.returns()[searcher]
        results.append(result)
        outcome = "won" if result > 0 else "lost" if result < 0 else "tied"
        print(f"game {number + 1}: IS-MCTS (player {searcher}) {outcome}, points "
              f"{sheet.totals[searcher]} to {sheet.totals[1 - searcher]} "
              f"({sheet.victory}; seed {state.engine.seed})", file=out)
    wins = sum(1 for r in results if r > 0)
    print(f"IS-MCTS ({simulations} simulations a move, {evaluator} evaluator) won {wins} of "
          f"{games} games against random play", file=out)
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=40, help="IS-MCTS simulations a move")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--evaluator", choices=("standing", "rollout"), default="standing")
    args = parser.parse_args(argv)
    play(args.games, args.simulations, args.seed, args.evaluator)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
