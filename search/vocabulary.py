"""The known-word vocabulary: the words the index holds too often to be typos, known in every web
process without asking Elasticsearch.

Why: a word that at least KNOWN_WORD_MIN_DOCS documents hold is never corrected, so a query made
only of such words needs no suggesters and no word counts. Knowing that before the first request
lets a correctly spelled query cost one plain search, and a misspelled one ask the suggesters about
its unknown words only (search/querying/plan.py).

Built from the index itself, so it matches its analysis exactly: `reindex` runs one terms
aggregation per searched field's `exact` sub-field over the new indices once live and caught up,
keeping words with at least KNOWN_WORD_MIN_DOCS documents in that field; `search_vocabulary` does only
this (the compose scheduler runs it hourly). The fielddata this loads is frequency-filtered in the
mapping (search/documents.py) and cleared right after.

What it promises: every word it knows was, when it was built, held by at least that many
documents in one field, which is a lower bound of the count the full path makes (documents
holding the word in any field). So at build time it never knows a word the full path would
correct: it changes the cost of a search, not its answer. It knows a *subset* of those words: the
frequency filter counts per segment, so a word spread thinly over segments is left out (its
queries take the full path: same answer, one request more; 14% of them on the corpus). Between
builds it ages: a word that becomes common is not known yet (full path, same answer), and a word
whose documents are deleted stays known, so a typo of it is no longer corrected until the next
build (the hourly refresh bounds that).

Stored in PostgreSQL (search.models.Vocabulary) as sorted 8-byte hashes, 8 bytes a word; each
process reloads it only when the index generation moved *and* the stored row changed.
"""

import hashlib
import logging
import math
import threading
from array import array
from bisect import bisect_left
from dataclasses import dataclass

from django.db import DatabaseError

from search import conf, process
from search.aliases import alias_name
from search.documents import KINDS, SUGGESTER_FIELDS

log = logging.getLogger(__name__)

# A terms aggregation may return at most search.max_buckets (65,536) buckets: the words are read
# in partitions of about this many distinct words each.
PARTITION_WORDS = 20_000


def word_hash(word: str) -> int:
    """A signed 64-bit hash of the lowercased word: with 10^6 words a false "known" is ~10^-7 likely."""
    return int.from_bytes(hashlib.blake2b(word.lower().encode(), digest_size=8).digest(), "little", signed=True)


def pack(words) -> bytes:
    return array("q", sorted({word_hash(w) for w in words})).tobytes()


@dataclass(frozen=True)
class Known:
    """An immutable snapshot: membership by binary search over sorted hashes (compact: no str objects)."""

    hashes: array
    min_docs: int

    @classmethod
    def from_bytes(cls, data: bytes, min_docs: int) -> "Known":
        hashes = array("q")
        hashes.frombytes(bytes(data))
        return cls(hashes, min_docs)

    def __contains__(self, word: str) -> bool:
        h = word_hash(word)
        i = bisect_left(self.hashes, h)
        return i < len(self.hashes) and self.hashes[i] == h

    def __len__(self) -> int:
        return len(self.hashes)

    @property
    def nbytes(self) -> int:
        return self.hashes.itemsize * len(self.hashes)


# ---------------------------------------------------------------- building (reindex)


def collect(client, *, min_docs: int, index: str | None = None) -> set[str]:
    """The words at least `min_docs` documents hold in one searched field, read from `index` (by
    default the live aliases; `reindex` reads its new indices while it swaps them in)."""
    index = index or ",".join(alias_name(kind) for kind in KINDS)
    fields = list(SUGGESTER_FIELDS.values())
    try:
        sizes = client.search(index=index, size=0, aggs={f: {"cardinality": {"field": f}} for f in fields}).body
        distinct = max(sizes["aggregations"][f]["value"] for f in fields)
        partitions = max(1, math.ceil(distinct / PARTITION_WORDS))
        words: set[str] = set()
        for p in range(partitions):
            terms = {"min_doc_count": min_docs, "size": 3 * PARTITION_WORDS, "include": {"partition": p, "num_partitions": partitions}}
            body = client.search(index=index, size=0, aggs={f: {"terms": {"field": f, **terms}} for f in fields}).body
            for f in fields:
                words.update(b["key"] for b in body["aggregations"][f]["buckets"])
        return words
    finally:  # the frequency-filtered fielddata served its purpose: give the heap back
        client.indices.clear_cache(index=index, fielddata=True, fields=",".join(fields))


def store(client, *, words: set[str] | None = None) -> int:
    """Store the vocabulary (`words` already collected, or read now from the live indices);
    returns the number of words."""
    from search.models import Vocabulary

    min_docs = conf.get().ranking.known_word_min_docs
    if words is None:
        words = collect(client, min_docs=min_docs)
    Vocabulary.objects.update_or_create(prefix=conf.get().index.prefix, defaults={"min_docs": min_docs, "words": pack(words), "size": len(words)})
    return len(words)


def drop() -> None:
    from search.models import Vocabulary

    Vocabulary.objects.filter(prefix=conf.get().index.prefix).delete()


def exists() -> bool:
    from search.models import Vocabulary

    return Vocabulary.objects.filter(prefix=conf.get().index.prefix).exists()


# ---------------------------------------------------------------- reading (each web process)


class _Loaded:
    """What this process holds: the snapshot, the row's build time it came from, and the index
    generation at which that was last checked."""

    def __init__(self):
        self.lock = threading.Lock()
        self.generation = object()  # matches nothing
        self.built = None
        self.known: Known | None = None


_loaded = _Loaded()


def known_words(generation: int | None) -> Known | None:
    """The vocabulary for the index as of `generation`, or None (then every search takes the full
    path). One small PostgreSQL read per generation change per process; a reload only when a
    rebuild stored a new one."""
    state = _loaded
    if generation is None or generation == state.generation:
        return state.known
    with state.lock:
        if generation == state.generation:
            return state.known
        try:
            _refresh(state)
        except DatabaseError as exc:
            log.warning("known-word vocabulary unreadable, searching without it: %s", exc)
            return state.known
        state.generation = generation
        return state.known


def _refresh(state: _Loaded) -> None:
    from search.models import Vocabulary

    prefix, min_docs = conf.get().index.prefix, conf.get().ranking.known_word_min_docs
    row = Vocabulary.objects.filter(prefix=prefix).values_list("built", "min_docs").first()
    if row is None:
        state.built, state.known = None, None
        return
    built, row_min_docs = row
    if built == state.built:
        return
    if row_min_docs != min_docs:
        log.warning("the known-word vocabulary was built for KNOWN_WORD_MIN_DOCS=%s, not %s: run `reindex`", row_min_docs, min_docs)
        state.built, state.known = built, None
        return
    data = Vocabulary.objects.filter(prefix=prefix).values_list("words", flat=True).first()
    state.built, state.known = built, Known.from_bytes(data, min_docs) if data is not None else None


def forget() -> None:
    """Drop this process's copy (the next search reloads it)."""
    global _loaded
    _loaded = _Loaded()


process.register("known-word vocabulary", forget)
