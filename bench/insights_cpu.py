"""What the search log costs in CPU time per search, end to end over HTTP, measured so that other
load on the shared machine barely moves it (requests/s swings with every neighbour's job; CPU
spent per request, with both servers under the same load at the same moment, much less).

    .venv/bin/python bench/insights_cpu.py [--rounds 6] [--seconds 8] [--ports 8971]

Starts the two cached servers of bench/load.py ("this search, result cache", log off and on;
gunicorn gthread, DEBUG off) and warms them up. Each round drives both at once (one wrk each,
the same query mix), then waits --settle seconds so the writer thread's last batch and
PostgreSQL's work on it are done, and reads CPU time (user + system, /proc) over that window:

- web: each server's process tree (gunicorn master and workers, the writer threads included);
- PostgreSQL: the whole server (postmaster and every child: backends, WAL writer, checkpointer,
  autovacuum; exited children through their parent's cutime/cstime). The log-off server's own
  backends (found by application_name, polled every 0.2 s) are its share; everything else
  PostgreSQL did is charged to the log-on server, background work included (which leans against
  the log, if anything).

The log's cost is the difference of CPU microseconds per request, log on minus off (median over
the rounds). wrk's CPU is not counted. PostgreSQL must run on this machine (its processes are
read from /proc).
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import run_wrk, server_env, start_server  # noqa: E402
from bench.servers import stop_process_group  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")
OFF_APP = "insights-cpu-log-off"


def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds of the process and its reaped children), or None when it is gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = raw[raw.rindex(")") + 2:].split()  # after "pid (comm) "; fields[0] is the state
    return int(fields[1]), sum(int(f) for f in fields[11:15]) / TICK  # utime stime cutime cstime


def tree_cpu(root: int) -> float:
    """CPU seconds of `root` and every live descendant (each with its reaped children)."""
    stats = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (s := _stat(int(entry))) is not None:
            stats[int(entry)] = s
    members, grew = {root}, True
    while grew:
        more = {pid for pid, (ppid, _) in stats.items() if ppid in members} - members
        members |= more
        grew = bool(more)
    return sum(stats[pid][1] for pid in members if pid in stats)


def with_app_name(url: str, name: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}application_name={name}"


class BackendCpu:
    """CPU seconds spent by the PostgreSQL backends of one application_name while it runs (polled:
    a backend that exits between two polls loses at most 0.2 s, which then counts as the other
    server's)."""

    def __init__(self, database_url: str, app: str):
        import psycopg2

        self._conn = psycopg2.connect(database_url)
        self._conn.autocommit = True
        self._app = app
        self._first: dict[int, float] = {}
        self._last: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = None

    def _poll(self, at_start: bool = False) -> None:
        with self._conn.cursor() as cursor:
            cursor.execute("SELECT pid FROM pg_stat_activity WHERE application_name = %s", [self._app])
            pids = [row[0] for row in cursor.fetchall()]
        for pid in pids:
            stat = _stat(pid)
            if stat is not None:
                self._first.setdefault(pid, stat[1] if at_start else 0.0)  # a new backend: all its time counts
                self._last[pid] = stat[1]

    def start(self) -> None:
        self._first, self._last = {}, {}
        self._poll(at_start=True)
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.2):
            self._poll()

    def stop(self) -> float:
        self._stop.set()
        self._thread.join()
        self._poll()
        return sum(self._last[pid] - self._first[pid] for pid in self._last)

    def close(self) -> None:
        self._conn.close()


def drive(runs: dict, name: str, port: int, paths_file: Path, args, offset: int) -> None:
    runs[name] = run_wrk([f"http://127.0.0.1:{port}"], paths_file, seconds=args.seconds, connections=args.connections,
                         offset=offset)


def postmaster_pid(database_url: str) -> int:
    import psycopg2

    conn = psycopg2.connect(database_url)
    try:
        with conn.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            parent = _stat(cursor.fetchone()[0])
    finally:
        conn.close()
    if parent is None:
        sys.exit("PostgreSQL's backend is not a process of this machine: the CPU of the database cannot be read")
    return parent[0]


def log_rows(database_url: str) -> int:
    import psycopg2

    conn = psycopg2.connect(database_url)
    try:
        with conn.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM insights_searchlog")
            return cursor.fetchone()[0]
    finally:
        conn.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--settle", type=float, default=3.0, help="seconds after wrk before the CPU is read again")
    parser.add_argument("--connections", type=int, default=4, help="wrk connections per server")
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--queries", type=int, default=15, help="queries per kind in the mix")
    parser.add_argument("--ports", default="8971", help="first port; the two servers use consecutive ports")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    database_url = os.environ.get("DATABASE_URL")
    if not database_url:
        sys.exit("DATABASE_URL must name the (local) PostgreSQL the servers use")
    from bench.querygen import generate

    queries = generate(args.corpus, per_kind=args.queries)
    paths = tempfile.NamedTemporaryFile("w", prefix="insights-cpu-", suffix=".txt", delete=False)
    paths.write("".join(f"/api/search/?{urlencode({'q': q.text})}\n" for q in queries))
    paths.close()
    paths_file = Path(paths.name)
    kinds = {"log off": {"DATABASE_URL": with_app_name(database_url, OFF_APP)},
             "log on": {"DATABASE_URL": with_app_name(database_url, "insights-cpu-log-on"), "INSIGHTS_ENABLED": "1"}}
    pg = postmaster_pid(database_url)
    off_backends = BackendCpu(database_url, OFF_APP)
    base = int(args.ports)
    servers, cpu = {}, {name: [] for name in kinds}
    try:
        for i, (name, extra) in enumerate(kinds.items()):
            servers[name] = (base + i, start_server(base + i, server_env("cache", extra=extra),
                                                    workers=args.workers, threads=args.threads))
        for port, _proc in servers.values():  # every answer cached in every worker (most likely)
            for path in paths_file.read_text().splitlines() * 3:
                urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10).read()
            run_wrk([f"http://127.0.0.1:{port}"], paths_file, seconds=2, connections=args.connections, offset=0)
        time.sleep(args.settle)
        print(f"{len(queries)} distinct queries, cached; gunicorn {args.workers} x {args.threads} per server; both "
              f"servers driven at once, wrk {args.connections} connections each, {args.seconds}s + {args.settle:g}s "
              f"settle, {args.rounds} rounds", flush=True)
        for r in range(args.rounds):
            rows = log_rows(database_url)
            off_backends.start()
            web0 = {name: tree_cpu(proc.pid) for name, (_, proc) in servers.items()}
            db0 = tree_cpu(pg)
            runs = {}

            threads = [threading.Thread(target=drive, args=(runs, name, port, paths_file, args, r * 7))
                       for name, (port, _) in servers.items()]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            time.sleep(args.settle)
            web = {name: tree_cpu(proc.pid) - web0[name] for name, (_, proc) in servers.items()}
            db_total = tree_cpu(pg) - db0
            db_off = off_backends.stop()
            db = {"log off": db_off, "log on": db_total - db_off}
            written = log_rows(database_url) - rows
            line = [f"round {r + 1}:"]
            for name in servers:
                n = runs[name]["requests"]
                cpu[name].append({"web": web[name] / n * 1e6, "db": db[name] / n * 1e6, "n": n})
                line.append(f"{name} {n} requests ({runs[name]['rps']:.0f}/s), web {web[name] / n * 1e6:.1f} + "
                            f"PostgreSQL {db[name] / n * 1e6:.1f} us per request;")
            line.append(f"{written} log rows ({written / runs['log on']['requests']:.3f} per search)")
            print(" ".join(line), flush=True)
    finally:
        for _port, proc in servers.values():
            stop_process_group(proc)
        off_backends.close()
        paths_file.unlink(missing_ok=True)
    uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"\n{uptime}")
    for name, runs in cpu.items():
        print(f"{name}: web {statistics.median(x['web'] for x in runs):.1f} us, PostgreSQL "
              f"{statistics.median(x['db'] for x in runs):.1f} us per request (medians)")
    diffs = [(b["web"] - a["web"], b["db"] - a["db"]) for a, b in zip(cpu["log off"], cpu["log on"], strict=True)]
    off = statistics.median(x["web"] + x["db"] for x in cpu["log off"])
    total = statistics.median(w + d for w, d in diffs)
    print(f"search log CPU cost: {total:+.1f} us per search (web {statistics.median(w for w, _ in diffs):+.1f}, "
          f"PostgreSQL {statistics.median(d for _, d in diffs):+.1f}; medians of the rounds' differences; rounds "
          f"{', '.join(f'{w + d:+.1f}' for w, d in diffs)}) = {100 * total / off:.1f}% of a cached request's {off:.0f} us")


if __name__ == "__main__":
    main()
