"""One request at a time, in-process: a search's wall time against Elasticsearch's `took`, and
where Python spends the rest (cProfile's top functions by cumulative time).

    SEARCH_INDEX_PREFIX=blog .venv/bin/python bench/single_request.py --kind keystroke
    DATABASE_URL=.../blogsearch_100x SEARCH_INDEX_PREFIX=blog100xn .venv/bin/python bench/single_request.py --kind keystroke

Fresh queries of bench/freshqueries.py (the result cache off), 20 to warm up, then `--queries`
measured; as the API answers them (`snippets=0` for keystrokes). Beside bench/load.py's run under
load, it tells the growth of one request from the growth the saturated cores add
(docs/benchmarks.md#100x-the-corpus).
"""

import argparse
import cProfile
import io
import pstats
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--kind", choices=("keystroke", "correct", "misspelled"), default="keystroke")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--top", type=int, default=0, help="print this many of cProfile's functions")
    args = parser.parse_args()
    from bench import inprocess

    inprocess.setup(SEARCH_CACHE_SECONDS="0")
    from django.test import Client

    from bench.freshqueries import CORRECT, KEYSTROKE, MISSPELLED, pool
    from bench.querygen import load_posts
    from search import conf

    kind = {"keystroke": KEYSTROKE, "correct": CORRECT, "misspelled": MISSPELLED}[args.kind]
    queries = pool(args.corpus, kind=kind, size=args.queries + 20, seed=args.seed, posts=load_posts(args.corpus))
    client, params = Client(), {"snippets": "0"} if args.kind == "keystroke" else {}
    for q in queries[:20]:
        client.get("/api/search/", {"q": q, **params})
    walls, tooks, profile = [], [], cProfile.Profile()
    for q in queries[20:]:
        start = time.perf_counter()
        profile.enable()
        answer = client.get("/api/search/", {"q": q, **params})
        profile.disable()
        walls.append((time.perf_counter() - start) * 1000)
        tooks.append(answer.json().get("took_ms", 0))
    wall, took = statistics.median(walls), statistics.median(tooks)
    print(f"prefix {conf.get().index.prefix}, {args.kind}: wall median {wall:.1f} ms, took median {took:.1f} ms, n {len(walls)}")
    if args.top:
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(args.top)
        print(out.getvalue())


if __name__ == "__main__":
    main()
