"""Card structures: cards laid out in overlapping rows, taken from the bottom up.

A layout is data (the rule set's ``offer.layouts``): rows from the top of the
structure (furthest from the players) to the bottom, each a list of half-card
column positions, and which rows are dealt face down.  A card at (row r, col c)
is covered by the cards at (r+1, c-1) and (r+1, c+1); it can be taken once
nothing covers it, and a face-down card turns face up as soon as it is
uncovered.  7 Wonders Duel uses three such layouts; any pyramid, wall or
diamond a designer writes works the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from wonders.dsl.model import Card
from wonders.dsl.rules_model import StructureLayout

from .errors import RuleError


@dataclass(frozen=True)
class Layout:
    """The fixed shape of one age's structure, with covering precomputed."""

    rows: tuple[tuple[int, ...], ...]
    face_down_rows: frozenset[int]          # 1-based row numbers
    slot_rows: tuple[int, ...]              # slot -> 1-based row
    slot_columns: tuple[int, ...]
    covered_by: tuple[tuple[int, ...], ...]  # slot -> slots lying on it (next row, col ± 1)
    covers: tuple[tuple[int, ...], ...]      # slot -> slots it lies on (previous row, col ± 1)
    start_blockers: tuple[int, ...] = ()     # slot -> cards lying on it at the start
    start_face_up: tuple[bool, ...] = ()
    start_accessible: tuple[int, ...] = ()

    @property
    def size(self) -> int:
        return len(self.slot_rows)

    @classmethod
    def from_data(cls, data: Any) -> "Layout":
        """A layout written as data (``{rows: [[…], …], face_down: […]}``): scenarios."""
        if not isinstance(data, dict) or not isinstance(data.get("rows"), list):
            raise RuleError("a structure layout needs 'rows': lists of column positions")
        return cls.build(tuple(tuple(int(c) for c in row) for row in data["rows"]),
                         frozenset(int(r) for r in data.get("face_down") or ()))

    @classmethod
    def from_model(cls, layout: StructureLayout) -> "Layout":
        """One age's layout of the rule set's typed ``offer`` section."""
        return cls.build(layout.rows, frozenset(layout.face_down))

    @classmethod
    def build(cls, rows: tuple[tuple[int, ...], ...], face_down: frozenset[int]) -> "Layout":
        """The layout of ``rows`` (half-card columns, from the top), covering precomputed."""
        slot_rows: list[int] = []
        slot_columns: list[int] = []
        where: dict[tuple[int, int], int] = {}
        for r, row in enumerate(rows, start=1):
            for column in row:
                where[(r, column)] = len(slot_rows)
                slot_rows.append(r)
                slot_columns.append(column)
        covered_by = []
        covers = []
        for slot, (r, c) in enumerate(zip(slot_rows, slot_columns)):
            covered_by.append(tuple(where[k] for k in ((r + 1, c - 1), (r + 1, c + 1))
                                    if k in where))
            covers.append(tuple(where[k] for k in ((r - 1, c - 1), (r - 1, c + 1))
                                if k in where))
        blockers = tuple(len(c) for c in covered_by)
        return cls(rows, face_down, tuple(slot_rows), tuple(slot_columns), tuple(covered_by),
                   tuple(covers), blockers,
                   tuple(slot_rows[s] not in face_down or not blockers[s]
                         for s in range(len(slot_rows))),
                   tuple(s for s in range(len(slot_rows)) if not blockers[s]))


class Structure:
    """One age's cards in a layout: which are still there, face up, and takeable.

    ``blockers[slot]`` counts the cards still lying on a slot, so taking a card
    updates what is accessible in constant time.
    """

    __slots__ = ("layout", "cards", "taken", "face_up", "blockers", "accessible", "left")

    def __init__(self, layout: Layout, cards: Sequence[Card]) -> None:
        if len(cards) != layout.size:
            raise RuleError(f"a structure of {layout.size} places got {len(cards)} cards")
        self.layout = layout
        self.cards: list[Card] = list(cards)
        self.taken = [False] * layout.size
        self.blockers = list(layout.start_blockers)
        self.face_up = list(layout.start_face_up)
        self.accessible: list[int] = list(layout.start_accessible)
        self.left = layout.size

    def clone(self) -> "Structure":
        other = Structure(self.layout, self.cards)  # copies the card list
        other.taken = list(self.taken)
        other.face_up = list(self.face_up)
        other.blockers = list(self.blockers)
        other.accessible = list(self.accessible)
        other.left = self.left
        return other

    def slot_of(self, card: Card) -> int | None:
        """The accessible slot holding ``card`` (cards are compared by identity)."""
        for slot in self.accessible:
            if self.cards[slot] is card:
                return slot
        return None

    def take(self, slot: int) -> list[int]:
        """Remove the card at an accessible slot; return the slots this turns face up.

        The slot leaves ``accessible`` by shifting the later slots down one place, and the
        slots it uncovers are appended: the order of ``accessible`` (which orders the legal
        actions) is that of ``list.remove`` and ``append``.  Compiled, the shift of the few
        slots of a row is cheaper than ``list.index`` and ``list.pop(i)``.
        """
        accessible = self.accessible
        last = len(accessible) - 1
        i = 0
        while i <= last and accessible[i] != slot:
            i += 1
        if i > last:
            raise ValueError(f"slot {slot} is not accessible")
        while i < last:
            accessible[i] = accessible[i + 1]
            i += 1
        accessible.pop()
        self.taken[slot] = True
        self.left -= 1
        revealed: list[int] = []
        lying_on = self.layout.covers[slot]
        if lying_on:
            blockers = self.blockers
            face_up = self.face_up
            for below in lying_on:
                lying = blockers[below] - 1  # (``-=`` on a list item is a generic call compiled)
                blockers[below] = lying
                if not lying:
                    accessible.append(below)
                    if not face_up[below]:
                        face_up[below] = True
                        revealed.append(below)
        return revealed

    @property
    def empty(self) -> bool:
        return not self.left

    def hidden_slots(self) -> list[int]:
        """Slots still in the structure whose card is face down."""
        return [s for s in range(self.layout.size) if not self.taken[s] and not self.face_up[s]]

    def accessible_cards(self) -> list[Card]:
        return [self.cards[s] for s in self.accessible]

    def to_json(self) -> list[list[dict[str, object] | None]]:
        """Rows top to bottom; each place is None (taken) or the card (name None if face down)."""
        rows: list[list[dict[str, object] | None]] = [[] for _ in self.layout.rows]
        for slot in range(self.layout.size):
            row = self.layout.slot_rows[slot] - 1
            if self.taken[slot]:
                rows[row].append(None)
            else:
                rows[row].append({"column": self.layout.slot_columns[slot],
                                  "card": self.cards[slot].name if self.face_up[slot] else None,
                                  "accessible": slot in self.accessible})
        return rows
