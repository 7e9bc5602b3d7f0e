"""Token pools: where the tokens of a rule set wait to be taken (``take … token from POOL``).

A rule set declares its pools (``vocabulary: pools``) and, per token kind, how
many tokens of that kind lie in which pool at the start (``setup: tokens:
{progress: {board: 5}}``).  Dealing is the same for every game loop:

* the kinds listed in ``setup: tokens`` are dealt in name order; the tokens of a
  kind are shuffled (in name order first, so the deal depends only on the seed);
* each pool the kind names receives its count, in the order written;
* the rest go to the **reserve**: the first declared pool the kind does not name
  (Duel: the ``box``).  Reserve pools are not shown to the players (a view lists
  the pools dealt by count).  When the kind names every pool, the rest stay out
  of the game.

Tokens of a kind ``setup: tokens`` does not list are not dealt; ``wonders
validate`` refuses such data (and a pool nothing fills): see
:mod:`wonders.dsl.mechanisms`.
"""

from __future__ import annotations

import random
from typing import Any, Final

from wonders.dsl.model import Game as GameData
from wonders.dsl.model import Token
from wonders.engine.randomness import shuffle

_DERIVED_KEY: Final = "token_pools"  # this module's entry in GameData.derived

# per kind: (its tokens by name, ((pool, count), …) as written, the reserve or "")
_Plan = tuple[tuple[tuple[Token, ...], tuple[tuple[str, int], ...], str], ...]


def _plan(data: GameData) -> tuple[_Plan, frozenset[str]]:
    cached = data.derived.get(_DERIVED_KEY)
    if cached is not None:
        return cached  # type: ignore[return-value]
    declared = data.rules.vocabulary.pools
    kinds = data.rules.model.setup.tokens  # kind -> pool -> count, as written
    steps = []
    reserves: set[str] = set()
    for kind in sorted(kinds):
        counts = kinds[kind]
        dealt = tuple(counts.items())
        reserve = next((p for p in declared if p not in counts), "")
        if reserve:
            reserves.add(reserve)
        tokens = tuple(sorted((t for t in data.tokens if t.kind == kind), key=lambda t: t.name))
        steps.append((tokens, dealt, reserve))
    found = (tuple(steps), frozenset(reserves))
    data.derived[_DERIVED_KEY] = found
    return found


def deal(data: GameData, rng: random.Random, draw: Any = None) -> dict[str, list[Token]]:
    """Fill every declared pool for a new game (a pool nothing deals into stays empty).
    ``draw``: ``rng.getrandbits`` already bound, if the caller has it (see
    :func:`~wonders.engine.randomness.shuffle`)."""
    steps, _ = _plan(data)
    pools: dict[str, list[Token]] = {pool: [] for pool in data.rules.vocabulary.pools}
    for tokens, dealt, reserve in steps:
        shuffled = list(tokens)
        shuffle(rng, shuffled, draw)
        start = 0
        for pool, count in dealt:
            found = pools.get(pool)
            if found is None:  # (a pool the vocabulary does not declare)
                pools[pool] = shuffled[start:start + count]
            else:
                found.extend(shuffled[start:start + count])
            start += count
        if reserve:
            pools[reserve].extend(shuffled[start:])
    return pools


def hidden(data: GameData) -> frozenset[str]:
    """The reserve pools: their tokens are not shown to the players."""
    return _plan(data)[1]


__all__ = ["deal", "hidden"]
