"""The caches are invalidated per applied bulk chunk: a big document being indexed neither delays
nor hides a small edit behind it (found by the fault harness, issue 25)."""

import threading

import pytest
from django.db import connection
from elasticsearch import Elasticsearch

from blog.models import Comment
from search.querying.service import search
from search.sync import outbox
from tests.factories import make_comment, make_post
from tests.helpers import ids_in
from tests.sync_support import assert_in_sync, raw


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_big_document_neither_delays_nor_hides_a_small_edit(es, build_index, monkeypatch, settings):
    from search import generation
    from search.client import bulk_client

    """A post's document holds its comments' text, so a big comment holds up its own post's
    document; the small edit here is on another post."""
    settings.SEARCH = {**settings.SEARCH, "MAX_BULK_BYTES": 1_000_000}
    host, post = make_post("Big host"), make_post("Small host")
    small = make_comment(post, "small remark")
    build_index()
    big = raw(
        "INSERT INTO blog_comment (post_id, parent_id, author_name, comment, comment_html, created, approved, modified, edited_on_site) "
        "VALUES (%s, NULL, 'big', repeat('bigmarker lorem ipsum ', 100000), '', now(), true, now(), false) RETURNING id",
        [host.pk],
    )  # 2.2 MB, its entry before the small edit's
    Comment.objects.filter(pk=small.pk).update(comment="small remark about a quokka", comment_html="<p>small remark about a quokka</p>")
    held, release = threading.Event(), threading.Event()
    real_bulk = Elasticsearch.bulk

    def bulk(self, *args, **kwargs):  # the real node answers; the big document's request is held
        if "bigmarker" in str(kwargs.get("operations")):
            held.set()
            release.wait(60)
        return real_bulk(self, *args, **kwargs)

    monkeypatch.setattr(Elasticsearch, "bulk", bulk)
    before = generation.current()

    def scheduler():
        try:
            outbox.drain_all(batch=100, client=bulk_client())
        finally:
            connection.close()

    worker = threading.Thread(target=scheduler)
    worker.start()
    try:
        assert held.wait(10)  # the big document is "still being indexed" ...
        assert generation.current() > before  # ... and the small edit was applied and invalidated the caches first
        assert [[c.id for c in h.comments] for h in search("quokka", use_cache=False, detail=True).hits] == [[small.pk]]
    finally:
        release.set()
        worker.join(60)
    assert big in ids_in(es, "comments")
    assert_in_sync()
