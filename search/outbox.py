"""Applying outbox entries (PendingChange) to Elasticsearch, after commits and on demand.

A save never fails because of search: if Elasticsearch is down or slow the entry stays in the
outbox and is applied by the next successful sync or by `reindex --pending`. After a failure the
process stops trying for a short while (a small circuit breaker), so that a burst of saves during
an outage costs one timeout, not one each.
"""
import logging
from dataclasses import dataclass

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from elasticsearch import ApiError, TransportError

from search.breaker import Breaker
from search.indexing import IndexingError, apply_changes
from search.models import PendingChange

log = logging.getLogger(__name__)

breaker = Breaker("SYNC_BREAKER_SECONDS")


@dataclass
class DrainResult:
    applied: int = 0
    failed: int = 0
    error: str = ""


def record(kind: str, object_id: int, *, due_at=None) -> PendingChange:
    """Write an outbox entry (in the caller's transaction)."""
    now = timezone.now()
    return PendingChange.objects.create(kind=kind, object_id=object_id, created=now, due_at=due_at or now)


def drain(*, limit: int, client=None, refresh: bool = True) -> DrainResult:
    """Apply up to `limit` due entries in one bulk request; entries locked by another process are skipped."""
    with transaction.atomic():
        entries = list(
            PendingChange.objects.select_for_update(skip_locked=True)
            .filter(due_at__lte=timezone.now())
            .order_by("id")[:limit]
        )
        if not entries:
            return DrainResult()
        ids = [e.id for e in entries]
        changes = {(e.kind, e.object_id) for e in entries}
        try:
            apply_changes(changes, client=client, refresh=refresh)
        except (IndexingError, TransportError, ApiError) as exc:
            message = str(exc)[:1000]
            PendingChange.objects.filter(id__in=ids).update(attempts=F("attempts") + 1, last_error=message)
            return DrainResult(failed=len(ids), error=message)
        PendingChange.objects.filter(id__in=ids).delete()
        return DrainResult(applied=len(ids))


def drain_all(*, batch: int, client=None, refresh: bool = True) -> DrainResult:
    """Apply every due entry, batch by batch, until none is left or Elasticsearch refuses."""
    total = DrainResult()
    while True:
        result = drain(limit=batch, client=client, refresh=refresh)
        total.applied += result.applied
        if result.failed:
            total.failed += result.failed
            total.error = result.error
            return total
        if not result.applied:
            return total


def sync_after_commit(*, batch: int) -> None:
    """Run by transaction.on_commit: apply due entries (this change's and any backlog). Never raises."""
    if not breaker.allows():
        log.info("search sync skipped: Elasticsearch failed recently; the change waits in the outbox")
        return
    try:
        result = drain(limit=batch)
    except Exception:  # a save must never fail because of search
        log.exception("search sync failed; the change waits in the outbox")
        breaker.trip()
        return
    if result.failed:
        breaker.trip()
        log.warning("search sync failed (%s); %d change(s) wait in the outbox", result.error, result.failed)


def depth() -> int:
    return PendingChange.objects.count()
