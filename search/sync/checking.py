"""`search_check`: what PostgreSQL says is visible against what the index holds.

For each kind: documents missing from the index, documents of rows that are not visible (extra),
and documents whose version differs from the row's (stale). Differences found by the first pass
are read again on both sides before they are reported (a sync may have been applying them), and
`--repair` sends them through the same path as any change, so versions keep a repair from
overwriting anything newer.
"""

from dataclasses import dataclass, field

from django.db import connection, transaction
from elasticsearch import helpers

from search import generation, registry
from search.aliases import alias_name
from search.client import bulk_client
from search.documents import KINDS, Kind
from search.registry import VERSION_FIELD
from search.sync import outbox
from search.sync.indexing import apply_changes, querysets
from search.versions import doc_version


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


def expected_versions(kind: str, ids=None) -> dict[int, int]:
    """{id: the version its document must carry} for every visible row (of `ids` when given)."""
    qs = querysets()[kind]()
    if ids is not None:
        qs = qs.filter(pk__in=ids)
    return {pk: doc_version(v, True) for pk, v in qs.values_list("pk", "row_version")}


def indexed_versions(client, kind: str, ids=None) -> dict[int, int]:
    alias = alias_name(kind)
    if ids is not None:
        if not ids:
            return {}
        docs = client.mget(index=alias, ids=[str(i) for i in ids], source=False)["docs"]
        return {int(d["_id"]): d["_version"] for d in docs if d.get("found")}
    return {int(hit["_id"]): hit["_version"] for hit in helpers.scan(client, index=alias, query={"query": {"match_all": {}}}, _source=False, version=True)}


def compare(kind: str, expected: dict, indexed: dict) -> KindCheck:
    return KindCheck(
        kind=kind,
        missing=sorted(set(expected) - set(indexed)),
        extra=sorted(set(indexed) - set(expected)),
        stale=sorted(pk for pk in set(expected) & set(indexed) if expected[pk] != indexed[pk]),
        index_versions=indexed,
    )


def check_kind(client, kind: str) -> KindCheck:
    first = compare(kind, expected_versions(kind), indexed_versions(client, kind))
    suspects = first.missing + first.extra + first.stale
    if not suspects:
        return first
    client.indices.refresh(index=alias_name(kind))
    return compare(kind, expected_versions(kind, suspects), indexed_versions(client, kind, suspects))


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
        again = compare(result.kind, expected_versions(result.kind, ids), indexed_versions(client, result.kind, ids))
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
