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
    "dsl/effects",
    "dsl/model",
    "engine/actions",
    "engine/bank",
    "engine/bank_terms",
    "engine/city",
    "engine/drafted_city",
    "engine/game",
    "engine/interning",
    "engine/memo",      # every cache miss stores through memo.remember
    "engine/mechanisms/battles",
    "engine/payment",
    "engine/playout",   # whole-game playouts: simulate's and the search bot's games
    "engine/production",
    "engine/pools",
    "engine/randomness",
    "engine/rules",
    "engine/runtime",
    "engine/scoring",
    "engine/sides",
    "engine/structure",
    "engine/structure_game",
    "engine/structure_rules",
    "engine/table",
    "engine/track",
    # the dice-forum loop (7 Wonders Dice) and its mechanisms
    "dsl/sheets_model",
    "engine/dice_actions",
    "engine/dice_game",
    "engine/mechanisms/attacks",
    "engine/mechanisms/end_trigger",
    "engine/mechanisms/forum",
    "engine/mechanisms/gates",
    "engine/mechanisms/reserve",
    "engine/mechanisms/sheet",
    # the loops' greedy policies and the choice they share: simulations and the search
    # bot's playouts
    "engine/bots/greedy",
    "engine/bots/greedy_dice",
    "engine/bots/greedy_structure",
    "engine/bots/policy",
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
    linked = all(os.path.isdir(f"typecheck/wonders/{package}") for package in ("dsl", "engine"))
    if not linked:  # e.g. a source archive without the links
        if os.environ.get("WONDERS_COMPILE", "").strip() == "1":
            raise SystemExit("WONDERS_COMPILE=1, but typecheck/wonders/ is missing")
        print("wonders: typecheck/wonders/ is missing; installing pure Python", file=sys.stderr)
        return []
    from mypyc.build import mypycify

    # typecheck/wonders/ links dsl/ and engine/ under their installed package names,
    # so mypyc names the modules wonders.dsl.* and wonders.engine.* (as mypy does for
    # the whole project).
    paths = [f"typecheck/wonders/{name}.py" for name in HOT_PATH]
    options = ["--config-file", "typecheck/mypyc.ini"]
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
