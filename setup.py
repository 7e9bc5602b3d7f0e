"""Build hook: compile the engine's hot path with mypyc (the rest is in pyproject.toml).

Bots, simulations and agents spend their time in a few engine modules: legal
actions, payment, resolving a turn, scoring.  Those modules are plain typed
Python (mypy-clean), and mypyc compiles such modules into C extensions with
the same behaviour, about twice as fast.  So a regular install (``pip install .``)
compiles them; the Python sources ship too, and every other module stays
interpreted.

``WONDERS_COMPILE`` chooses:

* unset: compile for a regular install; an editable install (``pip install -e .``)
  stays pure Python, so an edited source takes effect without a rebuild;
* ``0``: never compile (pure Python everywhere);
* ``1``: compile, and fail the build if that fails.

``python -c "import wonders.engine; print(wonders.engine.COMPILED)"`` tells which
one an environment has.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup

# The modules every decision of a game runs through (mypyc needs each to be
# compiled together with the classes it subclasses).  The card language's data
# classes are among them: compiled, the engine reads a card's or an effect's
# fields directly instead of through Python attribute lookups.
HOT_PATH = [
    "wonders/dsl/effects",
    "wonders/dsl/model",
    "wonders/engine/actions",
    "wonders/engine/bank",
    "wonders/engine/bank_terms",
    "wonders/engine/city",
    "wonders/engine/drafted_city",
    "wonders/engine/game",
    "wonders/engine/interning",
    "wonders/engine/memo",      # every cache miss stores through memo.remember
    "wonders/engine/mechanisms/battles",
    "wonders/engine/mechanisms/card_reserve",
    "wonders/engine/mechanisms/discounts",
    "wonders/engine/mechanisms/free_builds",
    "wonders/engine/mechanisms/hands",
    "wonders/engine/mechanisms/neighbours",
    "wonders/engine/payment",
    "wonders/engine/playout",   # whole-game playouts: simulate's and the search bot's games
    "wonders/engine/production",
    "wonders/engine/pools",
    "wonders/engine/randomness",
    "wonders/engine/rules",
    "wonders/engine/runtime",
    "wonders/engine/scoring",
    "wonders/engine/sides",
    "wonders/engine/structure",
    "wonders/engine/structure_rules",
    "wonders/engine/table",
    "wonders/engine/track",
    # the flow interpreter and the mechanisms its flows name (7 Wonders Architects, Dice)
    "wonders/dsl/components_model",
    "wonders/engine/flow",
    "wonders/engine/flow_actions",
    "wonders/engine/flow_state",
    "wonders/engine/mechanisms/conflict",
    "wonders/engine/mechanisms/decks",
    "wonders/engine/mechanisms/pawn",
    "wonders/engine/mechanisms/pieces",
    "wonders/engine/mechanisms/progress",
    "wonders/dsl/sheets_model",
    "wonders/engine/dice_actions",
    "wonders/engine/mechanisms/attacks",
    "wonders/engine/mechanisms/end_trigger",
    "wonders/engine/mechanisms/forum",
    "wonders/engine/mechanisms/gates",
    "wonders/engine/mechanisms/reserve",
    "wonders/engine/mechanisms/sheet",
    "wonders/engine/mechanisms/sheets",
    "wonders/engine/mechanisms/bank",          # the card structure (7 Wonders Duel)
    "wonders/engine/mechanisms/cities",
    "wonders/engine/mechanisms/pairs",
    "wonders/engine/mechanisms/pools",
    "wonders/engine/mechanisms/structure",
    "wonders/engine/mechanisms/track",
    "wonders/engine/mechanisms/priced_row",    # Pantheon's board (a row bought on a turn)
    "wonders/engine/mechanisms/city_moves",
    "wonders/engine/mechanisms/chambers",      # Agora's Senate, conspiracies, senators
    "wonders/engine/mechanisms/counted_prices",
    "wonders/engine/mechanisms/either",
    "wonders/engine/mechanisms/held",
    "wonders/engine/mechanisms/spread",
    "wonders/engine/mechanisms/wonder_draft",
    # the loops' greedy policies and the choice they share: simulations and the search
    # bot's playouts
    "wonders/bots/greedy",
    "wonders/bots/greedy_dice",
    "wonders/bots/greedy_structure",
    "wonders/bots/policy",
    # the agent environment's observation encoders: every step of an agent (docs/env.md)
    "wonders/env/observe",
    "wonders/env/spaces",       # the legal actions' slots, at every step
    "wonders/env/core",         # the AEC step and the position's state it delegates to
]


# Commands that only write the package's metadata: no extension is needed for them
# (pip runs one before an editable install as well, without "editable" in argv).
METADATA_ONLY = ("dist_info", "egg_info")


def _wanted() -> bool:
    if sys.argv[1:2] and sys.argv[1] in METADATA_ONLY:
        return False
    choice = os.environ.get("WONDERS_COMPILE", "").strip()
    if choice in ("0", "1"):
        return choice == "1"
    return not any(arg.startswith("editable") for arg in sys.argv[1:])


def _extensions() -> list[object]:
    if not _wanted():
        return []
    from mypyc.build import mypycify

    paths = [f"src/{name}.py" for name in HOT_PATH]
    # pip shows this with -v only (without it: "Building wheel ... " and a wait)
    sys.stderr.write(f"wonders: compiling the hot path ({len(paths)} modules) with mypyc into "
                     "one C extension: about 2-3 minutes of one core (WONDERS_COMPILE=0 "
                     "skips it)\n")
    options = ["--config-file", "mypyc.ini"]
    # One group (``separate=False``): every module's code in one C file and one shared
    # library, so the C compiler calls across modules directly and inlines small
    # functions across them; with a library per module (``separate=True``) each call
    # from one module into another goes through a table of pointers.  Measured on
    # random games (callgrind, benchmarks/instructions.py): Duel -2.0 % instructions,
    # base 3 players -1.3 %, Duel +4 % games/s (benchmarks/side_by_side.py).  The one
    # file compiles on one core, in about two minutes (docs/engine.md).
    return list(mypycify([*options, *paths], opt_level="3", separate=False))


setup(ext_modules=_extensions(),
      options={"build_ext": {"parallel": os.cpu_count() or 1}})
