"""How often the typo model's best option for a misspelled word is the word meant, by source (no search).

    .venv/bin/python bench/candidate_choice.py [--per-source 400] [--set TYPO_COSTS.vowel=0.7] [--prior docs:0.02]

A quick instrument for the typo model and the candidates alone (seconds, where bench/relevance.py
takes minutes): for single title words of the corpus, misspelled the ways of each source, it asks
the dictionary for the word's options as a search would (plan.local_suggestions, then
suggestions._spans: the candidates, their typo scores, their order) and counts

- `covered`: the word meant is among the options at all;
- `best`: it is the first option, the one a one-word query would show.

The sources are those of bench/relevance.py: codespell's and Birkbeck's real misspellings, each
half apart (bench/misspellings.py; Birkbeck needs `BIRKBECK_LIST`), and keyboard slips of our own
model (bench/querygen.py). A rule tuned here on the `tune` halves is judged on `heldout` and on the
slips. The search does better than `best` (a phrase, the other words and the documents decide
among several spellings), so a change seen here is confirmed with bench/relevance.py.

`--prior NAME:WEIGHT` adds a word-frequency prior to each option's score before choosing, to
measure what a noisy-channel model would change: `docs` (log10 of the documents holding the
option), `zipf` (the language's Zipf frequency, search/realwords.py), `stray` (minus WEIGHT for an
option one document holds that the language does not use). Repeatable: each is a column.
Needs the corpus imported and indexed (make run).
"""

import argparse
import math
import os
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from bench import misspellings, overrides, querygen  # noqa: E402
from search import conf, vocabulary  # noqa: E402
from search.querying import plan, service, suggestions  # noqa: E402
from search.realwords import zipf  # noqa: E402

MIN_LETTERS = 4  # shorter title words are mostly stop words and names


def cases(dictionary, corpus: Path, *, per_source: int, seed: int) -> dict[str, list[tuple[str, str]]]:
    """source -> (typed, meant) pairs: title words of the corpus the dictionary holds, each
    misspelled into a word it lacks."""
    rng = random.Random(seed)
    titled = sorted(w for w in querygen.title_words(querygen.load_posts(corpus)) if w.isalpha() and len(w) >= MIN_LETTERS)
    out = {}
    for source, listed in misspellings.LISTS.items():
        for half in misspellings.HALVES:
            pairs = [(wrong, right) for right in titled for wrong in listed(half).get(right, ()) if not dictionary.counts(wrong)]
            rng.shuffle(pairs)
            if pairs:
                out[f"{source}, {half}"] = pairs[:per_source]
    slips = []
    for right in titled:
        typed = querygen.typo(right, rng.choice(querygen.MECHANICAL), rng)
        if typed and typed != right and not dictionary.counts(typed):
            slips.append((typed, right))
    rng.shuffle(slips)
    out["keyboard slips"] = slips[:per_source]
    return out


def options(typed: str, dictionary, cfg) -> list[tuple[float, str]]:
    """The word's scored options, best first, as a one-word query gets them."""
    suggest, _, _, _ = plan.local_suggestions(typed, [0], dictionary, cfg=cfg, completing=False)
    r = cfg.ranking
    spans = suggestions._spans(suggest, floor=r.min_suggestion_score, per_token=20, known=[], costs=r.typo_costs)
    return next(iter(spans.values()), [])


def prior(name: str, weight: float, dictionary, language: str):
    """score, word -> the score with the prior."""
    held = lambda w: vocabulary.documents_holding(dictionary.counts(w) or vocabulary.NO_COUNTS)  # noqa: E731
    if name == "docs":
        return lambda s, w: s + weight * math.log10(1 + held(w))
    if name == "zipf":
        return lambda s, w: s + weight * zipf(w, language)
    if name == "stray":
        return lambda s, w: s - (weight if held(w) <= 1 and not zipf(w, language) else 0.0)
    raise SystemExit(f"unknown prior {name!r}: docs, zipf or stray")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--per-source", type=int, default=400)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--prior", action="append", default=[], metavar="NAME:WEIGHT", help="a frequency prior's column (docs, zipf, stray)")
    overrides.add_argument(parser)
    args = parser.parse_args()
    overrides.apply(args.set)
    cfg = conf.get()
    dictionary = vocabulary.current(service.current_generation())
    if dictionary is None:
        raise SystemExit("no dictionary: import and index the corpus first (make run)")
    choosers = {"best": lambda s, w: s}
    for item in args.prior:
        name, _, weight = item.partition(":")
        choosers[f"best, {item}"] = prior(name, float(weight), dictionary, cfg.index.language)
    print(f"| source | n | covered | {' | '.join(choosers)} |")
    print(f"| --- | --- | --- |{' --- |' * len(choosers)}")
    for source, pairs in cases(dictionary, args.corpus, per_source=args.per_source, seed=args.seed).items():
        covered, best = 0, dict.fromkeys(choosers, 0)
        for typed, meant in pairs:
            found = options(typed, dictionary, cfg)
            covered += any(w == meant for _, w in found)
            for name, score in choosers.items():
                # max() keeps the first of equals: the typo model's own order among ties
                best[name] += bool(found) and max(found, key=lambda o: score(o[0], o[1]))[1] == meant
        n = len(pairs) or 1
        print(f"| {source} | {len(pairs)} | {covered / n:.3f} | {' | '.join(f'{best[k] / n:.3f}' for k in choosers)} |", flush=True)


if __name__ == "__main__":
    main()
