"""``wonders cards`` for a decks game: the card kinds and decks, the Wonders' pieces and the
progress tokens, each said in words from the data the engine plays (docs/language.md,
"Components files")."""

from __future__ import annotations

import json
import sys

from wonders.dsl.components_model import (
    CENTRAL,
    Components,
    describe_kind,
    describe_piece,
    describe_progress,
)
from wonders.dsl.model import Game


def components_record(components: Components) -> dict[str, object]:
    """The components as JSON-ready data (``wonders cards --json``)."""
    names = [k.name for k in components.kinds]
    return {
        "cards": [{"kind": k.name, "colour": k.colour, "shows": describe_kind(k),
                   "copies": {d.name: d.cards.count(i) for d in components.decks
                              if i in d.cards}}
                  for i, k in enumerate(components.kinds)],
        "decks": [{"name": d.name, "face_up": d.face_up, "cards": len(d.cards),
                   "kinds": {names[k]: d.cards.count(k) for k in sorted(set(d.cards))}}
                  for d in components.decks],
        "wonders": [{"name": w.name, "pieces": [describe_piece(p) for p in w.pieces],
                     "points": sum(p.points for p in w.pieces)} for w in components.wonders],
        "progress": [{"name": t.name, "copies": t.copies, "does": describe_progress(t)}
                     for t in components.progress],
    }


def print_components(loaded: Game, as_json: bool) -> None:
    components = loaded.components
    assert components is not None
    if as_json:
        json.dump(components_record(components), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
        return
    from rich.console import Console
    from rich.table import Table

    console = Console()
    decks = components.decks
    order = [d for d in decks if d.name != CENTRAL] + [d for d in decks if d.name == CENTRAL]
    kinds = Table(title=f"{loaded.rules.title}: {sum(len(d.cards) for d in decks)} cards "
                  f"in {len(decks)} decks")
    for header in ("Card", "Colour", "Shows", *[d.name for d in order]):
        kinds.add_column(header)
    for i, kind in enumerate(components.kinds):
        kinds.add_row(kind.name, kind.colour, describe_kind(kind),
                      *[str(d.cards.count(i)) for d in order])
    kinds.add_row("", "", "cards", *[str(len(d.cards)) for d in order])
    console.print(kinds)
    wonders = Table(title="Wonders, built in pieces (in cost order)")
    for header in ("Wonder", "Piece", "Cost, points, rests on, effect"):
        wonders.add_column(header)
    for wonder in components.wonders:
        for i, piece in enumerate(wonder.pieces):
            wonders.add_row(wonder.name if i == 0 else "", str(i + 1), describe_piece(piece))
    console.print(wonders)
    tokens = Table(title="Progress tokens")
    for header in ("Token", "Copies", "Does"):
        tokens.add_column(header)
    for token in components.progress:
        tokens.add_row(token.name, str(token.copies), describe_progress(token))
    console.print(tokens)


__all__ = ["components_record", "print_components"]
