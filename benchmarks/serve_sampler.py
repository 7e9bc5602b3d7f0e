"""Run ``wonders serve`` with a sampler of the event loop's stack (``benchmarks/serve.py
--profile benchmarks/serve_sampler.py``): every 5 ms the main thread's stack is counted,
and every 5 s the most frequent functions (own and cumulative) are written to the file
``SAMPLE_OUT`` names (default ``serve-samples.txt``).  It needs no clean exit, which a
server stopped under load may not make.  The samples are taken when the main thread lets
the GIL go, so a system call (a socket's ``write``, ``select``) is over-counted: read the
Python functions' shares.

    SAMPLE_OUT=samples.txt python benchmarks/serve.py --tables 200 \\
        --profile benchmarks/serve_sampler.py
"""

from __future__ import annotations

import collections
import os
import runpy
import sys
import threading
import time

OUT = os.environ.get("SAMPLE_OUT", "serve-samples.txt")


def sample(main: int) -> None:
    own: collections.Counter[str] = collections.Counter()
    cumulative: collections.Counter[str] = collections.Counter()
    total = 0
    last = time.time()
    while True:
        time.sleep(0.005)
        frame = sys._current_frames().get(main)
        if frame is None:
            continue
        total += 1
        own[f"{frame.f_code.co_filename}:{frame.f_code.co_name}"] += 1
        seen = set()
        while frame is not None:
            code = frame.f_code
            key = f"{code.co_filename.split('site-packages/')[-1]}:{code.co_name}:" \
                  f"{code.co_firstlineno}"
            if key not in seen:
                cumulative[key] += 1
                seen.add(key)
            frame = frame.f_back
        if time.time() - last > 5:
            last = time.time()
            with open(OUT, "w", encoding="utf-8") as handle:
                handle.write(f"samples {total}\n-- own\n")
                handle.writelines(f"{n:7d} {k}\n" for k, n in own.most_common(40))
                handle.write("-- cumulative\n")
                handle.writelines(f"{n:7d} {k}\n" for k, n in cumulative.most_common(120))


if __name__ == "__main__":
    threading.Thread(target=sample, args=(threading.main_thread().ident,),
                     daemon=True).start()
    sys.argv = ["wonders", *sys.argv[1:]]
    runpy.run_module("wonders.cli", run_name="__main__")
