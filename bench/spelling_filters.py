"""Whether the spellings' cut count filters count and list what the full ones do, and what they save.

    .venv/bin/python bench/spelling_filters.py [--queries 100]
    DATABASE_URL=.../blogsearch_de SEARCH_INDEX_PREFIX=blogde SEARCH_LANGUAGE=de \\
      .venv/bin/python bench/spelling_filters.py --corpus .state/corpus-de

A query with several spellings counts each apart: one filter a spelling (search/querying/groups.py).
The filters leave out the clauses a spelling's BM25 clause covers (`groups._covered`), a clause
twice and a phrase prefix a bool prefix of the same words implies (`groups._needed`). This sends
every request of fresh queries (misspelled, correctly spelled, keystrokes, and a few of stop words
or the reader's syntax) both ways, the filters cut and in full, through the API with and without snippets, the
results page and newest first, then replays each body and compares the hits, the total and the
counts per spelling. Any difference is printed; the last lines say how many differ (0 is the
claim) and Elasticsearch's mean `took` each way. Needs the corpus imported and indexed.
"""

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# Stop words and questions (an exact phrase of stop words only counts by itself) and the reader's syntax.
ODD = ["the who", "when they", "the of and", "with firefix", "what is a monad", "hoq to use git", "it's a trap", "whta is"]
ODD += ["node.js tutorail", "c# generics", '"firefox extension" -chrome']
ODD += ["was ist eine monade", "wie funktioniert das", "und die der", "qu'est-ce que le web", "comment faire un site", "où est la"]
# A review's cases: accented and normalised words the stemmed chains read otherwise, a head word that makes no token.
ODD += ["elemnts", "forcemetn", "compliqeu", "caractres", "coeru", "enormemnt", "magalhes", "_ firf", "thé sûr"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--queries", type=int, default=100, help="fresh queries of each kind")
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args()
    from bench import inprocess

    inprocess.setup(SEARCH_CACHE_SECONDS="0")
    from django.test import Client

    from bench.freshqueries import CORRECT, KEYSTROKE, MISSPELLED, pool
    from bench.querygen import load_posts
    from search.client import get_client
    from search.querying import groups

    bodies: list[tuple[str, dict]] = []
    cut, needed = groups._covered, groups._needed
    client, es = Client(), get_client()
    posts = load_posts(args.corpus)
    kinds = {kind: pool(args.corpus, kind=kind, size=args.queries, seed=args.seed, posts=posts) for kind in (MISSPELLED, CORRECT, KEYSTROKE)}
    kinds["stop words, syntax"] = ODD
    pages = [("/api/search/", {"snippets": "0"}), ("/api/search/", {}), ("/search/", {}), ("/search/", {"sort": "new"})]
    sent = []
    with inprocess.recorded(bodies):
        for kind, queries in kinds.items():
            for q in queries:
                for url, extra in pages:
                    params = {"q": q, **extra}
                    client.get(url, params)  # the word cache warmed: both ways then send the same requests
                    both = []
                    for full in (False, True):
                        groups._covered = (lambda *_: False) if full else cut
                        groups._needed = list if full else needed
                        try:
                            bodies.clear()
                            client.get(url, params)
                        finally:
                            groups._covered, groups._needed = cut, needed
                        both.append(list(bodies))
                    sent.append((kind, q, url, extra, *both))

    from search.querying.facets import SPELLINGS

    def answer(index: str, body: dict) -> tuple:
        found = es.search(index=index, body=body, request_cache=False)
        spellings = json.dumps(found.get("aggregations", {}).get(SPELLINGS, {}), sort_keys=True)
        return (spellings, [h["_id"] for h in found["hits"]["hits"]], found["hits"].get("total")), found["took"]

    took: dict[str, list[int]] = {"cut": [], "full": []}
    compared = differ = 0
    for kind, q, url, extra, cut_bodies, full_bodies in sent:
        if len(cut_bodies) != len(full_bodies):
            differ += 1
            print(f"requests differ: {kind} {q!r} {url} {extra}")
            continue
        for (index, a), (_, b) in zip(cut_bodies, full_bodies, strict=True):
            compared += 1
            (seen_a, took_a), (seen_b, took_b) = answer(index, a), answer(index, b)
            took["cut"].append(took_a)
            took["full"].append(took_b)
            if seen_a != seen_b:
                differ += 1
                print(f"differ: {kind} {q!r} {url} {extra}: {seen_a[0][:160]} | {seen_b[0][:160]}")
    print(f"{compared} requests compared ({len(sent)} searches), {differ} differ")
    print(f"Elasticsearch took, mean ms: cut {statistics.mean(took['cut']):.2f}, full {statistics.mean(took['full']):.2f}")


if __name__ == "__main__":
    main()
