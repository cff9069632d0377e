"""Applying outbox entries (PendingChange, written by PostgreSQL triggers) to Elasticsearch.

A save never fails because of search: if Elasticsearch is down or slow the entry stays in the
outbox and is applied by the next successful sync or by `search_sync`. After a failure the
process stops trying for a short while (a small circuit breaker), so that a burst of saves during
an outage costs one timeout, not one each.

A batch Elasticsearch refuses is retried item by item, so one poison entry (a mapping conflict,
an oversize document) cannot hold up the others; an entry refused MAX_ATTEMPTS times moves to the
dead-letter table (DeadChange), shown in the admin and in /healthz. Failures that are not the
entry's fault (unreachable, overloaded, read-only index) never count as attempts.

While a rebuild runs (RebuildState), applied entries are kept, marked `replay`, for the rebuild
to replay into its new indices after the alias swap.
"""

import json
import logging
import random
import time
from dataclasses import dataclass
from datetime import timedelta

from django.db import OperationalError, connection, transaction
from django.db.models import Max
from django.utils import timezone

from search import conf, generation, metrics, process
from search.breaker import Breaker
from search.client import get_client, sync_client
from search.documents import Kind
from search.models import DeadChange, PendingChange
from search.sync import entry_refresh, freshwords, replaylog
from search.sync.indexing import UNREADABLE, Actions, BulkOutcome, IndexingError, actions_for_changes, apply_changes, merged_changes
from search.versions import StatementNow

log = logging.getLogger(__name__)

breaker = Breaker(lambda: conf.get().sync.sync_breaker_seconds, watch=metrics.breaker_watch("sync"))


process.register("sync breaker", breaker.reset)


def pause(seconds: float) -> None:
    """The wait between `drain_all`'s tries while the cluster refuses writes (a seam for tests)."""
    time.sleep(seconds)


@dataclass
class DrainResult:
    applied: int = 0
    failed: int = 0
    dead: int = 0
    conflicts: int = 0
    error: str = ""
    unreachable: bool = False
    blocked: bool = False  # every failure was the cluster refusing writes (read-only index, overload)
    refreshed: int = 0  # entries re-versioned for their replies' changes: their own outbox entries follow


def due_entries(limit: int, upto: int | None = None, min_age: float = 0.0):
    """Due entries no other sync holds; with `min_age`, only those written at least that long ago."""
    qs = PendingChange.objects.select_for_update(skip_locked=True).filter(replay=False, due_at__lte=StatementNow())
    if upto is not None:
        qs = qs.filter(id__lte=upto)
    if min_age:
        qs = qs.filter(created__lte=StatementNow() - timedelta(seconds=min_age))
    return list(qs.order_by("id")[:limit])


def next_takeable(min_age: float) -> float | None:
    """Seconds until the next entry is due and `min_age` old (0 or less: one is now), None when
    none waits: when the scheduler must wake (search/sync/scheduler.py). One query."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT extract(epoch FROM min(greatest(due_at, created + %s * interval '1 second')) - statement_timestamp()) "
            f"FROM {PendingChange._meta.db_table} WHERE NOT replay",
            [min_age],
        )
        (seconds,) = cursor.fetchone()
    return None if seconds is None else float(seconds)


def apply_isolating(changes: dict, *, client=None, refresh: bool = True, found: Actions | None = None) -> BulkOutcome:
    """Apply the changes in one bulk (of `found`, their actions, when already built); retry what
    failed item by item. Raises IndexingError only when Elasticsearch is unreachable (transient)
    for the whole batch."""
    try:
        outcome = apply_changes(changes, client=client, refresh=refresh, found=found)
    except IndexingError as exc:
        if exc.transient:
            raise
        outcome = BulkOutcome(failed={key: str(exc)[:1000] for key in changes})
    except UNREADABLE as exc:  # a row slipped past the row-by-row reading: isolate it below
        outcome = BulkOutcome(failed={key: f"row unreadable: {exc}"[:1000] for key in changes})
    if len(changes) > 1:  # only the entries' own refusals: a cluster refusing everything is not retried per item
        for key in [k for k in outcome.failed if k in changes and k not in outcome.unreadable and k not in outcome.transient]:
            try:
                single = apply_changes({key: changes[key]}, client=client, refresh=refresh)
            except IndexingError as exc:
                single = BulkOutcome(failed={key: str(exc)[:1000]}, transient={key} if exc.transient else set())
            except UNREADABLE as exc:
                single = BulkOutcome(failed={key: f"row unreadable: {exc}"[:1000]}, unreadable={key})
            outcome.conflicts += single.conflicts
            outcome.transient.discard(key)
            if key in single.applied:
                del outcome.failed[key]
                outcome.applied.add(key)
            else:
                outcome.failed.update(single.failed)
                outcome.transient |= single.transient
                outcome.unreadable |= single.unreadable
    return outcome


def dead_letter(key, reason: str, *, created=None, attempts: int = 0, tombstone_version=None) -> bool:
    """Record a change that cannot be applied (shown in the admin and /healthz; the admin's retry
    action or `search_check --repair` brings it back). At most one per row; False when it had one."""
    kind, pk = key
    existing = DeadChange.objects.filter(kind=Kind(kind).entry, object_id=pk).first()
    if existing is not None:
        versions = [v for v in (existing.tombstone_version, tombstone_version) if v is not None]
        DeadChange.objects.filter(id=existing.id).update(last_error=reason[:1000], tombstone_version=max(versions) if versions else None)
        return False
    DeadChange.objects.create(
        kind=Kind(kind).entry, object_id=pk, tombstone_version=tombstone_version, created=created or timezone.now(), attempts=attempts, last_error=reason[:1000]
    )
    log.error("%s %s moved to the dead letters: %s", Kind(kind).entry, pk, reason)
    return True


def record_outcome(entries, outcome: BulkOutcome, *, keep_for_replay: bool) -> DrainResult:
    """Delete (or keep for a running rebuild) the applied entries; count an attempt on each
    refused one, with a growing delay; move it to the dead letters at the cap. A row that cannot
    be read goes to the dead letters at once (reading it again reads the same row; an edit that
    cures it writes a new entry), as does an unreadable comment re-read for its post's change."""
    cfg = conf.get()
    result = DrainResult(conflicts=outcome.conflicts)
    applied = [e.id for e in entries if (Kind.of_entry(e.kind), e.object_id) in outcome.applied]
    done = PendingChange.objects.filter(id__in=applied)
    done.update(replay=True) if keep_for_replay else done.delete()
    result.applied = len(applied)
    own = {(Kind.of_entry(e.kind), e.object_id) for e in entries}
    for key in sorted(outcome.unreadable - own):
        result.failed += 1
        result.error = outcome.failed[key]
        result.dead += dead_letter(key, outcome.failed[key])
    for e in entries:
        key = (Kind.of_entry(e.kind), e.object_id)
        if key not in outcome.failed:
            continue
        result.failed += 1
        result.error = outcome.failed[key]
        if key in outcome.transient:
            PendingChange.objects.filter(id=e.id).update(last_error=result.error)
            continue
        attempts = e.attempts + 1
        if attempts >= cfg.sync.outbox_max_attempts or key in outcome.unreadable:
            dead_letter(key, result.error, created=e.created, attempts=attempts, tombstone_version=e.tombstone_version)
            PendingChange.objects.filter(id=e.id).delete()
            result.dead += 1
            continue
        delay = timedelta(seconds=cfg.sync.outbox_retry_seconds * 2 ** (attempts - 1))
        PendingChange.objects.filter(id=e.id).update(attempts=attempts, last_error=result.error, due_at=StatementNow() + delay)
        log.warning("outbox entry %s %s refused (attempt %d): %s", e.kind, e.object_id, attempts, result.error)
    return result


def leading_chunk(entries: list, found: Actions) -> tuple[list, Actions]:
    """The entries to apply now, and their part of `found` (the entries' actions, built once):
    their documents' smallest first, up to MAX_BULK_BYTES (a bigger one alone, in a later call),
    so a big document never holds up, nor hides from the caches' invalidation, the small edits
    due with it. The rest stay due for the next call."""
    changes, budget = merged_changes(entries), conf.get().sync.max_bulk_bytes
    sizes = dict.fromkeys(changes, 0)
    for key, action in found.pairs:
        sizes[key] += len(json.dumps(action.get("_source") or {}, default=str))
    if sum(sizes.values()) <= budget:
        return entries, found
    chosen, total = set(), 0
    for key in sorted(sizes, key=lambda k: (sizes[k], k[1])):
        if chosen and total + sizes[key] > budget:
            break
        chosen.add(key)
        total += sizes[key]
    # An unreadable comment re-read for a post's change (not a key of `changes`) is reported now.
    part = Actions(
        pairs=[(k, a) for k, a in found.pairs if k in chosen], unreadable={k: why for k, why in found.unreadable.items() if k in chosen or k not in changes}
    )
    return [e for e in entries if (Kind.of_entry(e.kind), e.object_id) in chosen], part


def account(entries, outcome: BulkOutcome, result: DrainResult, *, searchable: bool) -> None:
    """Count the round for /metrics and, when its bulk was refreshed (the changes are searchable
    now), how long each applied change took: from its statement in PostgreSQL (the trigger's
    statement_timestamp(); its due time when later: a scheduled post) to this moment, by
    PostgreSQL's clock too, so no app host's clock enters the figure."""
    label = "unreachable" if result.unreachable else "blocked" if result.blocked else "refused" if result.failed else "ok"
    metrics.sync_round(label, applied=result.applied, refused=result.failed - result.dead, dead=result.dead)
    applied = [e for e in entries if (Kind.of_entry(e.kind), e.object_id) in outcome.applied]
    if not (searchable and applied and metrics.enabled()):
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT clock_timestamp()")
        (now,) = cursor.fetchone()
    metrics.fresh([(now - max(e.created, e.due_at)).total_seconds() for e in applied])


def drain(*, limit: int, client=None, refresh: bool = True, upto: int | None = None, lock_timeout: float | None = None, min_age: float = 0.0) -> DrainResult:
    """Apply up to `limit` due entries (a leading chunk of them when their documents are big);
    entries locked by another process are skipped.

    The index generation is bumped after every attempt, in its own transaction, even when the
    bulk failed: some items may have been applied, and no cache may outlive them. `drain_all`
    calls this per chunk, so caches are invalidated per applied chunk, not per run. With
    `lock_timeout` (seconds), waiting longer for a rebuild's swap raises LockNotAvailable; with
    `min_age`, only entries written at least that long ago (due_entries).
    """
    attempted = False
    try:
        with transaction.atomic():
            if lock_timeout is not None:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT set_config('lock_timeout', %s, true)", [f"{int(lock_timeout * 1000)}ms"])
            keep = replaylog.is_open()
            entries = due_entries(limit, upto, min_age)
            if not entries:
                return DrainResult()
            attempted = True
            entries, found = leading_chunk(entries, actions_for_changes(merged_changes(entries)))
            try:
                outcome = apply_isolating(merged_changes(entries), client=client, refresh=refresh, found=found)
            except IndexingError as exc:
                message = str(exc)[:1000]
                PendingChange.objects.filter(id__in=[e.id for e in entries]).update(last_error=message)
                metrics.sync_round("unreachable", refused=len(entries))
                return DrainResult(failed=len(entries), error=message, unreachable=True)
            result = record_outcome(entries, outcome, keep_for_replay=keep)
            result.refreshed = entry_refresh.after_replies(client or get_client(), outcome.applied)
            result.blocked = outcome.blocked
            account(entries, outcome, result, searchable=refresh)
        freshwords.record(client or get_client(), found.pairs, outcome.applied)
        return result
    finally:
        if attempted:
            generation.bump()


def drain_all(*, batch: int, client=None, refresh: bool = True, min_age: float = 0.0) -> DrainResult:
    """Apply every entry due now, batch by batch, until none is left or Elasticsearch is
    unreachable. Entries written meanwhile are left to the syncs: under a steady stream of writes
    this still ends. While the cluster refuses every write (`blocked`) it tries again after each
    of BLOCKED_RETRY_DELAYS (+-20%), then stops: at most 1 + len(delays) bulk requests per
    blocked batch, never a loop."""
    total = DrainResult()
    upto = PendingChange.objects.aggregate(Max("id"))["id__max"]
    if upto is None:
        return total
    delays, tries = conf.get().sync.blocked_retry_delays, 0
    while True:
        result = drain(limit=batch, client=client, refresh=refresh, upto=upto, min_age=min_age)
        for name in ("applied", "failed", "dead", "conflicts"):
            setattr(total, name, getattr(total, name) + getattr(result, name))
        total.error = result.error or total.error
        if result.unreachable:
            total.unreachable = True
            return total
        if result.blocked:
            if tries == len(delays):
                total.blocked = True
                return total
            pause(delays[tries] * random.uniform(0.8, 1.2))
            tries += 1
            continue
        tries = 0
        if result.refreshed:  # the entries of the replies just applied: their documents now
            upto = PendingChange.objects.aggregate(Max("id"))["id__max"]
        if not (result.applied or result.failed):
            return total


def sync_after_commit(*, batch: int) -> None:
    """Run by transaction.on_commit: apply due entries (this change's and any backlog). Never raises."""
    if not breaker.allows():
        log.info("search sync skipped: Elasticsearch failed recently; the change waits in the outbox")
        return
    try:
        result = drain(limit=batch, lock_timeout=conf.get().sync.sync_lock_timeout_seconds, client=sync_client())
        if result.refreshed and not (result.unreachable or result.blocked):  # a reply's entry: its document too
            result = drain(limit=batch, lock_timeout=conf.get().sync.sync_lock_timeout_seconds, client=sync_client())
    except OperationalError as exc:
        if getattr(exc.__cause__, "pgcode", None) != "55P03":
            log.exception("search sync failed; the change waits in the outbox")
            breaker.trip()
            return
        log.info("search sync waited too long for a rebuild's alias swap; the change waits in the outbox")
        return
    except Exception:  # a save must never fail because of search
        log.exception("search sync failed; the change waits in the outbox")
        breaker.trip()
        return
    if result.unreachable or result.blocked:  # one request per pause: saves stay fast
        breaker.trip()
        log.warning("search sync failed (%s); %d change(s) wait in the outbox", result.error, result.failed)


def depth() -> int:
    return PendingChange.objects.filter(replay=False).count()


def waiting() -> tuple[int, int, str | None]:
    """(entries due now, entries due later, the next of those's due time as UTC text or None): a
    row whose date lies ahead, or moved ahead and back, keeps an entry due then, which only
    re-reads it. Text: a date past Python's year 9999 is still a date to PostgreSQL."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FILTER (WHERE due_at <= now()), count(*) FILTER (WHERE due_at > now()), "
            "to_char(min(due_at) FILTER (WHERE due_at > now()) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') "
            "FROM search_pendingchange WHERE NOT replay"
        )
        return cursor.fetchone()


def state() -> dict:
    """Outbox figures for /healthz: pending entries, the oldest due one's lag, dead letters.
    Not ok when a due entry waits longer than OUTBOX_MAX_LAG_SECONDS or any entry is dead."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT count(*), count(*) FILTER (WHERE due_at <= statement_timestamp()), "
            f"coalesce(extract(epoch FROM statement_timestamp() - min(due_at) "
            f"FILTER (WHERE due_at <= statement_timestamp())), 0), "
            f"(SELECT count(*) FROM {DeadChange._meta.db_table}) "
            f"FROM {PendingChange._meta.db_table} WHERE NOT replay"
        )
        pending, due, lag, dead = cursor.fetchone()
    lag = float(lag)
    ok = dead == 0 and lag <= conf.get().sync.outbox_max_lag_seconds
    return {"ok": ok, "pending": pending, "due": due, "oldest_due_seconds": round(lag, 1), "dead": dead}


def retry_dead(ids) -> int:
    """Move dead letters back into the outbox (after fixing their cause)."""
    with transaction.atomic():
        dead = list(DeadChange.objects.select_for_update().filter(id__in=ids))
        PendingChange.objects.bulk_create(
            [PendingChange(kind=d.kind, object_id=d.object_id, tombstone_version=d.tombstone_version, created=d.created) for d in dead]
        )
        DeadChange.objects.filter(id__in=[d.id for d in dead]).delete()
    return len(dead)
