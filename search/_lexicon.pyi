"""In-memory fst vocabulary: word -> (title, text, comment) document frequencies."""

from collections.abc import Iterable

Counts = tuple[int, int, int]

class Lexicon:
    @staticmethod
    def build(entries: Iterable[tuple[str, Counts]]) -> bytes:
        """fst bytes from (word, counts) pairs in any order; repeats are summed per field,
        counts saturate at 2**21 - 1, empty words are skipped."""

    def __init__(self, data: bytes) -> None:
        """Copies and checks `data`; ValueError if it is not a valid lexicon."""

    def __len__(self) -> int: ...
    def __contains__(self, word: str) -> bool: ...
    @property
    def nbytes(self) -> int:
        """Bytes held: the fst and the small per-ordering indexes of its most frequent words."""

    def get(self, word: str) -> Counts | None: ...
    def completions(self, prefix: str, limit: int, field: int | None = None) -> list[tuple[str, Counts]]:
        """The `limit` most frequent words extending `prefix` (not `prefix` itself), by counts[field]
        (None: the sum) descending, then word."""

    def within(self, word: str, max_edits: int, prefix_length: int = 0, limit: int = 1000) -> list[tuple[str, int, Counts]]:
        """(word, distance, counts) for words within `max_edits` (0-2) OSA edits of `word`, not `word`
        itself, starting with word's first `prefix_length` characters; by distance, then summed counts
        descending, then word."""

    def prefix_within(self, prefix: str, max_edits: int, limit: int = 50, field: int | None = None) -> list[tuple[str, int, Counts]]:
        """(word, distance, counts) for words that start with a string within `max_edits` (0-2) OSA edits
        of `prefix`, at the smallest such distance; by distance, then counts[field] (None: the sum)
        descending, then word."""
