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
The file is per database and index prefix, in a directory of its own per user (0700, checked to be
the user's own, never through a symlink), mode 0600: no other user can pin or truncate it. A value
whose age is negative (the file outlived a reboot, the monotonic clock restarted) counts as old.
Any failure of the board leaves the search to the notification; it never fails a request.
"""

import fcntl
import hashlib
import logging
import mmap
import os
import stat
import struct
import tempfile
import threading
import time

from django.conf import settings

from search import conf, process

log = logging.getLogger(__name__)

# value, value ^ CHECK (a torn or foreign write is ignored), written at (monotonic ns).
_LAYOUT = struct.Struct("<qqq")
_CHECK = 0x5EA2C4_6E4E_7A71


class Board:
    def __init__(self):
        self.lock = threading.Lock()
        self.pid = None
        self.map: mmap.mmap | None = None
        self.fd: int | None = None

    def directory(self) -> str:
        return os.path.join(tempfile.gettempdir(), f"blogsearch-{os.getuid()}")

    def path(self) -> str:
        db = settings.DATABASES["default"]
        site = f"{db.get('HOST')}:{db.get('PORT')}/{db.get('NAME')}/{conf.get().index.prefix}"
        return os.path.join(self.directory(), f"generation-{hashlib.sha1(site.encode()).hexdigest()[:16]}")

    def _private_directory(self) -> str:
        """This user's own directory for the board, or OSError (someone else's, or a symlink)."""
        path = self.directory()
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            pass
        info = os.lstat(path)
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
            raise PermissionError(f"{path} is not a directory of this user's alone")
        return path

    def _open(self) -> bool:
        """Under self.lock: the mapping of this process (opened once per process, again after a fork)."""
        if self.pid == os.getpid():
            return self.map is not None
        self._close()
        self.pid = os.getpid()
        try:
            self._private_directory()
            fd = os.open(self.path(), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
            info = os.fstat(fd)
            if info.st_uid != os.getuid() or info.st_mode & 0o077:
                os.close(fd)
                raise PermissionError(f"{self.path()} is not this user's alone")
            if info.st_size < _LAYOUT.size:
                os.ftruncate(fd, _LAYOUT.size)
            self.fd, self.map = fd, mmap.mmap(fd, _LAYOUT.size)
        except OSError as exc:
            log.warning("generation board unavailable (other processes learn of changes by notification only): %s", exc)
            self.map = None
        return self.map is not None

    def publish(self, value: int) -> None:
        """Store `value` unless a higher, still current one is there (writers take a file lock)."""
        with self.lock:
            if not self._open():
                return
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX)
                try:
                    held = self._read()
                    if held is None or held < value:
                        self.map[: _LAYOUT.size] = _LAYOUT.pack(value, value ^ _CHECK, time.monotonic_ns())
                finally:
                    fcntl.flock(self.fd, fcntl.LOCK_UN)
            except (OSError, ValueError) as exc:
                log.warning("generation board not written: %s", exc)

    def recent(self) -> int | None:
        """The value stored less than the re-read period ago, else None. No lock on the way
        there once open (a search's hot path): the mapping is only replaced after a fork."""
        if self.pid != os.getpid() or self.map is None:
            with self.lock:
                if not self._open():
                    return None
        try:
            return self._read()
        except (OSError, ValueError, struct.error) as exc:
            log.warning("generation board unreadable: %s", exc)
            return None

    def _read(self) -> int | None:
        value, check, at = _LAYOUT.unpack_from(self.map)
        if value ^ _CHECK != check:
            return None
        age = time.monotonic_ns() - at
        if not 0 <= age <= conf.get().serving.generation_recheck_seconds * 1e9:
            return None
        return value

    def close(self) -> None:
        with self.lock:
            self._close()

    def _close(self) -> None:
        if self.map is not None:
            self.map.close()
        if self.fd is not None:
            os.close(self.fd)
        self.pid, self.map, self.fd = None, None, None


board = Board()
process.register("generation board", board.close, after_fork=lambda: board.__init__())
