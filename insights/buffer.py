"""The in-process buffer of log entries and the thread that writes them to PostgreSQL in batches.

A search must not wait for the log: record() hands the buffer the search's fields and time and
gets back the token of the row that will count it, under a lock, in about a microsecond. Identical
searches waiting for the same batch (same query, source, page and outcome: what a cached answer
repeats) share one row, which counts them (`searches`) and keeps each one's time (`elapsed_ms`,
one value per search, so percentiles stay exact). A busy site's cached searches are exactly such
repeats: one row stands for many, which is what makes the log cheap (bench/insights_cost.py).

A daemon thread, started lazily by the first entry of each process (so never at import time, and
again after a fork), writes everything waiting in one batch when BATCH_SIZE rows wait or every
FLUSH_SECONDS (plain searches by COPY, instant-results bursts by an upserting INSERT), on a
connection it keeps while searches keep coming; an atexit hook writes what is left when the
process exits (gunicorn workers exit through sys.exit). The buffer is bounded: if PostgreSQL is
unreachable, searches past BUFFER_MAX are dropped and counted rather than growing memory, and a
batch that fails to write is dropped with a warning (the log is statistics, not a ledger).
"""

import atexit
import io
import logging
import os
import threading

from django.db import connection, transaction

from insights import conf, tokens
from insights.conf import InsightsSettings

log = logging.getLogger(__name__)

# What identifies a search in the log, in the order record() builds the key tuples; a row adds
# its token, how many searches it counts and their times.
KEY = ("source", "burst", "seq", "query", "page", "total", "strategy", "showing_for", "round_trips", "took_ms", "cached")
COLUMNS = ("token", *KEY, "searches", "elapsed_ms")
_BURST, _SEQ = KEY.index("burst"), KEY.index("seq")

# Most rows are plain searches: COPY is the cheapest way in (a fifth of the time of a multi-row
# INSERT here).
_COPY = f"COPY insights_searchlog ({', '.join(COLUMNS)}) FROM STDIN"

# Every keystroke of an instant-results burst updates the burst's one row; a late-arriving older
# keystroke (another worker flushing after this one) never overwrites a newer one.
_INSERT = (
    f"INSERT INTO insights_searchlog ({', '.join(COLUMNS)}) VALUES %s "
    "ON CONFLICT (burst) WHERE burst IS NOT NULL DO UPDATE SET "
    + ", ".join(f"{c} = EXCLUDED.{c}" for c in COLUMNS if c not in ("burst", "source", "searches"))
    + " WHERE insights_searchlog.seq < EXCLUDED.seq"
)


class LogBuffer:
    def __init__(self):
        self._lock = threading.Lock()
        self._flush_lock = threading.Lock()  # one batch at a time per process
        self._rows: dict[tuple, list] = {}  # plain searches: key -> [token, [elapsed_ms, ...]]
        self._bursts: list[tuple] = []  # instant-results keystrokes: (token, key, elapsed_ms)
        self._searches = 0  # searches waiting
        self._wake = threading.Event()
        self._pid = None  # the process whose writer thread is running
        self.dropped = 0
        self.written = 0

    def add(self, key: tuple, elapsed_ms: float, options: InsightsSettings | None = None) -> str | None:
        """Counts a search (`key`: the values of KEY) that took `elapsed_ms`; returns the token of
        the row that will count it, or None when the buffer is full and the search is dropped."""
        options = options or conf.get()
        with self._lock:
            if self._searches >= options.buffer_max:
                self.dropped += 1
                return None
            self._searches += 1
            if key[_BURST] is None:
                row = self._rows.get(key)
                if row is None:
                    row = self._rows[key] = [tokens.new_token(), []]
                row[1].append(elapsed_ms)
                token = row[0]
            else:  # a keystroke: its own row (updated by later keystrokes of the burst), its own token
                token = tokens.new_token()
                self._bursts.append((token, key, elapsed_ms))
            full = len(self._rows) + len(self._bursts) >= options.batch_size
        if self._pid != os.getpid():
            self._start()
        if full:
            self._wake.set()
        return token

    def pending(self) -> int:
        """Searches waiting to be written."""
        with self._lock:
            return self._searches

    def clear(self) -> None:
        """Forget what waits (tests use it between cases)."""
        with self._lock:
            self._rows, self._bursts, self._searches = {}, [], 0

    def flush(self) -> int:
        """Writes what waits in one transaction, on the calling thread's connection; returns the
        number of searches written (a burst is one)."""
        with self._flush_lock:
            with self._lock:
                rows, bursts = self._rows, self._bursts
                self._rows, self._bursts, self._searches = {}, [], 0
            if not rows and not bursts:
                return 0
            bursts = _latest_per_burst(bursts)
            searches = sum(len(times) for _, times in rows.values()) + len(bursts)
            try:
                from psycopg2.extras import execute_values

                with transaction.atomic(), connection.cursor() as cursor:  # all of the batch or none
                    if rows:
                        data = "".join(_copy_line(token, key, times) for key, (token, times) in rows.items())
                        cursor.cursor.copy_expert(_COPY, io.StringIO(data))
                    if bursts:
                        execute_values(cursor.cursor, _INSERT, [(token, *key, 1, [elapsed]) for token, key, elapsed in bursts], page_size=len(bursts))
            except Exception:  # noqa: BLE001 - the log must never break anything else
                log.warning("search log: dropping %d searches that could not be written", searches, exc_info=True)
                return 0
            self.written += searches
            return searches

    def wake(self) -> None:
        """Makes the writer thread re-read its settings and flush now."""
        self._wake.set()

    def _start(self) -> None:
        with self._lock:
            if self._pid == os.getpid():
                return
            first = self._pid is None
            self._pid = os.getpid()
            if not first:  # a forked child does not inherit its parent's entries
                self._rows, self._bursts, self._searches = {}, [], 0
        threading.Thread(target=self._run, name="insights-log-writer", daemon=True).start()
        if first:
            atexit.register(self.flush_at_exit)

    def _run(self) -> None:
        pid = os.getpid()
        try:
            while self._pid == pid:
                self._wake.wait(conf.get().flush_seconds)
                self._wake.clear()
                # The thread's own connection stays open while searches keep coming: opening one
                # per batch cost PostgreSQL ~5 ms of CPU each time (fork, catalog caches), more
                # than the rows themselves. It is replaced after CONN_MAX_AGE or an error, and
                # closed as soon as a wait brings nothing to write (or the batch failed), so an
                # idle process holds no server slot.
                connection.close_if_unusable_or_obsolete()
                if not self.flush():
                    connection.close()
        finally:
            connection.close()

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


def _copy_line(token: str, key: tuple, times: list[float]) -> str:
    # The times as an array literal: plain numbers, nothing to escape.
    return "\t".join((token, *map(_copy_value, key), str(len(times)), "{" + ",".join(map(str, times)) + "}")) + "\n"


def _latest_per_burst(bursts: list[tuple]) -> list[tuple]:
    """One keystroke per burst (its highest seq), since one INSERT may not update a row twice."""
    latest: dict[str, tuple] = {}
    for entry in bursts:
        burst = entry[1][_BURST]
        if burst not in latest or latest[burst][1][_SEQ] < entry[1][_SEQ]:
            latest[burst] = entry
    return list(latest.values())


buffer = LogBuffer()
