"""What the lemma's forms of a word the stemmer finds cost a query, in-process (issue 53; plan.held_forms).

    SEARCH_LANGUAGE=fr SEARCH_INDEX_PREFIX=blogfr DATABASE_URL=... \\
      .venv/bin/python bench/stemmed_forms_cost.py --corpus .state/corpus-fr --lists .state/lists

Takes bench/langgen.py's queries for the blog (every kind, one seed) and keeps those where a word
the blog lacks as typed, found by the stemmer in another form, takes forms from the lexicon: the
only queries the rule changes. Each is searched with the rule off (no `inflected` words passed to
plan.held_forms) and on, alternately first, the result cache off, after one warm pass. Prints the
medians of wall time and their ratio, and how many alternatives the rule added.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--lists", type=Path, default=Path("/"))
    parser.add_argument("--seed", type=int, default=20261121)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    from bench import inprocess

    inprocess.setup(SEARCH_CACHE_SECONDS="0")
    import json

    from bench.langgen import Generator
    from bench.language_relevance import AUTOCORRECT, HUNSPELL
    from search import conf, generation, vocabulary
    from search.querying import plan
    from search.querying.service import search

    language = conf.get().index.language
    conf.override(WORD_CACHE_SECONDS=0)
    with (args.corpus / "posts.ndjson").open(encoding="utf-8") as fh:
        posts = [json.loads(line) for line in fh if line.strip()]
    generator = Generator(posts, language, autocorrect=args.lists / AUTOCORRECT / f"acor_{language}.dat", hunspell=args.lists / HUNSPELL)
    search("test", use_cache=False)  # loads the dictionary
    dictionary, cfg = vocabulary.current(generation.latest()), conf.get()
    held_forms = plan.held_forms

    def changed(text: str) -> int:
        unknown, inflected = plan.scan_words(text, dictionary, cfg)
        return sum(map(len, held_forms(text, unknown, dictionary, cfg, inflected=inflected).values())) - sum(
            map(len, held_forms(text, unknown, dictionary, cfg).values())
        )

    queries = list(dict.fromkeys(q.text for q in generator.generate(seed=args.seed, per_kind=60)))
    chosen = [(q, n) for q in queries if (n := changed(q)) > 0]
    if not chosen:
        sys.exit("no query takes such forms")

    def off(*a, inflected=(), **kw):
        return held_forms(*a, **kw)

    def timed(text: str, on: bool) -> float:
        plan.held_forms = held_forms if on else off
        start = time.perf_counter()
        search(text, use_cache=False)
        return (time.perf_counter() - start) * 1000

    took = {False: [], True: []}
    for q, _ in chosen:  # warm
        timed(q, True), timed(q, False)
    for r in range(args.rounds):
        for i, (q, _) in enumerate(chosen):
            for on in (True, False) if (i + r) % 2 else (False, True):
                took[on].append(timed(q, on))
    plan.held_forms = held_forms
    off_ms, on_ms = statistics.median(took[False]), statistics.median(took[True])
    added = statistics.median(n for _, n in chosen)
    print(f"{len(chosen)} of {len(queries)} queries take forms (median {added} added), {args.rounds} rounds interleaved")
    print(f"wall median off {off_ms:.2f} ms, on {on_ms:.2f} ms: {on_ms / off_ms:.3f}x")


if __name__ == "__main__":
    main()
