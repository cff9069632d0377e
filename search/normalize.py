"""Turning what a reader typed into a query we are willing to run."""
import re
import unicodedata

_WS = re.compile(r"\s+")


def normalize_query(raw: str, *, max_length: int, max_words: int) -> str:
    """Trim, drop control and format characters, collapse whitespace, cap length and word count.

    NFKC folds compatibility forms (full-width letters, ligatures) to what the index holds. The
    length cap cuts at a word boundary so that no half word is searched.
    """
    text = unicodedata.normalize("NFKC", raw or "")
    text = "".join(" " if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") else ch for ch in text)
    words = _WS.sub(" ", text).strip().split(" ")
    text = " ".join(words[:max_words])
    if len(text) > max_length:
        cut = text[:max_length]
        text = cut.rsplit(" ", 1)[0] if " " in cut else cut
    return text.strip()
