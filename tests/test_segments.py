"""The small segments edits leave are merged again, the large ones never rewritten (issue 52;
search/sync/segments.py). The choice is a pure function of the segments' sizes; the merge runs on
the real node after real edits."""

import pytest
from django.core.management import call_command

from search.aliases import aliased_indices
from search.sync.segments import index_target, merge_target, shard_sizes
from tests.factories import make_post
from tests.helpers import refresh, source_of

MB = 1 << 20


def test_few_segments_need_no_merge():
    assert merge_target([1000 * MB, 5 * MB, 1 * MB], over=4, max_bytes=256 * MB) is None


def test_the_small_segments_become_one_beside_the_large():
    assert merge_target([1000 * MB, 6 * MB, 1 * MB, 1 * MB, 1 * MB, 1 * MB], over=4, max_bytes=256 * MB) == 2


def test_two_large_segments_stay_apart():
    """Asking for 2 would rewrite the 900 MB one: 3 keeps both large ones."""
    assert merge_target([1000 * MB, 900 * MB, 4 * MB, 3 * MB, 2 * MB, 1 * MB], over=4, max_bytes=256 * MB) == 3


def test_nothing_small_enough_is_left_to_lucene():
    assert merge_target([500 * MB, 400 * MB, 300 * MB, 200 * MB, 100 * MB], over=4, max_bytes=50 * MB) is None


def test_one_count_for_every_shard_the_largest_needed():
    small = [100 * MB] + [1 * MB] * 5
    two_large = [100 * MB, 90 * MB] + [1 * MB] * 5
    assert index_target([small, two_large], over=4, max_bytes=10 * MB) == 3
    assert index_target([small, [1 * MB, 1 * MB]], over=4, max_bytes=10 * MB) == 2
    assert index_target([small, [100 * MB] * 6], over=4, max_bytes=10 * MB) is None  # a shard it cannot help


def test_only_primary_copies_are_read():
    def copy(primary, *sizes):
        return {"routing": {"primary": primary}, "segments": {f"_{i}": {"size_in_bytes": s} for i, s in enumerate(sizes)}}

    answer = {"indices": {"blog-posts-1": {"shards": {"0": [copy(True, 10, 1), copy(False, 10, 1, 1)], "1": [copy(False, 5), copy(True, 7, 2)]}}}}
    assert shard_sizes(answer, "blog-posts-1") == [[10, 1], [7, 2]]


def _segments(es, index):
    shard = es.indices.segments(index=index)["indices"][index]["shards"]["0"][0]
    return {name: seg["size_in_bytes"] for name, seg in shard["segments"].items()}


@pytest.mark.django_db
def test_edits_small_segments_are_merged_and_the_large_one_kept(es, live, build_index, settings):
    posts = [make_post(f"Segment merge post {i}", "a body of words " * 200) for i in range(30)]
    build_index()  # one segment, as a rebuild leaves it
    index = aliased_indices(es, "posts")[0]
    (large,) = _segments(es, index)
    for i, post in enumerate(posts[:6]):  # edits, each made searchable by a refresh: a segment each
        with live():
            post.title = f"Edited segment post {i}"
            post.save()
        refresh(es)
    assert len(_segments(es, index)) >= 5
    settings.SEARCH = {**settings.SEARCH, "MERGE_SEGMENTS_OVER": 2}
    call_command("search_sync", "--merge-segments")
    after = _segments(es, index)
    assert len(after) == 2 and large in after  # the large segment was not rewritten
    assert [source_of(es, "posts", p.pk)["title"] for p in posts[:6]] == [f"Edited segment post {i}" for i in range(6)]
    assert es.count(index=index)["count"] == 30
