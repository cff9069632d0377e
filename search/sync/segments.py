"""The small segments edits leave, merged again (`search_sync --every`, `search_sync --merge-segments`).

A search pays a cost per segment for each of its clauses, so `reindex` merges a new index into one
(search/sync/rebuild.py `merge`). Every refresh after an edit then adds a small segment, and
Lucene's own merge policy lets about 25 of them live beside a large one before it merges: 14
cost a search at 900,000 documents 80% of what the first merge saved
(docs/benchmarks.md#one-segment-after-a-rebuild). So the scheduler merges the smallest of them
into one when a shard copy holds more than `sync.merge_segments_over`. A forced merge to N segments
merges each copy's smallest first (Lucene's TieredMergePolicy), so asking for N rewrites only the
segments below a copy's N-1 largest; N is the smallest that keeps that rewrite under
`sync.merge_segments_max_bytes` on every copy, replicas included. So the large segments are
never rewritten by it; a copy whose small segments outgrow the bound waits for `reindex`.
"""

import logging

from elasticsearch import NotFoundError

from search import conf
from search.aliases import alias_name
from search.documents import KINDS

log = logging.getLogger(__name__)


def rewrite_bytes(sizes: list[float], keep: int) -> float:
    """What a forced merge to `keep` segments rewrites on one shard copy: its smallest segments."""
    return sum(sorted(sizes)[: len(sizes) - keep + 1]) if len(sizes) > keep else 0


def index_target(copies: list[list[float]], *, over: int, max_bytes: int) -> int | None:
    """The segment count to ask of the whole index, or None: no copy holds more than `over`, or no
    count keeps every copy's rewrite under `max_bytes`.

    A forced merge asks every copy of every shard, replicas too, for the same count, and each
    merges its own smallest segments (copies refresh and merge apart, so their segments differ):
    the count must be safe for each."""
    if not any(len(sizes) > over for sizes in copies):
        return None
    for keep in range(2, max(len(sizes) for sizes in copies)):
        if all(rewrite_bytes(sizes, keep) <= max_bytes for sizes in copies):
            return keep
    return None


def merge_target(sizes: list[float], *, over: int, max_bytes: int) -> int | None:
    """index_target of an index of one shard copy."""
    return index_target([sizes], over=over, max_bytes=max_bytes)


def copy_sizes(segments_answer: dict, index: str) -> list[list[float]]:
    """Each shard copy's searched segments, each its size weighed by its live documents (as Lucene
    orders them for a forced merge), from the `_segments` answer; primaries and replicas alike."""
    shards = segments_answer["indices"][index]["shards"].values()
    return [
        [s["size_in_bytes"] * s["num_docs"] / max(1, s["num_docs"] + s["deleted_docs"]) for s in copy["segments"].values() if s.get("search", True)]
        for copies in shards
        for copy in copies
    ]


def merge_small_segments(client) -> dict[str, int]:
    """Merge each live index's small segments where there are too many; {index: the most segments a copy holds after}."""
    sync = conf.get().sync
    merged = {}
    for kind in KINDS:
        try:
            answer = client.indices.segments(index=alias_name(kind)).body
        except NotFoundError:  # no index yet (before the first `reindex`): nothing to merge
            continue
        for index in answer["indices"]:
            target = index_target(copy_sizes(answer, index), over=sync.merge_segments_over, max_bytes=sync.merge_segments_max_bytes)
            if target is None:
                continue
            done = client.options(request_timeout=sync.merge_segments_timeout_seconds).indices.forcemerge(index=index, max_num_segments=target)
            if done.get("_shards", {}).get("failed"):
                log.warning("merging the small segments of %s: %s shard copies failed", index, done["_shards"]["failed"])
            client.indices.refresh(index=index)  # the merged segment searched now, not at the next refresh
            merged[index] = max(len(sizes) for sizes in copy_sizes(client.indices.segments(index=index).body, index))
            log.info("merged the small segments of %s: at most %d segments a copy now (asked %d)", index, merged[index], target)
    return merged
