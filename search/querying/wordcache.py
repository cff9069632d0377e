"""A cache of what the suggesters and the word counts said about each typed word they were asked
about (the words the process's dictionary cannot answer for, or every word while none is stored).

A term suggester treats every token on its own, and a word's document count does not depend on
the other words, so both can be cached per word and reassembled for any query containing it.
With every word of a query cached, the alternatives are known before any request is made and a
misspelled query takes one round trip instead of two. Keys carry the index generation, like the
result cache, so an index change invalidates them at once.
"""

import hashlib
import json

from search.documents import SUGGESTER_FIELDS
from search.querying.resultcache import backend, guarded, namespace
from search.querying.suggestions import KNOWN_WORDS
from search.words import words

_VERSION = "w1"


def _key(word: str, *, generation: int, options: dict) -> str:
    digest = hashlib.sha1(f"{word.lower()}\x00{json.dumps(options, sort_keys=True)}".encode()).hexdigest()
    return f"search:{_VERSION}:{namespace()}:{generation}:{digest}"


def lookup(query: str, *, generation: int, options: dict, seconds: int, only: list[int] | None = None) -> tuple[dict, dict] | None:
    """(suggest, aggregations) rebuilt for the whole query (or for the words at the indices
    `only`), or None unless every one of those words is cached."""
    spans = [(i, span) for i, span in enumerate(words(query)) if only is None or i in only]
    if not spans or seconds <= 0:
        return None
    keys = [_key(w, generation=generation, options=options) for _, (_, _, w) in spans]
    found = guarded(lambda: backend().get_many(keys), {})
    if len(found) < len(keys):
        return None
    suggest = {f"{name}_terms": [] for name in SUGGESTER_FIELDS}
    buckets = {}
    for (i, (start, _, _)), key in zip(spans, keys, strict=True):
        count, entries = found[key]
        buckets[f"w{i}"] = {"doc_count": count}
        for name, word_entries in entries.items():
            for text, offset, length, options_ in word_entries:
                suggest[name].append({"text": text, "offset": start + offset, "length": length, "options": [{"text": t, "score": s} for t, s in options_]})
    return suggest, {KNOWN_WORDS: {"words": {"buckets": buckets}}}


def _inside(entry: dict, query: str, start: int, end: int) -> bool:
    """The entry lies wholly inside the word and is its text: a misplaced entry (offsets gone
    wrong) must never be cached under a word for every later query to reuse. A word whose
    entries are not all provably its own is not cached at all (an entry that is not the word's
    text as typed may also be a folded "café" or a possessive "jekyll's": one request more)."""
    offset, length = int(entry["offset"]), int(entry["length"])
    return start <= offset and offset + length <= end and str(entry.get("text", "")).lower() == query[offset : offset + length].lower()


def store(query: str, suggest: dict, aggregations: dict, *, generation: int, options: dict, seconds: int, only: list[int] | None = None) -> None:
    """Split a response's suggestions and counts by word (only the words at the indices `only`,
    those it was asked about) and cache each word (compact tuples)."""
    if seconds <= 0:
        return
    buckets = aggregations.get(KNOWN_WORDS, {}).get("words", {}).get("buckets", {})
    values = {}
    for i, (start, end, word) in enumerate(words(query)):
        if only is not None and i not in only:
            continue
        mine = {name: [e for e in suggest[name] if start <= int(e["offset"]) < end] for name in suggest}
        if not all(_inside(e, query, start, end) for found in mine.values() for e in found):
            continue  # not provably this word's (folded or possessive tokens too): not cached
        entries = {
            name: [(e["text"], e["offset"] - start, e["length"], [(o["text"], o["score"]) for o in e.get("options", [])]) for e in found]
            for name, found in mine.items()
        }
        values[_key(word, generation=generation, options=options)] = (buckets.get(f"w{i}", {}).get("doc_count", 0), entries)
    guarded(lambda: backend().set_many(values, seconds))
