"""What each part of our search request costs Elasticsearch: the counts, the collapse, the query.

    .venv/bin/python bench/request_parts.py [--queries 40] [--seed 99] [--window 100]
    DATABASE_URL=... SEARCH_INDEX_PREFIX=blog100x .venv/bin/python bench/request_parts.py   (the grown corpus)

For fresh queries of each kind (bench/freshqueries.py: keystroke, correctly spelled, misspelled),
our service searches once in-process (the API's request, the result cache off) while every body
it sends to the entries' indices is recorded; each body is then sent again several ways, with the
request cache off (issue 52's levers):

- as sent;
- its counts and facets over a sample: the 10,000 best-scoring documents a shard (a `sampler`),
  or a random tenth of the matching ones (a `random_sampler`): bounded counts, measured and not
  adopted (docs/benchmarks.md#100x-the-corpus);
- without its aggregations (the `entries` count of posts, the spellings' counts, the facets);
- without those and without `collapse` (one entry per post);
- that, counting hits exactly only up to 1,000 (`track_total_hits`: "more than 1,000");
- the first phase of a plan in phases: the tiers that read the bodies' positions (the body
  phrases, every word across the fields) left out;
- that first phase with those tiers as a `rescore` of its top `--window` hits.

It prints the median and mean of Elasticsearch's own `took` per kind and way, and how many
bodies the phases put the same hits in the same order as the bare query (no counts, no
collapse). How these grow from 1x to 100x is why this search's latency grows faster than
`multi_match`'s (docs/benchmarks.md#100x-the-corpus).
"""

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


# The tiers whose clauses read the bodies' positions: the `phases` way moves them to a rescore.
BODY_TIERS = ("body.exact.phrase", "body.stem.phrase", "all.words")


def _without(body: dict, *keys: str) -> dict:
    return {k: v for k, v in body.items() if k not in keys}


def _is_body_group(clause: dict) -> bool:
    """A dis_max of one tier whose clauses are named alt<i>.<a body tier>."""
    queries = clause.get("dis_max", {}).get("queries", [])
    return bool(queries) and all(q.get("constant_score", {}).get("_name", "").endswith(BODY_TIERS) for q in queries)


def _split(query: dict) -> tuple[dict, list[dict]]:
    """The query without its body tiers, and those tiers (found in the bool's `should`, at any depth of `must`)."""
    if "bool" not in query:
        return query, []
    inner = dict(query["bool"])
    moved = [c for c in inner.get("should", []) if _is_body_group(c)]
    inner["should"] = [c for c in inner.get("should", []) if not _is_body_group(c)]
    musts = []
    for clause in inner.get("must", []):
        first, more = _split(clause)
        musts.append(first)
        moved += more
    if musts:
        inner["must"] = musts
    return {"bool": inner}, moved


def _phases(body: dict, window: int) -> dict:
    """No counts, no collapse; the body tiers scored only on the first phase's top `window`."""
    first, moved = _split(body["query"])
    bare = {**_without(body, "aggs", "collapse"), "query": first, "track_total_hits": False}
    if moved:
        bare["rescore"] = {"window_size": window, "query": {"rescore_query": {"bool": {"should": moved}}}}
    return bare


def _sampled(body: dict, sampler: dict) -> dict:
    """The body with its aggregations under one sampling aggregation."""
    return {**body, "aggs": {"sample": {**sampler, "aggs": body["aggs"]}}} if "aggs" in body else body


BARE, PHASES = "no aggregations, no collapse", "phases (rescore)"
# Each way a recorded body is sent again.
WAYS = {
    "as sent": lambda body, _: body,
    "counts of the best 10,000": lambda body, _: _sampled(body, {"sampler": {"shard_size": 10_000}}),
    "counts of a random tenth": lambda body, _: _sampled(body, {"random_sampler": {"probability": 0.1, "seed": 1}}),
    "no aggregations": lambda body, _: _without(body, "aggs"),
    BARE: lambda body, _: _without(body, "aggs", "collapse"),
    "bounded count (1,000), no collapse": lambda body, _: {**_without(body, "aggs", "collapse"), "track_total_hits": 1000},
    "bounded count (10,000), no collapse": lambda body, _: {**_without(body, "aggs", "collapse"), "track_total_hits": 10_000},
    "first phase only": lambda body, window: _without(_phases(body, window), "rescore"),
    PHASES: _phases,
}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--seed", type=int, default=99)
    parser.add_argument("--window", type=int, default=100, help="the rescore window of the `phases` way")
    parser.add_argument("--way", action="append", choices=list(WAYS), help="only these ways (repeatable; default: all)")
    parser.add_argument("--snippets", action="store_true", help="the bodies of full answers (snippets, spellings counted), not the keystroke's shape")
    args = parser.parse_args()
    ways = {w: WAYS[w] for w in args.way or WAYS}
    from bench import inprocess

    inprocess.setup(SEARCH_CACHE_SECONDS="0")
    from django.test import Client

    from bench.freshqueries import CORRECT, KEYSTROKE, MISSPELLED, pool
    from bench.querygen import load_posts
    from search import conf
    from search.client import get_client

    bodies: list[tuple[str, dict]] = []
    client, es = Client(), get_client()
    posts = load_posts(args.corpus)
    print(f"prefix {conf.get().index.prefix}, {args.queries} fresh queries a kind; Elasticsearch's took, median / mean ms")
    print("| kind | requests (with aggregations) | " + " | ".join(ways) + " | phases' page as the bare query's |")
    print("| --- | --- | " + " | ".join("---" for _ in ways) + " | --- |")
    for kind in (KEYSTROKE, CORRECT, MISSPELLED):
        bodies.clear()
        with inprocess.recorded(bodies):  # the replays below are not recorded
            for q in pool(args.corpus, kind=kind, size=args.queries, seed=args.seed, posts=posts):
                client.get("/api/search/", {"q": q, "snippets": "1" if args.snippets else "0"})
        took = {way: [] for way in ways}
        same = 0  # bodies whose phases put the same documents in the same order as the bare query
        for index, body in bodies:
            tops = {}
            for way, shape in ways.items():
                answer = es.options(request_timeout=30).search(index=index, body=shape(body, args.window), request_cache=False)
                took[way].append(answer["took"])
                tops[way] = [h["_id"] for h in answer["hits"]["hits"]]
            same += PHASES in tops and BARE in tops and tops[PHASES] == tops[BARE]
        cells = [f"{statistics.median(v):.1f} / {statistics.mean(v):.1f}" for v in took.values()]
        counted = sum("aggs" in body for _, body in bodies)
        print(f"| {kind} | {len(bodies)} ({counted}) | " + " | ".join(cells) + f" | {same} of {len(bodies)} |")


if __name__ == "__main__":
    main()
