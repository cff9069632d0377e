"""Model rows -> plain dicts -> Elasticsearch: the one copy of the indexing logic.

Used by `reindex` (full rebuild with an alias swap), by the outbox (incremental sync after each
commit and on demand), by `search_check` and by the tests.

Every write and every delete carries an external version derived from the row's PostgreSQL
version (search/versions.py), so concurrent syncs, a rebuild's catch-up and a repair can run in
any order without resurrecting old content or hiding new content. A version conflict (409) is
counted and treated as harmless only when the index is one of ours (its `_meta` names the
PostgreSQL version scheme): then it proves the index already holds the same or a newer version.
"""

import logging
from collections import Counter, deque
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from django.db.models import Q
from elasticsearch import ApiError, TransportError, helpers

from search import conf, process, registry
from search.aliases import alias_name
from search.batching import batched
from search.client import get_client
from search.documents import DOCUMENTS, CommentDocument, Kind, PostDocument
from search.versions import SCHEME, doc_version

log = logging.getLogger(__name__)

_aliases_seen: set[str] = set()
_scheme_of_index: dict[str, bool] = {}

process.register("aliases and version schemes seen", lambda: (_aliases_seen.clear(), _scheme_of_index.clear()))

Key = tuple[Kind, int]  # (kind, primary key): the row a change is about
POSTS, COMMENTS = Kind.POSTS, Kind.COMMENTS


class IndexingError(Exception):
    """Elasticsearch could not take the request at all. `transient` when it was unreachable,
    overloaded or timing out (worth retrying later as is), not when it refused the content."""

    def __init__(self, message: str, *, transient: bool = True):
        super().__init__(message)
        self.transient = transient


def is_transient_status(status: int) -> bool:
    """Overload (429), a blocked index (403, e.g. disk full) or a server error: not the entry's fault."""
    return status in (403, 429) or status >= 500


@dataclass
class BulkOutcome:
    """Per outbox key: applied, or failed with a reason. 409s proven harmless are counted."""

    applied: set = field(default_factory=set)
    failed: dict = field(default_factory=dict)
    transient: set = field(default_factory=set)  # failed keys whose failure was not their own fault
    unreadable: set = field(default_factory=set)  # failed keys whose row PostgreSQL holds but Python cannot read
    conflicts: int = 0

    @property
    def blocked(self) -> bool:
        """Every failure was the cluster's (403/429/5xx: a read-only or write-blocked index,
        overload), none the entries': retry later, calmly, never item by item."""
        return bool(self.failed) and set(self.failed) <= self.transient

    @property
    def own_faults(self) -> dict:
        """The failures that are the entries' own (refused or unreadable), not the cluster's."""
        return {key: why for key, why in self.failed.items() if key not in self.transient}


# ---------------------------------------------------------------- rows -> documents


# The documents own what a row becomes (search/documents.py); these names are the indexer's seams.
def post_to_doc(post) -> dict:
    return PostDocument.prepare_row(post)


def comment_to_doc(comment) -> dict:
    return CommentDocument.prepare_row(comment)


def index_action(index: str, kind: str, obj) -> dict:
    """Index a visible row; `obj` carries `row_version` (see search/versions.py)."""
    doc = post_to_doc(obj) if kind == Kind.POSTS else comment_to_doc(obj)
    return {
        "_op_type": "index",
        "_index": index,
        "_id": str(obj.pk),
        "version": doc_version(obj.row_version, True),
        "version_type": "external_gte",
        "_source": doc,
    }


def delete_action(index: str, pk: int, *, version: int) -> dict:
    return {"_op_type": "delete", "_index": index, "_id": str(pk), "version": version, "version_type": "external_gte"}


def row_action(index: str, kind: str, obj) -> dict:
    """The action that makes the document match an existing row: index it or delete it."""
    if obj.visible_now:
        return index_action(index, kind, obj)
    return delete_action(index, obj.pk, version=doc_version(obj.row_version, False))


# ---------------------------------------------------------------- incremental changes


def merged_changes(entries) -> dict[Key, int | None]:
    """Outbox entries -> (kind, id) -> the largest tombstone version among them (None when none has one)."""
    changes: dict[Key, int | None] = {}
    for e in entries:
        key = (Kind.of_entry(e.kind), e.object_id)
        versions = [v for v in (changes.get(key), e.tombstone_version) if v is not None]
        changes[key] = max(versions) if versions else None
    return changes


# A row PostgreSQL holds but Python cannot read (a date outside years 1-9999, written by raw SQL):
# the row's own fault, like a document Elasticsearch refuses. An outage is never one of these.
UNREADABLE = (ValueError, OverflowError)


def read_rows(qs_for, pks) -> tuple[dict, dict[int, str]]:
    """({pk: row}, {pk: why unreadable}) for `pks`: one query, and row by row only when it fails,
    so a row that cannot be read fails alone."""
    if not pks:
        return {}, {}
    try:
        return {row.pk: row for row in qs_for(pks)}, {}
    except UNREADABLE:
        rows, bad = {}, {}
        for pk in sorted(pks):
            try:
                rows.update({row.pk: row for row in qs_for([pk])})
            except UNREADABLE as exc:
                bad[pk] = f"row unreadable: {exc}"
        return rows, bad


def safe_action(index: str, kind: str, row) -> tuple[dict | None, str]:
    """(action, "") for a row, or (None, why) when the row cannot become a document."""
    try:
        return row_action(index, kind, row), ""
    except UNREADABLE as exc:
        return None, f"row unreadable: {exc}"


@dataclass
class Actions:
    """What `actions_for_changes` found: (key, action) pairs to send, and rows that cannot be read
    (key -> reason; a comment re-read for its post's change is keyed as a comment)."""

    pairs: list = field(default_factory=list)
    unreadable: dict = field(default_factory=dict)

    def add(self, key: Key, action: dict | None, why: str = "", *, unreadable_key: Key | None = None) -> None:
        if why:
            self.unreadable[unreadable_key or key] = why
        elif action is not None:
            self.pairs.append((key, action))


def actions_for_changes(changes: dict[Key, int | None], targets: dict[str, str] | None = None) -> Actions:
    """The actions that make the aliases match the database for the changed rows.

    `changes` maps each key to the tombstone version of a deleted row (or None). A changed post
    also rewrites its comments' documents (they copy its title and visibility; this is how they
    appear when a scheduled post falls due). A vanished row without a tombstone needs nothing:
    the DELETE trigger's own entry carries one. Facts first (id, version, visibility: no Python
    date), so a hidden row is deleted whatever its dates; only visible rows are read, with their
    document's columns, and a row that cannot be read is reported alone, never fails the batch.
    The actions name the aliases, or the concrete indices of `targets` (kind -> index).
    """
    post_ids = {pk for kind, pk in changes if kind == POSTS}
    comment_ids = {pk for kind, pk in changes if kind == COMMENTS}
    found = Actions()
    targets = targets or {}
    _post_actions(changes, post_ids, found, targets.get(POSTS) or alias_name(POSTS))
    _comment_actions(changes, post_ids, comment_ids, found, targets.get(COMMENTS) or alias_name(COMMENTS))
    return found


def _post_actions(changes, post_ids, found: Actions, alias: str) -> None:
    facts = {pk: (v, vis) for pk, v, vis in PostDocument.versioned().filter(pk__in=post_ids).values_list("pk", "row_version", "visible_now")}

    def read(ids):
        return PostDocument.rows().filter(pk__in=ids)

    rows, bad = read_rows(read, [pk for pk, (_, visible) in facts.items() if visible])
    for pk in sorted(post_ids):
        key = (POSTS, pk)
        if pk in facts and not facts[pk][1]:  # hidden
            found.pairs.append((key, delete_action(alias, pk, version=doc_version(facts[pk][0], False))))
        elif pk in rows:
            found.add(key, *safe_action(alias, POSTS, rows[pk]))
        elif pk in bad:
            found.unreadable[key] = bad[pk]
        elif changes[key] is not None:  # vanished: its tombstone
            found.pairs.append((key, delete_action(alias, pk, version=changes[key])))


def _comment_actions(changes, post_ids, comment_ids, found: Actions, alias: str) -> None:
    replies = registry.replies()
    if replies is None:  # the site declares no replies: the index stays empty
        return
    entry_id = replies.entry_field.attname
    facts = {
        pk: (post_id, version, visible)
        for pk, post_id, version, visible in CommentDocument.versioned()
        .filter(Q(pk__in=comment_ids) | Q(**{f"{entry_id}__in": post_ids}))
        .values_list("pk", entry_id, "row_version", "visible_now")
    }

    def read(ids):
        return CommentDocument.rows().filter(pk__in=ids)

    rows, bad = read_rows(read, [pk for pk, (_, _, visible) in facts.items() if visible])
    for pk in sorted(facts):
        post_id, version, visible = facts[pk]
        key = (COMMENTS, pk) if pk in comment_ids else (POSTS, post_id)
        if not visible:
            found.pairs.append((key, delete_action(alias, pk, version=doc_version(version, False))))
            continue
        if pk in rows:
            found.add(key, *safe_action(alias, COMMENTS, rows[pk]), unreadable_key=(COMMENTS, pk))
        elif pk in bad:
            found.unreadable[(COMMENTS, pk)] = bad[pk]
    for pk in sorted(comment_ids - set(facts)):
        if changes[(COMMENTS, pk)] is not None:
            found.pairs.append(((COMMENTS, pk), delete_action(alias, pk, version=changes[(COMMENTS, pk)])))


def run_bulk(pairs: list[tuple[Key, dict]], *, client=None, require_alias: bool = True, refresh: bool = True) -> BulkOutcome:
    """Send the actions; report per key which were applied and which failed, and why.

    Raises IndexingError when the request itself fails (some items may have been applied: the
    caller bumps the index generation whatever happens). With refresh (the default) the change
    is searchable before the generation is bumped.
    """
    outcome = BulkOutcome()
    if not pairs:
        return outcome
    client = client or get_client()
    if require_alias:
        require_aliases(client, {a["_index"] for _, a in pairs})
    keys = [key for key, _ in pairs]
    try:
        results = helpers.streaming_bulk(
            client,
            [a for _, a in pairs],
            raise_on_error=False,
            raise_on_exception=True,
            yield_ok=True,
            require_alias=require_alias,
            refresh=refresh,
            chunk_size=conf.get().index.bulk_chunk_size,
        )
        for key, (ok, item) in zip(keys, results, strict=True):
            if ok:
                continue
            verdict = classify(client, item)
            if verdict == "conflict":
                outcome.conflicts += 1
            elif verdict != "harmless":
                outcome.failed.setdefault(key, verdict)
                ((_, detail),) = item.items()
                if is_transient_status(int(detail.get("status", 0))):
                    outcome.transient.add(key)
    except ApiError as exc:
        raise IndexingError(f"bulk request refused: {exc}", transient=is_transient_status(exc.status_code)) from exc
    except TransportError as exc:
        raise IndexingError(f"bulk request failed: {exc}") from exc
    outcome.applied = set(keys) - set(outcome.failed)
    if outcome.conflicts:
        log.info("%d stale write(s) refused by Elasticsearch (it holds a newer version): harmless", outcome.conflicts)
    return outcome


def classify(client, item: dict) -> str:
    """ "harmless" (a delete of a missing document), "conflict" (a 409 proven harmless) or the
    error message. A 404 on an index operation means the alias is missing: a real failure."""
    ((op, detail),) = item.items()
    status = int(detail.get("status", 0))
    if op == "delete" and status == 404 and detail.get("result") == "not_found":
        return "harmless"
    if status == 409 and uses_our_versions(client, detail.get("_index", "")):
        log.info("version conflict on %s %s/%s: %s", op, detail.get("_index"), detail.get("_id"), (detail.get("error") or {}).get("reason", ""))
        return "conflict"
    if status == 404:
        forget_aliases()
    return f"{op} {detail.get('_index')}/{detail.get('_id')}: {status} {detail.get('error')}"[:1000]


def uses_our_versions(client, index: str) -> bool:
    """Whether `index` was built with PostgreSQL row versions (its mapping's _meta says so)."""
    if index not in _scheme_of_index:
        try:
            mapping = client.indices.get_mapping(index=index).body
        except (TransportError, ApiError):
            return False
        meta = next(iter(mapping.values()), {}).get("mappings", {}).get("_meta", {})
        _scheme_of_index[index] = meta.get("versions") == SCHEME
    return _scheme_of_index[index]


def require_aliases(client, indices: set[str]) -> None:
    """Raise IndexingError unless every alias exists (checked once per process, then remembered).

    Needed because a bulk *delete* auto-creates a missing index even with require_alias, which
    would leave a concrete index squatting on the alias name.
    """
    missing = indices - _aliases_seen
    if not missing:
        return
    for name in sorted(missing):
        try:
            exists = client.indices.exists_alias(name=name)
        except (TransportError, ApiError) as exc:
            raise IndexingError(f"could not check the aliases: {exc}") from exc
        if not exists:
            raise IndexingError(f"search alias {name} does not exist yet: run `manage.py reindex`")
        _aliases_seen.add(name)


def forget_aliases() -> None:
    """Check the aliases again on the next write (after they were found missing)."""
    _aliases_seen.clear()


def apply_changes(
    changes: dict[Key, int | None], *, client=None, refresh: bool = True, targets: dict[str, str] | None = None, found: Actions | None = None
) -> BulkOutcome:
    """Make the live indices (or the concrete indices of `targets`, kind -> index: a rebuild's
    new ones) match the database for these rows. Raises IndexingError. `found`: these changes'
    actions when the caller already built them (the rows are then not read again).

    Rows that cannot be read are failed (and in `unreadable`), never sent; a comment re-read for
    its post's change that cannot be read fails under its own key, not the post's."""
    found = found if found is not None else actions_for_changes(changes, targets)
    outcome = run_bulk(found.pairs, client=client, refresh=refresh, require_alias=not targets)
    outcome.failed.update(found.unreadable)
    outcome.unreadable = set(found.unreadable)
    outcome.applied = set(changes) - set(outcome.failed)
    return outcome


# ---------------------------------------------------------------- full rebuild


def querysets() -> dict:
    """Per kind, the rows its index must hold (search/documents.py, from the site's declarations)."""
    return {kind: document.indexable_rows for kind, document in DOCUMENTS.items()}


def iter_index_actions(kind: str, index: str, unreadable: dict | None = None) -> Iterator[dict]:
    """Index actions for every visible row of a kind, read in pk ranges (bounded memory). A row
    that cannot be read (or become a document) is skipped and noted in `unreadable` (key -> why):
    it never stops the load."""
    rows, size, last = querysets()[kind](), conf.get().index.queryset_chunk_size, 0
    while True:
        pks = list(rows.filter(pk__gt=last).values_list("pk", flat=True)[:size])
        if not pks:
            return
        last = pks[-1]
        found, bad = read_rows(lambda ids: DOCUMENTS[kind].rows().filter(pk__in=ids, visible_now=True), pks)
        for pk in pks:
            action, why = (None, bad[pk]) if pk in bad else safe_action(index, kind, found[pk]) if pk in found else (None, "")
            if why and unreadable is not None:
                unreadable[(Kind(kind), pk)] = why
            if action is not None:
                yield action


def send_chunk(client, chunk: list[dict], kind_of: dict[str, str]) -> tuple[Counter, dict]:
    """One bulk request of a rebuild's load: (documents indexed per index, refused {key: why}).

    A document Elasticsearch refuses for its own content (400 parsing or mapping errors, 413) is
    left out and reported; item-level 429s are retried with backoff by the helper; a failure that
    is the cluster's (403/429/5xx after the retries, or the request itself) fails the load."""
    counts, refused = Counter(action["_index"] for action in chunk), {}
    results = helpers.streaming_bulk(
        client, chunk, chunk_size=len(chunk), raise_on_error=False, raise_on_exception=True, yield_ok=False, max_retries=3, initial_backoff=1, max_backoff=10
    )
    for _, item in results:
        ((op, detail),) = item.items()
        status = int(detail.get("status", 0))
        reason = f"{op} {detail.get('_index')}/{detail.get('_id')}: {status} {detail.get('error')}"[:1000]
        if is_transient_status(status):
            raise IndexingError(f"bulk item refused by the cluster: {reason}")
        counts[detail["_index"]] -= 1
        refused[(Kind(kind_of[detail["_index"]]), int(detail["_id"]))] = reason
    return counts, refused


def parallel_load(client, actions: Iterator[dict], *, chunk_size: int, threads: int, kind_of: dict[str, str]) -> Iterator[tuple[Counter, dict]]:
    """Send chunks of actions with `threads` bulk requests in flight; yields each chunk's number
    of documents per index and the documents refused (send_chunk), in the order the chunks were made.

    The actions are produced on the calling thread (so database queries use its connection and
    see its transaction), only the bulk requests run on the workers. At most 2 x threads chunks
    are held in memory.
    """
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="bulk") as pool:
        in_flight: deque = deque()
        for chunk in batched(actions, chunk_size):
            in_flight.append(pool.submit(send_chunk, client, chunk, kind_of))
            if len(in_flight) >= threads * 2:
                yield in_flight.popleft().result()
        while in_flight:
            yield in_flight.popleft().result()
