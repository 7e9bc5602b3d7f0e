"""Shuffles and draws on a ``random.Random``, in compiled code.

The game loops shuffle decks and draw positions with the game's own generator.
``random.Random.shuffle``, ``sample`` and ``randrange`` are written in Python, and in a
compiled hot path they cost more than everything else a turn does; these
functions make the same draws with the same ``getrandbits`` calls (the
algorithm of CPython's ``random`` module), so a seed still gives the very
same game, and a log replays the same, whichever is used.

:class:`SharedGenerator` is the base of every game that owns a generator: clones
share it until one of them draws.
"""

from __future__ import annotations

import _random
import math
import random
from typing import Any, Callable, Final, Sequence, TypeVar

try:
    from mypy_extensions import mypyc_attr as mypyc_attr
except ImportError:  # not installed: the decorator only matters to the compiler (setup.py)
    def mypyc_attr(*_: object, **__: object) -> Callable[[Any], Any]:  # type: ignore[misc]
        return lambda cls: cls

T = TypeVar("T")


# The C method itself: calling it skips looking ``getrandbits`` up on each call.
_GETRANDBITS: Final = random.Random.getrandbits
_RANDOM: Final = random.Random  # compiled, a module attribute lookup costs more than a draw
# The C seeding ``random.Random.seed`` ends in (``random.Random`` overrides it in Python).
_SEED: Final = _random.Random.seed


def seeded(seed: int) -> random.Random:
    """``random.Random(seed)``, in the very same state (``getstate()`` is equal).

    ``random.Random(seed)`` runs ``Random.__init__`` and ``Random.seed``, Python code that
    only checks the seed's type before the C seeding and sets ``gauss_next``: about a
    fifth of the cost of the seeding itself, on every new game.  An int seed needs
    neither check, so this allocates the instance bare, seeds it in C and sets
    ``gauss_next`` as ``__init__`` does.
    """
    rng: random.Random = _RANDOM.__new__(_RANDOM)
    _SEED(rng, seed)
    setattr(rng, "gauss_next", None)  # noqa: B010 (an attribute the type stubs lack)
    return rng


def below(rng: random.Random, n: int) -> int:
    """A random int in ``[0, n)``, ``n > 0``: what ``rng.randrange(n)`` returns."""
    k = n.bit_length()
    if type(rng) is not _RANDOM:  # a subclass may draw its bits another way
        r = rng.getrandbits(k)
        while r >= n:
            r = rng.getrandbits(k)
        return r
    bits: object = k  # boxed once, not on every draw (a redraw is likely for some ``n``)
    draw: Any = _GETRANDBITS
    drawn: int = draw(rng, bits)
    while drawn >= n:
        drawn = draw(rng, bits)
    return drawn


def shuffle(rng: random.Random, items: list[T], draw: Any = None) -> None:
    """Shuffle ``items`` in place: the order ``rng.shuffle(items)`` gives.  ``draw``, if
    given, is ``rng.getrandbits`` already bound (:meth:`SharedGenerator.drawer`).

    The draws of :func:`below`, inline: ``random.Random.getrandbits`` once bound (a bound
    C method is called with fewer checks than the method descriptor), and the bit count
    boxed once per power of two rather than on every draw (the next power of two down is
    kept, not shifted again on every item).  A game shuffles about a
    hundred cards, wonders and tokens.
    """
    if type(rng) is not _RANDOM:  # a subclass may draw its bits another way
        for i in range(len(items) - 1, 0, -1):
            drawn = below(rng, i + 1)
            items[i], items[drawn] = items[drawn], items[i]
        return
    size = len(items)  # the items still to place: the next draw is below this
    if size < 2:
        return
    if draw is None:
        draw = rng.getrandbits
    k = size.bit_length()  # bits of ``size``, the size drawn from
    half = 1 << (k - 1)  # the sizes down to ``half`` have ``k`` bits
    bits: object = k
    while size > 1:
        j: int = draw(bits)
        while j >= size:
            j = draw(bits)
        size -= 1  # the last of the items still to place, swapped with the one drawn
        item = items[size]
        items[size] = items[j]
        items[j] = item
        if size < half:  # drawn from ``half`` items: the next sizes have a bit fewer
            half >>= 1
            k -= 1
            bits = k


def sample(rng: random.Random, population: Sequence[T], k: int) -> list[T]:
    """``k`` distinct items of ``population`` in draw order: what ``rng.sample(population,
    k)`` returns (CPython's two strategies, a pool for small populations and a set of
    drawn indices for large ones, with the same draws)."""
    n = len(population)
    if not 0 <= k <= n:
        raise ValueError("sample larger than population or is negative")
    setsize = 21  # CPython's threshold: a pool list is cheaper than a set below it
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    result: list[T] = []
    if n <= setsize:
        pool = list(population)
        for i in range(k):
            j = below(rng, n - i)
            result.append(pool[j])
            pool[j] = pool[n - i - 1]
        return result
    selected: set[int] = set()
    for _ in range(k):
        j = below(rng, n)
        while j in selected:
            j = below(rng, n)
        selected.add(j)
        result.append(population[j])
    return result


def copy_of(rng: random.Random) -> random.Random:
    """An independent generator in ``rng``'s state: what a game's ``clone`` needs.

    ``random.Random()`` first seeds itself from the operating system's entropy (a
    system call and a full seeding, about four times what the copy costs), only for
    ``setstate`` to overwrite it; a bare instance skips that.
    """
    other: random.Random = _RANDOM.__new__(_RANDOM)
    other.setstate(rng.getstate())
    return other


@mypyc_attr(allow_interpreted_subclasses=True)
class SharedGenerator:
    """A game that owns a random generator, shared with its clones until one of them draws.

    Copying a generator (624 words out through ``getstate`` and back in through
    ``setstate``) costs more than all the rest of a clone, and most clones never draw:
    a greedy policy clones the game for every action it values and plays one move on
    each.  So a clone takes its original's generator as it is (:meth:`share_generator`)
    and both are marked; every draw goes through :meth:`generator`, which first makes a
    shared generator the game's own copy.  A shared generator is therefore never drawn
    from, and each game draws exactly what it would have drawn from a copy made at once:
    the games are the same.
    """

    _rng: random.Random
    _rng_shared: bool
    # ``getrandbits`` bound to the generator ``_draws_of`` (see drawer)
    _draws: Any = None
    _draws_of: random.Random | None = None

    def set_generator(self, rng: random.Random) -> None:
        """Draw from ``rng`` from now on (the game's own: set-up, a determinized clone)."""
        self._rng = rng
        self._rng_shared = False

    def generator(self) -> random.Random:
        """The generator to draw from: the game's own (copied first if it was shared)."""
        if self._rng_shared:
            self._rng = copy_of(self._rng)
            self._rng_shared = False
        return self._rng

    def drawer(self) -> Any:
        """``getrandbits`` of :meth:`generator`'s generator, bound, for :func:`shuffle`.

        Looking a method up on a ``random.Random`` instance and binding it costs several
        draws; a game shuffles several decks, so it binds once per generator.  The
        generator it was bound to is kept with it, so a generator set or copied since is
        bound afresh (nothing else needs to know).
        """
        rng = self.generator()
        if self._draws_of is not rng:
            self._draws = rng.getrandbits
            self._draws_of = rng
        return self._draws

    def share_generator(self, clone: SharedGenerator) -> None:
        """Give ``clone`` this game's generator, shared by both until either draws."""
        clone._rng = self._rng
        clone._rng_shared = True
        self._rng_shared = True
