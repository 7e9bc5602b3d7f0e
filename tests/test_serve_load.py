"""The load benchmark's checks (benchmarks/serve.py) at a tiny scale, so that CI exercises
them: three tables with clocks running, forged and malformed messages, bad requests,
half-sent requests, dropped connections, every message compared with the engine and the
server's stderr read.  And the checks themselves fail on what they are there to catch
(a hand shown to a spectator, a card a seat never saw, a move that was not accepted,
a traceback)."""

from __future__ import annotations

import copy
import importlib.util
import json
import subprocess
import sys
import zlib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

pytest.importorskip("starlette", reason="wonders serve needs Starlette")
pytest.importorskip("websockets", reason="the load benchmark's clients use websockets")

from wonders.engine.registry import new_game  # noqa: E402
from wonders.scenarios import log as game_log  # noqa: E402
from wonders.serve import present  # noqa: E402
from wonders.serve.tables import Table, load_source  # noqa: E402

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "serve.py"


def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("serve_benchmark", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["serve_benchmark"] = module   # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_load_benchmarks_checks_pass_at_three_tables() -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--tables", "3", "--speed", "fast", "--bad", "0.3",
         "--drop", "0.5", "--seed", "3", "--no-join-probe"],
        capture_output=True, text=True, timeout=240)
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "3 games finished" in out and "violations: 0" in out, out
    checked = int(out.split("checked: ")[1].split()[0])
    sent = int(out.split("bad messages sent ")[1].split()[0])
    refused = int(out.split("(refused ")[1].split(")")[0])
    assert checked > 300 and sent > 10 and refused == sent, out
    assert "server stderr: 0 tracebacks" in out, out


# --- the checks catch what they are for --------------------------------------------------------

def played_table(module: ModuleType) -> tuple[Any, str, list[dict[str, Any]]]:
    """A 3-player base game played a few decisions, its log text, and the states a
    spectator and seat 0 would have been sent (as the server builds them)."""
    source = load_source("base")
    game = new_game(source.data, 3, 11, sides="random")
    stats = module.Stats()
    table = Table("T", source, game, [], "random", False, 0.0, None)
    states: list[dict[str, Any]] = []
    for _ in range(3):
        for seat in (None, 0):
            state = json.loads(json.dumps(table.state_for(seat)))
            stats.received.setdefault(("T", seat), []).append(module.pack(json.dumps(state)))
            states.append(state)
        actions = {s: game.legal_actions(s)[0] for s in game.to_move()}
        stats.moves.setdefault(("T", 0), {})[len(game.history)] = actions[0].to_json()
        table.pending.update(actions)
        table._resolve()   # as the server plays it: the recap kept (nothing stored)
    text = "".join(json.dumps(r) + "\n" for r in game_log.lines(game, "base", (), "random"))
    return stats, text, states


def check(module: ModuleType, stats: Any, text: str) -> list[str]:
    module.check_table("T", text, stats, {}, ["k3J9vQ2xWmZ8pL4rT6yB1nC0"], set())
    return list(stats.violations)


def replace(stats: Any, seat: int | None, index: int, state: dict[str, Any]) -> None:
    stats.received[("T", seat)][index] = zlib.compress(json.dumps(state).encode())


def test_the_checks_pass_on_what_the_server_sends() -> None:
    module = bench()
    stats, text, _ = played_table(module)
    assert check(module, stats, text) == []


def test_the_checks_catch_a_hand_shown_to_a_spectator() -> None:
    module = bench()
    stats, text, states = played_table(module)
    leaked = copy.deepcopy(states[0])
    leaked["view"]["hand"] = states[1]["view"]["hand"]
    replace(stats, None, 0, leaked)
    found = check(module, stats, text)
    assert any("the view is not the engine's view" in v for v in found), found
    assert any("names cards the seat never saw" in v for v in found), found


def test_the_checks_catch_a_card_the_seat_never_saw_in_its_events() -> None:
    module = bench()
    stats, text, states = played_table(module)
    source = load_source("base")
    seen = json.dumps(states[3]["view"]) + json.dumps(states[1]["view"])
    other = next(c.name for c in source.data.cards if c.age == 3 and c.name not in seen)
    leaked = copy.deepcopy(states[3])   # seat 0, decision 1
    leaked["events"] = [*leaked["events"], f"seat 1 sold {other} for 3 coins"]
    replace(stats, 0, 1, leaked)
    found = check(module, stats, text)
    assert any("names cards the seat never saw" in v and other in v for v in found), found


def test_the_checks_catch_actions_offered_to_a_spectator_and_a_token() -> None:
    module = bench()
    stats, text, states = played_table(module)
    leaked = copy.deepcopy(states[0])
    leaked["actions"] = states[1]["actions"]
    leaked["table"]["names"] = ["k3J9vQ2xWmZ8pL4rT6yB1nC0", None, None]
    replace(stats, None, 0, leaked)
    found = check(module, stats, text)
    assert any("actions offered to a seat that does not decide" in v for v in found), found
    assert any("holds a seat token" in v for v in found), found


def test_the_checks_catch_a_move_that_was_not_accepted() -> None:
    module = bench()
    stats, text, _ = played_table(module)
    del stats.moves[("T", 0)][1]
    found = check(module, stats, text)
    assert any("the log's moves are not the moves accepted at decision(s) [1]" in v
               for v in found), found


def test_the_checks_catch_a_traceback_in_the_servers_log() -> None:
    module = bench()
    stats = module.Stats()
    module.report_server_log("INFO: fine\nTraceback (most recent call last):\n  boom\n", stats)
    assert stats.violations and "1 traceback" in stats.violations[0]


def test_public_view_is_what_the_check_compares_a_spectator_with() -> None:
    source = load_source("base")
    game = new_game(source.data, 3, 11, sides="random")
    assert "hand" not in present.public_view(game)


# --- what the load run found, fixed in the server ---------------------------------------------

def test_a_state_sent_as_text_is_the_state_at_every_decision_and_after_a_rollback() -> None:
    """``state_text`` (what pages are sent; the parts that change only with a decision
    encoded once) says exactly what ``state_for`` says, for every seat and a spectator,
    before and after a seat chooses, and again after a move is rolled back."""
    source = load_source("base")
    game = new_game(source.data, 3, 5, sides="random")
    table = Table("T", source, game, [], "random", False, 0.0, None)

    def same() -> None:
        for seat in (None, 0, 1, 2):
            assert json.loads(table.state_text(seat)) == json.loads(
                json.dumps(table.state_for(seat))), seat

    while not table.game.over and table.decision_number < 12:
        same()
        number = table.decision_number
        point = table.checkpoint()
        seats = table.waiting_for()
        for seat in seats:
            table.submit(seat, number, table.game.legal_actions(seat)[-1].to_json())
            same()
        assert table.decision_number == number + 1 == len(table.game.history)
        if number % 3 == 0:   # undone, as a move whose commit failed is: the old state again
            table.rollback(point)
            assert table.decision_number == number
            same()
            assert "actions" in json.loads(table.state_text(seats[0]))
            for seat in seats:
                table.submit(seat, number, table.game.legal_actions(seat)[0].to_json())
    assert table.decision_number == len(table.game.history)


def test_a_stand_in_bot_whose_decision_was_played_while_it_waited_logs_nothing(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The stand-in of a seat out of time chooses, then waits for the table while another
    move is stored; that move ends the decision.  Its own move is moot, not refused: no
    warning (the 200-table run logged one such "bot move refused" a decision)."""
    import asyncio
    import logging

    from wonders.bots import bot_factory
    from wonders.serve.app import Server
    from wonders.serve.tables import Tables

    tables = Tables(tmp_path, [load_source("base")])
    try:
        table = tables.create({"game": "base", "players": 3, "seats": ["human"] * 3,
                               "sides": "random", "seed": 2, "speed": "fast"})
        table.away.add(0)
        server = Server(tables)

        async def race() -> bool:
            lock = server.locks.setdefault(table.id, asyncio.Lock())
            await lock.acquire()
            job = asyncio.create_task(server._choose_and_play(
                table, 0, 0, table.game.clone(), bot_factory("random")(1)))
            for _ in range(50):
                await asyncio.sleep(0.01)   # the bot has chosen and waits for the lock
            for seat in (0, 1, 2):   # meanwhile the decision is played (seat 0 came back)
                table.submit(seat, 0, table.game.legal_actions(seat)[0].to_json())
            lock.release()
            return await job

        with caplog.at_level(logging.WARNING, logger="wonders.serve"):
            played = asyncio.run(race())
        assert played is False and table.decision_number == 1
        assert not [r for r in caplog.records if "refused" in r.getMessage()], caplog.text
    finally:
        tables.close()


def test_the_time_a_decision_takes_to_be_stored_is_not_charged_to_the_clocks(
        tmp_path: Path) -> None:
    """The move that ends a decision opens the next one, whose clocks start; nobody is
    told of it before its commit returns, which under load takes seconds.  Those seconds
    are not the players': the clocks start again when the commit is in."""
    import asyncio
    from concurrent.futures import Future

    from wonders.serve.app import Server
    from wonders.serve.clocks import SPEEDS
    from wonders.serve.tables import Tables

    now = [1_000_000.0]
    tables = Tables(tmp_path, [load_source("base")], clock=lambda: now[0])
    bank, increment = SPEEDS["fast"]
    try:
        table = tables.create({"game": "base", "players": 3, "seats": ["human"] * 3,
                               "sides": "random", "seed": 4, "speed": "fast"})
        table.now = lambda: now[0]
        server = Server(tables)

        async def play() -> None:
            for seat in (0, 1):
                await server.commit(table, seat, 0,
                                    table.game.legal_actions(seat)[0].to_json())
            slow: Future[None] = Future()
            store = table.store
            assert store is not None
            write = store.write
            store.write = lambda table_id, ops: slow   # type: ignore[method-assign,assignment]
            try:
                last = asyncio.create_task(server.commit(
                    table, 2, 0, table.game.legal_actions(2)[0].to_json()))
                await asyncio.sleep(0.05)
                assert table.decision_number == 1 and not last.done()   # being stored
                now[0] += 7.0   # the commit takes 7 s
                slow.set_result(None)
                await last
            finally:
                store.write = write   # type: ignore[method-assign]

        asyncio.run(play())
        assert table.clocks is not None
        assert [table.clocks.left(s, now[0]) for s in range(3)] == [bank + 2 * increment] * 3
        now[0] += 4.0   # from here the players' time runs
        assert table.clocks.left(0, now[0]) == bank + 2 * increment - 4
    finally:
        tables.close()
