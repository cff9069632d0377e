"""The dictionary's words by sound: those that sound like a typed one, however far apart their
letters (pure; beside search/vocabulary.py, which holds one per snapshot).

The dictionary finds words up to two edits away. People who spell by sound often land three or
more away: "bisnes" (business), "dinamicly" (dynamically), "porshan" (portion). Their sound
keys are the same (search/sounds.py). So each dictionary snapshot gets a small index
from key to words, made on first need: its words of `MIN_LENGTH` letters or more that at least
`MIN_DOCUMENTS` documents hold, as sorted "KEY word" lines in one bytes object, binary-searched
in place (~15,000 words, ~0.2 MB and ~0.15 s to make on the shared corpus).

Why not a dict: the same words as a dict of lists take several times the memory in every worker.
"""

import string

from search import sounds

MIN_LENGTH = 4
MIN_DOCUMENTS = 2


class SortedLines:
    """Sorted lines between newlines in one bytes object, found by their start (binary search in
    place): the sound index's "KEY word" lines, the compound index's reversed words
    (search/compounds.py)."""

    def __init__(self, lines: list[str]):
        self.blob = ("\n" + "\n".join(lines) + "\n").encode() if lines else b"\n"
        self.count = len(lines)

    def __len__(self) -> int:
        return self.count

    def _first(self, start: bytes) -> int:
        """Where the first line not below `start` begins (the lines sit between newlines)."""
        blob, lo, hi = self.blob, 0, len(self.blob) - 1  # newlines at both ends
        while lo < hi:  # invariant: the answer's preceding newline lies in [lo, hi]
            mid = blob.rfind(b"\n", lo, (lo + hi) // 2 + 1)
            end = blob.index(b"\n", mid + 1)
            if mid + 1 < len(blob) and blob[mid + 1 : end] < start and end < len(blob) - 1:
                lo = end
            elif mid + 1 < len(blob) and blob[mid + 1 : end] < start:
                return end + 1
            else:
                hi = mid
        return lo + 1

    def starting(self, prefix: str, most: int | None = None) -> list[str]:
        """The lines that start with `prefix`, in order; the first `most` of them."""
        start = prefix.encode()
        i, out = self._first(start), []
        while i < len(self.blob) and self.blob.startswith(start, i) and (most is None or len(out) < most):
            end = self.blob.index(b"\n", i)
            out.append(self.blob[i:end].decode())
            i = end + 1
        return out


class SoundIndex(SortedLines):
    """Sorted "KEY word" lines of one dictionary's words."""

    def alike(self, key: str) -> list[str]:
        """The words whose sound key is `key`."""
        if not key:
            return []
        start = f"{key} "
        return [line[len(start) :] for line in self.starting(start)]


class ByFirstLetter:
    """One SoundIndex per first letter: a sound-alike keeps the typed word's first letter
    (search/querying/typo_model.py), and building a letter at a time keeps the build's own
    memory small (all lines at once held ~1.2 MiB of a worker's memory that stayed taken)."""

    def __init__(self, indexes: dict[str, SoundIndex]):
        self.indexes = indexes

    def __len__(self) -> int:
        return sum(map(len, self.indexes.values()))

    def alike(self, key: str, first: str) -> list[str]:
        """The words starting with `first` whose sound key is `key`."""
        index = self.indexes.get(first)
        return index.alike(key) if index is not None else []


def build(lexicon, documents_holding) -> ByFirstLetter:
    """The index of a lexicon's (search._lexicon.Lexicon) ASCII words; `documents_holding(counts)`:
    how many documents hold a word. Enumerated by two-letter starts, a few hundred words at a time."""
    indexes = {}
    for first in string.ascii_lowercase:
        lines = []
        for second in string.ascii_lowercase:
            for word, counts in lexicon.completions(first + second, len(lexicon)):
                if len(word) >= MIN_LENGTH and word.isascii() and word.isalpha() and documents_holding(counts) >= MIN_DOCUMENTS:
                    lines.append(f"{sounds.key(word)} {word}")
        lines.sort()
        indexes[first] = SoundIndex(lines)
    return ByFirstLetter(indexes)
