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
from wonders.engine.errors import RuleError


@dataclass(frozen=True)
class Layout:
    """The fixed shape of one age's structure, with covering precomputed."""

    rows: tuple[tuple[int, ...], ...]
    face_down_rows: frozenset[int]          # 1-based row numbers
    slot_rows: tuple[int, ...]              # slot -> 1-based row
    slot_columns: tuple[int, ...]
    covered_by: tuple[tuple[int, ...], ...]  # slot -> slots lying on it (next row, col ± 1)
    covers: tuple[tuple[int, ...], ...]      # slot -> slots it lies on (previous row, col ± 1)
    start_face_up: tuple[bool, ...] = ()
    start_accessible: tuple[int, ...] = ()
    # slot -> the bits (1 << slot) of the slots lying on it: it is uncovered once all of
    # them are among a structure's taken bits (``Structure._gone``)
    cover_bits: tuple[int, ...] = ()

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
        for _slot, (r, c) in enumerate(zip(slot_rows, slot_columns)):
            covered_by.append(tuple(where[k] for k in ((r + 1, c - 1), (r + 1, c + 1))
                                    if k in where))
            covers.append(tuple(where[k] for k in ((r - 1, c - 1), (r - 1, c + 1))
                                if k in where))
        return cls(rows, face_down, tuple(slot_rows), tuple(slot_columns), tuple(covered_by),
                   tuple(covers),
                   tuple(slot_rows[s] not in face_down or not covered_by[s]
                         for s in range(len(slot_rows))),
                   tuple(s for s in range(len(slot_rows)) if not covered_by[s]),
                   tuple(sum(1 << above for above in covered_by[s])
                         for s in range(len(slot_rows))))


class Structure:
    """One age's cards in a layout: which are still there, face up, and takeable.

    A card becomes takeable when the last of the (at most two) cards lying on it is
    taken: :meth:`take` looks at those cards, so no count per slot is kept.  The taken
    slots are kept twice: ``taken``, the list every reader uses, and ``_gone``, the same
    as bits (1 << slot) that :meth:`take_at` tests a card's covering cards against at
    once (compiled, native int operations instead of a list read per covering card).
    """

    __slots__ = ("layout", "cards", "taken", "face_up", "accessible", "left", "_gone")

    def __init__(self, layout: Layout, cards: Sequence[Card]) -> None:
        size = len(layout.slot_rows)
        if len(cards) != size:
            raise RuleError(f"a structure of {size} places got {len(cards)} cards")
        self.layout = layout
        self.cards: list[Card] = list(cards)
        self.taken = [False] * size
        self.face_up = list(layout.start_face_up)
        self.accessible: list[int] = list(layout.start_accessible)
        self.left = size
        self._gone = 0  # the taken slots' bits

    def clone(self) -> "Structure":
        other = Structure(self.layout, self.cards)  # copies the card list
        other.taken = list(self.taken)
        other.face_up = list(self.face_up)
        other.accessible = list(self.accessible)
        other.left = self.left
        other._gone = self._gone
        return other

    def slot_of(self, card: Card) -> int | None:
        """The accessible slot holding ``card`` (cards are compared by identity)."""
        for slot in self.accessible:
            if self.cards[slot] is card:
                return slot
        return None

    def take(self, slot: int) -> None:
        """Remove the card at an accessible slot (see :meth:`take_at`)."""
        accessible = self.accessible
        for index in range(len(accessible)):
            if accessible[index] == slot:
                self.take_at(index)
                return
        raise ValueError(f"slot {slot} is not accessible")

    def take_at(self, index: int) -> None:
        """Remove the card at ``accessible[index]``; the cards this uncovers become
        accessible and face up.  (By place in ``accessible``: a turn finds its card's place
        there anyway, so the slot is not looked for a second time.)

        The slot leaves ``accessible`` by shifting the later slots down one place, and the
        slots it uncovers are appended: the order of ``accessible`` (which orders the legal
        actions) is that of ``list.remove`` and ``append``.  Compiled, the shift of the few
        slots of a row is cheaper than ``list.pop(i)``; it moves the items through a
        ``list[Any]`` alias, so they are not unboxed and boxed again.  The first slot
        uncovered takes the place the shift freed at the end, so the list keeps its length
        on most turns (a pop and an append cost more, and now and then resize it).
        """
        accessible = self.accessible
        last = len(accessible) - 1
        slot = accessible[index]
        moved: list[Any] = accessible
        i = index
        while i < last:
            moved[i] = moved[i + 1]
            i += 1
        self.taken[slot] = True
        gone = self._gone | (1 << slot)
        self._gone = gone
        self.left -= 1
        layout = self.layout
        cover_bits = layout.cover_bits
        free = True  # whether the last place is the one the shift freed
        for below in layout.covers[slot]:
            lying = cover_bits[below]
            # nothing lies on it any more (and an effect did not remove it already)
            if gone & lying == lying and not self.taken[below]:
                if free:
                    accessible[last] = below
                    free = False
                else:
                    accessible.append(below)
                self.face_up[below] = True
        if free:
            moved.pop()

    def remove(self, slot: int) -> None:
        """Remove the card at ``slot`` though it may be covered or face down (an effect
        discards it): the cards it uncovers become accessible and face up."""
        if slot in self.accessible:
            self.take(slot)
            return
        if self.taken[slot]:
            raise ValueError(f"slot {slot} is already taken")
        self.taken[slot] = True
        gone = self._gone | (1 << slot)
        self._gone = gone
        self.left -= 1
        cover_bits = self.layout.cover_bits
        for below in self.layout.covers[slot]:
            lying = cover_bits[below]
            if gone & lying == lying and not self.taken[below]:
                self.accessible.append(below)
                self.face_up[below] = True

    @property
    def taken_bits(self) -> int:
        """The taken slots as bits (1 << slot), which only grow: a reader that kept an
        earlier value knows which slots were taken since — and, as a slot turns face up
        or becomes accessible only when a card lying on it is taken, which slots to look
        at again (the agent environment's encoder)."""
        return self._gone

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
