"""What a page is sent: the contract's view, described generically for people.

Nothing here names a game, a card or a loop.  A page gets:

* a **catalogue** of the game's data, once (every card's colour, cost, chains and
  effect in words; every wonder's sides and stages; every token), so a card name
  in a view can be drawn as a card;
* the seat's **view** (``view(seat)``), or for a spectator the *public view*: the
  parts of the view that are the same for every seat (anything one seat sees and
  another does not is left out);
* a description of every **legal action** of the seat: its ``to_json()`` (what the
  page sends back), a sentence, and what it costs — coins to the bank for the
  thing itself and coins paid for trade (to neighbours, or to the bank for
  resources) — and per card, wonder stage or wonder the **indicator** of the
  cheapest way to build it: ``cannot`` (red cross), ``trade`` (yellow check with
  the coins), ``own`` (green check: own production) or ``chain`` (green, with the
  card that gives the chain), ``free`` (a free-build power).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any, Iterable, Sequence

from wonders.dsl import describe
from wonders.dsl import effects as fx
from wonders.dsl.components_model import (
    Components,
    Piece,
    describe_kind,
    describe_piece,
    describe_progress,
    describe_take,
)
from wonders.dsl.model import Card, Wonder
from wonders.dsl.model import Game as GameData
from wonders.dsl.sheets_model import DiceSet
from wonders.engine.actions import (
    CHAIN,
    FREE_BUILD,
    Action,
    Build,
    BuildFromDiscard,
    BuildStage,
    BuildWonder,
    DestroyCard,
    Sell,
)
from wonders.engine.contract import AnyAction, GameState
from wonders.engine.dice_actions import BuildWonderStage, CrossSpace, TakeBonus
from wonders.engine.flow_actions import Move
from wonders.engine.mechanisms import chambers, either, held, priced_row
from wonders.engine.scoring import amount

# indicator kinds, cheapest first (what a card shows is the best of its builds)
CHAIN_MARK = "chain"
FREE_MARK = "free"
OWN_MARK = "own"
TRADE_MARK = "trade"
CANNOT_MARK = "cannot"
_RANK = {CHAIN_MARK: 0, FREE_MARK: 1, OWN_MARK: 2, TRADE_MARK: 3}


def catalogue(data: GameData) -> dict[str, Any]:
    """Every card, wonder and token of the game, described for people (JSON-ready).

    Cards are keyed by ``name`` and, where a name recurs in another age, by
    ``name (age)`` too; the page looks a card up by name and age.
    """
    cards: dict[str, Any] = {}
    for card in data.cards:
        entry = {
            "name": card.name, "age": card.age, "colour": card.colour,
            "cost": describe.cost(card.cost), "coins": card.cost.coins,
            "resources": [list(r) for r in card.cost.resources],
            "chains_from": list(card.free_if_built), "chains_to": list(card.makes_free),
            "effect": describe.effects(card.effects),
        }
        entry.update(effect_symbols(card.effects))
        cards.setdefault(card.name, entry)
        cards[card.key] = entry
    wonders: dict[str, Any] = {}
    for wonder in data.wonders:
        wonders[wonder.name] = {side: {
            "start": describe.effects(board.start) if board.start.clauses else "",
            "stages": [{"cost": describe.cost(stage.cost), "coins": stage.cost.coins,
                        "resources": [list(r) for r in stage.cost.resources],
                        "effect": describe.effects(stage.effects),
                        **effect_symbols(stage.effects)} for stage in board.stages],
        } for side, board in wonder.sides.items()}
    # (a token's "now:" clauses act when it is taken, or activated: at once)
    tokens = {token.name: {"kind": token.kind, "effect": describe.effects(token.effects,
                                                                          now="at once")}
              for token in data.tokens}
    rules = data.rules
    model = rules.model.military
    # the conflict track's parameters (the page draws a track when a view has a pawn)
    military: dict[str, Any] = {
        "mechanism": model.mechanism, "supremacy": model.track.supremacy,
        "zones": [{"from": z.start, "points": z.points, "lose": z.lose}
                  for z in model.track.zones]}
    # the card structures' half-card columns (the page centres every age's rows alike)
    layouts = {str(age): [list(row) for row in layout.rows]
               for age, layout in rules.model.offer.layouts.items()}
    found: dict[str, Any] = {
        "title": rules.title, "rule_set": rules.name, "cards": cards, "wonders": wonders,
        "tokens": tokens, "military": military, "passes": list(rules.model.ages.passes),
        "min_players": rules.min_players, "max_players": rules.max_players,
        "layouts": layouts, "victories": victories(data), "symbols": symbol_drawings()}
    if data.dice is not None:
        found["sheets"] = sheets(data.dice)
    if data.components is not None:
        found["components"] = components(data.components)
    return found


@functools.cache
def symbol_drawings() -> dict[str, Any]:
    """The page's symbol drawings (``symbols.json`` beside this module: per name a list of
    SVG elements, aliases, words), sent in the catalogue so the page's code names none."""
    text = (Path(__file__).parent / "symbols.json").read_text(encoding="utf-8")
    found: dict[str, Any] = json.loads(text)
    return {"drawings": found["drawings"], "aliases": found["aliases"], "words": found["words"]}


def effect_symbols(effects: fx.Effects) -> dict[str, Any]:
    """An effect as symbols a card face draws: ``symbols``, each ``[name, count]`` or
    ``[[name, …], 1]`` for one of several (a resource, a science symbol), ``shields``,
    ``coins`` and ``points`` (victory points) of fixed amounts; ``all_symbols`` when
    nothing else is said (the page then need not repeat the effect in words)."""
    found: list[list[Any]] = []
    whole = True
    for clause in effects.clauses:
        effect = clause.effect
        if clause.trigger is not None or clause.condition is not None:
            whole = False
        elif isinstance(effect, fx.Produce) and effect.resources and not effect.relative:
            found.append([effect.resources[0] if len(effect.resources) == 1
                          else list(effect.resources), effect.amount])
            whole = whole and effect.buyable
        elif isinstance(effect, fx.Science) and effect.symbols:
            found.append([effect.symbols[0] if len(effect.symbols) == 1
                          else list(effect.symbols), 1])
        elif isinstance(effect, fx.Shields) and effect.each is None:
            found.append(["shields", effect.count])
        elif isinstance(effect, fx.Points) and not effect.amount.terms:
            found.append(["points", effect.amount.fixed])
        elif isinstance(effect, fx.Coins) and not effect.amount.terms:
            found.append(["coins", effect.amount.fixed])
        else:
            whole = False
    return {"symbols": found, "all_symbols": whole and bool(found)}


def victories(data: GameData) -> list[str]:
    """How a game of these rules can be won: on points after the last age (``civilian``),
    and, when the rules have a supremacy, by it (a pawn reaching the end of a conflict
    track; enough different science symbols).  A page names the kind of a victory only
    when there is more than one."""
    model = data.rules.model
    found = ["civilian"]
    if model.military.mechanism == "track" and model.military.track.supremacy > 0:
        found.append("military")
    if model.science.supremacy > 0:
        found.append("science")
    return found


def _words(effects: fx.Effects) -> str:
    return describe.effects(effects) if effects.clauses else ""


def sheets(dice: DiceSet) -> dict[str, Any]:
    """A dice-forum game's components for people: the quadrants' prices, the dice, every
    building with its spaces (symbol, cost, effect in words, attack, defence, what it
    unlocks), the bonuses, the boards' stages and the coin reserve.  A view names
    buildings by key and spaces by index; the page draws a sheet from this."""
    counts: dict[str, int] = {}
    for die in dice.dice:
        counts[die.colour] = counts.get(die.colour, 0) + 1
    numbers: dict[str, int] = {}
    buildings = [{
        "key": b.key, "name": b.name, "colour": b.colour, "side": b.side, "first": b.first,
        "spaces": [{"symbol": sp.symbol, "cost": sp.cost, "effect": _words(sp.effects),
                    "attack": sp.attack, "defence": sp.defence, "unlock": sp.unlock,
                    "die_discount": sp.die_discount} for sp in b.spaces],
    } for b in dice.buildings]
    return {
        "quadrants": list(dice.quadrants), "reserve": dice.reserve,
        "pass": _words(dice.pass_effects), "end_bonuses": dice.end_bonuses,
        "dice": [{"name": d.name, "colour": d.colour, "start": d.start,
                  "replaces": d.replaces, "label": _die_label(d.colour, counts, numbers)}
                 for d in dice.dice],
        "buildings": buildings,
        "bonuses": [{"name": b.name, "effect": _words(b.effects),
                     "cross": [dice.buildings[i].key for i in b.cross],
                     "label": bonus_label(dice, b.name)} for b in dice.bonuses],
        "boards": {b.name: [{"cost": st.cost, "effect": _words(st.effects)} for st in b.stages]
                   for b in dice.boards},
    }


def _die_label(colour: str, counts: dict[str, int], numbers: dict[str, int]) -> str:
    """A die in words, from its colour: "the blue die"; "grey die 2" when several share it."""
    if counts.get(colour, 0) <= 1:
        return f"{colour} die"
    numbers[colour] = numbers.get(colour, 0) + 1
    return f"{colour} die {numbers[colour]}"


def die_label(dice: DiceSet, name: str) -> str:
    """The words for the die a view or an action names by its data key."""
    counts: dict[str, int] = {}
    for die in dice.dice:
        counts[die.colour] = counts.get(die.colour, 0) + 1
    numbers: dict[str, int] = {}
    for die in dice.dice:
        label = _die_label(die.colour, counts, numbers)
        if die.name == name:
            return label
    return name


def building_name(dice: DiceSet, key: str) -> str:
    """The name of the building a view or an action names by its key."""
    for building in dice.buildings:
        if building.key == key:
            return building.name
    return key


def bonus_label(dice: DiceSet, name: str) -> str:
    """A bonus in words: what it gives, or which buildings' next space it crosses."""
    for bonus in dice.bonuses:
        if bonus.name == name:
            if bonus.cross:
                names = [dice.buildings[i].name for i in bonus.cross]
                return "cross a space of " + (" or ".join([", ".join(names[:-1]), names[-1]])
                                              if len(names) > 1 else names[0])
            return _words(bonus.effects) or name
    return name


def _dice_text(dice: DiceSet, action: AnyAction) -> str | None:
    """A dice-forum action in the data's words (buildings and dice by name, not key)."""
    if isinstance(action, CrossSpace):
        with_die = f" with the {die_label(dice, action.die)}" if action.die else ""
        return (f"cross {building_name(dice, action.building)} space {action.space + 1}"
                f"{with_die} (pay {action.pay})")
    if isinstance(action, TakeBonus):
        text = f"take the bonus: {bonus_label(dice, action.bonus)}"
        cross = _dice_text(dice, action.cross) if action.cross is not None else None
        return text + (f" — {cross}" if cross else "")
    if isinstance(action, BuildWonderStage):
        return str(action)
    return None


def public_view(game: GameState) -> dict[str, Any]:
    """What every seat sees alike: the keys of ``view(seat)`` equal for all seats (dicts
    compared key by key), the rest left out.  Generic: whatever a loop hides from some
    seat is hidden from spectators."""
    views = [game.view(seat) for seat in range(game.players)]
    common: dict[str, Any] = _common(views)
    return common


def _common(values: Sequence[Any]) -> Any:
    first = values[0]
    if (all(isinstance(v, list) and len(v) == len(first) for v in values) and first
            and all(isinstance(item, dict) for v in values for item in v)):
        # a list of parts (a decks game's decks): each part's common keys, so one seat
        # seeing a deck's top hides that top from spectators, not every deck
        return [_common([v[i] for v in values]) for i in range(len(first))]
    if all(isinstance(v, dict) for v in values):
        keys = [k for k in first if all(k in v for v in values)]
        found = {}
        for key in keys:
            common = _common([v[key] for v in values])
            if common is not _HIDDEN:
                found[key] = common
        return found
    if all(v == first for v in values[1:]):
        return first
    return _HIDDEN


_HIDDEN: Any = object()


def _own_coins(game: GameState, seat: int, action: AnyAction) -> int:
    """Coins the thing itself costs (what anyone pays to the bank for it), without trade."""
    if isinstance(action, Build):
        return 0 if action.method in (CHAIN, FREE_BUILD) else action.card.cost.coins
    if isinstance(action, BuildStage):
        stage = _next_stage(game, seat)
        return stage.cost.coins if stage is not None else 0
    if isinstance(action, BuildWonder):
        return _wonder_cost(action.wonder).coins
    return 0


def _next_stage(game: GameState, seat: int) -> Any:
    city = game.cities[seat]
    side = getattr(city, "side", None)
    stages = getattr(side, "stages", ())
    built = int(getattr(city, "stages", 0))   # (a decks game's seats have pieces instead)
    return stages[built] if built < len(stages) else None


def _wonder_cost(wonder: Wonder) -> fx.Cost:
    for board in wonder.sides.values():
        if board.stages:
            return board.stages[0].cost
    return fx.FREE


def _chain_source(game: GameState, seat: int, card: Card) -> str | None:
    built = {c.name for c in game.cities[seat].built}
    for name in card.free_if_built:
        if name in built:
            return name
    return None


def action_text(game: GameState, action: AnyAction) -> str:
    """An action in words, the data's names for what its record names by key."""
    dice = game.data.dice
    return (_dice_text(dice, action) if dice is not None else None) or str(action)


def describe_action(game: GameState, seat: int, index: int, action: AnyAction,
                    view: dict[str, Any] | None = None) -> dict[str, Any]:
    """One legal action for the page: what to send back, words, costs and its indicator
    (``view``: the seat's, for a move that names a place on the table)."""
    record = action.to_json()
    payment = record.get("payment")
    paid = sum(int(v) for v in payment.values()) if isinstance(payment, dict) else 0
    pay = record.get("pay")   # an action that names the coins it pays (a dice loop's)
    if not paid and isinstance(pay, int) and not isinstance(pay, bool):
        paid = pay
    own = _own_coins(game, seat, action)
    trade = max(0, paid - own)
    text = action_text(game, action)
    if isinstance(action, DestroyCard) and action.seat >= 0:   # the same card may stand twice
        text += f" from seat {action.seat}'s city"
    entry: dict[str, Any] = {"index": index, "json": record, "kind": record.get("action"),
                             "text": text, "paid": paid, "trade": trade}
    if isinstance(payment, dict):
        entry["payment"] = payment
    if isinstance(action, Move):   # (an extra offer of a turn: an activation)
        board_move(game, seat, game.view(seat) if view is None else view, action, entry)
    method = record.get("method")
    if isinstance(action, (Build, BuildStage, BuildWonder)):
        if method == CHAIN:
            entry["mark"] = CHAIN_MARK
            if isinstance(action, Build):
                entry["chain"] = _chain_source(game, seat, action.card)
        elif method == FREE_BUILD:
            entry["mark"] = FREE_MARK
        else:
            entry["mark"] = OWN_MARK if trade == 0 else TRADE_MARK
    elif isinstance(action, BuildFromDiscard):   # what the card costs is not paid
        entry["mark"] = FREE_MARK
        entry["free"] = "discard"
    elif isinstance(action, Sell):
        gain = sell_gain(game, seat)
        if gain is not None:
            entry["gain"] = gain
    return entry


def sell_gain(game: GameState, seat: int) -> int | None:
    """The coins selling a card gives ``seat`` now (the rules' ``sell`` coins; None when
    the rules give something else or nothing)."""
    sell = game.data.rules.sell
    if sell is None:
        return None
    coins = [c.effect.amount for c in sell.clauses if isinstance(c.effect, fx.Coins)]
    if not coins:
        return None
    return sum(amount(a, seat, game.cities) for a in coins)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


_RICH = 1_000_000   # coins a clone of the city is given to find what a build would cost


def rich_payments(game: GameState, seat: int) -> dict[str, Any]:
    """Per card name (and :data:`STAGE_KEY`: the next wonder stage), the cheapest payment
    (``left``, ``right``, ``bank`` coins) that would build it if ``seat`` had coins enough:
    the engine's own payment search, on a clone of the game whose city holds many more
    coins (empty for a loop whose cities hold none)."""
    clone = game.clone()
    city = clone.cities[seat]
    if not isinstance(getattr(city, "coins", None), int):
        return {}
    city.coins += _RICH
    clone.invalidate()
    found: dict[str, Any] = {}
    for action in clone.legal_actions(seat):
        if isinstance(action, Build) and action.method not in (CHAIN, FREE_BUILD):
            key, payment = action.card.name, action.payment.to_json()
        elif isinstance(action, BuildStage):
            key, payment = STAGE_KEY, action.payment.to_json()
        elif isinstance(action, BuildWonder):
            key, payment = WONDER_KEY + action.wonder.name, action.payment.to_json()
        else:
            continue
        if key not in found or sum(payment.values()) < sum(found[key].values()):
            found[key] = payment
    return found


STAGE_KEY = " next stage"   # rich_payments' key for the next wonder stage (no card's name)
WONDER_KEY = " wonder "      # rich_payments' key prefix for a drafted wonder (no card's name)


def why_not(game: GameState, seat: int, card: Card, view: dict[str, Any],
            rich: dict[str, Any] | None = None) -> str:
    """Why ``seat`` cannot build ``card`` now, in a few words for a red cross: a card of
    the name built already; the coins the cheapest payment takes (the engine's payment
    search with coins enough: ``rich``, from :func:`rich_payments`) against the coins held;
    else per resource it needs what the city makes and what the markets of the view's
    ``trade`` sell (a card that makes one of several counts for each)."""
    names = {c.name for c in getattr(game.cities[seat], "built", ())}
    if card.name in names:
        return f"you have built {card.name} already"
    return _why_cost(game, seat, card.name, card.cost, view, rich)


def why_not_stage(game: GameState, seat: int, view: dict[str, Any],
                  rich: dict[str, Any] | None = None) -> str | None:
    """Why ``seat`` cannot build its next wonder stage now (None: no stage left, or no
    card to build it with), in the words of :func:`why_not`."""
    stage = _next_stage(game, seat)
    if stage is None:
        return None
    return _why_cost(game, seat, STAGE_KEY, stage.cost, view, rich)


def why_not_wonder(game: GameState, seat: int, wonder: Wonder, view: dict[str, Any],
                   rich: dict[str, Any] | None = None) -> str:
    """Why ``seat`` cannot build its drafted ``wonder`` now, in the words of :func:`why_not`:
    the rule set's limit of wonders built in all reached, or what building it costs."""
    limit = int(getattr(getattr(game.data.rules.model, "wonders", None), "limit", 0) or 0)
    built = sum(len(getattr(city, "built_wonders", ())) for city in game.cities)
    if limit and built >= limit:
        return f"{_plural(built, 'wonder')} are built, the most the rules allow"
    return _why_cost(game, seat, WONDER_KEY + wonder.name, _wonder_cost(wonder), view, rich)


def _why_cost(game: GameState, seat: int, key: str, cost: fx.Cost, view: dict[str, Any],
              rich: dict[str, Any] | None) -> str:
    coins = int(getattr(game.cities[seat], "coins", 0))
    rich = rich_payments(game, seat) if rich is None else rich
    payment = rich.get(key)
    if payment is not None:
        parts = [f"{payment[where]} to the {where}" for where in ("left", "right", "bank")
                 if payment.get(where)]
        return (f"needs {_plural(sum(payment.values()), 'coin')} ({', '.join(parts)}); "
                f"you have {coins}")
    own = _own_supply(game, seat)
    blocking: list[str] = []   # resources the markets cannot make up
    for resource, need in cost.resources:
        made = own.get(resource, 0)
        if made >= need:
            continue
        sold = 0
        bank = False
        for market in (view.get("trade") or {}).values():
            if not isinstance(market, dict) or resource not in (market.get("prices") or {}):
                continue
            if "offers" in market:
                sold += sum(1 for unit in market["offers"] if resource in unit)
            else:
                bank = True
        if not bank and made + sold < need:
            made_words = f", you make {made}" if made else ""
            blocking.append(f"needs {need} {resource}{made_words}; "
                            f"your neighbours sell {sold}")
    if blocking:
        return " · ".join(blocking)
    if cost.resources:
        wanted = ", ".join(f"{n} {r}" for r, n in cost.resources)
        return f"your city and your neighbours cannot make {wanted} at once"
    return "not to be built now"


def _own_supply(game: GameState, seat: int) -> dict[str, int]:
    """Units of each resource the city could make this turn (a choice counted for each of
    its resources)."""
    params = getattr(game, "params", None)
    producing = getattr(game.cities[seat], "production", None)
    found: dict[str, int] = {}
    if params is None or producing is None:
        return found
    own = producing(params)[0]
    for resource, count in own.fixed:
        found[resource] = found.get(resource, 0) + count
    for choice in own.choices:
        for resource in choice:
            found[resource] = found.get(resource, 0) + 1
    return found


def symbols(game: GameState, seat: int) -> dict[str, Any]:
    """What a city's symbols show, counted (public: its built cards and board): the
    resources it makes (``fixed`` units, ``choices`` of one among several) and its science
    symbols alike.  Empty for a loop whose cities keep them otherwise."""
    city = game.cities[seat]
    found: dict[str, Any] = {}
    params = getattr(game, "params", None)
    producing = getattr(city, "production", None)
    if params is not None and producing is not None:
        own = producing(params)[0]
        fixed: dict[str, int] = {}
        for resource, count in own.fixed:
            fixed[resource] = fixed.get(resource, 0) + count
        found["produces"] = {"fixed": fixed, "choices": [list(c) for c in own.choices]}
    science = getattr(city, "science_symbols", None)
    if science is not None:
        marks, wild = science()
        found["science"] = {"fixed": dict(marks), "choices": [list(c) for c in wild]}
    return found


def _best(entries: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The indicator of the cheapest of some builds (chain, free, own, trade; cannot)."""
    best: dict[str, Any] | None = None
    for entry in entries:
        key = (_RANK[entry["mark"]], entry["trade"], entry["paid"])
        if best is None or key < best["_key"]:
            best = {"_key": key, **entry}
    if best is None:
        return {"mark": CANNOT_MARK}
    found: dict[str, Any] = {"mark": best["mark"], "trade": best["trade"], "paid": best["paid"]}
    for field in ("chain", "free"):
        if best.get(field):
            found[field] = best[field]
    return found


def indicator(game: GameState, seat: int, builds: Sequence[Action]) -> dict[str, Any]:
    """The indicator of the cheapest of ``builds`` (builds of one card, or of the next wonder
    stage): ``mark`` (chain, free, own, trade; cannot when there are none) and the coins
    paid for trade.  The web table and the terminal show the same one."""
    return _best(describe_action(game, seat, i, a) for i, a in enumerate(builds))


def actions_for(game: GameState, seat: int) -> dict[str, Any]:
    """Every legal action of ``seat``, described, with the indicators of what it may build:
    ``cards`` (per card name offered: its indicator and its actions), ``stage`` (the
    next wonder stage), ``wonders`` (per wonder that can be built with a card), and
    ``other`` (actions with no card: a side, a token, a starter …)."""
    actions = game.legal_actions(seat)
    moves = [a for a in actions if isinstance(a, Move)]
    if moves and len(moves) == len(actions):   # a flow game's moves
        return moves_for(game, seat, moves)
    view: dict[str, Any] | None = game.view(seat) if moves else None
    described = [describe_action(game, seat, i, a, view) for i, a in enumerate(actions)]
    cards: dict[str, dict[str, Any]] = {}
    stage_builds: list[dict[str, Any]] = []
    wonder_builds: dict[str, list[dict[str, Any]]] = {}
    other: list[dict[str, Any]] = []
    for action, entry in zip(actions, described):
        card = getattr(action, "card", None)
        if isinstance(action, BuildStage):
            stage_builds.append(entry)
        if isinstance(action, BuildWonder):
            wonder_builds.setdefault(action.wonder.name, []).append(entry)
        if isinstance(card, Card):
            slot = cards.setdefault(card.name, {"card": card.name, "age": card.age,
                                                "actions": []})
            slot["actions"].append(entry["index"])
        else:
            other.append(entry)
    for entry in list(other):   # a move naming a card offered (a held token prepared with
        name = entry.get("card")   # it): in that card's tray, beside build, sell, wonder
        if isinstance(name, str) and name in cards and entry.get("held") is not None:
            cards[name]["actions"].append(entry["index"])
            other.remove(entry)
    rich: dict[str, Any] | None = None
    for _name, slot in cards.items():
        kinds = {described[i]["kind"] for i in slot["actions"]}
        # a card one may build, or play otherwise (sell it, build a stage with it), shows
        # whether it can be built now; a card offered only to destroy, copy or keep shows none
        if kinds & {"build", "discard_build", "sell", "stage", "wonder"}:
            slot["indicator"] = _best(described[i] for i in slot["actions"]
                                      if described[i]["kind"] in ("build", "discard_build"))
            card = getattr(actions[slot["actions"][0]], "card", None)
            if slot["indicator"]["mark"] == CANNOT_MARK and isinstance(card, Card):
                view = game.view(seat) if view is None else view
                rich = rich_payments(game, seat) if rich is None else rich
                slot["indicator"]["why"] = why_not(game, seat, card, view, rich)
        slot["stage"] = _best(described[i] for i in slot["actions"]
                              if described[i]["kind"] == "stage")
    found: dict[str, Any] = {"actions": described, "cards": cards,
                             "other": [e["index"] for e in other]}
    if stage_builds or _next_stage(game, seat) is not None:
        found["stage"] = _best(stage_builds)
        if found["stage"]["mark"] == CANNOT_MARK and cards:   # (no card: nothing to say)
            view = game.view(seat) if view is None else view
            why = why_not_stage(game, seat, view, rich)
            if why:
                found["stage"]["why"] = why
        nxt = _next_stage(game, seat)
        if nxt is not None:
            found["stage"]["cost"] = describe.cost(nxt.cost)
            found["stage"]["effect"] = describe.effects(nxt.effects)
    on_turn = bool(cards) and game.decision().kind == "turn"
    unbuilt = getattr(game.cities[seat], "wonders", ()) if on_turn else ()
    if wonder_builds or unbuilt:
        found["wonders"] = {name: _best(entries) for name, entries in wonder_builds.items()}
        for wonder in unbuilt:   # a drafted wonder no action builds: a red cross that says why
            if wonder.name not in found["wonders"]:
                view = game.view(seat) if view is None else view
                rich = rich_payments(game, seat) if rich is None else rich
                found["wonders"][wonder.name] = {
                    "mark": CANNOT_MARK, "why": why_not_wonder(game, seat, wonder, view, rich)}
    return found


def production(game: GameState, seat: int) -> list[str]:
    """What the city produces, in words: each ongoing ``produce`` clause of its sources."""
    city = game.cities[seat]
    found: list[str] = []
    sources = getattr(city, "sources", None)   # a loop's cities may keep effects otherwise
    if sources is None:
        return found
    for _kind, _what, effects in sources():
        for clause in effects.clauses:
            if clause.timing is fx.Timing.ONGOING and isinstance(clause.effect, fx.Produce):
                found.append(describe.effect(clause.effect))
    return found


# --- a decks game (a flow game of moves): its components and its moves in words ------------

_RULE_WORDS = {"different": "different resources", "same": "of one resource",
               "any": "resources of any kind"}


def _piece(piece: Piece) -> dict[str, Any]:
    """A Wonder piece for people: its cost, points, what it rests on and what it does."""
    effects = []
    if piece.shields:
        effects.append(f"{piece.shields} shield{'s' if piece.shields > 1 else ''}")
    if piece.progress:
        effects.append(f"take {piece.progress} progress token"
                       f"{'s' if piece.progress > 1 else ''}")
    if piece.take is not None:
        effects.append(describe_take(piece.take))
    return {"count": piece.count, "rule": piece.rule, "points": piece.points,
            "cost": f"{piece.count} {_RULE_WORDS.get(piece.rule, piece.rule)}",
            "rests_on": list(piece.rests_on), "effect": "; ".join(effects),
            "words": describe_piece(piece)}


def components(found: Components) -> dict[str, Any]:
    """A decks game's components for people (JSON-ready): every card kind (its colour and
    what a card of it shows, in words), every deck, every Wonder's pieces (cost, points,
    the pieces each rests on, its effect) and every progress token (what it does).  A view
    names kinds, Wonders and tokens by name; the page looks them up here."""
    kinds = {kind.name: {"colour": kind.colour, "words": describe_kind(kind),
                         "resource": kind.resource, "coins": kind.coins,
                         "points": kind.points, "cat": kind.cat, "science": kind.science,
                         "shields": kind.shields, "horns": kind.horns}
             for kind in found.kinds}
    return {
        "kinds": kinds,
        "decks": [{"name": deck.name, "face_up": deck.face_up, "cards": len(deck.cards)}
                  for deck in found.decks],
        "wonders": {wonder.name: {"deck": found.decks[wonder.deck].name,
                                  "pieces": [_piece(p) for p in wonder.pieces]}
                    for wonder in found.wonders},
        "progress": {token.name: {"words": describe_progress(token), "copies": token.copies}
                     for token in found.progress},
    }


def _deck_of(game: GameState, seat: int, place: str) -> int | None:
    """The slot of the deck a take names (where it lies from ``seat``, or its name)."""
    from wonders.engine.mechanisms.decks import slot_of

    try:
        return slot_of(game, seat, place)  # type: ignore[arg-type]
    except (AttributeError, ValueError, IndexError):
        return None


def _cards(names: Sequence[str]) -> str:
    """Cards named in a move, counted: 'wood, stone, coin ×2'."""
    counted: dict[str, int] = {}
    for name in names:
        counted[name] = counted.get(name, 0) + 1
    return ", ".join(f"{n} ×{c}" if c > 1 else n for n, c in counted.items())


def describe_move(game: GameState, seat: int, view: dict[str, Any], index: int,
                  move: Move, parts: dict[str, Any] | None = None) -> dict[str, Any]:
    """One move of a flow game for the page: what to send back, and words that say what it
    takes, builds or pays, from what ``seat`` may see (``view``, its own): a deck's top
    only when it is face up to the seat; what a piece or a token gives."""
    words = list(move.words)
    entry: dict[str, Any] = {"index": index, "json": move.to_json(), "kind": move.verb,
                             "words": words, "text": str(move), "paid": 0, "trade": 0}
    decks = view.get("decks") or []
    seats = view.get("seats") or []
    catalogue = parts if parts is not None else (
        components(game.data.components) if game.data.components else None)
    if move.verb == "take" and len(words) == 1:
        slot = _deck_of(game, seat, words[0])
        deck = decks[slot] if slot is not None and 0 <= slot < len(decks) else None
        if deck is not None:
            entry["deck"] = slot
            where = words[0] if words[0] in ("left", "right") else None
            name = f"the {deck['name']} deck" + (f" on your {where}" if where else "")
            size = f"{deck['cards']} card{'s' if deck['cards'] != 1 else ''}"
            top = deck.get("top")
            if top is not None:
                entry["card"] = top
                seen = "" if deck.get("face_up") else ", a face-down deck: you see its top"
                entry["text"] = f"take {top} from {name} ({size}{seen})"
            else:
                entry["text"] = f"take the face-down top card of {name} ({size})"
    elif move.verb == "keep" and words and "held" not in view:
        entry["card"] = words[0]
        entry["text"] = f"keep {words[0]} (the other cards go back, shuffled)"
    elif move.verb == "build" and len(words) >= 2 and words[0].isdigit() and words[1] == "pay":
        number = int(words[0])
        entry["piece"] = number - 1
        entry["spend"] = words[2:]
        mine = seats[seat] if 0 <= seat < len(seats) else {}
        wonder = (catalogue or {}).get("wonders", {}).get(mine.get("wonder"), {})
        pieces = wonder.get("pieces", [])
        piece = pieces[number - 1] if 0 < number <= len(pieces) else None
        gives = ""
        if piece is not None:
            gives = f" ({piece['points']} points" + (f"; {piece['effect']}" if piece["effect"]
                                                     else "") + ")"
        entry["text"] = (f"build piece {number}{gives}, paying {_cards(words[2:])}"
                         if words[2:] else f"build piece {number}{gives}")
    elif move.verb == "progress" and words:
        token = words[0]
        spend = words[2:] if len(words) > 1 and words[1] == "with" else []
        entry["spend"] = spend
        tokens = (catalogue or {}).get("progress", {})
        if token in tokens:
            entry["token"] = token
            entry["text"] = f"take {token} ({tokens[token]['words']})"
        else:
            entry["token"] = None
            entry["text"] = f"take the top token of the face-down {token}"
        if spend:
            entry["text"] += f", discarding {_cards(spend)}"
    elif move.verb == "decline":
        entry["text"] = "take no more card"
    else:
        board_move(game, seat, view, move, entry)
    return entry


def _space_of(view: dict[str, Any], item: str) -> dict[str, Any] | None:
    """The space of a priced row (the view's ``row``) on which ``item`` lies face up."""
    for space in view.get("row") or []:
        if isinstance(space, dict) and space.get("item") == item:
            return space
    return None


def _number(word: str) -> int | None:
    try:
        return int(word)
    except ValueError:
        return None


def _structure_place(view: dict[str, Any], words: list[str],
                     entry: dict[str, Any]) -> tuple[int | None, int | None, str]:
    """The structure place a move names (``row R card C …``), marked on ``entry``, and
    the card lying there as the seat sees it."""
    row, card = _number(words[1]), _number(words[3])
    entry["place"] = [row, card]
    rows = view.get("structure") or []
    found = (rows[row - 1][card - 1] if row is not None and card is not None
             and 0 < row <= len(rows) and 0 < card <= len(rows[row - 1]) else None)
    name = found.get("card") if isinstance(found, dict) else None
    return row, card, str(name) if name else "the face-down card"


def board_move(game: GameState, seat: int, view: dict[str, Any], move: Move,
               entry: dict[str, Any]) -> None:
    """Words for a move that acts on the table beside a card structure, and where on the
    table it acts, so a page can offer it there: a priced row's activation (``item``, its
    ``space``, the coins ``paid``, the tokens it ``spend``s) or placement (``item``,
    ``space``), a stack looked through (``stack``); a card or wonder moved between cities
    (``card``, ``wonder``, the ``target`` seat), a structure place (``place``: row and card,
    1-based), a conflict track's space (``track``) or military token (``military``: the
    zone's start and the side's seat).  Another move keeps its notation."""
    words = list(move.words)
    verb = move.verb
    n = len(words)
    if _senate_move(game, seat, view, move, entry):
        return
    if verb == priced_row.ACTIVATE_VERB and n >= 2:
        item = words[0]
        entry["item"] = item
        space = _space_of(view, item)
        if space is not None:
            entry["space"] = space["space"]
        where = f" on space {space['space']}" if space is not None else ""
        if words[1] == "free":
            entry["text"] = f"activate {item} free"
            return
        paid = _number(words[2]) if n >= 3 and words[1] == "pay" else None
        spend = words[4:] if n > 4 and words[3] == "with" else []
        entry["spend"] = spend
        if paid is not None:
            entry["paid"] = paid
            entry["text"] = (f"activate {item}{where} for {_plural(paid, 'coin')}"
                             + (f", spending {', '.join(spend)}" if spend else ""))
    elif verb == priced_row.PLACE_VERB and n == 4 and words[1:3] == ["on", "space"]:
        entry["item"] = words[0]
        entry["space"] = _number(words[3])
        entry["text"] = f"place {words[0]} face down on space {words[3]}"
    elif verb == priced_row.STACK_VERB and n == 1:
        entry["stack"] = words[0]
        size = (view.get("stacks") or {}).get(words[0])
        entry["text"] = (f"look through the {words[0]} stack"
                         + (f" ({_plural(int(size), 'item')})" if isinstance(size, int) else "")
                         + " and activate one of them free")
    elif n == 4 and words[1:3] == ["of", "player"] and verb in ("take", "unbuild"):
        target = _number(words[3])
        entry["target"] = target
        wonder = any(w.name == words[0] for w in game.data.wonders)
        entry["wonder" if wonder else "card"] = words[0]
        if verb == "take":
            entry["text"] = f"take {words[0]} from seat {target}'s city"
        else:
            entry["text"] = (f"unbuild {words[0]} of seat {target} (its card goes to the "
                             "discard pile)")
    elif n == 6 and words[1] == "of" and words[3:5] == ["of", "player"] and verb == "copy":
        target = _number(words[5])
        entry["target"], entry["card"] = target, words[2]
        entry["text"] = (f"make the {words[0]} symbol of seat {target}'s {words[2]} yours "
                         "too")
    elif verb == "wonder" and n == 4 and words[1] == "with" and words[3] == "free":
        entry["wonder"], entry["card"] = words[0], words[2]
        entry["text"] = f"build {words[0]} free with {words[2]} from the discard pile"
    elif n == 4 and words[0] == "row" and words[2] == "card":
        row, card, name = _structure_place(view, words, entry)
        entry["text"] = f"{verb} {name} (row {row}, card {card} of the structure)"
    elif verb == "build" and n == 5 and words[0] == "row" and words[4] == "free":
        row, card, name = _structure_place(view, words, entry)   # (a card built free)
        entry["text"] = f"build {name} free (row {row}, card {card} of the structure)"
    elif verb == "build" and n == 3 and words[1:] == ["from", "removed"]:
        entry["card"] = words[0]
        entry["text"] = f"build {words[0]} free, from the cards removed at set-up"
    elif verb == "remove" and n == 3 and words[1] == "from":
        entry["token"] = words[0]
        entry["text"] = f"put {words[0]} of the {words[2]} out of the game"
    elif verb == "remove" and n == 4 and words[1:3] == ["of", "player"]:
        target = _number(words[3])
        entry["token"], entry["target"] = words[0], target
        entry["text"] = f"put seat {target}'s {words[0]} out of the game (its effects stop)"
    elif verb == "swap" and n == 6 and words[1:3] == ["of", "player"] and words[4] == "for":
        target = _number(words[3])
        entry["card"], entry["target"], entry["give"] = words[0], target, words[5]
        entry["text"] = f"take {words[0]} from seat {target}'s city and give them {words[5]}"
    elif n == 2 and words[0] == "space" and "conflict" in view:
        at = _number(words[1])
        entry["track"] = at
        toward = ("the middle" if not at else
                  f"{_plural(abs(at), 'space')} towards seat {1 if at > 0 else 0}'s capital")
        entry["text"] = f"{verb} space {words[1]} of the conflict track ({toward})"
    elif n == 6 and words[:2] == ["military", "token"] and words[3:5] == ["of", "player"]:
        start, side = _number(words[2]), _number(words[5])
        entry["military"] = [start, side]
        zones = game.data.rules.model.military.track.zones
        lose = next((z.lose for z in zones if z.start == start), 0)
        what = f"the military token at {start} on seat {side}'s side"
        entry["text"] = (f"{verb} {what}: seat {side} loses {_plural(lose, 'coin')}"
                         if verb == "use" else f"{verb} {what}, without its effect")


def _token_words(game: GameState, name: str) -> str:
    """What a token of the data does, in the catalogue's words ("" for none so named)."""
    for token in game.data.tokens:
        if token.name == name:
            return describe.effects(token.effects, now="at once")
    return ""


def _chamber_words(board: dict[str, Any], number: int | None) -> str:
    """A chamber named for people: "chamber 3 (middle)"."""
    sections = board.get("sections") or {}
    section = next((name for name, chambers in sections.items()
                    if isinstance(chambers, list) and number in chambers), None)
    return f"chamber {number}" + (f" ({str(section).replace('_', ' ')})" if section else "")


def _senate_move(game: GameState, seat: int, view: dict[str, Any], move: Move,
                 entry: dict[str, Any]) -> bool:
    """Words for a move on a board of chambers (the view's ``chambers``), on held tokens
    (``held``) or between two effects (``either``), and where it acts: a cube placed in,
    removed from or moved between chambers, a chamber's token moved under another's
    (``chamber``, and ``to`` for the second chamber); a drawn token kept, the other put back
    on the stack, a prepared one triggered, one prepared with a taken card (``held``: the
    token, ``card``); one of two effects chosen (``choice``: 1 or 2).  False: none of these."""
    words = list(move.words)
    verb = move.verb
    n = len(words)
    board = view.get(chambers.NAME)
    held_view = view.get(held.NAME)
    either_view = view.get(either.NAME)
    decision = game.decision().kind
    if isinstance(board, dict) and verb in ("place", "remove") and n == 1 \
            and words[0].isdigit():
        number = int(words[0])
        entry["chamber"] = number
        rooms = board.get("chambers") or []
        room = rooms[number - 1] if 0 < number <= len(rooms) else {}
        kind = str(board.get("kind") or "token").replace("_", " ")
        where = _chamber_words(board, number)
        if verb == "place":
            supply = board.get("supply") or []
            left = supply[seat] if 0 <= seat < len(supply) else None
            turns = f"; its face-down {kind} turns face up" if room.get("face_up") is False else ""
            entry["text"] = (f"place a cube in {where}{turns}"
                             + (f" ({_plural(int(left) - 1, 'cube')} left after)"
                                if isinstance(left, int) else ""))
        else:
            entry["text"] = f"remove a cube of your opponent's from {where}"
        return True
    if isinstance(board, dict) and verb in ("move", "decree") and n == 2 and all(
            w.isdigit() for w in words):
        a, b = int(words[0]), int(words[1])
        entry["chamber"], entry["to"] = a, b
        if verb == "move":
            entry["text"] = (f"move a cube of yours from {_chamber_words(board, a)} to "
                             f"{_chamber_words(board, b)}")
        else:
            kind = str(board.get("kind") or "token").replace("_", " ")
            rooms = board.get("chambers") or []
            on = (rooms[a - 1].get("decrees") if 0 < a <= len(rooms) else None) or []
            name = f"{kind} {on[0]}" if on and kind.lower() not in str(on[0]).lower() else (
                str(on[0]) if on else f"face-down {kind}")
            entry["text"] = (f"move {_chamber_words(board, a)}'s {name} under "
                             f"{_chamber_words(board, b)}'s")
        return True
    if isinstance(held_view, dict):
        kind = str(held_view.get("kind") or "token").replace("_", " ")
        if verb == held.KEEP and n == 1:
            entry["held"] = words[0]
            what = _token_words(game, words[0])
            entry["text"] = f"keep {words[0]}" + (f" ({what})" if what else "")
            return True
        if verb == held.RETURN and n == 1 and words[0] in ("top", "bottom"):
            drawn = held_view.get("drawn")
            other = (f"{drawn[0]}" if isinstance(drawn, list) and len(drawn) == 1
                     else f"the other {kind}")
            entry["text"] = (f"put {other} on the {words[0]} of the {kind} stack"
                             + (" (drawn next)" if words[0] == "top" else ""))
            return True
        if verb == held.TRIGGER and n == 1:
            entry["held"] = words[0]
            what = _token_words(game, words[0])
            entry["text"] = f"trigger {words[0]}" + (f": {what}" if what else "")
            return True
        if verb == held.PREPARE and n == 2:
            entry["held"], entry["card"] = words[0], words[1]
            entry["text"] = (f"prepare {words[0]} with {words[1]} (the card is tucked under "
                             f"the {kind}, at no cost)")
            return True
        if verb == "skip" and decision == held.TRIGGER:
            entry["text"] = f"trigger no {kind} this turn"
            return True
    if isinstance(either_view, dict) and verb == either.CHOOSE and n == 1 \
            and words[0] in ("1", "2"):
        choices = either_view.get("choices") or []
        number = int(words[0])
        entry["choice"] = number
        if number <= len(choices):
            entry["text"] = f"choose: {choices[number - 1]}"
        return True
    if isinstance(board, dict) and verb == "skip" and decision == chambers.INFLUENCE:
        entry["text"] = "skip (leave the cubes as they are)"
        return True
    return False


def moves_for(game: GameState, seat: int, actions: Sequence[Move]) -> dict[str, Any]:
    """Every legal move of ``seat`` in a flow game, described (:func:`describe_move`), in
    the shape :func:`actions_for` gives: no card to tap, every move a choice."""
    view = game.view(seat)
    parts = components(game.data.components) if game.data.components else None
    described = [describe_move(game, seat, view, i, a, parts) for i, a in enumerate(actions)]
    return {"actions": described, "cards": {}, "other": [e["index"] for e in described],
            "moves": True}


__all__ = ["CANNOT_MARK", "CHAIN_MARK", "FREE_MARK", "OWN_MARK", "TRADE_MARK", "action_text",
           "actions_for", "board_move", "bonus_label", "building_name", "catalogue", "components",
           "describe_action", "describe_move", "die_label", "effect_symbols", "indicator",
           "moves_for", "production", "public_view", "rich_payments", "sell_gain", "sheets",
           "symbol_drawings", "symbols", "victories", "why_not", "why_not_stage",
           "why_not_wonder"]
