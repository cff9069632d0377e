"""Bulk reindex throughput (docs/s) and peak memory on the corpus.

    make bench-reindex      (= .venv/bin/python bench/reindex_bench.py)

Each run is a real `manage.py reindex` in a child process (so its peak RSS is its own, read from
wait4). Candidates (bulk threads x chunk size) run interleaved, after warm-up runs, and the
medians are reported with each candidate's ratio to the default in the same run.

Why warm-up runs until the rate settles: Elasticsearch's JIT warms over many reindexes after the
node starts (on the 2-core machine, right after a start: 4.4 s, then 2.6, 2.6, 2.5, 2.3, 2.2, 2.0,
2.0 s for the same command). A production node has been serving for hours. The default runs
until three runs in a row are within 5% of their median (at least --warm, at most --max-warm
runs); every warm-up run's rate is printed, so a freshly started node's figure is on record too.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CANDIDATES = [  # (label, env)
    ("default: 2 threads x 1000", {}),
    ("1 thread x 1000", {"SEARCH_BULK_THREADS": "1"}),
    ("2 threads x 500", {"SEARCH_BULK_CHUNK_SIZE": "500"}),
    ("3 threads x 1000", {"SEARCH_BULK_THREADS": "3"}),
]
SUMMARY = re.compile(r"Reindexed (\d+) documents in ([\d.]+)s")


def run_once(env: dict) -> tuple[int, float, float]:
    """(documents, seconds, peak RSS MiB) of one reindex."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "reindex", "--no-progress"],
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    output = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f"reindex failed:\n{output}")
    seconds = time.perf_counter() - started  # wall time of the whole command, start-up included
    docs = int(SUMMARY.search(output).group(1))
    return docs, seconds, usage.ru_maxrss / 1024


def settled(rates: list[float], *, at_least: int) -> bool:
    """Warm: at least `at_least` runs, the last three within 5% of their median."""
    if len(rates) < max(at_least, 3):
        return False
    last = rates[-3:]
    middle = statistics.median(last)
    return all(abs(r - middle) <= 0.05 * middle for r in last)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--warm", type=int, default=3, help="at least this many warm-up runs")
    parser.add_argument("--max-warm", type=int, default=15, help="at most this many warm-up runs")
    parser.add_argument(
        "--cluster-url", help="compare the default on one node with the same on this cluster (comma-separated nodes, SEARCH_REPLICAS=1), interleaved"
    )
    args = parser.parse_args()
    candidates = CANDIDATES
    if args.cluster_url:
        candidates = [CANDIDATES[0], ("default on the cluster, 1 replica", {"ELASTICSEARCH_URL": args.cluster_url, "SEARCH_REPLICAS": "1"})]
    print("warm-up ...", flush=True)
    for label, env in candidates[:1] + candidates[1:] * bool(args.cluster_url):  # the default, and the cluster when compared
        rates = []
        while len(rates) < args.max_warm and not settled(rates, at_least=args.warm):
            docs, seconds, _ = run_once(env)
            rates.append(docs / seconds)
        print(
            f"  warm-up runs, {label}: "
            + ", ".join(f"{r:,.0f}" for r in rates)
            + " docs/s"
            + ("" if settled(rates, at_least=args.warm) else " (not settled: the figures below are still warming)"),
            flush=True,
        )
    results = {label: [] for label, _ in candidates}
    for r in range(args.rounds):
        for label, env in candidates:  # interleaved: every round runs every candidate
            results[label].append(run_once(env))
        print(f"round {r + 1}/{args.rounds} done", flush=True)
    base = statistics.median(d / s for d, s, _ in results[candidates[0][0]])
    print("\n| candidate | docs | median docs/s (whole command) | vs default | median peak RSS |")
    print("| --- | --- | --- | --- | --- |")
    for label, runs in results.items():
        rate = statistics.median(d / s for d, s, _ in runs)
        print(f"| {label} | {runs[0][0]} | {rate:,.0f} | {rate / base:.2f}x | {statistics.median(m for *_, m in runs):.0f} MiB |")


if __name__ == "__main__":
    main()
