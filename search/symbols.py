"""Words written with symbols ("c#", "c++", "f#", ".net"), indexed and searched as themselves
(pure: the configured words in, patterns and tokens out).

Why: the standard tokenizer drops `#` and `+` and a dot splits words (search/words.py), so "C#",
"C++" and "C" were one word, "c", and a reader searching `c#` got the C posts first. Typesense's
`symbols_to_index` keeps such characters in every token; that would change the tokens of every
text (`a+b`, `#hashtag`), so here only the configured words are kept (`index.symbol_words`, as
Algolia's `separatorsToIndex` is configured, per word): before the tokenizer, a `pattern_replace`
character filter per word writes it as one plain token ("c#" -> "csharp", "c++" -> "cplusplus",
".net" -> "dotnet"), in the indexed text and in every query alike, so matching, phrases,
highlighting (the filter corrects offsets: "C#" is highlighted whole) and the suggesters all see
one word. "c" alone still finds the C posts, and only them.

A word counts only as a whole word, any case: no letter, digit, `_`, `#` or `+` on either side
("asp.net" stays asp, net; "libc++" and "c++11" are not "c++"). The same pattern splits the
reader's words (search/words.py), so the query layer treats a symbol word as one word that is
never corrected (search/querying/plan.py).
"""

import re
from functools import lru_cache

# How each symbol is spelled in the token written for a word ("c#" -> "csharp").
SPELLED = {"#": "sharp", "+": "plus", ".": "dot"}
# What may not touch a symbol word on either side (ASCII, so that Java's and Python's regular
# expressions agree on it).
_NEIGHBOUR = "A-Za-z0-9_#+"


def problem(word: str) -> str | None:
    """Why `word` cannot be a symbol word, or None."""
    if not word or word != word.strip() or " " in word:
        return f"{word!r}: one word, without spaces"
    if not word.isascii() or not all(ch.isalnum() or ch in SPELLED for ch in word):
        return f"{word!r}: ASCII letters and digits with {' '.join(SPELLED)} only"
    if not any(ch in SPELLED for ch in word) or not any(ch.isalpha() for ch in word):
        return f"{word!r}: a letter and one of {' '.join(SPELLED)} at least (a plain word needs no setting)"
    if word.endswith("."):
        return f"{word!r}: a dot ends a sentence, not a word"
    return None


def token(word: str) -> str:
    """The one token the analyzers index for a symbol word: "C#" -> "csharp"."""
    return "".join(SPELLED.get(ch, ch) for ch in word.lower())


def pattern(word: str) -> str:
    """A regular expression for `word` as a whole word (case-insensitive by flag), the same for
    Java (Elasticsearch's pattern_replace) and Python."""
    return f"(?<![{_NEIGHBOUR}]){re.escape(word)}(?![{_NEIGHBOUR}])"


def _longest_first(words: tuple[str, ...]) -> list[str]:
    """The words lowercased, once each, longest first: a longer word is matched before one it holds."""
    return sorted(dict.fromkeys(w.lower() for w in words), key=lambda w: (-len(w), w))


def char_filters(words: tuple[str, ...]) -> list[dict]:
    """(name, definition) of the pattern_replace character filter of each word, longest first
    ("c++" before a configured "c+" would rewrite it)."""
    out = []
    for word in _longest_first(words):
        out.append(
            {
                "name": f"symbol_{token(word)}",
                "type": "pattern_replace",
                "pattern": pattern(word),
                "replacement": token(word),
                "flags": "CASE_INSENSITIVE",
            }
        )
    return out


@lru_cache(maxsize=8)
def matcher(words: tuple[str, ...]) -> re.Pattern | None:
    """One pattern matching any of `words` as a whole word, longest first; None for none."""
    if not words:
        return None
    return re.compile("|".join(pattern(w) for w in _longest_first(words)), re.IGNORECASE)


def is_symbol_word(word: str, words: tuple[str, ...]) -> bool:
    """Whether `word` (as the reader typed it) is one of the configured symbol words."""
    found = matcher(words)
    return bool(found and found.fullmatch(word))


def indexed(text: str, words: tuple[str, ...]) -> str:
    """`text` with each symbol word written as its token, as the character filters do."""
    found = matcher(words)
    return found.sub(lambda m: token(m.group()), text) if found else text
