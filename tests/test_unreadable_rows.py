"""A row psycopg2 cannot read (a date in year 10000 or BC, written by raw SQL) holds up nothing: the
outbox, the rebuild's load, catch-up and reconciliation, and `search_check --repair` dead-letter it
and carry on (found by the fault harness, issue 25)."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from blog.models import Post
from search.models import PendingChange
from search.sync import checking, outbox
from tests.factories import make_post
from tests.helpers import ids_in, outbox_trigger, refresh, source_of
from tests.sync_support import BC, FAR_FUTURE, RAW_COMMENT, RAW_POST, after_posts_load, dead_letters, raw


@pytest.mark.django_db
def test_unreadable_rows_hold_up_nothing_in_the_outbox(es, live):
    host, beside_sync, beside_save = make_post("Unreadable host"), make_post("Beside sync"), make_post("Beside save")
    with live():
        pass
    raw(RAW_POST, [990100, "Far future", "far-future", FAR_FUTURE])  # hidden: a delete, no date needed
    raw(RAW_POST, [990101, "Ides", "ides", BC])  # visible and unreadable
    comment = raw(RAW_COMMENT, [host.pk, FAR_FUTURE])  # visible and unreadable
    Post.objects.filter(pk=beside_sync.pk).update(title="Beside sync edited")
    out = io.StringIO()
    call_command("search_sync", stdout=out, stderr=out)  # today: ValueError, nothing behind the poison applied
    assert source_of(es, "posts", beside_sync.pk)["title"] == "Beside sync edited"
    dead = dead_letters()
    assert set(dead) == {("post", 990101), ("comment", comment)}
    assert all("row unreadable" in e and "out of range" in e for e in dead.values())
    assert "2 change(s) refused too often moved to the dead letters" in out.getvalue()
    assert 990100 not in ids_in(es, "posts") and 990101 not in ids_in(es, "posts")
    # The after-commit sync of a save queued behind a new unreadable row: isolated too, breaker untouched.
    raw(RAW_POST, [990102, "Ides again", "ides-again", BC])
    with live():
        beside_save.title = "Beside save edited"
        beside_save.save()
    assert outbox.breaker.allows()
    refresh(es)
    assert source_of(es, "posts", beside_save.pk)["title"] == "Beside save edited"
    assert ("post", 990102) in dead_letters()
    assert not PendingChange.objects.filter(due_at__year__lt=3000).exists()


@pytest.mark.django_db
def test_unreadable_rows_never_stop_a_rebuild(es, build_index, monkeypatch):
    neighbour, caught_up, reconciled = make_post("Rebuild neighbour"), make_post("Caught up"), make_post("Reconciled")
    build_index()
    raw(RAW_POST, [990110, "Ides", "ides", BC])  # the load reads it
    comment = raw(RAW_COMMENT, [neighbour.pk, FAR_FUTURE])

    def during_the_load():
        raw("UPDATE blog_post SET pub_date = %s WHERE id = %s", [FAR_FUTURE, caught_up.pk])  # applied to the old indices, replayed
        outbox.drain_all(batch=100)
        with connection.cursor() as cursor:  # behind the outbox's back: only the reconciliation sees it
            cursor.execute(f"ALTER TABLE blog_post DISABLE TRIGGER {outbox_trigger(Post)}")
            cursor.execute("UPDATE blog_post SET pub_date = %s WHERE id = %s", [FAR_FUTURE, reconciled.pk])
            cursor.execute(f"ALTER TABLE blog_post ENABLE TRIGGER {outbox_trigger(Post)}")

    after_posts_load(monkeypatch, during_the_load)
    out, err = io.StringIO(), io.StringIO()
    call_command("reindex", "--no-progress", stdout=out, stderr=err)  # today: "the live indices are unchanged"
    assert "Reindexed" in out.getvalue() and "removed 1 document(s) of hidden or deleted rows" in out.getvalue()  # reconciled
    assert "skipped 2 document(s)" in err.getvalue() and "row unreadable" in err.getvalue()
    posts = ids_in(es, "posts")
    assert neighbour.pk in posts and not {990110, caught_up.pk, reconciled.pk} & posts
    assert {("post", 990110), ("comment", comment)} <= set(dead_letters())
    assert [(r.kind, r.missing) for r in checking.check()] == [("posts", [990110]), ("comments", [comment])]


@pytest.mark.django_db
def test_repair_isolates_an_unreadable_row(es, build_index, capsys):
    fine = make_post("Repaired neighbour")
    build_index()
    with connection.cursor() as cursor:  # two rows the index never heard of
        cursor.execute(f"ALTER TABLE blog_post DISABLE TRIGGER {outbox_trigger(Post)}")
        cursor.execute(RAW_POST, [990120, "Ides", "ides", BC])
        cursor.execute("UPDATE blog_post SET title = 'Repaired quietly' WHERE id = %s", [fine.pk])
        cursor.execute(f"ALTER TABLE blog_post ENABLE TRIGGER {outbox_trigger(Post)}")
    with pytest.raises(CommandError, match="1 repair\\(s\\) refused.*row unreadable"):  # today: ValueError
        call_command("search_check", "--repair")
    refresh(es)
    assert source_of(es, "posts", fine.pk)["title"] == "Repaired quietly"
    assert ("post", 990120) in dead_letters()
