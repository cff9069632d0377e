"""Full rebuild: new timestamped indices, bulk load, one atomic alias swap, catch-up, clean-up.

Search keeps answering from the old indices until the swap. A rebuild that fails or is killed
leaves the aliases where they were; its half-built index is deleted by the next run. Two
rebuilds at once are prevented by a PostgreSQL advisory lock, released by PostgreSQL itself
if the process dies.
"""
import logging
import time
import zlib
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Callable

from django.conf import settings
from django.db import connection
from django.utils import timezone
from elasticsearch import NotFoundError, helpers

from search import generation, outbox
from search.client import bulk_client, get_client
from search.cluster import wait_until_ready
from search.documents import KINDS, alias_name, index_body, index_pattern, new_index_name, schema_id
from search.indexing import delete_action, forget_aliases, iter_index_actions, parallel_load, querysets, run_bulk
from search.models import PendingChange

log = logging.getLogger(__name__)

# Rows changed this close before the rebuild started are caught up too (clock granularity).
CATCH_UP_MARGIN = timedelta(seconds=2)


class ReindexAlreadyRunning(Exception):
    pass


@dataclass
class KindReport:
    kind: str
    index: str
    indexed: int = 0
    seconds: float = 0.0

    @property
    def rate(self) -> float:
        return self.indexed / self.seconds if self.seconds else 0.0


@dataclass
class RebuildReport:
    kinds: list[KindReport] = field(default_factory=list)
    caught_up: int = 0
    removed_stale: list[str] = field(default_factory=list)
    removed_old: list[str] = field(default_factory=list)
    kept_old: list[str] = field(default_factory=list)
    pending_applied: int = 0
    seconds: float = 0.0


def _lock_key() -> int:
    return zlib.crc32(f"blogsearch-reindex:{settings.SEARCH['INDEX_PREFIX']}".encode())


@contextmanager
def reindex_lock():
    """Session-level advisory lock on the default connection; raises if another run holds it."""
    key = _lock_key()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [key])
        if not cursor.fetchone()[0]:
            raise ReindexAlreadyRunning(
                "another reindex is running (PostgreSQL advisory lock %d is held); wait for it to finish" % key
            )
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [key])


def aliased_indices(client, kind: str) -> list[str]:
    """The real indices behind a kind's alias (empty when the alias does not exist yet)."""
    try:
        return sorted(client.indices.get_alias(name=alias_name(kind)).body)
    except NotFoundError:
        return []


def remove_stale(client, kinds=KINDS) -> list[str]:
    """Delete indices of ours that no alias points to: leftovers of failed or killed rebuilds."""
    removed = []
    for kind in kinds:
        live = set(aliased_indices(client, kind))
        existing = client.indices.get(index=index_pattern(kind), allow_no_indices=True, expand_wildcards="open,closed").body
        for name in sorted(existing):
            if name not in live:
                client.indices.delete(index=name)
                removed.append(name)
    return removed


def create_index(client, kind: str) -> str:
    name = new_index_name(kind)
    body = index_body(kind, name)
    # No refreshes while loading; set back to the default once loaded.
    body.setdefault("settings", {})["refresh_interval"] = "-1"
    client.indices.create(index=name, **body)
    return name


def load(client, kind: str, index: str, *, progress: Callable[[int], None]) -> KindReport:
    """Stream every visible row of a kind into `index` with parallel bulk requests."""
    report = KindReport(kind=kind, index=index)
    started = time.perf_counter()
    for sent in parallel_load(client, iter_index_actions(kind, index),
                              chunk_size=settings.SEARCH["BULK_CHUNK_SIZE"], threads=settings.SEARCH["BULK_THREADS"]):
        report.indexed += sent
        progress(sent)
    client.indices.put_settings(index=index, settings={"index": {"refresh_interval": None}})
    client.indices.refresh(index=index)
    report.seconds = time.perf_counter() - started
    return report


def swap_aliases(client, new: dict[str, str]) -> dict[str, list[str]]:
    """Point each kind's alias at its new index in one atomic request; returns the replaced indices."""
    actions, old = [], {}
    for kind, index in new.items():
        alias = alias_name(kind)
        old[kind] = aliased_indices(client, kind)
        for previous in old[kind]:
            actions.append({"remove": {"index": previous, "alias": alias}})
        if client.indices.exists(index=alias) and not old[kind]:
            # A concrete index squatting on the alias name (auto-created by a stray write).
            actions.append({"remove_index": {"index": alias}})
        actions.append({"add": {"index": index, "alias": alias, "is_write_index": True}})
    client.indices.update_aliases(actions=actions)
    forget_aliases()
    generation.bump()
    return old


def reconcile_deletions(client, kind: str) -> int:
    """Delete documents whose rows are no longer visible (deleted or hidden during the rebuild)."""
    alias = alias_name(kind)
    visible = {str(pk) for pk in querysets()[kind]().values_list("pk", flat=True)}
    extra = [hit["_id"] for hit in helpers.scan(client, index=alias, query={"query": {"match_all": {}}}, _source=False)
             if hit["_id"] not in visible]
    now = timezone.now()
    run_bulk([delete_action(alias, int(pk), now=now) for pk in extra], client=client)
    return len(extra)


def rebuild(*, kinds=KINDS, keep_old: bool = False, progress_factory=None) -> RebuildReport:
    """Rebuild the given kinds' indices without search going dark. Raises ReindexAlreadyRunning."""
    client = bulk_client()
    report = RebuildReport()
    started = time.perf_counter()
    with reindex_lock():
        since = timezone.now() - CATCH_UP_MARGIN
        report.removed_stale = remove_stale(client, kinds)
        new = {}
        try:
            for kind in kinds:
                new[kind] = create_index(client, kind)
                total = querysets()[kind]().count()
                bar = progress_factory(total=total, desc=kind) if progress_factory else None
                try:
                    report.kinds.append(load(client, kind, new[kind], progress=bar.update if bar else (lambda n: None)))
                finally:
                    if bar:
                        bar.close()
            wait_until_ready(client, list(new.values()))  # never swap to an index whose copies are not all there yet
        except BaseException:
            # The aliases were not touched; drop what was half built (the next run would too).
            for index in new.values():
                try:
                    client.indices.delete(index=index)
                except Exception:  # noqa: BLE001 - cleanup is best effort, the next run retries
                    log.warning("could not delete half-built index %s", index)
            raise
        old = swap_aliases(client, new)
        # Changes made while loading went to the old indices; replay them into the new ones.
        for kind in kinds:
            alias = alias_name(kind)
            actions = list(iter_index_actions(kind, alias, modified_since=since))
            run_bulk(actions, client=client)
            report.caught_up += len(actions) + reconcile_deletions(client, kind)
        for kind, indices in old.items():
            for index in indices:
                if keep_old:
                    report.kept_old.append(index)
                else:
                    client.indices.delete(index=index)
                    report.removed_old.append(index)
        if set(kinds) == set(KINDS):
            # The rebuild read the database after these entries were written: they are applied.
            PendingChange.objects.filter(created__lt=since, due_at__lte=timezone.now()).delete()
        report.pending_applied = outbox.drain_all(batch=500, client=client).applied
        client.indices.refresh(index=",".join(alias_name(k) for k in kinds))
    report.seconds = time.perf_counter() - started
    return report


def indices_exist() -> bool:
    client = get_client()
    return all(aliased_indices(client, kind) for kind in KINDS)


def outdated_kinds() -> list[str]:
    """Kinds whose live index was built with another analysis or mapping than this release's
    (search/documents.schema_id): they must be rebuilt before searches use the new fields."""
    client = get_client()
    outdated = []
    for kind in KINDS:
        names = aliased_indices(client, kind)
        mappings = client.indices.get_mapping(index=names).body if names else {}
        if any(m["mappings"].get("_meta", {}).get("schema") != schema_id(kind) for m in mappings.values()):
            outdated.append(kind)
    return outdated
