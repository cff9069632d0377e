"""The chaos run (tests/test_chaos.py says what it checks): seeded writers of every kind, poison
rows among them, writes no trigger sees (a replica-role edit, a TRUNCATE), synonym rules saved and
deleted, a reader, two `reindex` runs around a read-only block and a fault of the node.
Shared with the three-node cluster's run (tests_cluster/test_chaos_cluster.py), where the fault is
a killed node; a support module, not a test module, so that neither test module imports the other.
"""

import logging
import os
import random
import subprocess
import threading
import time
from datetime import timedelta
from pathlib import Path

from django.core.management import call_command
from django.db import DatabaseError, connection

from blog.models import Comment, Post
from search import conf, synonyms
from search.aliases import aliased_indices
from search.client import bulk_client, reset_client
from search.documents import KINDS
from search.models import DeadChange, SynonymRule
from search.querying.service import search
from search.sync import audit, outbox
from search.sync.rebuild import RebuildFailedAfterSwap, ReindexAlreadyRunning
from tests.factories import make_comment, make_post
from tests.helpers import admin as superuser
from tests.sync_support import BC, RAW_POST, db_now, raw

log = logging.getLogger(__name__)
ROOT = Path(__file__).resolve().parent.parent
SECONDS = float(os.environ.get("CHAOS_SECONDS", "12"))
WRITERS = 3
MAX_SCHEDULE_AHEAD = 4.0


def random_id(model, rng):
    ids = list(model.objects.values_list("pk", flat=True)[:500])
    return rng.choice(ids) if ids else None


def edit_post(rng, n):
    pk = random_id(Post, rng)
    post = Post.objects.filter(pk=pk).first()
    if post:
        post.title = f"Chaos edit {n} zeppelin"
        post.save()


def toggle_published(rng, n):
    post = Post.objects.filter(pk=random_id(Post, rng)).first()
    if post:
        post.published = not post.published
        post.save(update_fields=["published"])


def toggle_approved(rng, n):
    comment = Comment.objects.filter(pk=random_id(Comment, rng)).first()
    if comment:
        comment.approved = not comment.approved
        comment.save(update_fields=["approved"])


def schedule_post(rng, n):
    Post.objects.create(
        title=f"Chaos scheduled {n}",
        slug=f"chaos-scheduled-{n}-{rng.random():.9f}",
        pub_date=db_now() + timedelta(seconds=rng.uniform(0.5, MAX_SCHEDULE_AHEAD)),
    )


def new_comment(rng, n):
    post = Post.objects.filter(pk=random_id(Post, rng)).first()
    if post:
        make_comment(post, f"chaos comment {n}", approved=rng.random() < 0.7)


def delete_something(rng, n):
    model = Post if rng.random() < 0.4 else Comment
    model.objects.filter(pk=random_id(model, rng)).delete()


def bulk_update(rng, n):
    ids = list(Post.objects.values_list("pk", flat=True)[:500])
    chosen = rng.sample(ids, min(len(ids), 3))
    Post.objects.filter(pk__in=chosen).update(title=f"Chaos bulk {n}", published=rng.random() < 0.8)


def new_post(rng, n):
    make_post(f"Chaos new {n}", "chaos body", published=rng.random() < 0.8)


BIG_ID = 3_000_000_000
_poisoned_lock = threading.Lock()
POISONED = {"unreadable": [], "refused": [], "big": []}


def poison_row(rng, n):
    """One of the rows the fault harness found: a date psycopg2 cannot read (raw SQL), a document
    the mapping refuses, or an id past 2^31 (which must be indexed like any other)."""
    kind = rng.choice(("unreadable", "refused", "big"))
    if kind == "unreadable":
        with connection.cursor() as cursor:
            cursor.execute("SELECT nextval(pg_get_serial_sequence('blog_post', 'id'))")
            pk = cursor.fetchone()[0]
        raw(RAW_POST, [pk, f"Chaos unreadable {n}", f"chaos-unreadable-{n}", BC])
    elif kind == "refused":
        pk = make_post(f"Poison {n}", "refused by the mapping").pk
    else:
        with _poisoned_lock:
            pk = BIG_ID + len(POISONED["big"]) + 1000 * int(n.split("-")[0])
            POISONED["big"].append(pk)
        raw(RAW_POST, [pk, f"Chaos big id {n}", f"chaos-big-{n}", "2020-01-01 00:00:00+00"])
        return
    with _poisoned_lock:
        POISONED[kind].append(pk)


def replica_edit(rng, n):
    """A write no trigger sees (a logical replication subscriber's): found by the audit."""
    pk = random_id(Post, rng)
    if pk:
        with connection.cursor() as cursor:
            cursor.execute("SET session_replication_role = replica")
            try:
                cursor.execute("UPDATE blog_post SET title = %s WHERE id = %s", [f"Chaos replicated {n} zeppelin", pk])
            finally:
                cursor.execute("SET session_replication_role = DEFAULT")


def synonym_change(rng, n):
    """Now and then (an owner's pace, not a writer's) a rule added or deleted; the copy to
    Elasticsearch may fail with the node, and the next round copies the rules."""
    if rng.random() > 0.1:
        return
    rule = SynonymRule.objects.order_by("?").first()
    if rule and rng.random() < 0.5:
        rule.delete()
    else:
        SynonymRule.objects.create(rule=f"chaosword{n.replace('-', 'x')}, otherword{n.replace('-', 'x')}")


OPERATIONS = [
    edit_post,
    edit_post,
    toggle_published,
    toggle_approved,
    toggle_approved,
    schedule_post,
    new_comment,
    new_comment,
    delete_something,
    bulk_update,
    new_post,
    poison_row,
    replica_edit,
    synonym_change,
]


def writer(seed: int, index: int, stop: threading.Event, counts: dict):
    rng = random.Random(seed * 100 + index)
    n = 0
    try:
        while not stop.is_set():
            n += 1
            op = rng.choice(OPERATIONS)
            try:
                op(rng, f"{seed}-{index}-{n}")
                counts["ok"] += 1
            except (DatabaseError, ValueError):  # deadlock victim, row deleted meanwhile, a row no driver reads: not written
                counts["refused"] += 1
            time.sleep(rng.uniform(0.01, 0.06))
    finally:
        connection.close()


def es_script(action: str):
    subprocess.run(["bash", str(ROOT / "devservices" / "elasticsearch.sh"), action], check=True, capture_output=True)


def reader(stop: threading.Event, answered: list, failures: list, reasons: list):
    """Searches all along, recording when each answered and when each failed: a 503, any other
    error (which must not end the reader quietly) or an answer without hits (the seed posts and
    every new post match "chaos" or "zeppelin", so an empty page means lost shards)."""
    try:
        while not stop.is_set():
            asked = time.monotonic()
            try:
                result = search("chaos zeppelin", use_cache=False)
                if not result.hits:
                    raise LookupError(f"no hits (total {result.total})")
                answered.append(time.monotonic())
            except Exception as exc:  # noqa: BLE001 - every failure is recorded and fails the test outside its window
                # When it was asked: a search asked of a node still starting may time out after "up".
                failures.append(asked)
                reasons.append(f"{type(exc).__name__}: {str(exc)[:200]}")
            time.sleep(0.02)
    finally:
        connection.close()


# The reader's request timeout and whole search budget, seconds. This run is about failures, not
# speed (bench/load.py measures that): with production's 1 s, beside a load benchmark on a 2-core
# machine, searches of the node just restarted (recovering, a `reindex` running) timed out 6-18 s
# after it was up, and one timed out before the fault, which says nothing about faults. A refused
# or failed search still fails at once; only slowness under 10 s is forgiven.
READER_TIMEOUT = float(os.environ.get("CHAOS_SEARCH_TIMEOUT", "10"))


def patient_reader(settings, timeout: float = READER_TIMEOUT) -> None:
    """The in-process reader gets `timeout` as its request timeout and search budget, and a
    client built with it (the caller resets the client again afterwards)."""
    settings.ELASTICSEARCH = {**settings.ELASTICSEARCH, "TIMEOUT": timeout}
    settings.SEARCH = {**settings.SEARCH, "DEADLINE_SECONDS": timeout}
    reset_client()


def admin():
    """The test's own client for steering Elasticsearch, as the superuser (where shards live is
    none of the site's role's business): a long timeout (production's 1 s is for readers'
    searches; a settings update on a busy machine may take longer)."""
    return superuser().options(request_timeout=30)


def read_only(block: bool, indices: list[str]) -> None:
    """The block Elasticsearch itself sets on a full disk: every write refused (403)."""
    admin().indices.put_settings(index=",".join(indices), settings={"index.blocks.read_only_allow_delete": True if block else None})


def reindex(outcomes: list):
    try:
        call_command("reindex", "--no-progress")
        outcomes.append("ok")
    except Exception as exc:  # noqa: BLE001 - a failed run must say so and lose nothing; checked at the end
        outcomes.append(type(exc).__name__)


# The reader must search this many times while the node is down: the fault lasts until it has
# (hold_until_read below), so a slow machine lengthens the fault instead of failing the test.
FAULT_READS = int(os.environ.get("CHAOS_FAULT_READS", "5"))


def node_stopped_and_started(hold) -> tuple[float, float, float]:
    """The one dev node stopped, then started: searches may fail while it is down and for the
    breaker's pause after. `hold(since)` returns once the reader has searched during the fault.
    Returns (fault's start, its end, the end of the window in which a search may fail),
    monotonic seconds."""
    down = time.monotonic()
    es_script("stop")
    try:
        time.sleep(SECONDS * 0.1)  # writes while the node is down wait in the outbox
        hold(down)
    finally:
        es_script("start")
    back = time.monotonic()
    return down, back, back + conf.get().serving.search_breaker_seconds + 2.0


def run_chaos(seed: int, build_index, capsys, node_fault) -> None:
    """The chaos run: seeded writers, a reader, two `reindex` runs around a read-only block and
    `node_fault()` (which returns when the fault began and ended, and until when a search may fail),
    then the checks of the module docstring. Shared with the three-node cluster's run
    (tests_cluster), where the fault is a killed node and no search may fail."""
    rng = random.Random(seed)
    for values in POISONED.values():
        values.clear()
    for i in range(25):
        post = make_post(f"Chaos seed post {i}", "zeppelin body", published=rng.random() < 0.9)
        for j in range(rng.randint(0, 3)):
            make_comment(post, f"seed comment {i}-{j}", approved=rng.random() < 0.7)
    build_index()
    outbox.breaker.reset()  # the setup's saves ran before the aliases existed

    stop, counts, outcomes, answered, failures, reasons = threading.Event(), {"ok": 0, "refused": 0}, [], [], [], []
    threads = [threading.Thread(target=writer, args=(seed, i, stop, counts), name=f"writer-{i}") for i in range(WRITERS)]
    threads.append(threading.Thread(target=reader, args=(stop, answered, failures, reasons), name="reader"))

    def hold_until_read(since: float, timeout: float = 60.0) -> None:
        """The fault goes on until the reader has searched FAULT_READS times since `since` (at
        most `timeout` s: a reader that never searches then fails the check below)."""
        deadline = time.monotonic() + timeout
        while sum(t >= since for t in answered + failures) < FAULT_READS and time.monotonic() < deadline:
            time.sleep(0.05)

    started = time.monotonic()
    for thread in threads:
        thread.start()
    try:
        time.sleep(SECONDS * 0.1)
        reindex(outcomes)
        blocked = [index for kind in KINDS for index in aliased_indices(admin(), kind)]
        read_only(True, blocked)
        try:
            time.sleep(SECONDS * 0.1)  # writes wait in the outbox; a few calm retries, saves stay fast
        finally:
            read_only(False, blocked)
        with connection.cursor() as cursor:  # a write no row trigger sees: the next round compares the kind
            cursor.execute("TRUNCATE blog_comment")
        down, back, up = node_fault(hold_until_read)
        reindex(outcomes)
        # The reader goes on for at least 3 s past the window in which a search may fail.
        time.sleep(max(0.0, max(started + SECONDS, max(back, up) + 3.0) - time.monotonic()))
    finally:
        stop.set()
        for thread in threads:
            thread.join(60)
    assert not [t.name for t in threads if t.is_alive()], "a writer or the reader never finished"
    log.info(
        "chaos seed %d: %d writes (%d refused), %d searches answered (%d during the fault), %d failed, reindex %s",
        seed,
        counts["ok"],
        counts["refused"],
        len(answered),
        sum(down <= t <= back for t in answered),
        len(failures),
        outcomes,
    )
    assert counts["ok"] > 50, counts
    assert sum(down <= t <= back for t in answered + failures) >= FAULT_READS, "the reader did not search during the fault"
    # A few answers prove the reader alive and answered after it all (a busy machine makes each
    # search slow: 10 in 2 s were seen beside the load benchmark).
    assert sum(t > max(back, up) for t in answered) >= 3, "the reader did not search after the fault"
    outside = [(round(t - down, 2), reason) for t, reason in zip(failures, reasons, strict=True) if not down <= t <= up]
    assert outside == [], (len(outside), outside[:3], outside[-3:], round(up - down, 2), outcomes)
    time.sleep(MAX_SCHEDULE_AHEAD + 0.5)  # every scheduled post is due now
    call_command("search_sync")
    # What can never be indexed is dead-lettered (it held up nothing: the check below covers the rest).
    still = Post.objects.filter(published=True, pub_date__lte=db_now())
    never = set(still.filter(pk__in=POISONED["refused"], title__startswith="Poison").values_list("pk", flat=True))
    never |= set(Post.objects.filter(pk__in=POISONED["unreadable"], published=True).values_list("pk", flat=True))
    assert POISONED["big"] and never <= set(DeadChange.objects.filter(kind="post").values_list("object_id", flat=True)), (never, POISONED)
    poisoned = POISONED["unreadable"] + POISONED["refused"]
    Comment.objects.filter(post_id__in=poisoned).delete()  # an admin removes the poison (and its comments)
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM blog_post WHERE id = ANY(%s)", [poisoned])
    call_command("search_sync", "--audit")  # as the scheduler's audit does: the replica-role writes
    capsys.readouterr()
    call_command("search_check")
    out = capsys.readouterr().out
    assert out.strip().endswith("0 missing, 0 extra, 0 stale"), (out, counts, outcomes)
    assert audit.audit(bulk_client()).buckets == {}  # every document's content matches its row
    assert synonyms.reconcile(bulk_client()) is False  # the set holds PostgreSQL's rules, applied
    assert all(o in ("ok", ReindexAlreadyRunning.__name__, "CommandError", RebuildFailedAfterSwap.__name__) for o in outcomes), outcomes


CHAOS_SETTINGS = {"OUTBOX_MAX_ATTEMPTS": 2, "OUTBOX_RETRY_SECONDS": 0}  # refused poison is dead within the run
