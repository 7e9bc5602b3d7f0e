"""The web table's server side of a decks game (7 Wonders Architects): what every page is
sent, decision by decision, through whole games played by the server's own ``submit``.

Each seat's state (and a spectator's) is checked against what it may see: the central
deck's top only to the cat holder choosing its turn, the cards looked at only to the seat
looking, the legal moves only to the seat deciding; a spectator gets the decks (one seat
seeing a top hides only that top) and never a move's words only its seat saw.  The moves
described are exactly the legal ones, each sent back as described; the recap says what
each move took and built, from the public views alone.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

pytest.importorskip("starlette", reason="wonders serve needs Starlette")

from wonders.engine.mechanisms import decks  # noqa: E402
from wonders.engine.table import left_of, right_of  # noqa: E402
from wonders.serve import present  # noqa: E402
from wonders.serve.tables import Table, Tables, load_source  # noqa: E402

SOURCE = load_source("architects")


def may_see_central_top(table: Table, seat: int | None) -> bool:
    """The rule: the cat holder, choosing its turn, sees the central deck's top."""
    game = table.game
    decision = game.decision()
    return (seat is not None and decision.kind == "turn" and list(decision.seats) == [seat]
            and game.view(seat)["seats"][seat]["cat"])


def check_state(table: Table, seat: int | None) -> dict[str, Any]:
    """What a page at ``seat`` is sent now, checked for what it must not show."""
    message = json.loads(json.dumps(table.state_for(seat)))
    view = message["view"]
    deciding = seat is not None and seat in table.game.to_move()
    central = [d for d in view["decks"] if d.get("face_up") is False]
    assert len(view["decks"]) == table.game.players + 1 and len(central) == 1
    if not may_see_central_top(table, seat):
        assert central[0].get("top") is None, (seat, central)
    assert ("looking" in view) == (deciding and bool(decks.state(table.game).looking)), seat
    assert ("legal" in view) == deciding and ("actions" in message) == deciding
    if not deciding:
        # the cards another seat looks at appear nowhere in what this page is sent
        assert "looking" not in json.dumps(message)
    return message


def play_through(players: int, seed: int) -> dict[str, int]:
    """A whole game through ``Table.submit`` with random moves as the page sends them;
    every state of every seat and of a spectator checked.  What was seen, counted."""
    tables = Tables(None, [SOURCE])
    table = tables.create({"game": "architects", "players": players,
                           "seats": ["human"] * players, "seed": seed})
    rng = random.Random(seed)
    seen = {"peeks": 0, "looks": 0, "private": 0, "battles": 0, "builds": 0}
    while not table.game.over:
        number = table.decision_number
        for seat in (None, *range(players)):
            message = check_state(table, seat)
            if seat is not None and "actions" in message:
                mover, described = seat, message["actions"]
        central = next(d for d in table.game.view(mover)["decks"] if not d["face_up"])
        if central["top"] is not None:
            seen["peeks"] += 1
        if decks.state(table.game).looking:
            seen["looks"] += 1
        legal = table.game.legal_actions(mover)
        assert [a["json"] for a in described["actions"]] == [m.to_json() for m in legal]
        assert [a["index"] for a in described["actions"]] == described["other"]
        for entry, move in zip(described["actions"], legal):
            assert entry["words"] == list(move.words) and entry["kind"] == move.verb
            if "deck" in entry:   # a take: the deck it names, its top only as the seat sees it
                deck = table.game.view(mover)["decks"][entry["deck"]]
                assert entry.get("card") == deck["top"]
                assert (deck["top"] is None) == ("face-down top card" in entry["text"])
        entry = rng.choice(described["actions"])
        table.submit(mover, number, entry["json"])
        recap = table.recaps[-1]
        moves = recap["moves"]
        assert [m["seat"] for m in moves] == [mover]
        assert moves[0]["public"].startswith(" ".join([entry["kind"], *entry["words"]])
                                             if "private" not in moves[0] else entry["kind"])
        seen["private"] += "private" in moves[0]
        seen["battles"] += bool(recap["battles"])
        seen["builds"] += "builds piece" in moves[0]["public"]
        for viewer in (None, *range(players)):
            text = json.dumps(table.state_for(viewer)["recap"])
            if "private" in moves[0] and viewer != mover:
                assert moves[0]["private"] not in text
    assert table.recaps[-1]["table"][-1].startswith("game over")
    return seen


@pytest.mark.parametrize("players", [2, 3, 5, 7])
def test_what_each_page_is_sent_through_whole_games(players: int) -> None:
    seen = {"peeks": 0, "looks": 0, "private": 0, "battles": 0, "builds": 0}
    for seed in range(3):
        for key, count in play_through(players, seed + 10 * players).items():
            seen[key] += count
    assert seen["battles"] and seen["builds"], seen
    if players >= 3:   # enough games for the cat's peek at the central deck to occur
        assert seen["peeks"], seen


def test_looking_cards_stay_with_the_seat_looking() -> None:
    """A seat looking into a deck (a piece's take that looks at several cards): its
    page lists them and the moves keep each; no other page, and no spectator, is sent
    them; the recap tells the others which card it kept (it lies in front of it)."""
    found = 0
    for seed in range(60):
        game_found = False
        tables = Tables(None, [SOURCE])
        table = tables.create({"game": "architects", "players": 4, "seats": ["human"] * 4,
                               "seed": seed})
        rng = random.Random(seed)
        while not table.game.over and not game_found:
            mover = table.game.to_move()[0]
            if table.game.decision().kind == "keep":
                looking = table.game.view(mover)["looking"]
                message = check_state(table, mover)
                kept = sorted({e["card"] for e in message["actions"]["actions"]})
                assert kept == sorted(set(looking))
                for other in (None, *[s for s in range(4) if s != mover]):
                    check_state(table, other)
                game_found = True
                found += 1
                choice = message["actions"]["actions"][0]
                table.submit(mover, table.decision_number, choice["json"])
                assert f"takes {choice['card']}" in table.recaps[-1]["moves"][0]["public"]
                break
            entry = rng.choice(present.actions_for(table.game, mover)["actions"])
            table.submit(mover, table.decision_number, entry["json"])
        if found >= 3:
            break
    assert found >= 3


def test_spectators_keep_the_decks_when_the_cat_holder_peeks() -> None:
    """The public view keeps every deck (sizes, face-up tops) while the cat holder sees
    the central top: only that top is left out."""
    for seed in range(40):
        tables = Tables(None, [SOURCE])
        table = tables.create({"game": "architects", "players": 3, "seats": ["human"] * 3,
                               "seed": seed})
        rng = random.Random(seed)
        while not table.game.over:
            mover = table.game.to_move()[0]
            if may_see_central_top(table, mover):
                public = present.public_view(table.game)
                own = table.game.view(mover)["decks"]
                assert [d["cards"] for d in public["decks"]] == [d["cards"] for d in own]
                assert [d.get("top") for d in public["decks"]][:-1] == \
                    [d["top"] for d in own][:-1]
                assert "top" not in public["decks"][-1] and own[-1]["top"] is not None
                return
            table.submit(mover, table.decision_number,
                         rng.choice(table.game.legal_actions(mover)).to_json())
    raise AssertionError("no game let the cat holder peek")


def test_the_catalogue_describes_the_components_in_words() -> None:
    parts = present.catalogue(SOURCE.data)["components"]
    data = SOURCE.data.components
    assert data is not None
    assert list(parts["kinds"]) == [k.name for k in data.kinds]
    assert all(kind["words"] and kind["colour"] for kind in parts["kinds"].values())
    for wonder in data.wonders:
        drawn = parts["wonders"][wonder.name]["pieces"]
        assert [p["points"] for p in drawn] == [p.points for p in wonder.pieces]
        assert [p["rests_on"] for p in drawn] == [list(p.rests_on) for p in wonder.pieces]
        assert all(str(p["count"]) in p["cost"] for p in drawn)
        for piece, shown in zip(wonder.pieces, drawn):
            assert bool(shown["effect"]) == bool(piece.take or piece.progress or piece.shields)
    assert set(parts["progress"]) == {t.name for t in data.progress}
    assert all(t["words"] != "nothing" for t in parts["progress"].values())


def test_neighbours_are_the_engine_s() -> None:
    """The page seats the left neighbour at seat + 1 and the right one at seat - 1, and
    reads each seat's own deck as the one on its left: the engine's seating and decks."""
    tables = Tables(None, [SOURCE])
    table = tables.create({"game": "architects", "players": 4, "seats": ["human"] * 4,
                           "seed": 1})
    seat = table.game.to_move()[0]
    view = table.game.view(seat)
    moves = present.actions_for(table.game, seat)["actions"]
    by_place = {m["words"][0]: m["deck"] for m in moves}
    assert view["decks"][by_place["left"]]["owner"] == seat
    assert view["decks"][by_place["right"]]["owner"] == right_of(seat, 4) == (seat - 1) % 4
    assert left_of(seat, 4) == (seat + 1) % 4
    assert view["decks"][by_place["central"]]["owner"] is None
    assert present.actions_for(table.game, left_of(seat, 4))["actions"] == []


def test_the_page_names_no_component_of_a_decks_game() -> None:
    """The page's files name no card kind, deck, Wonder or token of Architects: they are
    drawn from the view and the catalogue."""
    from wonders.serve.app import static_dir

    data = SOURCE.data.components
    assert data is not None
    names = ({k.name for k in data.kinds} | {d.name for d in data.decks}
             | {w.name for w in data.wonders} | {t.name for t in data.progress})
    names.discard("central")   # the view's own word for the middle deck, not a component's
    for path in static_dir().iterdir():
        text = path.read_text(encoding="utf-8")
        hits = [n for n in names if f'"{n}"' in text or f"'{n}'" in text or f">{n}<" in text]
        assert not hits, f"{path.name} names {hits}"


def test_a_decks_table_is_restored_after_a_restart(tmp_path: Any) -> None:
    """A decks game's table written to the data folder plays on after a restart: the
    same decision, the same views, the recaps kept."""
    tables = Tables(tmp_path, [SOURCE])
    table = tables.create({"game": "architects", "players": 3,
                           "seats": ["human", "random", "human"], "seed": 8})
    rng = random.Random(8)
    for _ in range(25):
        mover = table.game.to_move()[0]
        table.submit(mover, table.decision_number,
                     rng.choice(table.game.legal_actions(mover)).to_json())
    tables.drain()
    again = Tables(tmp_path, [SOURCE]).get(table.id)
    assert again.decision_number == table.decision_number == 25
    assert [again.game.view(s) for s in range(3)] == [table.game.view(s) for s in range(3)]
    assert again.recaps == table.recaps and again.seats == table.seats
