"""Free TCP ports for the servers the tests start, never the same in two pytest-xdist
workers: worker ``gwK`` of ``N`` only takes ports ``p`` with ``p % N == K`` (the kernel
picks each one; a port just probed and closed could otherwise be handed to the other
worker before this one's server binds it)."""

from __future__ import annotations

import os
import socket


def worker() -> tuple[int, int]:
    """This process's pytest-xdist worker number and the number of workers ((0, 1) when
    the suite runs in one process)."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "")
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1") or 1)
    index = int(name[2:]) if name.startswith("gw") and name[2:].isdigit() else 0
    return index % max(count, 1), max(count, 1)


def free_port() -> int:
    """A port of 127.0.0.1 free right now, in this worker's share of the port numbers."""
    index, count = worker()
    for _ in range(64 * count):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        if port % count == index:
            return port
    raise RuntimeError(f"no free port p with p % {count} == {index} in {64 * count} tries")
