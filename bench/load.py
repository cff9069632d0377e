"""Load test over HTTP on loopback: this search uncached and cached, plain multi_match and
PostgreSQL full-text search, all through the same production-like Django stack.

    make bench-load        (= .venv/bin/python bench/load.py)

Starts gunicorn servers on 127.0.0.1 with DEBUG off (no caches, which also serves the
baselines; the per-word suggestion cache only; the result cache too; the result cache with the
search log on), warms them up, then drives each candidate with wrk for
--seconds, candidates interleaved, for --rounds rounds, and prints medians of p50/p95/p99 latency
and requests/s. Bounded: wrk runs for a fixed time with a fixed number of connections; the servers
are stopped by their PIDs at the end. The query mix comes from the relevance query set
(misspelled and correctly spelled).

The search log (insights/) is off on every server but "result cache, logging on": its cost is
that candidate against "result cache" in the same interleaved rounds, printed under the table as
the change of requests/s (median of the per-round ratios). `--only LABEL` (repeatable) runs just
those candidates, e.g. the two cached ones with more rounds.
"""
import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CANDIDATES = [  # label, server, path prefix
    ("this search, no caches", "nocache", "/api/search/"),
    ("this search, word cache only", "wordcache", "/api/search/"),
    ("this search, result cache", "cache", "/api/search/"),
    ("this search, result cache, logging on", "cache@log", "/api/search/"),
    ("multi_match baseline", "nocache", "/api/baseline/multi_match/"),
    ("fuzziness AUTO baseline", "nocache", "/api/baseline/fuzzy/"),
    ("PostgreSQL FTS baseline", "nocache", "/api/baseline/postgres/"),
    ("hello-world view (the stack's ceiling)", "nocache", "/api/baseline/hello/"),
]


def server_env(name: str, *, extra: dict) -> dict:
    return {
        **os.environ,
        "DEBUG": "0", "SECRET_KEY": "bench-only-secret-key-not-for-production-0123456789abcdef",
        "ALLOWED_HOSTS": "127.0.0.1", "SECURE_SSL_REDIRECT": "0", "SECURE_COOKIES": "0",
        "SEARCH_BASELINE_VIEWS": "1", "LOG_LEVEL": "WARNING", "INSIGHTS_ENABLED": "0",
        "SEARCH_CACHE_SECONDS": "300" if name == "cache" else "0",
        "SEARCH_WORD_CACHE_SECONDS": "0" if name == "nocache" else "3600",
        **extra,
    }


def start_server(port: int, env: dict, *, workers: int, threads: int) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind", f"127.0.0.1:{port}",
           "--workers", str(workers), "--threads", str(threads), "--worker-class", "gthread",
           "--log-level", "warning", "--keep-alive", "5"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
            return proc
        except Exception:  # noqa: BLE001 - not up yet
            if proc.poll() is not None:
                sys.exit(f"gunicorn exited: {proc.stderr.read().decode()[-2000:]}")
            time.sleep(0.2)
    stop_server(proc)
    sys.exit("gunicorn did not become healthy (is the corpus indexed? run `make run` once)")


def stop_server(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)  # the group we started: gunicorn master and its workers
        proc.wait(timeout=30)


def run_wrk(url: str, paths_file: Path, *, seconds: int, connections: int, offset: int) -> dict:
    out = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "5s",
                          "-s", str(ROOT / "bench" / "mix.lua"), url, "--", str(paths_file), str(offset)],
                         capture_output=True, text=True, timeout=seconds + 60)
    line = next((row for row in out.stdout.splitlines() if row.startswith("RESULT ")), None)
    if line is None:
        sys.exit(f"wrk failed: {out.stdout}\n{out.stderr}")
    r = json.loads(line[len("RESULT "):])
    r["rps"] = r["requests"] / (r["duration_us"] / 1e6)
    return r


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--queries", type=int, default=15, help="queries per kind in the mix")
    parser.add_argument("--ports", default="8871", help="first port; the servers use consecutive ports")
    parser.add_argument("--label", default="", help="a note printed with the table (e.g. corpus size)")
    parser.add_argument("--redis-port", type=int, default=6391,
                        help="start redis-server here (loopback) for the 'result cache in Redis' candidate; 0 to skip")
    parser.add_argument("--warmup-passes", type=int, default=1,
                        help="times every path is requested before the rounds (more fill every worker's local cache)")
    parser.add_argument("--only", action="append", default=[], help="run only the candidate with this label (repeatable)")
    parser.add_argument("--scale-database-url", help="also measure against this database (e.g. the 10x corpus) ...")
    parser.add_argument("--scale-prefix", default="blog10x", help="... and this index prefix, in the same run")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk not found: install Debian's package (apt-get install wrk)")

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from bench.querygen import generate

    queries = generate(args.corpus, per_kind=args.queries)
    tmp = Path(tempfile.mkdtemp(prefix="bench-load-"))
    files = {}
    for label, _, prefix in CANDIDATES:
        f = tmp / f"{abs(hash(label))}.txt"
        f.write_text("".join(f"{prefix}?{urlencode({'q': q.text})}\n" for q in queries))
        files[label] = f
    candidates = list(CANDIDATES)
    kinds = {"nocache": {}, "wordcache": {}, "cache": {}, "cache@log": {"INSIGHTS_ENABLED": "1"}}
    redis = None
    if args.redis_port and shutil.which("redis-server"):
        redis = subprocess.Popen(["redis-server", "--bind", "127.0.0.1", "--port", str(args.redis_port), "--save", "",
                                  "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        kinds["cache@redis"] = {"REDIS_URL": f"redis://127.0.0.1:{args.redis_port}/0"}
        candidates.insert(3, ("this search, result cache in Redis", "cache@redis", "/api/search/"))
        f = tmp / "redis.txt"
        f.write_text(files["this search, result cache"].read_text())
        files["this search, result cache in Redis"] = f
    elif args.redis_port:
        print("redis-server not found: the Redis candidate is skipped (apt-get install redis-server)")
    if args.scale_database_url:
        scale = {"DATABASE_URL": args.scale_database_url, "SEARCH_INDEX_PREFIX": args.scale_prefix}
        kinds.update({"nocache@scale": scale, "wordcache@scale": scale})
        candidates += [("this search, no caches, scaled corpus", "nocache@scale", "/api/search/"),
                       ("this search, word cache only, scaled corpus", "wordcache@scale", "/api/search/"),
                       ("multi_match baseline, scaled corpus", "nocache@scale", "/api/baseline/multi_match/")]
        for label, _, prefix in candidates[len(CANDIDATES):]:
            f = tmp / f"{abs(hash(label))}.txt"
            f.write_text("".join(f"{prefix}?{urlencode({'q': q.text})}\n" for q in queries))
            files[label] = f
    if args.only:
        candidates = [c for c in candidates if c[0] in args.only]
        if not candidates:
            sys.exit(f"--only matches no candidate: {[label for label, *_ in CANDIDATES]}")
        kinds = {name: env for name, env in kinds.items() if any(server == name for _, server, _ in candidates)}
    base_port = int(args.ports.split(",")[0])
    ports = {name: base_port + i for i, name in enumerate(kinds)}
    servers = {}
    try:
        for name, port in ports.items():
            env = server_env(name.split("@")[0], extra=kinds[name])
            servers[name] = start_server(port, env, workers=args.workers, threads=args.threads)
        print(f"{len(queries)} distinct queries; gunicorn gthread {args.workers} workers x {args.threads} threads per server; "
              f"wrk 1 thread, {args.connections} connections, {args.seconds}s x {args.rounds} rounds per candidate", flush=True)
        # Warm-up: every path once (fills the cache of the cached server), then a short wrk run each.
        for label, server, _prefix in candidates:
            for path in files[label].read_text().splitlines() * args.warmup_passes:
                urllib.request.urlopen(f"http://127.0.0.1:{ports[server]}{path}", timeout=10).read()
            run_wrk(f"http://127.0.0.1:{ports[server]}", files[label], seconds=2, connections=args.connections, offset=0)
        results = {label: [] for label, *_ in candidates}
        for r in range(args.rounds):
            for label, server, _prefix in candidates:  # interleaved
                results[label].append(run_wrk(f"http://127.0.0.1:{ports[server]}", files[label], seconds=args.seconds,
                                              connections=args.connections, offset=r * 7))
            print(f"round {r + 1}/{args.rounds} done", flush=True)
    finally:
        for proc in servers.values():
            stop_server(proc)
        if redis is not None:
            redis.terminate()  # the redis-server this run started, by its PID
            redis.wait(timeout=30)
        shutil.rmtree(tmp, ignore_errors=True)

    baseline = results.get("multi_match baseline") or next(iter(results.values()))
    base = statistics.median(x["p50"] for x in baseline)
    print(f"\n{args.label}")
    print("| candidate | p50 ms | p95 ms | p99 ms | requests/s | p50 vs multi_match | errors |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for label, runs in results.items():
        med = {k: statistics.median(x[k] for x in runs) for k in ("p50", "p95", "p99", "rps")}
        errors = sum(x["errors"] + x["non2xx"] for x in runs)
        print(f"| {label} | {med['p50'] / 1000:.1f} | {med['p95'] / 1000:.1f} | {med['p99'] / 1000:.1f} | "
              f"{med['rps']:.0f} | {med['p50'] / base:.2f}x | {errors} |")
    off, on = results.get("this search, result cache"), results.get("this search, result cache, logging on")
    if off and on:
        ratios = [b["rps"] / a["rps"] for a, b in zip(off, on, strict=True)]
        print(f"\nsearch log cost at the cached rate: {100 * (1 - statistics.median(ratios)):+.1f}% of requests/s "
              f"(median of the rounds' ratios; rounds: {', '.join(f'{100 * (1 - r):+.1f}%' for r in ratios)}; "
              "positive = slower with the log)")


if __name__ == "__main__":
    main()
