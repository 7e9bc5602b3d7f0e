"""The compiled shuffles and draws make exactly the draws of Python's ``random`` module,
so seeds give the same games (and old logs replay) whichever the engine uses."""

from __future__ import annotations

import random

import pytest

from wonders.engine.randomness import below, sample, seeded, shuffle


@pytest.mark.parametrize("seed", range(40))
def test_shuffle_is_random_shuffle(seed: int) -> None:
    # long lists too (redraws are common near a power of two)
    for length in (0, 1, 2, 3, 7, 20, 23, 64, 65, 200, 1000):
        ours, theirs = list(range(length)), list(range(length))
        mine, reference = random.Random(seed), random.Random(seed)
        shuffle(mine, ours)
        reference.shuffle(theirs)
        assert ours == theirs
        assert mine.getstate() == reference.getstate()  # and the generator moved alike


@pytest.mark.parametrize("seed", [0, 1, 2, 99, 2**31 - 1, 2**32, 2**64 + 3, 10**40, -1, -7])
def test_seeded_is_random_random(seed: int) -> None:
    mine, reference = seeded(seed), random.Random(seed)
    assert type(mine) is random.Random
    assert mine.getstate() == reference.getstate()  # gauss_next included
    assert [mine.gauss(0, 1) for _ in range(3)] == [reference.gauss(0, 1) for _ in range(3)]
    assert [mine.random() for _ in range(3)] == [reference.random() for _ in range(3)]
    assert mine.getstate() == reference.getstate()


@pytest.mark.parametrize("seed", range(20))
def test_below_is_randrange(seed: int) -> None:
    mine, reference = random.Random(seed), random.Random(seed)
    for n in list(range(1, 70)) + [2**31 - 1, 2**40 + 3]:
        assert below(mine, n) == reference.randrange(n)
    assert mine.getstate() == reference.getstate()


@pytest.mark.parametrize("seed", range(20))
def test_sample_is_random_sample(seed: int) -> None:
    # small populations (CPython draws from a pool) and large ones (a set of drawn indices)
    for n, k in ((1, 1), (7, 0), (7, 3), (7, 7), (21, 5), (22, 5), (30, 6), (200, 9), (1000, 40)):
        mine, reference = random.Random(seed), random.Random(seed)
        population = [f"item {i}" for i in range(n)]
        assert sample(mine, population, k) == reference.sample(population, k)
        assert mine.getstate() == reference.getstate()


def test_sample_refuses_more_than_the_population() -> None:
    with pytest.raises(ValueError):
        sample(random.Random(0), [1, 2], 3)


class _OwnBits(random.Random):
    """A generator drawing its bits its own way: shuffles must ask it, not the C method."""

    def getrandbits(self, k: int) -> int:
        return super().getrandbits(k) ^ ((1 << k) - 1)


def test_a_generator_subclass_draws_its_own_bits() -> None:
    ours, theirs = list(range(30)), list(range(30))
    shuffle(_OwnBits(3), ours)
    _OwnBits(3).shuffle(theirs)
    assert ours == theirs


def test_a_shuffle_changes_the_order() -> None:
    items = list(range(30))
    shuffle(random.Random(1), items)
    assert items != list(range(30)) and sorted(items) == list(range(30))
