"""The index generation (see IndexGeneration): read by the caches, bumped by every index write.

Reading it from PostgreSQL on every search cost a cached answer about as much as everything else
it does (0.65 ms of a 1.2 ms request). So each process *listens* instead: a trigger (migration
0007) NOTIFYs `search_generation` with the new value whenever the row changes, and `latest()`
reads what arrived on the process's own LISTEN connection without a round trip (a non-blocking
read of its socket, microseconds). Why this is as safe as the read it replaces:

- PostgreSQL delivers a notification only once the bump has committed, in commit order, and the
  value is taken from the committed row, so a process never sees a generation that does not
  exist (a bump in a transaction that rolls back notifies nobody).
- `latest()` drains the socket on every call, so a search sees every bump whose notification has
  reached this host before it started: the window is the notification's delivery after COMMIT
  (tens of microseconds on one host), the same kind of window the read had between the
  Elasticsearch refresh and the bump's commit.
- Another process on this host that searches before the notification reached it still sees the
  bump: the writer also posts it to a few bytes of shared memory before it answers
  (search/generation_board.py; measured: a read before every cached answer cost its throughput a third).
- Bounded fallback: if the listening connection breaks, searches read the row as before (and the
  listener reconnects after GENERATION_RECHECK_SECONDS); even while it looks healthy, the row is
  re-read every GENERATION_RECHECK_SECONDS, so a connection that silently stopped delivering can
  never keep a process on an old generation for longer than that.
- A search in a transaction that bumped the generation itself (a view or a test that wrote
  before searching) reads the row on its own connection, which sees its own uncommitted bump.
  Values come from a sequence (migration 0008), so a rolled-back bump's value is never used
  again: whatever was cached under it can never be served for a later index state.

serving.generation_listen (SEARCH_GENERATION_LISTEN=0) switches listening off (e.g. behind a transaction-pooling
PgBouncer, where LISTEN does not work): every search then reads the row.
"""

import logging
import os
import select
import threading
import time

from django.db import Error, connection, connections, transaction

from search import conf, generation_board, process
from search.models import IndexGeneration

log = logging.getLogger(__name__)


def close_quietly(conn) -> None:
    """Close a listening connection of our own, which may already be broken (None: nothing)."""
    if conn is not None:
        try:
            conn.close()
        except Exception:  # noqa: BLE001 - already broken
            pass


_ROW_ID = 1
CHANNEL = "search_generation"
SEQUENCE = "search_generation_seq"
# The listening connection lives long and idle, which firewalls and NATs drop silently: TCP
# keepalives notice within seconds, and a request on a dead connection fails after 2 s instead
# of TCP's ~15 minutes of retransmissions.
KEEPALIVE = {"connect_timeout": 2, "keepalives": 1, "keepalives_idle": 10, "keepalives_interval": 2, "keepalives_count": 3, "tcp_user_timeout": 2000}


def bump() -> None:
    """Advance the generation; one upsert. Its trigger notifies every listening process when the
    transaction commits; this process takes the new value at once (once committed), without
    waiting for its own notification."""
    table = IndexGeneration._meta.db_table
    with connection.cursor() as cursor:
        # Never a value used before (not even by a bump that was rolled back), and always above
        # the committed one, whichever of two concurrent bumps got its number first.
        cursor.execute(
            f"INSERT INTO {table} (id, value) VALUES (%s, nextval(%s)) ON CONFLICT (id) DO UPDATE "
            f"SET value = GREATEST({table}.value + 1, nextval(%s)) RETURNING value",
            [_ROW_ID, SEQUENCE, SEQUENCE],
        )
        value = cursor.fetchone()[0]
    if connection.in_atomic_block:
        _thread.bumped_in_transaction = True  # until it ends, this thread reads the row (latest())
    transaction.on_commit(lambda: committed(value))  # at once in autocommit mode


def committed(value: int) -> None:
    """A bump of this process committed: tell this host's processes at once (the board), take it
    here, and return once PostgreSQL has told the other hosts too (almost surely)."""
    generation_board.board.publish(value)
    listener.saw(value, wait=True)


def current() -> int:
    """The committed generation (or this transaction's own), read from the row.

    A connection PostgreSQL ended (a restart, an idle timeout) fails every later query with
    InterfaceError "connection already closed", which is no DatabaseError: outside a transaction
    it is dropped and the row read once more on a new one. Raises django.db.Error when PostgreSQL
    cannot say at all."""
    try:
        return _read_row()
    except Error:
        if connection.in_atomic_block:
            raise  # the transaction is lost with its connection: its caller must know
        connection.close()
        return _read_row()


def _read_row() -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT value FROM {IndexGeneration._meta.db_table} WHERE id = %s", [_ROW_ID])
        row = cursor.fetchone()
    return row[0] if row else 0


_thread = threading.local()


def latest() -> int:
    """The generation a search should use: from the listener when it is healthy, else read.

    Raises django.db.Error when PostgreSQL cannot say at all. (Django's `connection` is looked up
    only after this thread bumped inside a transaction: the lookup costs more than the listener.)"""
    if getattr(_thread, "bumped_in_transaction", False):
        if connection.in_atomic_block:
            return current()  # its own uncommitted bump, which no notification will tell
        _thread.bumped_in_transaction = False
    if not conf.get().serving.generation_listen:
        return current()
    value = listener.value()
    if value is None:
        return current()
    # A bump another process on this host committed moments ago, whose notification may still be
    # on its way (search/generation_board.py).
    posted = generation_board.board.recent()
    return value if posted is None or posted <= value else posted


class Listener:
    """One LISTEN connection per process (made lazily, again after a fork), shared by its threads."""

    reread_sql = f"SELECT value FROM {IndexGeneration._meta.db_table} WHERE id = %s"

    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self.lock = threading.Lock()
        self.pid = None
        self.conn = None
        self.generation: int | None = None
        self.verified = 0.0  # when the row was last read on the listening connection
        self.retry_at = 0.0  # after a failure, no new connection before this

    def value(self) -> int | None:
        """The latest generation, or None while not listening (the caller reads the row)."""
        recheck = conf.get().serving.generation_recheck_seconds
        # Another thread connecting or re-reading (network I/O): read the row instead of waiting.
        if not self.lock.acquire(blocking=False):
            return None
        try:
            try:
                if self.pid != os.getpid():  # a forked child must not share its parent's socket
                    self.pid, self.conn, self.generation = os.getpid(), None, None
                now = self.clock()
                if self.conn is None:
                    if now < self.retry_at:
                        return None
                    self._connect()
                    self._verify(now)
                else:
                    self.conn.poll()  # reads what already arrived; never waits
                    self._check_notices()
                    while self.conn.notifies:  # in commit order; max() in case saw() came first
                        self.generation = max(self.generation or 0, int(self.conn.notifies.pop(0).payload))
                    if now - self.verified >= recheck:
                        self._verify(now)
                return self.generation
            except Exception as exc:  # noqa: BLE001 - psycopg2's own errors (not Django's), socket errors
                log.warning("index generation listener failed, reading it per search for %.0f s: %s", recheck, exc)
                self.close()
                self.retry_at = self.clock() + recheck
                return None
        finally:
            self.lock.release()

    def _check_notices(self) -> None:
        """A server ending the session sends a notice first ("FATAL: terminating connection ...",
        "WARNING: terminating connection due to immediate shutdown"); poll() reads it without an
        error and raises only on the next call. Nothing else sends notices to this idle
        connection, so any notice counts as a broken connection (it reconnects, nothing lost)."""
        if self.conn.notices:
            notices = list(self.conn.notices)
            del self.conn.notices[:]
            raise ConnectionError(notices[-1].strip())

    def saw(self, value: int, *, wait: bool = False) -> None:
        """A bump this process committed: no need to wait for its notification to search with it.

        With `wait`, return once the notification has come back on this process's own LISTEN
        connection (or after GENERATION_WAIT_SECONDS): PostgreSQL signals every listening session
        at the same moment, so by then the others have (almost surely) been told too, and the
        writer answers the author only after that. Under CPU contention a listening session can
        take a few milliseconds to send; without this wait a reader process asked right after the
        commit (tests/test_cache.py) could still hear about it too late, about 1 time in 10."""
        with self.lock:
            if self.pid != os.getpid() or self.conn is None or self.generation is None:
                return
            heard = self.generation
            deadline = self.clock() + (conf.get().serving.generation_wait_seconds if wait else 0)
            try:
                while heard < value and self.clock() < deadline:
                    select.select([self.conn], [], [], max(0.0, deadline - self.clock()))
                    self.conn.poll()
                    self._check_notices()
                    while self.conn.notifies:
                        heard = max(heard, int(self.conn.notifies.pop(0).payload))
            except Exception as exc:  # noqa: BLE001 - the next value() call notices and falls back
                log.warning("index generation listener failed while waiting: %s", exc)
            self.generation = max(self.generation, heard, value)

    def _connect(self) -> None:
        import psycopg2

        params = {**connections["default"].get_connection_params(), **KEEPALIVE}
        self.conn = psycopg2.connect(**params)
        self.conn.autocommit = True
        with self.conn.cursor() as cursor:
            cursor.execute(f"LISTEN {CHANNEL}")

    def _verify(self, now: float) -> None:
        """Read the row on the listening connection (after LISTEN, so no bump can fall between)."""
        with self.conn.cursor() as cursor:
            cursor.execute(self.reread_sql, [_ROW_ID])
            row = cursor.fetchone()
        # A bump committed after the SELECT's snapshot is notified at its end and collected here:
        # keep the newest of both (the row is authoritative, even when lower: a restore).
        heard = [int(n.payload) for n in self.conn.notifies]
        del self.conn.notifies[:]
        self.generation = max([(row[0] if row else None) or 0, *heard])
        self.verified = now

    def close(self) -> None:
        close_quietly(self.conn)
        self.conn, self.generation = None, None


listener = Listener()
# In a forked child the parent's connection is only forgotten (and a lock another thread held at
# the fork would stay locked forever: a new one).
process.register("generation listener", listener.close, after_fork=lambda: listener.__init__(listener.clock))
process.register("generation transaction flag", lambda: _thread.__dict__.clear())
