"""The one English stop-word list: the index analyzer and the `match` fallback both use it.

Lucene's English set (what Elasticsearch's `_english_` means) plus the question words readers put
around a query ("how to ...", "what is the ..."), which carry no meaning for a blog search.
"""

LUCENE_ENGLISH = (
    "a",
    "an",
    "and",
    "are",
    "as",
    "at",
    "be",
    "but",
    "by",
    "for",
    "if",
    "in",
    "into",
    "is",
    "it",
    "no",
    "not",
    "of",
    "on",
    "or",
    "such",
    "that",
    "the",
    "their",
    "then",
    "there",
    "these",
    "they",
    "this",
    "to",
    "was",
    "will",
    "with",
)
QUESTION_WORDS = ("how", "what", "why", "when", "where", "which", "who", "do", "does", "can", "i")

STOP_WORDS: tuple[str, ...] = tuple(sorted(set(LUCENE_ENGLISH + QUESTION_WORDS)))
_STOP_SET = frozenset(STOP_WORDS)


def is_stop_word(word: str) -> bool:
    return word.lower() in _STOP_SET
