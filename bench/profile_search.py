"""Where a search's time goes in the Django process: pyinstrument over /api/search/, in-process.

    .venv/bin/python bench/profile_search.py [--kind correct|misspelled|keystroke|cached] [--queries 500]

Runs the production settings (DEBUG off, the shipped caches) through Django's test client against
the dev index, on fresh queries (bench/freshqueries.py; "keystroke": as the instant box asks, with
`snippets=0`; "cached": one query repeated), after a
warm-up, and prints the process CPU time per request and pyinstrument's call tree (frames under
1% hidden). Waiting for Elasticsearch shows as socket reads; everything else is ours to cut.
This is how the hot-path fixes in the README were found (a client per request from
`client.options()`, dataclasses.astuple, the generation read per search).
"""

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kind", choices=("correct", "misspelled", "keystroke", "cached"), default="correct")
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--all", action="store_true", help="show every frame of the call tree, libraries too")
    args = parser.parse_args()
    from bench import inprocess

    inprocess.setup()
    from django.test import Client
    from pyinstrument import Profiler

    from bench.freshqueries import CORRECT, KEYSTROKE, MISSPELLED, pool

    kind = {"correct": CORRECT, "misspelled": MISSPELLED, "keystroke": KEYSTROKE, "cached": CORRECT}[args.kind]
    extra = {"snippets": "0"} if args.kind == "keystroke" else {}
    queries = pool(args.corpus, kind=kind, size=args.queries + 50, seed=args.seed)
    if args.kind == "cached":
        queries = [queries[0]] * (args.queries + 50)
    client = Client()
    for q in queries[:50]:  # warm-up: connections, the vocabulary, the listener
        client.get("/api/search/", {"q": q, **extra})
    profiler = Profiler(interval=0.0002)
    cpu, wall = time.process_time(), time.perf_counter()
    with profiler:
        for q in queries[50:]:
            client.get("/api/search/", {"q": q, **extra})
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(
        f"{args.kind}: {args.queries} requests, {1000 * cpu / args.queries:.2f} ms CPU and "
        f"{1000 * wall / args.queries:.2f} ms wall each (in-process, no HTTP server)"
    )
    print(profiler.output_text(unicode=False, color=False, show_all=args.all, short_mode=not args.all))


if __name__ == "__main__":
    main()
