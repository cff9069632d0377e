"""A correction written as the blog writes it (pure; issue 53, point 3).

The dictionary holds words folded as the exact analyzer keeps them: "einfuhrung", "accessibilite".
A correction made of them would say "Showing results for einfuhrung" to a reader of "Einführung".
The posts the page shows write the word; `as_written` takes its commonest written form from them,
lowercased as corrections are. A word the page's posts do not write stays as it is.
"""

import html
import re
from collections import Counter, defaultdict
from collections.abc import Iterable

from search.words import key_word, words

_TAG = re.compile(r"<[^>]+>")
# A written word: letters and digits, joined by apostrophes ("l'accessibilité"), no punctuation.
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
ELISION = "['’]"
_POSSESSIVE = re.compile("['’]s$")


def plain(fragment: str) -> str:
    """A highlighted fragment's text: its tags off, its entities read ("&amp;" is "&")."""
    return html.unescape(_TAG.sub("", fragment))


def written_forms(texts: Iterable[str]) -> dict[str, str]:
    """key_word() -> the commonest lowercased form of the words of `texts`, where that form has
    accents ("Einführung" -> {"einfuhrung": "einführung"}); ties go to the form seen first."""
    seen: dict[str, Counter] = defaultdict(Counter)
    for text in texts:
        for word in _WORD.findall(text):
            lowered = _POSSESSIVE.sub("", word.lower())  # "Gödel's" is "gödel", as key_word() reads it
            # An elided article joins its word: "l'accessibilité" is also "accessibilité".
            for form in dict.fromkeys((lowered, re.split(ELISION, lowered)[-1])):
                seen[key_word(form)][form] += 1
    # Only where the commonest form has accents: "Zahlen" four times and "zählen" once stay "zahlen".
    commonest = {key: forms.most_common(1)[0][0] for key, forms in seen.items()}
    return {key: form for key, form in commonest.items() if not form.isascii()}


def changed(correction: str, typed: str) -> str:
    """The words of `correction` that `typed` does not hold, those folding may have changed (ASCII
    ones): what to ask the blog's spelling of. Empty when there are none."""
    kept = {key_word(word) for _, _, word in words(typed)}
    return " ".join(dict.fromkeys(w for _, _, w in words(correction) if w.isascii() and key_word(w) not in kept))


def as_written(correction: str, typed: str, forms: dict[str, str]) -> str:
    """`correction` of the query `typed` with each word it changed that `forms` knows written so
    ("einfuhrung in haskell" -> "einführung in haskell"). A word the reader typed stays as typed,
    and so does any word only its case or nothing tells from its written form."""
    if not forms:
        return correction
    kept = {key_word(word) for _, _, word in words(typed)}
    out, last = [], 0
    for start, end, word in words(correction):
        key = key_word(word)
        form = forms.get(key)
        if form is not None and word.isascii() and key not in kept and form != word.lower():
            out.append(correction[last:start] + form)
            last = end
    return "".join(out) + correction[last:]
