"""A decks game (7 Wonders Architects) on the online table, in a real browser: headless
Chromium (the operating system's package) driven by Playwright, against a uvicorn server
in a background thread, every page with its real Content-Security-Policy (the
browser context never turns it off; a violation fails the test).

A whole 2-player game, a human in the page against a bot, from the lobby to the winner,
at a desktop's size and at a phone's (390×844): on every decision of the human the page
shows the engine's legal moves as buttons (in view, without scrolling), the three decks it
may take from (left left of the central one, right right of it) with their sizes and
face-up tops, its Wonder piece by piece and its cards by kind as the view has them, and
nothing wider than the window; it plays by the buttons and by tapping the decks.  Every
message the server sent the page and a spectator's page is checked: the central deck's top
only to the cat holder choosing its turn, cards looked at only to the seat looking.  Then
every decision kind of 2- to 7-player games, sent to the page as the server would send
it, with every move reachable and sent as is, and the neighbours seated left and right.

Set ``WONDERS_SCREENSHOTS=DIR`` to save screenshots (``docs/screenshots`` holds the ones
the docs show: ``architects-turn.png`` and ``architects-turn-phone.png``).
"""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from ports import free_port
from test_serve_browser import (
    TIMEOUT_MS,
    browser,  # noqa: F401  (the fixture: one Chromium per module)
    check_served_policy,
    create_in_lobby,
    csp_violations,
    new_page,
    shot,
    wait_until,
)

uvicorn = pytest.importorskip("uvicorn", reason="wonders serve needs uvicorn")

from wonders.engine.table import left_of, right_of  # noqa: E402
from wonders.serve.app import create_app, uvicorn_options  # noqa: E402
from wonders.serve.present import catalogue  # noqa: E402
from wonders.serve.tables import Table, Tables, load_source  # noqa: E402

SOURCES: list[Any] = []
WAIT_MS = 3 * TIMEOUT_MS   # the machine may be shared: a slow page is not a wrong one


def sources() -> list[Any]:
    if not SOURCES:
        SOURCES.extend(load_source(name) for name in ("architects", "base"))
    return SOURCES


class Server:
    """A uvicorn server in a thread offering Architects (and base, so the lobby chooses)."""

    def __init__(self, data_dir: Path, port: int) -> None:
        self.url = f"http://127.0.0.1:{port}"
        self.tables = Tables(data_dir, sources(), search_seconds=0.3)
        config = uvicorn.Config(create_app(self.tables), host="127.0.0.1", port=port,
                                log_level="warning", timeout_graceful_shutdown=1,
                                **uvicorn_options())
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> None:
        self.thread.start()
        deadline = time.time() + 15
        while not self.server.started:
            assert time.time() < deadline, "the server did not start"
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)

    def table(self, table_id: str) -> Table:
        return self.tables.get(table_id)


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path, free_port())
    running.start()
    yield running
    running.stop()


def record_states(page: Any) -> list[dict[str, Any]]:
    """Every state message the server sends ``page``, as received."""
    received: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        def on_frame(payload: Any) -> None:
            message = json.loads(payload)
            if message.get("type") == "state":
                received.append(message)
        ws.on("framereceived", on_frame)

    page.on("websocket", on_socket)
    return received


def check_hidden(messages: list[dict[str, Any]], seat: int | None) -> dict[str, int]:
    """No message shows ``seat``'s page (None: a spectator's) a card it may not see: the
    central deck's top only while the seat holds the cat and chooses its turn; cards
    looked at, the legal moves and their descriptions only while it decides."""
    seen = {"states": 0, "peeks": 0, "looks": 0}
    for message in messages:
        view, pending = message["view"], message["pending"]
        deciding = seat is not None and pending["seats"] == [seat] and not message["over"]
        central = [d for d in view["decks"] if d["face_up"] is False]
        assert len(central) == 1
        cat = seat is not None and view["seats"][seat]["cat"]
        if central[0].get("top") is not None:
            assert deciding and cat and pending["kind"] == "turn", message["decision"]
            seen["peeks"] += 1
        if "looking" in view:
            assert deciding, message["decision"]
            seen["looks"] += 1
        assert ("actions" in message) == deciding and ("legal" in view) == deciding
        seen["states"] += 1
    return seen


# The page's geometry in one round trip: the document against the window, the decision's
# buttons, the decks one may take from, the seats' panels, where each lies.
GEOMETRY = """() => {
  const box = (n) => { const r = n.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom,
            x: (r.left + r.right) / 2}; };
  const one = (selector) => {
    const n = document.querySelector(selector); return n ? box(n) : null; };
  return {
    width: document.documentElement.scrollWidth, window: window.innerWidth,
    height: window.innerHeight,
    buttons: [...document.querySelectorAll('#choices button')].map(
      (b) => ({move: b.dataset.move, ...box(b)})),
    decks: Object.fromEntries([...document.querySelectorAll('#deck-row .deck')].map((d) =>
      [d.dataset.where, {slot: +d.dataset.deck, cards: +d.dataset.cards,
                         card: d.dataset.top || null,
                         playable: d.classList.contains('playable'), ...box(d)}])),
    panels: [...document.querySelectorAll('[data-seat-panel]')].map((p) => ({
      seat: +p.dataset.seatPanel, place: p.dataset.place, ...box(p),
      built: [...p.querySelectorAll('[data-piece]')].map((x) => x.dataset.built === 'yes'),
      held: Object.fromEntries([...p.querySelectorAll('.held [data-kind]')].map(
        (k) => [k.dataset.kind, +k.dataset.count]))})),
    me: one('.decks-table .me'), centre: one('#centre'),
    looking: !!document.querySelector('#looking'),
  };
}"""


def check_page(page: Any, view: dict[str, Any], seat: int,
               legal: list[str] | None) -> dict[str, Any]:
    """The layout and content facts of a decks game's page as it is now, for ``seat``'s
    ``view`` (``legal``: its moves' notation when it decides)."""
    page.evaluate("() => window.scrollTo(0, 0)")
    found: dict[str, Any] = page.evaluate(GEOMETRY)
    assert found["width"] <= found["window"], \
        f"the page scrolls sideways: {found['width']} px in a {found['window']} px window"
    players = len(view["seats"])
    if legal is not None:
        assert [b["move"] for b in found["buttons"]] == legal
        for button in found["buttons"][:4]:   # the decision's first buttons, in view at once
            assert 0 <= button["top"] and button["bottom"] <= found["height"], button
            assert 0 <= button["left"] and button["right"] <= found["window"], button
        assert found["looking"] == ("looking" in view)
    else:
        assert not found["buttons"] and not found["looking"]
    decks = found["decks"]
    assert decks["left"]["slot"] == next(i for i, d in enumerate(view["decks"])
                                         if d["owner"] == seat)
    assert decks["right"]["slot"] == next(i for i, d in enumerate(view["decks"])
                                          if d["owner"] == right_of(seat, players))
    assert decks["left"]["x"] < decks["central"]["x"] < decks["right"]["x"]
    for where, drawn in decks.items():
        deck = view["decks"][drawn["slot"]]
        assert drawn["cards"] == deck["cards"] and drawn["card"] == deck.get("top"), where
    panels = {p["seat"]: p for p in found["panels"]}
    assert sorted(panels) == list(range(players))
    for number, info in enumerate(view["seats"]):
        assert panels[number]["built"] == info["built"]
        assert panels[number]["held"] == info["cards"]
    me = panels[seat]
    assert me["place"] == "you" and me["top"] > found["centre"]["top"]
    if players > 2:   # the left neighbour on the left of the seat, the right one on its right
        left, right = panels[left_of(seat, players)], panels[right_of(seat, players)]
        assert left["place"] == "your left neighbour" and right["place"] == "your right neighbour"
        assert left["x"] < me["x"] < right["x"], (left, me, right)
        for other in set(panels) - {seat, left_of(seat, players), right_of(seat, players)}:
            assert panels[other]["bottom"] <= min(left["top"], right["top"]) + 1
    else:
        assert panels[1 - seat]["bottom"] <= found["centre"]["top"] + 1   # across the table
    return found


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_human_plays_architects_against_a_bot(browser: Any, server: Server, size: str) -> None:
    suffix = "" if size == "desktop" else "-phone"
    lobby = new_page(browser, size)
    table_id, links = create_in_lobby(lobby, server, "architects", ["human", "random"])
    assert sorted(links) == [0]
    page = new_page(browser, size)
    watcher = new_page(browser, size)
    errors: list[str] = []
    for each in (page, watcher):
        each.on("pageerror", lambda error: errors.append(str(error)))
    mine, spectated = record_states(page), record_states(watcher)
    check_served_policy(page.goto(links[0]))
    check_served_policy(watcher.goto(f"{server.url}/table/{table_id}"))
    decisions = taps = 0
    pictured = False
    kinds: set[str] = set()
    while not server.table(table_id).game.over:
        table = server.table(table_id)
        number = table.decision_number
        waiting = table.waiting_for()
        if table.decision_number != number:
            continue   # the bot moved between the two reads
        if waiting == [0]:
            try:
                page.wait_for_function(f"() => document.body.dataset.decision === '{number}'",
                                       timeout=WAIT_MS)
                page.wait_for_selector("#choices button", timeout=WAIT_MS)
            except Exception:
                shown = page.evaluate("() => ({...document.body.dataset, refused: "
                                      "document.getElementById('refused').textContent})")
                raise AssertionError(f"decision {number} (waiting for {waiting}, now "
                                     f"{server.table(table_id).decision_number}) never shown: "
                                     f"{shown}; page errors {errors}") from None
            game = table.game.clone()
            kind = game.decision().kind
            legal = [str(m) for m in game.legal_actions(0)]
            found = check_page(page, game.view(0), 0, legal)
            if kind == "turn" and decisions >= 12 and not pictured:
                shot(page, f"architects-turn{suffix}")
                pictured = True
            kinds.add(kind)
            choice = decisions % len(legal)
            playable = [d for d in found["decks"].values() if d["playable"]]
            if kind == "turn" and decisions % 3 == 1 and playable:
                page.locator(f"#deck-row .deck[data-deck='{playable[0]['slot']}']").click()
                taps += 1
            else:
                page.locator("#choices button").nth(choice).click()
            decisions += 1
        wait_until(lambda: server.table(table_id).decision_number > number
                   or server.table(table_id).game.over, WAIT_MS / 1000)
    for each in (page, watcher):
        each.wait_for_selector("#winner", timeout=WAIT_MS)
        check_layout_at_end(each)
        assert not csp_violations(each), csp_violations(each)
    shot(page, f"architects-final-score{suffix}")
    final = server.table(table_id).game
    shown = page.evaluate("""() => [...document.querySelectorAll('#score-sheet tr.total td')].map(
        (td) => +td.textContent)""")
    assert shown == final.score_sheet().totals
    assert "game over" in page.inner_text("#recap")
    assert decisions >= 10 and taps >= 2 and "turn" in kinds
    print(f"{size}: {decisions} decisions of the human ({sorted(kinds)}), {taps} decks tapped")
    ours, theirs = check_hidden(mine, 0), check_hidden(spectated, None)
    assert ours["states"] >= decisions and theirs["states"] >= decisions
    assert theirs["peeks"] == theirs["looks"] == 0
    assert not errors, errors


def check_layout_at_end(page: Any) -> None:
    found = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert found[0] <= found[1], found


def decision_samples() -> list[tuple[int, dict[str, Any], dict[str, Any]]]:
    """(seat, welcome, state) as the server would send them: one per decision kind and table
    size from 2 to 7 (the seat deciding, from random play through ``Table.submit``), plus a
    turn of the cat holder (who sees the central top) and a page whose neighbour is
    looking into a deck (it sees nothing of it)."""
    source = sources()[0]
    found: dict[Any, tuple[int, dict[str, Any], dict[str, Any]]] = {}
    for players in range(2, 8):
        for seed in range(6):
            tables = Tables(None, [source])
            table = tables.create({"game": "architects", "players": players,
                                   "seats": ["human"] * players, "seed": seed})
            for entry in table.seats:
                entry.token = "t"
            rng = random.Random(seed)
            while not table.game.over:
                seat = table.game.to_move()[0]
                kind = table.game.decision().kind
                keys = [(players, kind)]
                view = table.game.view(seat)
                if view["decks"][-1]["top"] is not None:
                    keys.append(("peek", players > 2))
                if kind == "keep":
                    keys.append(("watching a look", players > 2))
                for key in keys:
                    if key in found:
                        continue
                    viewer = left_of(seat, players) if key[0] == "watching a look" else seat
                    welcome = {"type": "welcome", "seat": viewer, "table": table.summary(),
                               "catalogue": catalogue(source.data)}
                    found[key] = (viewer, welcome, json.loads(json.dumps(table.state_for(viewer))))
                table.submit(seat, table.decision_number,
                             rng.choice(table.game.legal_actions(seat)).to_json())
    return list(found.values())


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_every_decks_decision_is_drawn_and_sent(browser: Any, server: Server, size: str) -> None:
    """Every decision kind at every table size: each move a button (its notation the
    engine's), a click sends exactly that move for the open decision, the layout facts
    hold (the neighbours left and right, the others across, nothing wider than the window),
    a looking seat's cards shown to it alone, the central top only when the view gives it."""
    samples = decision_samples()
    kinds = {state["pending"]["kind"] for _, _, state in samples}
    assert {"turn", "deck", "look", "keep", "build", "progress", "extra"} <= kinds, kinds
    assert any(state["view"]["decks"][-1].get("top") for _, _, state in samples)
    page = new_page(browser, size)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    current: dict[str, Any] = {}
    sent: list[dict[str, Any]] = []

    def fake_server(ws: Any) -> None:
        def on_message(text: Any) -> None:
            message = json.loads(text)
            if message["type"] == "join":
                ws.send(json.dumps(current["welcome"]))
                ws.send(json.dumps(current["state"]))
            else:
                sent.append(message)
        ws.on_message(on_message)

    page.route_web_socket(lambda url: "/ws/" in url, fake_server)
    pictured: set[int] = set()
    for number, (seat, welcome, state) in enumerate(samples):
        current.update(welcome=welcome, state=state)
        sent.clear()
        page.goto(f"{server.url}/table/sample{number}#token=t")
        page.wait_for_function(f"() => document.body.dataset.decision === '{state['decision']}'",
                               timeout=WAIT_MS)
        described = state.get("actions")
        legal = [" ".join([a["kind"], *a["words"]]) for a in described["actions"]] \
            if described else None
        where = f"{len(state['view']['seats'])} players, {state['pending']['kind']}, seat {seat}"
        try:
            check_page(page, state["view"], seat, legal)
        except AssertionError as exc:
            raise AssertionError(f"{where} ({size}): {exc}") from None
        central = page.get_attribute("#deck-row .deck[data-where='central']", "data-top")
        assert (central or None) == state["view"]["decks"][-1].get("top"), where
        if "looking" in state["view"]:
            chips = page.eval_on_selector_all(
                "#looking [data-kind]", "(ks) => ks.map((k) => [k.dataset.kind, +k.dataset.count])")
            assert sum(n for _, n in chips) == len(state["view"]["looking"]), where
        assert not csp_violations(page), (where, csp_violations(page))
        players = len(state["view"]["seats"])
        if players in (4, 7) and state["pending"]["kind"] == "turn" and players not in pictured:
            shot(page, f"architects-{players}-players-{size}")
            pictured.add(players)
        if described:
            index = described["actions"][-1]["index"]
            page.click(f"#choices [data-action-index=\"{index}\"]")
            wait_until(lambda: bool(sent), WAIT_MS / 1000)
            assert sent == [{"type": "act", "decision": state["decision"],
                             "action": described["actions"][-1]["json"]}], where
    assert not errors, errors
