"""A priced row: a board of items bought by a turn, fed from stacks, and tokens on structure cards.

A rule set whose turn offers ``[structure, {priced_row: …}]`` adds a second action to the
structure's: **activate** an item lying face up on a row of spaces, paying the seat's
price for its space (``prices``: one list per seat, a price per space); the item (a token
of the stacks' kind) then joins the seat's city and acts as a taken token does (its
``now:`` clauses once, the rest for the game).  No structure card is used.  Around it:

* ``stack_decks`` (set-up): the tokens of a kind sorted into named stacks, each shuffled;
  a *deck token* (``deck_tokens``: token → stack) taken later draws the top 2 of its stack:
  the taker places one face down on an empty space and the other goes back on top;
* ``lay_structure_tokens`` (round start): N tokens of a kind, at random, on structure
  cards (``slots``: ``[row, card]`` from the top left, 1-based); the seat whose turn turns
  such a card face up takes its token as the turn ends (before the next turn);
* ``fill_row`` / ``reveal_row`` (round start): a named token on the empty space; every
  space face up;
* effects: ``discount N coins on activation [once]`` lowers the owner's prices (never
  below 0, no change given; ``once``: a token spent on the activation it is chosen for —
  several may be), ``activate KIND token from tops`` / ``from deck`` activates a stack's
  item free (the tops of every stack; or a stack chosen and seen whole), and a price
  listed in ``double`` is twice its space's.

State: the row (:class:`Row`), copied with the game.  Prices are worked out per turn from
the owner's sources (a row of six spaces: a few moves a turn).
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import TYPE_CHECKING, Any, Callable, Final, Mapping, Sequence

from wonders.dsl import effects as fx
from wonders.dsl.model import Game as GameData
from wonders.dsl.model import Token
from wonders.engine.drafted_city import DraftedCity
from wonders.engine.errors import IllegalActionError, RuleError
from wonders.engine.flow_actions import Move
from wonders.engine.flow_state import Ask, Part, part_index
from wonders.engine.mechanisms import cities, structure
from wonders.engine.randomness import sample, shuffle
from wonders.engine.runtime import arrive

if TYPE_CHECKING:
    from wonders.engine.flow import FlowGame

NAME: Final = "priced_row"
SLOT: Final = part_index(NAME)   # (the part's index in a game's slots)
#: the decisions this mechanism asks (besides the turn's activation)
PLACE: Final = "place"
ACTIVATE: Final = "activate"
CHOOSE_STACK: Final = "choose_stack"
WORDING: Final[dict[str, str]] = {PLACE: "placing a drawn item face down on the row",
                                  ACTIVATE: "choosing an item to activate free",
                                  CHOOSE_STACK: "choosing a stack to look through"}
#: the agenda's tasks: hand over the tokens of cards turned face up; ask an effect's choice
TOKENS_TASK: Final = "row_structure_tokens"
ASK_TASK: Final = "row_follow_up"
#: the verbs of this mechanism's moves
ACTIVATE_VERB: Final = "activate"
PLACE_VERB: Final = "place"
STACK_VERB: Final = "stack"


class RowRules:
    """A data set's priced row, read once from the flow's steps: the stacks' kind, each
    stack's tokens (in data order), which stack each deck token draws from, the prices
    per seat and space, the doubled items and the first round activations are offered."""

    def __init__(self, data: GameData, arguments: Mapping[str, Mapping[str, Any]]) -> None:
        tokens = {t.name: t for t in data.tokens}
        stacks = arguments.get("stack_decks", {})
        offer = arguments.get(NAME, {})
        self.kind: str = str(stacks.get("kind", ""))
        self.stacks: dict[str, tuple[Token, ...]] = {
            str(name): tuple(tokens[str(n)] for n in names if str(n) in tokens)
            for name, names in dict(stacks.get("decks", {})).items()}
        self.stack_of: dict[str, str] = {t.name: name for name, items in self.stacks.items()
                                         for t in items}
        self.deck_tokens: dict[str, str] = {str(k): str(v) for k, v
                                            in dict(stacks.get("deck_tokens", {})).items()}
        self.prices: tuple[tuple[int, ...], ...] = tuple(
            tuple(int(p) for p in row) for row in list(offer.get("prices", [])))
        self.spaces = max((len(row) for row in self.prices), default=0)
        self.double: frozenset[str] = frozenset(str(n) for n in offer.get("double", []))
        self.from_round = int(offer.get("from_round", 2))
        self.tokens = tokens


class Row(Part):
    """The row's spaces (an item or None each, face up or not, and the seat that placed
    it: -1 for none), the stacks (top first), the tokens lying on structure cards (by
    slot), the items drawn for a placement, and the effects' choices waiting."""

    def __init__(self, rules: RowRules) -> None:
        self.rules = rules
        self.spaces: list[Token | None] = [None] * rules.spaces
        self.face_up: list[bool] = [False] * rules.spaces
        self.placed_by: list[int] = [-1] * rules.spaces
        self.stacks: dict[str, list[Token]] = {name: list(items)
                                               for name, items in rules.stacks.items()}
        self.on_slots: dict[int, Token] = {}
        self.drawn: list[Token] = []
        self.drawn_from = ""
        self.waiting: list[tuple[int, fx.Activate]] = []
        self.dealt: dict[str, list[str]] = {}

    def copy(self) -> Row:
        other = Row(self.rules)
        other.spaces = list(self.spaces)
        other.face_up = list(self.face_up)
        other.placed_by = list(self.placed_by)
        other.stacks = {name: list(items) for name, items in self.stacks.items()}
        other.on_slots = dict(self.on_slots)
        other.drawn = list(self.drawn)
        other.drawn_from = self.drawn_from
        other.waiting = list(self.waiting)
        other.dealt = self.dealt
        return other

    def keep_setup(self, game: FlowGame) -> None:
        self.dealt = {name: [t.name for t in items] for name, items in self.stacks.items()}

    def setup_record(self, game: FlowGame, record: dict[str, Any]) -> None:
        record["stacks"] = self.dealt

    def view(self, game: FlowGame, seat: int, found: dict[str, Any]) -> None:
        """The row by space (an item face down shows only to the seat that placed it;
        who placed it, for all), each seat's printed price there and what it costs each
        seat now (less its lasting discounts), the stacks' sizes, the items drawn (to the
        seat placing one only), the tokens on structure cards (by slot and by place: row
        and card, 1-based from the top left, as a move names a structure place), and the
        row's rules: the items' kind, the first round they may be activated, the doubled."""
        rules = self.rules
        towns = cities.cities_of(game)
        lasting = [_discounts(towns[s])[0] if s < len(towns) else 0
                   for s in range(len(rules.prices))]
        rows = []
        for i, item in enumerate(self.spaces):
            seen = item is not None and (self.face_up[i] or self.placed_by[i] == seat)
            printed = [space_price(rules, s, i, item) for s in range(len(rules.prices))]
            rows.append({"space": i + 1,
                         "item": item.name if item is not None and seen else None,
                         "filled": item is not None, "face_up": self.face_up[i],
                         "placed_by": self.placed_by[i] if self.placed_by[i] >= 0 else None,
                         "prices": printed,
                         "costs": [max(0, p - lasting[s]) for s, p in enumerate(printed)]})
        found["row"] = rows
        found["row_rules"] = {"kind": rules.kind, "from_round": rules.from_round,
                              "double": sorted(rules.double)}
        found["stacks"] = {name: len(items) for name, items in self.stacks.items()}
        asked = game.asking
        if self.drawn and asked is not None and asked.kind == PLACE and asked.seat == seat:
            found["drawn"] = [t.name for t in self.drawn]
        laid = structure.state(game).structure
        tokens = []
        for slot, token in sorted(self.on_slots.items()):
            entry: dict[str, Any] = {"slot": slot, "token": token.name}
            if laid is not None and slot < laid.layout.size:
                row = laid.layout.slot_rows[slot]
                entry["row"] = row
                entry["card"] = slot - sum(len(r) for r in laid.layout.rows[:row - 1]) + 1
            tokens.append(entry)
        found["structure_tokens"] = tokens

    def determinize(self, game: FlowGame, source: FlowGame, seat: int,
                    rng: random.Random) -> None:
        """The stacks' order and the face-down items ``seat`` did not place, dealt again
        from the items of their stacks ``seat`` has not seen."""
        for name, items in self.stacks.items():
            hidden = [i for i, item in enumerate(self.spaces) if item is not None
                      and not self.face_up[i] and self.placed_by[i] != seat
                      and self.rules.stack_of.get(item.name) == name]
            pool = [self.spaces[i] for i in hidden] + items
            pool.sort(key=lambda t: t.name if t is not None else "")
            rng.shuffle(pool)
            for k, i in enumerate(hidden):
                self.spaces[i] = pool[k]
            self.stacks[name] = [t for t in pool[len(hidden):] if t is not None]


def space_price(rules: RowRules, seat: int, space: int, item: Token | None) -> int:
    """The printed price of ``space`` for ``seat`` (twice it for a doubled item)."""
    prices = rules.prices[seat] if seat < len(rules.prices) else ()
    base = prices[space] if space < len(prices) else 0
    return base * 2 if item is not None and item.name in rules.double else base


# --- set-up and round-start steps ------------------------------------------------------

def stack(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    """Set-up step ``stack_decks``: each stack shuffled (in the order the data names them)."""
    part = state(game)
    rng = game.generator()
    for name in part.rules.stacks:
        shuffle(rng, part.stacks[name], game.drawer())


def lay_structure_tokens(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    """Round-start step ``lay_structure_tokens``: in its round, ``draw`` tokens of ``kind``
    at random on the structure's cards at ``slots`` (in the slots' order)."""
    if game.age != int(parameters.get("round", 1)):
        return
    part = state(game)
    laid = structure.state(game).structure
    if laid is None:
        raise RuleError("lay_structure_tokens needs a structure laid before it (lay_structure)")
    kind = str(parameters.get("kind", ""))
    candidates = [t for t in game.data.tokens if t.kind == kind]
    slots = [structure_slot(laid.layout.rows, place) for place in parameters.get("slots", [])]
    drawn = sample(game.generator(), candidates, min(int(parameters.get("draw", 0)),
                                                     len(candidates), len(slots)))
    part.on_slots = {slot: token for slot, token in zip(slots, drawn)}


def structure_slot(rows: Sequence[Sequence[int]], place: Any) -> int:
    """The structure slot of ``[row, card]`` (1-based, from the top left)."""
    if (not isinstance(place, list) or len(place) != 2
            or not all(isinstance(n, int) and not isinstance(n, bool) for n in place)):
        raise RuleError(f"a structure place is [row, card] (1-based), not {place!r}")
    row, card = int(place[0]), int(place[1])
    if not 1 <= row <= len(rows) or not 1 <= card <= len(rows[row - 1]):
        raise RuleError(f"the structure has no card {card} in row {row} "
                        f"(rows of {', '.join(str(len(r)) for r in rows)} cards)")
    return sum(len(r) for r in rows[:row - 1]) + card - 1


def fill(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    """Round-start step ``fill_row``: in its round, the named token on the first empty
    space (face down until revealed)."""
    if game.age != int(parameters.get("round", 2)):
        return
    part = state(game)
    token = part.rules.tokens.get(str(parameters.get("token", "")))
    if token is None:
        raise RuleError(f"fill_row names no loaded token ({parameters.get('token')!r})")
    for i, item in enumerate(part.spaces):
        if item is None:
            part.spaces[i] = token
            part.face_up[i] = False
            part.placed_by[i] = -1
            return


def reveal(game: FlowGame, parameters: Mapping[str, Any]) -> None:
    """Round-start step ``reveal_row``: in its round, every space face up."""
    if game.age != int(parameters.get("round", 2)):
        return
    part = state(game)
    for i, item in enumerate(part.spaces):
        part.face_up[i] = item is not None


# --- the turn: structure moves and activations ------------------------------------------

def _discounts(city: DraftedCity) -> tuple[int, list[tuple[Token, int]]]:
    """The owner's lasting discount on activations, and its spendable tokens with theirs."""
    lasting = 0
    spendable: list[tuple[Token, int]] = []
    for token in city.owned_tokens:
        for clause in token.effects.clauses:
            effect = clause.effect
            if isinstance(effect, fx.ActivationDiscount) and effect.once:
                spendable.append((token, effect.count))
    for _, _, effect in city.clause_list(fx.Timing.ONGOING):
        if isinstance(effect, fx.ActivationDiscount) and not effect.once:
            lasting += effect.count
    spendable.sort(key=lambda pair: pair[0].name)   # (one notation per set, by name)
    return lasting, spendable


def price(rules: RowRules, city: DraftedCity, seat: int, space: int, item: Token | None) -> int:
    """What activating ``item`` on ``space`` costs ``seat`` before spending tokens: the
    space's price less the lasting discounts, at least 0."""
    return max(0, space_price(rules, seat, space, item) - _discounts(city)[0])


def activation_moves(game: FlowGame, seat: int) -> list[Move]:
    """Each face-up item's activations the seat can pay for: with no spendable token,
    and with each set of them every one of which lowers the price."""
    part = state(game)
    if game.age < part.rules.from_round:
        return []
    city = cities.cities_of(game)[seat]
    lasting, spendable = _discounts(city)
    found: list[Move] = []
    for i, item in enumerate(part.spaces):
        if item is None or not part.face_up[i]:
            continue
        price = max(0, space_price(part.rules, seat, i, item) - lasting)
        for n in range(len(spendable) + 1):
            for chosen in combinations(spendable, n):
                values = [v for _, v in chosen]
                if n and (price == 0 or sum(values) - min(values) >= price):
                    continue   # (a token that lowers nothing is not offered)
                cost = max(0, price - sum(values))
                if cost <= city.spendable():
                    words: tuple[str, ...] = (item.name, "pay", str(cost))
                    if n:
                        words += ("with", *(t.name for t, _ in chosen))
                    found.append(Move(ACTIVATE_VERB, words))
    return found


def turn_moves(game: FlowGame, seat: int) -> tuple[Any, ...]:
    """The turn's options: the structure's, then the row's activations."""
    return structure.turn_moves(game, seat) + tuple(activation_moves(game, seat))


def resolve_turn(game: FlowGame, asked: Ask, action: Any) -> None:
    """A turn's answer: an activation, or the structure's action (then the tokens of the
    cards it turned face up are handed over once its follow-ups are done; another
    mechanism's use of a taken card, a move too, is the structure's)."""
    if type(action) is Move and action.verb == ACTIVATE_VERB:
        move: Move = action
        activate_paid(game, asked.seat, move)
        return
    structure.resolve(game, asked, action)
    if state(game).on_slots:
        game.agenda.append((TOKENS_TASK, asked.seat, 0))


def check(game: FlowGame, seat: int, action: Any) -> None:
    """Why a turn's action is refused (the structure's reasons, and the row's)."""
    if isinstance(action, Move) and action.verb == ACTIVATE_VERB:
        part = state(game)
        if game.age < part.rules.from_round:
            raise IllegalActionError(seat, action, "no activation before "
                                     f"{game.program.flow.round_name} {part.rules.from_round}")
        return
    structure.check(game, seat, action)


def activate_paid(game: FlowGame, seat: int, move: Move) -> None:
    """Pay for an activation (spending the tokens it names) and activate the item."""
    part = state(game)
    name = move.words[0]
    space = next((i for i, item in enumerate(part.spaces)
                  if item is not None and item.name == name), -1)
    if space < 0:
        raise RuleError(f"{name} is not on the row")
    city = cities.cities_of(game)[seat]
    cost = int(move.words[2])
    city.spend(cost)
    game.bank_paid += cost
    spent = set(move.words[4:])
    if spent:
        city.owned_tokens[:] = [t for t in city.owned_tokens if t.name not in spent]
        city.changed()
    item = part.spaces[space]
    assert item is not None
    part.spaces[space] = None
    part.face_up[space] = False
    part.placed_by[space] = -1
    activate(game, seat, item)


def activate(game: FlowGame, seat: int, item: Token) -> None:
    """``item`` joins the seat's city and acts as a taken token does."""
    cities.cities_of(game)[seat].add_token(item)
    arrive(game.table, seat, item, item.effects, None, None)


# --- follow-ups: tokens taken, placements, free activations -------------------------------

def hand_over(game: FlowGame, seat: int, about: int) -> None:
    """The agenda's task: the tokens of structure cards now face up go to ``seat``, one at
    a time (a deck token asks where its item goes before the next is handed over)."""
    part = state(game)
    laid = structure.state(game).structure
    if laid is None:
        return
    for slot in sorted(part.on_slots):
        if not laid.face_up[slot] and not laid.taken[slot]:
            continue   # (still face down; a card discarded gives its token too)
        token = part.on_slots.pop(slot)
        if part.on_slots:
            game.schedule([(TOKENS_TASK, seat, 0)])   # (the rest after this one's choice)
        take_token(game, seat, token)
        return


def take_token(game: FlowGame, seat: int, token: Token) -> None:
    """``seat`` takes a token off the structure: into its city, then, for a deck token,
    the top 2 of its stack are drawn to place one."""
    city = cities.cities_of(game)[seat]
    city.add_token(token)
    arrive(game.table, seat, token, token.effects, None, None)
    part = state(game)
    stack_name = part.rules.deck_tokens.get(token.name)
    if stack_name is None or game.finished:
        return
    items = part.stacks.get(stack_name, [])
    part.drawn = items[:2]
    del items[:2]
    part.drawn_from = stack_name
    empty = [i for i, item in enumerate(part.spaces) if item is None]
    moves = tuple(Move(PLACE_VERB, (t.name, "on", "space", str(i + 1)))
                  for t in part.drawn for i in empty)
    if not moves:   # nothing drawn or no empty space: the drawn go back
        items[0:0] = part.drawn
        part.drawn = []
        return
    game.ask(PLACE, seat, moves)


def resolve_place(game: FlowGame, asked: Ask, move: Any) -> None:
    """An item placed face down on its space; the other drawn item back on its stack."""
    part = state(game)
    name, space = move.words[0], int(move.words[3]) - 1
    chosen = next(t for t in part.drawn if t.name == name)
    part.spaces[space] = chosen
    part.face_up[space] = False
    part.placed_by[space] = asked.seat
    rest = [t for t in part.drawn if t is not chosen]
    part.stacks[part.drawn_from][0:0] = rest
    part.drawn = []


def ask_effect(game: FlowGame, kind: str, seat: int, effect: fx.Effect) -> None:
    """An effect's choice (``activate … from tops|deck``), asked after what is being done."""
    if isinstance(effect, fx.Activate):
        state(game).waiting.append((seat, effect))
        game.agenda.append((ASK_TASK, seat, 0))


def ask_waiting(game: FlowGame, seat: int, about: int) -> None:
    """The agenda's task: ask the oldest waiting effect's choice."""
    part = state(game)
    owner, effect = part.waiting.pop(0)
    if effect.source == "deck":
        moves = tuple(Move(STACK_VERB, (name,)) for name, items in part.stacks.items()
                      if items)
        if moves:
            game.ask(CHOOSE_STACK, owner, moves)
        return
    tops = tuple(Move(ACTIVATE_VERB, (items[0].name, "free"))
                 for items in part.stacks.values() if items)
    if tops:
        game.ask(ACTIVATE, owner, tops)


def resolve_stack(game: FlowGame, asked: Ask, move: Any) -> None:
    """A stack chosen: its items, seen whole, offered free."""
    items = state(game).stacks[move.words[0]]
    game.ask(ACTIVATE, asked.seat, tuple(Move(ACTIVATE_VERB, (t.name, "free")) for t in items))


def resolve_free(game: FlowGame, asked: Ask, move: Any) -> None:
    """An item of a stack activated free; the others stay on their stacks, in order."""
    part = state(game)
    name = move.words[0]
    for items in part.stacks.values():
        for i, item in enumerate(items):
            if item.name == name:
                del items[i]
                activate(game, asked.seat, item)
                return
    raise RuleError(f"{name} is in no stack")


def every_move(data: GameData, arguments: Mapping[str, Mapping[str, Any]]) -> list[Move]:
    """Every move a priced row can offer (the fixed action ids of agents and OpenSpiel):
    each item activated at each price up to its highest (with each set of spendable
    tokens), free, placed on each space; each stack chosen."""
    rules = _rules(data, arguments)
    items = [t for t in data.tokens if t.kind == rules.kind or t.name in rules.double]
    highest = max((p for row in rules.prices for p in row), default=0) * 2
    spendable = sorted(t.name for t in data.tokens if any(
        isinstance(c.effect, fx.ActivationDiscount) and c.effect.once
        for c in t.effects.clauses))
    sets = [()] + [chosen for n in range(1, len(spendable) + 1)
                   for chosen in combinations(spendable, n)]
    found: list[Move] = []
    for item in items:
        for cost in range(highest + 1):
            for chosen in sets:
                found.append(Move(ACTIVATE_VERB, (item.name, "pay", str(cost))
                                  + (("with", *chosen) if chosen else ())))
        found.append(Move(ACTIVATE_VERB, (item.name, "free")))
        found += [Move(PLACE_VERB, (item.name, "on", "space", str(i + 1)))
                  for i in range(rules.spaces)]
    found += [Move(STACK_VERB, (name,)) for name in rules.stacks]
    return found


#: The mechanism that carries out each of this mechanism's decisions.
RESOLVERS: Final[Mapping[str, Callable[[FlowGame, Ask, Any], None]]] = {
    PLACE: resolve_place, ACTIVATE: resolve_free, CHOOSE_STACK: resolve_stack}

cities.ROUTED["activate"] = ask_effect   # (the runtime's "activate" follow-ups come here)


def make(data: GameData, players: int, arguments: Mapping[str, Mapping[str, Any]]) -> Row:
    return Row(_rules(data, arguments))


def _rules(data: GameData, arguments: Mapping[str, Mapping[str, Any]]) -> RowRules:
    found = data.derived.get("priced_row.rules")
    if isinstance(found, RowRules):
        return found
    made = RowRules(data, arguments)
    data.derived["priced_row.rules"] = made
    return made


def state(game: FlowGame) -> Row:
    """The game's priced row."""
    return game.slots[SLOT]  # type: ignore[return-value]  # (no cast: a call)


__all__ = ["ACTIVATE", "ASK_TASK", "CHOOSE_STACK", "NAME", "PLACE", "RESOLVERS", "Row",
           "RowRules", "TOKENS_TASK", "WORDING", "activation_moves", "check", "fill",
           "hand_over", "lay_structure_tokens", "make", "resolve_turn", "reveal", "stack",
           "state", "turn_moves"]
