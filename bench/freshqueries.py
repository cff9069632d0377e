"""Pools of distinct queries for the load benchmark: misspelled, correctly spelled and keystrokes (a
title typed a letter at a time, the last word unfinished), each query used once, so that no cache
(ours, or Elasticsearch's request cache) flatters a candidate.

A cached answer is what a repeated query costs; the question the load benchmark asks of the
uncached candidates is what a query the server has *never seen* costs. So each pool holds
thousands of distinct queries (distinct after lowercasing, the result cache's key) made the way
readers type them: 1-3 consecutive words of a post's title or text, and for the misspelled pool
one of them (a word of at least MIN_WORD letters) with one mechanical typo (bench/querygen.py's)
that is not itself a word of the corpus. bench/load.py cuts each pool into disjoint slices: one
for warming a candidate up and one per round, and every candidate gets its own slices.

Pure but for reading the corpus file; seeded, so a run can be repeated.
"""

import random
from pathlib import Path

from bench.querygen import MECHANICAL, MIN_WORD, load_posts, tokens, typo

MISSPELLED, CORRECT, KEYSTROKE = "misspelled", "correct", "keystroke"
GIVE_UP = 200_000  # draws in a row that found nothing new


def _windows(posts: list[dict], rng: random.Random):
    """Endless 1-3 word windows of titles (one in four) and texts, as a reader might search."""
    texts = [tokens(p["title"]) for p in posts] + [tokens(p.get("body_text", ""))[:400] for p in posts]
    titles = len(posts)
    texts = [t for t in texts if t]
    while True:
        i = rng.randrange(titles) if rng.random() < 0.25 else rng.randrange(len(texts))
        words = texts[i]
        n = min(rng.choice((1, 2, 2, 3)), len(words))
        start = rng.randrange(len(words) - n + 1)
        yield words[start : start + n]


def _keystrokes(posts: list[dict], rng: random.Random):
    """Endless as-you-type queries: 1-3 words of a title typed a letter at a time, every state
    with at least 3 letters of the last word and at least one still missing ("firefox ext",
    "firefox exte", ...), as the instant box sends them."""
    titles = [t for t in (tokens(p["title"]) for p in posts) if t]
    while True:
        words = rng.choice(titles)
        n = min(rng.choice((1, 2, 2, 3)), len(words))
        start = rng.randrange(len(words) - n + 1)
        *head, last = words[start : start + n]
        for k in range(3, len(last)):
            yield [*head, last[:k]]


def pool(corpus: Path, *, kind: str, size: int, seed: int = 20261122, posts: list[dict] | None = None) -> list[str]:
    """`size` distinct queries of `kind` (MISSPELLED, CORRECT or KEYSTROKE), or all there are: the
    titles' keystroke states are finite (about 160,000 on the corpus), so once `GIVE_UP` drawn in a
    row were all seen before the pool is returned short (the load benchmark then marks a candidate
    that ran out of queries) instead of drawing forever."""
    if kind not in (MISSPELLED, CORRECT, KEYSTROKE):
        raise ValueError(kind)
    posts = posts if posts is not None else load_posts(corpus)
    vocabulary = set()
    for p in posts:
        vocabulary.update(tokens(p["title"]))
        vocabulary.update(tokens(p.get("body_text", "")))
    rng = random.Random(f"{seed}:{kind}")
    seen: set[str] = set()
    out: list[str] = []
    stale = 0
    for words in _keystrokes(posts, rng) if kind == KEYSTROKE else _windows(posts, rng):
        if len(out) >= size:
            break
        if not any(w.isalpha() for w in words):
            continue
        if kind == MISSPELLED:
            targets = [i for i, w in enumerate(words) if len(w) >= MIN_WORD and w.isalpha()]
            if not targets:
                continue
            i = rng.choice(targets)
            wrong = typo(words[i], rng.choice(MECHANICAL), rng)
            if wrong == words[i] or wrong in vocabulary:
                continue
            words = words[:i] + [wrong] + words[i + 1 :]
        text = " ".join(words)
        if text not in seen:
            seen.add(text)
            out.append(text)
            stale = 0
        else:
            stale += 1
            if stale >= GIVE_UP:
                break
    return out


def slices(queries: list[str], count: int) -> list[list[str]]:
    """`count` disjoint, equal slices of a pool (the remainder is left out)."""
    n = len(queries) // count
    if n == 0:
        raise ValueError(f"a pool of {len(queries)} cannot make {count} slices")
    return [queries[i * n : (i + 1) * n] for i in range(count)]
