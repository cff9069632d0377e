"""What issue 54's dropdown changes cost a keystroke: counting the spelling shown apart
(`serving.instant_counts`) and the title-matches-first clause (`ranking.instant_title_weight`).

    .venv/bin/python bench/instant_cost.py [--keystrokes 600] [--only counts|titles]

Keystrokes searched in-process as the instant box asks them (titles only, result cache off), with
both settings off and on, interleaved query by query (the order alternating), after a warm-up: the
load benchmark's keystrokes typed right (bench/freshqueries.py: mostly one spelling) and its
misspelled queries typed as keystrokes (several spellings: where the counts are added). Prints the
median wall and Elasticsearch time of each and their ratios.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from bench.es_cost import TimingClient  # noqa: E402
from bench.freshqueries import KEYSTROKE, MISSPELLED, pool  # noqa: E402
from bench.querygen import load_posts  # noqa: E402
from search import conf  # noqa: E402
from search.client import get_client  # noqa: E402
from search.querying.service import search  # noqa: E402

# Each change's setting off, then on (the defaults); `--only` toggles one, the other left on.
CHANGES = {"counts": ({"INSTANT_COUNTS": False}, {"INSTANT_COUNTS": True}), "titles": ({"INSTANT_TITLE_WEIGHT": 0.0}, {"INSTANT_TITLE_WEIGHT": 15.5})}
OFF, ON = {}, {}


def timed(client, query: str, settings: dict) -> tuple[float, float]:
    """(wall seconds, Elasticsearch seconds) of one keystroke's search under `settings`."""
    conf.override(**settings)  # outside the timing
    timing = TimingClient(client)
    started = time.perf_counter()
    search(query, use_cache=False, client=timing, snippets=False)
    return time.perf_counter() - started, sum(timing.seconds)


def compare(name: str, queries: list[str], warm: int) -> None:
    client = get_client()
    for q in queries[:warm]:
        timed(client, q, OFF)
        timed(client, q, ON)
    wall, es = {"off": [], "on": []}, {"off": [], "on": []}
    for i, q in enumerate(queries[warm:]):
        for label in ("off", "on") if i % 2 else ("on", "off"):
            w, e = timed(client, q, ON if label == "on" else OFF)
            wall[label].append(w)
            es[label].append(e)
    off, on = (statistics.median(wall[s]) * 1000 for s in ("off", "on"))
    es_off, es_on = (statistics.median(es[s]) * 1000 for s in ("off", "on"))
    print(f"| {name} | {len(wall['off'])} | {off:.2f} / {on:.2f} ms | {on / off:.3f}x | {es_off:.2f} / {es_on:.2f} ms | {es_on / es_off:.3f}x |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--keystrokes", type=int, default=600)
    parser.add_argument("--warm", type=int, default=60)
    parser.add_argument("--only", choices=sorted(CHANGES), help="toggle this change alone (default: both)")
    args = parser.parse_args()
    for name, (off, on) in CHANGES.items():
        OFF.update(off if args.only in (None, name) else on)
        ON.update(on)
    posts = load_posts(args.corpus)
    size = args.keystrokes + args.warm
    print("| keystrokes | n | wall off / on | ratio | Elasticsearch off / on | ratio |")
    print("| --- | --- | --- | --- | --- | --- |")
    compare("typed right (bench/freshqueries.py)", pool(args.corpus, kind=KEYSTROKE, size=size, seed=20261128, posts=posts), args.warm)
    compare("misspelled, as keystrokes", pool(args.corpus, kind=MISSPELLED, size=size, seed=20261128, posts=posts), args.warm)


if __name__ == "__main__":
    main()
