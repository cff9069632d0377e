"""What `ranking.did_you_mean_min_docs` takes away: the "Did you mean" offers on real words the blog
lacks, and those on real misspellings (issue 54).

    PYTHONPATH=. .venv/bin/python bench/offers.py [--min-docs 2 --min-docs 3 ...] [--cost]

Needs the corpus imported and indexed (bench/relevance.py does both). Two query sets:
bench/absent_words.py's real words the corpus lacks, each as submitted and finished, and the real
misspellings of bench/relevance.py (codespell's list and querygen.HUMAN, two seeds, 60 per kind).
Each query is searched once with the rule off; each that offers a "Did you mean" is searched
again at each threshold. An offer counts as right when it is the misspelling's intended words.
The rule changes no search, only what the page offers, so the first search's results stand.
--cost times the decision alone (corrections.offered) on three queries instead.
"""

import argparse
import os
import sys
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from bench.absent_words import WORDS, held  # noqa: E402
from bench.querygen import generate, load_posts  # noqa: E402
from bench.relevance import REAL_SOURCES  # noqa: E402
from search import conf, generation, vocabulary  # noqa: E402
from search.alternative import Alternative  # noqa: E402
from search.querying import corrections, service  # noqa: E402
from search.querying.service import search  # noqa: E402

# (typed, the corrections not searched): a real word's offer one post holds, a typo's, a phrase's.
TIMED = (("lettuce", ["lattice", "lecture"]), ("althete", ["athlete"]), ("internet vedio", ["internet video"]))


def offer(text: str, min_docs: int) -> str:
    conf.override(DID_YOU_MEAN_MIN_DOCS=min_docs)
    return search(text, use_cache=False).did_you_mean


def queries(corpus: Path) -> dict[str, list[tuple[str, str]]]:
    """(text, the intended words: "" for an absent word) of each set."""
    absent = [w for w in WORDS if not held(w)]
    posts = load_posts(corpus)
    real = [(q.text, q.correct) for seed in (20261121, 7) for q in generate(corpus, seed=seed, per_kind=60, posts=posts) if q.source in REAL_SOURCES]
    return {"absent words": [(t, "") for w in absent for t in (w, w + " ")], "real misspellings": real}


def cost(rounds: int = 20_000) -> None:
    """Microseconds of corrections.offered a query, with the process's dictionary and real-word list."""
    cfg = conf.get()
    judge = service._judge(vocabulary.current(generation.latest()), cfg)
    for typed, corrected in TIMED:
        kept, dropped = [Alternative(1.1, typed, typed=True)], [Alternative(0.8, text) for text in corrected]
        offered = corrections.offered(kept, dropped, judge)
        us = timeit.timeit(lambda: corrections.offered(kept, dropped, judge), number=rounds) / rounds * 1e6  # noqa: B023
        print(f"{typed!r}: {us:.1f} us, offers {offered!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--min-docs", type=int, action="append", help="thresholds to try (default 2, 3, 5)")
    parser.add_argument("--cost", action="store_true", help="time the decision alone")
    args = parser.parse_args()
    if args.cost:
        return cost()
    conf.override(WORD_CACHE_SECONDS=0)
    thresholds = args.min_docs or [2, 3, 5]
    default = conf.get().ranking.did_you_mean_min_docs
    for name, asked in queries(args.corpus).items():
        offers = [(text, meant, found) for text, meant in asked if (found := offer(text, 0))]
        right = sum(found.lower() == meant.lower() for _, meant, found in offers)
        print(f"\n{name}: {len(asked)} queries, {len(offers)} offer a Did you mean with the rule off ({right} right)")
        print("| min docs | offers removed | changed to another | right offers lost |\n| --- | --- | --- | --- |")
        changes = {}
        for k in thresholds:
            changes[k] = [(text, meant, found, offer(text, k)) for text, meant, found in offers]
            removed = [c for c in changes[k] if not c[3]]
            moved = [c for c in changes[k] if c[3] and c[3] != c[2]]
            lost = sum(found.lower() == meant.lower() and now != found for _, meant, found, now in changes[k])
            print(f"| {k} | {len(removed)} | {len(moved)} | {lost} |")
        for text, _, found, now in changes.get(default, []):
            if now != found:
                print(f"  at {default}: {text!r}: {found!r} -> {now or 'nothing'!r}")
    conf.override(DID_YOU_MEAN_MIN_DOCS=default)


if __name__ == "__main__":
    main()
