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

import gc
import logging
import math
import os
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import (
    Any,
    Callable,
    ContextManager,
    Final,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
    TypeVar,
)

from wonders.bots import make_bot
from wonders.dsl.errors import DataError
from wonders.dsl.model import Game as GameData
from wonders.dsl.source import unsaved
from wonders.engine.actions import Action, ChooseWonder
from wonders.engine.city import City
from wonders.engine.contract import AnyAction, GameState
from wonders.engine.drafted_city import BUILT, NOT_BUILT
from wonders.engine.playout import POLICIES, playout, seat_seed
from wonders.engine.registry import new_game
from wonders.engine.sources import resolve

VICTORIES = ("military", "science", "civilian")

Record = dict[str, Any]
# a table's wonder sides: None (the rule set's way), one mode for all, or one per seat
Sides = str | tuple[str, ...] | None
# files read from memory instead of the disk: (a file's resolved path, the text to load in its
# place), e.g. ``wonders tune``'s candidate values; the user's files are never written
Overlay = tuple[tuple[str, str], ...]

_DATA: dict[tuple[str, tuple[str, ...], Overlay], GameData] = {}


def game_data(game: str, paths: Sequence[str] = (), overlay: Overlay = ()) -> GameData:
    """The loaded data of a game (a shipped name or a rule-set path, with ``overlay``'s
    texts in place of those files), once per process."""
    key = (game, tuple(paths), overlay)
    found = _DATA.get(key)
    if found is None:
        with unsaved({Path(file): text for file, text in overlay}):
            result = resolve(game).load(list(paths))
        if result.game is None:
            raise DataError(result.report.sorted())
        found = result.game
        _DATA[key] = found
        # The data lives as long as the process: out of the collector's way.  Its full
        # passes walked every card, effect and cached answer loaded so far, over and over
        # (compiled, 'wonders simulate --workers 1', the very same statistics: Duel, 4,000
        # random games, 2,362-2,487 -> 2,605-2,633 games/s; base, 4 players, 1,000 games,
        # 1,222-1,227 -> 1,257-1,271).  Objects alive now are never collected as cycles
        # afterwards: what a simulation process holds at this point, it holds to the end.
        gc.freeze()
    return found


def bot_seed(game_seed: int, seat: int) -> int:
    return seat_seed(game_seed, seat)


# Bots whose games :func:`wonders.engine.playout.playout` plays itself: when every seat has
# one, a game runs in the playout's compiled loop (the same choices as the bot objects).
PLAYOUT_BOTS: Final = frozenset(POLICIES)


def play_game(data: GameData, players: int, seed: int, bots: Sequence[str],
              side: Sides = "random") -> Record:
    """Play one game with bots and return its record (plain data, cheap to send between
    processes)."""
    started = time.perf_counter()
    dealt: set[str] = set()
    drafted: list[list[str]] = [[] for _ in range(players)]
    match = new_game(data, players, seed) if side is None else new_game(data, players, seed,
                                                                         sides=side)

    def deal(game: GameState) -> None:  # a new age was dealt: every card in it is in the game
        dealt.update(card.name for card in game.offer_cards())

    def chosen(moves: Mapping[int, AnyAction]) -> None:
        for seat, action in moves.items():
            if isinstance(action, ChooseWonder):
                drafted[seat].append(action.wonder.name)

    if all(name in PLAYOUT_BOTS for name in bots):
        # every seat a built-in policy: one compiled loop plays the game, the bots'
        # very choices (the same seeds, the same draws), without a bot object
        decisions: list[dict[int, Action]] = []
        playout(match, list(bots), seed, record=decisions, on_age=deal)
        for moves in decisions:
            chosen(moves)
    else:
        seated = [make_bot(name, bot_seed(seed, seat)) for seat, name in enumerate(bots)]
        age = 0
        while not match.over:
            if match.age != age:
                age = match.age
                deal(match)
            choices = {seat: seated[seat].choose(match, seat) for seat in match.to_move()}
            chosen(choices)
            match.play(choices)
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
           bots: Sequence[str], side: Sides, overlay: Overlay = ()) -> list[Record]:
    data = game_data(game, paths, overlay)
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
    overlay: Overlay = ()    # data files loaded from these texts instead of the disk

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

def _ray_chunk(key: str, game: str, paths: list[str], players: int, seeds: list[int],
               bots: list[str], side: Sides, overlay: Overlay) -> list[Record]:
    """A Ray task: play ``seeds``.  The worker loads the data itself, once per process
    (:func:`game_data`), and checks it is the driver's (``key``, the content hash of every
    loaded file): the data is not sent through the object store because compiled data
    classes cannot be pickled.  So a cluster's nodes need the package (shipped games
    come with it) and any extra card files at the same paths."""
    data = game_data(game, paths, overlay)
    if data.content_hash != key:
        raise RuntimeError(f"the card files of '{game}' on this Ray node differ from the "
                           "driver's: install the same files at the same paths")
    return [play_game(data, players, seed, bots, side) for seed in seeds]


def _check_reachable(address: str, seconds: float = 5.0) -> None:
    """Refuse a cluster address nothing answers at, before Ray retries it for minutes:
    ``host:port`` and ``ray://host:port`` are tried; ``auto`` and others go to Ray."""
    import socket

    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return
    if not 0 < int(port) < 65536:
        raise RayUnavailable(f"cannot reach the Ray cluster at {address}: no port {port}")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=seconds).close()
    except (OSError, UnicodeError, ValueError) as exc:
        raise RayUnavailable(f"cannot reach the Ray cluster at {address}: "
                             f"{getattr(exc, 'strerror', None) or exc}") from None


@contextmanager
def ray_session(run: Run) -> Iterator[None]:
    """Start a local Ray runtime of ``run.workers`` CPUs, or join the cluster at
    ``run.address``, for the runs inside (a comparison's two start it once); stop it
    at the end if it was started here.  Inside a session already open, nothing."""
    try:
        import ray
    except ImportError:
        from wonders.extras import install_command

        raise RayUnavailable("--ray needs Ray, which is not installed: "
                             f"{install_command('ray')}") from None
    started_here = not ray.is_initialized()
    if started_here:
        if run.address is not None:
            _check_reachable(run.address)
        try:
            if run.address is None:
                # Ray runs its workers at niceness 15; a local runtime's tasks run at normal
                # priority, like --workers' processes (a cluster keeps its own setting)
                os.environ.setdefault("RAY_worker_niceness", "0")
                ray.init(num_cpus=run.workers, include_dashboard=False,
                         logging_level=logging.ERROR, log_to_driver=False)
            else:
                ray.init(address=run.address, logging_level=logging.ERROR,
                         log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise RayUnavailable(f"cannot start or reach Ray"
                                 f"{' at ' + run.address if run.address else ''}: {exc}") from None
    try:
        yield
    finally:
        if started_here:
            ray.shutdown()


def session(run: Run) -> ContextManager[None]:
    """What runs around one or more runs: a Ray session for Ray runs, nothing otherwise."""
    return ray_session(run) if run.ray else nullcontext()


def _run_ray(run: Run, bots: list[str], take: Callable[[Sequence[Record]], None]
             ) -> tuple[int, int, float]:
    """Play the run's games as Ray tasks (see :func:`ray_session`): the number of tasks,
    the CPUs, the seconds it took to start or join the runtime."""
    data = game_data(run.game, run.paths, run.overlay)
    started = time.perf_counter()
    with ray_session(run):
        import ray

        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call]
        key = data.content_hash
        task = ray.remote(_ray_chunk).options(num_cpus=1)
        setup = time.perf_counter() - started

        def launch(seeds: list[int]) -> Any:
            return task.remote(key, run.game, list(run.paths), run.players, seeds, bots,
                               run.side, run.overlay)

        def finished(handles: list[Any]) -> list[tuple[Any, list[Record]]]:
            ready, _ = ray.wait(handles, num_returns=1)
            return list(zip(ready, ray.get(ready)))

        tasks = _in_order(run, ray_chunk_size(run.games, cpus), cpus * 4, launch, finished,
                          take)
        return tasks, cpus, setup


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
        data = game_data(run.game, run.paths, run.overlay)
        for i in range(run.games):
            take([play_game(data, run.players, run.seed + i, bots, run.side)])
    else:
        size = chunk_size(run.games, run.workers)
        with ProcessPoolExecutor(max_workers=run.workers) as pool:
            def launch(seeds: list[int]) -> Future[list[Record]]:
                return pool.submit(_chunk, run.game, run.paths, run.players, seeds, bots,
                                   run.side, run.overlay)

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


Z95: Final = 1.959963984540054  # the normal quantile of a two-sided 95 % interval
Interval = list[float] | None   # [low, high], None without a sample


def wilson(successes: float, trials: float, z: float = Z95) -> Interval:
    """The Wilson score interval of a rate: unlike the plain ``p ± z·sqrt(p(1-p)/n)`` it
    stays within [0, 1] and holds up for rates near 0 or 1 and small samples.  Win
    *credits* (a shared win split) are fractional successes, which the formula takes."""
    if trials <= 0:
        return None
    p = min(max(successes / trials, 0.0), 1.0)
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return [max(0.0, centre - half), min(1.0, centre + half)]


def difference_interval(s1: float, n1: float, s2: float, n2: float,
                        z: float = Z95) -> Interval:
    """Newcombe's hybrid score interval of ``s1/n1 - s2/n2``, built from the two Wilson
    intervals (recommended over the plain Wald interval for the same reasons)."""
    first, second = wilson(s1, n1, z), wilson(s2, n2, z)
    if first is None or second is None:
        return None
    p1, p2 = s1 / n1, s2 / n2
    low = p1 - p2 - math.sqrt((p1 - first[0]) ** 2 + (second[1] - p2) ** 2)
    high = p1 - p2 + math.sqrt((first[1] - p1) ** 2 + (p2 - second[0]) ** 2)
    return [low, high]


def mean_interval(total: float, squares: float, count: float, z: float = Z95) -> Interval:
    """The normal interval of an average from the sum and the sum of squares."""
    if count < 2:
        return None
    mean = total / count
    variance = max(0.0, (squares - count * mean * mean) / (count - 1))
    half = z * math.sqrt(variance / count)
    return [mean - half, mean + half]


def two_proportion_p(s1: float, n1: float, s2: float, n2: float) -> float | None:
    """The two-sided p-value of the pooled z-test that two rates are equal."""
    if n1 <= 0 or n2 <= 0:
        return None
    pooled = (s1 + s2) / (n1 + n2)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if spread == 0:
        return 1.0
    return math.erfc(abs(s1 / n1 - s2 / n2) / spread / math.sqrt(2))


def welch_p(m1: float, v1: float, n1: float, m2: float, v2: float, n2: float) -> float | None:
    """The two-sided p-value that two averages are equal (Welch's test with the normal
    distribution: the samples here are thousands of seat-games)."""
    if n1 < 2 or n2 < 2:
        return None
    spread = math.sqrt(v1 / n1 + v2 / n2)
    if spread == 0:
        return 1.0 if m1 == m2 else 0.0
    return math.erfc(abs(m1 - m2) / spread / math.sqrt(2))


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
        self.line_squares: dict[str, float] = {}
        self.winner_line_sums: dict[str, float] = {}
        self.total_sum = 0.0
        self.total_squares = 0.0
        self.decisions = 0
        self.wonders: dict[tuple[str, str], list[float]] = {}  # played, win credit, score sum
        self.bots: dict[str, list[float]] = {}
        # per card: [seat-games present, built, win credit built, score built,
        #            win credit present-not-built, score present-not-built, games present,
        #            games built in, copies dealt, copies built]
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
                    self.line_squares[name] = 0.0
                    winner_line_sums[name] = 0.0
                line_sums[name] += value
                self.line_squares[name] += value * value
                winner_line_sums[name] += value * credits[seat]
            total = record["totals"][seat]
            self.total_sum += total
            self.total_squares += total * total
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
        copies: dict[str, int] = {}
        for name in record["dealt"]:
            copies[name] = copies.get(name, 0) + 1
        for name, dealt in copies.items():
            row = cards.setdefault(name, [0.0] * 10)
            builders = sum(1 for names in built if name in names)
            row[6] += 1
            row[7] += builders > 0
            row[8] += dealt
            row[9] += min(builders, dealt)
        for name in record["dealt"]:
            row = cards[name]
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
                                "win_rate_ci": wilson(wins, played),
                                "avg_score": _rate(score, played)})
        wonder_totals: dict[str, list[float]] = {}
        for (wonder, _), (played, wins, score) in sorted(wonders.items()):
            row = wonder_totals.setdefault(wonder, [0.0, 0.0, 0.0])
            row[0] += played
            row[1] += wins
            row[2] += score
        by_wonder = [{"wonder": w, "played": int(p), "wins": wn, "win_rate": _rate(wn, p),
                      "win_rate_ci": wilson(wn, p), "avg_score": _rate(s, p)}
                     for w, (p, wn, s) in sorted(wonder_totals.items())]
        card_rows = []
        for name, (present, built_n, win_b, score_b, win_n, score_n, in_games, built_games,
                   copies, copies_built) in sorted(cards.items()):
            not_built = present - built_n
            win_rate_built = _rate(win_b, built_n)
            win_rate_not = _rate(win_n, not_built)
            lift = (win_rate_built - win_rate_not
                    if win_rate_built is not None and win_rate_not is not None else None)
            avg_built = _rate(score_b, built_n)
            avg_not = _rate(score_n, not_built)
            card_rows.append({
                "card": name, "games": int(in_games), "built": int(built_n),
                "present": int(present), "wins_built": win_b, "wins_not_built": win_n,
                "build_rate": _rate(built_n, present),
                "build_rate_ci": wilson(built_n, present),
                "copies": int(copies),
                "build_rate_game": _rate(built_games, in_games),
                "build_rate_game_ci": wilson(built_games, in_games),
                "build_rate_copy": _rate(copies_built, copies),
                "build_rate_copy_ci": wilson(copies_built, copies),
                "win_rate_built": win_rate_built, "win_rate_not_built": win_rate_not,
                "win_rate_built_ci": wilson(win_b, built_n),
                "win_rate_not_built_ci": wilson(win_n, not_built),
                "win_lift": lift,
                "win_lift_ci": difference_interval(win_b, built_n, win_n, not_built),
                "avg_score_built": avg_built, "avg_score_not_built": avg_not,
                "score_lift": (avg_built - avg_not
                               if avg_built is not None and avg_not is not None else None),
            })
        bot_rows = [{"bot": name, "seats": int(n), "wins": w, "win_rate": _rate(w, n),
                     "win_rate_ci": wilson(w, n), "avg_score": _rate(s, n)}
                    for name, (n, w, s) in sorted(bots.items())]
        return {
            "games": games,
            "players": players,
            "seat_games": seat_games,
            "avg_decisions": _rate(decisions, games),
            "avg_score": _rate(total_sum, seat_games),
            "avg_score_ci": mean_interval(total_sum, self.total_squares, seat_games),
            "score_variance": _variance(total_sum, self.total_squares, seat_games),
            "categories": [{"category": name, "avg": _rate(line_sums[name], seat_games),
                            "avg_ci": mean_interval(line_sums[name], self.line_squares[name],
                                                    seat_games),
                            "variance": _variance(line_sums[name], self.line_squares[name],
                                                  seat_games),
                            "avg_winner": _rate(winner_line_sums[name], games)}
                           for name in order],
            "wonder_sides": wonder_rows,
            "wonders": by_wonder,
            "cards": card_rows,
            "bots": bot_rows,
            "victories": [{"victory": name, "games": count, "share": _rate(count, games),
                           "share_ci": wilson(count, games)}
                          for name, count in victories.items()],
        }


# --- balance reports: the cards of interest, and two rule sets compared ----------------------

class SelectionError(ValueError):
    """``--card`` or ``--set`` names nothing the game holds (the message has a "did you mean")."""


@dataclass(frozen=True)
class Selection:
    """The cards (and wonders) a report is about."""

    cards: frozenset[str]
    wonders: frozenset[str]  # empty: every wonder stays


def select(games: Sequence[GameData], cards: Sequence[str] = (),
           sets: Sequence[str] = (), players: int | None = None) -> Selection:
    """The cards named and those of the sets named, in any of ``games`` (the two sides of
    a comparison); with ``sets``, the sets' wonders too (when they have any).  A name no
    game plays (unknown, removed by a card set, or without a copy at ``players``) raises
    :class:`SelectionError`: its table would be empty."""
    from wonders.dsl.errors import closest

    known = {card.name for data in games for card in data.cards
             if card.name not in data.removed}
    title = " or ".join(dict.fromkeys(data.rules.title for data in games))
    if players is not None:
        reserved = {data.rules.model.reserve.colour for data in games}
        unplayed = {card.name: card for data in games for card in data.cards
                    if card.name in known and not card.drawn and card.colour not in reserved
                    and card.copies(players) == 0}
        for name in cards:
            if name in unplayed and not any(
                    c.name == name and (c.drawn or c.copies(players)) for data in games
                    for c in data.cards):
                smallest = min(unplayed[name].players)
                raise SelectionError(f"'{name}' is not dealt at {players} players (its first "
                                     f"copy comes in at {smallest})")
    known_sets = sorted({name for data in games for name in data.sets})
    for name in cards:
        if name not in known and any(name in data.removed for data in games):
            raise SelectionError(f"'{name}' is removed from {title} by a card set: it is "
                                 "never dealt")
        if name not in known:
            hint = closest(name, known)
            raise SelectionError(f"no card '{name}' in {title}"
                                 + (f" (did you mean '{hint}'?)" if hint else ""))
    for name in sets:
        if name not in known_sets:
            hint = closest(name, known_sets)
            raise SelectionError(f"no card set '{name}' in {title}"
                                 + (f" (did you mean '{hint}'?)" if hint else "")
                                 + f"; sets: {', '.join(known_sets)}")
    chosen = set(cards) | {card.name for data in games for card in data.cards
                           if card.set in sets}
    wonders = {wonder.name for data in games for wonder in data.wonders if wonder.set in sets}
    return Selection(frozenset(chosen), frozenset(wonders))


def filtered(stats: dict[str, Any], selection: Selection) -> dict[str, Any]:
    """The statistics with only the selected cards (and wonders, when the selection has
    some): every other figure is the whole run's."""
    found = dict(stats)
    found["cards"] = [row for row in stats["cards"] if row["card"] in selection.cards]
    if selection.wonders:
        for key in ("wonder_sides", "wonders"):
            found[key] = [row for row in stats[key] if row["wonder"] in selection.wonders]
    return found


ALPHA: Final = 0.05  # the family-wise error rate of a comparison (Holm–Bonferroni)


def replacements(data: GameData) -> list[tuple[str, str]]:
    """(the card replaced, the card that replaces it) for each card of ``data`` that
    declares ``replaces:``, in card order."""
    return [(card.replaces, card.name) for card in data.cards if card.replaces]


def compare(a: dict[str, Any], b: dict[str, Any], alpha: float = ALPHA,
            pairs: Sequence[tuple[str, str]] = ()) -> list[dict[str, Any]]:
    """Every figure the two runs share, tested for a difference, B minus A.

    Rates (win rates by wonder and side, by bot; each card's build rate and win rate
    when built; the victory types' shares) take the two-proportion z-test and a Newcombe
    interval, averages (score categories, total) Welch's test and a normal interval.
    So many tests at once would find "differences" by chance, so a difference is
    *significant* by Holm's step-down correction at family-wise level ``alpha``.
    Cards and wonders present in one run only are listed too (``only``: "a" or "b").
    Each of ``pairs`` (a card of A, the card of B that replaces it) is tested too: the
    change in win-rate lift from the old card to the new (a normal interval from the two
    Newcombe intervals) and in build rate per copy.  Rows come most significant first."""
    rows: list[dict[str, Any]] = []

    def rate(what: str, name: str, s1: float, n1: float, s2: float, n2: float) -> None:
        if n1 <= 0 or n2 <= 0:
            return
        rows.append({"what": what, "name": name, "a": s1 / n1, "b": s2 / n2,
                     "difference": s2 / n2 - s1 / n1,
                     "ci": difference_interval(s2, n2, s1, n1),
                     "p": two_proportion_p(s1, n1, s2, n2), "samples": [n1, n2]})

    def mean(what: str, name: str, m1: float | None, v1: float | None, m2: float | None,
             v2: float | None) -> None:
        n1, n2 = a["seat_games"], b["seat_games"]
        if m1 is None or m2 is None or v1 is None or v2 is None:
            return
        half = Z95 * math.sqrt(v1 / n1 + v2 / n2)
        rows.append({"what": what, "name": name, "a": m1, "b": m2, "difference": m2 - m1,
                     "ci": [m2 - m1 - half, m2 - m1 + half],
                     "p": welch_p(m1, v1, n1, m2, v2, n2), "samples": [n1, n2]})

    mean("average score", "total", a["avg_score"], a["score_variance"], b["avg_score"],
         b["score_variance"])
    categories = {row["category"]: row for row in b["categories"]}
    for row in a["categories"]:
        other = categories.get(row["category"])
        if other is not None:
            mean("average points", row["category"], row["avg"], row["variance"], other["avg"],
                 other["variance"])
    victories = {row["victory"]: row for row in b["victories"]}
    for row in a["victories"]:
        other = victories.get(row["victory"])
        if other is not None and (row["games"] or other["games"]):
            rate("victory share", row["victory"], row["games"], a["games"], other["games"],
                 b["games"])
    bots = {row["bot"]: row for row in b["bots"]}
    for row in a["bots"]:
        other = bots.get(row["bot"])
        if other is not None:
            rate("bot win rate", row["bot"], row["wins"], row["seats"], other["wins"],
                 other["seats"])
    sides = {(row["wonder"], row["side"]): row for row in b["wonder_sides"]}
    for row in a["wonder_sides"]:
        other = sides.pop((row["wonder"], row["side"]), None)
        name = f"{row['wonder']} {row['side']}"
        if other is None:
            rows.append({"what": "wonder win rate", "name": name, "only": "a",
                         "a": row["win_rate"], "b": None})
            continue
        rate("wonder win rate", name, row["wins"], row["played"], other["wins"],
             other["played"])
    for (wonder, side), row in sorted(sides.items()):
        rows.append({"what": "wonder win rate", "name": f"{wonder} {side}", "only": "b",
                     "a": None, "b": row["win_rate"]})
    cards = {row["card"]: row for row in b["cards"]}
    for row in a["cards"]:
        other = cards.pop(row["card"], None)
        if other is None:
            rows.append({"what": "card win rate if built", "name": row["card"], "only": "a",
                         "a": row["win_rate_built"], "b": None})
            continue
        rate("card build rate", row["card"], row["built"], row["present"], other["built"],
             other["present"])
        rate("card win rate if built", row["card"], row["wins_built"], row["built"],
             other["wins_built"], other["built"])
    for name, row in sorted(cards.items()):
        rows.append({"what": "card win rate if built", "name": name, "only": "b",
                     "a": None, "b": row["win_rate_built"],
                     "b_ci": row["win_rate_built_ci"], "b_lift": row["win_lift"],
                     "b_lift_ci": row["win_lift_ci"]})
    cards_a = {row["card"]: row for row in a["cards"]}
    cards_b = {row["card"]: row for row in b["cards"]}
    for old, new in pairs:
        before, after = cards_a.get(old), cards_b.get(new)
        if before is None or after is None:
            continue
        name = f"{new} (replacing {old})"
        rate("replacement build rate per copy", name,
             round(before["build_rate_copy"] * before["copies"]), before["copies"],
             round(after["build_rate_copy"] * after["copies"]), after["copies"])
        lift_a, lift_b = before["win_lift"], after["win_lift"]
        if lift_a is None or lift_b is None:
            continue
        spread = math.hypot(*((hi - lo) / (2 * Z95) for lo, hi in (before["win_lift_ci"],
                                                                    after["win_lift_ci"])))
        change = lift_b - lift_a
        rows.append({"what": "replacement win-rate lift", "name": name, "a": lift_a,
                     "b": lift_b, "difference": change,
                     "ci": [change - Z95 * spread, change + Z95 * spread],
                     "p": math.erfc(abs(change) / spread / math.sqrt(2)) if spread else None,
                     "samples": [before["built"], after["built"]]})
    tested = sorted((row for row in rows if row.get("p") is not None), key=lambda r: r["p"])
    count = len(tested)
    rejecting = True
    for position, row in enumerate(tested):
        # Holm: the i-th smallest p-value against alpha / (m - i), stopping at the first miss
        rejecting = rejecting and row["p"] <= alpha / (count - position)
        row["significant"] = rejecting
    untested = [row for row in rows if row.get("p") is None]
    return tested + untested


def _variance(total: float, squares: float, count: float) -> float | None:
    if count < 2:
        return None
    mean = total / count
    return max(0.0, (squares - count * mean * mean) / (count - 1))


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


def _error_bars(values: Sequence[float], intervals: Sequence[Interval]) -> list[list[float]]:
    """Matplotlib's asymmetric error bars (below, above) from intervals (0 where none)."""
    below = [value - ci[0] if ci else 0.0 for value, ci in zip(values, intervals)]
    above = [ci[1] - value if ci else 0.0 for value, ci in zip(values, intervals)]
    return [below, above]


def plot_heading(stats: dict[str, Any], game: str, bots: Sequence[str]) -> str:
    """What a figure says it shows: the game, the bots and the number of games."""
    return (f"{game}: {stats['games']} games, {stats['players']} players, bots "
            f"{', '.join(bots)}")


def _pyplot() -> Any:
    """matplotlib's pyplot on a backend that needs no display."""
    try:
        import matplotlib
    except ImportError:
        from wonders.extras import install_command

        raise PlotUnavailable("--plot needs matplotlib, which is not installed: "
                              f"{install_command('plot')} (or pip install matplotlib)") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def plot(stats: dict[str, Any], path: str, top: int = 10, game: str = "",
         bots: Sequence[str] = ()) -> None:
    """Write the main figures (win rate by wonder side, category averages, card lift) to
    ``path``, titled with the game, the bots and the number of games; rates carry their
    95 % intervals as error bars."""
    plt = _pyplot()

    figure, (wonders_ax, categories_ax, cards_ax) = plt.subplots(
        3, 1, figsize=(11, 15), gridspec_kw={"height_ratios": [1.2, 0.8, 1.4]})
    baseline = 1 / stats["players"]
    sides = [w for w in stats["wonder_sides"] if w["win_rate"] is not None]
    sides.sort(key=lambda w: (w["wonder"], w["side"]))
    labels = [f"{w['wonder']} {w['side']}" for w in sides]
    wonders_ax.bar(range(len(sides)), [w["win_rate"] for w in sides],
                   yerr=_error_bars([w["win_rate"] for w in sides],
                                    [w.get("win_rate_ci") for w in sides]),
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
                  xerr=_error_bars([c["win_lift"] for c in chosen],
                                   [c.get("win_lift_ci") for c in chosen]),
                  color=["#55a868" if c["win_lift"] >= 0 else "#c44e52" for c in chosen])
    cards_ax.axvline(0, color="grey", linewidth=1)
    cards_ax.set_xlabel("win rate when built − win rate when not built")
    cards_ax.set_title(f"Cards: top and bottom {top} by win-rate lift (95 % intervals)")
    figure.suptitle(plot_heading(stats, game or "simulation", bots), fontsize=14)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def plot_comparison(rows: Sequence[dict[str, Any]], path: str, heading: str) -> None:
    """Write a comparison's figure to ``path``: every significant difference and every
    replacement (B minus A) as a bar with its 95 % interval, rates in percentage points."""
    plt = _pyplot()
    shown = [row for row in rows if row.get("p") is not None and (
        row.get("significant") or row["what"].startswith("replacement"))]
    scale = [1.0 if row["what"] in ("average score", "average points") else 100.0
             for row in shown]
    labels = [f"{row['what']}: {row['name']}" for row in shown]
    values = [row["difference"] * k for row, k in zip(shown, scale)]
    intervals: list[Interval] = [[row["ci"][0] * k, row["ci"][1] * k]
                                 for row, k in zip(shown, scale)]
    figure, axis = plt.subplots(figsize=(11, max(3.0, 0.45 * len(shown) + 1.5)))
    if shown:
        axis.barh(labels, values, xerr=_error_bars(values, intervals),
                  color=["#55a868" if v >= 0 else "#c44e52" for v in values])
    else:
        axis.text(0.5, 0.5, "no significant difference", ha="center", va="center",
                  transform=axis.transAxes)
    axis.axvline(0, color="grey", linewidth=1)
    axis.set_xlabel("B − A (rates in percentage points, averages in points; 95 % intervals)")
    figure.suptitle(heading, fontsize=13)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
