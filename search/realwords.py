"""Real English words, to tell a word the blog lacks from a typo (issue 36).

A reader who types "unity", "orchestra" or "lobster" on a blog that never used them typed a real
word, not a typo of "unit", "orchestrate" or "lobste": rewriting it shows confidently wrong
results. The typo model cannot tell (each is one cheap edit from a word the blog holds); how often
English uses the word can. search/data/real_words_en.txt.gz lists the English words wordfreq
ranks at a Zipf frequency of 3 or more (once per million words; written by
scripts/export_real_words.py), ~28,000 of them. A word the blog lacks that English uses at least
`ranking.real_word_min_zipf` is never corrected in the reader's place, only offered as "Did you
mean ...?" (search/querying/confidence.py). Common misspellings stay below that line ("recieve",
"seperate", "definately" are under 3), so the typos people make are still corrected.

Held in the dictionary's compiled fst (search/_lexicon), built on first use from the file: about
a hundred kilobytes a process where a Python set of the words would take ~2.5 MB.
"""

import functools
import gzip
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "real_words_en.txt.gz"


@functools.cache
def _lexicon():
    from search._lexicon import Lexicon

    def entries():
        with gzip.open(DATA, "rt", encoding="ascii") as lines:
            for line in lines:
                word, zipf = line.split()
                yield word, (int(zipf), 0, 0)

    return Lexicon(Lexicon.build(entries()))


def zipf(word: str) -> float:
    """How often English uses `word` (lowercase, ASCII letters) on wordfreq's Zipf scale; 0 when
    the list does not hold it (under 3, or not a word)."""
    found = _lexicon().get(word)
    return found[0] / 100 if found else 0.0


def is_real(word: str, min_zipf: float) -> bool:
    """Whether English uses `word` at least `min_zipf` (0: never: the check is off)."""
    return min_zipf > 0 and zipf(word.lower()) >= min_zipf
