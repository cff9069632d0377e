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
  id and repaired like `search_check --repair`. A fingerprint (search/versions.py) covers what a
  document is made of, so a title changed with the triggers off is found although its row version
  did not move. Bound: `audit_every_seconds` plus one round.
"""

import logging
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Count, F, Sum
from elasticsearch import helpers

from search import conf
from search.aliases import alias_name
from search.documents import DOCUMENTS, KINDS, Kind
from search.models import RecheckRequest
from search.sync import checking
from search.versions import doc_version

log = logging.getLogger(__name__)

ID_FIELD = {Kind.POSTS: "post_id", Kind.COMMENTS: "comment_id"}


@dataclass
class AuditReport:
    checked: list  # kinds compared
    buckets: dict  # kind -> ids of the buckets that differed
    repaired: dict  # kind -> number of documents made to match
    failed: dict  # key -> why, from checking.repair


def apply_rechecks(client) -> AuditReport:
    """Compare and repair the kinds a TRUNCATE asked for, then drop the requests (one renewed
    meanwhile stays). A document refused for its own content is dead-lettered by the repair, as
    by `search_check --repair`: it never keeps the request, so no round fails for it forever.
    When Elasticsearch cannot be read, the check raises and the request waits for the next round."""
    requests = dict(RecheckRequest.objects.values_list("kind", "requested_at"))
    if not requests:
        return AuditReport([], {}, {}, {})
    results = checking.check(client, kinds=[Kind(k) for k in requests])
    failed = checking.repair(results, client=client) if any(r.differences for r in results) else {}
    with transaction.atomic():
        for kind, at in requests.items():
            RecheckRequest.objects.filter(kind=kind, requested_at=at).delete()
    log.info("recheck after TRUNCATE: %s", {r.kind: r.differences for r in results})
    return AuditReport(list(requests), {}, {r.kind: r.differences for r in results}, failed)


def postgres_buckets(kind: Kind, size: int) -> dict[int, tuple[int, int]]:
    """{bucket: (visible rows, sum of their fingerprints)}, bucket = id // size."""
    rows = DOCUMENTS[kind].indexable_rows().order_by().annotate(bucket=F("pk") / size).values("bucket")
    return {r["bucket"]: (r["n"], int(r["s"] or 0)) for r in rows.annotate(n=Count("pk"), s=Sum("fingerprint"))}


def index_buckets(client, kind: Kind, size: int) -> dict[int, tuple[int, int]]:
    """The same, from the index: a histogram of ids with the fingerprints' sum (one request)."""
    aggs = {"ids": {"histogram": {"field": ID_FIELD[kind], "interval": size, "min_doc_count": 1}, "aggs": {"s": {"sum": {"field": "fingerprint"}}}}}
    body = client.search(index=alias_name(kind), size=0, aggs=aggs)
    return {int(b["key"]) // size: (b["doc_count"], int(b["s"]["value"])) for b in body["aggregations"]["ids"]["buckets"]}


def compare_bucket(client, kind: Kind, bucket: int, size: int) -> checking.KindCheck:
    """Id by id within one bucket: missing, extra, and stale (another fingerprint or version)."""
    low, high = bucket * size, (bucket + 1) * size
    rows = DOCUMENTS[kind].indexable_rows().filter(pk__gte=low, pk__lt=high).values_list("pk", "row_version", "fingerprint")
    expected = {pk: (doc_version(v, True), f) for pk, v, f in rows}
    hits = helpers.scan(
        client, index=alias_name(kind), query={"query": {"range": {ID_FIELD[kind]: {"gte": low, "lt": high}}}}, _source=["fingerprint"], version=True
    )
    indexed = {int(h["_id"]): (h["_version"], h["_source"].get("fingerprint")) for h in hits}
    return checking.KindCheck(
        kind=kind,
        missing=sorted(set(expected) - set(indexed)),
        extra=sorted(set(indexed) - set(expected)),
        stale=sorted(pk for pk in set(expected) & set(indexed) if expected[pk] != indexed[pk]),
        index_versions={pk: v for pk, (v, _) in indexed.items()},
    )


def audit(client, kinds=KINDS) -> AuditReport:
    """Compare each kind's buckets; compare and repair those that differ."""
    size = conf.get().sync.audit_bucket_size
    report = AuditReport(list(kinds), {}, {}, {})
    for kind in kinds:
        expected, indexed = postgres_buckets(Kind(kind), size), index_buckets(client, Kind(kind), size)
        differing = sorted(b for b in set(expected) | set(indexed) if expected.get(b) != indexed.get(b))
        if not differing:
            continue
        results = [compare_bucket(client, Kind(kind), b, size) for b in differing]
        report.buckets[kind], report.repaired[kind] = differing, sum(r.differences for r in results)
        report.failed.update(checking.repair([r for r in results if r.differences], client=client))
        log.warning("audit: %s differed from PostgreSQL in %d bucket(s), %d document(s) repaired", kind, len(differing), report.repaired[kind])
    return report
