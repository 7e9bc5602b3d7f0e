"""The compiled components of a decks game: card kinds, decks, Wonders in pieces, progress.

A decks game (``offer: decks``, 7 Wonders Architects) reads ``kind: components`` files
beside its rule set: the **card kinds** (what a card shows: a resource, coins, points, a
cat, a science symbol, shields and war horns), the **decks** (one per Wonder, face up,
and a central one, face down), the **Wonders**, each built in pieces paid with the cards
a player has taken, and the **progress tokens**.  Everything here is immutable and free
of YAML; the engine indexes kinds, decks, Wonders and tokens by position.
"""

from __future__ import annotations

from dataclasses import dataclass

from wonders.dsl.model import Card

CENTRAL = "central"    # the name of the central deck
ANY_DECK = "any"       # a take from any deck on the table


@dataclass(frozen=True)
class CardKind:
    """What a card of this kind shows; ``card`` is the one :class:`Card` object all its
    copies are (the contract's statistics and conservation checks count cards)."""

    name: str
    colour: str
    card: Card
    resource: str | None = None
    coins: int = 0
    points: int = 0
    cat: bool = False
    science: str | None = None
    shields: int = 0
    horns: int = 0


@dataclass(frozen=True)
class Deck:
    """A deck: its name (``central`` or a Wonder's), whether its top card is face up, and
    its cards as kind indices, in the listed order (set-up shuffles them)."""

    name: str
    face_up: bool
    cards: tuple[int, ...]


@dataclass(frozen=True)
class Take:
    """Cards taken at once: the top card of one of ``decks`` (chosen) or of each
    (``each``); with ``look`` > 1, the owner looks at that many and keeps one."""

    decks: tuple[str, ...]
    each: bool = False
    look: int = 1


@dataclass(frozen=True)
class Piece:
    """A Wonder piece: ``count`` resource cards, all different (``rule`` ``different``),
    all one resource (``same``) or any (``any``); its points, the pieces it rests on
    (indices), and what building it does at once."""

    count: int
    rule: str
    points: int
    rests_on: tuple[int, ...] = ()
    take: Take | None = None
    progress: int = 0
    shields: int = 0


@dataclass(frozen=True)
class PieceWonder:
    """A Wonder built in pieces, and the index of its deck."""

    name: str
    deck: int
    pieces: tuple[Piece, ...]


@dataclass(frozen=True)
class ExtraCard:
    """When a progress token's owner may take one more card: on taking a card of one of
    ``resources`` or ``colours``, or a red card with at least ``horns`` horns, or on
    building a piece (``piece``)."""

    resources: tuple[str, ...] = ()
    colours: tuple[str, ...] = ()
    horns: int = 0
    piece: bool = False

    def matches(self, kind: CardKind) -> bool:
        """Whether taking a card of ``kind`` sets it off."""
        return ((kind.resource is not None and kind.resource in self.resources)
                or kind.colour in self.colours
                or (self.horns > 0 and kind.horns >= self.horns))


@dataclass(frozen=True)
class EndPoints:
    """A progress token's points at the end: ``points`` (each, with ``per``), or
    ``complete`` instead once the owner's Wonder is complete; ``held``: by the number of
    tokens of this name its owner holds (1, 2 …)."""

    points: int = 1
    complete: int | None = None
    per: str | None = None
    held: tuple[int, ...] = ()


@dataclass(frozen=True)
class Progress:
    """A progress token: its name and what it does (any of the five)."""

    name: str
    copies: int = 1
    extra_card: ExtraCard | None = None
    coin_value: int = 1
    any_resources: bool = False
    shields: int = 0
    end: EndPoints | None = None


@dataclass(frozen=True)
class Components:
    """Everything a decks game lays out: kinds, decks (``central`` is one of them), the
    Wonders and the progress tokens (one entry per token kind)."""

    kinds: tuple[CardKind, ...]
    decks: tuple[Deck, ...]
    central: int
    wonders: tuple[PieceWonder, ...]
    progress: tuple[Progress, ...]

    def kind(self, name: str) -> int:
        """The index of the card kind ``name`` (ValueError when there is none)."""
        for i, kind in enumerate(self.kinds):
            if kind.name == name:
                return i
        raise ValueError(name)




# --- in words: what ``wonders cards`` and the terminal say a component does -------------

def describe_kind(kind: CardKind) -> str:
    """What a card of ``kind`` shows, in words ('1 shield, 2 horns')."""
    parts = []
    if kind.resource is not None:
        parts.append(kind.resource)
    if kind.coins:
        parts.append(f"{kind.coins} coin{'s' if kind.coins > 1 else ''} (any one missing "
                     "resource each)")
    if kind.points:
        parts.append(f"{kind.points} points")
    if kind.cat:
        parts.append("a cat (take the cat pawn)")
    if kind.science is not None:
        parts.append(f"science: {kind.science}")
    if kind.shields:
        parts.append(f"{kind.shields} shield{'s' if kind.shields > 1 else ''}")
    if kind.horns:
        parts.append(f"{kind.horns} horn{'s' if kind.horns > 1 else ''}")
    return ", ".join(parts) or "nothing"


def describe_take(take: Take) -> str:
    decks = ("any deck" if ANY_DECK in take.decks
             else "the " + " or ".join(take.decks) + (" deck" if len(take.decks) == 1
                                                      else " decks"))
    if take.each:
        return "take the top card of " + " and of ".join(
            "any deck" if d == ANY_DECK else f"the {d} deck" for d in take.decks)
    if take.look > 1:
        return f"look at the top {take.look} cards of {decks.replace(' decks', ' deck')}, keep one"
    return f"take the top card of {decks}"


def describe_piece(piece: Piece) -> str:
    """A piece's cost, points, what it rests on and its effect, in words."""
    rule = {"different": "different resources", "same": "of one resource",
            "any": "resources"}[piece.rule]
    parts = [f"{piece.count} {rule}", f"{piece.points} points"]
    if piece.rests_on:
        parts.append("on " + ", ".join(str(i + 1) for i in piece.rests_on))
    if piece.shields:
        parts.append(f"{piece.shields} shield{'s' if piece.shields > 1 else ''}")
    if piece.progress:
        parts.append(f"take {piece.progress} progress token{'s' if piece.progress > 1 else ''}")
    if piece.take is not None:
        parts.append(describe_take(piece.take))
    return "; ".join(parts)


def describe_progress(token: Progress) -> str:
    """What a progress token does, in words."""
    parts = []
    extra = token.extra_card
    if extra is not None:
        when = [f"a {r} card" for r in extra.resources] + [f"a {c} card" for c in extra.colours]
        if extra.horns:
            when.append(f"a card with at least {extra.horns} horn"
                        f"{'s' if extra.horns > 1 else ''}")
        if extra.piece:
            when.append("building a Wonder piece")
        parts.append("one more card (optional, once a turn) on taking "
                     + " or ".join(when) if not extra.piece or len(when) > 1
                     else "one more card (optional, once a turn) on building a Wonder piece")
    if token.coin_value > 1:
        parts.append(f"one coin card counts as {token.coin_value} coins in a payment")
    if token.any_resources:
        parts.append("costs need any resources, not 'same' or 'different'")
    if token.shields:
        parts.append(f"{token.shields} shields")
    end = token.end
    if end is not None:
        if end.held:
            parts.append("at the end: " + ", ".join(
                f"{p} points for {i + 1}" for i, p in enumerate(end.held)))
        elif end.per is not None:
            parts.append(f"at the end: {end.points} point{'s' if end.points != 1 else ''} per "
                         + end.per.replace("_", " "))
        else:
            parts.append(f"at the end: {end.points} points"
                         + (f", {end.complete} if the Wonder is complete"
                            if end.complete is not None else ""))
    return "; ".join(parts) or "nothing"


__all__ = ["ANY_DECK", "CENTRAL", "CardKind", "Components", "Deck", "EndPoints", "ExtraCard",
           "Piece", "PieceWonder", "Progress", "Take", "describe_kind", "describe_piece",
           "describe_progress", "describe_take"]
