"""`simulate --ray`: games as Ray tasks on a local Ray runtime give exactly the statistics
of worker processes for the same seeds, stream their progress, and fail clearly."""

from __future__ import annotations

import json
from typing import Any, Iterator

import pytest

ray = pytest.importorskip("ray", reason="simulate --ray needs Ray: pip install 'wonders[ray]'")
# One local Ray runtime for the module: its tests stay in one pytest-xdist worker.
pytestmark = pytest.mark.xdist_group("ray")

from typer.testing import CliRunner  # noqa: E402

from wonders.simulate import RayUnavailable, Run, _check_reachable, ray_chunk_size, run_games  # noqa: E402


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """One small local runtime for the module (starting one takes seconds)."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


@pytest.mark.parametrize("game,players,games", [("base", 3, 60), ("duel", 2, 40)])
def test_ray_gives_the_statistics_of_worker_processes(local_ray: None, game: str,
                                                      players: int, games: int) -> None:
    run = Run(game=game, players=players, games=games, seed=7, bots=("random",), workers=2)
    processes = run_games(run)
    seen: list[int] = []
    on_ray = run_games(Run(game=game, players=players, games=games, seed=7, bots=("random",),
                           workers=2, ray=True), seen.append)
    assert on_ray.backend == "ray" and on_ray.tasks > 1
    assert on_ray.stats == processes.stats
    assert [r["seed"] for r in on_ray.records] == list(range(7, 7 + games))
    strip = [{k: v for k, v in r.items() if k != "seconds"} for r in on_ray.records]
    assert strip == [{k: v for k, v in r.items() if k != "seconds"} for r in processes.records]
    assert sum(seen) == games and len(seen) == on_ray.tasks  # progress, task by task


def test_the_command_line_runs_on_ray(local_ray: None) -> None:
    from wonders.cli import app

    runner = CliRunner()
    args = ["simulate", "--game", "duel", "--games", "30", "--seed", "3", "--json"]
    on_ray = runner.invoke(app, args + ["--ray"])
    assert on_ray.exit_code == 0, on_ray.output
    processes = runner.invoke(app, args + ["--workers", "2"])
    assert processes.exit_code == 0, processes.output
    ray_record: dict[str, Any] = json.loads(on_ray.stdout)
    assert ray_record["stats"] == json.loads(processes.stdout)["stats"]
    assert ray_record["timing"]["backend"] == "ray" and ray_record["timing"]["tasks"] >= 2
    compare = ["simulate", "--games", "12", "--players", "3", "--json", "--compare", "base",
               "expansions/tutorial"]
    on_ray = runner.invoke(app, compare + ["--ray"])
    assert on_ray.exit_code == 0, on_ray.output
    local = runner.invoke(app, compare + ["--workers", "1"])
    assert json.loads(on_ray.stdout)["differences"] == json.loads(local.stdout)["differences"]


def test_tasks_are_batched_and_an_unreachable_cluster_is_a_clear_error() -> None:
    assert ray_chunk_size(1_000_000, 64) == 200      # many games: long tasks
    assert ray_chunk_size(100, 2) == 13              # few: every CPU gets several tasks
    assert ray_chunk_size(1, 8) == 1
    with pytest.raises(RayUnavailable, match="cannot reach the Ray cluster at 127.0.0.1:1"):
        _check_reachable("127.0.0.1:1", seconds=2)
    _check_reachable("auto")  # left to Ray
