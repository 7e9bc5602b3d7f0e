"""The online table in a real browser: headless Chromium (the operating system's package)
driven by Playwright, against a uvicorn server in a background thread.

Scenarios: a 3-player base game, two humans in two browser contexts and a bot, with
the cost indicators of both humans' hands checked against the engine's payments on
every turn, the server restarted mid-game (both pages reconnect to their seats and
play on), a page reloaded, and forged messages refused; a Duel game, a human against a bot;
and every decision kind of both games (a side, a turn, a last card, a discard-pile build, a
card to destroy, a token, a wonder draft, who starts), given to the page through a routed
websocket as the server would send it, with every legal action reachable and sent as is.  The
humans play the first action offered, so a whole game takes seconds.

Every page meets the server exactly as served: its real Content-Security-Policy (the
browser context never turns it off), any violation of it failing the test.  The games are played at a desktop
size and at a phone's (390×844), and the layout is checked as a person would look at it:
the structure's rows centred and each card lying half on each of the two below it, no
badge over a card name, no sideways scrolling, a tapped card's actions in view.

Set ``WONDERS_SCREENSHOTS=DIR`` to save screenshots of the main screens there
(``docs/screenshots`` holds the ones the README shows; ``-phone`` ones at 390×844).
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from ports import free_port

pytest.importorskip("starlette", reason="wonders serve needs Starlette")
uvicorn = pytest.importorskip("uvicorn", reason="wonders serve needs uvicorn")
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="the browser tests need Playwright (pip install playwright)")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip("the browser tests need Chromium from the operating system's packages "
                "(apt-get install chromium)", allow_module_level=True)

from wonders.engine.actions import Build, Sell  # noqa: E402
from wonders.engine.contract import GameState  # noqa: E402
from wonders.engine.flow_actions import Move  # noqa: E402
from wonders.engine.table import left_of, right_of  # noqa: E402
from wonders.serve import present  # noqa: E402
from wonders.serve.app import create_app, uvicorn_options  # noqa: E402
from wonders.serve.tables import Table, Tables, load_source  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = os.environ.get("WONDERS_SCREENSHOTS")
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
SIZES = {"desktop": DESKTOP, "phone": PHONE}
# Every Content-Security-Policy violation of a page, recorded as it happens (an init script
# runs before the page's own and is not itself subject to the policy).
RECORD_CSP = """window.__csp = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));"""
SOURCES: list[Any] = []
TIMEOUT_MS = 20_000


def sources() -> list[Any]:
    if not SOURCES:
        SOURCES.extend(load_source(name) for name in ("base", "duel", "dice", "pantheon",
                                                      "agora"))
    return SOURCES


class Server:
    """A uvicorn server in a thread, on a fixed port and data folder, restartable."""

    def __init__(self, data_dir: Path, port: int) -> None:
        self.data_dir = data_dir
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.tables: Tables | None = None
        self.server: Any = None
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        self.tables = Tables(self.data_dir, sources(), search_seconds=0.3)
        config = uvicorn.Config(create_app(self.tables), host="127.0.0.1", port=self.port,
                                log_level="warning", timeout_graceful_shutdown=1,
                                **uvicorn_options())   # as `wonders serve` runs it
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.time() + 15
        while not self.server.started:
            assert time.time() < deadline, "the server did not start"
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        assert self.thread is not None
        self.thread.join(15)
        assert not self.thread.is_alive(), "the server did not stop"

    def table(self, table_id: str) -> Table:
        assert self.tables is not None
        return self.tables.get(table_id)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path, free_port())
    running.start()
    yield running
    running.stop()


def new_page(browser: Any, size: str = "desktop") -> Any:
    """A page in a context of its own (its own cookies, storage and window size), with the
    policy as served and its violations recorded."""
    viewport = SIZES[size]
    phone = size == "phone"
    context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone,
                                  device_scale_factor=2 if phone else 1)
    context.add_init_script(RECORD_CSP)
    return context.new_page()


def csp_violations(page: Any) -> list[str]:
    found: list[str] = page.evaluate("() => window.__csp || []")
    return found


def check_served_policy(response: Any) -> None:
    """The page came with its strict policy: no inline style or script allowed."""
    policy = response.headers.get("content-security-policy", "")
    assert "default-src 'self'" in policy and "unsafe-inline" not in policy, policy


# The page's geometry, read in one round trip: the structure's cards by row with their
# columns, every badge and card name shown (not those of a closed <details>), the document's
# width against the window's.
GEOMETRY = """() => {
  const box = (n) => { const r = n.getBoundingClientRect();
                       return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  const structure = document.getElementById('structure');
  return {
    width: document.documentElement.scrollWidth, window: window.innerWidth,
    structure: structure ? box(structure) : null,
    panel: structure ? box(structure.closest('.panel')) : null,
    rows: [...document.querySelectorAll('#structure .structure-row')].map((row) =>
      [...row.children].map((card) => ({column: +card.dataset.column, ...box(card)}))),
    marks: [...document.querySelectorAll('.mark, .stage-tag, .badge, .why-not')].filter(
      (n) => n.checkVisibility()).map((n) => ({text: n.textContent, ...box(n)})),
    names: [...document.querySelectorAll('.card-name')].filter(
      (n) => n.checkVisibility()).map((n) => ({text: n.textContent, ...box(n),
        card: box(n.closest('.card, .die, .wonder') || n)})),
  };
}"""


def _overlap(a: dict[str, float], b: dict[str, float]) -> float:
    """The area two rectangles share (0 when they only touch)."""
    width = min(a["right"], b["right"]) - max(a["left"], b["left"])
    height = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return max(0.0, width) * max(0.0, height)


def check_layout(page: Any, structure: list[list[Any]] | None = None) -> dict[str, Any]:
    """The layout facts a person checks at a glance, on the page as it is now:

    * nothing is wider than the window (no sideways scrolling);
    * no badge (a ✓/✗ mark, a stage tag, a seat's badge) covers any card name, and every
      card name lies inside its card;
    * the card structure (``structure``: the view's rows, when the page shows one): a row
      whose cards are all still there is centred on the structure, and the structure in
      its panel; each card lies on half of each of the two cards below it (an overlap of
      40–60 % of a card's width, the row below lower down); no two cards of a row overlap.
    """
    found: dict[str, Any] = page.evaluate(GEOMETRY)
    assert found["width"] <= found["window"], \
        f"the page scrolls sideways: {found['width']} px wide in a {found['window']} px window"
    for mark in found["marks"]:
        for name in found["names"]:
            assert _overlap(mark, name) < 1.0, f"badge {mark['text']!r} covers {name['text']!r}"
    for name in found["names"]:
        card = name["card"]
        assert card["left"] - 1 <= name["left"] and name["right"] <= card["right"] + 1, \
            f"the name {name['text']!r} spills out of its card"
    if not structure:
        return found
    rows = found["rows"]
    assert len(rows) == len(structure)
    middle = (found["structure"]["left"] + found["structure"]["right"]) / 2
    panel = found["panel"]
    assert abs((panel["left"] + panel["right"]) / 2 - middle) < 2.0, "the structure is off-centre"
    for drawn, places in zip(rows, structure):
        assert [c["column"] for c in drawn] == [p["column"] for p in places if p]
        if drawn and all(places):
            centre = (min(c["left"] for c in drawn) + max(c["right"] for c in drawn)) / 2
            assert abs(centre - middle) < 2.0, f"row {[p['column'] for p in places]} is off-centre"
        for a, b in zip(drawn, drawn[1:]):
            assert a["right"] <= b["left"] + 0.5, "two cards of a row overlap"
    for upper, lower in zip(rows, rows[1:]):
        for card in upper:
            under = [c for c in lower if abs(c["column"] - card["column"]) == 1]
            for below in under:
                width = card["right"] - card["left"]
                shared = min(card["right"], below["right"]) - max(card["left"], below["left"])
                assert 0.4 * width <= shared <= 0.6 * width, \
                    f"column {card['column']} lies on {shared / width:.0%} of column {below['column']}"
                assert below["top"] > card["top"], "a row below is drawn higher up"
    return found


def check_tapped_actions(page: Any, selector: str) -> None:
    """Tapping (clicking) the card shows its actions, every button inside the window."""
    page.click(selector)
    page.wait_for_selector("#card-actions button.action", timeout=TIMEOUT_MS)
    shown = page.evaluate("""() => [...document.querySelectorAll('#card-actions button')].map(
        (b) => { const r = b.getBoundingClientRect();
                 return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; })""")
    size = page.viewport_size
    for button in shown[:4]:   # the first ones at least; a long list scrolls in its tray
        assert 0 <= button["top"] and button["bottom"] <= size["height"], (button, size)
        assert 0 <= button["left"] and button["right"] <= size["width"], (button, size)


def shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.keyboard.press("Escape")   # a card's actions tray, opened by a check, closed
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def create_in_lobby(page: Any, server: Server, game: str, seats: list[str],
                    sides: str = "choose", speed: str = "untimed") -> tuple[str, dict[int, str]]:
    """Create a table with the lobby's form; the table id and each human seat's link."""
    check_served_policy(page.goto(server.url + "/"))
    page.select_option("#game", game)
    page.fill("#players", str(len(seats)))
    page.dispatch_event("#players", "change")
    for seat, kind in enumerate(seats):
        page.select_option(f"#seat{seat}", kind)
    if page.is_enabled("#sides"):
        page.select_option("#sides", sides)
    page.select_option("#speed", speed)
    page.click("#create-button")
    page.wait_for_selector("#join-links")
    assert not csp_violations(page), csp_violations(page)
    shot(page, f"lobby-{game}")
    links = {int(a.get_attribute("data-seat")): a.get_attribute("href")
             for a in page.query_selector_all("a.join")}
    spectate = page.get_attribute("a.spectate", "href")
    return spectate.rstrip("/").split("/")[-1], links


def wait_decision(page: Any, number: int) -> None:
    try:
        page.wait_for_function(f"() => document.body.dataset.decision === '{number}'",
                               timeout=TIMEOUT_MS)
    except sync_api.TimeoutError:
        shown = page.evaluate("() => ({...document.body.dataset, "
                              "connection: document.getElementById('connection').textContent, "
                              "refused: document.getElementById('refused').textContent})")
        raise AssertionError(f"the page never showed decision {number}: {shown}") from None


def other_seat_plays(page: Any, server: Server, table_id: str, number: int) -> None:
    """The other human plays decision ``number`` on its page: no trigger (when it may skip
    one), else the first thing offered; returns once the server has it."""
    wait_decision(page, number)
    page.wait_for_selector("#decide h2", timeout=TIMEOUT_MS)
    skip = page.locator("#choices button[data-kind='skip']")
    if server.table(table_id).game.decision().kind == "trigger" and skip.count():
        skip.first.click(timeout=TIMEOUT_MS)
    else:
        play_first(page)
    wait_until(lambda: server.table(table_id).decision_number > number)


def open_decision(server: Server, table_id: str) -> tuple[Table, int, list[int]]:
    """The table, its open decision's number and the seats it waits for, read together.

    The server plays in another thread: a bot may close a decision between two reads, and a
    test that waited for the old number on a page already showing the next one would hang.
    The number read again after the seats tells whether both belong to one decision."""
    while True:
        table = server.table(table_id)
        number = table.decision_number
        waiting = table.waiting_for()
        if table.decision_number == number:
            return table, number, waiting


def expected_marks(table: Table, seat: int) -> dict[str, tuple[str, int]]:
    """What each card of the hand should show, from the engine's own legal actions."""
    game = table.game.clone()
    found: dict[str, tuple[str, int]] = {}
    for name in game.view(seat).get("hand") or []:
        builds = [a for a in game.legal_actions(seat)
                  if isinstance(a, Build) and a.card.name == name]
        if not builds:
            found[name] = ("cannot", 0)
        elif any(b.method == "chain" for b in builds):
            found[name] = ("chain", 0)
        elif any(b.method == "free_build" for b in builds):
            found[name] = ("free", 0)
        else:
            trade = min(b.payment.left + b.payment.right for b in builds)
            found[name] = ("trade" if trade else "own", trade)
    return found


def shown_marks(page: Any) -> dict[str, tuple[str, int]]:
    found: dict[str, tuple[str, int]] = {}
    for card in page.query_selector_all("#hand .card"):
        mark = card.query_selector(".mark")
        found[card.get_attribute("data-card")] = (
            mark.get_attribute("data-mark"), int(mark.get_attribute("data-trade")))
    return found


def check_payment_choice(page: Any, table: Table, seat: int) -> int:
    """For a card the seat can pay for in several ways, the page offers each payment the
    engine lists, one button each (1 when checked, 0 when no card had a choice)."""
    game = table.game.clone()
    by_card: dict[str, list[dict[str, int]]] = {}
    for action in game.legal_actions(seat):
        if isinstance(action, Build):  # every way to build it: payments, chain, power
            by_card.setdefault(action.card.name, []).append(action.payment.to_json())
    several = [name for name, payments in by_card.items() if len(payments) > 1]
    if not several:
        return 0
    name = several[0]
    page.click(f"#hand .card[data-card=\"{name}\"]")
    buttons = page.query_selector_all(f"[data-card-actions=\"{name}\"] button[data-kind=build]")
    def key(payment: dict[str, int]) -> tuple[int, int, int]:
        return payment["left"], payment["right"], payment["bank"]

    shown = sorted((json.loads(b.get_attribute("data-payment")) for b in buttons), key=key)
    assert shown == sorted(by_card[name], key=key)
    return 1


def check_prices(page: Any, table: Table, seat: int) -> int:
    """Each market of the seat's view (a neighbour's, or the bank's) shows in the right
    city panel with the engine's own prices: the number of markets checked (the page
    read in one round trip)."""
    trade = table.game.clone().view(seat)["trade"]
    shown = page.evaluate("""() => [...document.querySelectorAll('[data-city] [data-trade]')].map(
        (line) => ({panel: +line.closest('[data-city]').dataset.city, where: line.dataset.trade,
                    text: line.innerText,
                    prices: Object.fromEntries([...line.querySelectorAll('.price')].map(
                        (span) => [span.dataset.resource, +span.dataset.price])),
                    symbols: Object.fromEntries([...line.querySelectorAll('.price')].map(
                        (span) => [span.dataset.resource, [span.querySelector('.sym').dataset.symbol,
                                   +span.querySelector('.sym[data-symbol=coins]').dataset.count]]))}))""")
    assert sorted((s["panel"], s["where"]) for s in shown) == \
        sorted((market.get("seat", seat), where) for where, market in trade.items())
    for line in shown:
        market = trade[line["where"]]
        assert line["prices"] == market["prices"]
        # each price drawn as the resource's symbol and a coin with the price on it
        assert line["symbols"] == {r: [r, p] for r, p in market["prices"].items()}
    return len(shown)


# Where the seats' panels lie, what their symbols count, what each ✗ card says, read in
# one round trip.
BOARD = """() => {
  const box = (n) => { const r = n.getBoundingClientRect();
                       return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  const middle = document.getElementById('board');
  return {
    middle: middle && middle.checkVisibility() ? box(middle) : null,
    cities: [...document.querySelectorAll('#seating [data-city]')].map((c) => ({
      seat: +c.dataset.city, place: c.dataset.place, ...box(c),
      symbols: [...c.querySelectorAll('.city-symbols .sym')].map((s) =>
        [s.dataset.what, s.dataset.symbol, +s.dataset.count])})),
    hand: [...document.querySelectorAll('#hand .card')].map((card) => ({
      name: card.dataset.card,
      mark: (card.querySelector('.mark') || {dataset: {}}).dataset.mark,
      why: (card.querySelector('.why-not') || {textContent: null}).textContent,
      cost: [...card.querySelectorAll('.card-cost .sym')].map((s) => [s.dataset.symbol, +s.dataset.count])})),
    wonders: Object.fromEntries([...document.querySelectorAll('.wonder-mark')].map((w) => [w.dataset.wonder, {
      mark: w.querySelector('.mark').dataset.mark,
      why: (w.querySelector('.why-not') || {textContent: null}).textContent}])),
  };
}"""


def check_seating(found: dict[str, Any], seat: int, left: int | None, right: int | None,
                  stacked: bool = False) -> None:
    """The page's own city lowest, below the table's middle; its left neighbour's panel to
    the left of its right neighbour's (``stacked``: or above it, sheets too wide for two
    side by side on a phone), both above it; every other seat above them all."""
    panels = {city["seat"]: city for city in found["cities"]}
    mine = panels[seat]
    assert mine["place"] == "you"
    for other in panels.values():
        if other["seat"] != seat:
            assert other["bottom"] <= mine["top"] + 1, (other, mine)
    if found["middle"] is not None:
        assert found["middle"]["bottom"] <= mine["top"] + 1
    if left is None or right is None:   # two seats: the other across, above the middle
        (other,) = [c for c in panels.values() if c["seat"] != seat]
        assert other["place"] == "your opponent"
        if found["middle"] is not None:
            assert other["bottom"] <= found["middle"]["top"] + 1
        return
    west, east = panels[left], panels[right]
    assert west["place"] == "your left neighbour" and east["place"] == "your right neighbour"
    if stacked and west["bottom"] <= east["top"] + 1 and west["left"] == east["left"]:
        pass   # one column: the left neighbour first
    else:
        assert (west["left"] + west["right"]) / 2 < (east["left"] + east["right"]) / 2
        assert west["right"] <= east["left"] + 1
    for city in panels.values():
        if city["seat"] not in (seat, left, right):
            assert city["place"] == "across the table"
            assert city["bottom"] <= min(west["top"], east["top"]) + 1


def expected_symbols(game: GameState, view: dict[str, Any], seat: int) -> list[list[Any]]:
    """A city's symbols as the engine counts them (``view``: the page's seat's):
    coins, shields, then what it makes."""
    city = next(c for c in view["cities"] if c["seat"] == seat)
    found: list[list[Any]] = [["coins", "coins", city["coins"]], ["shields", "shields", city["shields"]]]
    counted = present.symbols(game, seat)
    for what in ("produces", "science"):
        if what in counted:
            found += [[what, name, n] for name, n in counted[what]["fixed"].items()]
            found += [[what, "/".join(choice), 1] for choice in counted[what]["choices"]]
    return found


def check_board(page: Any, table: Table, seat: int, stacked: bool = False) -> int:
    """What a person checks at a glance on a turn: the seats round the table (from the
    view's markets: its left and right neighbours), every city's symbols counted as the
    engine counts them, each ✗ card of the hand (and drafted wonder) saying why not (the
    engine's shortfall), and each card's cost drawn as its resources and coins.  The
    number of drafted wonders whose marks were compared."""
    found = page.evaluate(BOARD)
    game = table.game.clone()
    view = game.view(seat)
    trade = view.get("trade") or {}
    left = trade["left"]["seat"] if "left" in trade else None
    right = trade["right"]["seat"] if "right" in trade else None
    if game.players > 2:   # the engine's neighbours, and the view's markets name them so
        assert (left, right) in ((None, None), (left_of(seat, game.players), right_of(seat, game.players)))
        left, right = left_of(seat, game.players), right_of(seat, game.players)
    check_seating(found, seat, left, right, stacked)
    assert {c["seat"] for c in found["cities"]} == set(range(game.players))
    for city in found["cities"]:
        if "crossed" not in view["cities"][city["seat"]]:   # (a dice sheet counts otherwise)
            assert city["symbols"] == expected_symbols(game, view, city["seat"]), city["seat"]
    cards = {a.card.name: a.card for a in game.legal_actions(seat) if isinstance(a, Sell)}
    rich = present.rich_payments(game, seat)
    for card in found["hand"]:
        engine = cards[card["name"]]
        cost = ([["coins", engine.cost.coins]] if engine.cost.coins else []) + \
            [[r, n] for r, n in engine.cost.resources]
        assert card["cost"] == cost, card
        if card["mark"] == "cannot":
            assert card["why"] == present.why_not(game, seat, engine, view, rich), card
            assert card["why"]
        else:
            assert card["why"] is None, card
    unbuilt = []
    if seat in game.to_move() and game.decision().kind == "turn":   # each drafted wonder
        unbuilt = getattr(game.cities[seat], "wonders", [])
        assert set(found["wonders"]) == {w.name for w in unbuilt}
        for wonder in unbuilt:
            mark = found["wonders"][wonder.name]
            if mark["mark"] == "cannot":
                assert mark["why"] == present.why_not_wonder(game, seat, wonder, view, rich)
            else:
                assert mark["why"] is None, mark
    return len(unbuilt)


def check_sale_words(page: Any, table: Table, seat: int) -> int:
    """A card's sale says the coins it gives (the rules' sell coins for this seat); 1 when
    checked."""
    gain = present.sell_gain(table.game.clone(), seat)
    assert gain is not None
    page.click("#hand .card.playable >> nth=0")
    text = page.inner_text("#card-actions button[data-kind=sell]")
    assert text.endswith(f" for {gain} coins"), text
    page.keyboard.press("Escape")
    return 1


def check_tray_why(page: Any, table: Table, seat: int) -> int:
    """Tapping a ✗ card of the structure shows, with its actions, why it cannot be built
    (in view, at the top of the tray): 1 when a ✗ card was there."""
    cross = page.query_selector("#structure .card.playable:has(.mark-cannot)")
    if cross is None:
        return 0
    name = cross.get_attribute("data-card")
    game = table.game.clone()
    card = next(a.card for a in game.legal_actions(seat) if isinstance(a, Sell) and a.card.name == name)
    cross.click()
    why = page.wait_for_selector("#card-actions .tray-why", timeout=TIMEOUT_MS)
    assert why.inner_text() == f"You cannot build it: {present.why_not(game, seat, card, game.view(seat))}."
    box = why.bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= page.viewport_size["height"]
    page.keyboard.press("Escape")
    return 1


def check_score_sheet_first(page: Any) -> None:
    """A finished game shows its final score sheet first, the rematch button with it."""
    tops = page.evaluate("""() => ['scores', 'players', 'recap', 'decide', 'cities'].map(
        (id) => document.getElementById(id)).filter((n) => n.checkVisibility()).map(
        (n) => n.getBoundingClientRect().top)""")
    assert tops[0] < min(tops[1:]), tops
    assert page.is_visible("#rematch")


def check_military_summary(page: Any, recap: dict[str, Any]) -> None:
    """The age's battles at a glance: each pair of neighbours with the shields compared and
    the winner marked, the tokens won by each seat summed, as the recap has them."""
    military = recap["military"]
    shown = page.evaluate("""() => ({
        pairs: [...document.querySelectorAll('#military-summary .battle-pair')].map((p) => ({
            seats: p.dataset.seats, winner: p.dataset.winner,
            shields: [...p.querySelectorAll('.sym[data-symbol=shields]')].map((s) => +s.dataset.count),
            won: [...p.querySelectorAll('.battle-side.won')].map((s) => +s.dataset.seat)})),
        sums: Object.fromEntries([...document.querySelectorAll('#military-summary .battle-won')].map(
            (w) => [w.dataset.seat, +w.dataset.sum]))})""")
    assert [p["seats"] for p in shown["pairs"]] == [f"{a} {b}" for a, b in (p["seats"] for p in military["pairs"])]
    for drawn, pair in zip(shown["pairs"], military["pairs"]):
        assert drawn["shields"] == pair["shields"]
        assert drawn["winner"] == ("tie" if pair["winner"] is None else str(pair["winner"]))
        assert drawn["won"] == ([] if pair["winner"] is None else [pair["winner"]])
    assert shown["sums"] == {str(s): sum(p for _, p in tokens)
                             for s, tokens in enumerate(military["tokens"]) if tokens}


def check_rematch(page: Any, server: Server, table_id: str) -> None:
    """The rematch button makes a new table like this one and, with no other human seat,
    opens this page's seat there."""
    old = server.table(table_id)
    page.click("#rematch")
    page.wait_for_url(lambda url: table_id not in url and "#token=" in url, timeout=TIMEOUT_MS)
    new_id = page.url.split("#")[0].rstrip("/").split("/")[-1]
    new = server.table(new_id)
    assert [s.kind for s in new.seats] == [s.kind for s in old.seats]
    assert new.source.label == old.source.label and not new.game.over
    page.wait_for_function("() => document.body.dataset.connected === 'yes'", timeout=TIMEOUT_MS)
    assert page.evaluate("() => document.body.dataset.seat") == "0"


def play_first(page: Any) -> None:
    """Play the first action the page offers: a choice button, else a card's first action
    (its actions in view once the card is tapped)."""
    # locators, not element handles: a click finds its element again should a state sent
    # meanwhile (a bot choosing) have redrawn that part of the page
    if page.query_selector("#choices button") is None:
        check_tapped_actions(page, ".card.playable >> nth=0")
        page.locator("#card-actions button.action").first.click(timeout=TIMEOUT_MS)
    else:
        page.locator("#choices button").first.click(timeout=TIMEOUT_MS)


def wait_until(check: Any, seconds: float = 20.0) -> None:
    deadline = time.time() + seconds
    while not check():
        assert time.time() < deadline, "timed out"
        time.sleep(0.02)


def test_two_humans_and_a_bot_play_base_through_a_restart(browser: Any, server: Server) -> None:
    lobby = new_page(browser)
    table_id, links = create_in_lobby(lobby, server, "base", ["human", "human", "greedy"])
    assert sorted(links) == [0, 1]
    # seat 0 plays at a desktop's size, seat 1 on a phone
    pages = {0: new_page(browser, "desktop"), 1: new_page(browser, "phone")}
    errors: list[str] = []
    for page in pages.values():
        page.on("pageerror", lambda error: errors.append(str(error)))
    for seat, page in pages.items():
        check_served_policy(page.goto(links[seat]))
        page.wait_for_function("() => document.body.dataset.connected === 'yes'", timeout=TIMEOUT_MS)
    watcher = new_page(browser, "phone")
    watcher.goto(f"{server.url}/table/{table_id}")

    # forged messages: another seat's action from seat 0's connection, a wrong token
    wait_decision(pages[0], 0)
    pages[0].evaluate("() => send({type: 'act', seat: 1, decision: 0, "
                      "action: {action: 'side', side: 'A'}})")
    pages[0].wait_for_function(
        "() => document.getElementById('refused').textContent.includes('plays seat 0')")
    refusal = pages[0].evaluate("""(table) => new Promise((done) => {
        const ws = new WebSocket(`ws://${location.host}/ws/${table}`);
        ws.onopen = () => ws.send(JSON.stringify({type: 'join', token: 'forged'}));
        ws.onmessage = (event) => { done(JSON.parse(event.data)); ws.close(); };
    })""", table_id)
    assert refusal["type"] == "refused"
    assert "no seat of this table has that token" in refusal["reason"]
    assert server.table(table_id).decision_number == 0

    checked_turns = 0
    crosses = sales_checked = 0
    payments_checked = 0
    prices_checked = 0
    restarted = reloaded = False
    shots_taken: set[tuple[str, int]] = set()
    while not server.table(table_id).game.over:
        table, number, waiting = open_decision(server, table_id)
        if number >= 5 and not restarted:  # restart mid-game: the pages reconnect by themselves
            server.stop()
            for page in pages.values():   # seen the loss first: a stale 'yes' proves nothing
                page.wait_for_function("() => document.body.dataset.connected === 'no'",
                                       timeout=TIMEOUT_MS)
            server.start()
            restarted = True
            table, number, waiting = open_decision(server, table_id)
            for page in pages.values():
                page.wait_for_function("() => document.body.dataset.connected === 'yes'",
                                       timeout=TIMEOUT_MS)
        if number >= 9 and not reloaded:  # a reload: the page joins its seat again by its link
            pages[1].reload()
            reloaded = True
        for seat, page in pages.items():
            if seat not in waiting:
                continue
            wait_decision(page, number)
            page.wait_for_selector("#decide h2", timeout=TIMEOUT_MS)
            if table.game.decision().kind == "turn":
                assert shown_marks(page) == expected_marks(table, seat)
                checked_turns += 1
                payments_checked += check_payment_choice(page, table, seat)
                prices_checked += check_prices(page, table, seat)
                check_board(page, table, seat)
                crosses += sum(1 for m in shown_marks(page).values() if m[0] == "cannot")
                if not sales_checked:
                    sales_checked = check_sale_words(page, table, seat)
            check_layout(page)
            kind = table.game.decision().kind
            if (kind, seat) not in shots_taken:
                shots_taken.add((kind, seat))
                shot(page, f"base-{kind}" + ("-phone" if seat == 1 else ""))
            play_first(page)
        try:
            wait_until(lambda: server.table(table_id).decision_number > number)
        except AssertionError:
            print("STUCK", number, waiting, table.pending, table.bots_busy,
                  {s: p.inner_text("#refused") for s, p in pages.items()})
            raise
    assert restarted and reloaded and checked_turns >= 30 and payments_checked
    assert crosses and sales_checked   # some ✗ cards said why not; a sale said its coins
    assert prices_checked >= 2 * checked_turns   # both neighbours' prices, every turn
    assert not watcher.query_selector("[data-trade]")   # a spectator buys nothing
    for page in (*pages.values(), watcher):
        page.wait_for_selector("#winner", timeout=TIMEOUT_MS)
    shot(pages[0], "base-final-score")
    shot(pages[1], "base-final-score-phone")
    shot(watcher, "base-spectator-phone")
    for page in (*pages.values(), watcher):
        check_layout(page)
        assert not csp_violations(page), csp_violations(page)
    assert "Winner" in pages[0].inner_text("#winner")
    assert "civilian" not in pages[0].inner_text("#winner")   # base is won on points alone
    check_score_sheet_first(pages[0])
    check_military_summary(pages[0], server.table(table_id).recaps[-1])
    # the last decision's recap: the three moves, and the age's battles apart (a summary,
    # and the same in words)
    final = server.table(table_id).recaps[-1]
    for page in (*pages.values(), watcher):
        # (the winner and the recap come in one state; the recap's list may be drawn a
        # moment after the winner line on a loaded machine: wait for it, then check it)
        page.wait_for_function("() => document.querySelectorAll('#recap-moves li').length >= 3",
                               timeout=TIMEOUT_MS)
        assert len(page.query_selector_all("#recap-moves li")) == 3
        # (drawn as a summary, the words folded under it: their text, shown or not)
        battles = [li.text_content() for li in page.query_selector_all("#recap-battles li")]
        assert battles == final["battles"] and len(battles) >= 3
    seller = [m for m in final["moves"] if "private" in m]
    for move in seller:   # a card sold in the last turn is named to its seller only
        page_of_seller = pages.get(move["seat"])
        if page_of_seller is not None:
            assert move["private"] in page_of_seller.inner_text("#recap-moves")
        assert move["private"] not in watcher.inner_text("#recap-moves")
    assert not watcher.query_selector("#hand")
    assert not watcher.query_selector("#rematch")   # a spectator has no seat to take again
    # a rematch with another human: the new table's link for seat 1, then seat 0's own
    pages[0].click("#rematch")
    other = pages[0].wait_for_selector("#rematch-seats a[data-seat='1']", timeout=TIMEOUT_MS)
    own = pages[0].get_attribute("#rematch-open", "href")
    new_id = own.split("#")[0].rstrip("/").split("/")[-1]
    assert new_id != table_id and "#token=" in own and f"/table/{new_id}#token=" in other.get_attribute("href")
    assert [s.kind for s in server.table(new_id).seats] == ["human", "human", "greedy"]
    assert not errors, errors


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_human_plays_duel_against_a_bot(browser: Any, server: Server, size: str) -> None:
    """A whole Duel game at one window size, the structure's layout checked on every turn of
    the human (so at each age's full pyramid and as it empties)."""
    suffix = "" if size == "desktop" else "-phone"
    lobby = new_page(browser, size)
    table_id, links = create_in_lobby(lobby, server, "duel", ["human", "greedy"])
    page = new_page(browser, size)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    check_served_policy(page.goto(links[0]))
    shots_taken: set[str] = set()
    prices_seen = False
    layouts_checked = crosses = wonders_checked = 0
    while not server.table(table_id).game.over:
        table, number, waiting = open_decision(server, table_id)
        if 0 in waiting:
            wait_decision(page, number)
            page.wait_for_selector("#decide h2", timeout=TIMEOUT_MS)
            kind = table.game.decision().kind
            if kind == "turn":
                assert page.query_selector("#structure") and page.query_selector("#track")
                faces = page.query_selector_all("#structure [data-face='down']")
                hidden = sum(1 for row in table.game.view(0)["structure"]
                             for place in row if place and place["card"] is None)
                assert len(faces) == hidden
                assert check_prices(page, table, 0) == 1   # the bank's prices, own panel
                prices_seen = True
                check_layout(page, table.game.clone().view(0)["structure"])
                wonders_checked += check_board(page, table, 0)
                crosses += check_tray_why(page, table, 0)
                layouts_checked += 1
            else:
                check_layout(page)
            if kind not in shots_taken:
                shots_taken.add(kind)
                shot(page, f"duel-{kind}{suffix}")
            play_first(page)
        try:
            wait_until(lambda: server.table(table_id).decision_number > number
                       or server.table(table_id).game.over)
        except AssertionError:   # say where it stopped: the table's and the page's side
            stuck = server.table(table_id)
            raise AssertionError(
                f"decision {number} never closed: waiting for {stuck.waiting_for()}, bots "
                f"busy {stuck.bots_busy}, page at "
                f"{page.evaluate('() => [state.decision, document.body.dataset.connected]')}, "
                f"refused {page.inner_text('#refused')!r}") from None
    page.wait_for_selector("#winner", timeout=TIMEOUT_MS)
    shot(page, f"duel-final-score{suffix}")
    check_layout(page)
    victory = server.table(table_id).game.score_sheet().victory
    assert f"({victory} victory)" in page.inner_text("#winner")   # Duel names how it was won
    assert "turn" in shots_taken and "wonder_draft" in shots_taken and prices_seen
    assert layouts_checked >= 6 and wonders_checked   # (each drafted wonder's mark, why-not)
    check_score_sheet_first(page)
    assert not csp_violations(page), csp_violations(page)
    check_rematch(page, server, table_id)
    assert not errors, errors


# A priced row's page, read in one round trip: each space's face, item, each seat's cost
# and what the space offers; the tokens lying on the structure's cards (by place); every
# city's coins, shields and tokens; the conflict track's pawn and blocked space.
ROW = """() => ({
  spaces: [...document.querySelectorAll('#row .row-space')].map((s) => ({
    space: +s.dataset.space, face: s.dataset.face, item: s.dataset.item || null,
    costs: [...s.querySelectorAll('.space-price')].map((p) => [+p.dataset.seat, +p.dataset.cost]),
    playable: s.classList.contains('playable'),
    mark: (s.querySelector('.mark') || {dataset: {}}).dataset.mark || null})),
  tokens: Object.fromEntries([...document.querySelectorAll('#structure [data-place]')]
    .filter((c) => c.querySelector('.slot-token'))
    .map((c) => [c.dataset.place, c.querySelector('.slot-token').dataset.token])),
  cities: Object.fromEntries([...document.querySelectorAll('#seating [data-city]')].map((c) => [c.dataset.city, {
    coins: +c.querySelector('.city-symbols [data-what="coins"]').dataset.count,
    shields: +c.querySelector('.city-symbols [data-what="shields"]').dataset.count,
    science: c.querySelectorAll('.city-symbols [data-what="science"]').length,
    tokens: [...c.querySelectorAll('.owned-tokens [data-token]')].map((t) => t.dataset.token)}])),
  track: (() => { const t = document.getElementById('track');
                  return t ? {pawn: +t.dataset.conflict, blocker: t.dataset.blocker === undefined ? null : +t.dataset.blocker} : null; })(),
  points: [...document.querySelectorAll('#score-sheet tr.total td')].map((td) => +td.textContent),
})"""


def check_row(page: Any, table: Table, seat: int) -> dict[str, Any]:
    """The priced row as the engine's view has it (each space face up, face down or empty,
    its item when the seat may see it, what it costs each seat now, a move offered exactly
    where the engine offers one), the tokens on the structure's cards at their places, and
    every city's coins, shields and tokens, the track's pawn and blocker: what the page
    shows, returned."""
    found: dict[str, Any] = page.evaluate(ROW)
    game = table.game.clone()
    view = game.view(seat)
    moves = [a for a in game.legal_actions(seat) if isinstance(a, Move)]
    offered = {s["space"] for s in view["row"] if s["item"] is not None and any(
        m.verb == "activate" and m.words[0] == s["item"] for m in moves)}
    offered |= {int(m.words[3]) for m in moves if m.verb == "place"}
    assert [s["space"] for s in found["spaces"]] == [s["space"] for s in view["row"]]
    for shown, space in zip(found["spaces"], view["row"]):
        face = "up" if space["face_up"] else "down" if space["filled"] else "empty"
        assert (shown["face"], shown["item"]) == (face, space["item"]), (shown, space)
        assert dict(shown["costs"]) == dict(enumerate(space["costs"])), (shown, space)
        assert shown["playable"] == (space["space"] in offered), (shown, offered)
    assert found["tokens"] == {f"{t['row']}:{t['card']}": t["token"]
                               for t in view["structure_tokens"]}
    for city in view["cities"]:
        shown = found["cities"][str(city["seat"])]
        assert (shown["coins"], shown["shields"]) == (city["coins"], city["shields"]), city
        assert sorted(shown["tokens"]) == sorted(city["owned_tokens"]), city
    assert found["track"] == {"pawn": view["conflict"], "blocker": view.get("blocker")}
    return found


def visible_effect(game: Any, seat: int, move: Any) -> bool:
    """Whether playing ``move`` (an activation) shows more than its price paid: a choice it
    asks of the seat, or shields, coins, points or symbols it gives (on a clone)."""
    clone = game.clone()
    coins = clone.cities[seat].coins
    before = (clone.view(seat)["cities"][seat]["shields"], clone.score_sheet().totals[seat],
              present.symbols(clone, seat))
    clone.play({seat: move})
    after = (clone.view(seat)["cities"][seat]["shields"], clone.score_sheet().totals[seat],
             present.symbols(clone, seat))
    asked = seat in clone.to_move() and clone.decision().kind != "turn"
    return asked or before != after or clone.cities[seat].coins != coins - int(move.words[2])


def resolve_on_page(page: Any) -> str:
    """Answer a choice as a person would: on the table where the page offers it there (a
    space of the row or of the track, a military token, a card of the structure; its
    tray's first action), else the first choice or card; what was clicked."""
    for where in ("#row .row-space.playable", "#track .cell.pickable", ".track-token.pickable",
                  "#structure .pickable"):
        if page.query_selector(where):
            check_tapped_actions(page, f"{where} >> nth=0")
            page.locator("#card-actions button.action").first.click(timeout=TIMEOUT_MS)
            return where
    play_first(page)
    return "a choice"


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_human_activates_an_item_of_a_priced_row(browser: Any, server: Server,
                                                    size: str) -> None:
    """Duel with a priced row beside the card structure (the Pantheon), two humans in two
    pages from the lobby: seat 0 sells every card of age 1 (coins for age 2) and places each
    item it draws by clicking an empty space of the row, seat 1 plays its first action.  At
    every decision of seat 0 the row (faces, items, each seat's cost, the spaces offering a
    move), the tokens lying on the structure's cards and every city are the view's.  On its
    first turn that may activate, seat 0 clicks the cheapest space whose item does more than
    cost coins, plays the activation from the tray, answers what it asks on the table, and
    the page shows the coins paid, the space empty, the item in its city and its effect."""
    suffix = "" if size == "desktop" else "-phone"
    lobby = new_page(browser, size)
    table_id, links = create_in_lobby(lobby, server, "pantheon", ["human", "human"])
    pages = {seat: new_page(browser, size) for seat in (0, 1)}
    errors: list[str] = []
    for seat, page in pages.items():
        page.on("pageerror", lambda error: errors.append(str(error)))
        check_served_policy(page.goto(links[seat]))
    page = pages[0]
    rows_checked = placed = 0
    while True:
        table, number, waiting = open_decision(server, table_id)
        assert not table.game.over, "the game ended before seat 0 could activate"
        if 1 in waiting:
            other_seat_plays(pages[1], server, table_id, number)
            continue
        wait_decision(page, number)
        page.wait_for_selector("#decide h2", timeout=TIMEOUT_MS)
        game = table.game.clone()
        kind = game.decision().kind
        check_layout(page, game.view(0).get("structure"))
        check_row(page, table, 0)
        rows_checked += 1
        moves = [a for a in game.legal_actions(0) if isinstance(a, Move) and a.verb == "activate"
                 and "with" not in a.words]
        if kind == "turn" and moves:
            break
        if kind == "place":
            shot(page, f"pantheon-place{suffix}")
            resolve_on_page(page)
            placed += 1
        elif kind == "turn":   # a card of the structure, sold
            check_tapped_actions(page, "#structure .card.playable >> nth=0")
            page.locator("#card-actions button.action[data-kind='sell']").first.click(timeout=TIMEOUT_MS)
        else:
            play_first(page)
        wait_until(lambda: server.table(table_id).decision_number > number)
    # seat 0's first turn that may activate: the row says so, and which spaces it may pay for
    assert page.query_selector("#row .row-space .mark[data-mark='activate']")
    assert "Instead of taking a card" in page.inner_text("#board")
    shown = [e for e in moves if visible_effect(game, 0, e)] or moves
    move = min(shown, key=lambda m: int(m.words[2]))
    item, cost = move.words[0], int(move.words[2])
    space = next(s["space"] for s in game.view(0)["row"] if s["item"] == item)
    before = check_row(page, table, 0)
    effect = page.inner_text(f"#row .row-space[data-space='{space}'] .item-effect")
    assert effect == present.catalogue(table.source.data)["tokens"][item]["effect"]
    shot(page, f"pantheon-turn{suffix}")
    # a click on the space lists its activations in the tray; the one without tokens played
    check_tapped_actions(page, f"#row .row-space[data-space='{space}']")
    tray = page.inner_text("#card-actions")
    assert f"activate {item} on space {space} for {cost} coin" in tray and effect in tray
    shot_open(page, f"pantheon-activate{suffix}")
    index = page.evaluate("(wanted) => state.actions.actions.find((e) => "
                          "JSON.stringify(e.json) === JSON.stringify(wanted)).index",
                          move.to_json())
    page.click(f"#card-actions [data-action-index='{index}']")
    wait_decision(page, number + 1)
    table = server.table(table_id)
    after = page.evaluate(ROW)
    # the coins paid (and what the item gave), in the city and in the recap
    coins = table.game.cities[0].coins
    assert after["cities"]["0"]["coins"] == coins
    assert f"seat 0 (you) activate {item} pay {cost}" in page.inner_text("#recap-moves")
    if coins != before["cities"]["0"]["coins"]:
        assert f"seat 0 (you) {before['cities']['0']['coins']} → {coins}" in page.inner_text("#recap-coins")
    # the space emptied, the item in seat 0's city (on both pages)
    assert next(s for s in after["spaces"] if s["space"] == space)["face"] == "empty"
    assert item in after["cities"]["0"]["tokens"]
    pages[1].wait_for_function(f"() => document.body.dataset.decision === '{number + 1}'",
                               timeout=TIMEOUT_MS)
    assert item in page_tokens(pages[1], 0)
    # its effect: a choice it asks (answered on the table), or what it gave at once
    answered = []
    while True:
        table, now, waiting = open_decision(server, table_id)
        if 0 not in waiting or table.game.decision().kind == "turn":
            break
        wait_decision(page, now)
        wording = table.game.decision().wording
        assert f"Your move: {wording}" in page.inner_text("#decide h2")
        shot(page, f"pantheon-{table.game.decision().kind}{suffix}")
        answered.append(resolve_on_page(page))
        wait_until(lambda: server.table(table_id).decision_number > now)
    table, now, waiting = open_decision(server, table_id)
    holder = pages[0] if 0 in waiting else pages[1]
    wait_decision(holder, now)
    final = check_row(holder, table, 1 if holder is pages[1] else 0)
    mine = final["cities"]["0"]
    was = before["cities"]["0"]
    assert answered or (mine["shields"], mine["science"], final["points"][0], mine["coins"]) != \
        (was["shields"], was["science"], before["points"][0], was["coins"] - cost), (before, final)
    shot(holder, f"pantheon-activated{suffix}")
    for one in (*pages.values(), lobby):
        assert not csp_violations(one), csp_violations(one)
        check_layout(one)
    assert rows_checked >= 5
    assert not errors, errors


SENATE = """() => ({
  chambers: [...document.querySelectorAll('#senate .chamber')].map((c) => ({
    number: +c.dataset.chamber, control: +c.dataset.control, face: c.dataset.face,
    cubes: Object.fromEntries([...c.querySelectorAll('.cubes')].map((q) => [q.dataset.seat, +q.dataset.cubes])),
    tokens: [...c.querySelectorAll('.chamber-token[data-token]')].map((t) => t.dataset.token).filter(Boolean),
    effects: [...c.querySelectorAll('.chamber-token .token-effect')].map((t) => t.textContent),
    playable: c.classList.contains('playable')})),
  left: Object.fromEntries([...document.querySelectorAll('#cubes-left [data-seat]')].map((s) => [s.dataset.seat, +s.dataset.left])),
  held: Object.fromEntries([...document.querySelectorAll('[data-held-seat]')].map((h) => [h.dataset.heldSeat, {
    count: +h.dataset.count,
    names: [...h.querySelectorAll('.held-token[data-held]')].map((t) => [t.dataset.held, t.dataset.state])}])),
})"""


def check_senate(page: Any, table: Table, seat: int) -> dict[str, Any]:
    """The Senate as the engine's view has it: each chamber's cubes by seat, controller,
    face, tokens with what they do, a chamber offering a move exactly where the engine
    offers one; the cubes left; each seat's held tokens (its own by name and state, the
    other's as a count): what the page shows, returned."""
    found: dict[str, Any] = page.evaluate(SENATE)
    game = table.game.clone()
    view = game.view(seat)
    board = view["chambers"]
    tokens = present.catalogue(table.source.data)["tokens"]
    offered = {e.get("chamber") for e in present.actions_for(game, seat)["actions"]} - {None}
    assert [c["number"] for c in found["chambers"]] == list(range(1, len(board["chambers"]) + 1)) \
        or sorted(c["number"] for c in found["chambers"]) == list(range(1, len(board["chambers"]) + 1))
    for shown in found["chambers"]:
        chamber = board["chambers"][shown["number"] - 1]
        assert shown["cubes"] == {str(s): n for s, n in enumerate(chamber["cubes"])}, (shown, chamber)
        assert shown["control"] == chamber["control"], (shown, chamber)
        assert shown["face"] == ("up" if chamber["face_up"] else "down"), (shown, chamber)
        assert shown["tokens"] == (chamber["decrees"] or []), (shown, chamber)
        assert shown["effects"] == [tokens[n]["effect"] for n in chamber["decrees"] or []]
        assert shown["playable"] == (shown["number"] in offered), (shown, offered)
    assert found["left"] == {str(s): n for s, n in enumerate(board["supply"])}
    for s, held in enumerate(view["held"]["seats"]):
        if not held:
            assert str(s) not in found["held"]
            continue
        shown = found["held"][str(s)]
        assert shown["count"] == len(held)
        assert shown["names"] == [[t["name"], "triggered" if t["triggered"] else "prepared"
                                   if t["prepared"] else "waiting"] for t in held if t["name"]]
        if s != seat:
            assert all(t["name"] is None or t["triggered"] for t in held)
    return found


def _senator(card: Any) -> bool:
    """A card whose effect acts on the Senate (an influence action, or a choice of two)."""
    from wonders.dsl import effects as fx

    return any(isinstance(c.effect, (fx.Influence, fx.Either)) for c in card.effects.clauses)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_human_places_a_cube_in_the_senate_by_clicking_a_chamber(browser: Any, server: Server,
                                                                   size: str) -> None:
    """Duel with the Agora from the lobby, two humans in two pages: seat 0 recruits every
    senator it can (and sells the other cards), answers a choice of two effects by placing a
    cube first and conspiring after, places each cube by clicking a chamber (a face-down
    one first: its decree turns face up) and keeps a drawn conspiracy by clicking it.  At
    every decision of seat 0 the Senate (each chamber's cubes, controller, face, decrees and
    what they do, the chambers offering a move), the cubes left and both seats' held tokens
    are the engine's view; after a click the chamber shows the new cube, its controller and
    its decree face up, and the kept conspiracy is in seat 0's panel on its page by name and
    only counted on seat 1's."""
    suffix = "" if size == "desktop" else "-phone"
    lobby = new_page(browser, size)
    errors: list[str] = []

    def sit_down() -> tuple[str, dict[int, Any]]:
        """A table made in the lobby (the server deals it at random) and both seats' pages."""
        table_id, links = create_in_lobby(lobby, server, "agora", ["human", "human"])
        pages = {seat: new_page(browser, size) for seat in (0, 1)}
        for seat, page in pages.items():
            page.on("pageerror", lambda error: errors.append(str(error)))
            check_served_policy(page.goto(links[seat]))
        return table_id, pages

    table_id, pages = sit_down()
    page = pages[0]
    checked = placed = kept = 0
    tables = 1
    shown = False
    while not (placed >= 2 and kept):
        table, number, waiting = open_decision(server, table_id)
        if table.game.over and not kept and tables < 6:   # (a deal where no conspiracy
            table_id, pages = sit_down()                  # was drawn: another table)
            page = pages[0]
            tables += 1
            continue
        assert not table.game.over, f"the game ended first ({placed} placed, {kept} kept)"
        if 1 in waiting:
            other_seat_plays(pages[1], server, table_id, number)
            continue
        wait_decision(page, number)
        page.wait_for_selector("#decide h2", timeout=TIMEOUT_MS)
        game = table.game.clone()
        kind = game.decision().kind
        laid = game.view(0).get("structure")   # (all taken, at an age's end: not drawn)
        check_layout(page, laid if laid and any(any(row) for row in laid) else None)
        before = check_senate(page, table, 0)
        checked += 1
        legal = list(game.legal_actions(0))
        if kind in ("influence", "keep", "return") and game.view(0)["wonder_pool"]:
            # a wonder chosen in the draft asks its follow-up there: the pool is still shown
            assert "Wonder draft" in page.inner_text("#board")
        if kind == "influence":
            places = [m for m in legal if isinstance(m, Move) and m.verb == "place"]
            if not places:
                play_first(page)
            else:
                board = game.view(0)["chambers"]["chambers"]
                hidden = [m for m in places if not board[int(m.words[0]) - 1]["face_up"]]
                move = (hidden or places)[0]
                number_ = int(move.words[0])
                if not shown:
                    shot(page, f"agora-influence{suffix}")
                check_tapped_actions(page, f"#senate .chamber[data-chamber='{number_}']")
                assert f"place a cube in chamber {number_}" in page.inner_text("#card-actions")
                page.locator("#card-actions button.action[data-kind='place']").first.click(timeout=TIMEOUT_MS)
                wait_decision(page, number + 1)
                now = server.table(table_id).game.view(0)["chambers"]
                after = page.evaluate(SENATE)["chambers"]
                cell = next(c for c in after if c["number"] == number_)
                was = next(c for c in before["chambers"] if c["number"] == number_)
                chamber = now["chambers"][number_ - 1]
                assert cell["cubes"]["0"] == was["cubes"]["0"] + 1 == chamber["cubes"][0]
                assert cell["control"] == chamber["control"] and cell["face"] == "up"
                assert cell["tokens"] == chamber["decrees"] and cell["tokens"]
                if hidden:
                    assert was["face"] == "down" and not was["tokens"]
                assert page.evaluate(SENATE)["left"]["0"] == now["supply"][0]
                placed += 1
                if not shown:
                    shot(page, f"agora-senate{suffix}")
                    shown = True
                continue
        elif kind == "choose":
            assert "choose: " in page.inner_text("#choices")
            page.click(f"#choices button[data-kind='choose'] >> nth={1 if placed else 0}")
        elif kind == "keep":
            name = next(m.words[0] for m in legal)
            check_tapped_actions(page, f"#held-drawn .held-token[data-held='{name}']")
            shot_open(page, f"agora-keep{suffix}")
            page.locator("#card-actions button.action[data-kind='keep']").first.click(timeout=TIMEOUT_MS)
            wait_decision(page, number + 1)
            wait_until(lambda: server.table(table_id).decision_number > number)
            mine = page.evaluate(SENATE)["held"]["0"]["names"]
            assert [name, "waiting"] in mine, mine
            kept += 1
            table, now_number, _ = open_decision(server, table_id)
            wait_decision(pages[1], now_number)
            theirs = pages[1].evaluate(SENATE)["held"]["0"]
            assert theirs["names"] == [] and theirs["count"] == len(table.game.view(0)["held"]["seats"][0])
            assert name not in pages[1].inner_text("body")
            continue
        elif kind == "trigger":
            page.click("#choices button[data-kind='skip']")
        elif kind == "wonder_draft":   # Curia Julia and Knossos first: their draft follow-ups
            agora = [a.wonder.name for a in legal if a.wonder.name in ("Curia Julia", "Knossos")]
            if agora:
                page.locator("#choices button", has_text=agora[0]).first.click(timeout=TIMEOUT_MS)
            else:
                play_first(page)
        elif kind == "turn":
            senators = [a for a in legal if getattr(a, "card", None) is not None
                        and _senator(a.card) and a.to_json().get("action") == "build"]
            if senators:
                name = senators[0].card.name
                check_tapped_actions(page, f".card.playable[data-card=\"{name}\"] >> nth=0")
                index = page.evaluate("(wanted) => state.actions.actions.find((e) => "
                                      "JSON.stringify(e.json) === JSON.stringify(wanted)).index",
                                      senators[0].to_json())
                page.click(f"#card-actions [data-action-index='{index}']")
            else:
                check_tapped_actions(page, "#structure .card.playable >> nth=0")
                page.locator("#card-actions button.action[data-kind='sell']").first.click(timeout=TIMEOUT_MS)
        else:
            play_first(page)
        wait_until(lambda: server.table(table_id).decision_number > number)
    for one in (*pages.values(), lobby):
        assert not csp_violations(one), csp_violations(one)
        check_layout(one)
    assert checked >= 5
    assert not errors, errors


def page_tokens(page: Any, seat: int) -> list[str]:
    found: list[str] = page.evaluate(
        f"() => [...document.querySelectorAll('[data-city=\"{seat}\"] .owned-tokens [data-token]')]"
        ".map((t) => t.dataset.token)")
    return found


def shot_open(page: Any, name: str) -> None:
    """A screenshot with the tray open (``shot`` closes it first)."""
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=False)


def check_dice_page(page: Any, table: Table, seat: int) -> None:
    """The forum and every sheet as the view has them: each die with its price, each
    city's crossed spaces, coins and points (read from the page in one round trip)."""
    view = table.game.clone().view(seat)
    shown = page.evaluate("""() => ({
        dice: [...document.querySelectorAll('#forum .die')].map((d) => [d.dataset.die, +d.dataset.price]),
        cities: [...document.querySelectorAll('#cities [data-city]')].map((c) => ({
            seat: +c.dataset.city, coins: +c.querySelector('.coins').dataset.coins,
            points: +c.querySelector('.points').dataset.points,
            crossed: [...c.querySelectorAll('.building')].flatMap((b) =>
                [...b.querySelectorAll(".space[data-crossed='yes']")].map(
                    (sp) => [b.dataset.building, +sp.dataset.space]))}))})""")
    assert {d: p for d, p in shown["dice"]} == {d["die"]: d["price"] for d in view["forum"]}
    assert len(shown["dice"]) == len(view["forum"])
    totals = table.game.score_sheet().totals
    assert len(shown["cities"]) == len(view["cities"])
    # the sheets sit round the table (the page's own last), each found by its seat
    drawn_by_seat = {drawn["seat"]: drawn for drawn in shown["cities"]}
    assert shown["cities"][-1]["seat"] == seat
    for city in view["cities"]:
        drawn = drawn_by_seat[city["seat"]]
        assert {tuple(x) for x in drawn["crossed"]} == \
            {(key, i) for key, spaces in city["crossed"].items() for i in spaces}
        assert drawn["coins"] == city["coins"] and drawn["points"] == totals[city["seat"]]
    check_board(page, table, seat, stacked=True)
    # every symbol the shipped data names has a drawing (none falls back to a lettered disc)
    lettered = page.evaluate("""() => [...new Set([...document.querySelectorAll(
        "svg[data-drawn='letter']")].map((s) => s.parentElement.dataset.symbol))]""")
    assert lettered == [], lettered


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_human_plays_dice_against_bots(browser: Any, server: Server, size: str) -> None:
    """A dice-forum game through the page: the forum, the sheets and the actions drawn from
    the view's shape (no raw JSON), spaces crossed by clicking them on the sheet."""
    suffix = "" if size == "desktop" else "-phone"
    lobby = new_page(browser, size)
    table_id, links = create_in_lobby(lobby, server, "dice", ["human", "random", "greedy"])
    page = new_page(browser, size)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    check_served_policy(page.goto(links[0]))
    turns = clicked_spaces = 0
    while not server.table(table_id).game.over:
        table, number, waiting = open_decision(server, table_id)
        if 0 in waiting:
            wait_decision(page, number)
            page.wait_for_selector("#decide h2", timeout=TIMEOUT_MS)
            assert not page.query_selector(".other-view"), "a part of the view shown raw"
            if table.game.decision().kind == "turn":
                check_dice_page(page, table, 0)
                check_layout(page)
                if turns == 2:
                    shot(page, f"dice-turn{suffix}")
                turns += 1
            spaces = page.locator("[data-city='0'] .space.crossable")
            if spaces.count() and turns % 2:
                spaces.first.click()   # one way to cross it: played; several: their buttons
                if page.query_selector("[data-space-actions] button"):
                    page.click("[data-space-actions] button >> nth=0")
                clicked_spaces += 1
            else:
                play_first(page)
        wait_until(lambda: server.table(table_id).decision_number > number
                   or server.table(table_id).game.over)
    page.wait_for_selector("#winner", timeout=TIMEOUT_MS)
    shot(page, f"dice-final-score{suffix}")
    check_layout(page)
    assert "civilian" not in page.inner_text("#winner")
    assert not csp_violations(page), csp_violations(page)
    assert turns >= 5 and clicked_spaces >= 2
    assert page.query_selector_all("#forum .die") and page.query_selector("#score-sheet")
    assert not errors, errors


def decision_samples() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(game, welcome, state) for a seat deciding, one per decision kind of each shipped game
    and expansion, found by random play: what the server would send, made by the server's
    own code."""
    import random

    from wonders.engine.registry import new_game
    from wonders.serve.present import catalogue
    from wonders.serve.tables import Seat

    found: dict[tuple[str, str], tuple[str, dict[str, Any], dict[str, Any]]] = {}
    expansions = [load_source(name) for name in ("leaders", "cities")]
    for source in [*sources(), *expansions]:
        players = source.data.rules.min_players
        for seed in range(40):
            game = new_game(source.data, players, seed)
            rng = random.Random(seed)
            while not game.over:
                decision = game.decision()
                key = (source.label, decision.kind)
                if key not in found:
                    table = Table("sample", source, game, [Seat("human", "t")] * players,
                                  None, False, 0.0, None)
                    seat = decision.seats[0]
                    welcome = {"type": "welcome", "seat": seat, "table": table.summary(),
                               "catalogue": catalogue(source.data)}
                    found[key] = (source.label, welcome,
                                  json.loads(json.dumps(table.state_for(seat))))
                game.play({s: rng.choice(game.legal_actions(s)) for s in decision.seats})
    return list(found.values())


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_every_legal_action_is_reachable_on_the_page(browser: Any, server: Server,
                                                      size: str) -> None:
    """Whatever the decision (a side, a turn, a last card, a card from the discard pile, a
    card to destroy, a token, a wonder of the draft, who starts; the expansions' leader
    draft, recruitment turn, leader built at once, leader copied and pay-or-debt choice),
    the page offers every legal action, and a click sends exactly that action for the open
    decision; the layout facts hold on every one of these screens."""
    samples = decision_samples()
    kinds = {(game, state["pending"]["kind"]) for game, _, state in samples}
    assert {("base", "side"), ("base", "turn"), ("base", "discard_build"),
            ("duel", "wonder_draft"), ("duel", "turn"), ("duel", "token"),
            ("duel", "starter"), ("leaders", "reserve_draft"), ("leaders", "reserve_turn"),
            ("leaders", "reserve_build"), ("leaders", "copy"), ("cities", "debt"),
            ("agora", "influence"), ("agora", "keep"), ("agora", "return"), ("agora", "trigger"),
            ("agora", "choose")} <= kinds, kinds
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
    for number, (game, welcome, state) in enumerate(samples):
        current.update(welcome=welcome, state=state)
        sent.clear()
        page.goto(f"{server.url}/table/sample{number}#token=t")   # a new page each time
        page.wait_for_function(f"() => document.body.dataset.decision === '{state['decision']}'",
                               timeout=TIMEOUT_MS)
        described = state["actions"]
        where = f"{game} {state['pending']['kind']}"
        shot(page, f"decision-{game}-{state['pending']['kind']}-{size}")
        laid = state["view"].get("structure")   # (all taken, at an age's end: not drawn)
        try:
            check_layout(page, laid if laid and any(any(row) for row in laid) else None)
        except AssertionError as exc:
            raise AssertionError(f"{where} ({size}): {exc}") from None
        assert not csp_violations(page), (where, csp_violations(page))
        marks = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
            '.card.playable')].map((c) => [c.dataset.card, c.querySelector('.mark') ?
            c.querySelector('.mark').dataset.mark : null]))""")
        for name, slot in described["cards"].items():
            assert page.query_selector(f".card.playable[data-card=\"{name}\"]"), (where, name)
            builds = [i for i in slot["actions"]
                      if described["actions"][i]["kind"] in ("build", "discard_build")]
            # ✗ means "you cannot build it now": never on a card one of whose actions builds it
            assert (marks.get(name) == "cannot") == (bool(slot.get("indicator")) and not builds), \
                (where, name, marks.get(name), slot)
        sheets = welcome["catalogue"].get("sheets")
        if sheets:   # a dice game: the data's names on the page, never its keys
            text = page.inner_text("body")
            keys = ({b["key"] for b in sheets["buildings"] if b["key"] != b["name"]}
                    | {d["name"] for d in sheets["dice"] if "_" in d["name"]}
                    | {b["name"] for b in sheets["bonuses"] if "_" in b["name"]})
            assert not [k for k in keys if k in text], (where, [k for k in keys if k in text])
        for index in described["other"]:
            assert page.query_selector(f"#choices [data-action-index=\"{index}\"]"), where
        # play the last card's last action (or the last choice), as a player would
        if described["cards"]:
            name, slot = list(described["cards"].items())[-1]
            check_tapped_actions(page, f".card.playable[data-card=\"{name}\"] >> nth=0")
            index = slot["actions"][-1]
        else:
            index = described["other"][-1]
        page.click(f"[data-action-index=\"{index}\"]")
        wait_until(lambda: bool(sent), 10)
        assert sent == [{"type": "act", "decision": state["decision"],
                         "action": described["actions"][index]["json"]}], where
    assert not errors, errors


def fake_table(page: Any, welcome: dict[str, Any], state: dict[str, Any]) -> list[Any]:
    """Route the page's websocket to a stand-in server that welcomes it and sends ``state``;
    the list the messages the page sends are added to."""
    sent: list[Any] = []

    def fake_server(ws: Any) -> None:
        def on_message(text: Any) -> None:
            message = json.loads(text)
            if message["type"] == "join":
                ws.send(json.dumps(welcome))
                ws.send(json.dumps(state))
            else:
                sent.append(message)
        ws.on_message(on_message)

    page.route_web_socket(lambda url: "/ws/" in url, fake_server)
    return sent


def test_built_duel_wonders_stay_in_the_city(browser: Any, server: Server) -> None:
    """A Duel city shows its built wonders (marked built) beside the ones still to build."""
    import random

    from wonders.engine.registry import new_game
    from wonders.serve.present import catalogue
    from wonders.serve.tables import Seat

    duel = sources()[1]
    game = new_game(duel.data, 2, 3)
    rng = random.Random(3)
    while not game.over and not any(c["built_wonders"] for c in game.view(0)["cities"]):
        decision = game.decision()
        wonders = [a for s in decision.seats for a in game.legal_actions(s)
                   if a.to_json()["action"] == "wonder"]
        game.play({s: next((a for a in wonders if a in game.legal_actions(s)),
                           rng.choice(game.legal_actions(s))) for s in decision.seats})
    city = next(c for c in game.view(0)["cities"] if c["built_wonders"])
    table = Table("built", duel, game, [Seat("human", "t")] * 2, None, False, 0.0, None)
    welcome = {"type": "welcome", "seat": 0, "table": table.summary(),
               "catalogue": catalogue(duel.data)}
    page = new_page(browser)
    fake_table(page, welcome, json.loads(json.dumps(table.state_for(0))))
    page.goto(f"{server.url}/table/built#token=t")
    page.wait_for_selector(f"[data-city='{city['seat']}'] .city-wonders", timeout=TIMEOUT_MS)
    shown = page.evaluate(f"""() => [...document.querySelectorAll(
        "[data-city='{city['seat']}'] .city-wonders [data-wonder]")].map(
        (w) => [w.dataset.wonder, w.dataset.built, w.textContent])""")
    assert sorted(w for w, built, _ in shown if built == "yes") == sorted(city["built_wonders"])
    assert sorted(w for w, built, _ in shown if built == "no") == sorted(city["wonders"])
    assert all("built" in text for _, built, text in shown if built == "yes")
    assert not csp_violations(page)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_seven_players_sit_round_the_table(browser: Any, server: Server, size: str) -> None:
    """A 7-player base table seen from seat 3, mid-game: its city at the bottom, seat 4 (its
    left) on the left, seat 2 on the right, the four others across the top; every city's
    symbols as the engine counts them, each ✗ card saying why not, no sideways scrolling,
    no badge over a name, a tapped card's actions in view."""
    import random

    from wonders.engine.registry import new_game
    from wonders.serve.present import catalogue
    from wonders.serve.tables import Seat

    base = sources()[0]
    game = new_game(base.data, 7, 5)
    rng = random.Random(5)
    while not (game.decision().kind == "turn" and game.age == 2 and 3 in game.to_move()):
        game.play({s: rng.choice(game.legal_actions(s)) for s in game.to_move()})
    table = Table("seven", base, game, [Seat("human", "t")] * 7, None, False, 0.0, None)
    welcome = {"type": "welcome", "seat": 3, "table": table.summary(),
               "catalogue": catalogue(base.data)}
    page = new_page(browser, size)
    fake_table(page, welcome, json.loads(json.dumps(table.state_for(3))))
    page.goto(f"{server.url}/table/seven#token=t")
    page.wait_for_selector("#seating [data-city='3']", timeout=TIMEOUT_MS)
    check_board(page, table, 3)
    places = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '#seating [data-city]')].map((c) => [c.dataset.city, c.dataset.place]))""")
    assert places == {"3": "you", "4": "your left neighbour", "2": "your right neighbour",
                      **{str(s): "across the table" for s in (5, 6, 0, 1)}}
    check_layout(page)
    shot(page, "base-seven" + ("-phone" if size == "phone" else ""))
    check_tapped_actions(page, "#hand .card.playable >> nth=0")
    assert not csp_violations(page), csp_violations(page)


def sign_up_in_lobby(page: Any, server: Server, name: str) -> None:
    """Sign up with the lobby's form (its request carries the page's CSRF token)."""
    check_served_policy(page.goto(server.url + "/"))
    page.wait_for_selector("#sign-in:not([hidden])")
    page.fill("#account-name", name)
    page.fill("#account-password", "a long password")
    page.click("#sign-up-button")
    page.wait_for_selector("#me", timeout=TIMEOUT_MS)
    assert page.inner_text("#me") == name


def test_two_signed_in_players_and_a_bot_play_a_normal_game_and_both_ratings_change(
        browser: Any, server: Server) -> None:
    """The issue's 'done when': two accounts (two browser contexts, each signed in with
    the lobby's form) and a greedy bot play base to the end in a normal game; both
    ratings change by the pairwise Elo of docs/serve.md, shown on the leaderboard and
    each player's page."""
    from wonders.serve import ratings

    ada, bob = new_page(browser), new_page(browser, "phone")
    sign_up_in_lobby(ada, server, "Ada")
    sign_up_in_lobby(bob, server, "Bob")
    assert ada.input_value("#mode") == "normal"
    table_id, links = create_in_lobby(ada, server, "base", ["human", "human", "greedy"],
                                      speed="slow")
    pages = {0: ada, 1: bob}
    for seat, page in pages.items():
        check_served_policy(page.goto(links[seat]))
        page.wait_for_function("() => document.body.dataset.connected === 'yes'",
                               timeout=TIMEOUT_MS)
    wait_until(lambda: [s.name for s in server.table(table_id).seats] == ["Ada", "Bob", None])
    # every seat's clock on both pages (a slow game: 15 min and 45 s), the names shown
    for page, other in ((ada, "Bob"), (bob, "Ada")):
        page.wait_for_function("(other) => document.querySelectorAll('#players .clock')"
                               ".length === 3 && document.getElementById('players')"
                               ".textContent.includes(`(${other})`)", arg=other,
                               timeout=TIMEOUT_MS)
        minutes, seconds = page.inner_text("#players .clock.running >> nth=0").split(":")
        assert 14 * 60 < int(minutes) * 60 + int(seconds) <= 15 * 60 + 45   # counting down
        check_layout(page)
    while not server.table(table_id).game.over:
        table, number, waiting = open_decision(server, table_id)
        for seat, page in pages.items():
            if seat in waiting:
                wait_decision(page, number)
                page.wait_for_selector("#decide h2", timeout=TIMEOUT_MS)
                play_first(page)
        wait_until(lambda: server.table(table_id).decision_number > number
                   or server.table(table_id).game.over)
    table = server.table(table_id)
    assert server.tables is not None
    server.tables.drain()
    sheet = table.game.score_sheet()
    deltas = ratings.changes([ratings.INITIAL] * 2, [ratings.place(sheet, 0),
                                                     ratings.place(sheet, 1)])
    want = {"Ada": round(ratings.INITIAL + deltas[0]), "Bob": round(ratings.INITIAL + deltas[1])}
    assert want["Ada"] != want["Bob"] or sheet.total(0) == sheet.total(1)
    check_served_policy(ada.goto(server.url + "/leaderboard?game=base"))
    ada.wait_for_selector("#leaderboard a.player")
    shown = {row.query_selector("a.player").inner_text():
             int(row.query_selector_all("td")[2].inner_text())
             for row in ada.query_selector_all("#leaderboard tbody tr")}
    assert shown == want
    check_served_policy(bob.goto(server.url + "/player/Bob"))
    bob.wait_for_selector("#player-history tbody tr")
    cells = [c.inner_text() for c in bob.query_selector_all("#player-history tbody tr td")]
    assert cells[0] == "base" and cells[1] == table_id and cells[3] == "1500"
    assert round(float(cells[4])) == want["Bob"]
    # the finished table among the recent ones, with its replay
    assert bob.get_attribute("#player-tables a.replay", "href") == f"/replay/{table_id}"
    for page in pages.values():
        assert not csp_violations(page), csp_violations(page)
