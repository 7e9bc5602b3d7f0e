"""The turn recap the web table sends after each decision (:mod:`wonders.recap`): who
built or sold what, the coins paid and to whom, the end-of-age battles apart from the
builds (a tie as a tie), draft picks, the starter choice, destroyed cards, cards turned
face up — each seat told only what it may see."""

from __future__ import annotations

import json
import random
from typing import Any, Callable

import pytest

pytest.importorskip("starlette", reason="wonders serve needs Starlette")

from wonders.engine.actions import Build, Sell  # noqa: E402
from wonders.engine.registry import new_game  # noqa: E402
from wonders.engine.table import left_of, right_of  # noqa: E402
from wonders.serve.tables import Seat, Table, load_source  # noqa: E402

SOURCES: dict[str, Any] = {}


def source(name: str) -> Any:
    if name not in SOURCES:
        SOURCES[name] = load_source(name)
    return SOURCES[name]


def table_of(name: str, players: int, seed: int) -> Table:
    data = source(name)
    game = new_game(data.data, players, seed)
    return Table("recap", data, game, [Seat("human", f"t{s}") for s in range(players)],
                 None, False, 0.0, None)


def play(table: Table, choose: Callable[[int, list[Any]], Any]) -> dict[str, Any]:
    """Play the open decision, each deciding seat's action picked by ``choose``; the
    decision's recap as stored (every seat's words)."""
    for seat in table.game.decision().seats:
        action = choose(seat, table.game.legal_actions(seat))
        table.submit(seat, table.decision_number, action.to_json())
    return table.recaps[-1]


def first(kind: type) -> Callable[[int, list[Any]], Any]:
    return lambda seat, legal: next((a for a in legal if isinstance(a, kind)), legal[0])


def moves(table: Table, seat: int | None) -> dict[int, str]:
    state = table.state_for(seat)
    return {m["seat"]: m["text"] for m in state["recap"]["moves"]}


def test_a_base_turn_says_who_built_sold_and_paid_whom() -> None:
    """Seat 0 buys from a neighbour to build; seat 1 sells (3 coins in base); the words
    name the coins each neighbour got, the sold card only to its seller."""
    for seed in range(40):
        table = table_of("base", 3, seed)
        play(table, lambda seat, legal: legal[0])   # the sides
        legal = table.game.legal_actions(0)
        bought = [a for a in legal if isinstance(a, Build) and a.payment.left + a.payment.right]
        if bought:
            break
    else:
        pytest.fail("no seed gives seat 0 a card to buy resources for")
    build = bought[0]
    sold = next(a for a in table.game.legal_actions(1) if isinstance(a, Sell))
    coins = [c.coins for c in table.game.cities]
    chosen = {0: build, 1: sold}
    play(table, lambda seat, legal: chosen.get(seat) or next(
        a for a in legal if isinstance(a, Sell)))
    pay = build.payment
    parts = [f"{n} to seat {who}" for n, who in ((pay.left, left_of(0, 3)),
                                                 (pay.right, right_of(0, 3)),
                                                 (pay.bank, None)) if n and who is not None]
    if pay.bank:
        parts.append(f"{pay.bank} to the bank")
    total = pay.total
    worded = f"built {build.card.name} for {total} coin{'s' if total != 1 else ''}"
    worded += f" ({', '.join(parts)})"
    for viewer in (0, 1, 2, None):
        seen = moves(table, viewer)
        assert seen[0] == worded
        assert seen[1] == (f"sold {sold.card.name} for 3 coins" if viewer == 1
                           else "sold a card for 3 coins")
        if viewer != 1:   # the sold card's name reaches nobody else through the recap
            assert sold.card.name not in json.dumps(table.state_for(viewer)["recap"])
    # the coins that changed hands: seat 0 paid, its neighbours were paid, sellers got 3
    received = {s: 0 for s in range(3)}
    received[left_of(0, 3)] += pay.left
    received[right_of(0, 3)] += pay.right
    expected = [coins[0] - total + received[0], coins[1] + 3 + received[1],
                coins[2] + 3 + received[2]]
    shown = {c["seat"]: (c["from"], c["to"]) for c in table.state_for(None)["recap"]["coins"]}
    assert shown == {s: (coins[s], expected[s]) for s in range(3) if expected[s] != coins[s]}
    assert [c.coins for c in table.game.cities] == expected


def test_the_battles_of_an_age_are_apart_from_its_last_turn_and_a_tie_is_a_tie() -> None:
    """At the end of age 1 (victory 1, defeat -1 in base) every pair of neighbours is
    compared: more shields beats fewer, equal shields tie and give no token."""
    for seed in range(40):
        table = table_of("base", 3, seed)
        rng = random.Random(seed)
        while table.game.age <= 1 and not table.game.over:
            recap = play(table, lambda seat, legal: rng.choice(legal))
        shields = [c.shields() for c in table.game.cities]
        if len(set(shields)) < 3:   # some pair tied
            break
    else:
        pytest.fail("no seed ends age 1 with a tie")
    assert recap["age"] == 1
    battles = recap["battles"]
    for a, b in ((0, 1), (0, 2), (1, 2)):
        if shields[a] == shields[b]:
            assert (f"seat {a} and seat {b} tie ({shields[a]} shield"
                    f"{'' if shields[a] == 1 else 's'} each): no token") in battles
        else:
            win, lose = (a, b) if shields[a] > shields[b] else (b, a)
            assert any(line.startswith(f"seat {win} (") and f"beats seat {lose} (" in line
                       for line in battles), battles
    for seat, city in enumerate(table.game.cities):
        won = [f"{k} {p}" if k == "victory" else f"{k} {p:+d}" for k, p in city.tokens]
        if won:
            assert f"seat {seat} receives {', '.join(won)}" in battles
    # the last turn's moves say nothing of the battles; the page lists them apart
    assert all("beats" not in m["public"] and "tie" not in m["public"]
               for m in recap["moves"])
    assert "age 2 begins" in recap["table"]


def test_an_age_of_ties_all_round_is_still_told() -> None:
    """When every pair of neighbours ties (no token changes hands) the age's battles are
    still recapped, each pair a tie, with the numbers the page's summary draws."""
    for seed in range(200):
        table = table_of("base", 3, seed)
        rng = random.Random(seed)
        while table.game.age <= 1 and not table.game.over:
            recap = play(table, lambda seat, legal: rng.choice(legal))
        shields = [c.shields() for c in table.game.cities]
        if len(set(shields)) == 1:
            break
    else:
        pytest.fail("no seed ends age 1 with every pair tied")
    assert recap["age"] == 1 and not any(c.tokens for c in table.game.cities)
    assert recap["battles"] == [f"seat {a} and seat {b} tie ({shields[0]} shield"
                                f"{'' if shields[0] == 1 else 's'} each): no token"
                                for a, b in ((0, 1), (0, 2), (1, 2))]
    assert [p["winner"] for p in recap["military"]["pairs"]] == [None, None, None]
    assert recap["military"]["tokens"] == [[], [], []]


def test_duel_draft_picks_starter_choice_destroyed_cards_and_cards_turned_up() -> None:
    found: dict[str, str] = {}
    for seed in range(30):
        table = table_of("duel", 2, seed)
        rng = random.Random(seed)
        while not table.game.over and len(found) < 4:
            kind = table.game.decision().kind
            seat = table.game.decision().seats[0]
            structure = table.game.view(seat).get("structure")
            recap = play(table, lambda s, legal: rng.choice(legal))
            (move,) = recap["moves"]
            action = table.game.history[-1]["actions"][str(seat)]
            if kind == "wonder_draft":
                found["draft"] = move["public"]
                assert move["public"] == f"took {action['wonder']}"
            elif kind == "starter":
                found["starter"] = move["public"]
                assert move["public"] == f"chose seat {action['seat']} to start the age"
            elif kind == "destroy":
                found["destroy"] = move["public"]
                assert move["public"] == (f"destroyed {action['card']} of seat "
                                          f"{action['seat']}")
            faced = [line for line in recap["table"] if line.startswith("turned face up")]
            if faced and structure:
                found["revealed"] = faced[0]
                now = table.game.view(seat)["structure"]
                turned = [n["card"] for o_row, n_row in zip(structure, now)
                          for o, n in zip(o_row, n_row) if o and n and o["card"] is None
                          and n["card"] is not None]
                assert faced[0] == "turned face up: " + ", ".join(turned)
        if len(found) == 4:
            break
    assert set(found) == {"draft", "starter", "destroy", "revealed"}, found


def test_a_leader_draft_pick_is_told_to_its_seat_only() -> None:
    table = table_of("leaders", 3, 2)
    play(table, lambda seat, legal: legal[0])   # sides
    kept = {seat: table.game.legal_actions(seat)[0] for seat in range(3)}
    play(table, lambda seat, legal: kept[seat])
    for viewer in (0, 1, 2, None):
        seen = moves(table, viewer)
        for seat in range(3):
            assert seen[seat] == (f"kept {kept[seat].card.name}" if viewer == seat
                                  else "kept a card")


def test_a_priced_rows_placement_is_named_to_its_placer_only_and_an_activation_says_its_coins() -> None:
    """Pantheon: an item drawn and placed face down is named only to the seat that placed
    it (the others read that a space was filled); an activation's recap has the coins it
    cost, and the conflict pawn's move when it moved one."""
    from wonders.engine.flow_actions import Move

    placements = activations = 0
    for seed in range(1, 30):
        table = table_of("pantheon", 2, seed)
        rng = random.Random(seed)
        while not table.game.over and (not placements or not activations):
            decision = table.game.decision()
            seat = decision.seats[0]
            legal = list(table.game.legal_actions(seat))
            rows = [a for a in legal if isinstance(a, Move) and a.verb in ("place", "activate")
                    and "free" not in a.words]
            action = rng.choice(rows or legal)
            coins = table.game.cities[seat].coins
            recap = play(table, lambda s, _legal: action)
            if isinstance(action, Move) and action.verb == "place":
                item = action.words[0]
                assert item in moves(table, seat)[seat]
                for other in (None, 1 - seat):
                    assert item not in json.dumps(table.state_for(other)["recap"])
                    assert item not in json.dumps(table.state_for(other)["events"][-3:])
                assert item in table.state_for(seat)["view"]["row"][int(action.words[3]) - 1]["item"]
                placements += 1
            elif isinstance(action, Move) and action.verb == "activate":
                paid = int(action.words[2])
                if paid:
                    assert {"seat": seat, "from": coins,
                            "to": table.game.cities[seat].coins} in recap["coins"]
                    activations += 1
        if placements and activations:
            return
    raise AssertionError(f"no placement and paid activation found ({placements}, {activations})")


def test_a_held_token_kept_or_prepared_is_named_to_its_holder_only() -> None:
    """Agora: a conspiracy kept after conspiring, or prepared with a card on a turn (beside
    the cards' builds and sales), is named only to its holder; the others and spectators
    read that a choice was made (the recap named the prepared one to everyone)."""
    from wonders.engine.flow_actions import Move

    found: set[str] = set()
    for seed in range(1, 30):
        table = table_of("agora", 2, seed)
        rng = random.Random(seed)
        while not table.game.over and found != {"keep", "prepare"}:
            seat = table.game.decision().seats[0]
            legal = list(table.game.legal_actions(seat))
            held = [a for a in legal if isinstance(a, Move) and a.verb in ("keep", "prepare")]
            action = rng.choice(held or legal)
            play(table, lambda s, _legal: action)
            if isinstance(action, Move) and action.verb in ("keep", "prepare"):
                name = action.words[0]
                assert name in moves(table, seat)[seat]
                for other in (None, 1 - seat):
                    assert name not in json.dumps(table.state_for(other)["recap"]), action
                found.add(action.verb)
        if found == {"keep", "prepare"}:
            return
    raise AssertionError(f"not both seen: {found}")
