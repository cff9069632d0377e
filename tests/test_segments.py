"""The small segments edits leave are merged again, the large ones never rewritten (issue 52;
search/sync/segments.py). The choice is a pure function of the segments' sizes; the merge runs on
the real node after real edits."""

import pytest
from django.core.management import call_command

from search.aliases import aliased_indices
from search.sync.segments import copy_sizes, index_target, merge_small_segments, merge_target
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


def test_one_count_safe_for_every_copy():
    """Every copy is asked the same count and merges its own smallest segments."""
    small = [100 * MB] + [1 * MB] * 5
    two_large = [100 * MB, 90 * MB] + [1 * MB] * 5
    assert index_target([small, two_large], over=4, max_bytes=10 * MB) == 3
    # A copy with few segments still counts: asked 2 or 3, it would rewrite its 400 MB one.
    assert index_target([[1000 * MB] + [1 * MB] * 20, [600 * MB, 500 * MB, 400 * MB, 2 * MB]], over=4, max_bytes=256 * MB) == 4
    assert index_target([small, [100 * MB] * 6], over=4, max_bytes=10 * MB) is None  # a copy it cannot help
    assert index_target([[1 * MB] * 4, [1 * MB] * 3], over=4, max_bytes=10 * MB) is None  # none holds too many


def test_the_byte_bound_keeps_more_segments():
    sizes = [1000 * MB, 300 * MB, 200 * MB, 2 * MB, 1 * MB, 1 * MB]
    assert merge_target(sizes, over=4, max_bytes=128 * MB) == 4  # 3 would rewrite the 200 MB one, 2 the 300 MB one too
    assert merge_target(sizes, over=4, max_bytes=256 * MB) == 3
    assert merge_target(sizes, over=4, max_bytes=1024 * MB) == 2


def test_every_copy_is_read_its_searched_segments_by_live_size():
    def copy(primary, *segments):
        return {"routing": {"primary": primary}, "segments": {f"_{i}": seg for i, seg in enumerate(segments)}}

    def seg(size, docs=10, deleted=0, search=True):
        return {"size_in_bytes": size, "num_docs": docs, "deleted_docs": deleted, "search": search}

    answer = {
        "indices": {
            "blog-posts-1": {
                "shards": {
                    "0": [copy(True, seg(10), seg(4, docs=5, deleted=5)), copy(False, seg(10), seg(1), seg(1), seg(9, search=False))],
                    "1": [copy(True, seg(7))],
                }
            }
        }
    }
    assert copy_sizes(answer, "blog-posts-1") == [[10, 2], [10, 1, 1], [7]]


@pytest.mark.django_db
def test_no_index_yet_nothing_to_merge(es):
    assert merge_small_segments(es) == {}


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


def test_the_schedulers_merge_runs_beside_the_rounds_one_at_a_time(monkeypatch):
    """A merge waiting on a busy node never holds up the rounds that apply the outbox."""
    import threading

    from search.management.commands.search_sync import Command
    from search.sync import segments

    started, release, calls = threading.Event(), threading.Event(), []

    def slow_merge(client):
        calls.append(client)
        started.set()
        release.wait(5)
        return {}

    monkeypatch.setattr(segments, "merge_small_segments", slow_merge)
    command = Command()
    command.merge_beside_rounds()  # returns at once: the merge runs in its thread
    assert started.wait(5) and command.merging.is_alive()
    command.merge_beside_rounds()  # the first still runs: no second merge
    release.set()
    command.merging.join(5)
    assert len(calls) == 1 and not command.merging.is_alive()
