"""The game contract, proved over every registered game: thousands of seeded random games.

Parametrised over every shipped game (and for a game of 3-7 players, its smallest,
middle and largest table), and written only against the contract
(:class:`~wonders.engine.contract.GameState`) and the registry's ``new_game``, so a
new game gets every test here by registering its loop.  Players choose uniformly
among the legal actions with a seeded generator: every game is a function of
(game, players, seed) and the suite is deterministic.

Invariants, after every decision:

* the decision: its seats are ``to_move()``; exactly those seats have legal actions;
  a missing seat, an extra seat or an action not offered is refused with the
  documented error and changes nothing;
* coins: the cities hold what they started with, plus what the bank gave, minus
  what it received; nobody is in debt;
* cards (:meth:`GameState.card_places`): within an age no card appears, vanishes
  or is duplicated; a new age only adds cards of that age, as many whatever the
  seed; every seat is told the same places;
* hidden information: ``view(seat)`` names no card beyond those in places the
  seat may see (as multisets: copies and repeated names count);
* the game ends within a bound; the score sheet's totals are the sums of its lines
  and its winners are the best by (outright win, points, tie-breaks).

And over whole games: same seed and actions give the same game; a clone is
independent of its original and plays on like it; a determinization keeps what its
seat sees, changes nothing in the original, re-deals only hidden cards (and can
deal them differently); a log replays identically.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any, Iterator

import pytest

from wonders.dsl.loader import load_game, shipped_games
from wonders.dsl.model import Card
from wonders.dsl.model import Game as GameData
from wonders.engine.actions import Action
from wonders.engine.contract import GameState
from wonders.engine.errors import IllegalActionError, RuleError
from wonders.engine.registry import new_game
from wonders.scenarios.log import replay, write

MAX_DECISIONS = 2000  # far above any real game (base 7 players: about 70)


@cache
def data(name: str) -> GameData:
    return load_game(game=name)


def player_counts(name: str) -> list[int]:
    rules = data(name).rules
    return sorted({rules.min_players, (rules.min_players + rules.max_players) // 2,
                   rules.max_players})


# The expansions that are variants of a shipped game (played by its loop, with what they
# add: Leaders' reserve draft and recruitment turns; Cities' debt choices and diplomacy),
# by the path of their rule set.
EXPANSIONS = {"leaders": str(Path(__file__).resolve().parents[1] / "expansions" / "leaders"),
              "cities": str(Path(__file__).resolve().parents[1] / "expansions" / "cities"),
              "pantheon": str(Path(__file__).resolve().parents[1] / "expansions" / "pantheon")}
# Leaders and Cities together (a rule set extending both, with the Cities box's leaders):
# what each adds is played at every table size above, so the pair plays one table, with a
# smaller budget of random games (its own tests play whole games at 3-7 players).
PAIR = str(Path(__file__).resolve().parents[1] / "expansions" / "leaders-cities")
# (an Architects game is several times as long as a base game's 30 decisions a player, and
# a decks table takes every seat's view at every decision: 60-240 games a table)
BUDGETS = {PAIR: 12_000, "architects": 12_000}
TABLES = [pytest.param(name, players, id=f"{name}-{players}")
          for name in shipped_games() for players in player_counts(name)] + [
    pytest.param(path, players, id=f"{name}-{players}")
    for name, path in EXPANSIONS.items() for players in player_counts(path)] + [
    pytest.param(PAIR, 5, id="leaders-cities-5")]


# --- reading a game through the contract ------------------------------------------------

def places(game: GameState, seat: int = 0) -> dict[str, tuple[bool, list[Card]]]:
    return game.card_places(seat)


def all_cards(game: GameState) -> Counter[int]:
    """Every card in the game as a multiset of card objects (copies are one object)."""
    return Counter(id(card) for _, cards in places(game).values() for card in cards)


def fingerprint(game: GameState) -> Any:
    """Everything observable through the contract, as plain values."""
    decision = game.decision()
    return (
        game.history, game.over, decision, game.to_move(), game.age, game.turn,
        [city.coins for city in game.cities], game.bank_gave, game.bank_paid,
        [game.view(seat) for seat in range(game.players)],
        [[str(a) for a in game.legal_actions(seat)] for seat in range(game.players)],
        {name: (seen, [c.name for c in cards]) for name, (seen, cards) in places(game).items()},
        game.score_sheet().to_json(),
    )


def names_in(value: Any, names: frozenset[str]) -> Iterator[str]:
    """Every string of a JSON-ready value that is a card name."""
    if isinstance(value, str):
        if value in names:
            yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from names_in(key, names)
            yield from names_in(item, names)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from names_in(item, names)


@cache
def card_names(name: str) -> frozenset[str]:
    """Card names that name nothing else (a wonder or token of the same name would be
    counted as a card)."""
    game = data(name)
    others = {w.name for w in game.wonders} | {t.name for t in game.tokens}
    return frozenset(c.name for c in game.cards) - others


def random_action(game: GameState, seat: int, rng: random.Random) -> Action:
    return rng.choice(game.legal_actions(seat))


def random_moves(game: GameState, rng: random.Random) -> dict[int, Action]:
    return {seat: random_action(game, seat, rng) for seat in game.decision().seats}


# --- the invariants ---------------------------------------------------------------------

def assert_decision_shape(game: GameState) -> None:
    decision = game.decision()
    assert decision.seats == tuple(game.to_move())
    assert decision.kind and decision.wording
    assert len(set(decision.seats)) == len(decision.seats)
    assert bool(decision.seats) != game.over
    for seat in range(game.players):
        legal = game.legal_actions(seat)
        if seat in decision.seats:
            assert legal, f"seat {seat} decides '{decision.kind}' with nothing to do"
        else:
            assert legal == [], f"seat {seat} is not deciding '{decision.kind}' but may act"


def assert_coins_conserved(game: GameState) -> None:
    """Every coin is in a treasury, laid aside on a city's source, or in the bank."""
    coins = [city.coins + getattr(city, "aside", 0) for city in game.cities]
    assert sum(coins) == game.start_coins + game.bank_gave - game.bank_paid, coins
    assert min(coins) >= 0 and min(getattr(c, "aside", 0) for c in game.cities) >= 0, coins


def assert_illegal_plays_change_nothing(game: GameState, seen: list[Action],
                                        rng: random.Random) -> None:
    """A missing seat, an extra seat and an action not offered: refused, nothing changed."""
    before = fingerprint(game)
    seats = game.decision().seats
    moves = random_moves(game, rng)
    if game.over:
        with pytest.raises(RuleError):
            game.play({})
        assert fingerprint(game) == before
        return
    missing = dict(moves)
    del missing[rng.choice(seats)]
    with pytest.raises(RuleError):
        game.play(missing)
    assert fingerprint(game) == before
    outsiders = [s for s in range(game.players) if s not in seats] or [game.players]
    extra = {**moves, rng.choice(outsiders): moves[seats[0]]}
    with pytest.raises(RuleError):
        game.play(extra)
    assert fingerprint(game) == before
    seat = rng.choice(seats)
    legal = game.legal_actions(seat)
    foreign = next((a for a in reversed(seen) if a not in legal), None)
    if foreign is not None:
        with pytest.raises(IllegalActionError):
            game.play({**moves, seat: foreign})
        assert fingerprint(game) == before


def assert_cards_conserved(game: GameState, previous: Counter[int] | None, age_before: int,
                           dealt: dict[int, int]) -> Counter[int]:
    """Within an age the cards only move; a new age adds cards of that age only, as many
    as that age deals in every game (``dealt`` remembers it across games)."""
    now = all_cards(game)
    for seat in range(1, game.players):  # every seat is told the same places
        assert {k: [id(c) for c in v] for k, (_, v) in places(game, seat).items()} == \
            {k: [id(c) for c in v] for k, (_, v) in places(game).items()}
    if previous is None:
        return now
    if game.age == age_before:
        assert now == previous, "a card appeared, vanished or was duplicated"
        return now
    assert game.age > age_before
    assert not previous - now, "cards of an earlier age vanished when the age changed"
    added = now - previous
    by_id = {id(c): c for _, cards in places(game).values() for c in cards}
    assert all(by_id[card].age == game.age for card in added), "a card of another age was dealt"
    count = sum(added.values())
    assert count > 0
    assert dealt.setdefault(game.age, count) == count, "this age dealt another number of cards"
    return now


def assert_view_hides(game: GameState, names: frozenset[str]) -> None:
    for seat in range(game.players):
        visible: Counter[str] = Counter()
        for seen, cards in places(game, seat).values():
            if seen:
                visible.update(c.name for c in cards if c.name in names)
        view = game.view(seat)
        # a card another city copied whole ('now: copy …') is named again in the copier's
        # city: it must be one the seat sees, but it is the same card, not a second one
        copied = [name for city in view.get("cities") or [] if isinstance(city, dict)
                  for name in city.pop("copied", [])]
        assert all(visible[name] for name in copied), (
            f"seat {seat}'s view names copied cards it may not see: {copied}")
        shown = Counter(names_in(view, names))
        leaked = shown - visible
        assert not leaked, f"seat {seat}'s view shows cards it may not see: {dict(leaked)}"


def assert_score_sheet(game: GameState) -> None:
    sheet = game.score_sheet()
    record = sheet.to_json()
    rows = record["players"]
    assert isinstance(rows, list) and len(rows) == game.players
    for seat, row in enumerate(rows):
        assert row["total"] == sum(row["lines"].values()) == sheet.total(seat)
        assert list(row["lines"]) == list(sheet.order)
    winners = record["winners"]
    assert isinstance(winners, list) and winners
    if sheet.decided is not None:
        assert winners == list(sheet.decided)
        return

    def key(seat: int) -> tuple[int, ...]:
        # a tie-break names the coins, a count kept beside the lines (pieces built), or a line
        return (sheet.total(seat), *(sheet.coins[seat] if name == "coins"
                                     else sheet.counts[name][seat] if name in sheet.counts
                                     else sheet.lines[seat].get(name, 0)
                                     for name in sheet.tie_break))

    best = max(key(seat) for seat in range(game.players))
    assert winners == [seat for seat in range(game.players) if key(seat) == best]
    assert max(sheet.totals) == sheet.total(winners[0])


def play_checked(name: str, players: int, seed: int, dealt: dict[int, int], *,
                 full: bool) -> GameState:
    """One random game, every invariant after every decision (``full``: also illegal plays
    and hidden information, the dearer checks)."""
    game = new_game(data(name), players, seed)
    rng = random.Random(seed * 7919 + players)
    names = card_names(name)
    cards = assert_cards_conserved(game, None, game.age, dealt)
    seen: list[Action] = []
    for _ in range(MAX_DECISIONS):
        assert_decision_shape(game)
        assert_coins_conserved(game)
        if full:
            assert_view_hides(game, names)
            assert_illegal_plays_change_nothing(game, seen, rng)
        if game.over:
            break
        moves = random_moves(game, rng)
        if full:
            seen = (seen + [a for s in moves for a in game.legal_actions(s)])[-200:]
        age = game.age
        game.play(moves)
        cards = assert_cards_conserved(game, cards, age, dealt)
    assert game.over, f"no end after {MAX_DECISIONS} decisions"
    assert len(game.history) < MAX_DECISIONS
    assert_score_sheet(game)
    return game


# --- the tests --------------------------------------------------------------------------

def seeds_for(name: str, players: int, budget: int) -> int:
    """Games per table: about ``budget`` decisions' worth of play, at least 20."""
    return max(20, budget // (30 * players))


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_random_games_keep_every_invariant(name: str, players: int) -> None:
    dealt: dict[int, int] = {}
    kinds: Counter[str] = Counter()
    games = seeds_for(name, players, BUDGETS.get(name, 50_000))
    for seed in range(games):
        game = play_checked(name, players, seed, dealt, full=seed < games // 10)
        kinds.update(entry["phase"] for entry in game.history)
    assert dealt or not data(name).cards, "no age dealt any card"  # (Dice has no cards)
    assert len(kinds) >= 2, kinds  # more than one kind of decision was exercised


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_same_seed_same_game(name: str, players: int) -> None:
    def run(seed: int) -> GameState:
        game = new_game(data(name), players, seed)
        rng = random.Random(seed)
        while not game.over:
            game.play(random_moves(game, rng))
        return game

    first, second, other = run(2024), run(2024), run(4202)
    assert first.history == second.history
    assert first.setup_record() == second.setup_record()
    assert first.score_sheet().to_json() == second.score_sheet().to_json()
    assert [first.view(s) for s in range(players)] == [second.view(s) for s in range(players)]
    assert other.history != first.history


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_a_clone_is_independent_and_plays_on_like_its_original(name: str, players: int) -> None:
    for seed in range(3):
        game = new_game(data(name), players, seed)
        rng = random.Random(seed)
        middle = None
        while not game.over:
            before = fingerprint(game)
            copy = game.clone()
            assert fingerprint(copy) == before
            copy.play(random_moves(copy, random.Random(rng.random())))
            assert fingerprint(game) == before, "playing a clone changed the original"
            if middle is None and (game.age >= 2 or (not data(name).cards and
                                                    len(game.history) >= 10)):  # Dice: one age
                middle = game.clone()
            game.play(random_moves(game, rng))
        # the clone carries the generator too: replaying the original's actions on it
        # ends the same game (later ages' deals included)
        assert middle is not None
        done = len(middle.history)
        for entry in game.history[done:]:
            middle.play({int(seat): same_action(middle, int(seat), recorded)
                         for seat, recorded in entry["actions"].items()})
        assert middle.history == game.history
        assert middle.score_sheet().to_json() == game.score_sheet().to_json()


def same_action(game: GameState, seat: int, recorded: dict[str, Any]) -> Action:
    for action in game.legal_actions(seat):
        if action.to_json() == recorded:
            return action
    raise AssertionError(f"{recorded} is not legal for seat {seat}")


def hidden_and_visible(game: GameState, seat: int) -> tuple[Counter[int], dict[str, Any]]:
    hidden: Counter[int] = Counter()
    shape: dict[str, Any] = {}
    for place, (seen, cards) in places(game, seat).items():
        if seen:
            shape[place] = [id(c) for c in cards]
        else:
            hidden.update(id(c) for c in cards)
            shape[place] = len(cards)
    return hidden, shape


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_determinize_redeals_only_what_the_seat_cannot_see(name: str, players: int) -> None:
    redealt = 0
    for seed in range(4):
        game = new_game(data(name), players, seed)
        rng = random.Random(seed)
        step = 0
        while not game.over:
            step += 1
            if step % 3 == 0:
                before = fingerprint(game)
                for seat in sorted({rng.randrange(players), *game.decision().seats}):
                    hidden, shape = hidden_and_visible(game, seat)
                    deals = [game.determinize(seat, random.Random(k)) for k in range(6)]
                    assert fingerprint(game) == before, "determinize changed the original"
                    for other in deals:
                        assert other.view(seat) == game.view(seat)
                        assert [str(a) for a in other.legal_actions(seat)] == \
                            [str(a) for a in game.legal_actions(seat)]
                        assert other.decision() == game.decision()
                        assert hidden_and_visible(other, seat) == (hidden, shape)
                    layouts = {tuple((k, tuple(id(c) for c in v))
                                     for k, (_, v) in places(d, seat).items()) for d in deals}
                    if len(layouts) > 1:
                        redealt += 1
                    # a determinization is a game in its own right: it plays on
                    if step % 15 == 0:
                        other = deals[0]
                        while not other.over:
                            other.play(random_moves(other, rng))
                        assert_score_sheet(other)
            game.play(random_moves(game, rng))
    # (a game without cards, Dice, hides nothing: a determinization only reseeds the future)
    assert redealt > 0 or not data(name).cards, \
        "no two determinizations ever dealt the hidden cards differently"


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_a_log_replays_identically(name: str, players: int, tmp_path: Path) -> None:
    for seed in range(3):
        game = new_game(data(name), players, seed)
        rng = random.Random(seed)
        stop = None if seed else 25  # the first log is of a game still going on
        while not game.over and (stop is None or len(game.history) < stop):
            game.play(random_moves(game, rng))
        path = tmp_path / f"{seed}.jsonl"
        write(game, path, name)
        result = replay(path)
        assert result.identical, result.divergence
        assert result.decisions == len(game.history)
        assert result.game is not None
        assert result.game.history == game.history
        assert result.game.over == game.over
        if game.over:
            assert result.game.score_sheet().to_json() == game.score_sheet().to_json()
