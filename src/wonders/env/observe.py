"""Observation encoders: what a seat may see as a fixed vector of numbers.

A loop names its encoder in the registry (``Loop.encoder``, ``"module:Class"``); the
encoders here read the loop's state directly (hands, cities, the structure) into
counts over the data's cards, wonders and tokens, never from the JSON view; the
environment keeps each seat's last vector (:class:`Memory`) and rewrites only the
blocks that changed.  A loop that names
none gets :class:`ViewEncoder`, which walks :meth:`GameState.view` (slower, any loop).

Every layout is a function of the data and the player count only, and an encoder
lists its blocks (:attr:`Encoder.blocks`: name, offset, length) for ``docs/env.md``.
Seats are relative to the viewer: block ``city+1`` is the next seat's city.
"""

from __future__ import annotations

import random
from itertools import compress
from operator import gt
from typing import TYPE_CHECKING, Any, Final, TypeAlias

import numpy as np
import numpy.typing as npt

from wonders.engine.city import City
from wonders.engine.drafted_city import DraftedCity
from wonders.engine.mechanisms import structure as structure_offer
from wonders.engine.mechanisms import track as track_part
from wonders.engine.mechanisms import wonder_draft
from wonders.engine.randomness import mypyc_attr
from wonders.engine.structure import Structure
from wonders.env.spaces import KNOWN_KINDS

if TYPE_CHECKING:
    from wonders.dsl.model import Game as GameData
    from wonders.engine.contract import Decision, GameState

Vector: TypeAlias = "npt.NDArray[np.float32]"
# the military token kinds the engine gives (wonders.engine.runtime VICTORY/DEFEAT), then
# the vocabulary's token kinds: per kind, a city's count and sum of points
_MILITARY_KINDS: Final = ("victory", "defeat")
_NOTHING: Final[list[Any]] = []  # (an empty source list, shared: never changed)


class Memory:
    """One seat's last vector and, per block, the places it set there: an encoder that
    takes one (:meth:`Encoder.observe`) rewrites only the blocks whose places changed
    since (a Duel move changes a few of some twenty), through a ``memoryview`` (a write
    costs tens of nanoseconds; a NumPy call on a list, microseconds).  The vector is the
    one the places say whatever game the memory saw before: blocks are compared by
    value, never by which game or object they came from."""

    def __init__(self, size: int, blocks: int) -> None:
        self.vector = np.zeros(size, np.float32)
        self.view: Any = self.vector.data  # (a memoryview: writes land in the vector)
        # (places typed Any, here and in the encoders' place tables: compiled, a place
        # stays the boxed int it is, where an int would be unboxed and boxed anew at each
        # read, an allocation for every place above 256)
        self.sets: list[list[Any]] = [[] for _ in range(blocks)]
        self.sources: list[Any] = [None] * blocks  # a block's source, when compared
        self.written: dict[int, Any] = {}  # a block of numbers' start -> its numbers
        self.zero: Any = 0.0  # (boxed once)
        self.one: Any = 1.0
        # what :meth:`listed` and :meth:`number` last wrote: a block's source items (a
        # copy), a place's number (the object: the same one is surely the same number)
        self.lists: list[list[Any] | None] = [None] * blocks
        self.held: list[Any] = [0] * size
        self.boxed: list[Any] = list(range(size))  # (each place boxed once)
        # the structure's blocks (StructureEncoder): the structure they show, its
        # accessible slots then, which slots showed a face-up card, how many, and whether
        # its cards have places of their own (no two copies: the blocks can be patched)
        self.structure: Any = None
        self.accessible: list[Any] = []
        self.shown: list[bool] = []
        self.shown_count = 0
        self.gone = 0  # the structure's taken slots (Structure.taken_bits) then
        self.distinct = False
        self.track: Any = None  # (a copy of the track's token set)
        self.head: Any = None  # the decision and seat of the head block
        self.head_seat = -1

    def ones(self, block: int, places: list[Any]) -> None:
        """1 at each of ``places`` (repeats count once), 0 at the block's other places."""
        old = self.sets[block]
        if old == places:
            return
        view = self.view
        zero, one = self.zero, self.one
        for place in old:
            view[place] = zero
        for place in places:
            view[place] = one
        self.sets[block] = places

    def counts(self, block: int, places: list[Any]) -> None:
        """How often each place occurs in ``places`` (copies of a card in a hand)."""
        old = self.sets[block]
        if old == places:
            return
        view = self.view
        zero = self.zero
        for place in old:
            view[place] = zero
        for place in places:
            view[place] += 1.0
        self.sets[block] = places

    def values(self, start: int, values: tuple[Any, ...] | list[Any]) -> None:
        """``values`` at ``start``, ``start + 1`` … (a block of numbers)."""
        written = self.written
        if written.get(start) == values:
            return
        written[start] = values
        view = self.view
        for offset, value in enumerate(values):
            view[start + offset] = value

    def listed(self, block: int, items: list[Any], places: dict[Any, Any]) -> None:
        """1 at the place of each of ``items`` and 0 at the block's other places, as
        :meth:`ones`; when ``items`` only grew since the last call (a card built, one
        more discarded), only the new items' places are written (identity compared: the
        same objects, so the same places)."""
        known = self.lists[block]
        if known is not None:
            count = len(known)
            total = len(items)
            if total >= count:
                i = 0
                while i < count and items[i] is known[i]:
                    i += 1
                if i == count:
                    if total == count:
                        return
                    view = self.view
                    one = self.one
                    placed = self.sets[block]
                    while i < total:
                        item = items[i]
                        place = places[item]
                        known.append(item)
                        placed.append(place)
                        view[place] = one
                        i += 1
                    return
        self.ones(block, [places[item] for item in items])
        self.lists[block] = list(items)

    def number(self, place: int, value: Any) -> None:
        """``value`` at ``place``, unless the very object was written there last."""
        held = self.held
        if held[place] is not value:
            held[place] = value
            self.view[self.boxed[place]] = value

    def pairs(self, block: int, at: list[Any], values: list[Any]) -> None:
        """``values`` at ``at`` and 0 at the block's other places."""
        view = self.view
        zero = self.zero
        for place in self.sets[block]:
            view[place] = zero
        for place, value in zip(at, values):
            view[place] = value
        self.sets[block] = at


class Mask:
    """An environment's action masks: each a new zeroed buffer (a ``bytearray``)
    with 1 at a seat's legal slots, handed out as an ``int8`` array on it — a buffer of
    its own, so a returned mask never changes later."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.zeros = bytearray(size)  # (a new buffer is a slice of it: a copy in C)
        self.dtype = np.dtype(np.int8)
        self.frombuffer: Any = np.frombuffer  # (looked up once)
        self.one: Any = 1

    def of(self, legal: dict[int, Any]) -> Any:
        """A new 0/1 mask with 1 at the keys of ``legal``."""
        buffer: Any = self.zeros[:]
        keys: Any = legal  # (Any: the keys stay the boxed ints they are)
        one = self.one
        for index in keys:
            buffer[index] = one
        return self.frombuffer(buffer, self.dtype)


@mypyc_attr(allow_interpreted_subclasses=True)  # a loop's own encoder may build on it
class Encoder:
    """A fixed layout of blocks and the vector of one seat's view of a game."""

    memory_blocks: int = 0  # how many Memory blocks observe() uses (0: no fast path)
    city_sources: bool = True  # whether a city's blocks are skipped by their source lists

    def __init__(self, data: GameData, players: int) -> None:
        self.data = data
        self.players = players
        self.blocks: list[tuple[str, int, int]] = []
        self.size = 0
        names: list[tuple[str, int]] = []
        for card in data.cards:
            if (card.name, card.age) not in names:
                names.append((card.name, card.age))
        card_index = {name: i for i, name in enumerate(names)}
        # a card object -> its (name, age) index: copies of one card are one object
        self.cards: dict[object, int] = {card: card_index[(card.name, card.age)]
                                         for card in data.cards}
        self.card_count = len(names)
        self.wonders: dict[object, int] = {w: i for i, w in enumerate(data.wonders)}
        self.tokens: dict[object, int] = {t: i for i, t in enumerate(data.tokens)}
        self.sides = {s: i for i, s in enumerate(sorted({s for w in data.wonders
                                                         for s in w.sides}))}
        vocabulary = data.rules.vocabulary
        kinds = list(_MILITARY_KINDS) + [k for k in vocabulary.tokens
                                         if k not in _MILITARY_KINDS]
        self.token_kinds = {kind: i for i, kind in enumerate(kinds)}
        self.kinds = {kind: i for i, kind in enumerate(KNOWN_KINDS)}
        self.seat_at = self.block("seat", players)
        self.kind_at = self.block("decision", len(KNOWN_KINDS))
        self.decides_at = self.block("decides", 1)

    def block(self, name: str, length: int) -> int:
        """Append a block; its offset."""
        start = self.size
        self.blocks.append((name, start, length))
        self.size += length
        return start

    @staticmethod
    def places(start: int, index: dict[object, int]) -> dict[object, Any]:
        """Each object's place in a block starting at ``start`` (read with ``map``: the
        lookups of a list of cards then run in C)."""
        return {item: start + i for item, i in index.items()}

    def head(self, seat: int, decision: Decision | None, ones: list[int]) -> None:
        """The seat, the pending decision's kind and whether the seat decides it."""
        ones.append(self.seat_at + seat)
        if decision is not None:
            kind = self.kinds.get(decision.kind)
            if kind is not None:
                ones.append(self.kind_at + kind)
            if seat in decision.seats:
                ones.append(self.decides_at)

    def vector(self, ones: list[int], at: list[int], values: list[float],
               counts: list[int] | None = None) -> Vector:
        """1 at each of ``ones`` (each place once), ``values`` at ``at``, and the counts of
        the places in ``counts`` (which may repeat: copies of a card in a hand).  Two or
        three ``put`` calls: a few microseconds for a few hundred numbers."""
        vector = np.zeros(self.size, np.float32)
        vector.put(ones, 1.0)
        if at:
            vector.put(at, values)
        if counts:
            vector += np.bincount(counts, minlength=self.size).astype(np.float32)
        return vector

    def encode(self, game: GameState, seat: int, decision: Decision | None = None) -> Vector:
        """The vector of what ``seat`` sees now; ``decision`` is ``game.decision()`` when
        the caller has it (None: asked here, unless the game is over)."""
        raise NotImplementedError

    def memory(self) -> Memory | None:
        """A fresh memory for :meth:`observe` (None: this encoder has no fast path, or a
        subclass changed :meth:`encode` and not :meth:`write`: its own encode() counts)."""
        if not self.memory_blocks:
            return None
        mro = type(self).__mro__
        encode = next(klass for klass in mro if "encode" in vars(klass))
        write = next(klass for klass in mro if "write" in vars(klass))
        return Memory(self.size, self.memory_blocks) if encode is write else None

    def observe(self, game: GameState, seat: int, decision: Decision | None,
                memory: Memory | None) -> Vector:
        """What :meth:`encode` gives, made by updating ``memory`` (the seat's last vector)
        where a block changed; a copy, so a returned vector never changes later."""
        if memory is None:
            return self.encode(game, seat, decision)
        if decision is None and not game.over:
            decision = game.decision()
        self.write(game, seat, decision, memory)
        return memory.vector.copy()

    def write(self, game: GameState, seat: int, decision: Decision | None,
              memory: Memory) -> None:
        """Bring ``memory`` to what ``seat`` sees now (the encoders with a fast path)."""
        raise NotImplementedError

    def head_places(self, seat: int, decision: Decision | None) -> list[int]:
        """The places of :meth:`head`."""
        ones = [self.seat_at + seat]
        if decision is not None:
            kind = self.kinds.get(decision.kind)
            if kind is not None:
                ones.append(self.kind_at + kind)
            if seat in decision.seats:
                ones.append(self.decides_at)
        return ones


class _CityBlocks:
    """A city's public blocks: its built (and copied) cards, its taken tokens, and its
    coins, shields, wonder stages and military tokens by kind (count, points)."""

    def __init__(self, encoder: Encoder, relative: int) -> None:
        prefix = f"city+{relative}"
        self.cards = encoder.places(encoder.block(f"{prefix}/built", encoder.card_count),
                                    encoder.cards)
        self.owned = encoder.places(encoder.block(f"{prefix}/tokens", len(encoder.tokens)),
                                    encoder.tokens)
        self.numbers = encoder.block(f"{prefix}/coins,shields,stages",  3)
        self.number_places = (self.numbers, self.numbers + 1, self.numbers + 2)
        self.kinds = encoder.block(f"{prefix}/military tokens (count, points) by kind",
                                   2 * len(encoder.token_kinds))

    def add(self, encoder: Encoder, city: Any, ones: list[int], at: list[int],
            values: list[float]) -> None:
        ones.extend(map(self.cards.__getitem__, city.built))
        if city.copied:
            ones.extend(map(self.cards.__getitem__, city.copied))
        if city.owned_tokens:
            ones.extend(map(self.owned.__getitem__, city.owned_tokens))
        at.extend(self.number_places)
        values.extend((city.coins, city.shields(), city.stages))
        if city.tokens:
            self.tally(encoder, city.tokens, at, values)

    def tally(self, encoder: Encoder, tokens: Any, at: list[int], values: list[float]
              ) -> None:
        """The military tokens' places and values: per kind, a count and a sum of points."""
        kinds = encoder.token_kinds
        tally: dict[int, list[float]] = {}  # kind -> [count, points]
        for kind, points in tokens:
            index = kinds.get(kind)
            if index is not None:
                found = tally.get(index)
                if found is None:
                    tally[index] = [1.0, float(points)]
                else:
                    found[0] += 1.0
                    found[1] += points
        for index, (count, total) in tally.items():
            at.extend((self.kinds + 2 * index, self.kinds + 2 * index + 1))
            values.extend((count, total))

    # the Memory blocks write() uses, from its first
    BLOCKS: Final = 3

    def write(self, encoder: Encoder, city: City, memory: Memory, first: int) -> None:
        """The city's blocks into ``memory`` (:meth:`add`'s numbers, block by block; the
        city typed: compiled, its fields are read natively)."""
        # (the city's lists when its blocks were made; not kept where every city changes
        # between two observations by a seat, as in a drafting turn)
        known = memory.sources[first]
        if (not encoder.city_sources or known is None or known[0] != city.built
                or known[1] != city.copied or known[2] != city.owned_tokens):
            cards = self.cards
            places = [cards[card] for card in city.built]
            if city.copied:  # (one block: a copied card lies in the built cards' places)
                places.extend([cards[card] for card in city.copied])
            memory.ones(first, places)
            owned = self.owned
            memory.ones(first + 1, [owned[token] for token in city.owned_tokens])
            if encoder.city_sources:
                memory.sources[first] = (list(city.built), list(city.copied),
                                         list(city.owned_tokens))
        memory.values(self.numbers, (city.coins, city.shields(), city.stages))
        self._tokens(encoder, city, memory, first)

    def _tokens(self, encoder: Encoder, city: City, memory: Memory, first: int) -> None:
        """The city's tokens block, written again when its tokens changed."""
        tokens = city.tokens
        if memory.sources[first + 2] != tokens:
            memory.sources[first + 2] = list(tokens)
            at: list[int] = []
            values: list[float] = []
            self.tally(encoder, tokens, at, values)
            memory.pairs(first + 2, at, values)

    def patch(self, encoder: Encoder, city: City, memory: Memory, first: int) -> None:
        """:meth:`write` for an encoder whose cities change a little between two
        observations by a seat (Duel: a card built, coins): the built cards and tokens
        through :meth:`Memory.listed` (only the new ones written), the numbers each
        through :meth:`Memory.number` (written when changed)."""
        if city.copied:  # (one block: a copied card lies in the built cards' places)
            memory.listed(first, city.built + city.copied, self.cards)
        else:
            memory.listed(first, city.built, self.cards)
        memory.listed(first + 1, city.owned_tokens, self.owned)
        numbers = self.numbers
        memory.number(numbers, city.coins)
        memory.number(numbers + 1, city.shields())
        memory.number(numbers + 2, city.stages)
        self._tokens(encoder, city, memory, first)


def _pool_blocks(encoder: Encoder, data: GameData) -> dict[str, dict[object, Any]]:
    """A block per token pool the players see (its tokens by name)."""
    from wonders.engine.pools import hidden

    hidden_pools = hidden(data)
    return {pool: encoder.places(encoder.block(f"pool {pool}", len(encoder.tokens)),
                                 encoder.tokens)
            for pool in data.rules.vocabulary.pools if pool not in hidden_pools}


@mypyc_attr(allow_interpreted_subclasses=True)  # a loop's own encoder may build on it
class DraftEncoder(Encoder):
    """The drafting loop (7 Wonders, Leaders, Cities): age and turn, the seat's hand
    and reserve, the discard pile (its size; its cards while the seat builds from it),
    every seat's hand size, the visible token pools, then each city: board and side,
    built cards, tokens, coins, shields, stages, military tokens."""

    def __init__(self, data: GameData, players: int) -> None:
        super().__init__(data, players)
        self.numbers = self.block("age,turn,discard size", 3)
        self.hand = self.places(self.block("hand", self.card_count), self.cards)
        self.reserve = self.places(self.block("reserve", self.card_count), self.cards)
        self.discard = self.places(self.block("discard (when building from it)",
                                              self.card_count), self.cards)
        self.hand_sizes = self.block("hand sizes", players)
        self.pools = _pool_blocks(self, data)
        self.boards = [self.places(self.block(f"city+{r}/board", len(self.wonders)),
                                   self.wonders) for r in range(players)]
        self.board_sides = [self.block(f"city+{r}/side", len(self.sides))
                            for r in range(players)]
        self.cities = [_CityBlocks(self, r) for r in range(players)]
        # Memory blocks: head, hand, reserve, discard, each pool, then per seat its board
        # and side, and its city's
        self.city_first = 4 + len(self.pools)
        self.memory_blocks = self.city_first + players * (1 + _CityBlocks.BLOCKS)
        self.city_sources = False  # (every seat plays a card between a seat's observations)

    def write(self, game: GameState, seat: int, decision: Decision | None,
              memory: Memory) -> None:
        state: Any = game
        memory.ones(0, self.head_places(seat, decision))
        memory.values(self.numbers, (state.age, state.turn, len(state.discard)))
        hand, reserve = self.hand, self.reserve
        memory.counts(1, [hand[card] for card in state.hands[seat]])
        memory.counts(2, [reserve[card] for card in state.card_reserve.kept[seat]])
        discard: list[Any] = []
        if decision is not None:
            if decision.kind == "discard_build" and seat in decision.seats:
                places = self.discard
                discard = [places[card] for card in state.discard]
        memory.counts(3, discard)
        players = self.players
        hands = state.hands
        memory.values(self.hand_sizes, [len(hands[(seat + relative) % players])
                                        for relative in range(players)])
        block = 4
        for pool, places in self.pools.items():
            memory.counts(block, [places[token] for token in state.pools.get(pool) or ()])
            block += 1
        cities = state.cities
        block = self.city_first
        for relative in range(players):
            city = cities[(seat + relative) % players]
            board = [self.boards[relative][city.wonder]]
            side = self.sides.get(city.side.side)
            if side is not None:
                board.append(self.board_sides[relative] + side)
            memory.ones(block, board)
            self.cities[relative].write(self, city, memory, block + 1)
            block += 1 + _CityBlocks.BLOCKS

    def encode(self, game: GameState, seat: int, decision: Decision | None = None) -> Vector:
        state: Any = game
        if decision is None and not game.over:
            decision = game.decision()
        ones: list[int] = []
        at: list[int] = []
        values: list[float] = []
        self.head(seat, decision, ones)
        numbers = self.numbers
        at.extend((numbers, numbers + 1, numbers + 2))
        values.extend((state.age, state.turn, len(state.discard)))
        # (a hand, the reserve and the discard pile may hold copies of one card: counted)
        counts = list(map(self.hand.__getitem__, state.hands[seat]))
        reserve = state.card_reserve.kept[seat]
        if reserve:
            counts.extend(map(self.reserve.__getitem__, reserve))
        if decision is not None:
            if decision.kind == "discard_build" and seat in decision.seats:
                counts.extend(map(self.discard.__getitem__, state.discard))
        players = self.players
        hands = state.hands
        for relative in range(players):
            at.append(self.hand_sizes + relative)
            values.append(len(hands[(seat + relative) % players]))
        for pool, places in self.pools.items():
            tokens = state.pools.get(pool)
            if tokens:
                counts.extend(map(places.__getitem__, tokens))
        cities = state.cities
        for relative in range(players):
            city = cities[(seat + relative) % players]
            ones.append(self.boards[relative][city.wonder])
            side = self.sides.get(city.side.side)
            if side is not None:
                ones.append(self.board_sides[relative] + side)
            self.cities[relative].add(self, city, ones, at, values)
        return self.vector(ones, at, values, counts)


def _parts(game: Any) -> tuple[structure_offer.StructureOffer, track_part.Track,
                               wonder_draft.WonderPools]:
    """The parts of a card-structure game an observation reads: the offer, the track and
    the wonder draft (the flow interpreter's)."""
    return structure_offer.state(game), track_part.state(game), wonder_draft.state(game)


@mypyc_attr(allow_interpreted_subclasses=True)  # a loop's own encoder may build on it
class StructureEncoder(Encoder):
    """The card-structure loop (Duel): age and turn, the conflict pawn (towards the
    viewer's rival: positive is good), the military tokens still on the track, the
    structure's accessible cards, its face-up cards and how many lie face down, the
    discard pile, the visible token pools, the wonder-draft offer, then each city:
    built cards, tokens, coins, shields, wonders drafted and built."""

    def __init__(self, data: GameData, players: int) -> None:
        super().__init__(data, players)
        from wonders.engine.registry import new_game

        # the track's tokens: those set-up lays (a function of the data)
        fresh: Any = new_game(data, players, 0)
        track = sorted(_parts(fresh)[1].tokens)
        self.numbers = self.block("age,turn,conflict,face-down cards,cards left", 5)
        at = self.block("military tokens on the track", len(track))
        self.track = {token: at + i for i, token in enumerate(track)}
        self.accessible = self.places(self.block("structure: accessible cards",
                                                 self.card_count), self.cards)
        self.face_up = self.places(self.block("structure: face-up cards (accessible or not)",
                                              self.card_count), self.cards)
        self.discarded = self.places(self.block("discard pile", self.card_count), self.cards)
        self.pools = _pool_blocks(self, data)
        self.offer = self.places(self.block("wonders offered in the draft",
                                            len(self.wonders)), self.wonders)
        self.cities = [_CityBlocks(self, r) for r in range(players)]
        self.drafted = [self.places(self.block(f"city+{r}/wonders drafted",
                                               len(self.wonders)), self.wonders)
                        for r in range(players)]
        self.built = [self.places(self.block(f"city+{r}/wonders built", len(self.wonders)),
                                  self.wonders) for r in range(players)]
        # Memory blocks: head, the structure's accessible and face-up cards, the track,
        # the discard pile, the offer, each pool, then per seat its city's and its wonders
        self.city_first = 6 + len(self.pools)
        self.memory_blocks = self.city_first + players * (2 + _CityBlocks.BLOCKS)

    def write(self, game: GameState, seat: int, decision: Decision | None,
              memory: Memory) -> None:
        """Between two observations by a seat a Duel game changes a little (a card taken,
        built or sold, coins), so each block is checked against what its memory wrote and
        patched: lists by identity (:meth:`Memory.listed`), numbers by object
        (:meth:`Memory.number`), the structure slot by slot (:meth:`structure`)."""
        state: Any = game
        if memory.head is not decision or memory.head_seat != seat:
            # (a loop hands out one Decision per kind and seats: the same object, the
            # same head)
            memory.ones(0, self.head_places(seat, decision))
            memory.head = decision
            memory.head_seat = seat
        laid, pawn, _ = _parts(game)
        structure: Structure | None = laid.structure  # (typed: its fields read natively)
        left = 0
        if structure is not None:
            self.structure(structure, memory)
            left = structure.left
        elif memory.structure is not None:
            self.clear_structure(memory)
        numbers = self.numbers
        memory.number(numbers, state.age)
        memory.number(numbers + 1, state.turn)
        memory.number(numbers + 2, -pawn.position if seat else pawn.position)
        memory.number(numbers + 3, left - memory.shown_count)
        memory.number(numbers + 4, left)
        track_tokens = pawn.tokens
        if memory.track != track_tokens:
            track = self.track
            memory.ones(3, [track[token] for token in track_tokens])
            memory.track = set(track_tokens)
        memory.listed(4, state.discard, self.discarded)
        drafting: list[Any] = _NOTHING
        if decision is not None and decision.kind == "wonder_draft":
            draft = _parts(game)[2]
            pools = draft.pools
            if pools:
                drafting = pools[draft.picks // draft.rules.size]
        memory.listed(5, drafting, self.offer)
        block = 6
        state_pools = state.table.pools
        for pool_name, places in self.pools.items():
            memory.listed(block, state_pools.get(pool_name) or _NOTHING, places)
            block += 1
        cities = state.cities
        players = self.players
        block = self.city_first
        for relative in range(players):
            city: DraftedCity = cities[(seat + relative) % players]
            self.cities[relative].patch(self, city, memory, block)
            memory.listed(block + _CityBlocks.BLOCKS, city.wonders, self.drafted[relative])
            memory.listed(block + _CityBlocks.BLOCKS + 1, city.built_wonders,
                          self.built[relative])
            block += 2 + _CityBlocks.BLOCKS

    def structure(self, structure: Structure, memory: Memory) -> None:
        """The structure's blocks (its accessible cards; its face-up cards not taken):
        rewritten for another structure (or one holding two copies of a card), else
        patched where a slot changed."""
        if structure is not memory.structure or not memory.distinct:
            self.clear_structure(memory)
            self.lay_structure(structure, memory)
            return
        # (the locals typed: compiled, a list's items are then read natively)
        cards: list[Any] = structure.cards
        accessible = self.accessible
        now: list[Any] = structure.accessible
        was: list[Any] = memory.accessible
        if now != was:
            view = memory.view
            for left_slot in was:
                if left_slot not in now:
                    view[accessible[cards[left_slot]]] = memory.zero
            for came in now:
                if came not in was:
                    view[accessible[cards[came]]] = memory.one
            memory.accessible = list(now)
        gone: int = structure.taken_bits
        new = gone & ~memory.gone
        if not new:
            return
        memory.gone = gone
        # a slot's face changes only when it, or a card lying on it, is taken: the newly
        # taken slots and those they covered are the ones to look at
        covers = structure.layout.covers
        while new:
            low = new & -new
            new ^= low
            slot = low.bit_length() - 1
            self.face(structure, memory, slot)
            for below in covers[slot]:
                self.face(structure, memory, below)

    def face(self, structure: Structure, memory: Memory, slot: int) -> None:
        """A slot's place in the face-up block (its card face up and not taken)."""
        showing: bool = structure.face_up[slot] and not structure.taken[slot]
        shown: list[bool] = memory.shown
        if showing != shown[slot]:
            shown[slot] = showing
            cards: list[Any] = structure.cards
            memory.view[self.face_up[cards[slot]]] = memory.one if showing else memory.zero
            memory.shown_count += 1 if showing else -1

    def clear_structure(self, memory: Memory) -> None:
        """Zero the structure blocks of the structure ``memory`` shows (if any)."""
        known: Structure | None = memory.structure
        if known is not None:
            view = memory.view
            zero = memory.zero
            cards = known.cards
            accessible = self.accessible
            for slot in memory.accessible:
                view[accessible[cards[slot]]] = zero
            face_up = self.face_up
            shown = memory.shown
            for slot in range(len(shown)):
                if shown[slot]:
                    view[face_up[cards[slot]]] = zero
        memory.structure = None
        memory.accessible = []
        memory.shown = []
        memory.shown_count = 0
        memory.gone = 0

    def lay_structure(self, structure: Structure, memory: Memory) -> None:
        """Write a structure's blocks afresh (after :meth:`clear_structure`)."""
        view = memory.view
        one = memory.one
        cards = structure.cards
        accessible = self.accessible
        now = structure.accessible
        for slot in now:
            view[accessible[cards[slot]]] = one
        face_up = structure.face_up
        taken = structure.taken
        places = self.face_up
        shown: list[bool] = []
        count = 0
        for slot in range(len(cards)):
            showing = face_up[slot] and not taken[slot]
            shown.append(showing)
            if showing:
                view[places[cards[slot]]] = one
                count += 1
        memory.structure = structure
        memory.accessible = list(now)
        memory.shown = shown
        memory.shown_count = count
        memory.gone = structure.taken_bits
        # (two copies of a card share a place: a slot's patch could clear the other's)
        memory.distinct = len({accessible[card] for card in cards}) == len(cards)

    def encode(self, game: GameState, seat: int, decision: Decision | None = None) -> Vector:
        state: Any = game
        if decision is None and not game.over:
            decision = game.decision()
        ones: list[int] = [self.seat_at + seat]
        at: list[int] = []
        values: list[float] = []
        if decision is not None:  # (head(), inlined: this runs at every Duel step)
            kind = self.kinds.get(decision.kind)
            if kind is not None:
                ones.append(self.kind_at + kind)
            if seat in decision.seats:
                ones.append(self.decides_at)
        laid, pawn, _ = _parts(game)
        structure = laid.structure
        hidden = left = 0
        if structure is not None:
            slot_cards = structure.cards
            ones.extend(map(self.accessible.__getitem__,
                            map(slot_cards.__getitem__, structure.accessible)))
            # face up and not taken: True > False
            shown = list(map(self.face_up.__getitem__, compress(
                slot_cards, map(gt, structure.face_up, structure.taken))))
            ones.extend(shown)
            left = structure.left
            hidden = left - len(shown)
        numbers = self.numbers
        at.extend(range(numbers, numbers + 5))
        values.extend((state.age, state.turn, -pawn.position if seat else pawn.position,
                       hidden, left))
        ones.extend(map(self.track.__getitem__, pawn.tokens))
        if state.discard:
            ones.extend(map(self.discarded.__getitem__, state.discard))
        for pool, places in self.pools.items():
            tokens = state.table.pools.get(pool)
            if tokens:
                ones.extend(map(places.__getitem__, tokens))
        if decision is not None and decision.kind == "wonder_draft":
            draft = _parts(game)[2]
            pools = draft.pools
            offered = pools[draft.picks // draft.rules.size] if pools else []
            ones.extend(map(self.offer.__getitem__, offered))
        cities = state.cities
        players = self.players
        for relative in range(players):
            city = cities[(seat + relative) % players]
            self.cities[relative].add(self, city, ones, at, values)
            if city.wonders:
                ones.extend(map(self.drafted[relative].__getitem__, city.wonders))
            if city.built_wonders:
                ones.extend(map(self.built[relative].__getitem__, city.built_wonders))
        return self.vector(ones, at, values)


@mypyc_attr(allow_interpreted_subclasses=True)  # a loop's own encoder may build on it
class ViewEncoder(Encoder):
    """Any loop: a seat's :meth:`~GameState.view` (JSON) walked into a fixed vector.

    Each leaf has a *place*: the path of dictionary keys leading to it, where an entry
    of a list of per-seat dictionaries (ones with a ``seat`` number) is named by its seat
    relative to the viewer (``cities/+1/built``); other list positions count for numbers
    (``hand_sizes/2``) and are dropped for names.  A name the data knows (card, wonder,
    token, wonder side) adds 1 at (place, name); another string is a category of its
    place; a number (or a flag) is the value of its place.  Which places exist is learnt
    once from every seat's views in a few seeded random games (the *calibration*, a
    function of the data and the player count); a place those games never show is left
    out.  About ten times slower than the loops' own encoders."""

    def __init__(self, data: GameData, players: int, calibration_games: int = 5) -> None:
        super().__init__(data, players)
        from wonders.engine.registry import new_game

        names: list[str] = []
        for name in ([card.name for card in data.cards] + [w.name for w in data.wonders]
                     + [t.name for t in data.tokens] + sorted(self.sides)):
            if name not in names:
                names.append(name)
        self.names = {name: i for i, name in enumerate(names)}
        name_places: set[str] = set()
        categories: set[tuple[str, str]] = set()
        numbers: set[str] = set()
        for seed in range(calibration_games):
            game = new_game(data, players, seed)
            rng = random.Random(seed)
            while True:
                for seat in range(players):
                    for place, value in self.leaves(game.view(seat), seat):
                        if isinstance(value, str):
                            if value in self.names:
                                name_places.add(place)
                            else:
                                categories.add((place, value))
                        else:
                            numbers.add(place)
                if game.over:
                    break
                game.play({s: rng.choice(game.legal_actions(s)) for s in game.to_move()})
        self.name_places = {place: self.block(f"view {place}", len(names))
                            for place in sorted(name_places)}
        self.categories = {key: self.block(f"view {key[0]} = {key[1]}", 1)
                           for key in sorted(categories)}
        self.numbers = {place: self.block(f"view {place}", 1) for place in sorted(numbers)}

    def leaves(self, view: Any, seat: int) -> list[tuple[str, Any]]:
        """Every (place, leaf) of a view, places named as the class says."""
        found: list[tuple[str, Any]] = []
        players = self.players

        def walk(value: Any, place: str, numbered: str) -> None:
            if isinstance(value, dict):
                for key, item in value.items():
                    walk(item, f"{place}/{key}", f"{numbered}/{key}")
            elif isinstance(value, list):
                per_seat = bool(value) and all(isinstance(item, dict) and isinstance(
                    item.get("seat"), int) for item in value)
                for i, item in enumerate(value):
                    if per_seat:
                        relative = f"+{(item['seat'] - seat) % players}"
                        walk(item, f"{place}/{relative}", f"{numbered}/{relative}")
                    else:
                        walk(item, place, f"{numbered}/{i}")
            elif isinstance(value, str):
                found.append((place, value))
            elif isinstance(value, (bool, int, float)):
                found.append((numbered, float(value)))

        walk(view, "", "")
        return found

    def encode(self, game: GameState, seat: int, decision: Decision | None = None) -> Vector:
        if decision is None and not game.over:
            decision = game.decision()
        ones: list[int] = []
        at: list[int] = []
        values: list[float] = []
        self.head(seat, decision, ones)
        for place, value in self.leaves(game.view(seat), seat):
            if isinstance(value, str):
                name = self.names.get(value)
                start = self.name_places.get(place) if name is not None else None
                if start is not None and name is not None:
                    ones.append(start + name)
                else:
                    index = self.categories.get((place, value))
                    if index is not None:
                        ones.append(index)
            else:
                index = self.numbers.get(place)
                if index is not None:
                    at.append(index)
                    values.append(value)
        return self.vector([], at, values, ones)


def encoder_for(data: GameData, players: int) -> Encoder:
    """The encoder the rule set's loop names in the registry (``Loop.encoder``), else the
    view walker."""
    from wonders.engine.registry import loop_for

    encoder = loop_for(data).encoder
    if encoder is None:
        return ViewEncoder(data, players)
    made = encoder()(data, players)
    assert isinstance(made, Encoder)
    return made


class Spaces:
    """The action catalogue and the observation encoder of one (data, players): built
    once, kept in the data's cache, shared by every environment on it."""

    def __init__(self, data: GameData, players: int) -> None:
        from wonders.env.spaces import ActionCatalogue

        self.actions = ActionCatalogue(data, players)
        self.observations = encoder_for(data, players)


_DERIVED_KEY: Final = "env_spaces"


def spaces_for(data: GameData, players: int) -> Spaces:
    """The game's action catalogue and observation encoder, kept in the data's cache."""
    cache = data.derived.setdefault(_DERIVED_KEY, {})
    assert isinstance(cache, dict)
    found = cache.get(players)
    if found is None:
        found = cache[players] = Spaces(data, players)
    assert isinstance(found, Spaces)
    return found
