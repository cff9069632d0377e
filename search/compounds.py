"""German compounds: the blog's words that end in a typed word (pure; issue 53, point 4).

German writes a compound as one word: "Datenbankmigration" is a migration of a database. A
reader who types "Migration" means those posts too, and no stemmer finds them. Elasticsearch's
decompounders need a word list or a hyphenation grammar of the language; the blog's own
dictionary is one already. So a typed word is searched in the compounds the blog holds that end
in it (plan.compound_forms), like a form of it, below the word as typed.

A compound counts when what comes before the word is itself a word the blog holds, of
`MIN_PART` letters or more and no stop word, maybe with a joining "s", "es", "n" or "en", or
without its "e" ("Kontrollabstraktion": kontrolle). So "Beispiel" is no compound of "Spiel"
("bei" is too short) and "Nachrichten" none of "richten" ("nach" is a stop word).

The index is each snapshot's words of 2 * MIN_PART letters or more that at least
`COMPOUND_MIN_DOCUMENTS` documents hold, reversed and sorted in one bytes object, made on first need
(search/vocabulary.py) for a German blog only.
"""

import string

from search.soundalikes import SortedLines
from search.stopwords import is_stop_word_of

# The languages that write compounds as one word.
LANGUAGES = frozenset({"de"})
MIN_PART = 4
# A compound one post holds is found (a title's word is often its only use); its first part must
# be a word more documents hold.
COMPOUND_MIN_DOCUMENTS = 1
MIN_DOCUMENTS = 2
JOINS = ("s", "es", "n", "en")
# The most compounds of one word looked at: a bound on a query's cost.
SCANNED = 200


class CompoundIndex:
    """One dictionary's longer words, reversed and sorted: the words ending in a given one."""

    def __init__(self, words):
        self.lines = SortedLines(sorted(word[::-1] for word in words))

    def __len__(self) -> int:
        return len(self.lines)

    def ending_in(self, word: str, most: int = 1000) -> list[str]:
        """The words longer than `word` that end in it, the first `most` of them by their reversed
        spelling (a short common ending, "tion", has thousands)."""
        return [line[::-1] for line in self.lines.starting(word[::-1], most + 1) if len(line) > len(word)][:most]


def build(lexicon, documents_holding) -> CompoundIndex:
    """The index of a lexicon's (search._lexicon.Lexicon) words, enumerated by two-letter starts."""
    words = []
    for first in string.ascii_lowercase:
        for second in string.ascii_lowercase:
            for word, counts in lexicon.completions(first + second, len(lexicon)):
                if len(word) >= 2 * MIN_PART and word.isalpha() and documents_holding(counts) >= COMPOUND_MIN_DOCUMENTS:
                    words.append(word)
    return CompoundIndex(words)


def _bases(first: str) -> list[str]:
    """The word a compound's first part may stand for: as written, without a joining ending, or
    with its "e" back ("kontroll": kontrolle)."""
    return [first, *(first.removesuffix(j) for j in JOINS if first.endswith(j)), first + "e"]


def compounds(word: str, index: CompoundIndex, held, *, limit: int, titled=lambda word: 0) -> list[str]:
    """The `limit` compounds of the blog that end in `word` (module docstring): those more titles
    hold first, a post about them, then those more documents hold. `held(word)`: how many
    documents hold a word; `titled(word)`: how many titles."""
    if limit <= 0 or len(word) < MIN_PART or not word.isalpha() or is_stop_word_of(word, "de"):
        return []
    found = []
    for compound in index.ending_in(word, SCANNED):
        first = compound[: -len(word)]
        if any(len(b) >= MIN_PART and not is_stop_word_of(b, "de") and held(b) >= MIN_DOCUMENTS for b in _bases(first)):
            found.append(compound)
    return sorted(found, key=lambda c: (-titled(c), -held(c), c))[:limit]
