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

--redis-servers 2 runs two gunicorn servers on the one Redis result cache (wrk drives both);
--cluster-url compares the uncached candidates on one node with the same on a cluster, interleaved.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.servers import ServerError, start_gunicorn, start_redis, stop_process_group  # noqa: E402

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
    try:
        return start_gunicorn(port, env, workers=workers, threads=threads)
    except ServerError as exc:
        sys.exit(f"{exc} (is the corpus indexed? run `make run` once)")


def run_wrk(urls: list[str], paths_file: Path, *, seconds: int, connections: int, offset: int) -> dict:
    """Drive the servers at `urls` at once, one wrk each, the connections shared out between them.

    With several servers, requests/s is the sum and the latency percentiles are the servers' mean
    (wrk reports no histogram to merge): good enough for comparable servers on one machine.
    """
    procs = [subprocess.Popen(["wrk", "-t1", f"-c{max(connections // len(urls), 1)}", f"-d{seconds}s", "--timeout", "5s",
                               "-s", str(ROOT / "bench" / "mix.lua"), url, "--", str(paths_file), str(offset + i)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for i, url in enumerate(urls)]
    runs = []
    for proc in procs:
        out, err = proc.communicate(timeout=seconds + 60)
        line = next((row for row in out.splitlines() if row.startswith("RESULT ")), None)
        if line is None:
            sys.exit(f"wrk failed: {out}\n{err}")
        r = json.loads(line[len("RESULT "):])
        r["rps"] = r["requests"] / (r["duration_us"] / 1e6)
        runs.append(r)
    merged = {k: sum(r[k] for r in runs) for k in ("requests", "errors", "non2xx", "rps")}
    merged.update({k: statistics.mean(r[k] for r in runs) for k in ("p50", "p95", "p99")})
    return merged


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
    parser.add_argument("--redis-servers", type=int, default=1,
                        help="gunicorn servers sharing the Redis result cache (2: two web servers, one cache)")
    parser.add_argument("--cluster-url", help="also measure the uncached candidates and multi_match on this cluster "
                                              "(comma-separated nodes), interleaved with the single node's")
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
        redis = start_redis(args.redis_port)
        shared = {"REDIS_URL": f"redis://127.0.0.1:{args.redis_port}/0"}
        names = [f"cache@redis{i or ''}" for i in range(args.redis_servers)]
        kinds.update({name: shared for name in names})
        label = "this search, result cache in Redis" + (f", {args.redis_servers} servers" if args.redis_servers > 1 else "")
        candidates.insert(3, (label, "+".join(names), "/api/search/"))
        f = tmp / "redis.txt"
        f.write_text(files["this search, result cache"].read_text())
        files[label] = f
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
    if args.cluster_url:
        on_cluster = {"ELASTICSEARCH_URL": args.cluster_url, "SEARCH_REPLICAS": "1"}
        kinds.update({"nocache@cluster": on_cluster, "wordcache@cluster": on_cluster})
        extra = [("this search, no caches, 3-node cluster", "nocache@cluster", "/api/search/"),
                 ("this search, word cache only, 3-node cluster", "wordcache@cluster", "/api/search/"),
                 ("multi_match baseline, 3-node cluster", "nocache@cluster", "/api/baseline/multi_match/")]
        candidates += extra
        for label, _, prefix in extra:
            f = tmp / f"{abs(hash(label))}.txt"
            f.write_text("".join(f"{prefix}?{urlencode({'q': q.text})}\n" for q in queries))
            files[label] = f
    if args.only:
        candidates = [c for c in candidates if c[0] in args.only]
        if not candidates:
            sys.exit(f"--only matches no candidate: {[label for label, *_ in CANDIDATES]}")
        kinds = {name: env for name, env in kinds.items() if any(name in spec.split("+") for _, spec, _ in candidates)}
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
        def urls(spec: str) -> list[str]:
            return [f"http://127.0.0.1:{ports[name]}" for name in spec.split("+")]

        for label, spec, _prefix in candidates:
            for path in files[label].read_text().splitlines() * args.warmup_passes:
                urllib.request.urlopen(f"{urls(spec)[0]}{path}", timeout=10).read()
            run_wrk(urls(spec), files[label], seconds=2, connections=args.connections, offset=0)
        results = {label: [] for label, *_ in candidates}
        for r in range(args.rounds):
            for label, spec, _prefix in candidates:  # interleaved
                results[label].append(run_wrk(urls(spec), files[label], seconds=args.seconds,
                                              connections=args.connections, offset=r * 7))
            print(f"round {r + 1}/{args.rounds} done", flush=True)
    finally:
        for proc in servers.values():
            stop_process_group(proc)
        if redis is not None:
            stop_process_group(redis)  # the redis-server this run started, by its PID
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
