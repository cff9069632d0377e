"""Issue 10, "never lose a change": each scenario forced against the real services.

Interleavings are forced with hooks (monkeypatched phases, threads and events); what is asserted
is what a reader or an operator would check afterwards: the document is (not) searchable, and
`search_check` finds no difference between PostgreSQL and the index.
"""

import threading
import time
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.db.models.signals import post_save
from django.utils import timezone
from elasticsearch import ConnectionTimeout, Elasticsearch

from blog.models import Comment, Post
from search import generation
from search.aliases import alias_name, aliased_indices
from search.documents import Kind
from search.models import DeadChange, PendingChange, RebuildState
from search.querying.service import search
from search.sync import indexing, outbox
from search.sync import rebuild as rebuild_module
from tests.factories import make_comment, make_post
from tests.helpers import ids_in, outbox_trigger, refresh, source_of
from tests.sync_support import after_posts_load, apply_pending, assert_in_sync, db_now, wait_until_db_time, write_during_the_load

# ---------------------------------------------------------------- 1. scheduled post due soon


@pytest.mark.django_db
def test_1_scheduled_post_due_within_a_minute_of_its_save_appears(es, live):
    due = db_now() + timedelta(seconds=2)
    with live():  # the save's sync sends a delete: Elasticsearch keeps its tombstone for 60 s
        post = Post.objects.create(title="Zeppelin launch", slug="zeppelin-launch", pub_date=due)
    assert post.pk not in ids_in(es, "posts")
    assert PendingChange.objects.filter(object_id=post.pk, due_at=due).exists()
    wait_until_db_time(due)
    apply_pending()
    assert post.pk in ids_in(es, "posts")
    assert PendingChange.objects.count() == 0
    assert_in_sync()


# ---------------------------------------------------------------- 2-5. rebuild


@pytest.mark.django_db
def test_2_scheduled_post_falling_due_during_a_rebuild_is_indexed(es, build_index, monkeypatch):
    build_index()
    due = db_now() + timedelta(seconds=3.5)
    post = Post.objects.create(title="Scheduled mid rebuild", slug="scheduled-mid-rebuild", pub_date=due)
    time.sleep(2.5)  # saved longer ago than any clock margin a catch-up could use

    def fall_due():  # the load read the post as not yet visible
        wait_until_db_time(due)
        outbox.drain_all(batch=100)  # the scheduler applies the due entry (to the old index)

    after_posts_load(monkeypatch, fall_due)
    build_index()
    assert post.pk in ids_in(es, "posts")
    assert_in_sync()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_3_transaction_committing_during_the_load_is_caught_up(es, build_index, monkeypatch):
    post = make_post("Long transaction original")
    build_index()
    edited, commit = threading.Event(), threading.Event()

    def long_transaction():
        from django.db import transaction

        try:
            with transaction.atomic():
                Post.objects.filter(pk=post.pk).update(title="Long transaction committed")
                edited.set()
                commit.wait(30)
            outbox.sync_after_commit(batch=100)  # its sync, right after its commit (old indices)
        finally:
            connection.close()

    writer = threading.Thread(target=long_transaction)
    writer.start()
    edited.wait(10)
    time.sleep(2.5)  # open longer than any clock margin a catch-up could use

    def commit_now():
        commit.set()
        writer.join(30)

    after_posts_load(monkeypatch, commit_now)
    build_index()
    refresh(es)
    assert source_of(es, "posts", post.pk)["title"] == "Long transaction committed"
    assert_in_sync()


def bulk_fails_after_the_swap(monkeypatch, times: int):
    """The first `times` bulk requests after the alias swap time out (a real client call fails)."""
    original_swap, original_bulk = rebuild_module.swap_aliases, Elasticsearch.bulk
    failures = []

    def swap(*args, **kwargs):
        old = original_swap(*args, **kwargs)
        failures.extend(range(times))
        return old

    def bulk(self, *args, **kwargs):
        if failures:
            failures.pop()
            raise ConnectionTimeout("bulk timed out (injected after the swap)")
        return original_bulk(self, *args, **kwargs)

    monkeypatch.setattr(rebuild_module, "swap_aliases", swap)
    monkeypatch.setattr(Elasticsearch, "bulk", bulk)


@pytest.mark.django_db
def test_4_failure_after_the_swap_swaps_back_and_loses_nothing(es, build_index, monkeypatch, settings):
    post = make_post("Before the failed rebuild")
    build_index()
    before = {kind: aliased_indices(es, kind) for kind in ("posts", "comments")}
    write_during_the_load(monkeypatch, post, "Written during the failed rebuild")
    bulk_fails_after_the_swap(monkeypatch, times=100)
    settings.SEARCH = {**settings.SEARCH, "REBUILD_CATCH_UP_ATTEMPTS": 2}
    with pytest.raises(CommandError) as failure:
        call_command("reindex", "--no-progress")
    message = str(failure.value)
    assert "after the alias swap" in message and "point at the previous indices again" in message
    assert "unchanged" not in message
    assert {kind: aliased_indices(es, kind) for kind in ("posts", "comments")} == before
    monkeypatch.undo()
    apply_pending()
    refresh(es)
    assert source_of(es, "posts", post.pk)["title"] == "Written during the failed rebuild"
    assert_in_sync()


@pytest.mark.django_db
def test_4_catch_up_is_retried_after_a_transient_failure(es, build_index, monkeypatch):
    post = make_post("Retried catch-up")
    build_index()
    write_during_the_load(monkeypatch, post, "Caught up on the second try")
    bulk_fails_after_the_swap(monkeypatch, times=1)
    build_index()
    refresh(es)
    assert source_of(es, "posts", post.pk)["title"] == "Caught up on the second try"
    assert PendingChange.objects.count() == 0
    assert_in_sync()


@pytest.mark.django_db
def test_5_reconciliation_rechecks_rows_published_after_its_read(es, build_index, monkeypatch):
    draft = make_post("Draft published during reconciliation", published=False)
    build_index()
    real_scan = rebuild_module.helpers.scan

    class Helpers:
        @staticmethod
        def scan(client, index, **kwargs):
            if index == alias_name("posts"):
                # Published (and synced into the new index) between reconcile's read and its scan.
                Post.objects.filter(pk=draft.pk).update(published=True)
                outbox.drain_all(batch=100)
            return real_scan(client, index=index, **kwargs)

    monkeypatch.setattr(rebuild_module, "helpers", Helpers)
    build_index()
    assert draft.pk in ids_in(es, "posts")
    assert_in_sync()


@pytest.mark.django_db
def test_rebuild_phases_leave_no_kept_entries_and_no_flag(es, build_index):
    post = make_post("Phases")
    build_index()
    Post.objects.filter(pk=post.pk).update(title="Phases edited")
    future = Post.objects.create(title="Phases future", slug="phases-future", pub_date=db_now() + timedelta(days=1))
    report = build_index()
    # The edit's entries were committed before the load: covered by it, dropped, not applied twice.
    assert report.caught_up == 0 and report.pending_applied == 0
    refresh(es)
    assert source_of(es, "posts", post.pk)["title"] == "Phases edited"
    # Only the scheduled post's entry, due tomorrow, is left.
    assert list(PendingChange.objects.values_list("object_id", flat=True)) == [future.pk]
    assert not RebuildState.objects.filter(owner_pid__isnull=False).exists()


# ---------------------------------------------------------------- 6. versions from PostgreSQL


@pytest.mark.django_db
def test_6_edit_from_a_host_whose_clock_is_behind_is_applied(es, live, monkeypatch):
    with live():
        post = make_post("Clock original")
    real_now = timezone.now
    monkeypatch.setattr(timezone, "now", lambda: real_now() - timedelta(seconds=10))
    with live():
        post.title = "Clock edited from a slow host"
        post.save()
    monkeypatch.undo()
    refresh(es)
    assert source_of(es, "posts", post.pk)["title"] == "Clock edited from a slow host"
    assert_in_sync()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_6_concurrent_saves_committing_against_their_timestamps_order(es, build_index, monkeypatch):
    post = make_post("Race original")
    build_index()
    real_now = timezone.now
    first_stamped, second_committed = threading.Event(), threading.Event()

    def now():
        value = real_now()
        if threading.current_thread().name == "first-writer" and not first_stamped.is_set():
            first_stamped.set()  # took its timestamp; saves only after the second writer committed
            second_committed.wait(10)
        return value

    monkeypatch.setattr(timezone, "now", now)

    def first_writer():
        try:
            mine = Post.objects.get(pk=post.pk)
            mine.title = "Race first stamped, committed last"
            mine.save()  # autocommit: its sync runs right after
        finally:
            connection.close()

    thread = threading.Thread(target=first_writer, name="first-writer")
    thread.start()
    first_stamped.wait(10)
    other = Post.objects.get(pk=post.pk)
    other.title = "Race second stamped, committed first"
    other.save()
    second_committed.set()
    thread.join(30)
    monkeypatch.undo()
    assert Post.objects.get(pk=post.pk).title == "Race first stamped, committed last"
    refresh(es)
    assert source_of(es, "posts", post.pk)["title"] == "Race first stamped, committed last"
    assert_in_sync()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_6_stale_delete_never_outranks_a_republish_committed_after_its_read(es, build_index):
    post = make_post("Republished zeppelin", published=False)
    build_index()
    stamped, read_done = threading.Event(), threading.Event()

    def republish():
        from django.db import transaction

        try:
            with transaction.atomic():
                mine = Post.objects.get(pk=post.pk)
                mine.published = True
                mine.save()  # stamped and written, not committed yet
                stamped.set()
                read_done.wait(10)
            # committed: its own sync has run (autocommit on_commit)
        finally:
            connection.close()

    thread = threading.Thread(target=republish)
    thread.start()
    stamped.wait(10)
    stale_actions = indexing.actions_for_changes({(Kind.POSTS, post.pk): None}).pairs  # still reads it hidden
    read_done.set()
    thread.join(30)
    assert post.pk in ids_in(es, "posts")  # the republish's sync indexed it
    indexing.run_bulk(stale_actions)  # then the slow sync's delete arrives
    assert post.pk in ids_in(es, "posts")
    assert_in_sync()


# ---------------------------------------------------------------- 7-8. every write path


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_7_admin_action_in_autocommit_failing_after_the_row_commits(es, admin_client, build_index, monkeypatch):
    post = make_post("Moderated zeppelin post")
    comment = make_comment(post, "spam about xylophones")
    build_index()
    assert comment.pk in ids_in(es, "comments")

    def crash(*args, **kwargs):
        raise RuntimeError("worker died after the UPDATE committed")

    monkeypatch.setattr(post_save, "send", crash)
    with pytest.raises(RuntimeError):
        admin_client.post("/admin/blog/comment/", {"action": "unapprove", "_selected_action": [comment.pk]})
    monkeypatch.undo()
    assert not Comment.objects.get(pk=comment.pk).approved  # the row did commit
    apply_pending()
    assert comment.pk not in ids_in(es, "comments")
    assert search("xylophones").total == 0
    assert_in_sync()


@pytest.mark.django_db
def test_8_writes_that_bypass_signals_reach_the_index(es, build_index, tmp_path):
    a, b, c = (make_post(f"Bypass {n}") for n in ("alpha", "bravo", "charlie"))
    build_index()
    Post.objects.filter(pk=a.pk).update(title="Bypass alpha via QuerySet.update")
    b.title = "Bypass bravo via bulk_update"
    Post.objects.bulk_update([b], ["title"])
    new = Post.objects.bulk_create([Post(title="Bypass delta via bulk_create", slug="bypass-delta")])[0]
    with connection.cursor() as cursor:
        cursor.execute("UPDATE blog_post SET published = false WHERE id = %s", [c.pk])
    future = (db_now() + timedelta(days=2)).isoformat()
    (tmp_path / "posts.ndjson").write_text(
        f'{{"id": 990001, "title": "Imported echo", "pub_date": "2020-01-01T00:00:00+00:00"}}\n'
        f'{{"id": 990002, "title": "Imported future foxtrot", "pub_date": "{future}"}}\n'
    )
    call_command("import_corpus", str(tmp_path), "--no-progress")
    assert PendingChange.objects.filter(object_id=990002, due_at=Post.objects.get(pk=990002).pub_date).exists()
    apply_pending()
    refresh(es)
    assert source_of(es, "posts", a.pk)["title"] == "Bypass alpha via QuerySet.update"
    assert source_of(es, "posts", b.pk)["title"] == "Bypass bravo via bulk_update"
    ids = ids_in(es, "posts")
    assert new.pk in ids and 990001 in ids and c.pk not in ids and 990002 not in ids
    assert_in_sync()


# ---------------------------------------------------------------- 9-10. poison entries, cache


@pytest.mark.django_db
def test_9_poison_entry_is_retried_alone_then_dead_and_reported(es, client, admin_client, build_index, poison, settings):
    build_index()
    settings.SEARCH = {**settings.SEARCH, "OUTBOX_MAX_ATTEMPTS": 3, "OUTBOX_RETRY_SECONDS": 0}
    bad = make_post("Poison pill")
    good = make_post("Healthy neighbour")
    result = outbox.drain(limit=100)
    assert result.applied == 1 and result.failed == 1  # the neighbour was not held up
    assert good.pk in ids_in(es, "posts")
    later = make_post("Saved after the poison")
    outbox.drain_all(batch=100)
    assert later.pk in ids_in(es, "posts")
    assert DeadChange.objects.filter(kind="post", object_id=bad.pk, attempts=3).exists()
    assert not PendingChange.objects.exists()
    data = client.get("/healthz").json()
    assert data["outbox"]["ok"] is False and data["outbox"]["dead"] == 1 and data["healthy"] is False
    page = admin_client.get("/admin/search/deadchange/").content.decode()
    assert "mapper_parsing_exception" in page or "failed to parse" in page
    # The cause is fixed (the title no longer breaks the mapping): the admin's retry action.
    Post.objects.filter(pk=bad.pk).update(title="Cured pill")
    PendingChange.objects.all().delete()  # only the dead letter brings it back
    dead = DeadChange.objects.get()
    admin_client.post("/admin/search/deadchange/", {"action": "retry", "_selected_action": [dead.pk]})
    assert not DeadChange.objects.exists()
    apply_pending()
    assert bad.pk in ids_in(es, "posts")
    assert client.get("/healthz").json()["outbox"]["ok"] is True


@pytest.mark.django_db
def test_healthz_outbox_not_ok_when_a_due_entry_waits_for_minutes(client, build_index):
    build_index()
    assert client.get("/healthz").json()["outbox"]["ok"] is True
    PendingChange.objects.create(kind="post", object_id=123456, due_at=db_now() - timedelta(minutes=10))
    data = client.get("/healthz").json()
    assert data["outbox"]["ok"] is False and data["outbox"]["oldest_due_seconds"] >= 600


@pytest.mark.django_db
def test_10_partly_applied_bulk_invalidates_the_caches(es, build_index, poison):
    post = make_post("Cached zeppelin title")
    build_index()
    assert search("zeppelin").hits[0].title == "Cached zeppelin title"
    assert search("zeppelin").cached
    before = generation.current()
    Post.objects.filter(pk=post.pk).update(title="Renamed zeppelin title")
    make_post("Poison zeppelin")
    result = outbox.drain(limit=100)
    assert result.applied == 1 and result.failed == 1
    assert generation.current() > before
    fresh = search("zeppelin")
    assert not fresh.cached and [h.title for h in fresh.hits] == ["Renamed zeppelin title"]


# ---------------------------------------------------------------- search_check


@pytest.mark.django_db
def test_search_check_finds_and_repairs_missing_extra_and_stale(es, build_index, capsys):
    kept, edited = make_post("Check kept"), make_post("Check edited")
    build_index()
    call_command("search_check")
    assert "0 missing, 0 extra, 0 stale" in capsys.readouterr().out
    # Drift behind the outbox's back (its trigger disabled by hand): a row never indexed, a stale
    # document, and a stray document written straight into Elasticsearch.
    with connection.cursor() as cursor:
        cursor.execute(f"ALTER TABLE blog_post DISABLE TRIGGER {outbox_trigger(Post)}")
        cursor.execute("UPDATE blog_post SET title = 'Check edited quietly' WHERE id = %s", [edited.pk])
        cursor.execute(
            "INSERT INTO blog_post (id, title, slug, body_html, body_text, summary, pub_date, tags, "
            "published, modified, source, post_type, source_url, link_url) VALUES (987000, 'Check lost', "
            "'check-lost', '', '', '', now(), '{}', true, now(), '', '', '', '')"
        )
        cursor.execute(f"ALTER TABLE blog_post ENABLE TRIGGER {outbox_trigger(Post)}")
    es.index(index=alias_name("posts"), id="987654", document={"title": "stray"}, version=5, version_type="external", refresh=True)
    with pytest.raises(CommandError, match="3 difference"):
        call_command("search_check")
    assert "1 missing, 1 extra, 1 stale" in capsys.readouterr().out
    call_command("search_check", "--repair")
    assert capsys.readouterr().out.strip().endswith("0 missing, 0 extra, 0 stale")
    refresh(es)
    assert source_of(es, "posts", edited.pk)["title"] == "Check edited quietly"
    ids = ids_in(es, "posts")
    assert kept.pk in ids and 987000 in ids and 987654 not in ids


@pytest.mark.django_db
def test_replay_log_of_a_killed_rebuild_is_recovered_by_the_next_sync(es, build_index):
    post = make_post("Kept by a killed rebuild")
    build_index()
    Post.objects.filter(pk=post.pk).update(title="Applied only to the indices it replaced")
    # As a rebuild killed after its swap leaves things: its flag, and entries kept for a replay.
    PendingChange.objects.filter(object_id=post.pk).update(replay=True)
    RebuildState.objects.update_or_create(id=1, defaults={"owner_pid": 2**31 - 1})
    apply_pending()
    assert not RebuildState.objects.filter(owner_pid__isnull=False).exists()
    assert not PendingChange.objects.exists()
    refresh(es)
    assert source_of(es, "posts", post.pk)["title"] == "Applied only to the indices it replaced"


@pytest.mark.django_db
def test_failure_while_finishing_after_the_swap_says_the_new_indices_are_live(es, build_index, monkeypatch):
    post = make_post("Finishing fails")
    build_index()

    def broken(*args, **kwargs):
        raise RuntimeError("database connection lost")

    monkeypatch.setattr(rebuild_module, "retire", broken)
    with pytest.raises(CommandError, match="new indices are live and caught up") as failure:
        call_command("reindex", "--no-progress")
    assert "unchanged" not in str(failure.value)
    monkeypatch.undo()
    assert post.pk in ids_in(es, "posts")
    build_index()  # the next run removes what was left over
    assert len(es.indices.get(index=f"{alias_name('posts')}-2*").body) == 1
    assert_in_sync()


@pytest.mark.django_db
def test_search_check_without_aliases_is_a_clear_error(es):
    for kind in ("posts", "comments"):  # as before the first reindex
        for index in aliased_indices(es, kind):
            es.indices.delete(index=index)
    with pytest.raises(CommandError, match="could not read the index"):
        call_command("search_check")
