"""Whether a correction is sure enough to search for in the reader's place (pure; issue 36).

A blog does not hold every real word: "kotlin", "cobol", "nuxt" are words, not typos, and
rewriting them into "catlin", "cool", "next" shows confidently wrong results. Typo-tolerant
engines cap the typos by length (Meilisearch and Algolia: one from 5 letters, two from 8-9); the
typos people make are few and of a few kinds (the typo model's cheap edits: a neighbouring key,
two letters swapped, a letter dropped or doubled). So a word the index lacks is corrected only
by such an edit, or, in a longer word, one other edit:

- strong (any length): a key next to the typed one, two neighbours swapped, a letter dropped, a
  letter doubled or an extra key next to its neighbour.
- weak: any other letter in place of one (a vowel for a vowel included), a stray extra letter;
  accepted from `weak_typo_min_length` letters, never at the first letter ("xamarin": "tamarin").
- two edits from `two_typos_min_length` letters, or when both double or undouble a letter
  ("ocassion", "tommorow"); more never.
- a word split in two ("hotwire": hot wire) when each half has `split_min_part` letters ("godot"
  is not "go dot", "pyright" not "py right").

And never a real word the blog lacks ("unity", "orchestra": English uses them at least
`real_word_min_zipf` on wordfreq's scale, search/realwords.py), which is searched as typed.

A correction that is not sure is not searched; the page offers it as "Did you mean ...?".
"""

from search.querying.candidates import osa
from search.querying.suggestions import _KEY
from search.words import key_word, words

# A real word among other words is kept as typed only from this length (sure_rewrite()).
REAL_WORD_IN_CONTEXT = 6


def _adjacent(a: str, b: str) -> bool:
    ka, kb = _KEY.get(a), _KEY.get(b)
    return ka is not None and kb is not None and a != b and abs(ka[0] - kb[0]) <= 1 and abs(ka[1] - kb[1]) <= 1


# The dictionary's own distance (an adjacent swap is one edit): one definition of it.
edits = osa


def _single(word: str) -> str:
    """The word with each run of one letter written once ("occasion" -> "ocasion")."""
    return "".join(ch for i, ch in enumerate(word) if i == 0 or word[i - 1] != ch)


def _one_edit(typed: str, candidate: str) -> tuple[bool, int]:
    """(whether the one edit from `typed` to `candidate` is strong, where it is)."""
    if len(typed) < len(candidate):  # a letter dropped
        return True, next((i for i, (x, y) in enumerate(zip(typed, candidate, strict=False)) if x != y), len(typed))
    if len(typed) > len(candidate):  # an extra letter: strong when doubled or next to a neighbour's key
        i = next(i for i in range(len(typed)) if typed[:i] + typed[i + 1 :] == candidate)
        near = typed[max(0, i - 1) : i] + typed[i + 1 : i + 2]
        return any(ch == typed[i] or _adjacent(ch, typed[i]) for ch in near), i
    i = next(i for i, (x, y) in enumerate(zip(typed, candidate, strict=True)) if x != y)
    swapped = i + 1 < len(typed) and typed[i] == candidate[i + 1] and typed[i + 1] == candidate[i]
    return swapped or _adjacent(typed[i], candidate[i]), i


def sure(typed: str, candidate: str, *, weak_min_length: int, two_min_length: int) -> bool:
    """Whether `candidate` is a sure correction of the word `typed` (module docstring)."""
    typed, candidate = typed.lower(), candidate.lower()
    n = edits(typed, candidate)
    if n == 0:
        return True
    if n > 1:
        # Two edits from `two_min_length` letters, or at any length when both double or undouble a
        # letter, the misspelling people make most ("ocassion", "tommorow").
        return n == 2 and (len(typed) >= two_min_length or _single(typed) == _single(candidate))
    strong, at = _one_edit(typed, candidate)
    return strong or (len(typed) >= weak_min_length and at > 0)


def _pairs(a: list[str], b: list[str]) -> list[tuple[str, str]] | None:
    """The typed words and what the correction made of each; a word split in two ("hotwire": hot
    wire) pairs with both, space kept. None when they do not pair up (left to the typo model)."""
    if len(a) == len(b):
        return list(zip(a, b, strict=True))
    if len(b) == len(a) + 1:
        for i, word in enumerate(a):
            if word.lower() == (b[i] + b[i + 1]).lower():
                return [*zip(a[:i], b[:i], strict=True), (word, f"{b[i]} {b[i + 1]}"), *zip(a[i + 1 :], b[i + 2 :], strict=True)]
    return None


def _sure_pair(typed: str, corrected: str, *, weak_min_length: int, two_min_length: int, split_min_part: int) -> bool:
    if " " in corrected:  # a split: sure when both halves are words of their own, not a stray "go" or "js"
        return all(len(part) >= split_min_part for part in corrected.split(" "))
    return sure(typed, corrected, weak_min_length=weak_min_length, two_min_length=two_min_length)


def _sure_start(typed: str, corrected: str, **limits) -> bool:
    """Whether an unfinished word's correction is sure: some start of it, one letter shorter to
    one longer than what was typed, is a sure correction of it ("firfo": firefo, so "firefox";
    "firef" starts "firefox"). A reader pressing Enter after "kotlin" has not typed the start of
    "hotlink" (a first letter changed), so the page does not show it in their place."""
    if " " in corrected:
        return _sure_pair(typed, corrected, **limits)
    n = len(typed)
    # As long as what was typed or one letter longer (a letter dropped); shorter only by a doubled
    # letter written once ("spaarkl": sparkl, so "sparkle"), the typo people make most. Never by
    # any other letter, which would read the last typed one as a stray key and complete past it
    # ("cobol": cobo, "cobos").
    if any(_sure_pair(typed, corrected[:k], **limits) for k in range(n, min(len(corrected), n + 1) + 1)):
        return True
    start = corrected[: n - 1]
    return len(start) == n - 1 and any(typed[i] == typed[i - 1] and typed[:i] + typed[i + 1 :] == start for i in range(1, n))


def sure_rewrite(typed: str, corrected: str, *, absent, unfinished: bool, held=None, real=None, completion_min_docs: int = 0, **limits) -> bool:
    """Whether every word a correction changes is a sure one. Only words the index lacks
    (`absent(word)`) are judged, an unfinished last word by its start (`_sure_start`); words that
    do not pair up are left to the typo model as before. A corrected start completed into a word
    of fewer than `completion_min_docs` documents (`held(word)`) is no sure guess of what the reader
    is typing ("godot": godof, a one-post "godofgrunts"). A real word (`real(word)`, folded as the
    analyzers fold it: search/realwords.py) is neither corrected nor completed: "unity" is not a
    typo of "unit", and "lobster" needs no "lobsters" (the stemmed fields match it as typed).
    `limits`: _sure_pair()'s."""
    pairs = _pairs([w for _, _, w in words(typed)], [w for _, _, w in words(corrected)])
    if pairs is None:
        return True
    last = len(pairs) - 1

    def ok(i: int, x: str, y: str) -> bool:
        if x.lower() == y.lower() or not absent(x):
            return True
        x, y = key_word(x), key_word(y)  # as the analyzers fold them: "extensón" is "extenson"
        # A word English uses, which this blog does not. Alone, or long: a typo that spells another
        # real word is likelier the shorter the word, and the other words of a query (the phrase
        # the correction makes) are the evidence for it ("tae more": take more, "naps history").
        if real is not None and (len(pairs) == 1 or len(x) >= REAL_WORD_IN_CONTEXT) and real(x):
            return False
        if _sure_pair(x, y, **limits):  # a sure correction of the word as typed
            return True
        if not (unfinished and i == last) or " " in y:
            return False
        if y.startswith(x):  # a completion of what was typed
            return True
        # A completion of a corrected start: only into a word enough documents hold.
        return _sure_start(x, y, **limits) and (held is None or held(y) >= completion_min_docs)

    return all(ok(i, x, y) for i, (x, y) in enumerate(pairs))
