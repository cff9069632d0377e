"""A reader's query syntax: "quoted phrases" and -exclusions (pure: text in, plain values out).

Why a parser of its own and not Elasticsearch's `query_string`: that one raises on an unbalanced
quote or a stray operator (a 400 for a reader's typo), knows operators a blog's readers never
meant (`AND`, `field:`, `~`), and would bypass the typo correction. Here every input parses:

- `"going evented"`: a phrase, the words side by side as written (the `.exact` fields: no typo
  correction, no stemming). A quote without a partner (an odd one, the last) is a word boundary.
- `-word`, `-"a phrase"`: left out. Only at the start of a word, and only before a word that
  starts with a letter and has two characters or more: `e-mail` and `x-ray` are words,
  `hexdump -C` searches for `-C` (an option, not an exclusion), `-1` is a number.
- the rest, the free text, is searched and corrected as before.

The searched text is the phrases' words, then the free text: the phrases rank and highlight as
words too, and the last word of the free text stays the one an unfinished query completes.
"""

from dataclasses import dataclass

from search.documents import EXACT, SEARCHED_FIELDS
from search.words import words

QUOTES = '"\u201c\u201d\u201e'  # straight, and the curly ones a phone keyboard types
MINUS = "-\u2212"


@dataclass(frozen=True)
class Parsed:
    free: str = ""  # what is searched and corrected as before
    phrases: tuple[str, ...] = ()  # each must appear as written, words side by side
    exclusions: tuple[str, ...] = ()  # words and phrases no result may hold
    last_free: bool = True  # the query ends in a free word (which may be unfinished)

    @property
    def searched(self) -> str:
        """The text the tiers rank by: the phrases' words, then the free text."""
        return " ".join(p for p in (*self.phrases, self.free) if p)

    @property
    def fixed_words(self) -> int:
        """How many leading words of `searched` come from phrases (never corrected)."""
        return sum(len(words(p)) for p in self.phrases)

    @property
    def only_exclusions(self) -> bool:
        """Nothing to search for, only words to leave out."""
        return bool(self.exclusions) and not words(self.searched)

    def as_dict(self) -> dict:
        return {"free": self.free, "phrases": list(self.phrases), "exclusions": list(self.exclusions)}

    def without(self, *, phrase: str | None = None, exclusion: str | None = None) -> str:
        """The query written again without one phrase or exclusion: the phrases quoted, the free
        text, then the exclusions (the page's removable chips)."""
        quoted = lambda text: f'"{text}"' if len(words(text)) > 1 else text  # noqa: E731
        kept = [f'"{p}"' for p in self.phrases if p != phrase] + ([self.free] if self.free else [])
        return " ".join(kept + [f"-{quoted(e)}" for e in self.exclusions if e != exclusion])

    def showing(self, corrected: str) -> str:
        """A correction of `searched` as the reader wrote it: the phrases quoted, untouched."""
        if not self.phrases:
            return corrected
        rest = words(corrected)[self.fixed_words :]
        tail = corrected[rest[0][0] :] if rest else ""
        return " ".join([*(f'"{p}"' for p in self.phrases), tail]).strip()


def _paired(query: str) -> set[int]:
    """The positions of the quotes that have a partner (left to right; an odd last one has none)."""
    found = [i for i, ch in enumerate(query) if ch in QUOTES]
    return set(found[: len(found) - len(found) % 2])


def _excludes(word: str) -> bool:
    return len(word) >= 2 and word[0].isalpha()


def _clean(text: str) -> str:
    return " ".join(text.split())


def _pieces(query: str) -> list[tuple[str, str]]:
    """(kind, text) in order: kind is "word", "phrase", "-word" or "-phrase"."""
    paired, out, i, n = _paired(query), [], 0, len(query)
    text = "".join(" " if ch in QUOTES and k not in paired else ch for k, ch in enumerate(query))
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        negated = text[i] in MINUS and i + 1 < n and (i + 1 in paired or not text[i + 1].isspace())
        start = i + 1 if negated else i
        if start in paired:
            end = min(k for k in paired if k > start)
            out.append(("-phrase" if negated else "phrase", _clean(text[start + 1 : end])))
            i = end + 1
            continue
        end = start
        while end < n and not text[end].isspace() and end not in paired:
            end += 1
        if negated and _excludes(text[start:end]):
            out.append(("-word", text[start:end]))
        else:
            out.append(("word", text[i:end]))
        i = end
    return out


def parse(query: str) -> Parsed:
    """The phrases, exclusions and free text of a (normalized) query; any text parses."""
    pieces = [(kind, text) for kind, text in _pieces(query) if text and (kind.endswith("word") or words(text))]
    of = lambda *kinds: tuple(dict.fromkeys(t for k, t in pieces if k in kinds))  # noqa: E731
    free = " ".join(t for k, t in pieces if k == "word")
    return Parsed(free=free, phrases=of("phrase"), exclusions=of("-word", "-phrase"), last_free=bool(pieces) and pieces[-1][0] == "word")


def _as_written(text: str) -> dict:
    """`text` as a phrase in any searched field, words as written (a word alone is a phrase too)."""
    return {"multi_match": {"query": text, "type": "phrase", "fields": [f"{f}.{EXACT}" for f in SEARCHED_FIELDS]}}


def restricted(query: dict, parsed: Parsed | None, excluded_posts: tuple[int, ...] = ()) -> dict:
    """The tiered bool query narrowed by the syntax: each phrase a filter, each exclusion (and the
    posts excluded_request() found holding one) a must_not. A document qualifies on its own: a
    comment holding the phrase keeps its post in the results (as the entry it leads)."""
    if parsed is None or not (parsed.phrases or parsed.exclusions):
        return query
    inner = dict(query["bool"])
    inner["filter"] = [*inner.get("filter", []), *(_as_written(p) for p in parsed.phrases)]
    not_ = [_as_written(e) for e in parsed.exclusions]
    if excluded_posts:
        not_.append({"terms": {"post_id": list(excluded_posts)}})
    if not_:
        inner["must_not"] = [*inner.get("must_not", []), *not_]
    return {"bool": inner}


# The terms aggregation of excluded_request() (excluded_posts() reads it).
EXCLUDED = "excluded"


def excluded_request(parsed: Parsed, *, limit: int) -> dict:
    """The posts any of whose documents (the post, one of its comments) holds an excluded word or
    phrase: a post is left out whole, and no single search can see a post's comments from the post."""
    clauses = [_as_written(e) for e in parsed.exclusions]
    return {
        "size": 0,
        "track_total_hits": False,
        "query": {"bool": {"should": clauses, "minimum_should_match": 1}},
        "aggs": {EXCLUDED: {"terms": {"field": "post_id", "size": limit}}},
    }


def excluded_posts(response: dict) -> tuple[tuple[int, ...], bool]:
    """(the post ids of excluded_request()'s answer, whether that is all of them)."""
    agg = response.get("aggregations", {}).get(EXCLUDED, {})
    ids = tuple(int(b["key"]) for b in agg.get("buckets", []))
    return ids, not agg.get("sum_other_doc_count", 0)
