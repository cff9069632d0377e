"""What each part of our search request costs Elasticsearch: the counts, the collapse, the query.

    .venv/bin/python bench/request_parts.py [--queries 40] [--seed 99]
    DATABASE_URL=... SEARCH_INDEX_PREFIX=blog100x .venv/bin/python bench/request_parts.py   (the grown corpus)

For fresh queries of each kind (bench/freshqueries.py: keystroke, correctly spelled, misspelled),
our service searches once in-process (the API's request, the result cache off) while every body
it sends to the entries' indices is recorded; each body is then sent again three ways, with the
request cache off: as sent, without its aggregations (the `entries` count of posts, the facets),
and without those and without `collapse` (one entry per post). It prints the median and mean of
Elasticsearch's own `took` per kind and way. How these grow from 1x to 100x is why this search's
latency grows faster than `multi_match`'s (docs/benchmarks.md#100x-the-corpus).
"""

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--seed", type=int, default=99)
    args = parser.parse_args()
    from bench import inprocess

    inprocess.setup(SEARCH_CACHE_SECONDS="0")
    import elastic_transport
    from django.test import Client

    from bench.freshqueries import CORRECT, KEYSTROKE, MISSPELLED, pool
    from bench.querygen import load_posts
    from search import conf
    from search.client import get_client

    bodies: list[tuple[str, dict]] = []
    send = elastic_transport.Transport.perform_request

    def recording(self, method, target, *rest, **kwargs):
        body = kwargs.get("body")
        if body and target.endswith("/_search") and "-posts" in target:
            bodies.append((target.split("/")[1], json.loads(body) if isinstance(body, (bytes, str)) else body))
        return send(self, method, target, *rest, **kwargs)

    elastic_transport.Transport.perform_request = recording
    client, es = Client(), get_client()
    posts = load_posts(args.corpus)
    print(f"prefix {conf.get().index.prefix}, {args.queries} fresh queries a kind; Elasticsearch's took, median / mean ms")
    print("| kind | requests | as sent | without aggregations | without aggregations and collapse |")
    print("| --- | --- | --- | --- | --- |")
    for kind in (KEYSTROKE, CORRECT, MISSPELLED):
        bodies.clear()
        for q in pool(args.corpus, kind=kind, size=args.queries, seed=args.seed, posts=posts):
            client.get("/api/search/", {"q": q, "snippets": "0"})
        elastic_transport.Transport.perform_request = send  # the replays are not recorded
        took = {"sent": [], "no aggs": [], "bare": []}
        for index, body in bodies:
            ways = {
                "sent": body,
                "no aggs": {k: v for k, v in body.items() if k != "aggs"},
                "bare": {k: v for k, v in body.items() if k not in ("aggs", "collapse")},
            }
            for way, sent in ways.items():
                took[way].append(es.options(request_timeout=30).search(index=index, body=sent, request_cache=False)["took"])
        elastic_transport.Transport.perform_request = recording
        cells = [f"{statistics.median(v):.1f} / {statistics.mean(v):.1f}" for v in took.values()]
        print(f"| {kind} | {len(bodies)} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
