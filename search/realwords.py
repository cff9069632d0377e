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

Why the list is searched in place: its lines ("<word> <Zipf x 100>", in byte order) stay one
bytes object, read on first use, and a lookup is a binary search over it (~9 us; only words the
blog lacks are looked up). Measured per process: 0.5 MB, where a set of the words takes ~2.5 MB
and the dictionary's compiled fst (search/_lexicon) 3.3 MB of RSS once built or loaded.
"""

import functools
import gzip
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "real_words_en.txt.gz"


@functools.cache
def _lines() -> bytes:
    """The list, between newlines: every line starts after one and ends before one."""
    return b"\n" + gzip.decompress(DATA.read_bytes())


def zipf(word: str) -> float:
    """How often English uses `word` (lowercase ASCII letters) on wordfreq's Zipf scale; 0 when
    the list does not hold it (under 3, or not a word)."""
    if not (word.isascii() and word.isalpha()):
        return 0.0
    key, lines = word.encode(), _lines()
    lo, hi = 0, len(lines) - 1  # the lines starting after lines[lo] and before lines[hi], both newlines
    while lo < hi:
        start = lines.rfind(b"\n", lo, (lo + hi) // 2 + 1)  # the line around the middle
        space = lines.index(b" ", start + 1)
        found = lines[start + 1 : space]
        if found == key:
            return int(lines[space + 1 : lines.index(b"\n", space)]) / 100
        if found < key:
            lo = lines.index(b"\n", space)
        else:
            hi = start
    return 0.0


def is_real(word: str, min_zipf: float) -> bool:
    """Whether English uses `word` at least `min_zipf` (0: never: the check is off)."""
    return min_zipf > 0 and zipf(word.lower()) >= min_zipf
