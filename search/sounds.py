"""How a word sounds: its Double Metaphone key (pure).

People spell by sound ("exersize", "jurny", "bisnes"): a misspelling sounds like the word meant,
however many letters differ. Double Metaphone (Lawrence Philips, 2000) keys a word by its
consonant sounds, English spelling rules included ("design" and "dezine" are both TSN, where the
original Metaphone drops the silent "gn" and keys "design" TS). The `doublemetaphone` package wraps
the reference C++ code (the implementation the dedupe project ships). Only the primary key is
used: one key a word keeps the dictionary's index small (search/soundalikes.py).
"""

from doublemetaphone import doublemetaphone


def key(word: str) -> str:
    """The primary Double Metaphone key of a word of ASCII letters; empty for anything else."""
    return doublemetaphone(word)[0] if word.isascii() and word.isalpha() else ""
