"""The fixed action space and observation layout of a game, derived from its loaded data.

Both are functions of the rule set, its card sets and the player count alone, so an
agent trained on one game keeps the same indexes from game to game.  Nothing here
knows which game it serves: the action slots come from the data's cards, wonders,
tokens and wonder sides and from the engine's action types (shared by every loop);
the observation is read from :meth:`GameState.view`, which holds only what a seat
may see.  See ``docs/env.md``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Sequence, cast

import numpy as np
import numpy.typing as npt

from wonders.engine.actions import (FREE_BUILD, Action, Build, BuildFromDiscard, BuildStage,
                                    BuildWonder, ChooseSide, ChooseStarter, ChooseWonder,
                                    CopyCard, DestroyCard, Sell, Skip, TakeToken)
from wonders.engine.registry import new_game

if TYPE_CHECKING:
    from wonders.dsl.model import Game as GameData
    from wonders.engine.contract import GameState

Slot = tuple[Any, ...]  # one action slot: its kind and what it names

# The decision kinds the contract documents (docs/engine.md); a kind a future loop adds
# and the calibration games meet is appended after them.
KNOWN_KINDS: Final = ("side", "turn", "last_card", "discard_build", "destroy", "token",
                      "wonder_draft", "starter")


class EnvError(ValueError):
    """A bad argument to the environment (an unknown agent, an action index out of range,
    a missing action); the message says what was expected."""


class UnmappedActionError(RuntimeError):
    """The game offered an action the action space has no slot for (a new action type:
    the environment's catalogue must learn it)."""


def slot_of(action: Action) -> Slot:
    """The slot an engine action fills: its kind and names, without the payment.

    Different payments for one slot are one choice of the agent (the environment pays
    the cheapest, see :meth:`ActionCatalogue.legal`); everything else is kept apart."""
    if isinstance(action, Build):
        card = action.card
        return ("build", card.name, card.age, FREE_BUILD if action.method == FREE_BUILD
                else "pay")
    if isinstance(action, Sell):
        return ("sell", action.card.name, action.card.age)
    if isinstance(action, BuildStage):
        return ("stage", action.card.name, action.card.age)
    if isinstance(action, BuildWonder):
        return ("wonder", action.card.name, action.card.age, action.wonder.name)
    if isinstance(action, BuildFromDiscard):
        return ("discard_build", action.card.name, action.card.age)
    if isinstance(action, Skip):
        return ("skip",)
    if isinstance(action, ChooseWonder):
        return ("choose_wonder", action.wonder.name)
    if isinstance(action, TakeToken):
        return ("take_token", action.token.name)
    if isinstance(action, DestroyCard):
        return ("destroy", action.card.name, action.card.age, action.seat)
    if isinstance(action, CopyCard):
        return ("copy", action.card.name, action.card.age, action.seat)
    if isinstance(action, ChooseStarter):
        return ("starter", action.seat)
    if isinstance(action, ChooseSide):
        return ("side", action.side)
    return other_slot(action)


def _combinations(seen: set[Slot]) -> list[Slot]:
    """Every combination of the field values the calibration showed, per action kind and
    set of fields (a building crossed with one die colour in those games may be crossed
    with another later)."""
    values: dict[tuple[str, tuple[str, ...]], dict[str, set[str]]] = {}
    for slot in seen:
        fields = [part.partition("=") for part in slot[2:]]
        found = values.setdefault((slot[1], tuple(key for key, _, _ in fields)), {})
        for key, _, value in fields:
            found.setdefault(key, set()).add(value)
    slots: set[Slot] = set()
    for (kind, keys), by_key in values.items():
        combos: list[tuple[str, ...]] = [()]
        for key in keys:
            combos = [combo + (f"{key}={value}",) for combo in combos
                      for value in sorted(by_key[key])]
        slots.update(("other", kind, *combo) for combo in combos)
    return sorted(slots)


def other_slot(action: object) -> Slot:
    """The slot of an action type this module does not know (a newer loop's): its
    ``to_json()`` kind and its named fields (strings and flags: a building, a die's
    colour), without numbers (prices, positions that change from turn to turn)."""
    to_json = getattr(action, "to_json", None)
    if to_json is None:
        raise UnmappedActionError(f"the environment has no action slot for {action!r}")
    found = to_json()
    return ("other", str(found.get("action")), *sorted(
        f"{key}={value}" for key, value in found.items()
        if key != "action" and isinstance(value, (str, bool))))


def _cost(action: Action) -> tuple[int, int]:
    payment = getattr(action, "payment", None)
    if payment is None:
        return (0, 0)
    return (payment.left + payment.right + payment.bank, payment.bank)


class ActionCatalogue:
    """Every action slot of a game, in a fixed order: ``index -> slot`` and back.

    Cards are told apart by name and age (a name may come back in a later age); the
    slots are, for every card, build (paying or by chain), build with a once-per-age
    free-build power, build a wonder stage with it, sell it, build it from the discard
    pile, build each wonder with it, destroy it in each seat's city; then skip, choose
    each wonder, take each token, let each seat start, choose each wonder side; then
    the slots of action types a newer loop brings (:func:`other_slot`), as the
    calibration games (:class:`ViewEncoder`) offered them."""

    def __init__(self, data: GameData, players: int, others: Sequence[Slot] = ()) -> None:
        cards: list[tuple[str, int]] = []
        for card in data.cards:
            if (card.name, card.age) not in cards:
                cards.append((card.name, card.age))
        wonders = [wonder.name for wonder in data.wonders]
        tokens = [token.name for token in data.tokens]
        sides = sorted({side for wonder in data.wonders for side in wonder.sides})
        slots: list[Slot] = []
        for name, age in cards:
            slots += [("build", name, age, "pay"), ("build", name, age, FREE_BUILD),
                      ("stage", name, age), ("sell", name, age), ("discard_build", name, age)]
            slots += [("wonder", name, age, wonder) for wonder in wonders]
            slots += [("destroy", name, age, seat) for seat in range(players)]
        slots.append(("skip",))
        slots += [("choose_wonder", wonder) for wonder in wonders]
        slots += [("take_token", token) for token in tokens]
        slots += [("starter", seat) for seat in range(players)]
        slots += [("side", side) for side in sides]
        slots += sorted(set(others))
        self.slots: tuple[Slot, ...] = tuple(slots)
        self.index: dict[Slot, int] = {slot: i for i, slot in enumerate(slots)}

    def __len__(self) -> int:
        return len(self.slots)

    def legal(self, actions: Sequence[Action]) -> dict[int, Action]:
        """The legal actions by slot index; of several payments for one slot, the
        cheapest in coins (then the least to the bank, then the engine's order)."""
        found: dict[int, Action] = {}
        for action in actions:
            slot = slot_of(action)
            index = self.index.get(slot)
            if index is None:
                raise UnmappedActionError(f"the action space has no slot {slot} for {action}")
            held = found.get(index)
            if held is None or _cost(action) < _cost(held):
                found[index] = action
        return found

    def describe(self, index: int) -> str:
        """A slot in words, for people (``sell NAME (age 2)``)."""
        slot = self.slots[index]
        kind, rest = slot[0], slot[1:]
        if kind in ("build", "stage", "sell", "discard_build", "wonder", "destroy"):
            text = f"{kind} {rest[0]} (age {rest[1]})"
            if kind == "build" and rest[2] == FREE_BUILD:
                text += " free"
            elif kind == "wonder":
                text += f" for {rest[2]}"
            elif kind == "destroy":
                text += f" of seat {rest[2]}"
            return text
        return " ".join(str(part) for part in slot)


class ViewEncoder:
    """Turns a seat's :meth:`~GameState.view` into a fixed vector of numbers.

    A view is JSON: dictionaries, lists, numbers and strings.  Walking it, each leaf
    has a *place*: the path of dictionary keys leading to it, where an entry of a
    list of per-seat dictionaries (ones with a ``seat`` number) is named by its seat
    *relative to the viewer* (``cities/+1/built``: the next seat's buildings); other
    list positions count for numbers (``hand_sizes/2``) and are dropped for names.

    - a name the data knows (card, wonder, token, wonder side) adds 1 to
      (place, name): hands, cities, face-up structure cards, token pools;
    - another string is a category of its place (``phase = turn``);
    - a number (or a flag) is the value of its place.

    Which places exist is learnt once, from every seat's views in a few seeded random
    games (the *calibration*, a function of the data and the player count only); a
    place those games never show is left out of the vector.  Then come the viewer's
    seat (one-hot), the pending decision's kind (one-hot) and whether the viewer
    decides it."""

    def __init__(self, data: GameData, players: int, calibration_games: int = 5) -> None:
        names: list[str] = []
        for name in ([card.name for card in data.cards] + [w.name for w in data.wonders]
                     + [t.name for t in data.tokens]
                     + sorted({s for w in data.wonders for s in w.sides})):
            if name not in names:
                names.append(name)
        self.players = players
        self.names = {name: i for i, name in enumerate(names)}
        name_places: set[str] = set()
        categories: set[tuple[str, str]] = set()
        numbers: set[str] = set()
        kinds = list(KNOWN_KINDS)
        seen_other: set[Slot] = set()
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
                kind = game.decision().kind
                if kind not in kinds:
                    kinds.append(kind)
                for seat in game.to_move():
                    for action in cast("list[Action]", game.legal_actions(seat)):
                        slot = slot_of(action)
                        if slot[0] == "other":
                            seen_other.add(slot)
                game.play({s: rng.choice(game.legal_actions(s)) for s in game.to_move()})
        self.other_slots = _combinations(seen_other)  # slots of types the catalogue lacks
        offset = players + len(kinds) + 1
        self.kinds = {kind: i for i, kind in enumerate(kinds)}
        self.name_places = {place: offset + i * len(names)
                            for i, place in enumerate(sorted(name_places))}
        offset += len(name_places) * len(names)
        self.categories = {key: offset + i for i, key in enumerate(sorted(categories))}
        offset += len(categories)
        self.numbers = {place: offset + i for i, place in enumerate(sorted(numbers))}
        self.size = offset + len(numbers)

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

    def encode(self, game: GameState, seat: int) -> npt.NDArray[np.float32]:
        """The vector of what ``seat`` sees now (its view and the pending decision)."""
        vector = np.zeros(self.size, dtype=np.float32)
        vector[seat] = 1.0
        if not game.over:
            decision = game.decision()
            kind = self.kinds.get(decision.kind)
            if kind is not None:
                vector[self.players + kind] = 1.0
            if seat in decision.seats:
                vector[self.players + len(self.kinds)] = 1.0
        for place, value in self.leaves(game.view(seat), seat):
            if isinstance(value, str):
                name = self.names.get(value)
                start = self.name_places.get(place) if name is not None else None
                if start is not None and name is not None:
                    vector[start + name] += 1.0
                else:
                    index = self.categories.get((place, value))
                    if index is not None:
                        vector[index] += 1.0
            else:
                index = self.numbers.get(place)
                if index is not None:
                    vector[index] = value
        return vector


@dataclass
class Spaces:
    """The catalogue and the encoder of one (data, players): built once, shared."""

    actions: ActionCatalogue
    observations: ViewEncoder


_DERIVED_KEY: Final = "env_spaces"


def spaces_for(data: GameData, players: int) -> Spaces:
    """The game's action catalogue and view encoder, kept in the data's cache."""
    cache = cast(dict[int, Spaces], data.derived.setdefault(_DERIVED_KEY, {}))
    found = cache.get(players)
    if found is None:
        encoder = ViewEncoder(data, players)
        found = cache[players] = Spaces(ActionCatalogue(data, players, sorted(
            encoder.other_slots)), encoder)
    assert isinstance(found, Spaces)
    return found
