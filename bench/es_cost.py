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

    .venv/bin/python bench/es_cost.py --phases

Where Elasticsearch spends it, from its profile API (milliseconds per request, summed over the two
indices' shards): the query, collector and rewrite phases and the fetch phase with its highlighting
and named-query (`matched_queries`) parts, for the baseline, our request as sent, and our request
with the clause names stripped (what the names cost): on correctly spelled queries of known words
(one typed request each) and on misspelled ones (the alternatives request).
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

    def __getattr__(self, name):  # anything else (the indices API a synonym rule's check asks) untimed
        return getattr(self.client, name)

    def search(self, **kwargs):
        started = time.perf_counter()
        try:
            return self.client.search(**kwargs)
        finally:
            self.seconds.append(time.perf_counter() - started)


def measure(queries: list[str], warm: int) -> dict:
    from bench.baselines import _multi_match_response
    from search.client import get_client
    from search.querying.service import search

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


PHASES = ("query", "collector", "rewrite", "fetch", "Highlight", "MatchedQueries")


def unnamed(body):
    """The request without clause names (so without `matched_queries` in the answer)."""
    if isinstance(body, dict):
        return {k: unnamed(v) for k, v in body.items() if k != "_name"}
    if isinstance(body, list):
        return [unnamed(x) for x in body]
    return body


def profile(client, index: str, body: dict) -> dict:
    """Per-phase nanoseconds of one request, from the profile API."""
    out = dict.fromkeys(PHASES, 0)
    response = client.search(index=index, request_cache=False, **{**body, "profile": True}).body
    for shard in response["profile"]["shards"]:
        for search in shard["searches"]:
            out["query"] += sum(q["time_in_nanos"] for q in search["query"])
            out["collector"] += sum(c["time_in_nanos"] for c in search["collector"])
            out["rewrite"] += search["rewrite_time"]
        fetch = shard.get("fetch") or {}
        out["fetch"] += fetch.get("time_in_nanos", 0)
        for child in fetch.get("children", []):
            name = child["type"].removesuffix("Phase")
            if name in out:
                out[name] += child["time_in_nanos"]
    return out


def phases(queries: list[str], kind: str) -> None:

    from bench.baselines import _fields
    from search import conf, generation, vocabulary
    from search.aliases import alias_name
    from search.client import get_client
    from search.documents import KINDS
    from search.querying import plan
    from search.querying.query import search_body

    cfg, client = conf.get(), get_client()
    index = ",".join(alias_name(k) for k in KINDS)
    known = vocabulary.current(generation.latest())
    if known is None:
        raise SystemExit("no dictionary of the index's words: run `manage.py reindex` first")
    candidates = {}
    for q in queries:
        unknown = plan.unknown_words(q, known, cfg)
        if kind == "correct" and not unknown:
            ours = plan.typed_request(q, page=1, cfg=cfg)
        elif kind == "misspelled" and unknown:
            suggest, aggs, remote, _ = plan.local_suggestions(q, unknown, known, cfg=cfg, completing=False)
            if remote:  # words only the suggesters answer for (accents, hyphens): rare, left out
                continue
            aggs = plan.with_known(q, aggs, unknown, min_docs=cfg.ranking.known_word_min_docs)
            ours = plan.alternatives_request(plan.choose_alternatives(q, suggest, aggs, cfg=cfg), page=1, cfg=cfg)
        else:
            continue
        base = {"bool": {"must": {"multi_match": {"query": q, "fields": _fields(False)}}, "filter": [{"range": {"pub_date": {"lte": "now/m"}}}]}}
        candidates[q] = {
            "multi_match": search_body(base, page=1, page_size=cfg.serving.page_size, fragment_size=cfg.serving.highlight_fragment_size),
            "ours": ours,
            "ours, clauses unnamed": unnamed(ours),
        }
    sums: dict[str, dict] = {}
    for bodies in candidates.values():  # interleaved, query by query
        for label, body in bodies.items():
            for phase, nanos in profile(client, index, body).items():
                sums.setdefault(label, dict.fromkeys(PHASES, 0))[phase] += nanos
    n = len(candidates)
    print(f"\n{kind}: {n} queries ({'typed requests' if kind == 'correct' else 'alternatives requests'}), ms per request")
    print(f"{'request':<24}" + "".join(f"{p:>15}" for p in PHASES) + f"{'total':>9}")
    for label, total in sums.items():
        whole = sum(total[p] for p in ("query", "collector", "rewrite", "fetch"))
        print(f"{label:<24}" + "".join(f"{total[p] / n / 1e6:>15.3f}" for p in PHASES) + f"{whole / n / 1e6:>9.3f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--queries", type=int, default=600)
    parser.add_argument("--warm", type=int, default=100)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--phases", action="store_true", help="where Elasticsearch spends it (its profile API)")
    args = parser.parse_args()
    os.environ.update(
        {"DEBUG": "0", "ALLOWED_HOSTS": "testserver", "INSIGHTS_ENABLED": "0", "SECRET_KEY": "bench-only-secret-key-not-for-production-0123456789abcdef"}
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from bench.escache import clear_request_cache
    from bench.freshqueries import CORRECT, MISSPELLED, pool
    from search import conf

    clear_request_cache(conf.get().elasticsearch.url)  # a repeated seed must not be flattered

    if args.phases:
        for kind in (CORRECT, MISSPELLED):
            phases(pool(args.corpus, kind=kind, size=args.queries, seed=args.seed), kind)
        return
    ms = lambda xs: 1000 * statistics.mean(xs)  # noqa: E731
    print(f"{'pool':<12} {'ours ES ms':>10} {'multi_match ES ms':>18} {'ratio':>6} {'1 request':>10} {'2 requests':>11} {'our other Python ms':>20}")
    for kind in (CORRECT, MISSPELLED):
        queries = pool(args.corpus, kind=kind, size=args.queries + args.warm, seed=args.seed)
        m = measure(queries, args.warm)
        one = sum(1 for t in m["trips"] if t == 1) / len(m["trips"])
        print(
            f"{kind:<12} {ms(m['ours']):>10.2f} {ms(m['base']):>18.2f} {ms(m['ours']) / ms(m['base']):>5.2f}x "
            f"{one:>10.0%} {1 - one:>11.0%} {ms(m['python']):>20.2f}"
        )


if __name__ == "__main__":
    main()
