"""Finding the writes no trigger saw, and repairing them within a stated time.

The row triggers (search/triggers.py) see every INSERT, UPDATE and DELETE, whatever wrote it,
except in two cases, handled here by the scheduler (`search_sync --every`):

* **TRUNCATE** fires no row trigger, but a statement-level one, which asks for the kind to be
  compared whole (search_recheckrequest). Every round applies those requests: `checking` finds
  the documents of rows that no longer exist and deletes them. Bound: one round.
* **Triggers off**: `session_replication_role = replica` (logical replication, some restore and
  bulk-load tools) or `ALTER TABLE ... DISABLE TRIGGER`. Nothing records such a write, so the
  audit looks for it: every `sync.audit_every_seconds`, per kind, PostgreSQL's visible rows and
  the index's documents are counted and their fingerprints summed per bucket of ids (one
  aggregate query on each side, no scan of the index); a bucket that differs is compared id by
  id and repaired: exactly `search_check --repair` (search/sync/checking.py). A fingerprint
  (search/versions.py) covers what a document is made of, so a title changed with the triggers
  off is found although its row version did not move. Bound: `audit_every_seconds` plus one round.
"""

import logging
from dataclasses import dataclass

from django.db import transaction

from search import conf
from search.documents import KINDS, Kind
from search.models import RecheckRequest
from search.sync import checking

log = logging.getLogger(__name__)


@dataclass
class AuditReport:
    checked: list  # kinds compared
    buckets: dict  # kind -> ids of the buckets that differed
    repaired: dict  # kind -> number of documents made to match
    failed: dict  # key -> why, from checking.repair


def apply_rechecks(client) -> AuditReport:
    """Compare and repair the kinds a TRUNCATE asked for (the comments' with the posts', whose
    documents hold their text), then drop the requests (one renewed meanwhile stays). A document refused for its own content is dead-lettered by the repair, as
    by `search_check --repair`: it never keeps the request, so no round fails for it forever.
    When Elasticsearch cannot be read, the check raises and the request waits for the next round."""
    requests = dict(RecheckRequest.objects.values_list("kind", "requested_at"))
    if not requests:
        return AuditReport([], {}, {}, {})
    kinds = [Kind(k) for k in requests]
    if Kind.COMMENTS in kinds and Kind.POSTS not in kinds:  # a post's document holds its comments' text
        kinds.insert(0, Kind.POSTS)
    results = checking.check(client, kinds=kinds)
    failed = checking.repair(results, client=client) if any(r.differences for r in results) else {}
    with transaction.atomic():
        for kind, at in requests.items():
            RecheckRequest.objects.filter(kind=kind, requested_at=at).delete()
    log.info("recheck after TRUNCATE: %s", {r.kind: r.differences for r in results})
    return AuditReport(list(requests), {}, {r.kind: r.differences for r in results}, failed)


def audit(client, kinds=KINDS) -> AuditReport:
    """`search_check --repair`'s comparison of each kind (search/sync/checking.py: bucket sums
    first, id by id only where they differ), repairing what differs."""
    report = AuditReport(list(kinds), {}, {}, {})
    for kind in kinds:
        result = checking.check_kind(client, kind)
        if not result.differences:
            continue
        report.buckets[kind] = sorted({pk // conf.get().sync.audit_bucket_size for pk in result.missing + result.extra + result.stale})
        report.repaired[kind] = result.differences
        report.failed.update(checking.repair([result], client=client))
        log.warning("audit: %s differed from PostgreSQL in %d bucket(s), %d document(s) repaired", kind, len(report.buckets[kind]), result.differences)
    return report
