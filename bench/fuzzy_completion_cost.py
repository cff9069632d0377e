"""What the instant box's fuzzy title clause costs (search/querying/query.py, _fuzzy_completion).

    .venv/bin/python bench/fuzzy_completion_cost.py [--fuzziness 1] [--seeds 12]

Two pools of keystrokes, each searched in-process (result cache off, titles-only as the instant box
asks) with the clause's setting off and on, interleaved query by query (the order alternating),
after a warm-up: the load benchmark's keystrokes (bench/freshqueries.py: titles typed right, where
the clause is never sent: no word outside the titles) and bench/typegen.py's `cut_typo` cases (a
typo in an earlier word: where it is); then the load benchmark's misspelled queries as the results
page asks them (a query without a space after it completes its last word there too). Prints the median wall time and Elasticsearch time of each,
and their ratios; a ratio above 1 is the cost, and the script says so.
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
from bench.typegen import generate  # noqa: E402
from search import conf  # noqa: E402
from search.client import get_client  # noqa: E402
from search.querying.service import search  # noqa: E402


def timed(client, query: str, fuzziness: str, page: bool) -> tuple[float, float]:
    """(wall seconds, Elasticsearch seconds) of one search with the clause's setting: a keystroke's
    (titles only), or with `page` the results page's (snippets, facets, comments)."""
    conf.override(FUZZY_TITLE_COMPLETION=fuzziness)  # outside the timing
    timing = TimingClient(client)
    started = time.perf_counter()
    search(query, use_cache=False, client=timing, snippets=page, detail=page)
    return time.perf_counter() - started, sum(timing.seconds)


def compare(name: str, queries: list[str], fuzziness: str, warm: int, *, page: bool = False) -> None:
    client = get_client()
    for q in queries[:warm]:
        timed(client, q, "", page)
        timed(client, q, fuzziness, page)
    wall: dict[str, list[float]] = {"": [], fuzziness: []}
    es: dict[str, list[float]] = {"": [], fuzziness: []}
    for i, q in enumerate(queries[warm:]):
        for setting in ("", fuzziness) if i % 2 else (fuzziness, ""):
            w, e = timed(client, q, setting, page)
            wall[setting].append(w)
            es[setting].append(e)
    off, on = (statistics.median(wall[s]) * 1000 for s in ("", fuzziness))
    es_off, es_on = (statistics.median(es[s]) * 1000 for s in ("", fuzziness))
    verdict = "worse" if on / off > 1.02 else "no worse"
    print(f"| {name} | {len(wall[''])} | {off:.2f} / {on:.2f} ms | {on / off:.3f}x | {es_off:.2f} / {es_on:.2f} ms | {es_on / es_off:.3f}x | {verdict} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--fuzziness", default="1")
    parser.add_argument("--seeds", type=int, default=12, help="typegen seeds of cut_typo cases (50 a seed)")
    parser.add_argument("--keystrokes", type=int, default=600)
    parser.add_argument("--warm", type=int, default=60)
    args = parser.parse_args()
    posts = load_posts(args.corpus)
    typos = [c.text for seed in range(1, args.seeds + 1) for c in generate(posts, seed=seed, per_kind=50) if c.kind == "cut_typo"]
    keystrokes = pool(args.corpus, kind=KEYSTROKE, size=args.keystrokes + args.warm, seed=20261128, posts=posts)
    print(f"fuzziness {args.fuzziness!r}: off / on, medians")
    print("| keystrokes | n | wall | ratio | Elasticsearch | ratio | |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    compare("typed right (bench/freshqueries.py)", keystrokes, args.fuzziness, args.warm)
    compare("a typo in an earlier word (cut_typo)", typos, args.fuzziness, args.warm)
    misspelled = pool(args.corpus, kind=MISSPELLED, size=args.keystrokes + args.warm, seed=20261128, posts=posts)
    compare("misspelled queries, results page (the load benchmark's pool)", misspelled, args.fuzziness, args.warm, page=True)


if __name__ == "__main__":
    main()
