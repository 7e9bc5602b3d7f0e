"""Train a simple agent through the PettingZoo environment and measure it against the bots.

The agent is tabular: it keeps one number per action slot of the game's fixed action
space (``wonders.env``), the average final reward of the games in which it took that
slot, and plays the legal slot with the best value (trying each unseen one first,
exploring with probability ``--explore`` while training).  It sees only its own
observation's action mask — never the game object — while the bots at the other
seats play through the engine's contract, as ``wonders play`` would.  Seats rotate
from game to game, so no seat's advantage is counted as skill.

    pip install '.[env]'
    python examples/agent_vs_bots.py --game base --players 3 --train 300 --games 200
    python examples/agent_vs_bots.py --game duel --bots greedy

It prints the agent's win rate (a shared win counts as a win) against the fair share.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

import numpy as np

import wonders
from wonders.env import EnvError, WondersEnv, env
from wonders.simulate import wilson


class TabularAgent:
    """An average final reward per action slot, learnt by Monte Carlo."""

    def __init__(self, size: int, explore: float, seed: int) -> None:
        self.total = np.zeros(size)
        self.count = np.zeros(size)
        self.explore = explore
        self.rng = random.Random(seed)

    def choose(self, mask: Any, learning: bool) -> int:
        legal = np.flatnonzero(mask)
        if learning and self.rng.random() < self.explore:
            return int(self.rng.choice(list(legal)))
        unseen = legal[self.count[legal] == 0]
        if learning and len(unseen):
            return int(unseen[0])
        values = self.total[legal] / np.maximum(self.count[legal], 1)
        return int(legal[int(np.argmax(values))])

    def learn(self, taken: list[int], reward: float) -> None:
        for index in taken:
            self.total[index] += reward
            self.count[index] += 1


def play(aec: WondersEnv, agent: TabularAgent, seat: int, bots: list[Any], seed: int,
         learning: bool) -> bool:
    """One game with the agent at ``seat``; whether it won."""
    aec.reset(seed=seed)
    me = aec.possible_agents[seat]
    taken: list[int] = []
    reward = 0.0
    for name in aec.agent_iter():
        observation, cumulative, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            if name == me:
                reward = cumulative
            aec.step(None)
            continue
        if name == me:
            index = agent.choose(observation["action_mask"], learning)
            taken.append(index)
            aec.step(index)
        else:
            other = aec.agent_seats[name]
            assert aec.game is not None
            aec.step(bots[other].choose(aec.game, other))  # an engine action, as the bot chose
    if learning:
        agent.learn(taken, reward)
    return reward == 1.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="base")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--bots", default="random", help="the opponents' bot (random, greedy)")
    parser.add_argument("--train", type=int, default=300, help="training games")
    parser.add_argument("--games", type=int, default=200, help="evaluation games")
    parser.add_argument("--explore", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args(argv)
    if options.bots not in wonders.BOTS:
        parser.error(f"unknown bot {options.bots!r}; known: {', '.join(wonders.BOTS)}")
    try:
        data = wonders.load_game(options.game)
        # boards with two sides are dealt on a random side (no side decision to learn)
        sides = any(len(wonder.sides) > 1 for wonder in data.wonders)
        aec = env(data, options.players, options={"sides": "random"} if sides else {})
    except (EnvError, wonders.WondersError) as exc:
        parser.error(str(exc))
    players = aec.players
    agent = TabularAgent(aec.action_space(aec.possible_agents[0]).n, options.explore,
                         options.seed)
    for phase, games, base in (("train", options.train, 0), ("evaluate", options.games, 10**6)):
        wins = 0
        for i in range(games):
            seed = options.seed + base + i
            bots = [wonders.make_bot(options.bots, seed * 1000 + s) for s in range(players)]
            wins += play(aec, agent, i % players, bots, seed, learning=phase == "train")
        if phase == "evaluate" and games:
            low, high = wilson(wins, games) or [0.0, 1.0]
            print(f"{aec.data.rules.title}, {players} players: the tabular agent won "
                  f"{wins}/{games} games against {options.bots} bots "
                  f"({100 * wins / games:.1f} %, 95 % interval {100 * low:.1f}–"
                  f"{100 * high:.1f} %; fair share {100 / players:.1f} %) after "
                  f"{options.train} training games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
