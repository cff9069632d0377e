"""`search_check`: is the index right? PostgreSQL's visible rows against the index's documents.

For each kind: documents missing from the index, documents of rows that are not visible (extra),
and stale documents: another version, or another content than the row's (the fingerprint
PostgreSQL computes of what a document is made of, search/versions.py RowHash: a write made with
the triggers off leaves the version alone). As cheap as it can be exact: per bucket of
`sync.audit_bucket_size` ids, each side counts its rows and sums their fingerprints in one
aggregate query; only a bucket that differs is compared id by id. Differences found are read
again on both sides before they are reported (a sync may have been applying them), and
`--repair` sends them through the same path as any change, so versions keep a repair from
overwriting anything newer. The scheduler's audit (search/sync/audit.py) is this comparison, run
every `sync.audit_every_seconds`.
"""

from dataclasses import dataclass, field

from django.db import connection, transaction
from django.db.models import Count, F, Sum
from elasticsearch import helpers

from search import conf, generation, registry
from search.aliases import alias_name
from search.client import bulk_client
from search.documents import DOCUMENTS, KINDS, Kind
from search.registry import VERSION_FIELD
from search.sync import outbox
from search.sync.indexing import apply_changes, querysets
from search.versions import doc_version

ID_FIELD = {Kind.POSTS: "post_id", Kind.COMMENTS: "comment_id"}


@dataclass
class KindCheck:
    kind: str
    missing: list = field(default_factory=list)
    extra: list = field(default_factory=list)
    stale: list = field(default_factory=list)
    index_versions: dict = field(default_factory=dict)

    @property
    def differences(self) -> int:
        return len(self.missing) + len(self.extra) + len(self.stale)


def compare(kind: str, expected: dict, indexed: dict) -> KindCheck:
    """Pure: {id: (version, fingerprint)} as PostgreSQL says and as the index holds."""
    return KindCheck(
        kind=kind,
        missing=sorted(set(expected) - set(indexed)),
        extra=sorted(set(indexed) - set(expected)),
        stale=sorted(pk for pk in set(expected) & set(indexed) if expected[pk] != indexed[pk]),
        index_versions={pk: version for pk, (version, _) in indexed.items()},
    )


def differing_buckets(expected: dict, indexed: dict) -> list[int]:
    """Pure: the buckets whose (count, fingerprints' sum) differ between the two sides."""
    return sorted(b for b in set(expected) | set(indexed) if expected.get(b) != indexed.get(b))


# ---------------------------------------------------------------- PostgreSQL's side


def postgres_buckets(kind: Kind, size: int) -> dict[int, tuple[int, int]]:
    """{bucket: (visible rows, sum of their fingerprints)}, bucket = id // size: one query."""
    rows = DOCUMENTS[kind].indexable_rows().order_by().annotate(bucket=F("pk") / size).values("bucket")
    return {r["bucket"]: (r["n"], int(r["s"] or 0)) for r in rows.annotate(n=Count("pk"), s=Sum("fingerprint"))}


def expected_rows(kind: str, *, ids=None, low: int | None = None, high: int | None = None) -> dict[int, tuple[int, int]]:
    """{id: (the version its document must carry, its fingerprint)} of the visible rows of `ids`,
    or of the ids in [low, high)."""
    qs = querysets()[kind]()
    if ids is not None:
        qs = qs.filter(pk__in=ids)
    if low is not None:
        qs = qs.filter(pk__gte=low, pk__lt=high)
    return {pk: (doc_version(v, True), f) for pk, v, f in qs.values_list("pk", "row_version", "fingerprint")}


# ---------------------------------------------------------------- the index's side


def index_buckets(client, kind: Kind, size: int) -> tuple[dict[int, tuple[int, int]], int]:
    """The same from the index, in one request: a histogram of ids with the fingerprints' sum,
    and how many documents carry no id field at all (a stray write: no bucket holds them)."""
    aggs = {
        "ids": {"histogram": {"field": ID_FIELD[kind], "interval": size, "min_doc_count": 1}, "aggs": {"s": {"sum": {"field": "fingerprint"}}}},
        "no_id": {"missing": {"field": ID_FIELD[kind]}},
    }
    body = client.search(index=alias_name(kind), size=0, aggs=aggs)["aggregations"]
    buckets = {int(b["key"]) // size: (b["doc_count"], int(b["s"]["value"])) for b in body["ids"]["buckets"]}
    return buckets, body["no_id"]["doc_count"]


def _indexed(hits) -> dict[int, tuple[int, int | None]]:
    return {int(h["_id"]): (h["_version"], (h.get("_source") or {}).get("fingerprint")) for h in hits}


def indexed_rows(client, kind: str, *, ids=None, query=None) -> dict[int, tuple[int, int | None]]:
    """{id: (version, fingerprint)} of the documents of `ids` (one mget) or matching `query` (a scan)."""
    alias = alias_name(kind)
    if ids is not None:
        if not ids:
            return {}
        docs = client.mget(index=alias, ids=[str(i) for i in ids], source=["fingerprint"])["docs"]
        return _indexed(d for d in docs if d.get("found"))
    return _indexed(helpers.scan(client, index=alias, query={"query": query}, _source=["fingerprint"], version=True))


def indexed_versions(client, kind: str, ids=None) -> dict[int, int]:
    return {pk: version for pk, (version, _) in indexed_rows(client, kind, ids=ids, query={"match_all": {}}).items()}


# ---------------------------------------------------------------- the comparison


def compare_bucket(client, kind: Kind, bucket: int, size: int) -> KindCheck:
    """Id by id within one bucket."""
    low, high = bucket * size, (bucket + 1) * size
    indexed = indexed_rows(client, kind, query={"range": {ID_FIELD[kind]: {"gte": low, "lt": high}}})
    return compare(kind, expected_rows(kind, low=low, high=high), indexed)


def compare_ids(client, kind: str, ids) -> KindCheck:
    return compare(kind, expected_rows(kind, ids=ids), indexed_rows(client, kind, ids=ids))


def first_pass(client, kind: Kind) -> KindCheck:
    """The buckets on both sides; those that differ (and the documents without an id field)
    compared id by id."""
    size = conf.get().sync.audit_bucket_size
    expected, (indexed, without_id) = postgres_buckets(kind, size), index_buckets(client, kind, size)
    found = KindCheck(kind=kind)
    parts = [compare_bucket(client, kind, b, size) for b in differing_buckets(expected, indexed)]
    if without_id:
        strays = indexed_rows(client, kind, query={"bool": {"must_not": {"exists": {"field": ID_FIELD[kind]}}}})
        parts.append(compare(kind, expected_rows(kind, ids=list(strays)), strays))
    for part in parts:
        found.missing += part.missing
        found.extra += part.extra
        found.stale += part.stale
        found.index_versions.update(part.index_versions)
    return found


def check_kind(client, kind: str) -> KindCheck:
    first = first_pass(client, Kind(kind))
    suspects = sorted(set(first.missing + first.extra + first.stale))
    if not suspects:
        return first
    client.indices.refresh(index=alias_name(kind))
    return compare_ids(client, kind, suspects)


def check(client=None, kinds=KINDS) -> list[KindCheck]:
    client = client or bulk_client()
    return [check_kind(client, kind) for kind in kinds]


def repair(results: list[KindCheck], client=None) -> dict:
    """Apply every difference as a change; returns the failures (key -> reason). A row's own
    fault (unreadable, refused) fails alone and is dead-lettered; the others are repaired.

    What was applied is verified: a 409 is taken as "the index holds a newer version", which a
    write made outside our versioning (a DELETE's tombstone, a stray external version) fakes. A
    document still missing or stale then gets a new row version (reversion) above what the index
    holds, and is applied again."""
    client = client or bulk_client()
    changes = {}
    for result in results:
        for pk in result.missing + result.stale + result.extra:
            # A vanished row's delete carries the version the index holds: it can undercut nothing.
            changes[(Kind(result.kind), pk)] = result.index_versions.get(pk)
    if not changes:
        return {}
    try:
        outcome = apply_changes(changes, client=client)
        failed = dict(outcome.failed)
        own = outcome.own_faults
        for kind, ids in still_behind(client, results, skip=set(failed)).items():
            reversion(kind, ids, above=max((indexed_versions(client, kind, ids).values()), default=0) // 2 + 1)
            again = apply_changes({(Kind(kind), pk): None for pk in ids}, client=client)
            failed.update(again.failed)
            own.update(again.own_faults)
    finally:
        generation.bump()
    for key, why in own.items():
        outbox.dead_letter(key, why)
    return failed


def still_behind(client, results: list[KindCheck], *, skip: set) -> dict[str, list[int]]:
    """{kind: ids} of the rows a repair just applied whose documents are still missing or stale."""
    behind = {}
    for result in results:
        ids = [pk for pk in result.missing + result.stale if (Kind(result.kind), pk) not in skip]
        if not ids:
            continue
        client.indices.refresh(index=alias_name(result.kind))
        again = compare_ids(client, result.kind, ids)
        if again.missing or again.stale:
            behind[result.kind] = again.missing + again.stale
    return behind


def reversion(kind: str, ids: list[int], *, above: int) -> None:
    """New row versions for `ids`, all above `above`, through the version trigger (search/triggers.py):
    the UPDATE changes no column a reader sees, so a post's comments are not re-versioned. The
    sequence only moves forward (versions just need to grow); a concurrent writer still draws a
    later value, so its change still wins."""
    declaration = registry.entries() if Kind(kind) == Kind.POSTS else registry.replies()
    table, pk = (connection.ops.quote_name(name) for name in (declaration.table, declaration.pk_column))
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT setval('search_row_version_seq', GREATEST(%s, (SELECT last_value FROM search_row_version_seq)))", [above])
        cursor.execute(f"UPDATE {table} SET {VERSION_FIELD} = 0 WHERE {pk} = ANY(%s)", [list(ids)])
