"""Turning what a reader typed into a query we are willing to run."""

import re
import unicodedata

from search.words import tokens

_WS = re.compile(r"\s+")
# Control, format, surrogate, private-use, unassigned characters and line/paragraph separators.
_BLANKED = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))


def normalize_query(raw: str, *, max_length: int, max_words: int, max_tokens: int | None = None) -> str:
    """Trim, drop control and format characters, collapse whitespace, cap length, word and token count.

    NFKC folds compatibility forms (full-width letters, ligatures) to what the index holds. The
    length cap cuts at a word boundary so that no half word is searched. The token cap counts what
    Elasticsearch will search, not whitespace words: 200 characters of hyphen-joined letters are
    100 tokens in one "word", and 200 CJK characters 200 tokens, each a clause of every tier.
    """
    text = raw or ""
    if text.isascii():  # most queries: NFKC changes no ASCII text, and its only such characters are controls
        if not text.isprintable():
            text = "".join(" " if ch < " " or ch == "\x7f" else ch for ch in text)
    else:
        text = unicodedata.normalize("NFKC", text)
        text = "".join(" " if unicodedata.category(ch) in _BLANKED else ch for ch in text)
    words = _WS.sub(" ", text).strip().split(" ")
    text = " ".join(words[:max_words])
    if len(text) > max_length:
        cut = text[:max_length]
        text = cut.rsplit(" ", 1)[0] if " " in cut else cut
    if max_tokens:
        found = tokens(text)
        if len(found) > max_tokens:
            text = text[: found[max_tokens - 1].end()]
    return text.strip()


def left_out(raw: str, searched: str) -> str:
    """What the reader typed after the part that was searched (the caps above cut it), for the page
    to say; empty when all of it was searched."""
    whole = normalize_query(raw, max_length=len(raw or ""), max_words=len(raw or "") + 1)
    return whole[len(searched) :].strip() if searched and whole != searched and whole.startswith(searched) else ""
