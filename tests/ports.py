"""Free TCP ports for the servers the tests start, never the same in two pytest-xdist
workers: worker ``gwK`` of ``N`` only takes ports ``p`` with ``p % N == K``.

The ports come from below Linux's default ephemeral range (32768–60999), where the kernel
hands out none on its own: a port probed free stays free until this worker's server binds
it.  (The kernel's own choice, ``bind(("127.0.0.1", 0))``, cannot be split between
workers: it gives only odd ports.)"""

from __future__ import annotations

import os
import random
import socket

LOW, HIGH = 20000, 32768  # below the ephemeral range
_PICK = random.SystemRandom()  # not the global generator, which tests seed


def worker() -> tuple[int, int]:
    """This process's pytest-xdist worker number and the number of workers ((0, 1) when
    the suite runs in one process)."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "")
    count = max(int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1") or 1), 1)
    index = int(name[2:]) if name.startswith("gw") and name[2:].isdigit() else 0
    return index % count, count


def free_port() -> int:
    """A port of 127.0.0.1 free right now, in this worker's share of the port numbers."""
    index, count = worker()
    for _ in range(200):
        port = _PICK.randrange(LOW + (index - LOW) % count, HIGH, count)  # p % count == index
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue  # in use: another
        return port
    raise RuntimeError(f"no free port p with p % {count} == {index} in 200 tries")
