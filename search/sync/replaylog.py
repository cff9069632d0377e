"""The replay log: while a rebuild runs, what syncs apply to the live indices is kept for it.

A rebuild loads new indices from a snapshot of the database while syncs keep writing to the old
ones. From the moment the log is opened (`open_log`) every outbox entry a sync applies is kept,
marked `replay`, instead of deleted; after the alias swap the rebuild replays `kept_changes()` into
the new indices and closes the log (`close_log`). The flag is one row (RebuildState) naming the
PostgreSQL backend that owns it, so a log left by a killed rebuild is recognised (its backend is
gone) and released: its kept entries become ordinary pending entries again, applied to whatever
the aliases point to now. Nothing depends on a clock.
"""

from django.db import connection, transaction

from search import conf
from search.batching import batched
from search.models import PendingChange, RebuildState
from search.sync.indexing import merged_changes
from search.versions import StatementNow

_TABLE = RebuildState._meta.db_table


def is_open() -> bool:
    """Whether a rebuild's log is open, read FOR SHARE (call inside the drain's transaction, so a
    rebuild cannot read the kept entries until this sync has committed).

    A log left by a dead process (a killed rebuild) is released first."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT owner_pid, NOT EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid = owner_pid) FROM {_TABLE} WHERE id = 1 FOR SHARE")
        row = cursor.fetchone()
    if row is None or row[0] is None:
        return False
    owner, dead = row
    if dead:
        release(owner)
        return False
    return True


def release(owner: int) -> int:
    """Close the log of rebuild `owner`; its kept entries become pending again. Returns their number."""
    with transaction.atomic():
        cleared = RebuildState.objects.filter(id=1, owner_pid=owner).update(owner_pid=None)
        if not cleared:
            return 0
        return PendingChange.objects.filter(replay=True).update(replay=False, due_at=StatementNow())


def open_log() -> set[int]:
    """From now on syncs keep what they apply. The UPDATE waits for syncs in flight, so everything
    they applied is committed before the load reads the database.

    Returns the ids of the entries already due and committed now: the load will read their
    changes, so closing the log may drop them (an import followed by a rebuild does not apply
    every row twice). Entries committed later, or due later, are not in the set."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT owner_pid FROM {_TABLE} WHERE id = 1")
        row = cursor.fetchone()
    if row and row[0] is not None:
        release(row[0])  # a killed run's log (the caller holds the rebuild lock)
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {_TABLE} (id, owner_pid) VALUES (1, pg_backend_pid()) ON CONFLICT (id) DO UPDATE SET owner_pid = excluded.owner_pid")
        cursor.execute(f"SELECT id FROM {PendingChange._meta.db_table} WHERE NOT replay AND due_at <= statement_timestamp()")
        return {row[0] for row in cursor.fetchall()}


def kept_changes() -> dict:
    """The kept entries as changes, read once every sync that started before the swap has
    committed (they hold the flag FOR SHARE; this waits for them)."""
    with transaction.atomic():
        RebuildState.objects.select_for_update().filter(id=1).exists()
        return merged_changes(PendingChange.objects.filter(replay=True))


def kept_since(seen: set[int]) -> tuple[dict, set[int]]:
    """The kept entries not in `seen`, as changes, and their ids (read without waiting: the
    rebuild's pre-pass; `swap_caught_up` reads the last of them under the lock)."""
    entries = list(PendingChange.objects.filter(replay=True).exclude(id__in=seen).only("id", "kind", "object_id", "tombstone_version"))
    return merged_changes(entries), {e.id for e in entries}


def hold() -> None:
    """Take the log's row FOR UPDATE until the transaction ends: every sync that applied something
    to the live indices has committed its `replay` marks, and none can start (they read the row
    FOR SHARE for their whole drain) until the caller commits."""
    RebuildState.objects.select_for_update().filter(id=1).exists()


def close_log(covered: set[int]) -> int:
    """Close the log after a successful catch-up: drop the kept entries (now in the new indices)
    and those the load covered (see open_log). Returns how many entries were dropped."""
    with transaction.atomic():
        RebuildState.objects.filter(id=1).update(owner_pid=None)
        deleted, _ = PendingChange.objects.filter(replay=True).delete()
        for chunk in batched(sorted(covered), conf.get().index.queryset_chunk_size):
            deleted += PendingChange.objects.filter(id__in=chunk, replay=False).delete()[0]
    return deleted


def abandon() -> int:
    """After a failure: this process's kept entries become pending again (applied to whatever is live)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return release(cursor.fetchone()[0])
