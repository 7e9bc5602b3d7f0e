"""What plays where, as tables generated from the code: effect kinds × game loops × games.

The rows are everything the language accepts (every effect word with every timing
the compiler allows, :func:`wonders.dsl.compiler.effect_timings`; every ability a
loop implements or a game declares; every rule-set slot a loop plays), the
columns each game loop of the catalogue (:data:`wonders.dsl.mechanisms.LOOPS`)
and each game given (by default the shipped ones), and each cell says whether
it runs there or which code ``wonders validate`` refuses it with.  Nothing here
is written by hand: change the catalogue and the tables change.

``docs/language.md`` holds the tables between the marker comments
:data:`START` and :data:`END`; ``tests/test_docs.py`` checks they are current.
To regenerate them after changing the catalogue::

    python -m wonders.dsl.effects_table docs/language.md

``wonders effects [--game GAME]`` prints them.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Final, Mapping, Sequence

from wonders.dsl import effects as fx
from wonders.dsl import mechanisms
from wonders.dsl.compiler import effect_timings
from wonders.dsl.flow_model import PRICED_ROW, has_extra_offer

if TYPE_CHECKING:
    from wonders.dsl.mechanisms import Capabilities
    from wonders.dsl.model import Game

START: Final = "<!-- effects-table:start -->"
END: Final = "<!-- effects-table:end -->"

_TIMING: Final = {fx.Timing.ONGOING: "ongoing", fx.Timing.NOW: "`now:`",
                  fx.Timing.ON: "`on …:`", fx.Timing.END: "`end:`"}


def _words(names: Sequence[str] | frozenset[str]) -> str:
    return ", ".join(f"`{n}`" for n in sorted(names))


def _short(reason: str) -> str:
    """The first clause of a catalogue reason, for a table cell."""
    return reason.split(";")[0].strip()


def loop_cell(caps: Capabilities, word: str, timing: fx.Timing) -> str:
    """Whether the loop runs ``word`` with ``timing``: ``runs …`` or ``M901: why``."""
    if (word, timing) not in caps.effects:
        why = caps.refused.get(word, f"not run by the {caps.offer} loop")
        return f"M901: {_short(why)}"
    if word == "buy":
        if caps.buy_places:
            anyone = "; without `from`: from every seller" if caps.buy_anyone else ""
            return f"runs: `from` {_words(caps.buy_places)}{anyone}"
        if caps.buy_anyone:
            return "runs: `buy … at N` (every seller); `from PLACES`: M901"
        return "M901: no seller"
    if word == "ability":
        return f"runs: {_words(caps.abilities)}; others M902"
    return "runs"


def game_cell(caps: Capabilities, game: Game, word: str, timing: fx.Timing) -> str:
    """Whether ``word`` with ``timing`` plays in ``game`` (its rule set's loop is ``caps``):
    the loop's verdict, narrowed by what the game's vocabulary declares."""
    if (word, timing) not in caps.effects:
        return "M901"
    vocabulary = game.rules.vocabulary
    if word in ("draw", "build") and game.rules.model.reserve.colour is None:
        return "M901: no reserve"
    if word == "activate" and not has_extra_offer(game.rules.model.flow, PRICED_ROW):
        return "M901: no priced row"
    if word == "take":
        counters = ("`take N KIND tokens` (counters)" if caps.counter_tokens and vocabulary.tokens
                    else "")
        if not vocabulary.pools:
            return f"runs: {counters}; `from POOL`: N309" if counters else "N309: no token pools"
        return f"runs: from {_words(vocabulary.pools)}" + (f"; {counters}" if counters else "")
    if word == "ability":
        declared = vocabulary.abilities
        runs = [a for a in declared if a in caps.abilities]
        refused = [a for a in declared if a not in caps.abilities]
        cell = f"runs: {_words(runs)}" if runs else "N306: no abilities declared"
        return cell + (f"; M902: {_words(refused)}" if refused else "")
    return "runs"


def _offer(game: Game) -> str:
    return game.rules.model.offer.mechanism


def _caps(game: Game) -> Capabilities | None:
    return mechanisms.capabilities(_offer(game))


def _header(loops: Sequence[str], games: Mapping[str, Game], first: Sequence[str]) -> list[str]:
    names = [*first, *(f"`{loop}` loop" for loop in loops),
             *(f"{name} (`{_offer(game)}`)" for name, game in games.items())]
    return ["| " + " | ".join(names) + " |", "|" + "---|" * len(names)]


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def effects_rows(loops: Sequence[str], games: Mapping[str, Game]) -> list[str]:
    """The effect table: one row per effect word and timing the language accepts."""
    lines = _header(loops, games, ("effect", "timing"))
    catalogue = mechanisms.LOOPS
    for word, timings in effect_timings().items():
        for timing in timings:
            cells = [f"`{word}`", _TIMING[timing]]
            cells += [loop_cell(catalogue[loop], word, timing) for loop in loops]
            for game in games.values():
                caps = _caps(game)
                cells.append(game_cell(caps, game, word, timing) if caps is not None
                             else "no such loop")
            lines.append(_row(cells))
    return lines


def ability_rows(loops: Sequence[str], games: Mapping[str, Game]) -> list[str]:
    """The ability table: every ability a loop implements or a game declares."""
    catalogue = mechanisms.LOOPS
    names: set[str] = set()
    for loop in loops:
        names |= catalogue[loop].abilities
    for game in games.values():
        names |= set(game.rules.vocabulary.abilities)
    lines = _header(loops, games, ("ability",))
    for name in sorted(names):
        cells = [f"`{name}`"]
        cells += ["runs" if name in catalogue[loop].abilities else "M902" for loop in loops]
        for game in games.values():
            caps = _caps(game)
            if name not in game.rules.vocabulary.abilities:
                cells.append("N306: not declared")
            else:
                cells.append("runs" if caps is not None and name in caps.abilities else "M902")
        lines.append(_row(cells))
    return lines


def slot_rows(loops: Sequence[str], games: Mapping[str, Game]) -> list[str]:
    """The slot table: the mechanisms each loop plays with (its default first) and the one
    each game's rule set chooses."""
    catalogue = mechanisms.LOOPS
    slots: list[str] = []
    for loop in loops:
        slots += [s for s in catalogue[loop].slots if s not in slots]
    lines = _header(loops, games, ("slot",))
    lines.append(_row(["`offer`", *(f"`{catalogue[loop].offer}`" for loop in loops),
                       *(f"`{_offer(game)}`" for game in games.values())]))
    for slot in slots:
        cells = [f"`{slot}`"]
        for loop in loops:
            allowed = catalogue[loop].slots.get(slot, ())
            cells.append(_words(allowed[:1]) + (f" (also {_words(allowed[1:])})"
                                                 if allowed[1:] else "") if allowed else "—")
        for game in games.values():
            cells.append(f"`{getattr(game.rules.model, slot).mechanism}`")
        lines.append(_row(cells))
    cells = ["`turns: next_age`"]
    cells += [_words(catalogue[loop].next_age) if catalogue[loop].next_age else "not read: M905"
              for loop in loops]
    for game in games.values():
        caps = _caps(game)
        cells.append(f"`{game.rules.model.turns.next_age}`" if caps is not None and caps.next_age
                     else "—")
    lines.append(_row(cells))
    return lines


def shipped() -> dict[str, Game]:
    """Every shipped game, loaded (raises :class:`~wonders.dsl.errors.DataError` if one
    does not load)."""
    from wonders.dsl.loader import load_game, shipped_games

    return {name: load_game([path], name) for name, path in shipped_games().items()}


def effects_table(games: Mapping[str, Game] | None = None,
                  loops: Sequence[str] | None = None) -> str:
    """The three tables as Markdown: effects, abilities, slots × ``loops`` (default: every
    loop of the catalogue) and ``games`` (default: the shipped games, by name)."""
    if games is None:
        games = shipped()
    if loops is None:
        loops = list(mechanisms.LOOPS)
    parts = [
        "Effects: each effect word with each timing the language accepts. `runs`: the "
        "loop's effect runtime executes it; a code: `wonders validate` refuses it there "
        "(see the error codes).",
        "", *effects_rows(loops, games), "",
        "Abilities: `runs`, implemented by the loop; `M902`, refused; `N306`, the game's "
        "vocabulary does not declare it.",
        "", *ability_rows(loops, games), "",
        "Slots: the mechanisms each loop plays with (its default first) and the one each "
        "game's rule set uses; any other is M905.",
        "", *slot_rows(loops, games),
    ]
    return "\n".join(parts) + "\n"


def replace_marked(text: str, table: str) -> str:
    """``text`` with what lies between :data:`START` and :data:`END` replaced by ``table``
    (ValueError when the markers are missing)."""
    start, end = text.find(START), text.find(END)
    if start < 0 or end < start:
        raise ValueError(f"no '{START}' … '{END}' markers")
    return text[:start + len(START)] + "\n" + table + text[end:]


def marked(text: str) -> str:
    """What lies between the markers (ValueError when they are missing)."""
    start, end = text.find(START), text.find(END)
    if start < 0 or end < start:
        raise ValueError(f"no '{START}' … '{END}' markers")
    return text[start + len(START):end].lstrip("\n")


def main(argv: Sequence[str]) -> int:
    """``python -m wonders.dsl.effects_table [FILE…]``: print the tables, or rewrite them
    between the markers of each file."""
    table = effects_table()
    if not argv:
        sys.stdout.write(table)
        return 0
    for name in argv:
        with open(name, encoding="utf-8") as handle:
            text = handle.read()
        with open(name, "w", encoding="utf-8") as handle:
            handle.write(replace_marked(text, table))
    return 0


if __name__ == "__main__":  # pragma: no cover - the command line above
    raise SystemExit(main(sys.argv[1:]))


__all__ = ["END", "START", "ability_rows", "effects_rows", "effects_table", "game_cell",
           "loop_cell", "marked", "replace_marked", "shipped", "slot_rows"]
