"""The alias swap never hides a change already shown: one applied to the old indices during the
load is in the new ones at the swap, a sync at the swap waits and lands in the new indices, and a
save waits for a swap only briefly (found by the fault harness, issue 25).

Interleavings are forced with hooks on our own seams (phase functions, `Elasticsearch.bulk`
passing through to the real node); nothing fakes Elasticsearch's answers."""

import threading
import time

import pytest
from django.db import connection

from blog.models import Post
from search.aliases import alias_name
from search.models import PendingChange
from search.querying.service import search
from search.sync import outbox
from search.sync import rebuild as rebuild_module
from tests.factories import make_post
from tests.helpers import refresh, source_of
from tests.sync_support import apply_pending, assert_in_sync, write_during_the_load


@pytest.mark.django_db
def test_a_change_shown_during_the_load_is_never_hidden_by_the_swap(es, build_index, monkeypatch):
    IndicesClient = type(es.indices)  # noqa: N806 - the class whose method is the seam
    post = make_post("Swap original quokka")
    build_index()
    write_during_the_load(monkeypatch, post, "Swap edited quokka")  # applied to the old indices: readers see it
    seen_at_swap = []
    real_update = IndicesClient.update_aliases

    def update_aliases(self, *args, **kwargs):
        answer = real_update(self, *args, **kwargs)
        if not seen_at_swap:  # the very first instant after the swap, before any later phase
            seen_at_swap.append(es.get(index=alias_name("posts"), id=str(post.pk))["_source"]["title"])
            seen_at_swap.append([h.title for h in search("quokka", use_cache=False).hits])
        return answer

    monkeypatch.setattr(IndicesClient, "update_aliases", update_aliases)
    build_index()
    assert seen_at_swap == ["Swap edited quokka", ["Swap edited quokka"]]  # today: the original title, until the catch-up
    assert_in_sync()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_sync_at_the_swap_waits_and_lands_in_the_new_indices(es, build_index, monkeypatch):
    """A sync that starts while the swap holds the replay log's row waits (nothing reaches the old
    indices after the last replay), then writes through the alias into the new indices."""
    post = make_post("Barrier original")
    build_index()
    outbox.breaker.reset()  # the setup's save ran before the aliases existed (as when this test runs first)
    started, done = threading.Event(), threading.Event()
    real_swap = rebuild_module.swap_aliases

    def swap(client, new):
        def writer():
            try:
                Post.objects.filter(pk=post.pk).update(title="Barrier edited")
                started.set()
                outbox.sync_after_commit(batch=100)
                done.set()
            finally:
                connection.close()

        threading.Thread(target=writer).start()
        assert started.wait(5) and not done.wait(0.5)  # blocked (FOR SHARE) behind the swap's FOR UPDATE
        return real_swap(client, new)

    monkeypatch.setattr(rebuild_module, "swap_aliases", swap)
    build_index()
    assert done.wait(10)
    refresh(es)
    assert source_of(es, "posts", post.pk)["title"] == "Barrier edited"
    assert_in_sync()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_save_waits_for_a_swap_only_briefly(es, build_index, settings):
    """A swap holding the replay log's row (slow alias update) costs a save's sync at most the
    lock timeout: its change waits in the outbox, the sync breaker stays closed."""
    settings.SEARCH = {**settings.SEARCH, "SYNC_LOCK_TIMEOUT_SECONDS": 0.5}
    post = make_post("Save at the barrier")
    build_index()
    outbox.breaker.reset()  # the post's own sync ran before the aliases existed
    holding, release = threading.Event(), threading.Event()

    def swap_in_progress():
        from django.db import transaction

        from search.sync import replaylog

        try:
            with transaction.atomic():
                replaylog.hold()
                holding.set()
                release.wait(30)
        finally:
            connection.close()

    swapper = threading.Thread(target=swap_in_progress)
    swapper.start()
    try:
        assert holding.wait(10)
        Post.objects.filter(pk=post.pk).update(title="Saved at the barrier")
        started = time.perf_counter()
        outbox.sync_after_commit(batch=100)  # today: waits for the whole swap
        assert time.perf_counter() - started < 1.5
        assert outbox.breaker.allows() and PendingChange.objects.filter(object_id=post.pk).exists()
    finally:
        release.set()
        swapper.join(30)
    apply_pending()
    assert source_of(es, "posts", post.pk)["title"] == "Saved at the barrier"


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_an_edit_during_a_rebuild_is_searchable_at_once_until_the_swap(es, build_index, client, monkeypatch, settings):
    """Issue 49: an admin retitled a post once the rebuild had read the posts, and searches showed
    the previous title from right after the save until the rebuild ended. The save's sync gave up
    on its bulk after the reader's 1 s timeout while the node, busy with the rebuild's load, still
    held it; the generation moved on, the node applied the write later, and the answers cached in
    between kept the old title under the new generation. Forced here with a proxy holding the
    sync's bulk 1.3 s (the rebuild's own requests pass), the real node behind it; the readers
    search through /api/search/. Failed on commit 1b01720 (the first search after the save)."""
    from search.client import reset_client
    from tests.loopback import DelayingProxy
    from tests.sync_support import after_posts_load

    post = make_post("Rebuild original quokka")
    build_index()
    outbox.breaker.reset()  # the post's own sync ran before the aliases existed
    proxy = DelayingProxy(settings.ELASTICSEARCH["URL"], delay=1.3, match=(b" /_bulk?", b"require_alias=true"))
    settings.ELASTICSEARCH = {**settings.ELASTICSEARCH, "URL": proxy.url}
    reset_client()
    loaded, edited = threading.Event(), threading.Event()

    def pause_after_the_posts():
        loaded.set()
        assert edited.wait(30)

    after_posts_load(monkeypatch, pause_after_the_posts)
    rebuild_done = threading.Event()

    def rebuild():
        try:
            build_index()
        finally:
            rebuild_done.set()
            connection.close()

    def titles():
        response = client.get("/api/search/", {"q": "quokka"})
        assert response.status_code == 200
        return [hit["title"] for hit in response.json()["results"]]

    rebuilder = threading.Thread(target=rebuild)
    rebuilder.start()
    try:
        assert loaded.wait(60)
        assert titles() == titles() == ["Rebuild original quokka"]  # readers have it cached
        post.title = "Rebuild edited quokka"
        post.save()  # autocommit: its sync after the commit runs here, through the proxy
        assert proxy.held == 1
        seen = [titles() for _ in range(10)]  # the old indices are live: the edit must show at once
        edited.set()
        while not rebuild_done.is_set():  # and until the swap, and after it
            seen.append(titles())
        seen.append(titles())
    finally:
        edited.set()
        rebuilder.join(60)
        proxy.close()
    assert {tuple(t) for t in seen} == {("Rebuild edited quokka",)}, seen[:3]
    assert_in_sync()
