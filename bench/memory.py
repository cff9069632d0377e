"""A gunicorn worker's resident memory after a fixed amount of work (issue 40).

    .venv/bin/python bench/memory.py [--queries 3000] [--env KEY=VALUE ...]

Starts one server as bench/load.py does (gthread, 3 workers x 2 threads, DEBUG off, the shipped
settings, the search log off), then sends it --queries fresh queries of each kind in turn, 8 at a
time: misspelled, correctly spelled, keystrokes (titles only, as the instant box asks), keystrokes
with snippets, the results page correctly spelled and misspelled, then repeated API requests (the
answer memo fills). After start and after each kind
it prints every worker's VmRSS (/proc/<pid>/status), in MiB. The number of requests is fixed (not
a duration, as in bench/load.py), so the figure does not depend on how fast the machine is;
memory is not timing-sensitive, so a shared machine measures it as well as an idle one.
`--env KEY=VALUE` (repeatable) changes the server's environment (e.g. SEARCH_CACHE_SECONDS=0:
without the result cache). The server is stopped by its PID at the end.
"""

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import server_env, write_paths  # noqa: E402
from bench.servers import rss_kib, start_gunicorn, stop_process_group, worker_pids  # noqa: E402

# What each kind sends: (label, fresh query pool, path prefix), as bench/load.py's candidates.
KINDS = (
    ("misspelled", "misspelled", "/api/search/"),
    ("correctly spelled", "correct", "/api/search/"),
    ("keystroke", "keystroke", "/api/search/?snippets=0"),
    ("keystroke, with snippets", "keystroke", "/api/search/"),
    ("results page, correctly spelled", "correct", "/search/"),
    ("results page, misspelled", "misspelled", "/search/"),
)


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--queries", type=int, default=3000, help="fresh queries of each kind")
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--clients", type=int, default=8, help="requests in flight")
    parser.add_argument("--port", type=int, default=8891)
    parser.add_argument("--seed", type=int, default=901)
    parser.add_argument("--env", action="append", default=[], help="KEY=VALUE for the server (repeatable)")
    return parser.parse_args()


def send(url: str, paths: list[str], clients: int) -> int:
    """Every path once, `clients` at a time; the number of failed requests."""

    def get(path: str) -> int:
        try:
            urllib.request.urlopen(url + path, timeout=30).read()
            return 0
        except OSError:
            return 1

    with ThreadPoolExecutor(clients) as pool:
        return sum(pool.map(get, paths))


def main():
    args = parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # so that the server is stopped below
    from bench.freshqueries import pool, slices
    from bench.querygen import load_posts

    posts = load_posts(args.corpus)
    users = {kind: sum(1 for _, k, _ in KINDS if k == kind) for _, kind, _ in KINDS}
    pools = {kind: iter(slices(pool(args.corpus, kind=kind, size=n * args.queries, seed=args.seed, posts=posts), n)) for kind, n in users.items()}
    tmp = Path(tempfile.mkdtemp(prefix="bench-memory-"))
    files = [(label, write_paths(tmp / f"{i}.txt", prefix, next(pools[kind]))) for i, (label, kind, prefix) in enumerate(KINDS)]
    extra = dict(item.split("=", 1) for item in args.env)
    # The results page reads the collected static files' manifest with DEBUG off (bench/load.py).
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=server_env(extra={}), check=True)
    proc = start_gunicorn(args.port, server_env(extra=extra), workers=args.workers, threads=args.threads)
    url = f"http://127.0.0.1:{args.port}"
    started = time.monotonic()

    def show(what: str) -> None:
        sizes = ", ".join(f"{rss_kib(pid) / 1024:.1f}" for pid in worker_pids(proc))
        print(f"{time.monotonic() - started:5.0f} s  {what}: workers' VmRSS {sizes} MiB", flush=True)

    print(f"gunicorn gthread {args.workers} workers x {args.threads} threads, {args.clients} requests in flight; server environment: {extra or 'shipped'}")
    try:
        show("started")
        for label, path in files:
            paths = path.read_text().splitlines()
            failed = send(url, paths, args.clients)
            show(f"+{len(paths)} {label}" + (f" ({failed} failed)" if failed else ""))
        # Then repeated requests, which the answer memo keeps (search/answers.py, admitted on a
        # result-cache hit): 400 of the API requests above, each 6 times, so that every worker sees
        # most of them twice or more and its memo fills to its bound (400 answers of ~5 KB).
        again = [p for _, path in files[:2] for p in path.read_text().splitlines()[:200]] * 6
        failed = send(url, again, args.clients)
        show(f"+{len(again)} repeated API requests" + (f" ({failed} failed)" if failed else ""))
    finally:
        stop_process_group(proc)
        for _, path in files:
            path.unlink()
        tmp.rmdir()


if __name__ == "__main__":
    main()
