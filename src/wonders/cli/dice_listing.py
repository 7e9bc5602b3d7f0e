"""``wonders cards`` for a dice-forum game: the sheets, boards and dice instead of cards.

Every row shows its provenance (``confidence``) so a reader sees at once which numbers
are sourced and which are reconstructed (docs/dice.md).
"""

from __future__ import annotations

import json
import sys

from wonders.dsl import describe
from wonders.dsl.model import Game
from wonders.dsl.sheets_model import DiceSet, Gains


def dice_record(dice: DiceSet) -> dict[str, object]:
    """The dice set as JSON-ready data (``wonders cards --json``)."""
    return {
        "quadrants": list(dice.quadrants), "reserve": dice.reserve,
        "end": {"bonuses": dice.end_bonuses, "extra_turns": dice.extra_turns},
        "buildings": [{"key": b.key, "name": b.name, "colour": b.colour, "order": b.order,
                       "side": b.side, "confidence": b.confidence,
                       "spaces": [{"symbol": s.symbol, "symbols": list(s.symbols),
                                   "cost": s.cost, "effect": s.effects.text,
                                   "attack": s.attack, "defence": s.defence,
                                   "unlock": s.unlock, "die_discount": s.die_discount,
                                   "gains": _gains(dice, s.gains),
                                   "confidence": s.confidence} for s in b.spaces]}
                      for b in dice.buildings],
        "boards": [{"name": b.name, "confidence": b.confidence,
                    "stages": [{"cost": s.cost, "effect": s.effects.text,
                                "gains": _gains(dice, s.gains)} for s in b.stages]}
                   for b in dice.boards],
        "dice": [{"name": d.name, "colour": d.colour, "start": d.start,
                  "confidence": d.confidence,
                  "faces": [{"building": [dice.buildings[b].key for b in f.buildings]
                             if len(f.buildings) > 1 else dice.buildings[f.building].key,
                             "symbol": f.symbol,
                             "compare": [dice.key_of(b) for b in f.compare] or None}
                            for f in d.faces]}
                 for d in dice.dice],
        "bonuses": [{"name": b.name, "effect": b.effects.text,
                     "cross": [dice.buildings[i].key for i in b.cross]} for b in dice.bonuses],
    }


def _gains(dice: DiceSet, gains: Gains) -> list[str]:
    """A space's or stage's sheet-only gains in words (die prices, coins on choosing a
    colour, spaces crossed at once)."""
    found = []
    for price in gains.prices:
        which = f"{price.colour} dice" if price.colour else "dice"
        if price.less:
            found.append(f"{which} cost {price.less} less")
        if price.most is not None:
            found.append(f"{which} cost at most {price.most}" if price.most else
                         f"{which} cost nothing")
    for gain in gains.die_gains:
        found.append(f"{gain.coins} coins whenever a {gain.colour} die is chosen")
    if gains.cross is not None:
        count = "a space" if gains.cross.up_to == 1 else f"up to {gains.cross.up_to} spaces"
        found.append(f"cross {count} of " + " or ".join(dice.buildings[b].key
                                                          for b in gains.cross.buildings))
    return found


def _space(dice: DiceSet, text: str, attack: int, defence: bool, unlock: str | None,
           gains: Gains) -> str:
    parts = [text] if text else []
    if attack:
        parts.append(f"attack {attack}")
    if defence:
        parts.append("defence")
    if unlock:
        parts.append(f"unlocks the {unlock} die")
    parts += _gains(dice, gains)
    return "; ".join(parts) or "—"


def print_dice(game: Game, as_json: bool) -> None:
    dice = game.dice
    assert dice is not None
    if as_json:
        json.dump(dice_record(dice), sys.stdout, indent=2)
        sys.stdout.write("\n")
        return
    from rich.console import Console
    from rich.table import Table

    console = Console()
    sheet = Table(title=f"{game.rules.title}: the sheet (reserve {dice.reserve} coins; the "
                  f"end: {dice.end_bonuses} bonuses, then {dice.extra_turns} more turn(s))")
    for column in ("Building", "Space", "Symbol", "Types", "Effect", "Meaning", "Confidence"):
        sheet.add_column(column)
    for b in dice.buildings:
        for s in b.spaces:
            sheet.add_row(f"{b.name} ({b.colour}{', any order' if b.order == 'any' else ''})"
                          if s.index == 0 else "", str(s.index + 1),
                          " / ".join(s.symbols) or "—",
                          str(s.cost), _space(dice, s.effects.text, s.attack, s.defence,
                                              s.unlock, s.gains),
                          describe.effects(s.effects) if s.effects.clauses else "",
                          s.confidence or (b.confidence if s.index == 0 else ""))
    console.print(sheet)
    boards = Table(title="Boards (Wonder stages, built in order)")
    for column in ("Board", "Stage", "Types", "Effect", "Confidence"):
        boards.add_column(column)
    for board in dice.boards:
        for i, stage in enumerate(board.stages):
            boards.add_row(board.name if i == 0 else "", str(i + 1), str(stage.cost),
                           "; ".join([stage.effects.text] * bool(stage.effects.text)
                                     + _gains(dice, stage.gains)),
                           stage.confidence or (board.confidence if i == 0 else ""))
    console.print(boards)
    forum = Table(title=f"The forum: quadrants cost {', '.join(map(str, dice.quadrants))}")
    for column in ("Die", "In the forum", "Faces", "Confidence"):
        forum.add_column(column)
    for die in dice.dice:
        faces = []
        for f in die.faces:
            faces.append(dice.face_words(f))
        forum.add_row(die.name, "from the start" if die.start else
                      f"when unlocked (replaces a {die.replaces} die)", ", ".join(faces),
                      die.confidence)
    console.print(forum)
    bonuses = Table(title="Bonuses (one per building completed, each once)")
    for column in ("Bonus", "Effect"):
        bonuses.add_column(column)
    for bonus in dice.bonuses:
        bonuses.add_row(bonus.name, bonus.effects.text or "cross a space of " + ", ".join(
            dice.buildings[i].key for i in bonus.cross))
    console.print(bonuses)


__all__ = ["dice_record", "print_dice"]
