"""The compiled shuffles and draws make exactly the draws of Python's ``random`` module,
so seeds give the same games (and old logs replay) whichever the engine uses."""

from __future__ import annotations

import random

import pytest

from wonders.engine.randomness import below, shuffle


@pytest.mark.parametrize("seed", range(40))
def test_shuffle_is_random_shuffle(seed: int) -> None:
    for length in (0, 1, 2, 3, 7, 20, 23, 64):
        ours, theirs = list(range(length)), list(range(length))
        mine, reference = random.Random(seed), random.Random(seed)
        shuffle(mine, ours)
        reference.shuffle(theirs)
        assert ours == theirs
        assert mine.getstate() == reference.getstate()  # and the generator moved alike


@pytest.mark.parametrize("seed", range(20))
def test_below_is_randrange(seed: int) -> None:
    mine, reference = random.Random(seed), random.Random(seed)
    for n in list(range(1, 70)) + [2**31 - 1, 2**40 + 3]:
        assert below(mine, n) == reference.randrange(n)
    assert mine.getstate() == reference.getstate()


def test_a_shuffle_changes_the_order() -> None:
    items = list(range(30))
    shuffle(random.Random(1), items)
    assert items != list(range(30)) and sorted(items) == list(range(30))
