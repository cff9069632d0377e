"""Full rebuild in small named phases: build, swap, catch up, reconcile, settle the outbox, retire.

Search keeps answering from the old indices until the atomic alias swap. Nothing depends on a
clock: from the moment the rebuild starts (the replay log is opened) every outbox entry a sync
applies to the live indices is kept, marked `replay`, and replayed into the new indices before
the swap, the last of them under the replay log's lock (so the swap never shows readers less than
they saw); after the swap the catch-up replays them again as a safety net (changes committed
after the load read the database are in the outbox either way). The old indices are kept until catch-up and reconciliation succeed; if either still
fails after its retries, the aliases are swapped back and the kept entries become pending again,
so nothing is lost, and the command says exactly that. A second concurrent rebuild is refused by
a PostgreSQL advisory lock, released by PostgreSQL itself if the process dies; the replay log of
a killed run is recovered by the next sync or rebuild.
"""

import logging
import time
import zlib
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.db import connection, transaction
from elasticsearch import ApiError, TransportError, helpers

from search import conf, generation, ownership, synonyms, vocabulary_build
from search.aliases import alias_name, aliased_indices, index_pattern, new_index_name, outdated_kinds
from search.client import bulk_client
from search.documents import KINDS, Kind, index_body
from search.sync import outbox, replaylog
from search.sync.indexing import IndexingError, apply_changes, forget_aliases, iter_index_actions, parallel_load, querysets
from search.sync.readiness import wait_until_ready
from search.versions import SCHEME

log = logging.getLogger(__name__)


class ReindexAlreadyRunning(Exception):
    pass


class CatchUpBeforeSwapFailed(Exception):
    """The new indices could not take the changes syncs made meanwhile; the aliases never moved."""


class RebuildFailedAfterSwap(Exception):
    """The new indices went live but could not be completed; the message says where things stand."""


@dataclass
class KindReport:
    kind: str
    index: str
    indexed: int = 0


@dataclass
class RebuildReport:
    kinds: list[KindReport] = field(default_factory=list)
    load_seconds: float = 0.0  # every kind's rows read and indexed, and the new indices refreshed
    caught_up: int = 0
    reconciled: int = 0
    removed_stale: list[str] = field(default_factory=list)
    removed_old: list[str] = field(default_factory=list)
    kept_old: list[str] = field(default_factory=list)
    pending_applied: int = 0
    # Documents left out, each the row's own fault (unreadable, or refused by Elasticsearch):
    # key -> why. The rebuild swaps without them and dead-letters them (admin, /healthz).
    refused: dict = field(default_factory=dict)
    vocabulary: int | None = None  # words in the dictionary stored; None when reading them failed
    seconds: float = 0.0


def _lock_key() -> int:
    return zlib.crc32(f"blogsearch-reindex:{conf.get().index.prefix}".encode())


@contextmanager
def reindex_lock():
    """Session-level advisory lock on the default connection; raises if another run holds it."""
    key = _lock_key()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [key])
        if not cursor.fetchone()[0]:
            raise ReindexAlreadyRunning(f"another reindex is running (PostgreSQL advisory lock {key} is held); wait for it to finish")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [key])


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


# ---------------------------------------------------------------- phases


def create_index(client, kind: str) -> str:
    """A new, empty index for `kind` (build() writes the synonyms set first)."""
    name = new_index_name(kind)
    body = index_body(kind, name)
    meta = body.setdefault("mappings", {}).setdefault("_meta", {})
    meta["versions"] = SCHEME
    meta[ownership.SITE_KEY] = ownership.site_name()  # no other site's reindex replaces it
    # No refreshes while loading; set back to the default once loaded.
    body.setdefault("settings", {})["refresh_interval"] = "-1"
    client.indices.create(index=name, **body)
    return name


def load(client, new: dict[str, str], *, progress: dict[str, Callable[[int], None]] | None = None, refused: dict | None = None) -> list[KindReport]:
    """Stream every visible row of each kind into its new index, then make them searchable.

    One pipeline of parallel bulk requests carries all kinds, one after the other: the next
    kind's rows are read and sent while the previous kind's last chunks are still being indexed,
    so Elasticsearch never idles between kinds, and one refresh serves every new index."""
    reports = {kind: KindReport(kind=kind, index=index) for kind, index in new.items()}
    kind_of = {index: kind for kind, index in new.items()}
    refused = {} if refused is None else refused
    actions = (action for kind, index in new.items() for action in iter_index_actions(kind, index, refused))
    cfg = conf.get()
    for sent, refused_here in parallel_load(client, actions, chunk_size=cfg.index.bulk_chunk_size, threads=cfg.index.bulk_threads, kind_of=kind_of):
        refused.update(refused_here)
        if len(refused) > cfg.sync.rebuild_max_refused:
            first = next(iter(refused.values()))
            raise IndexingError(
                f"{len(refused)} documents refused or unreadable (more than REBUILD_MAX_REFUSED={cfg.sync.rebuild_max_refused}), first: {first}"
            )
        for index, count in sent.items():
            kind = kind_of[index]
            reports[kind].indexed += count
            if progress and kind in progress:
                progress[kind](count)
    names = ",".join(new.values())
    client.indices.put_settings(index=names, settings={"index": {"refresh_interval": None}})
    client.indices.refresh(index=names)
    return list(reports.values())


def merge(client, names: str, segments: int) -> None:
    """Merge the loaded, ready indices into at most `segments` segments each, then make that searchable.

    A search pays a cost per segment for each of its clauses, and ours has many: at 900,000
    documents the 21 segments a load leaves made a search twice as slow as one segment did. Done
    before the swap, so readers never wait on it; the merged index takes edits as any other. It
    only buys speed: a merge that fails or outlasts `index.merge_timeout_seconds` (a node past
    its disk watermark starts none) is logged and the rebuild goes on."""
    if segments <= 0:
        return
    timeout = conf.get().index.merge_timeout_seconds
    try:
        answer = client.options(request_timeout=timeout).indices.forcemerge(index=names, max_num_segments=segments)
        if answer.get("_shards", {}).get("failed"):
            log.warning("merging %s: %s shard copies failed: %s", names, answer["_shards"]["failed"], answer["_shards"].get("failures"))
        client.indices.refresh(index=names)
    except (ApiError, TransportError) as exc:
        log.warning("merging %s into %d segment(s) failed or took over %.0f s; the rebuild goes on unmerged: %s", names, segments, timeout, exc)


def _timed_from_first(bar) -> Callable[[int], None]:
    """The bar's update, its clock restarted by the first one: the comments' bar is created with
    the posts' and would otherwise count the posts' load in its rate and elapsed time."""
    started = False

    def update(count: int) -> None:
        nonlocal started
        if not started:
            bar.reset(total=bar.total)
            started = True
        bar.update(count)

    return update


def build(client, kinds, report: RebuildReport, progress_factory=None) -> dict[str, str]:
    """Phase 1: new indices, loaded. On failure they are deleted and the aliases never moved."""
    new, bars = {}, {}
    # The synonyms set the new indices' search analyzers read, from PostgreSQL, before they exist:
    # an index opened before its set searches without the rules until the set's next change. If
    # Elasticsearch refuses it, the build goes on; the next search_sync round copies and reloads.
    synonyms.push(client)
    try:
        for kind in kinds:
            new[kind] = create_index(client, kind)
        if progress_factory:
            bars = {kind: progress_factory(total=querysets()[kind]().count(), desc=kind, position=i) for i, kind in enumerate(kinds)}
        started = time.perf_counter()
        try:
            report.kinds.extend(load(client, new, progress={kind: _timed_from_first(bar) for kind, bar in bars.items()}, refused=report.refused))
            report.load_seconds = time.perf_counter() - started
        finally:
            for bar in bars.values():
                bar.close()
        wait_until_ready(client, list(new.values()))  # never swap to an index whose copies are not all there yet
        merge(client, ",".join(new.values()), conf.get().index.merge_segments)
    except BaseException:
        delete_indices(client, new.values())
        raise
    return new


def swap_aliases(client, new: dict[str, str]) -> dict[str, list[str]]:
    """Phase 2: point each kind's alias at its new index in one atomic request; returns the replaced indices."""
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


def settle_failures(outcome, report: RebuildReport, what: str) -> None:
    """A change that is its row's own fault (unreadable, refused) is noted in the report and
    dead-lettered at the end; only the cluster's failures (unreachable, overloaded) are retried."""
    report.refused.update(outcome.own_faults)
    transient = {key: why for key, why in outcome.failed.items() if key in outcome.transient}
    if transient:
        raise IndexingError(f"{len(transient)} change(s) not {what}, first: {next(iter(transient.values()))}")


def catch_up_into(client, new: dict[str, str], seen: set[int], report: RebuildReport) -> int:
    """Replay into the NEW indices (by name) the entries syncs kept that are not in `seen` yet."""
    changes, ids = replaylog.kept_since(seen)
    if changes:
        settle_failures(apply_changes(changes, client=client, targets=new), report, "caught up")
    seen |= ids
    return len(changes)


def swap_caught_up(client, new: dict[str, str], report: RebuildReport) -> dict[str, list[str]]:
    """Phase 2, the swap, never showing less than readers saw: the changes syncs applied to the
    old indices meanwhile are replayed into the new ones first (most without the lock), the last
    of them and the alias swap while holding the replay log's row, so no sync writes to the old
    indices between the last replay and the swap; after the commit syncs write into the new ones."""
    seen: set[int] = set()
    with transaction.atomic():
        try:
            catch_up_into(client, new, seen, report)
            replaylog.hold()
            catch_up_into(client, new, seen, report)
        except Exception as exc:
            raise CatchUpBeforeSwapFailed(f"catching up the new indices before the swap failed: {exc}") from exc
        return swap_aliases(client, new)


def catch_up(client, report: RebuildReport | None = None) -> int:
    """Phase 3: replay into the new indices every change a sync applied to the old ones meanwhile."""
    changes = replaylog.kept_changes()
    try:
        outcome = apply_changes(changes, client=client)
    finally:
        generation.bump()
    settle_failures(outcome, report or RebuildReport(), "caught up")
    return len(changes)


def reconcile(client, kind: str, report: RebuildReport | None = None) -> int:
    """Phase 4: documents whose rows are not visible (deleted or hidden while loading) go.

    Each candidate found by the scan is re-checked afterwards through the same path as any change
    (re-read with its version, so a row published meanwhile is indexed, not deleted); a vanished
    row's delete carries the version the scan saw, which the delete can never undercut.
    """
    alias = alias_name(kind)
    visible = set(querysets()[kind]().values_list("pk", flat=True))
    candidates = {
        int(hit["_id"]): hit["_version"]
        for hit in helpers.scan(client, index=alias, query={"query": {"match_all": {}}}, _source=False, version=True)
        if int(hit["_id"]) not in visible
    }
    if not candidates:
        return 0
    try:
        outcome = apply_changes({(Kind(kind), pk): version for pk, version in candidates.items()}, client=client)
    finally:
        generation.bump()
    settle_failures(outcome, report or RebuildReport(), "reconciled")
    return len(candidates)


def complete(client, kinds, report: RebuildReport) -> None:
    """Phases 3 and 4 with retries (a 429 or a timeout after the swap is not the end)."""
    attempts = conf.get().sync.rebuild_catch_up_attempts
    for attempt in range(1, attempts + 1):
        try:
            report.caught_up = catch_up(client, report)
            report.reconciled = sum(reconcile(client, kind, report) for kind in kinds)
            return
        except (IndexingError, TransportError, ApiError) as exc:
            if attempt == attempts:
                raise
            log.warning("catch-up after the swap failed (attempt %d of %d): %s; retrying", attempt, attempts, exc)
            time.sleep(0.5 * attempt)


def retire(client, old: dict[str, list[str]], report: RebuildReport, *, keep_old: bool) -> None:
    """Phase 6: delete (or keep) the replaced indices."""
    for indices in old.values():
        for index in indices:
            if keep_old:
                report.kept_old.append(index)
            else:
                delete_indices(client, [index])
                report.removed_old.append(index)


def swap_back(client, new: dict[str, str], old: dict[str, list[str]]) -> bool:
    """Undo the swap: the aliases point at the previous indices again. False when impossible."""
    if not all(old.get(kind) for kind in new):
        return False
    actions = []
    for kind, index in new.items():
        actions.append({"remove": {"index": index, "alias": alias_name(kind)}})
        for i, previous in enumerate(old[kind]):
            actions.append({"add": {"index": previous, "alias": alias_name(kind), "is_write_index": i == 0}})
    try:
        client.indices.update_aliases(actions=actions)
    except (TransportError, ApiError):
        log.exception("could not swap the aliases back")
        return False
    forget_aliases()
    generation.bump()
    return True


def delete_indices(client, names) -> None:
    for index in names:
        try:
            client.indices.delete(index=index)
        except Exception:  # noqa: BLE001 - cleanup is best effort, the next run's remove_stale retries
            log.warning("could not delete index %s", index)


def rebuild(*, kinds=KINDS, keep_old: bool = False, progress_factory=None, take_over: bool = False) -> RebuildReport:
    """Rebuild the given kinds' indices without search going dark. Raises ReindexAlreadyRunning,
    OwnedByAnotherSite (another site built the prefix's indices, unless `take_over`; nothing changed),
    RebuildFailedAfterSwap (the message tells the truth), or the build's own error (live indices unchanged)."""
    client = bulk_client()
    report = RebuildReport()
    started = time.perf_counter()
    with reindex_lock():
        if not take_over:
            ownership.ensure_ours(client, kinds)
        report.removed_stale = remove_stale(client, kinds)
        covered = replaylog.open_log()
        if set(kinds) != set(KINDS):
            covered = set()  # a post's entry also stands for its comments' documents
        try:
            new = build(client, kinds, report, progress_factory)
        except BaseException:
            replaylog.abandon()
            raise
        try:
            old = swap_caught_up(client, new, report)
        except CatchUpBeforeSwapFailed:  # the aliases never moved
            delete_indices(client, new.values())
            replaylog.abandon()
            raise
        try:
            complete(client, kinds, report)
        except Exception as exc:
            raise RebuildFailedAfterSwap(after_swap_failure(client, new, old, exc)) from exc
        try:
            with ThreadPoolExecutor(max_workers=1, thread_name_prefix="vocabulary") as background:
                # Read only now: the words must be those of the indices as caught up, not as loaded
                # (a post deleted during the load must not leave its words known).
                fresh_before = vocabulary_build.last_fresh_id()
                words = background.submit(read_vocabulary, client, new)
                try:
                    replaylog.close_log(covered)
                    dead_letter_refused(report)
                    retire(client, old, report, keep_old=keep_old)
                finally:  # whatever happened, the dictionary must describe the live indices
                    report.vocabulary = refresh_vocabulary(client, words, fresh_before=fresh_before)
            report.pending_applied = outbox.drain_all(batch=conf.get().sync.pending_drain_batch, client=client).applied
        except Exception as exc:
            raise RebuildFailedAfterSwap(
                f"the new indices are live and caught up, but finishing the rebuild failed ({exc}); "
                f"changes waiting in the outbox are applied by the next sync or `search_sync`, and "
                f"indices left over are removed by the next rebuild. Nothing was lost."
            ) from exc
    report.seconds = time.perf_counter() - started
    return report


def dead_letter_refused(report: RebuildReport) -> None:
    """Phase 5, after the swap succeeded (a rebuild undone leaves none): the documents left out
    become dead letters, so they stay visible (admin, /healthz) after the outbox entries that
    stood for them were settled, and the admin's retry action can bring them back."""
    for key, why in sorted(report.refused.items()):
        outbox.dead_letter(key, why)
    if report.refused:
        log.error("%d document(s) left out of the rebuild and dead-lettered, first: %s", len(report.refused), next(iter(report.refused.values())))


def read_vocabulary(client, new: dict[str, str]) -> dict[str, tuple[int, int, int]]:
    """Phase 5a: the dictionary of the new indices (with the live index of a kind not rebuilt).

    Read after the catch-up and the reconciliation, so the words are those of the indices as
    live, changes made during the load included; from there fresh words join it as the sync
    indexes them (search/vocabulary_build.py). Run in the background while the replay log closes and
    the old indices are deleted (reading loads the new indices' fielddata)."""
    return vocabulary_build.collect(client, index=new.get(Kind.POSTS, alias_name(Kind.POSTS)))


def refresh_vocabulary(client, words: Future | None = None, *, fresh_before: int | None = None) -> int | None:
    """Phase 5: store the dictionary (read by `words`, or now from the live indices;
    search/vocabulary_build.py), then a generation bump so every process loads it. A failure only
    costs speed (searches ask Elasticsearch instead), so it is logged, never fatal."""
    try:
        if words is None and outdated_kinds():  # read from indices an older release built: words missing
            raise RuntimeError("the live indices were built by an older release: run `reindex` first")
        count = vocabulary_build.store(client, words=words.result() if words is not None else None, fresh_before=fresh_before)
    except Exception:  # noqa: BLE001 - Elasticsearch or PostgreSQL refusing: the rebuild itself succeeded
        log.warning("could not read the dictionary of the index's words; searches ask Elasticsearch until the next reindex", exc_info=True)
        try:  # the previous one describes other indices: searches must not trust it
            vocabulary_build.drop()
            generation.bump()
        except Exception:  # noqa: BLE001
            log.exception("could not drop the previous dictionary")
        return None
    generation.bump()
    return count


def after_swap_failure(client, new, old, exc) -> str:
    """Put things back as well as possible and describe exactly where they stand."""
    swapped_back = swap_back(client, new, old)
    pending = replaylog.abandon()
    if swapped_back:
        delete_indices(client, new.values())
        where = "the aliases point at the previous indices again"
    else:
        where = f"the aliases stay on the new indices ({', '.join(new.values())}); the previous ones are kept"
    return (
        f"reindex failed after the alias swap ({exc}); {where}; {pending} change(s) made during the rebuild "
        f"wait in the outbox (`search_sync` applies them). Nothing was lost."
    )
