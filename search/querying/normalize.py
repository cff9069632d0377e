"""Turning what a reader typed into a query we are willing to run."""

import re
import unicodedata

_WS = re.compile(r"\s+")
# Control, format, surrogate, private-use, unassigned characters and line/paragraph separators.
_BLANKED = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))
# Tokens roughly as our analyzers make them: runs of letters and digits (joined by an inner
# apostrophe, "don't"; a dot splits, "node.js" is two: search/documents.py), and each CJK
# ideograph, kana or Thai letter on its own.
_TOKEN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u0e00-\u0e7f]|[^\W_]+(?:['][^\W_]+)*")


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
        tokens = list(_TOKEN.finditer(text))
        if len(tokens) > max_tokens:
            text = text[: tokens[max_tokens - 1].end()]
    return text.strip()
