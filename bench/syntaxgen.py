"""A seeded set of queries in a reader's syntax, made from the corpus (pure: no I/O but reading the
corpus files), for bench/syntax_relevance.py (issue 36). Kinds:

- exclusion: a title word and `-w` (`jekyll -staticman`): w is a word the expected post does not
  hold anywhere (title, body, comments) but many other posts holding the first word do, one of
  them with the first word in its title (left in, it would rank among the first five). The first
  word is in at most EXCLUSION_TITLES titles, so that leaving out the holders of w leaves at most
  MAX_EXPECTED of them: those are expected. No one of the first five results may hold w.
- phrase: two adjacent words of a title, quoted (`"going evented"`), that few posts (at most
  FEW_PHRASE) hold side by side while more (at least MORE_APART) hold both words apart. Expected:
  the posts whose title holds them side by side. Every one of the first five results must hold
  them side by side.
- symbol: a word written with symbols (index.symbol_words: `c#`, `c++`, `f#`, `.net`) that a title holds
  as a whole word, alone or with another word of that title, either side (`c# intro`). Expected:
  the titles holding both.
- version: a name and the version number after it in a title (`rust 1.70` for "Announcing Rust
  1.70.0"), as written or cut to major.minor. Expected: the titles holding that name followed by
  the version (or a longer one it starts: 1.70 is 1.70.0 or 1.70.1, never 1.7 for 1.70).

What a post "holds" is read the way PostgreSQL's regular expressions do in bench/syntax_relevance.py
(which checks it again there, independently of Elasticsearch): case-insensitive, whole words
(\\w: letters, digits, `_`), a phrase as its words with nothing but non-word characters between
them, in the title, the body or one of the post's comments.
"""

import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

from bench.querygen import MAX_EXPECTED, load_posts
from search import symbols

KINDS = ("exclusion", "phrase", "symbol", "version")
SYMBOL_WORDS = ("c#", "c++", "f#", ".net")  # the default of search.conf's index.symbol_words
MIN_WORD = 4  # an excluded or quoted word: at least this many letters
EXCLUSION_TITLES = 6  # the first word of an exclusion: in at most this many titles
EXCLUSION_MANY = 5  # at least this many other posts hold the first word and the excluded one
COMMON = 0.05  # an excluded word, a symbol's companion: held by at most this share of the posts (not "using")
FEW_PHRASE = 4  # a quoted phrase: held side by side by at most this many posts
MORE_APART = 5  # ... and both its words held apart by at least this many more
WORD = re.compile(r"\w+")
CONTRACTION = re.compile(r"(\w+)['\u2019](?:t|ll|re|ve|d|m)\b", re.IGNORECASE)
# A name (letters, maybe joined by hyphens: "sqlite-utils") and a version number after it.
VERSION = re.compile(r"(?<![\w.-])([A-Za-z]{2,}(?:-[A-Za-z]+)*)\s+v?(\d+(?:\.\d+)+)\b(?!\.\d)")


@dataclass
class SyntaxCase:
    kind: str
    text: str
    expected: list[int] = field(default_factory=list)
    phrase: str = ""  # every one of the first five results holds it, words side by side
    excluded: str = ""  # no one of the first five results holds it


def phrase_pattern(phrase: str) -> str:
    """The words side by side: nothing but non-word characters between them (Python syntax)."""
    return r"(?<!\w)" + r"\W+".join(re.escape(w) for w in phrase.split()) + r"(?!\w)"


def load_comments(corpus: Path) -> list[dict]:
    path = corpus / "comments.ndjson"
    if not path.exists():
        return []
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def generate(
    corpus: Path,
    *,
    seed: int = 20261121,
    per_kind: int = 40,
    posts: list[dict] | None = None,
    comments: list[dict] | None = None,
    symbol_words: tuple[str, ...] = SYMBOL_WORDS,
) -> list[SyntaxCase]:
    """At most `per_kind` cases of each kind (fewer where the corpus has fewer: few titles hold a
    symbol word), in KINDS order; `symbol_words` as the index's setting (index.symbol_words)."""
    from search.stopwords import is_stop_word_of

    def is_stop_word(word: str) -> bool:  # the corpus is English; no settings read (bench/load.py)
        return is_stop_word_of(word, "en")

    posts = posts if posts is not None else load_posts(corpus)
    comments = comments if comments is not None else load_comments(corpus)
    titles = {p["id"]: p["title"] for p in posts}
    texts: dict[int, list[str]] = {p["id"]: [p["title"], p.get("body_text", "")] for p in posts}
    for c in comments:
        if c.get("post_id") in texts:
            texts[c["post_id"]].append(c.get("comment", ""))
    held = {pid: {w for t in ts for w in WORD.findall(t.lower())} for pid, ts in texts.items()}
    title_words = {pid: WORD.findall(t.lower()) for pid, t in titles.items()}
    document_frequency: dict[str, int] = {}
    for words in held.values():
        for w in words:
            document_frequency[w] = document_frequency.get(w, 0) + 1

    # "didn" of "didn't": a word to PostgreSQL's \m...\M, none to Elasticsearch (one token, "didn't").
    contracted = {m.group(1).lower() for ts in texts.values() for t in ts for m in CONTRACTION.finditer(t)}

    def plain(w: str, least: int = MIN_WORD) -> bool:
        return w.isascii() and w.isalpha() and len(w) >= least and not is_stop_word(w) and w not in contracted

    def distinctive(w: str) -> bool:
        return document_frequency.get(w, 0) <= COMMON * len(held)

    def related(a: str, b: str) -> bool:
        """One word a form of the other, as far as a reader would see ("risk -risks")."""
        return a[:5] == b[:5] or a.startswith(b) or b.startswith(a)

    def holders(word: str) -> list[int]:
        return [pid for pid, words in held.items() if word in words]

    def side_by_side(phrase: str, among) -> list[int]:
        found = re.compile(phrase_pattern(phrase), re.IGNORECASE)
        return [pid for pid in among if any(found.search(t) for t in texts[pid])]

    def named(name: str) -> bool:
        """A name before a version: not a stop word or "version", and written as a name (a capital,
        a hyphen) or a word few posts hold ("over 1.2 trillion" is no name)."""
        word = name.lower()
        if is_stop_word(word) or word in ("version", "release") or not all(plain(part, 1) for part in word.split("-")):
            return False
        return name[0].isupper() or "-" in name or distinctive(word)

    rng = random.Random(seed)
    order = sorted(titles)
    rng.shuffle(order)
    seen: set[str] = set()
    cases: list[SyntaxCase] = []

    def add(case: SyntaxCase) -> bool:
        if case.text in seen or not case.expected or len(case.expected) > MAX_EXPECTED:
            return False
        seen.add(case.text)
        cases.append(case)
        return True

    def exclusions():
        for pid in order:
            candidates = [w for w in dict.fromkeys(title_words[pid]) if plain(w)]
            if not candidates:
                continue
            first = rng.choice(candidates)
            in_titles = [p for p, words in title_words.items() if first in words]
            if len(in_titles) > EXCLUSION_TITLES:
                continue
            others = [p for p in holders(first) if p != pid]
            # The excluded word is held by another post with the first word in its title: left in,
            # that post would rank among the first five.
            rivals = set().union(*(held[p] for p in in_titles if p != pid))
            counts: dict[str, int] = {}
            for p in others:
                for w in held[p]:
                    counts[w] = counts.get(w, 0) + 1
            options = sorted(
                (
                    w
                    for w, n in counts.items()
                    if n >= EXCLUSION_MANY and w in rivals and not related(w, first) and w not in held[pid] and plain(w) and distinctive(w)
                ),
                key=lambda w: (-counts[w] / document_frequency[w], -counts[w], w),  # the words that go with the first one
            )[:5]
            if not options:
                continue
            excluded = rng.choice(options)
            expected = [p for p in in_titles if excluded not in held[p]]
            yield SyntaxCase("exclusion", f"{first} -{excluded}", expected, excluded=excluded)

    def phrases():
        for pid in order:
            words = title_words[pid]
            pairs = [(a, b) for a, b in zip(words, words[1:], strict=False) if plain(a) and plain(b) and a != b]
            if not pairs:
                continue
            phrase = " ".join(rng.choice(pairs))
            a, b = phrase.split()
            both = [p for p, words in held.items() if a in words and b in words]
            together = side_by_side(phrase, both)
            if len(together) > FEW_PHRASE or len(both) - len(together) < MORE_APART:
                continue
            expected = [p for p in together if re.search(phrase_pattern(phrase), titles[p], re.IGNORECASE)]
            yield SyntaxCase("phrase", f'"{phrase}"', expected, phrase=phrase)

    def symbol_cases():
        found = symbols.matcher(tuple(symbol_words))
        made = []
        for pid in sorted(titles):
            for symbol in dict.fromkeys(m.group().lower() for m in found.finditer(titles[pid])):
                with_symbol = [p for p in titles if re.search(symbols.pattern(symbol), titles[p], re.IGNORECASE)]
                made.append(SyntaxCase("symbol", symbol, with_symbol))
                spelled = set(WORD.findall(symbol))
                for w in dict.fromkeys(title_words[pid]):
                    if not plain(w, 3) or w in spelled or not distinctive(w):
                        continue
                    expected = [p for p in with_symbol if w in title_words[p]]
                    made.append(SyntaxCase("symbol", f"{symbol} {w}", expected))
                    made.append(SyntaxCase("symbol", f"{w} {symbol}", expected))
        rng.shuffle(made)
        yield from made

    def versions():
        for pid in order:
            found = [m for m in VERSION.finditer(titles[pid]) if named(m.group(1))]
            if not found:
                continue
            m = rng.choice(found)
            name, version = m.group(1).lower(), m.group(2)
            if version.count(".") >= 2 and rng.random() < 0.5:
                version = ".".join(version.split(".")[:2])
            written = re.compile(rf"(?<![\w.-]){re.escape(name)}\s+v?{re.escape(version)}(?:\.\d+)*\b(?!\.\d)", re.IGNORECASE)
            expected = [p for p, t in titles.items() if written.search(t)]
            yield SyntaxCase("version", f"{name} {version}", expected)

    for make in (exclusions, phrases, symbol_cases, versions):
        made = 0
        for case in make():
            if made >= per_kind:
                break
            made += add(case)
    return cases
