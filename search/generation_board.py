"""The newest generation a process on this host committed, in a few bytes of shared memory.

Why: other processes learn of a bump from PostgreSQL's notification (search/generation.py), which
reaches their LISTEN connection a little after COMMIT: microseconds on a quiet host, now and then
milliseconds on a loaded one. An author's save answers once the writer heard its own
notification, but a search that another worker starts in that window would find its cached
answer under the old generation and serve the page the edit replaced. Reading the row before
every cached answer closes the window but costs a round trip per hit: the cached query's
throughput fell from 0.70x to 0.46x a hello-world view (bench/load.py on 2 cores). This board
costs a memory read: the writer stores the value here before it answers, so every process on its
host sees it at once.

Bounded on purpose: a value counts only while it is younger than the listener's own re-read
period (serving.generation_recheck_seconds), since the row is the truth: after a database restore
the row may go back below a value left here, and by then the listener has re-read it. The age is
measured on the host's monotonic clock, shared by its processes; it bounds a window and orders
nothing (values and their order come from PostgreSQL's sequence).

Processes on other hosts (or containers without a shared /tmp) rely on the notification alone.
The file is per database and index prefix, per user, mode 0600.
"""

import fcntl
import hashlib
import logging
import mmap
import os
import struct
import tempfile
import time

from django.conf import settings

from search import conf, process

log = logging.getLogger(__name__)

# value, value ^ CHECK (a torn or foreign write is ignored), written at (monotonic ns).
_LAYOUT = struct.Struct("<qqq")
_CHECK = 0x5EA2C4_6E4E_7A71


class Board:
    def __init__(self):
        self.pid = None
        self.map: mmap.mmap | None = None
        self.fd: int | None = None

    def path(self) -> str:
        db = settings.DATABASES["default"]
        site = f"{db.get('HOST')}:{db.get('PORT')}/{db.get('NAME')}/{conf.get().index.prefix}"
        return os.path.join(tempfile.gettempdir(), f"blogsearch-generation-{os.getuid()}-{hashlib.sha1(site.encode()).hexdigest()[:16]}")

    def _open(self) -> bool:
        if self.pid == os.getpid():
            return self.map is not None
        self.close()
        self.pid = os.getpid()
        try:
            fd = os.open(self.path(), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
            if os.fstat(fd).st_size < _LAYOUT.size:
                os.ftruncate(fd, _LAYOUT.size)
            self.fd, self.map = fd, mmap.mmap(fd, _LAYOUT.size)
        except OSError as exc:
            log.warning("generation board unavailable (other processes learn of changes by notification only): %s", exc)
            self.map = None
        return self.map is not None

    def publish(self, value: int) -> None:
        """Store `value` unless a higher, still current one is there (writers take a file lock)."""
        if not self._open():
            return
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        try:
            held = self._read()
            if held is None or held < value:
                self.map[: _LAYOUT.size] = _LAYOUT.pack(value, value ^ _CHECK, time.monotonic_ns())
        finally:
            fcntl.flock(self.fd, fcntl.LOCK_UN)

    def recent(self) -> int | None:
        """The value stored less than the re-read period ago, else None."""
        return self._read() if self._open() else None

    def _read(self) -> int | None:
        value, check, at = _LAYOUT.unpack_from(self.map)
        if value ^ _CHECK != check:
            return None
        if time.monotonic_ns() - at > conf.get().serving.generation_recheck_seconds * 1e9:
            return None
        return value

    def close(self) -> None:
        if self.map is not None:
            self.map.close()
        if self.fd is not None:
            os.close(self.fd)
        self.pid, self.map, self.fd = None, None, None


board = Board()
process.register("generation board", board.close, after_fork=lambda: board.__init__())
