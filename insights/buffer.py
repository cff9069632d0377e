"""The in-process buffer of log entries and the thread that writes them to PostgreSQL in batches.

A search must not wait for the log: record() appends a tuple under a lock (about a microsecond)
and returns. A daemon thread, started lazily by the first entry of each process (so never at
import time, and again after a fork), writes everything waiting in one batch when BATCH_SIZE
entries wait or every FLUSH_SECONDS (plain searches by COPY, instant-results bursts by an
upserting INSERT), and an atexit hook writes what is left when the process exits (gunicorn
workers exit through sys.exit). The buffer is bounded: if PostgreSQL is
unreachable, entries past BUFFER_MAX are dropped and counted rather than growing memory, and a
batch that fails to write is dropped with a warning (the log is statistics, not a ledger).
"""
import atexit
import io
import logging
import os
import threading

from django.conf import settings
from django.db import connection, connections, transaction

log = logging.getLogger(__name__)

# The columns of an entry, in the order record() builds the tuples.
COLUMNS = ("token", "source", "burst", "seq", "query", "page", "total", "strategy", "showing_for",
           "round_trips", "took_ms", "elapsed_ms", "cached")
_BURST, _SEQ = COLUMNS.index("burst"), COLUMNS.index("seq")

# Most rows are plain searches: COPY is the cheapest way in (a fifth of the time of a multi-row
# INSERT here, bench/insights_cost.py).
_COPY = f"COPY insights_searchlog ({', '.join(COLUMNS)}) FROM STDIN"

# Every keystroke of an instant-results burst updates the burst's one row; a late-arriving older
# keystroke (another worker flushing after this one) never overwrites a newer one.
_INSERT = (
    f"INSERT INTO insights_searchlog ({', '.join(COLUMNS)}) VALUES %s "
    "ON CONFLICT (burst) WHERE burst IS NOT NULL DO UPDATE SET "
    + ", ".join(f"{c} = EXCLUDED.{c}" for c in COLUMNS if c not in ("burst", "source"))
    + " WHERE insights_searchlog.seq < EXCLUDED.seq"
)


class LogBuffer:
    def __init__(self):
        self._lock = threading.Lock()
        self._flush_lock = threading.Lock()  # one INSERT at a time per process
        self._entries: list[tuple] = []
        self._wake = threading.Event()
        self._pid = None  # the process whose writer thread is running
        self.dropped = 0
        self.written = 0

    def add(self, entry: tuple) -> None:
        conf = settings.INSIGHTS
        with self._lock:
            if len(self._entries) >= conf["BUFFER_MAX"]:
                self.dropped += 1
                return
            self._entries.append(entry)
            full = len(self._entries) >= conf["BATCH_SIZE"]
        if self._pid != os.getpid():
            self._start()
        if full:
            self._wake.set()

    def pending(self) -> int:
        with self._lock:
            return len(self._entries)

    def clear(self) -> None:
        """Forget what waits (tests use it between cases)."""
        with self._lock:
            self._entries = []

    def flush(self) -> int:
        """Writes what waits in one INSERT, on the calling thread's connection; returns the count written."""
        with self._flush_lock:
            with self._lock:
                batch, self._entries = self._entries, []
            if not batch:
                return 0
            rows = _latest_per_burst(batch)
            plain = [row for row in rows if row[_BURST] is None]
            bursts = rows[len(plain):]
            try:
                from psycopg2.extras import execute_values

                with transaction.atomic(), connection.cursor() as cursor:  # all of the batch or none
                    if plain:
                        cursor.cursor.copy_expert(_COPY, io.StringIO("".join(map(_copy_line, plain))))
                    if bursts:
                        execute_values(cursor.cursor, _INSERT, bursts, page_size=len(bursts))
            except Exception:  # noqa: BLE001 - the log must never break anything else
                log.warning("search log: dropping %d entries that could not be written", len(rows), exc_info=True)
                return 0
            self.written += len(rows)
            return len(rows)

    def wake(self) -> None:
        """Makes the writer thread re-read its settings and flush now."""
        self._wake.set()

    def _start(self) -> None:
        with self._lock:
            if self._pid == os.getpid():
                return
            first = self._pid is None
            self._pid = os.getpid()
            self._entries = self._entries if first else []  # a forked child does not inherit its parent's entries
        threading.Thread(target=self._run, name="insights-log-writer", daemon=True).start()
        if first:
            atexit.register(self.flush_at_exit)

    def _run(self) -> None:
        pid = os.getpid()
        while self._pid == pid:
            self._wake.wait(settings.INSIGHTS["FLUSH_SECONDS"])
            self._wake.clear()
            try:
                self.flush()
            finally:
                # The thread's own connection: closed after each batch, so it never holds a
                # server slot idle (or keeps a test database from being dropped).
                connections.close_all()

    def flush_at_exit(self) -> None:
        if self._pid == os.getpid() and self.pending():
            self.flush()


def _copy_value(value) -> str:
    if value is None:
        return "\\N"
    if isinstance(value, bool):
        return "t" if value else "f"
    if isinstance(value, str):  # COPY's text format: backslash escapes
        return value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
    return str(value)


def _copy_line(entry: tuple) -> str:
    return "\t".join(map(_copy_value, entry)) + "\n"


def _latest_per_burst(batch: list[tuple]) -> list[tuple]:
    """The plain rows, then one row per burst (its highest seq), since one INSERT may not update
    a row twice."""
    latest: dict[str, tuple] = {}
    rows = []
    for entry in batch:
        burst = entry[_BURST]
        if burst is None:
            rows.append(entry)
        elif burst not in latest or latest[burst][_SEQ] < entry[_SEQ]:
            latest[burst] = entry
    return rows + list(latest.values())


buffer = LogBuffer()
