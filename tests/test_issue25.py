"""Issue 25, the fault harness's findings: each forced deterministically against the real services.

Interleavings are forced with hooks on our own seams (phase functions, `Elasticsearch.bulk`
passing through to the real node); nothing fakes Elasticsearch's answers.
"""

import io
import threading
import time

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from elasticsearch import Elasticsearch

from blog.models import Comment, Post
from search.aliases import alias_name, aliased_indices
from search.documents import Kind
from search.models import DeadChange, PendingChange
from search.querying.service import search
from search.sync import checking, indexing, outbox
from search.sync import rebuild as rebuild_module
from search.sync.indexing import IndexingError
from tests import test_never_lose
from tests.factories import make_comment, make_post
from tests.helpers import ids_in, outbox_trigger, refresh, source_of
from tests.test_never_lose import after_posts_load, apply_pending, assert_in_sync, write_during_the_load

poison = test_never_lose.poison  # the fixture: posts titled "Poison ..." break the mapping

# ---------------------------------------------------------------- 1. ids past 2^31

BIG = 3_000_000_000


@pytest.mark.django_db
def test_25_1_ids_past_2_to_the_31_are_indexed_by_sync_and_rebuild(es, build_index, tmp_path):
    build_index()
    (tmp_path / "posts.ndjson").write_text(f'{{"id": {BIG}, "title": "Billions quokka", "pub_date": "2020-01-01T00:00:00+00:00"}}\n')
    call_command("import_corpus", str(tmp_path), "--no-progress")
    later = make_post("After the big id quokka")  # the importer moved the sequence past the big id
    assert later.pk > BIG
    comment = make_comment(Post.objects.get(pk=BIG), "quokka remark")
    apply_pending()  # the sync path
    assert {BIG, later.pk} <= ids_in(es, "posts") and comment.pk in ids_in(es, "comments")
    assert source_of(es, "posts", BIG)["post_id"] == BIG
    assert not DeadChange.objects.exists()
    build_index()  # the rebuild path
    mapping = next(iter(es.indices.get_mapping(index=alias_name("posts")).body.values()))["mappings"]["properties"]
    assert mapping["post_id"]["type"] == "long"
    assert {h.post_id for h in search("quokka", use_cache=False).hits} >= {BIG, later.pk}
    assert {BIG, later.pk} <= ids_in(es, "posts") and comment.pk in ids_in(es, "comments")
    assert_in_sync()


# ---------------------------------------------------------------- 2. one unreadable row

# Rows only raw SQL can write: psycopg2 raises ValueError ("year 10000 is out of range") reading them.
RAW_POST = (
    "INSERT INTO blog_post (id, title, slug, body_html, body_text, summary, pub_date, tags, published, modified, "
    "source, post_type, source_url, link_url) VALUES (%s, %s, %s, '', '', '', %s, '{}', true, now(), '', '', '', '')"
)
RAW_COMMENT = (
    "INSERT INTO blog_comment (post_id, parent_id, author_name, comment, comment_html, created, approved, modified, edited_on_site) "
    "VALUES (%s, NULL, 'Time traveller', 'unreadable remark', '', %s, true, now(), false) RETURNING id"
)
FAR_FUTURE, BC = "10000-01-01 00:00:00+00", "0044-03-15 00:00:00+00 BC"


def raw(sql, params):
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()[0] if cursor.description else None


def dead_letters() -> dict:
    return {(d.kind, d.object_id): d.last_error for d in DeadChange.objects.all()}


@pytest.mark.django_db
def test_25_2_unreadable_rows_hold_up_nothing_in_the_outbox(es, live):
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
def test_25_2_unreadable_rows_never_stop_a_rebuild(es, build_index, monkeypatch):
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
def test_25_2_repair_isolates_an_unreadable_row(es, build_index, capsys):
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


# ---------------------------------------------------------------- 3. a rebuild is not all or nothing


@pytest.mark.django_db
@pytest.mark.usefixtures("poison")
def test_25_3_rebuild_skips_reports_and_dead_letters_a_refused_document(es, build_index, client):
    bad, good = make_post("Poison pill"), make_post("Healthy neighbour")
    out, err = io.StringIO(), io.StringIO()
    call_command("reindex", "--no-progress", stdout=out, stderr=err)  # today: "the live indices are unchanged"
    assert "Reindexed" in out.getvalue() and "skipped 1 document(s)" in err.getvalue() and f"post {bad.pk}" in err.getvalue()
    ids = ids_in(es, "posts")
    assert good.pk in ids and bad.pk not in ids
    error = dead_letters()[("post", bad.pk)]
    assert "document_parsing_exception" in error or "mapper_parsing_exception" in error
    assert client.get("/healthz").json()["outbox"]["dead"] == 1


@pytest.mark.django_db
def test_25_3_a_change_refused_by_the_catch_up_does_not_swap_back(es, build_index, monkeypatch):
    post = make_post("Fine at first")
    build_index()
    before = aliased_indices(es, "posts")
    write_during_the_load(monkeypatch, post, "Poison after the load")  # the old index takes it: kept for the replay
    real_swap, real_doc = rebuild_module.swap_aliases, indexing.post_to_doc

    def swap_then_poison(client, new):
        old = real_swap(client, new)  # from now on that title breaks the mapping: the catch-up is refused
        monkeypatch.setattr(indexing, "post_to_doc", lambda p: {**real_doc(p), "pub_date": "not a date"} if p.title.startswith("Poison") else real_doc(p))
        return old

    monkeypatch.setattr(rebuild_module, "swap_aliases", swap_then_poison)
    report = build_index()  # today: RebuildFailedAfterSwap, swapped back
    assert (Kind.POSTS, post.pk) in report.refused
    assert aliased_indices(es, "posts") != before
    assert ("post", post.pk) in dead_letters()


@pytest.mark.django_db
@pytest.mark.usefixtures("poison")
def test_25_3_too_many_refusals_still_fail_with_live_indices_unchanged(es, build_index, settings):
    make_post("Fine")
    build_index()
    before = aliased_indices(es, "posts")
    for n in range(3):
        make_post(f"Poison {n}")
    settings.SEARCH = {**settings.SEARCH, "REBUILD_MAX_REFUSED": 2}
    with pytest.raises(IndexingError, match="3 document"):
        build_index()
    assert aliased_indices(es, "posts") == before
    assert not DeadChange.objects.exists()


# ---------------------------------------------------------------- 4. repair beats an out-of-band tombstone


@pytest.mark.django_db
def test_25_4_repair_restores_a_document_deleted_in_elasticsearch(es, build_index, capsys):
    post = make_post("Deleted behind our back")
    make_post("Untouched")
    build_index()
    es.indices.put_settings(index=alias_name("posts"), settings={"index.gc_deletes": "10m"})  # the tombstone outlives the test
    es.delete(index=alias_name("posts"), id=str(post.pk), refresh=True)  # a tombstone at 2v+2 beats the row's 2v+1
    with pytest.raises(CommandError, match="1 difference"):
        call_command("search_check")
    call_command("search_check", "--repair")  # today: CommandError, still 1 missing (the 409 was taken as "newer")
    assert capsys.readouterr().out.strip().endswith("0 missing, 0 extra, 0 stale")
    assert post.pk in ids_in(es, "posts") and source_of(es, "posts", post.pk)["title"] == "Deleted behind our back"
    assert_in_sync()
    apply_pending()  # the re-versioning's own outbox entries are harmless
    assert_in_sync()


@pytest.mark.django_db
def test_25_4_repair_overrides_a_stray_higher_version(es, build_index):
    post = make_post("Overwritten behind our back")
    comment = make_comment(post, "Comment overwritten behind our back")
    build_index()
    es.index(index=alias_name("posts"), id=str(post.pk), document={"title": "stray"}, version=10**9, version_type="external", refresh=True)
    es.index(index=alias_name("comments"), id=str(comment.pk), document={"comment": "stray"}, version=10**9, version_type="external", refresh=True)
    call_command("search_check", "--repair")
    refresh(es)
    assert source_of(es, "posts", post.pk)["title"] == "Overwritten behind our back"
    assert source_of(es, "comments", comment.pk)["comment"] == "Comment overwritten behind our back"
    assert_in_sync()


# ---------------------------------------------------------------- 5. a blocked index: calm retries


@pytest.mark.django_db
@pytest.mark.parametrize("block", ["index.blocks.write", "index.blocks.read_only_allow_delete"])
def test_25_5_blocked_index_gets_few_spaced_retries_and_saves_stay_fast(es, live, monkeypatch, settings, block):
    settings.SEARCH = {**settings.SEARCH, "BLOCKED_RETRY_DELAYS": (2.0, 5.0)}
    posts = [make_post(f"Blocked {n}") for n in range(20)]
    with live():
        pass
    Post.objects.filter(pk__in=[p.pk for p in posts]).update(title="Blocked edited")  # 20 entries, no sync yet
    requests, slept = [], []
    real_bulk = Elasticsearch.bulk

    def bulk(self, *args, **kwargs):  # passes through to the real node; only counts
        requests.append(1)
        if len(requests) > 60:
            raise RuntimeError("a retry storm: more than 60 bulk requests")
        return real_bulk(self, *args, **kwargs)

    monkeypatch.setattr(Elasticsearch, "bulk", bulk)
    monkeypatch.setattr(outbox, "pause", slept.append)  # record the spacing, don't wait
    for kind in ("posts", "comments"):
        es.indices.put_settings(index=alias_name(kind), settings={block: True})
    try:
        with pytest.raises(CommandError, match="refuses writes"):  # today: a storm (1 + 20 requests per round, rounds without end)
            call_command("search_sync")
        assert len(requests) == 3  # the first try and one per delay, each one bulk request
        assert len(slept) == 2 and all(0.8 * d <= s <= 1.2 * d for s, d in zip(slept, (2.0, 5.0), strict=True))
        assert not DeadChange.objects.exists()
        assert set(PendingChange.objects.values_list("attempts", flat=True)) == {0}
        assert set(PendingChange.objects.values_list("object_id", flat=True)) == {p.pk for p in posts}  # all still waiting
        requests.clear()
        started = time.perf_counter()
        with live():  # after-commit syncs: one tries (one request), the breaker skips the rest
            for p in posts[:5]:
                p.title = "Saved while blocked"
                p.save()
        assert time.perf_counter() - started < 1.0 and len(requests) == 1 and not outbox.breaker.allows()
    finally:
        for kind in ("posts", "comments"):
            es.indices.put_settings(index=alias_name(kind), settings={block: None})
    outbox.breaker.reset()
    apply_pending()
    refresh(es)
    assert source_of(es, "posts", posts[0].pk)["title"] == "Saved while blocked"
    assert_in_sync()


# ---------------------------------------------------------------- the scheduler loop


class StopLoop(BaseException):
    pass


def test_search_sync_every_survives_any_exception_in_a_round(monkeypatch):
    from search.management.commands import search_sync

    rounds, sleeps = [], []

    def apply(self):
        rounds.append(1)
        if len(rounds) == 1:
            raise ValueError("year 10000 is out of range")  # anything, not only CommandError
        self.stdout.write("applied")

    def sleep(seconds):
        sleeps.append(seconds)
        if len(sleeps) == 2:
            raise StopLoop

    monkeypatch.setattr(search_sync.Command, "apply", apply)
    monkeypatch.setattr(search_sync.time, "sleep", sleep)
    monkeypatch.setattr(search_sync, "close_old_connections", lambda: None)
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(StopLoop):  # today: the ValueError ends the scheduler
        call_command("search_sync", "--every", "7", stdout=out, stderr=err)
    assert len(rounds) == 2 and sleeps == [7.0, 7.0]
    assert "year 10000 is out of range" in err.getvalue() and "applied" in out.getvalue()


# ---------------------------------------------------------------- 6. the search breaker weighs a rate


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def rate_breaker(clock, **changes):
    from search.breaker import RateBreaker, RateLimits

    limits = RateLimits(**{"window_seconds": 10.0, "min_calls": 20, "failure_ratio": 0.5, "open_seconds": 3.0, **changes})
    return RateBreaker(lambda: limits, clock=clock)


def test_25_6_one_failure_in_twenty_keeps_the_breaker_closed():
    clock = FakeClock()
    breaker = rate_breaker(clock)
    for n in range(20):
        breaker.record(n != 0)
        clock.now += 0.1
    assert breaker.allows()


def test_25_6_half_of_the_recent_searches_failing_opens_it_then_one_probe_decides():
    clock = FakeClock()
    breaker = rate_breaker(clock)
    for n in range(19):
        breaker.record(n % 2 == 0)  # 9 failures in 19: not yet
    assert breaker.allows()
    breaker.record(False)  # 10 of 20
    assert not breaker.allows()
    clock.now += 3.0
    assert breaker.allows() and not breaker.allows()  # half-open: one probe at a time
    breaker.record(False)  # the probe failed: open again
    assert not breaker.allows()
    clock.now += 3.0
    assert breaker.allows()
    breaker.record(True)  # the probe succeeded: closed, every search goes through
    assert all(breaker.allows() for _ in range(5))


def test_25_6_failures_older_than_the_window_are_forgotten_and_a_silent_probe_frees_its_slot():
    clock = FakeClock()
    breaker = rate_breaker(clock, min_calls=4)
    for _ in range(3):
        breaker.record(False)
    clock.now += 11  # out of the window
    breaker.record(False)
    assert breaker.allows()  # 1 recent call, below min_calls
    for _ in range(3):
        breaker.record(False)
    assert not breaker.allows()
    clock.now += 3.0
    assert breaker.allows()  # the probe, which never reports (its caller hit a bug)
    clock.now += 3.0
    assert breaker.allows()  # another probe may go


# ---------------------------------------------------------------- 7. the swap never hides a change already shown


@pytest.mark.django_db
def test_25_7_a_change_shown_during_the_load_is_never_hidden_by_the_swap(es, build_index, monkeypatch):
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
def test_25_7_a_sync_at_the_swap_waits_and_lands_in_the_new_indices(es, build_index, monkeypatch):
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


# ---------------------------------------------------------------- 7. caches invalidated per applied chunk


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_25_7_a_big_document_neither_delays_nor_hides_a_small_edit(es, build_index, monkeypatch, settings):
    from search import generation
    from search.client import bulk_client

    settings.SEARCH = {**settings.SEARCH, "MAX_BULK_BYTES": 1_000_000}
    post = make_post("Big host")
    small = make_comment(post, "small remark")
    build_index()
    big = raw(
        "INSERT INTO blog_comment (post_id, parent_id, author_name, comment, comment_html, created, approved, modified, edited_on_site) "
        "VALUES (%s, NULL, 'big', repeat('bigmarker lorem ipsum ', 100000), '', now(), true, now(), false) RETURNING id",
        [post.pk],
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
        assert [[c.id for c in h.comments] for h in search("quokka", use_cache=False).hits] == [[small.pk]]
    finally:
        release.set()
        worker.join(60)
    assert big in ids_in(es, "comments")
    assert_in_sync()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_25_7_a_save_waits_for_a_swap_only_briefly(es, build_index, settings):
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
