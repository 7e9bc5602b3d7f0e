"""The engine and the language name no card, wonder or token: the data does.

Every name of the shipped games (base and Duel: cards, wonders, progress tokens;
Dice: buildings, boards, dice and bonuses)
is searched for in wonders/engine/**/*.py and wonders/dsl/**/*.py, two ways:

* as written, case-sensitively, on word boundaries ("Library", "The Great
  Library", "Glass-Blower"): a capitalised name in code, a string or a
  docstring is a rule hard-wired for one card.  No exception is allowed.
* as a Python identifier, without a leading "The": a name of several words in
  lower or upper snake case (``great_library``, ``STATUE_OF_ZEUS``), a name of
  one word as an upper-case constant (``ECONOMY``).  One-word names in lower
  case are not searched: they are ordinary English words (library, temple,
  law, economy, study, mine, stable, press...) that variables and docstrings
  use for what they mean, not for the card.  Today no search collides with a
  legitimate word; if one ever does (a capitalised "Stable" opening a
  sentence, say), rephrase it or add the word to ``GENERIC`` with the reason.

A failure lists every hit as ``path:line: name | the line``.
"""

from __future__ import annotations

import re
from pathlib import Path

from wonders.dsl.loader import load_game

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("src/wonders",)  # the language, the engine and every front-end
GAMES = ("base", "duel", "dice")
# shipped expansions with names of their own (loaded by path: they are rule sets)
EXPANSIONS = (ROOT / "expansions" / "pantheon", ROOT / "expansions" / "agora",
              ROOT / "expansions" / "pantheon-agora")

# Names (as written) that are let through because they are ordinary words where they occur
# in the scanned code, each with the reason. Empty: nothing collides today. (The one-word
# names in lower case, not searched at all, would: `mine = sheet.total(seat)` in the bots,
# "codes are stable" in wonders/dsl/codes.py, the resource in "2 stone, 1 loom" in wonders/dsl/parser.py.)
GENERIC: dict[str, str] = {}


def shipped_names() -> set[str]:
    names: set[str] = set()
    for game in (*GAMES, *EXPANSIONS):
        data = load_game([game]) if isinstance(game, Path) else load_game(game=game)
        names |= {c.name for c in data.cards}
        names |= {w.name for w in data.wonders}
        names |= {t.name for t in data.tokens}
        if data.dice is not None:  # Dice: buildings, boards and bonuses (the dice are
            dice = data.dice       # named by colour, ordinary words in the engine)
            names |= {b.name for b in dice.buildings} | {b.name for b in dice.boards}
            names |= {k for k in [b.key for b in dice.buildings] + [b.name for b in dice.bonuses]
                      if "_" in k}  # keys of several words (one-word keys are plain words)
    return names


def identifier(name: str) -> str:
    """``The Statue of Zeus`` -> ``Statue_of_Zeus`` (then lowered / uppered)."""
    return re.sub(r"[^A-Za-z0-9]+", "_", re.sub(r"^The ", "", name)).strip("_")


def patterns(names: set[str]) -> list[tuple[str, re.Pattern[str]]]:
    found = []
    for name in sorted(names - set(GENERIC)):
        found.append((name, re.compile(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])")))
        words = identifier(name)
        forms = {words.upper()} if "_" not in words else {words.lower(), words.upper()}
        for form in sorted(forms):
            # an underscore is a boundary: great_library_bonus holds great_library
            found.append((name, re.compile(r"(?<![A-Za-z0-9])" + re.escape(form)
                                           + r"(?![A-Za-z0-9])")))
    return found


def scan(text: str, where: str, checks: list[tuple[str, re.Pattern[str]]]) -> list[str]:
    hits = []
    for number, line in enumerate(text.splitlines(), start=1):
        for name, pattern in checks:
            if pattern.search(line):
                hits.append(f"{where}:{number}: {name} | {line.strip()}")
    return hits


def source_files() -> list[Path]:
    return sorted(p for folder in SCANNED for p in (ROOT / folder).rglob("*.py"))


def test_the_scan_covers_every_name_and_file() -> None:
    names = shipped_names()
    assert {"The Great Library", "Economy", "Glass-Blower", "Lumber Yard", "Gizah"} <= names
    assert len(names) > 100
    files = source_files()
    assert ROOT / "src" / "wonders" / "engine" / "mechanisms" / "structure.py" in files
    assert ROOT / "src" / "wonders" / "dsl" / "compiler.py" in files
    assert any("bots" in p.parts for p in files)


def test_the_scan_finds_a_planted_name() -> None:
    """Not a rubber stamp: names in any of their forms are found, plain words are not."""
    checks = patterns({"The Great Library", "Economy", "Glass-Blower", "Stable", "Lumber Yard"})
    text = ("if card.name == 'The Great Library':\n"       # 1
            "GREAT_LIBRARY = 1\n"                           # 2
            "ECONOMY = 'trade_income'\n"                    # 3
            "blower = 'Glass-Blower'\n"                     # 4
            "def lumber_yard_bonus(): ...\n"                # 5
            "# the great library of helpers; a stable order; economy of means\n"
            "# Glass-Blowers, Stableford, lumber yards\n"
            "economy = city.has('x')\n")
    hits = scan(text, "x.py", checks)
    assert [h.split(" |")[0] for h in hits] == [
        "x.py:1: The Great Library", "x.py:2: The Great Library", "x.py:3: Economy",
        "x.py:4: Glass-Blower", "x.py:5: Lumber Yard"]


def test_generic_words_are_names_of_the_shipped_games() -> None:
    """Each exception is there because a shipped name collides with it (keep the list short)."""
    assert set(GENERIC) <= shipped_names()


def test_no_card_wonder_or_token_name_in_the_engine() -> None:
    checks = patterns(shipped_names())
    hits: list[str] = []
    for path in source_files():
        hits += scan(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)), checks)
    assert hits == [], "names of the data in Python code:\n" + "\n".join(hits)
