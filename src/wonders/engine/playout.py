"""Whole-game playouts: a game played to its end by a built-in policy, in one compiled loop.

Simulations and the search bot play thousands of complete games in which every seat
follows a fixed policy.  Played through bot objects, every decision goes back to the
interpreter: a bot's ``choose``, a dict built by a comprehension, the loop's
``play``.  :func:`playout` is that loop written once, in a module compiled with the
hot path (``HOT_PATH`` in ``setup.py``), so a decision costs what the loop's own
methods cost.  It speaks only the game contract (:mod:`wonders.engine.contract`),
so it plays every registered loop.

Policies (``policy``: one name for every seat, or one per seat):

``random``
    Uniformly one of ``legal_actions(seat)``, drawn as ``rng.choice`` draws it
    (:func:`~wonders.engine.randomness.below` makes the same ``getrandbits`` calls):
    exactly the random bot's choices, so a playout with per-seat seeds is the game
    ``wonders play``/``simulate`` play with random bots.
``quick``
    A random legal action drawn *without* listing every legal action, where the loop
    offers a sampler: the optional method ``random_action(seat, rng)`` (see
    :data:`SAMPLER`).  Listing every action with every Pareto-optimal payment, at
    every decision, is most of a random game's cost, and a random playout needs one
    action.  The distribution is the loop's (the draft loop's: a card of the hand,
    then a kind of action it allows, then one of that kind's payments, each
    uniformly; see ``Game.random_action``), not uniform over the legal actions; a
    loop without a sampler falls back to ``random``'s uniform draw, with the same
    generator.
``greedy``
    The greedy policy the loop registers (:func:`~wonders.bots.policy.greedy_policy`),
    one instance per seat built as ``Policy(seed, noise, fast)``: exactly the greedy
    bot's choices for the same seed.

Seeds: with an ``int`` seed, seat ``s`` draws from its own generator seeded
``seed * 1000 + s`` (:func:`seat_seed`, the seeds ``simulate`` and ``wonders play
--seed`` give the bots), so a playout of a fresh game with seed ``S`` is the game
those commands play with seed ``S``.  With ``shared=True`` one generator (and one
greedy policy) seeded ``seed`` serves every seat, which is what the search bot's
playouts use; a ``random.Random`` is always shared (its draws continue).  Either
way a playout is a function of (game state, policies, seed).

Nothing here creates a bot object, builds a callback table or writes a log per
decision; the only optional per-decision work is what the caller asks for
(``record`` appends each decision's moves; ``check`` verifies every action against
``legal_actions``, a debug mode that plays the same game).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Callable, Final, Mapping, Sequence, cast

from wonders.engine.errors import RuleError
from wonders.engine.randomness import below, seeded

if TYPE_CHECKING:
    from wonders.engine.contract import GameState

RANDOM: Final = "random"
QUICK: Final = "quick"
GREEDY: Final = "greedy"
POLICIES: Final = (RANDOM, QUICK, GREEDY)

# The optional method a loop offers for ``quick``: ``random_action(seat, rng) -> Action``,
# one legal action of ``seat`` drawn with ``rng`` without listing every legal action (its
# docstring says the distribution).  It is looked up once per playout, by name, like the
# contract's other methods: no loop is named here.
SAMPLER: Final = "random_action"

# a chooser per seat: random draws (0), the loop's sampler (1), a greedy policy (2)
_UNIFORM: Final = 0
_SAMPLED: Final = 1
_GREEDY: Final = 2


def seat_seed(seed: int, seat: int) -> int:
    """The seed of ``seat``'s generator in a game of seed ``seed`` (``simulate`` and
    ``wonders play`` seed their bots so, which is why a per-seat playout matches them)."""
    return seed * 1000 + seat


def _names(policy: str | Sequence[str], players: int) -> list[str]:
    names = [policy] * players if isinstance(policy, str) else list(policy)
    if len(names) != players:
        raise ValueError(f"{len(names)} policies for {players} seats: give one for every "
                         "seat, or one name")
    for name in names:
        if name not in POLICIES:
            raise ValueError(f"unknown playout policy '{name}' (known: {', '.join(POLICIES)})")
    return names


def playout(game: GameState, policy: str | Sequence[str] = RANDOM,
            seed: int | random.Random = 0, *, shared: bool = False, noise: float = 0.0,
            fast: bool = False, first: Mapping[int, Any] | None = None,
            record: list[dict[int, Any]] | None = None, check: bool = False,
            on_age: Callable[[GameState], None] | None = None) -> GameState:
    """Play ``game`` from its current state to the end, every seat following ``policy``
    (one name, or one per seat: ``random``, ``quick`` or ``greedy``), and return it (the
    same object, finished: clone it first to keep the position).

    ``seed``: an ``int`` gives every seat its own generator (:func:`seat_seed`) unless
    ``shared``; a ``random.Random`` is one generator for every seat.  ``noise`` and
    ``fast`` are passed to the greedy policies (a normal error of that spread on each
    value; the cheap estimate).  ``first`` fixes the actions of some seats at the
    pending decision (the search bot's candidate): the other deciding seats choose by
    their policy, in ``to_move()`` order.  ``record`` receives every decision's moves,
    in order; ``check`` raises :class:`RuleError` if a policy chose an action that is
    not among ``legal_actions`` (by equality: a sampled action is a new object); and
    ``on_age(game)`` is called before the first decision of each age (a new deal).
    """
    players = game.players
    names = _names(policy, players)
    shared_rng: random.Random | None = seed if isinstance(seed, random.Random) else None
    base = 0 if isinstance(seed, random.Random) else seed
    if shared_rng is None and shared:
        shared_rng = seeded(base)
    rngs: list[random.Random] = []
    for s in range(players):
        rngs.append(shared_rng if shared_rng is not None else seeded(seat_seed(base, s)))
    sampler: Any = getattr(game, SAMPLER, None) if QUICK in names else None
    kinds: list[int] = []
    for name in names:
        kinds.append(_GREEDY if name == GREEDY else
                     _SAMPLED if name == QUICK and sampler is not None else _UNIFORM)
    policies: list[Any] = [None] * players
    if GREEDY in names:
        from wonders.bots.policy import greedy_policy  # interpreted; only greedy playouts need it

        factory = greedy_policy(game.data)
        one: Any = None
        for s in range(players):
            if kinds[s] != _GREEDY:
                continue
            if shared_rng is not None:
                if one is None:
                    one = factory(base if isinstance(seed, int) else
                                  shared_rng.getrandbits(63), noise, fast)
                policies[s] = one
            else:
                policies[s] = factory(seat_seed(base, s), noise, fast)
    age = -1
    # actions are typed Any: compiled code checks a declared type at run time, and a loop's
    # actions need not be members of the ``Action`` union (the dice loop's are not)
    forced: dict[int, Any] = dict(first) if first is not None else {}
    while not game.over:
        if on_age is not None and game.age != age:
            age = game.age
            on_age(game)
        moves: dict[int, Any] = {}
        for s in game.to_move():
            action: Any
            if s in forced:
                action = forced[s]
            else:
                kind = kinds[s]
                if kind == _GREEDY:
                    action = policies[s].choose(game, s)
                elif kind == _SAMPLED:
                    action = sampler(s, rngs[s])
                else:
                    actions = cast("Sequence[Any]", game.legal_actions(s))
                    if not actions:
                        raise RuleError(f"seat {s} must decide but has no legal action")
                    action = actions[below(rngs[s], len(actions))]
            if check and action not in game.legal_actions(s):
                raise RuleError(f"playout: seat {s} chose {action}, which is not among its "
                                f"legal actions ({game.decision().kind})")
            moves[s] = action
        forced = {}
        if record is not None:
            record.append(moves)
        game.play(moves)
    return game


__all__ = ["GREEDY", "POLICIES", "QUICK", "RANDOM", "SAMPLER", "playout", "seat_seed"]
