"""The JSON API's answers to repeated requests, kept per process as the bytes sent.

A repeated request (the instant box re-asking a prefix, a popular query) was answered from the
result cache by rebuilding the whole result: the cache read and unpickling, SearchResult and Hit
objects, the syntax parse, the boosts, `as_api()` and the JSON encoding, about 130 us of the view's
250 on two cores, which held one cached query at 0.57-0.69x a hello-world view's requests/s
(issue 40's floor is 0.6x). Here the finished body is kept, keyed by the exact request (the query
as typed, so the reader's casing and an unfinished last word are its own) and by the index
generation the answer was made under, as the result cache is: an index write or a rule change
moves the generation and no entry of the old one is ever read again.

An answer is kept once the result cache answered it (the request came at least twice: a query
asked once, most of them, never takes room here), for at most `serving.cache_seconds`; the bound
is `serving.answer_memo_bytes` of bodies a process, least recently used dropped first (0 turns
it off). The default, 1 MiB, holds ~200 answers of 5 KB (the load benchmark's 180 repeated
queries, which a 512 KiB memo cycled through without a hit: an LRU smaller than a loop), and
keeps a worker under issue 40's 85 MB once full (docs/benchmarks.md#memory). What the search log and /metrics
need of a search is kept beside the body, so a memo hit is logged and counted as the cached
search it is.
"""

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

from search import conf, process

# Bytes an entry costs besides its body: the key tuple and its strings, the OrderedDict's slot,
# the Served object (measured with sys.getsizeof: ~600).
ENTRY_OVERHEAD = 600


@dataclass(frozen=True)
class Served:
    """What insights' record() reads of a search (search/recording.py), for a memo hit."""

    query: str
    page: int
    total: int
    strategy: str
    showing_for: str
    round_trips: int
    took_ms: int
    cached: bool = True
    elapsed_ms: float = 0.0


class AnswerMemo:
    """An LRU of (key) -> (expires at, body, Served), bounded in bytes; shared by a process's threads."""

    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self.lock = threading.Lock()
        self.entries: OrderedDict[tuple, tuple[float, bytes, Served]] = OrderedDict()
        self.held = 0

    def get(self, key: tuple) -> tuple[bytes, Served] | None:
        with self.lock:
            found = self.entries.get(key)
            if found is None:
                return None
            if found[0] <= self.clock():
                self._drop(key)
                return None
            self.entries.move_to_end(key)
            return found[1], found[2]

    def put(self, key: tuple, body: bytes, served: Served, *, seconds: float, max_bytes: int) -> None:
        size = self.size(key, body)
        if seconds <= 0 or size > max_bytes:
            return
        with self.lock:
            self._drop(key)
            while self.entries and self.held + size > max_bytes:
                self._drop(next(iter(self.entries)))
            self.entries[key] = (self.clock() + seconds, body, served)
            self.held += size

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()
            self.held = 0

    @staticmethod
    def size(key: tuple, body: bytes) -> int:
        return len(body) + len(key[1]) + ENTRY_OVERHEAD

    def _drop(self, key: tuple) -> None:
        found = self.entries.pop(key, None)
        if found is not None:
            self.held -= self.size(key, found[1])


memo = AnswerMemo()
process.register("API answer memo", memo.clear)


def enabled() -> bool:
    serving = conf.get().serving
    return serving.answer_memo_bytes > 0 and serving.cache_seconds > 0


def key(generation: int, raw_query: str, *, page: int, sort: str, filters_key: str, detail: bool, snippets: bool, verbatim: bool = False) -> tuple:
    """The exact request under one generation. The raw query, not the normalized one: the body
    shows the reader's casing and spacing as typed (search/querying/service.py)."""
    return (generation, raw_query, page, sort, filters_key, detail, snippets, verbatim)


def served(result) -> Served:
    return Served(
        query=result.query,
        page=result.page,
        total=result.total,
        strategy=result.strategy,
        showing_for=result.showing_for,
        round_trips=result.round_trips,
        took_ms=result.took_ms,
    )
