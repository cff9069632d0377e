"""`search_sync --every N`: every write applied within a second, the N-second poll as a safety net.

Every statement that writes the outbox NOTIFYs `search_outbox` once it commits (migration 0013),
whatever wrote it: the ORM, `QuerySet.update()`, raw SQL, `bulk_create`, a tag renamed. The
scheduler LISTENs on a connection of its own and waits in select() on its socket, so it wakes:

- when another session wrote the outbox (its own statements are ignored: the payload is the
  writer's backend pid);
- when the next entry becomes takeable: a scheduled entry's due time, or a fresh entry once it is
  `sync.listen_grace_seconds` old (a save's own sync after the commit takes its change first,
  and a burst of writes within that time makes one round);
- every N seconds, for the full round (the outbox, TRUNCATE rechecks, the synonyms, the audit and
  dictionary timers) whatever happened: the safety net when a notification is lost (the
  listening connection broke, or `sync.outbox_listen` is off).

A round that fails pauses the wakes for `sync.sync_breaker_seconds`: an Elasticsearch that is
down is not asked at every write. Idle, the scheduler sleeps in select(): no CPU, one listening
connection beside Django's.
"""

import logging
import select
import time
from collections.abc import Callable

from django.db import connection, connections

from search.generation import KEEPALIVE, close_quietly

log = logging.getLogger(__name__)

CHANNEL = "search_outbox"


def wait_seconds(now: float, *, poll_at: float, takeable_at: float | None, not_before: float = 0.0) -> float:
    """How long to wait (all times on one monotonic clock): until the next full round, or until
    the next entry becomes takeable, but not before `not_before` (after a failed round, or a
    round whose entries another sync held)."""
    target = poll_at if takeable_at is None else min(poll_at, max(takeable_at, not_before))
    return max(0.0, target - now)


def own_backend_pid() -> int | None:
    """The backend pid of this thread's Django connection (no round trip), None when closed."""
    raw = connection.connection
    try:
        return raw.get_backend_pid() if raw is not None and not raw.closed else None
    except Exception:  # noqa: BLE001 - a broken connection: nothing of ours to ignore
        return None


class Wakeups:
    """The LISTEN connection: wait() returns True when another session wrote the outbox.

    If it breaks, wait() sleeps instead and it reconnects after `retry_seconds` (the poll still
    runs every N seconds)."""

    def __init__(self, *, retry_seconds: float = 5.0, own: Callable[[], int | None] = own_backend_pid, clock=time.monotonic):
        self.retry_seconds, self.own, self.clock = retry_seconds, own, clock
        self.conn = None
        self.retry_at = 0.0

    def start(self) -> bool:
        """Listen (before the first round reads the outbox, so no write falls between)."""
        if self.conn is not None:
            return True
        if self.clock() < self.retry_at:
            return False
        import psycopg2

        try:
            self.conn = psycopg2.connect(**{**connections["default"].get_connection_params(), **KEEPALIVE})
            self.conn.autocommit = True
            with self.conn.cursor() as cursor:
                cursor.execute(f"LISTEN {CHANNEL}")
        except Exception as exc:  # noqa: BLE001 - psycopg2's own errors: the poll goes on
            self._broken(exc)
            return False
        return True

    def wait(self, seconds: float) -> bool:
        deadline = self.clock() + seconds
        if not self.start():
            time.sleep(max(0.0, deadline - self.clock()))
            return False
        try:
            while True:
                left = deadline - self.clock()
                if left <= 0 or not select.select([self.conn], [], [], left)[0]:
                    return False
                self.conn.poll()
                if self.conn.notices:  # "terminating connection ...": the server is going away
                    raise ConnectionError(self.conn.notices[-1].strip())
                own = self.own()
                payloads = [n.payload for n in self.conn.notifies]
                del self.conn.notifies[:]
                if any(p != str(own) for p in payloads):
                    return True
        except Exception as exc:  # noqa: BLE001 - psycopg2's or the socket's errors
            self._broken(exc)
            return False

    def _broken(self, exc: Exception) -> None:
        log.warning("outbox listener failed, polling only for %.0f s: %s", self.retry_seconds, exc)
        self.close()
        self.retry_at = self.clock() + self.retry_seconds

    def close(self) -> None:
        close_quietly(self.conn)
        self.conn = None
