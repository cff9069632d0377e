"""gunicorn's settings file (`gunicorn -c config/gunicorn.py config.wsgi:application`, the
Dockerfile's command and bench/servers.py): Prometheus's multiprocess mode for /metrics.

Each worker is its own process with its own counters; /metrics is answered by whichever worker
gets the request, so the counters must add up across workers. prometheus_client does that when
PROMETHEUS_MULTIPROC_DIR names a directory *before* any worker imports it: each worker writes
its values to memory-mapped files there, /metrics merges them (search/metrics_serving.py).
The master sets it here (a fresh private directory unless the environment names one), empties
its files at start (stale ones of an earlier run would add up too), and tells prometheus_client when a
worker exits, so that its gauges leave the live figures (its counters stay in the sums).

Memory: glibc's malloc gives every thread that allocates an arena of its own (up to 8 per core),
and memory freed in one stays there. A gthread worker's request threads, its LISTEN thread and
the search log's flusher each had one: limited to 2 arenas per process (set in the master before
it forks, so every worker inherits it), a worker held ~2 MB less after the load benchmark
(docs/benchmarks.md#memory). Not glibc (musl, macOS): nothing to set.
"""

import ctypes
import ctypes.util
import glob
import os
import shutil
import tempfile

MALLOC_ARENAS = 2
_M_ARENA_MAX = -8  # glibc's malloc.h


def limit_malloc_arenas(arenas: int = MALLOC_ARENAS) -> bool:
    """mallopt(M_ARENA_MAX, arenas) when the C library is glibc; whether it was set."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return bool(libc.gnu_get_libc_version and libc.mallopt(_M_ARENA_MAX, arenas))
    except (OSError, AttributeError):  # not glibc: no such functions
        return False


limit_malloc_arenas()

_OWN = None  # the directory made here, removed at exit (one named by the environment is kept)
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    _OWN = os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="prometheus-")


def on_starting(server):
    path = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    os.makedirs(path, exist_ok=True)
    for stale in glob.glob(os.path.join(path, "*.db")):  # prometheus_client's files only
        os.remove(stale)


def child_exit(server, worker):
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server):
    if _OWN:
        shutil.rmtree(_OWN, ignore_errors=True)
