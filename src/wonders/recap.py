"""What a decision did, in words, for people: the turn recap of a front-end.

A recap is made from the game itself, through the contract: the actions the
seats played, each city's coins, built cards, wonder stages and tokens before and
after, and the public view before and after (the conflict pawn, the cards a
structure turned face up).  It holds

* ``moves``: one line per seat that decided — what it built, sold, kept, took,
  destroyed or chose, with the coins it paid and to whom.  A line has a public
  wording and, when the action names a card nobody else saw (a card sold or used
  for a wonder stage from a hidden hand, a card kept in a draft), a private one
  only its seat is shown;
* ``coins``: every city whose coins changed (before → after);
* ``battles``: the end-of-age battles, one line per pair of neighbours (a tie
  shown as a tie), then the tokens each city received — apart from the turn's
  builds;
* ``table``: what happened to the table (cards turned face up, the conflict pawn
  moving, an age beginning, the game ending).

:func:`for_seat` gives the recap one seat (or a spectator) may see.  Nothing here
names a game: which actions exist comes from their ``to_json`` kinds, which facts
are hidden from the public view.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence, cast

from wonders.engine.contract import AnyAction, GameState
from wonders.engine.flow_actions import Move
from wonders.engine.table import left_of, right_of


@dataclass(frozen=True)
class Before:
    """What a recap compares with: the game just before a decision was played."""

    kind: str
    age: int
    coins: tuple[int, ...]
    built: tuple[int, ...]
    stages: tuple[int, ...]
    tokens: tuple[int, ...]
    public: dict[str, Any]
    # a game of moves (a flow game): the deciding seats' own views (what only they saw,
    # so a move naming it is worded for the others without it) and the battles fought
    views: dict[int, dict[str, Any]] = field(default_factory=dict)
    battles: int = 0


def before(game: GameState, public: dict[str, Any]) -> Before:
    """The facts of ``game`` a recap of its next decision needs (``public``: its public
    view now)."""
    cities = game.cities
    views = ({s: game.view(s) for s in game.to_move()} if _offers_moves(game) else {})
    return Before(game.decision().kind, game.age, tuple(c.coins for c in cities),
                  tuple(len(c.built) for c in cities),
                  tuple(int(getattr(c, "stages", 0)) for c in cities),
                  tuple(len(getattr(c, "tokens", ())) for c in cities), public, views,
                  len(getattr(game, "battles", ())))


def _offers_moves(game: GameState) -> bool:
    """Whether the open decision offers a flow game's moves (verb and words), alone or
    beside a turn's cards (a held token prepared with a card: its name only its seat saw)."""
    seats = game.to_move()
    actions = game.legal_actions(seats[0]) if seats else ()
    return any(isinstance(a, Move) for a in actions)


def _strings(value: Any, into: set[str]) -> set[str]:
    """Every string in a JSON value (what a view shows)."""
    if isinstance(value, str):
        into.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            _strings(item, into)
    elif isinstance(value, list):
        for item in value:
            _strings(item, into)
    return into


def _coins(n: int) -> str:
    return f"{n} coin{'' if n == 1 else 's'}"


def _shields(n: int) -> str:
    return f"{n} shield{'' if n == 1 else 's'}"


def _received(game: GameState, seat: int, actions: Mapping[int, AnyAction]) -> int:
    """Coins ``seat`` received this decision from the other movers' trade payments."""
    found = 0
    for other, action in actions.items():
        payment = action.to_json().get("payment")
        if other == seat or not isinstance(payment, dict):
            continue
        if left_of(other, game.players) == seat:
            found += int(payment.get("left", 0))
        if right_of(other, game.players) == seat:
            found += int(payment.get("right", 0))
    return found


def _paid(game: GameState, seat: int, record: dict[str, Any]) -> str:
    """" for 3 coins (2 to seat 1, 1 to the bank)", " for free", or "" (nothing to pay)."""
    payment = record.get("payment")
    if not isinstance(payment, dict):
        return ""
    method = record.get("method")
    if method == "chain":
        return " free by chain"
    if method == "free_build":
        return " free (a power)"
    players = game.players
    to = [(int(payment.get("left", 0)), f"seat {left_of(seat, players)}"),
          (int(payment.get("right", 0)), f"seat {right_of(seat, players)}"),
          (int(payment.get("bank", 0)), "the bank")]
    total = sum(n for n, _ in to)
    if not total:
        return " for free"
    parts = [f"{n} to {who}" for n, who in to if n]
    return f" for {_coins(total)}" + (f" ({', '.join(parts)})" if len(parts) > 1
                                      or not parts[0].endswith("the bank") else "")


# An action's kind (its ``to_json()["action"]``) in words when its card stays hidden.
_HIDDEN_WORDS = {"sell": "sold a card", "stage": "built a wonder stage",
                 "keep": "kept a card", "wonder": "built a wonder"}


def _words(game: GameState, seat: int, action: AnyAction, gained: int,
           describe: Callable[[AnyAction], str]) -> str:
    """The whole move in words (third person, after ``seat N``)."""
    record = action.to_json()
    kind = record.get("action")
    card = record.get("card")
    how = _paid(game, seat, record)
    if kind in ("build", "stage", "wonder", "sell", "discard_build", "keep", "copy", "destroy") \
            and not isinstance(card, str):
        return f"played: {describe(action)}"   # a kind of the same name without a card
    if kind == "wonder" and not isinstance(record.get("wonder"), str):
        return f"played: {describe(action)}"
    if kind == "build":
        return f"built {card}{how}"
    if kind == "stage":
        return f"built a wonder stage with {card}{how}"
    if kind == "wonder":
        return f"built {record.get('wonder')} with {card}{how}"
    if kind == "sell":
        return f"sold {card}" + (f" for {_coins(gained)}" if gained > 0 else "")
    if kind == "discard_build":
        return f"built {card} from the discard pile, for free"
    if kind == "keep":
        return f"kept {card}"
    if kind == "copy":
        return f"copied {card}"
    if kind == "destroy":
        owner = record.get("seat")
        return f"destroyed {card}" + (f" of seat {owner}" if isinstance(owner, int) else "")
    if kind == "take_token":
        return f"took the {record.get('token')} token"
    if kind == "choose_wonder":
        return f"took {record.get('wonder')}"
    if kind == "starter":
        return f"chose seat {record.get('seat')} to start the age"
    if kind == "side":
        return f"chose side {record.get('side')}"
    if kind == "skip":
        return "took nothing"
    return f"played: {describe(action)}"


def _hidden_words(game: GameState, seat: int, action: AnyAction, gained: int) -> str:
    record = action.to_json()
    kind = str(record.get("action"))
    words = _HIDDEN_WORDS.get(kind, "chose")
    if kind == "sell" and gained > 0:
        words += f" for {_coins(gained)}"
    return words + _paid(game, seat, record)


def _battles(game: GameState, was: Before) -> list[str]:
    """The end-of-age battles of neighbours, when an age of cards ended: who beat whom (a
    tie as a tie, so an age of ties all round is still told), then the tokens each city
    received."""
    cities = game.cities
    gained = [list(getattr(c, "tokens", ()))[was.tokens[s]:] for s, c in enumerate(cities)]
    # (age 0 is the set-up: sides chosen, leaders drafted; no battle ends it)
    age_ended = was.age >= 1 and (game.age != was.age or game.over)
    if not (age_ended or any(gained)) or game.data.rules.model.military.mechanism != "battles":
        return []
    from wonders.engine.mechanisms.battles import battle_shields

    shields = battle_shields(cities)   # the shields the battles compared
    players = game.players
    lines = []
    pairs = {tuple(sorted((s, left_of(s, players)))) for s in range(players)}
    for a, b in sorted(pairs):
        if a == b:
            continue
        if shields[a] == shields[b]:
            lines.append(f"seat {a} and seat {b} tie ({_shields(shields[a])} each): "
                         "no token")
        else:
            win, lose = (a, b) if shields[a] > shields[b] else (b, a)
            lines.append(f"seat {win} ({_shields(shields[win])}) beats seat {lose} "
                         f"({_shields(shields[lose])})")
    for seat, tokens in enumerate(gained):
        if tokens:
            lines.append(f"seat {seat} receives " + ", ".join(
                f"{kind} {points:+d}" if kind != "victory" else f"{kind} {points}"
                for kind, points in tokens))
    return lines


def _revealed(was: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """Cards of a structure that turned face up (the same places, once hidden)."""
    old, new = was.get("structure"), now.get("structure")
    if not isinstance(old, list) or not isinstance(new, list) or len(old) != len(new):
        return []
    found = []
    for old_row, new_row in zip(old, new):
        for o, n in zip(old_row, new_row):
            if o and n and o.get("card") is None and n.get("card") is not None:
                found.append(str(n["card"]))
    return found


def _tokens(conflict: Any) -> dict[str, Any]:
    """The conflict tokens of a view (none for a view whose conflict is a track's pawn)."""
    return conflict if isinstance(conflict, dict) else {}


def make(game: GameState, was: Before, actions: Mapping[int, AnyAction],
         public: dict[str, Any], decision: int,
         describe: Callable[[AnyAction], str] = str) -> dict[str, Any]:
    """The recap (JSON-ready) of decision number ``decision``: ``game`` just after it,
    ``was`` just before, ``actions`` what each seat played, ``public`` the public view
    now.  ``describe`` words an action no kind here covers (a front-end's words)."""
    if actions and all(isinstance(a, Move) for a in actions.values()):
        return _make_moves(game, was, actions, public, decision)
    # the card names everyone sees outside the cities (a structure's face-up cards, a
    # discard pile laid face up): a card played from such a place is public; one from a
    # hidden hand is not, even when a city shows another copy of it
    seen = (_strings({k: v for k, v in was.public.items() if k != "cities"}, set())
            | _strings({k: v for k, v in public.items() if k != "cities"}, set()))
    cities = game.cities
    moves = []
    for seat, action in sorted(actions.items()):
        record = action.to_json()
        # what the move itself brought (a sale's coins), not what neighbours paid it
        gained = cities[seat].coins - was.coins[seat] - _received(game, seat, actions)
        words = _words(game, seat, action, gained, describe)
        card = record.get("card")
        # built, built from the discard pile, copied or destroyed: the card is in a city
        # for all to see (or was); sold, kept or tucked under a wonder: only if it was seen
        hidden = (isinstance(card, str) and card not in seen
                  and record.get("action") in _HIDDEN_WORDS)
        move: dict[str, Any] = {"seat": seat, "kind": record.get("action")}
        if hidden:
            move["public"] = _hidden_words(game, seat, action, gained)
            move["private"] = words
        else:
            move["public"] = words
        moves.append(move)
    coins = [{"seat": s, "from": was.coins[s], "to": c.coins}
             for s, c in enumerate(cities) if c.coins != was.coins[s]]
    table: list[str] = []
    revealed = _revealed(was.public, public)
    if revealed:
        table.append("turned face up: " + ", ".join(revealed))
    if public.get("conflict") != was.public.get("conflict") and "conflict" in public:
        table.append(f"the conflict pawn moves from {was.public.get('conflict')} to "
                     f"{public['conflict']}")
    if game.age != was.age and not game.over:
        table.append(f"age {game.age} begins")
    if game.over:
        sheet = game.score_sheet()
        table.append("game over: " + ", ".join(f"seat {s}" for s in sheet.winners) + " won")
    found = {"decision": decision, "kind": was.kind, "age": was.age, "moves": moves,
             "coins": coins, "battles": _battles(game, was), "table": table}
    if found["battles"]:
        found["military"] = _military(game, was)
    return found


def _military(game: GameState, was: Before) -> dict[str, Any]:
    """The end-of-age battles as numbers for a page's summary: per pair of neighbours the
    seats, the shields compared and the winner (None: a tie); per seat the tokens won."""
    from wonders.engine.mechanisms.battles import battle_shields

    cities = game.cities
    shields = battle_shields(cities)
    players = game.players
    pairs = sorted({tuple(sorted((s, left_of(s, players)))) for s in range(players)})
    return {
        "pairs": [{"seats": [a, b], "shields": [int(shields[a]), int(shields[b])],
                   "winner": None if shields[a] == shields[b]
                   else (a if shields[a] > shields[b] else b)}
                  for a, b in pairs if a != b],
        "tokens": [[[kind, points] for kind, points in list(getattr(c, "tokens", ()))[
            was.tokens[s]:]] for s, c in enumerate(cities)]}


# --- a game of moves (a flow game): what changed in the public view, per seat -------------

def _counted(names: Mapping[str, int]) -> str:
    return ", ".join(f"{n} ×{c}" if c > 1 else n for n, c in names.items())


def _more(after: Mapping[str, int], before: Mapping[str, int]) -> dict[str, int]:
    """What ``after`` has more of than ``before`` (counts by name)."""
    return {n: c - before.get(n, 0) for n, c in after.items() if c > before.get(n, 0)}


def _listed(names: Sequence[str]) -> dict[str, int]:
    counted: dict[str, int] = {}
    for name in names:
        counted[name] = counted.get(name, 0) + 1
    return counted


def _seat_of(view: dict[str, Any], seat: int) -> dict[str, Any]:
    seats = view.get("seats")
    return seats[seat] if isinstance(seats, list) and 0 <= seat < len(seats) else {}


def _changes(old: dict[str, Any], new: dict[str, Any], taken: Mapping[str, int],
             spent: Mapping[str, int], shrunk: Sequence[str]) -> list[str]:
    """What one seat took, built, discarded and won in a decision, from its public parts."""
    facts = []
    if taken:
        where = (" from the " + " and the ".join(shrunk) + " deck" + ("s" if len(shrunk) > 1
                                                                        else "")
                 if shrunk else "")
        facts.append(f"takes {_counted(taken)}{where}")
    built_before = old.get("built") or []
    for index, built in enumerate(new.get("built") or []):
        if built and not (index < len(built_before) and built_before[index]):
            facts.append(f"builds piece {index + 1} of {new.get('wonder')}")
    if spent:
        facts.append(f"discards {_counted(spent)}")
    tokens = _more(_listed(new.get("progress") or []), _listed(old.get("progress") or []))
    if tokens:
        facts.append(f"takes the progress token{'s' if sum(tokens.values()) > 1 else ''} "
                     f"{_counted(tokens)}")
    if new.get("cat") and not old.get("cat"):
        facts.append("takes the cat")
    return facts


def _names(value: Any, into: set[str]) -> set[str]:
    """Every string in a JSON value, keys included (a view counts cards by name)."""
    if isinstance(value, str):
        into.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str):
                into.add(key)
            _names(item, into)
    elif isinstance(value, list):
        for item in value:
            _names(item, into)
    return into


def _make_moves(game: GameState, was: Before, actions: Mapping[int, AnyAction],
                public: dict[str, Any], decision: int) -> dict[str, Any]:
    """The recap of a decision of a flow game, made from the public views before and after
    (nothing a seat could not see): each mover's move (its notation) and what it brought,
    the battle fought (victory tokens won, horned cards discarded) and what happened to the
    table (conflict tokens turned, progress tokens laid, decks emptied, the end)."""
    old, new = was.public, public
    shrunk = [str(b.get("name")) for a, b in zip(old.get("decks") or [], new.get("decks") or [])
              if int(b.get("cards", 0)) < int(a.get("cards", 0))]
    fought = len(getattr(game, "battles", ())) > was.battles
    data = getattr(game.data, "components", None)
    horned = {k.name for k in data.kinds if k.horns} if fought and data is not None else set()
    seen = _names(old, set()) | _names(new, set())
    players = len(new.get("seats") or [])
    moves = []
    # the cards each kind's count says went where: whatever a seat had fewer of went to the
    # discard pile (a payment, a set of symbols, a battle), so the mover's cards taken are
    # its gain plus what reached the pile beyond the others' losses (a card taken and lost
    # in the same turn's battle included)
    discarded = _more(_listed(new.get("discard") or []), _listed(old.get("discard") or []))
    in_battle: dict[int, dict[str, int]] = {}
    for seat, action in sorted(actions.items()):
        move = action if isinstance(action, Move) else None
        notation = str(action)
        before_cards = _seat_of(old, seat).get("cards") or {}
        after_cards = _seat_of(new, seat).get("cards") or {}
        others = {n: sum(int((_seat_of(old, s).get("cards") or {}).get(n, 0))
                         - int((_seat_of(new, s).get("cards") or {}).get(n, 0))
                         for s in range(players) if s != seat) for n in discarded}
        mine = {n: c - others[n] for n, c in discarded.items() if c - others[n] > 0}
        taken = {n: c for n in dict.fromkeys([*after_cards, *mine])
                 if (c := int(after_cards.get(n, 0)) - int(before_cards.get(n, 0))
                     + mine.get(n, 0)) > 0}
        spent = {n: c for n, c in mine.items() if n not in horned}
        in_battle[seat] = {n: c for n, c in mine.items() if n in horned}
        facts = _changes(_seat_of(old, seat), _seat_of(new, seat), taken, spent, shrunk)
        text = notation + (": " + "; ".join(facts) if facts else "")
        # a word of the move only this seat saw (a card looked at, and not taken): the others
        # are told the move without its words
        private = _names(was.views.get(seat, {}), set()) - seen
        entry: dict[str, Any] = {"seat": seat, "kind": move.verb if move else None}
        if move is not None and any(w in private for w in move.words):
            entry["public"] = f"{move.verb} (a choice only it saw)" + (
                ": " + "; ".join(facts) if facts else "")
            entry["private"] = text
        else:
            entry["public"] = text
        moves.append(entry)
    battles: list[str] = []
    if fought:
        shields = list(cast(Any, game).battles[-1])   # (a decks game keeps its battles)
        for seat in range(players):
            won = (int(_seat_of(new, seat).get("victories", 0))
                   - int(_seat_of(old, seat).get("victories", 0)))
            count = shields[seat] if seat < len(shields) else _seat_of(old, seat).get("shields")
            battles.append(f"seat {seat} ({_shields(int(count or 0))}) wins "
                           + (f"{won} victory token{'s' if won != 1 else ''}" if won > 0
                              else "nothing"))
        for seat in range(players):
            lost = _more(_seat_of(old, seat).get("cards") or {},
                         _seat_of(new, seat).get("cards") or {})
            gone = in_battle.get(seat, {n: c for n, c in lost.items() if n in horned})
            if gone:
                battles.append(f"seat {seat} discards {_counted(gone)}")
    table: list[str] = []
    # the conflict tokens (a mapping); a tug-of-war track's "conflict" is its pawn
    peace_old, peace_new = _tokens(old.get("conflict")), _tokens(new.get("conflict"))
    turned = int(peace_new.get("battle", 0)) - int(peace_old.get("battle", 0))
    if turned > 0:
        total = int(peace_new.get("battle", 0)) + int(peace_new.get("peace", 0))
        table.append(f"{turned} conflict token{'s' if turned > 1 else ''} turned to battle "
                     f"({peace_new.get('battle')} of {total})")
    if fought:
        table.append("a battle: the conflict tokens turn back to peace")
    laid = _more(_listed((new.get("progress") or {}).get("face_up") or []),
                 _listed((old.get("progress") or {}).get("face_up") or []))
    if laid:
        table.append(f"progress token{'s' if sum(laid.values()) > 1 else ''} laid face up: "
                     f"{_counted(laid)}")
    for a, b in zip(old.get("decks") or [], new.get("decks") or []):
        if int(a.get("cards", 0)) and not int(b.get("cards", 0)):
            table.append(f"the {b.get('name')} deck is empty")
    if game.over:
        sheet = game.score_sheet()
        table.append("game over: " + ", ".join(f"seat {s}" for s in sheet.winners) + " won")
    # a structure game's moves (a priced row's, a card moved between cities): its cities'
    # coins, as a turn's are (a decks game's seats hold none)
    coins = ([{"seat": s, "from": was.coins[s], "to": c.coins}
              for s, c in enumerate(game.cities) if c.coins != was.coins[s]]
             if "cities" in new and len(was.coins) == len(game.cities) else [])
    if new.get("conflict") != old.get("conflict") and isinstance(new.get("conflict"), int):
        table.insert(0, f"the conflict pawn moves from {old.get('conflict')} to "
                        f"{new['conflict']}")
    return {"decision": decision, "kind": was.kind, "age": was.age, "turn": old.get("turn"),
            "moves": moves, "coins": coins, "battles": battles, "table": table}


def for_seat(recap: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The recap as ``seat`` may see it (None: a spectator): each move's public words, or
    its private ones for the seat that played it."""
    moves = [{"seat": m["seat"], "kind": m.get("kind"),
              "text": m["private"] if seat == m["seat"] and "private" in m else m["public"]}
             for m in recap.get("moves", [])]
    return {**{k: v for k, v in recap.items() if k != "moves"}, "moves": moves}


def lines(recap: dict[str, Any]) -> Sequence[str]:
    """A recap seen by ``for_seat`` as plain lines (a log, a list of what happened)."""
    found = [f"seat {m['seat']} {m['text']}" for m in recap.get("moves", [])]
    if recap.get("battles"):
        when = (f"the battle of turn {recap['turn']}" if recap.get("turn") is not None
                else f"battles at the end of age {recap.get('age')}")
        found.append(f"{when}: " + "; ".join(recap["battles"]))
    found.extend(recap.get("table", []))
    return found


__all__ = ["Before", "before", "for_seat", "lines", "make"]
