"""A reply's change reaches its entry's document: the sync gives the entry a new row version.

An entry's document holds the text of its shown replies (search/documents.py: one hit is one
entry, so a search needs no `collapse`). After a sync applies a reply's change, it re-versions
the reply's entry (`search_version = 0`: the version trigger draws the next number), in the
sync's own transaction; the entry's trigger then writes an outbox entry, and the next drain
writes the entry's document from the rows as they are then.

Why a new version and not the entry's document written beside the reply's: two syncs could
write it from two snapshots under one version, and Elasticsearch keeps whichever arrives last
(`external_gte`). A version drawn under the entry row's lock orders them: the later snapshot
carries the larger number. The entries are locked in id order, so two syncs never deadlock.

Which entries: the reply's entry now (PostgreSQL), and every entry whose document holds the
reply (Elasticsearch's `comment_ids`: the reply was deleted, hidden or moved to another entry).
A document written meanwhile from a snapshot that still held a deleted reply is out of reach of
both; its fingerprint differs from PostgreSQL's (search/versions.py entry_fingerprint), and the
audit rewrites it within `sync.audit_every_seconds`.
"""

import logging

from elasticsearch import ApiError, TransportError

from search import registry
from search.aliases import alias_name
from search.documents import Kind
from search.registry import VERSION_FIELD

log = logging.getLogger(__name__)


def holding(client, reply_ids: list[int]) -> set[int]:
    """The entries whose documents hold these replies (empty when Elasticsearch cannot say)."""
    try:
        body = client.search(
            index=alias_name(Kind.POSTS),
            query={"terms": {"comment_ids": reply_ids}},
            size=2 * len(reply_ids) + 10,
            _source=False,
            track_total_hits=False,
        ).body
    except (ApiError, TransportError) as exc:
        log.warning("could not find the entries holding %d changed replies (the audit will): %s", len(reply_ids), exc)
        return set()
    return {int(hit["_id"]) for hit in body["hits"]["hits"]}


def entries_of(client, reply_ids: list[int]) -> set[int]:
    """The entries a change of these replies touches: each reply's entry now and those holding it."""
    replies = registry.replies()
    if replies is None or not reply_ids:
        return set()
    current = set(replies.get_queryset().filter(pk__in=reply_ids).values_list(replies.entry_field.attname, flat=True))
    return {pk for pk in current if pk is not None} | holding(client, reply_ids)


def reversion(entry_ids: set[int]) -> int:
    """Give these entries new row versions (their triggers write outbox entries); how many exist."""
    if not entry_ids:
        return 0
    rows = registry.entries().get_queryset().filter(pk__in=entry_ids)
    locked = list(rows.select_for_update().order_by("pk").values_list("pk", flat=True))
    return rows.filter(pk__in=locked).update(**{VERSION_FIELD: 0})


def after_replies(client, applied) -> int:
    """Re-version the entries of the replies among the `applied` keys; how many were."""
    reply_ids = sorted(pk for kind, pk in applied if kind == Kind.COMMENTS)
    return reversion(entries_of(client, reply_ids)) if reply_ids else 0
