"""What a far guess costs an empty page, in-process (issue 48; search/querying/corrections.py, step 8).

    .venv/bin/python bench/far_guess_cost.py

Takes the misspellings of codespell's `tune` half (bench/misspellings.py) of 8 letters or more
that are three or more edits from their word and that the shared corpus's dictionary lacks, and
times `candidates.far_guesses` on each with the typo model's caches cleared first, as a word
typed for the first time meets them. Prints the median, the 90th percentile and the slowest, in
milliseconds of CPU, and how many words found a guess that scores enough.
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
    parser.add_argument("--words", type=int, default=300, help="misspellings timed, the first in the list's order")
    args = parser.parse_args()
    from bench import inprocess

    inprocess.setup(SEARCH_CACHE_SECONDS="0")
    from bench.misspellings import misspellings
    from search import conf, vocabulary
    from search.querying import candidates
    from search.querying.service import search
    from search.querying.typo_model import osa, sound_key, typo_score

    search("hello", use_cache=False)  # loads the dictionary
    dictionary = vocabulary.current(None)
    if dictionary is None:
        sys.exit("no dictionary: index the corpus first (make run)")
    ranking = conf.get().ranking
    words = sorted(w for right, wrongs in misspellings("tune").items() for w in wrongs if len(w) >= 8 and osa(w, right) >= 3)
    words = [w for w in words if dictionary.counts(w) is None][: args.words]
    took, guessed = [], 0
    for word in words:
        typo_score.cache_clear()
        sound_key.cache_clear()
        start = time.process_time()
        found = candidates.far_guesses(word, dictionary, costs=ranking.typo_costs, min_docs=ranking.known_word_min_docs, floor=ranking.far_guess_min_score)
        took.append((time.process_time() - start) * 1000)
        guessed += bool(found)
    took.sort()
    p90 = took[int(0.9 * (len(took) - 1))]
    print(f"{len(words)} words: median {statistics.median(took):.2f} ms, p90 {p90:.2f} ms, slowest {took[-1]:.2f} ms; {guessed} guessed")


if __name__ == "__main__":
    main()
