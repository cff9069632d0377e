"""`search_check`: what PostgreSQL says is visible against what the index holds.

For each kind: documents missing from the index, documents of rows that are not visible (extra),
and documents whose version differs from the row's (stale). Differences found by the first pass
are read again on both sides before they are reported (a sync may have been applying them), and
`--repair` sends them through the same path as any change, so versions keep a repair from
overwriting anything newer.
"""

from dataclasses import dataclass, field

from elasticsearch import helpers

from search import generation
from search.aliases import alias_name
from search.client import bulk_client
from search.documents import KINDS, Kind
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
    fault (unreadable, refused) fails alone and is dead-lettered; the others are repaired."""
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
    finally:
        generation.bump()
    for key, why in outcome.own_faults.items():
        outbox.dead_letter(key, why)
    return outcome.failed
