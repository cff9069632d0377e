"""As-you-type queries from the corpus's titles, the way the instant box sees them (pure, seeded).

The instant results ask after every pause in typing, so the last word is usually unfinished. Each
query comes from one post's title; a case is found at rank r when the r-th result is a post whose
title holds the complete words as written, consecutively, followed by a word that starts with
what was typed of the last one (`matches`). Kinds:

- cut_run: 2-4 consecutive title words, the last cut short (at least 3 letters typed, at least one
  missing)
- cut_typo: the same with one typo in an earlier, complete word (at least 4 letters)
- cut_word: one distinctive title word cut to its first 4 or more letters
- cut_inner_typo: a cut-short run whose last word (at least 5 letters typed) has a typo inside what
  was typed, and no title word starts with the typo ("mozilla firfo" for "mozilla firefox"): the
  typo must be forgiven where that stays unambiguous
- cut_real: cut_typo's shape, the complete word spelled as people really misspell it: a
  misspelling codespell's list gives for it (bench/misspellings.py), from the `heldout` half no
  rule is tuned on, so the as-you-type figures do not rest on our own slip model alone
- typed_whole: a complete title word that is also the start of a longer title word ("java" beside
  "javascript"): posts holding the word itself must come first (the control: completions never
  outrank what was typed)

At most MAX_EXPECTED posts may match a case, so that the answer is specific.
"""

import random
from dataclasses import dataclass, field

from bench.misspellings import misspellings
from bench.querygen import MECHANICAL, tokens, typo

MAX_EXPECTED = 10
KINDS = ("cut_run", "cut_typo", "cut_word", "typed_whole", "cut_inner_typo", "cut_real")
CONTROL_KINDS = ("typed_whole",)


@dataclass
class TypedQuery:
    kind: str
    text: str
    words: tuple[str, ...]  # the complete words as the title has them
    prefix: str  # what was typed of the last word ("" for typed_whole: the last word is complete)
    expected: list[int] = field(default_factory=list)


def matches(title_tokens: list[str], words: tuple[str, ...], prefix: str) -> bool:
    """Whether a title holds `words` consecutively, then a word starting with `prefix` (or, with
    no prefix, the words alone)."""
    n = len(words)
    for i in range(len(title_tokens) - n + 1):
        if tuple(title_tokens[i : i + n]) != words:
            continue
        if not prefix:
            return True
        if i + n < len(title_tokens) and title_tokens[i + n].startswith(prefix):
            return True
    return False


def _holders(titles: dict[int, list[str]], words: tuple[str, ...], prefix: str) -> list[int]:
    return [pid for pid, t in titles.items() if matches(t, words, prefix)]


def _plain(word: str) -> bool:
    return word.isascii() and word.isalpha()


def _cut(word: str, rng: random.Random, *, least: int) -> str | None:
    if len(word) < least + 1:
        return None
    return word[: rng.randrange(least, len(word))]


def _run_case(kind: str, t: list[str], titles, vocabulary, rng) -> TypedQuery | None:
    n = rng.randint(2, min(4, len(t)))
    start = rng.randrange(len(t) - n + 1)
    run = t[start : start + n]
    if not all(_plain(w) for w in run):
        return None
    prefix = _cut(run[-1], rng, least=5 if kind == "cut_inner_typo" else 3)
    if prefix is None:
        return None
    words = tuple(run[:-1])
    typed = list(words)
    if kind == "cut_inner_typo":
        wrong = typo(prefix, rng.choice(MECHANICAL), rng)
        if wrong == prefix or len(wrong) < 4 or any(w.startswith(wrong) for w in vocabulary):
            return None  # no typo, or one that starts a real word: ambiguous
        return TypedQuery(kind, " ".join([*typed, wrong]), words, prefix, _holders(titles, words, prefix))
    if kind in ("cut_typo", "cut_real"):
        real = misspellings("heldout") if kind == "cut_real" else {}
        spots = [i for i, w in enumerate(words) if len(w) >= 4 and (kind == "cut_typo" or w in real)]
        if not spots:
            return None
        i = rng.choice(spots)
        typed[i] = rng.choice(real[words[i]]) if kind == "cut_real" else typo(words[i], rng.choice(MECHANICAL), rng)
        if typed[i] == words[i] or typed[i] in vocabulary:
            return None  # a real word: a different problem (no suggester can see it)
    return TypedQuery(kind, " ".join([*typed, prefix]), words, prefix, _holders(titles, words, prefix))


def _word_case(kind: str, t: list[str], titles, vocabulary, rng, by_prefix) -> TypedQuery | None:
    word = rng.choice(t)
    if not _plain(word) or len(word) < 5:
        return None
    if kind == "cut_word":
        prefix = _cut(word, rng, least=4)
        if prefix is None:
            return None
        return TypedQuery(kind, prefix, (), prefix, _holders(titles, (), prefix))
    # typed_whole: the word must also begin a longer title word
    if not any(other != word for other in by_prefix.get(word[:4], ()) if other.startswith(word)):
        return None
    return TypedQuery(kind, word, (word,), "", _holders(titles, (word,), ""))


def generate(posts: list[dict], *, seed: int = 20261125, per_kind: int = 50) -> list[TypedQuery]:
    titles = {p["id"]: tokens(p["title"]) for p in posts}
    vocabulary = {w for t in titles.values() for w in t}
    by_prefix: dict[str, set[str]] = {}
    for w in vocabulary:
        by_prefix.setdefault(w[:4], set()).add(w)
    rng = random.Random(seed)
    order = [pid for pid in titles if len(titles[pid]) >= 2]
    out: list[TypedQuery] = []
    for kind in KINDS:
        made, seen, tries = 0, set(), 0
        while made < per_kind and tries < per_kind * 400:
            tries += 1
            t = titles[rng.choice(order)]
            if kind in ("cut_run", "cut_typo", "cut_inner_typo", "cut_real"):
                case = _run_case(kind, t, titles, vocabulary, rng)
            else:
                case = _word_case(kind, t, titles, vocabulary, rng, by_prefix)
            if case is None or case.text in seen or not 1 <= len(case.expected) <= MAX_EXPECTED:
                continue
            seen.add(case.text)
            out.append(case)
            made += 1
    return out
