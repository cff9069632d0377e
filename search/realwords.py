"""Real words of the blog's language, to tell a word the blog lacks from a typo (issues 36, 53).

A reader who types "unity", "orchestra" or "lobster" on a blog that never used them typed a real
word, not a typo of "unit", "orchestrate" or "lobste": rewriting it shows confidently wrong
results. The typo model cannot tell (each is one cheap edit from a word the blog holds); how often
English uses the word can. search/data/real_words_en.txt.gz lists the English words wordfreq
ranks at a Zipf frequency of 2 or more (once per hundred million words; written by
scripts/export_real_words.py), ~90,000 of them. A word the blog lacks that English uses at least
`ranking.real_word_min_zipf` (3) is never corrected in the reader's place, only offered as "Did
you mean ...?"; a rarer one, from `ranking.rare_word_min_zipf` (2), only by a slip or by sound
(search/querying/corrections.py). Common misspellings sit in that band ("recieve", "seperate"
are near 2.8), and a slip or a sound-alike still corrects them; "cobol" and "kotlin" stay.

A German or French blog (SEARCH["LANGUAGE"]) reads real_words_de or real_words_fr, the same
export of wordfreq's list for that language, its words folded as the analyzers fold them
("müller": muller): a correct German word the blog lacks is then no typo either.

Why the list is searched in place: its lines ("<word> <Zipf x 100>", in byte order) stay one
bytes object, read on first use, and a lookup is a binary search over it (~9 us; only words the
blog lacks are looked up; `spelled_so` instead scans it, ~2 ms a miss, only for a word two
slips from a held one on an empty page). The English list takes ~1 MB a process (the German one 2.4 MB), where a set of the words would take
several times that.
"""

import functools
import gzip
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"


@functools.cache
def _lines(language: str) -> bytes:
    """The language's list, between newlines: every line starts after one and ends before one."""
    return b"\n" + gzip.decompress((DATA / f"real_words_{language}.txt.gz").read_bytes())


def zipf(word: str, language: str = "en") -> float:
    """How often `language` uses `word` (lowercase ASCII letters, folded) on wordfreq's Zipf
    scale; 0 when the list does not hold it (under 2, or not a word)."""
    if not (word.isascii() and word.isalpha()):
        return 0.0
    key, lines = word.encode(), _lines(language)
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


@functools.lru_cache(maxsize=4096)  # a miss scans the list (~3 ms in German); a query's words come back
def spelled_so(word: str, language: str = "en") -> bool:
    """Whether `language` writes letters as `word` has them: each three in a row occur in a word of
    its list, and its first two start one, its last two end one. A word with a sequence no word
    has ("szvze", "lqeyre", "halpyy") is no word of the language: most likely a typo. Most names
    are spelled so ("blazor"); a few are not ("htmx"), nor names made of two words at their join
    ("npmjs": corrections.Judge leaves those alone). A word not in lowercase ASCII letters is
    taken as spelled so: the list cannot tell."""
    if not (word.isascii() and word.isalpha() and word.islower()) or len(word) < 3:
        return True
    lines = _lines(language)
    ends = [b"\n" + word[:2].encode(), word[-2:].encode() + b" "]
    runs = {word[i : i + 3].encode() for i in range(len(word) - 2)}  # each once: "xxxxxxxx" scans once
    return all(part in lines for part in ends) and all(run in lines for run in runs)


def is_real(word: str, min_zipf: float, language: str = "en") -> bool:
    """Whether `language` uses `word` at least `min_zipf` (0: never: the check is off)."""
    return min_zipf > 0 and zipf(word.lower(), language) >= min_zipf
