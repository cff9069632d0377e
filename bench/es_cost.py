"""How much of a search's cost is Elasticsearch's own work: the floor under the load benchmark's ratios.

    .venv/bin/python bench/es_cost.py [--queries 600] [--seed 3]

For fresh queries (bench/freshqueries.py), misspelled and correctly spelled apart, each query is
searched by our service (the shipped settings, result cache off, in-process: no HTTP server) and by
the plain `multi_match` baseline (same highlighting, same JSON), interleaved query by query after a
warm-up. A timing client records the wall time of every request our service sends to Elasticsearch
(client serialization and loopback HTTP included, as for the baseline's one request).

It prints, per pool: the mean Elasticsearch wall time of our requests and of the baseline's, their
ratio (what the load benchmark's p50 ratio would be if our Python cost nothing more than the
baseline's), how many queries took one request or two, and our Python time outside the requests.
If that ratio is above an issue's target, no Python optimisation can meet it: only a cheaper query.
"""
import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


class TimingClient:
    """Stands in for the Elasticsearch client in search(): passes every search through, timed."""

    def __init__(self, client):
        self.client = client
        self.seconds: list[float] = []

    def options(self, **_):
        return self

    def search(self, **kwargs):
        started = time.perf_counter()
        try:
            return self.client.search(**kwargs)
        finally:
            self.seconds.append(time.perf_counter() - started)


def measure(queries: list[str], warm: int) -> dict:
    from bench.baselines import _multi_match_response
    from search.client import get_client
    from search.service import search

    client = get_client()
    ours, base, python, trips = [], [], [], []
    for n, q in enumerate(queries):
        timing = TimingClient(client)
        started = time.perf_counter()
        search(q, use_cache=False, client=timing)
        total = time.perf_counter() - started
        t0 = time.perf_counter()
        _multi_match_response(q, size=10, fuzzy=False, highlight=True, client=client)
        baseline = time.perf_counter() - t0
        if n >= warm:
            ours.append(sum(timing.seconds))
            python.append(total - sum(timing.seconds))
            trips.append(len(timing.seconds))
            base.append(baseline)
    return {"ours": ours, "base": base, "python": python, "trips": trips}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--queries", type=int, default=600)
    parser.add_argument("--warm", type=int, default=100)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    args = parser.parse_args()
    os.environ.update({"DEBUG": "0", "ALLOWED_HOSTS": "testserver", "INSIGHTS_ENABLED": "0",
                       "SECRET_KEY": "bench-only-secret-key-not-for-production-0123456789abcdef"})
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from bench.freshqueries import CORRECT, MISSPELLED, pool

    ms = lambda xs: 1000 * statistics.mean(xs)  # noqa: E731
    print(f"{'pool':<12} {'ours ES ms':>10} {'multi_match ES ms':>18} {'ratio':>6} {'1 request':>10} "
          f"{'2 requests':>11} {'our other Python ms':>20}")
    for kind in (CORRECT, MISSPELLED):
        queries = pool(args.corpus, kind=kind, size=args.queries + args.warm, seed=args.seed)
        m = measure(queries, args.warm)
        one = sum(1 for t in m["trips"] if t == 1) / len(m["trips"])
        print(f"{kind:<12} {ms(m['ours']):>10.2f} {ms(m['base']):>18.2f} {ms(m['ours']) / ms(m['base']):>5.2f}x "
              f"{one:>10.0%} {1 - one:>11.0%} {ms(m['python']):>20.2f}")


if __name__ == "__main__":
    main()
