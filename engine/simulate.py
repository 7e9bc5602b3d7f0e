"""Many games with bots, and the statistics a designer acts on.

Game ``i`` of a run uses seed ``S + i``; the bot at seat ``s`` is seeded with
``(S + i) * 1000 + s`` (as ``wonders play --seed S+i`` does), so any game of a
run can be played again on its own, and the results never depend on how the
games were split between worker processes.  Workers receive chunks of game
indexes, return small plain records, and the records are aggregated in game
order, so sums (and therefore averages) are bit-for-bit the same for any
number of workers.

Wins are counted as *win credit*: a shared victory between ``k`` players gives
each ``1/k``, so the credits of one game sum to 1.

Any rule set plays: the loop is the one its offer selects (:func:`new_game`), and
this module reads only the game contract.  Every card on offer at the start of an
age counts as dealt (face-down ones too: they were in the game); each seat's
wonders are recorded with their state — a board and its side, or each drafted
wonder built or not (:meth:`City.wonder_states`); and the score sheet says how
the game was won (military, science or civilian — the base game is always
civilian).
"""

from __future__ import annotations

import logging
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Sequence, TypeVar

from wonders.dsl.errors import DataError
from wonders.dsl.model import Game as GameData

from .actions import ChooseWonder
from .bots import make_bot
from .city import City
from .drafted_city import BUILT, NOT_BUILT
from .registry import new_game
from .sources import resolve

VICTORIES = ("military", "science", "civilian")

Record = dict[str, Any]
# a table's wonder sides: None (the rule set's way), one mode for all, or one per seat
Sides = str | tuple[str, ...] | None

_DATA: dict[tuple[str, tuple[str, ...]], GameData] = {}


def game_data(game: str, paths: Sequence[str] = ()) -> GameData:
    """The loaded data of a game (a shipped name or a rule-set path), once per process."""
    key = (game, tuple(paths))
    found = _DATA.get(key)
    if found is None:
        result = resolve(game).load(list(paths))
        if result.game is None:
            raise DataError(result.report.sorted())
        found = result.game
        _DATA[key] = found
    return found


def bot_seed(game_seed: int, seat: int) -> int:
    return game_seed * 1000 + seat


def play_game(data: GameData, players: int, seed: int, bots: Sequence[str],
              side: Sides = "random") -> Record:
    """Play one game with bots and return its record (plain data, cheap to send between processes)."""
    started = time.perf_counter()
    seated = [make_bot(name, bot_seed(seed, seat)) for seat, name in enumerate(bots)]
    dealt: set[str] = set()
    drafted: list[list[str]] = [[] for _ in range(players)]
    age = 0
    match = new_game(data, players, seed) if side is None else new_game(data, players, seed,
                                                                         sides=side)
    while not match.over:
        if match.age != age:  # a new age was dealt: every card in it is in the game
            age = match.age
            dealt.update(card.name for card in match.offer_cards())
        moves = {seat: seated[seat].choose(match, seat) for seat in match.to_move()}
        for seat, action in moves.items():
            if isinstance(action, ChooseWonder):
                drafted[seat].append(action.wonder.name)
        match.play(moves)
    sheet = match.score_sheet()
    winners = sheet.winners
    return {
        "seed": seed,
        "bots": list(bots),
        "wonders": [_wonders(city, chosen) for city, chosen in zip(match.cities, drafted)],
        "victory": sheet.victory,
        "lines": [dict(row) for row in sheet.lines],
        "totals": sheet.totals,
        "coins": list(sheet.coins),
        "winners": list(winners),
        "built": [[card.name for card in city.built] for city in match.cities],
        "dealt": sorted(dealt),
        "decisions": len(match.history),
        "seconds": time.perf_counter() - started,
    }


def _wonders(city: City, drafted: Sequence[str]) -> list[list[str]]:
    """A seat's wonders and their states (board and side; drafted wonders built or not),
    with the wonders it drafted that left the game unbuilt."""
    states = [[name, state] for name, state in city.wonder_states()]
    held = {name for name, _ in states}
    return states + [[name, NOT_BUILT] for name in drafted if name not in held]


def _chunk(game: str, paths: tuple[str, ...], players: int, seeds: Sequence[int],
           bots: Sequence[str], side: Sides) -> list[Record]:
    data = game_data(game, paths)
    return [play_game(data, players, seed, bots, side) for seed in seeds]


@dataclass
class Run:
    """What to simulate."""

    game: str = "base"
    players: int = 4
    games: int = 100
    seed: int = 0
    bots: tuple[str, ...] = ("random",)
    workers: int = 1
    paths: tuple[str, ...] = ()
    side: Sides = "random"   # the ``sides`` option: None (the rule set's), one mode, or per seat
    ray: bool = False        # games as Ray tasks (``workers`` CPUs of a local runtime)
    address: str | None = None  # an existing Ray cluster (``ray.init(address=...)``)

    def seat_bots(self) -> list[str]:
        names = list(self.bots)
        return names * self.players if len(names) == 1 else names


@dataclass
class Outcome:
    records: list[Record]  # every game's record when the run keeps them (``keep_records``)
    seconds: float  # wall time of the whole run
    workers: int
    stats: dict[str, Any] = field(default_factory=dict)
    games: int = 0
    game_seconds: float = 0.0  # the games' own times, summed
    tasks: int = 0  # chunks of games sent to workers or Ray tasks (games when in-process)
    backend: str = "processes"  # or "ray"
    setup_seconds: float = 0.0  # starting or joining the Ray runtime


def chunk_size(games: int, workers: int) -> int:
    return max(1, min(50, games // (workers * 8) or 1))


Handle = TypeVar("Handle")


def _in_order(run: Run, size: int, in_flight: int, launch: Callable[[list[int]], Handle],
              finished: Callable[[list[Handle]], list[tuple[Handle, list[Record]]]],
              take: Callable[[Sequence[Record]], None]) -> int:
    """Play the run's games in chunks of ``size`` seeds, at most ``in_flight`` chunks
    launched or waiting, and hand the records to ``take`` in game order; the number of
    chunks.  ``launch`` starts a chunk (a worker process's future, a Ray task) and
    ``finished`` waits for at least one of the given ones and returns their records.
    The order of aggregation is the games' whatever the order they finish in, so the
    statistics are the same for every backend and number of workers."""
    starts = iter(range(0, run.games, size))
    pending: dict[Handle, int] = {}
    done: dict[int, list[Record]] = {}
    next_start = 0
    chunks = 0

    def submit() -> None:
        nonlocal chunks
        for start in starts:
            seeds = list(range(run.seed + start, run.seed + min(start + size, run.games)))
            pending[launch(seeds)] = start
            chunks += 1
            if len(pending) + len(done) >= in_flight:
                return

    submit()
    while pending:
        for handle, records in finished(list(pending)):
            done[pending.pop(handle)] = records
        while next_start in done:
            chunk = done.pop(next_start)
            take(chunk)
            next_start += len(chunk)
        submit()
    return chunks


class RayUnavailable(RuntimeError):
    """Ray is not installed, or the cluster cannot be reached."""


def ray_chunk_size(games: int, cpus: int) -> int:
    """Games per Ray task: enough that a task's fixed cost (scheduling, sending its
    arguments and records, about a millisecond or two) stays far under 5 % of the
    games' own time, while every CPU still gets several tasks to balance the load."""
    return max(1, min(RAY_CHUNK_MAX, -(-games // (cpus * 4))))


RAY_CHUNK_MAX = 200  # games per Ray task at most (a few ms each: about a second of work)

_RAY_DATA: dict[str, GameData] = {}  # in a Ray worker: the data of each run, by content


def _ray_chunk(key: str, shipped: list[Any], players: int, seeds: list[int],
               bots: list[str], side: Sides) -> list[Record]:
    """A Ray task: play ``seeds``.  The data travels once per worker through the object
    store (in a list, so Ray does not fetch it when the worker has it already), so a
    cluster's nodes need the package but not the card files."""
    data = _RAY_DATA.get(key)
    if data is None:
        import ray

        data = _RAY_DATA[key] = ray.get(shipped[0])
    return [play_game(data, players, seed, bots, side) for seed in seeds]


def _check_reachable(address: str, seconds: float = 5.0) -> None:
    """Refuse a cluster address nothing answers at, before Ray retries it for minutes:
    ``host:port`` and ``ray://host:port`` are tried; ``auto`` and others go to Ray."""
    import socket

    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return
    try:
        socket.create_connection((host, int(port)), timeout=seconds).close()
    except OSError as exc:
        raise RayUnavailable(f"cannot reach the Ray cluster at {address}: "
                             f"{exc.strerror or exc}") from None


def _run_ray(run: Run, bots: list[str], take: Callable[[Sequence[Record]], None]
             ) -> tuple[int, int, float]:
    """Play the run's games as Ray tasks (a local runtime of ``run.workers`` CPUs, or the
    cluster at ``run.address``): the number of tasks, the CPUs, the seconds it took to
    start or join the runtime."""
    try:
        import ray
    except ImportError:
        raise RayUnavailable("--ray needs Ray, which is not installed: "
                             "pip install 'wonders[ray]'") from None
    data = game_data(run.game, run.paths)
    started = time.perf_counter()
    started_here = not ray.is_initialized()
    if started_here:
        if run.address is not None:
            _check_reachable(run.address)
        try:
            if run.address is None:
                ray.init(num_cpus=run.workers, include_dashboard=False,
                         logging_level=logging.ERROR, log_to_driver=False)
            else:
                ray.init(address=run.address, logging_level=logging.ERROR,
                         log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise RayUnavailable(f"cannot start or reach Ray"
                                 f"{' at ' + run.address if run.address else ''}: {exc}") from None
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call]
        shipped = [ray.put(replace(data, derived={}))]
        key = data.content_hash
        task = ray.remote(_ray_chunk).options(num_cpus=1)
        setup = time.perf_counter() - started

        def launch(seeds: list[int]) -> Any:
            return task.remote(key, shipped, run.players, seeds, bots, run.side)

        def finished(handles: list[Any]) -> list[tuple[Any, list[Record]]]:
            ready, _ = ray.wait(handles, num_returns=1)
            return list(zip(ready, ray.get(ready)))

        tasks = _in_order(run, ray_chunk_size(run.games, cpus), cpus * 4, launch, finished,
                          take)
        return tasks, cpus, setup
    finally:
        if started_here:
            ray.shutdown()


def run_games(run: Run, progress: Callable[[int], None] | None = None,
              keep_records: bool = True) -> Outcome:
    """Play every game of the run (in worker processes when ``workers > 1``).

    Records are aggregated as games finish, in game order, and dropped unless
    ``keep_records`` (the command line keeps none), so memory does not grow with the
    number of games: a worker pool has a bounded number of chunks in flight, and
    chunks that finish early wait only for the ones before them."""
    started = time.perf_counter()
    bots = run.seat_bots()
    totals = Statistics(run.players)
    tasks = run.games
    kept: list[Record] = []
    game_seconds = 0.0

    def take(chunk: Sequence[Record]) -> None:
        nonlocal game_seconds
        for record in chunk:
            totals.add(record)
            game_seconds += record["seconds"]
            if keep_records:
                kept.append(record)
        if progress is not None:
            progress(len(chunk))

    workers = max(run.workers, 1)
    setup_seconds = 0.0
    if run.ray:
        tasks, workers, setup_seconds = _run_ray(run, bots, take)
    elif run.workers <= 1:
        data = game_data(run.game, run.paths)
        for i in range(run.games):
            take([play_game(data, run.players, run.seed + i, bots, run.side)])
    else:
        size = chunk_size(run.games, run.workers)
        with ProcessPoolExecutor(max_workers=run.workers) as pool:
            def launch(seeds: list[int]) -> Future[list[Record]]:
                return pool.submit(_chunk, run.game, run.paths, run.players, seeds, bots,
                                   run.side)

            def finished(handles: list[Future[list[Record]]]) -> list[
                    tuple[Future[list[Record]], list[Record]]]:
                done, _ = wait(handles, return_when=FIRST_COMPLETED)
                return [(future, future.result()) for future in done]

            tasks = _in_order(run, size, run.workers * 4, launch, finished, take)
    assert totals.games == run.games
    outcome = Outcome(kept, time.perf_counter() - started, workers,
                      games=totals.games, game_seconds=game_seconds, tasks=tasks,
                      backend="ray" if run.ray else "processes", setup_seconds=setup_seconds)
    outcome.stats = totals.result()
    return outcome


# --- statistics ------------------------------------------------------------------------------

def _rate(part: float, whole: float) -> float | None:
    return part / whole if whole else None


def statistics(records: Iterable[Record], players: int) -> dict[str, Any]:
    """Aggregate game records, in their order, into the statistics (plain JSON data)."""
    totals = Statistics(players)
    for record in records:
        totals.add(record)
    return totals.result()


class Statistics:
    """The running sums of the statistics: records are added one by one, in game order, and
    dropped, so a run of any length aggregates in constant memory."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.games = 0
        self.order: list[str] = []
        self.line_sums: dict[str, float] = {}
        self.winner_line_sums: dict[str, float] = {}
        self.total_sum = 0.0
        self.decisions = 0
        self.wonders: dict[tuple[str, str], list[float]] = {}  # played, win credit, score sum
        self.bots: dict[str, list[float]] = {}
        # per card: [seat-games present, built, win credit built, score built,
        #            win credit present-not-built, score present-not-built, games present]
        self.cards: dict[str, list[float]] = {}
        self.victories: dict[str, int] = {name: 0 for name in VICTORIES}

    def add(self, record: Record) -> None:
        players = self.players
        order, line_sums, winner_line_sums = self.order, self.line_sums, self.winner_line_sums
        wonders, bots, cards, victories = self.wonders, self.bots, self.cards, self.victories
        self.games += 1
        self.decisions += record["decisions"]
        victory = record.get("victory", "civilian")
        victories[victory] = victories.get(victory, 0) + 1
        winners = record["winners"]
        credit = 1.0 / len(winners)
        credits = [credit if s in winners else 0.0 for s in range(players)]
        for seat in range(players):
            lines = record["lines"][seat]
            for name, value in lines.items():
                if name not in line_sums:
                    order.append(name)
                    line_sums[name] = 0.0
                    winner_line_sums[name] = 0.0
                line_sums[name] += value
                winner_line_sums[name] += value * credits[seat]
            total = record["totals"][seat]
            self.total_sum += total
            held = record["wonders"][seat]
            # one board and side per seat, or drafted wonders (built or not) per seat
            for wonder, side in ([held] if held and isinstance(held[0], str) else held):
                row = wonders.setdefault((wonder, side), [0.0, 0.0, 0.0])
                row[0] += 1
                row[1] += credits[seat]
                row[2] += total
            bot = bots.setdefault(record["bots"][seat], [0.0, 0.0, 0.0])
            bot[0] += 1
            bot[1] += credits[seat]
            bot[2] += total
        built = [set(names) for names in record["built"]]
        for name in record["dealt"]:
            row = cards.setdefault(name, [0.0] * 7)
            row[6] += 1
            for seat in range(players):
                total = record["totals"][seat]
                row[0] += 1
                if name in built[seat]:
                    row[1] += 1
                    row[2] += credits[seat]
                    row[3] += total
                else:
                    row[4] += credits[seat]
                    row[5] += total

    def result(self) -> dict[str, Any]:
        players, games = self.players, self.games
        seat_games = games * players
        order, line_sums, winner_line_sums = self.order, self.line_sums, self.winner_line_sums
        wonders, bots, cards, victories = self.wonders, self.bots, self.cards, self.victories
        total_sum, decisions = self.total_sum, self.decisions
        wonder_rows = []
        for (wonder, side), (played, wins, score) in sorted(wonders.items()):
            wonder_rows.append({"wonder": wonder, "side": side, "played": int(played),
                                "wins": wins, "win_rate": _rate(wins, played),
                                "avg_score": _rate(score, played)})
        wonder_totals: dict[str, list[float]] = {}
        for (wonder, _), (played, wins, score) in sorted(wonders.items()):
            row = wonder_totals.setdefault(wonder, [0.0, 0.0, 0.0])
            row[0] += played
            row[1] += wins
            row[2] += score
        by_wonder = [{"wonder": w, "played": int(p), "wins": wn, "win_rate": _rate(wn, p),
                      "avg_score": _rate(s, p)} for w, (p, wn, s) in sorted(wonder_totals.items())]
        card_rows = []
        for name, (present, built_n, win_b, score_b, win_n, score_n, in_games) in sorted(
                cards.items()):
            not_built = present - built_n
            win_rate_built = _rate(win_b, built_n)
            win_rate_not = _rate(win_n, not_built)
            lift = (win_rate_built - win_rate_not
                    if win_rate_built is not None and win_rate_not is not None else None)
            avg_built = _rate(score_b, built_n)
            avg_not = _rate(score_n, not_built)
            card_rows.append({
                "card": name, "games": int(in_games), "built": int(built_n),
                "build_rate": _rate(built_n, present),
                "win_rate_built": win_rate_built, "win_rate_not_built": win_rate_not,
                "win_lift": lift,
                "avg_score_built": avg_built, "avg_score_not_built": avg_not,
                "score_lift": (avg_built - avg_not
                               if avg_built is not None and avg_not is not None else None),
            })
        bot_rows = [{"bot": name, "seats": int(n), "wins": w, "win_rate": _rate(w, n),
                     "avg_score": _rate(s, n)} for name, (n, w, s) in sorted(bots.items())]
        return {
            "games": games,
            "players": players,
            "seat_games": seat_games,
            "avg_decisions": _rate(decisions, games),
            "avg_score": _rate(total_sum, seat_games),
            "categories": [{"category": name, "avg": _rate(line_sums[name], seat_games),
                            "avg_winner": _rate(winner_line_sums[name], games)}
                           for name in order],
            "wonder_sides": wonder_rows,
            "wonders": by_wonder,
            "cards": card_rows,
            "bots": bot_rows,
            "victories": [{"victory": name, "games": count, "share": _rate(count, games)}
                          for name, count in victories.items()],
        }


def drafted_wonders(stats: dict[str, Any]) -> bool:
    """Whether the statistics' wonders are drafted ones, built or not (not boards by side)."""
    rows = stats["wonder_sides"]
    return bool(rows) and all(row["side"] in (BUILT, NOT_BUILT) for row in rows)


def timing(outcome: Outcome) -> dict[str, Any]:
    """Wall-clock figures: they vary run to run and are kept apart from the statistics."""
    games = outcome.games
    working = (outcome.seconds - outcome.setup_seconds) * outcome.workers
    return {
        "backend": outcome.backend,
        "workers": outcome.workers,
        "tasks": outcome.tasks,
        "wall_seconds": outcome.seconds,
        "setup_seconds": outcome.setup_seconds,
        "games_per_second": games / outcome.seconds if outcome.seconds else None,
        "avg_game_seconds": outcome.game_seconds / games if games else None,
        # the share of the workers' time (after start-up) not spent playing games:
        # scheduling, sending arguments and records, idle CPUs at the end
        "overhead": 1 - outcome.game_seconds / working if working > 0 else None,
    }


def ranked_cards(stats: dict[str, Any], top: int, min_built: int | None = None) -> tuple[
        list[dict[str, Any]], list[dict[str, Any]]]:
    """The ``top`` cards with the highest and the lowest win-rate lift (enough samples only)."""
    rows = [c for c in stats["cards"] if c["win_lift"] is not None]
    if min_built is None:
        min_built = max(5, stats["seat_games"] // 200)
    sampled = [c for c in rows if c["built"] >= min_built
               and c["built"] < c["games"] * stats["players"]] or rows
    ordered = sorted(sampled, key=lambda c: (-c["win_lift"], c["card"]))
    return ordered[:top], ordered[::-1][:top]


class PlotUnavailable(RuntimeError):
    """matplotlib is not installed."""


def plot(stats: dict[str, Any], path: str, top: int = 10) -> None:
    """Write the main figures (win rate by wonder side, category averages, card lift) to ``path``."""
    try:
        import matplotlib
    except ImportError:
        raise PlotUnavailable("--plot needs matplotlib, which is not installed: "
                              "pip install 'wonders[plot]' (or pip install matplotlib)") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (wonders_ax, categories_ax, cards_ax) = plt.subplots(
        3, 1, figsize=(11, 15), gridspec_kw={"height_ratios": [1.2, 0.8, 1.4]})
    baseline = 1 / stats["players"]
    sides = [w for w in stats["wonder_sides"] if w["win_rate"] is not None]
    sides.sort(key=lambda w: (w["wonder"], w["side"]))
    labels = [f"{w['wonder']} {w['side']}" for w in sides]
    wonders_ax.bar(range(len(sides)), [w["win_rate"] for w in sides],
                   color=["#4c72b0" if w["side"] == "A" else "#dd8452" for w in sides])
    wonders_ax.axhline(baseline, color="grey", linestyle="--", linewidth=1,
                       label=f"1/{stats['players']} players")
    wonders_ax.set_xticks(range(len(sides)), labels, rotation=45, ha="right")
    wonders_ax.set_ylabel("win rate")
    wonders_ax.set_title(f"Win rate by wonder and side ({stats['games']} games, "
                         f"{stats['players']} players)")
    wonders_ax.legend()
    categories = stats["categories"]
    names = [c["category"] for c in categories]
    positions = list(range(len(categories)))
    categories_ax.bar([p - 0.2 for p in positions], [c["avg"] for c in categories], width=0.4,
                      label="all players")
    categories_ax.bar([p + 0.2 for p in positions], [c["avg_winner"] for c in categories],
                      width=0.4, label="winners")
    categories_ax.set_xticks(positions, names)
    categories_ax.set_ylabel("average points")
    categories_ax.set_title("Score sheet: average points per category")
    categories_ax.legend()
    best, worst = ranked_cards(stats, top)
    chosen = best + [c for c in worst if c not in best]
    chosen.sort(key=lambda c: c["win_lift"])
    cards_ax.barh([c["card"] for c in chosen], [c["win_lift"] for c in chosen],
                  color=["#55a868" if c["win_lift"] >= 0 else "#c44e52" for c in chosen])
    cards_ax.axvline(0, color="grey", linewidth=1)
    cards_ax.set_xlabel("win rate when built − win rate when not built")
    cards_ax.set_title(f"Cards: top and bottom {top} by win-rate lift")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
