"""A finished game's replay in a real browser (headless Chromium, Playwright), against the
page as served, its Content-Security-Policy included: the finished table links to it, a
shared link opens it at its step and view, the scrubber, the buttons and the arrow keys
move it and the board drawn is the engine's at each step, and "play on from here" starts
a table that continues from the step shown."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_serve_browser import (
    TIMEOUT_MS,
    Server,
    browser,  # noqa: F401  (the fixture: one Chromium per module)
    check_served_policy,
    csp_violations,
    new_page,
    server,  # noqa: F401  (the fixture: a uvicorn server in a thread)
    wait_decision,
)

from wonders.engine.contract import GameState
from wonders.serve.tables import Table, set_up


def finished_table(server: Server, seed: int = 6) -> Table:
    """A 3-player base game of humans played to its end by random legal actions."""
    assert server.tables is not None
    table = server.tables.create({"game": "base", "players": 3,
                                  "seats": ["human", "human", "human"], "seed": seed})
    rng = random.Random(seed)
    while not table.game.over:
        for seat in table.waiting_for():
            table.submit(seat, table.decision_number,
                         rng.choice(table.game.legal_actions(seat)).to_json())
    server.tables.drain()
    return table


def engine_at(table: Table, at: int) -> GameState:
    """The engine's game after ``at`` decisions of the table's history."""
    game = set_up(table.source, table.game.players, table.game.seed, table.sides)
    for record in table.game.history[:at]:
        game.play({int(s): next(a for a in game.legal_actions(int(s)) if a.to_json() == w)
                   for s, w in record["actions"].items()})
    return game


def wait_step(page: Any, at: int) -> None:
    page.wait_for_function(f"() => document.body.dataset.step === '{at}'", timeout=TIMEOUT_MS)


def check_board(page: Any, game: GameState, seat: int | None) -> None:
    """The page draws the engine's position: each city's coins and cards, the hand."""
    shown = page.evaluate("""() => ({
      hand: [...document.querySelectorAll('#hand [data-card]')].map((n) => n.dataset.card),
      cities: [...document.querySelectorAll('#cities [data-city]')].map((n) => ({
        seat: +n.dataset.city, coins: +n.querySelector('.city-symbols .sym[data-what=coins]').dataset.count,
        built: [...n.querySelectorAll('.built .chip')].map((c) => c.textContent).sort()})),
    })""")
    expected_hand = game.view(seat).get("hand", []) if seat is not None else []
    assert shown["hand"] == list(expected_hand)
    view = game.view(0)
    drawn_cities = sorted(shown["cities"], key=lambda c: c["seat"])   # drawn round the table
    assert [c["seat"] for c in drawn_cities] == [c["seat"] for c in view["cities"]]
    for city, drawn in zip(view["cities"], drawn_cities):
        assert drawn["coins"] == city["coins"]
        assert drawn["built"] == sorted(city["built"])


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_finished_games_replay_link_scrubs_and_plays_on(browser: Any, server: Server,  # noqa: F811
                                                         size: str) -> None:
    table = finished_table(server)
    steps = table.decision_number
    errors: list[str] = []
    # the finished table's page links to its replay
    watcher = new_page(browser, size)
    watcher.on("pageerror", lambda error: errors.append(str(error)))
    check_served_policy(watcher.goto(f"{server.url}/table/{table.id}"))
    watcher.wait_for_selector("#replay-link:not([hidden])", timeout=TIMEOUT_MS)
    assert watcher.get_attribute("#replay-link", "href") == f"/replay/{table.id}?at={steps}"
    # and so does the lobby's list of tables
    check_served_policy(watcher.goto(f"{server.url}/"))
    assert watcher.get_attribute(f"#tables a.replay[href='/replay/{table.id}']", "href")

    # a shared link opens the replay at its step and view
    page = new_page(browser, size)
    page.on("pageerror", lambda error: errors.append(str(error)))
    check_served_policy(page.goto(f"{server.url}/replay/{table.id}?at=5&seat=1"))
    wait_step(page, 5)
    assert page.input_value("#view") == "1" and page.input_value("#step") == "5"
    assert page.get_attribute("#step", "max") == str(steps)
    check_board(page, engine_at(table, 5), 1)
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    # the scrubber (keyboard on the range input), the buttons, the arrow keys
    page.focus("#step")
    page.keyboard.press("ArrowRight")
    wait_step(page, 6)
    check_board(page, engine_at(table, 6), 1)
    page.click("#next")
    wait_step(page, 7)
    page.click("#previous")
    wait_step(page, 6)
    page.focus("#share")
    page.keyboard.press("ArrowLeft")
    wait_step(page, 5)
    page.keyboard.press("ArrowLeft")
    wait_step(page, 4)
    check_board(page, engine_at(table, 4), 1)
    for _ in range(3):   # keys faster than the answers: one step each all the same
        page.keyboard.press("ArrowRight")
    wait_step(page, 7)
    check_board(page, engine_at(table, 7), 1)
    page.eval_on_selector("#step", "(n, v) => { n.value = v; n.dispatchEvent(new Event('input')); }",
                          str(steps - 1))
    wait_step(page, steps - 1)
    check_board(page, engine_at(table, steps - 1), 1)
    page.eval_on_selector("#step", "(n) => { n.value = '9'; n.dispatchEvent(new Event('input')); }")
    wait_step(page, 9)
    # the address names what is shown: the link to share
    assert page.url.endswith(f"/replay/{table.id}?at=9&seat=1")
    assert page.get_attribute("#share", "href") == f"/replay/{table.id}?at=9&seat=1"
    # another seat's view, then the public one (no hand)
    page.select_option("#view", "2")
    page.wait_for_function("() => document.body.dataset.view === '2'", timeout=TIMEOUT_MS)
    check_board(page, engine_at(table, 9), 2)
    page.select_option("#view", "public")
    page.wait_for_function("() => document.body.dataset.view === 'public'", timeout=TIMEOUT_MS)
    check_board(page, engine_at(table, 9), None)
    assert page.url.endswith(f"/replay/{table.id}?at=9")
    # a link to a step that does not exist: the server's reason, and the last step shown
    other = new_page(browser, size)
    other.goto(f"{server.url}/replay/{table.id}?at={steps + 5}&seat=1")
    wait_step(other, steps)
    assert f"no step {steps + 5}" in other.text_content("#refused")

    # play on from here, as seat 1, from step 9: a new table at that position
    page.select_option("#view", "1")
    page.wait_for_function("() => document.body.dataset.view === '1'", timeout=TIMEOUT_MS)
    page.select_option("#play-seat", "1")
    page.click("#play-on")
    page.wait_for_url("**/table/*#token=*", timeout=TIMEOUT_MS)
    wait_decision(page, 9)
    page.wait_for_function("() => document.body.dataset.seat === '1'", timeout=TIMEOUT_MS)
    new_id = page.url.split("/table/")[1].split("#")[0]
    assert new_id != table.id
    new = server.table(new_id)
    assert new.game.history[:9] == table.game.history[:9] and new.mode == "training"
    assert [s.kind for s in new.seats] == ["greedy", "human", "greedy"]
    # the seat's hand is the one the replay showed at step 9, and it plays on from there
    page.wait_for_selector("#hand .card.playable", timeout=TIMEOUT_MS)
    check_board(page, engine_at(table, 9), 1)
    page.click("#hand .card.playable")
    page.click("#card-actions button.action")
    wait_decision(page, 10)
    assert new.decision_number >= 10
    for shown in (watcher, page, other):
        assert not csp_violations(shown), csp_violations(shown)
    assert not errors, errors
