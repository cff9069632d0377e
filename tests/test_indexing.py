"""The indexer against real Elasticsearch and PostgreSQL: sync, outbox, zero-downtime reindex."""

import psycopg2
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.utils import timezone

from blog.models import Comment, Post
from search.aliases import alias_name, aliased_indices
from search.models import PendingChange
from search.sync import indexing, outbox
from search.sync import rebuild as rebuild_module
from tests.factories import make_comment, make_post
from tests.helpers import ids_in, refresh, source_of

pytestmark = pytest.mark.django_db


def test_to_search_doc_is_a_plain_dict():
    post = make_post("Plain dict", "Body with <b>tags</b>", tags=["x"])
    doc = indexing.post_to_doc(post)
    assert doc["title"] == "Plain dict" and doc["text"] == "Body with tags" and doc["tags"] == ["x"]
    assert doc["url"] == post.get_absolute_url()
    comment = make_comment(post, "Nice *post*")
    cdoc = indexing.comment_to_doc(comment)
    assert cdoc["comment"] == "Nice post" and cdoc["post_title"] == "Plain dict"
    assert cdoc["url"] == f"{post.get_absolute_url()}#comment-{comment.pk}"


def test_create_update_delete_propagate(es, live):
    with live():
        post = make_post("Propagation test", "original body")
    assert post.pk in ids_in(es, "posts")
    with live():
        post.title = "Propagation renamed"
        post.save()
    refresh(es)
    assert source_of(es, "posts", post.pk)["title"] == "Propagation renamed"
    with live():
        comment = make_comment(post, "a comment")
    assert comment.pk in ids_in(es, "comments")
    with live():
        comment.delete()
    assert comment.pk not in ids_in(es, "comments")
    with live():
        post.delete()
    assert post.pk not in ids_in(es, "posts")
    assert PendingChange.objects.count() == 0


def test_unapprove_and_unpublish_remove_documents(es, live):
    with live():
        post = make_post("Visibility test")
        comment = make_comment(post, "approved comment")
    assert comment.pk in ids_in(es, "comments")
    with live():
        comment.approved = False
        comment.save()
    assert comment.pk not in ids_in(es, "comments")
    with live():
        comment.approved = True
        comment.save()
        post.published = False
        post.save()
    assert post.pk not in ids_in(es, "posts")
    assert comment.pk not in ids_in(es, "comments")  # a hidden post hides its comments
    with live():
        post.published = True
        post.save()
    assert post.pk in ids_in(es, "posts") and comment.pk in ids_in(es, "comments")


def test_post_title_change_updates_its_comments_copies(es, live):
    with live():
        post = make_post("Old title")
        comment = make_comment(post, "hello")
    with live():
        post.title = "New shiny title"
        post.save()
    refresh(es)
    assert source_of(es, "comments", comment.pk)["post_title"] == "New shiny title"


def test_saves_succeed_while_elasticsearch_is_down_and_nothing_is_lost(es, live, es_down):
    with live():
        post = make_post("Written during the outage", "outage body")
        comment = make_comment(post, "comment during outage")
        post.title = "Edited during the outage"
        post.save()
    assert Post.objects.filter(pk=post.pk).exists()  # the save itself succeeded
    assert PendingChange.objects.filter(kind="post", object_id=post.pk).exists()
    assert PendingChange.objects.filter(kind="comment", object_id=comment.pk).exists()
    with pytest.raises(CommandError, match="still waiting. Nothing was lost"):
        call_command("search_sync")
    # An outage is not the entries' fault: recorded, never counted towards the dead-letter cap.
    assert PendingChange.objects.exclude(last_error="").exists()
    assert not PendingChange.objects.filter(attempts__gt=0).exists()

    # Elasticsearch is back: `search_sync` applies everything.
    restore_client()
    call_command("search_sync")
    assert PendingChange.objects.count() == 0
    refresh(es)
    assert source_of(es, "posts", post.pk)["title"] == "Edited during the outage"
    assert comment.pk in ids_in(es, "comments")


def test_next_successful_sync_applies_the_backlog(es, live, es_down):
    with live():
        stranded = make_post("Stranded by the outage")
    assert PendingChange.objects.filter(object_id=stranded.pk).exists()
    restore_client()
    with live():
        make_post("Saved after recovery")
    assert PendingChange.objects.count() == 0
    assert stranded.pk in ids_in(es, "posts")


def restore_client():
    """Undo es_down inside a test (the fixture restores the original settings at teardown)."""
    from django.conf import settings

    from search import conf
    from search.client import reset_client
    from search.sync import outbox

    settings.ELASTICSEARCH = {**settings.ELASTICSEARCH, "URL": _real_url(), "TIMEOUT": 2.0}
    conf.reload()  # a plain assignment sends no setting_changed
    reset_client()
    outbox.breaker.reset()


def _real_url():
    import os

    return os.environ.get("ELASTICSEARCH_URL", "http://127.0.0.1:9200")


def test_reindex_counts_match_visible_rows(es, build_index):
    posts = [make_post(f"Count post {i}") for i in range(7)]
    make_post("Hidden draft", published=False)
    make_post("Hidden future", days_ago=-5)
    for p in posts[:3]:
        make_comment(p, "visible comment")
    make_comment(posts[0], "invisible comment", approved=False)
    report = build_index()
    assert {k.kind: k.indexed for k in report.kinds} == {"posts": 7, "comments": 3}
    for kind, qs in (("posts", Post.objects.visible()), ("comments", Comment.objects.visible())):
        assert es.count(index=alias_name(kind))["count"] == qs.count()


def test_reindex_swaps_aliases_and_removes_old_indices(es, build_index):
    make_post("Swap me")
    build_index()
    first = aliased_indices(es, "posts")
    build_index(keep_old=True)
    second = aliased_indices(es, "posts")
    assert first != second and len(second) == 1
    assert es.indices.exists(index=first[0])  # kept with --keep-old
    report = build_index()  # the kept one is stale now: cleaned up
    assert first[0] in report.removed_stale
    assert not es.indices.exists(index=first[0]) and not es.indices.exists(index=second[0])


def test_failed_reindex_leaves_search_answering_from_the_old_index(es, build_index, monkeypatch):
    post = make_post("Survivor post")
    build_index()
    before = aliased_indices(es, "posts")

    def broken(kind, index, *args, **kwargs):
        yield from ()
        raise RuntimeError("database went away mid-rebuild")

    monkeypatch.setattr(rebuild_module, "iter_index_actions", broken)
    with pytest.raises(CommandError, match="live indices are unchanged"):
        call_command("reindex", "--no-progress")
    assert aliased_indices(es, "posts") == before
    assert post.pk in ids_in(es, "posts")
    # Nothing half-built is left behind.
    assert sorted(es.indices.get(index=f"{alias_name('posts')}-2*").body) == before


def test_writes_during_a_rebuild_are_caught_up(es, build_index, monkeypatch):
    early = make_post("Early post")
    build_index()
    original = rebuild_module.iter_index_actions
    doomed = make_post("Deleted mid-rebuild")

    def read_then_write(kind, index, *rest):
        yield from original(kind, index, *rest)
        if kind == "posts":  # every post read: writers commit while the rebuild is loading (their syncs go to the old index)
            Post.objects.filter(pk=early.pk).update(title="Changed mid-rebuild", modified=timezone.now())
            Post.objects.create(title="Born mid-rebuild", slug="born-mid-rebuild")
            Post.objects.filter(title="Early post").exclude(pk=early.pk).delete()
            Post.objects.filter(pk=doomed.pk).delete()
            # the scheduler applies them to the old index and empties the outbox: only the
            # catch-up (the replay log) can bring them into the new one
            assert outbox.drain_all(batch=100).applied >= 4
            assert not PendingChange.objects.filter(replay=False).exists()

    monkeypatch.setattr(rebuild_module, "iter_index_actions", read_then_write)
    build_index()
    refresh(es)
    ids = ids_in(es, "posts")
    assert source_of(es, "posts", early.pk)["title"] == "Changed mid-rebuild"
    assert Post.objects.get(slug="born-mid-rebuild").pk in ids
    assert doomed.pk not in ids


def test_concurrent_reindex_is_refused(build_index):
    build_index()
    params = connection.get_connection_params()
    other = psycopg2.connect(**{k: v for k, v in params.items() if k in ("dbname", "user", "password", "host", "port")})
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s)", [rebuild_module._lock_key()])
        with pytest.raises(CommandError, match="another reindex is running"):
            call_command("reindex", "--no-progress")
    finally:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [rebuild_module._lock_key()])
        other.close()
    build_index()  # released by the other session: runs again


def test_writes_never_auto_create_an_index_without_aliases(es, db, django_capture_on_commit_callbacks):
    # The aliases do not exist (as before the first reindex). A save must not create a concrete
    # index named like the alias; the change waits in the outbox instead.
    for kind in ("posts", "comments"):
        for index in aliased_indices(es, kind):
            es.indices.delete(index=index)
    indexing.forget_aliases()
    with django_capture_on_commit_callbacks(execute=True):
        post = make_post("Before any reindex")
    assert not es.indices.exists(index=alias_name("posts"))
    assert PendingChange.objects.filter(object_id=post.pk).exists()


def _segments(es, index: str) -> int:
    return sum(len(shard[0]["segments"]) for shard in es.indices.segments(index=index)["indices"][index]["shards"].values())


def test_merge_leaves_one_segment_and_every_document_searchable(es, build_index):
    """A search pays a cost per segment for each clause: a rebuilt index is merged before the swap."""
    for i in range(3):
        make_post(f"Segment post {i}")
    build_index()
    index = aliased_indices(es, "posts")[0]
    for i in range(3):  # three more segments: one document, then a refresh, each
        es.index(index=index, id=f"extra-{i}", document={"title": f"extra {i}"}, refresh=True)
    assert _segments(es, index) >= 2
    rebuild_module.merge(es, index, 0)  # 0: left as loaded
    assert _segments(es, index) >= 2
    rebuild_module.merge(es, index, 1)
    assert _segments(es, index) == 1
    assert es.count(index=index)["count"] == 6


def test_reindex_merges_its_new_indices(es, build_index, monkeypatch, settings):
    merged = []
    real = rebuild_module.merge
    monkeypatch.setattr(rebuild_module, "merge", lambda client, names, segments: merged.append((names, segments)) or real(client, names, segments))
    settings.SEARCH = {**settings.SEARCH, "MERGE_SEGMENTS": 2}
    make_post("Merged post")
    build_index()
    names, segments = merged[0]
    assert segments == 2 and set(names.split(",")) == {aliased_indices(es, "posts")[0], aliased_indices(es, "comments")[0]}


def test_a_failed_merge_costs_speed_not_the_rebuild(es, build_index, monkeypatch):
    """A merge only buys speed: one that fails (or outlasts its timeout) leaves the new index unmerged and swapped in."""
    from elasticsearch import ConnectionTimeout

    def timed_out(self, **kwargs):
        raise ConnectionTimeout("merge timed out")

    monkeypatch.setattr(type(es.indices), "forcemerge", timed_out)
    post = make_post("Unmerged but live")
    report = build_index()
    assert {k.kind: k.indexed for k in report.kinds} == {"posts": 1, "comments": 0}
    assert ids_in(es, "posts") == {post.pk}
