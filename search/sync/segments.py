"""The small segments edits leave, merged again (`search_sync --every`, `search_sync --merge-segments`).

A search pays a cost per segment for each of its clauses, so `reindex` merges a new index into one
(search/sync/rebuild.py `merge`). Every refresh after an edit then adds a small segment, and
Lucene's own merge policy lets about 25 of them live beside a large one before it merges: 14
cost a search at 900,000 documents 80% of what the first merge saved
(docs/benchmarks.md#one-segment-after-a-rebuild). So the scheduler merges the smallest of them
into one when an index holds more than `sync.merge_segments_over`. A forced merge to N segments
merges the smallest first (Lucene's TieredMergePolicy), so asking for N rewrites only the
segments below the N-1 largest; N is the smallest that keeps that rewrite under
`sync.merge_segments_max_bytes`. The large segments are never rewritten by it.
"""

import logging

from search import conf
from search.aliases import alias_name
from search.documents import KINDS

log = logging.getLogger(__name__)


def merge_target(sizes: list[int], *, over: int, max_bytes: int) -> int | None:
    """The segment count to merge one shard copy down to, or None: no merge needed or none small enough.

    With N asked, the smallest len(sizes) - N + 1 segments become one."""
    if len(sizes) <= over:
        return None
    ordered = sorted(sizes)
    for keep in range(2, len(sizes)):
        if sum(ordered[: len(sizes) - keep + 1]) <= max_bytes:
            return keep
    return None


def shard_sizes(segments_answer: dict, index: str) -> list[list[int]]:
    """Each primary shard's segment sizes in bytes, from the `_segments` answer."""
    shards = segments_answer["indices"][index]["shards"].values()
    return [[s["size_in_bytes"] for s in copy["segments"].values()] for copies in shards for copy in copies if copy["routing"]["primary"]]


def index_target(per_shard: list[list[int]], *, over: int, max_bytes: int) -> int | None:
    """One count for the whole index (a forced merge asks every shard the same): the largest any
    shard needs, so no shard rewrites more than its bound."""
    targets = [merge_target(sizes, over=over, max_bytes=max_bytes) for sizes in per_shard]
    if any(t is None and len(sizes) > over for t, sizes in zip(targets, per_shard, strict=True)):
        return None  # a shard whose small segments are too large: leave them to Lucene and reindex
    wanted = [t for t in targets if t is not None]
    return max(wanted) if wanted else None


def merge_small_segments(client) -> dict[str, int]:
    """Merge each live index's small segments where there are too many; {index: segments asked}."""
    sync = conf.get().sync
    merged = {}
    for kind in KINDS:
        answer = client.indices.segments(index=alias_name(kind)).body
        for index in answer["indices"]:
            target = index_target(shard_sizes(answer, index), over=sync.merge_segments_over, max_bytes=sync.merge_segments_max_bytes)
            if target is None:
                continue
            client.options(request_timeout=None).indices.forcemerge(index=index, max_num_segments=target)
            client.indices.refresh(index=index)  # the merged segment searched now, not at the next refresh
            merged[index] = target
            log.info("merged the small segments of %s into %d segments", index, target)
    return merged
