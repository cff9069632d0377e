"""Small per-process circuit breakers: stop calling a failing dependency for a while.

During an outage this turns every request's timeout into an immediate answer (a 503 for a
search, an outbox entry for a save, an uncached search for a cache), so worker threads are not
tied up waiting, and the dependency is tried again once the pause is over: no restart needed
when it comes back.

`Breaker` opens on one failure: right for the syncs after a commit and the result cache, where a
failure costs nothing a reader sees (the change waits in the outbox, the search goes uncached).

`RateBreaker` guards searches, where opening turns readers away: it opens only when a share of
the recent searches failed, so one node lost from a cluster (one search timed out, the client's
pool moved on to the live nodes) never answers every reader with a 503.

Why our own and not pybreaker (1.4.1, checked for issue 25): its `CircuitBreaker.call()` holds one
process-wide lock for the whole guarded call, so every search of a threaded worker would wait
behind the slowest one (upstream issue #55, open since 2021); it counts consecutive failures, any
success resets them, so it has no failure rate over a window; and its reset timeout reads the
wall clock, which can step. Here the lock guards a few counters only, never the call, and the
clock is monotonic.

Each breaker may be given a `watch` callback, told True when it opens and False when it closes
(the /metrics gauge, search/metrics.py); it is called outside the lock and only on a change.
"""

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass


def _ignore(is_open: bool) -> None:
    pass


class Breaker:
    def __init__(self, pause: Callable[[], float], *, watch: Callable[[bool], None] = _ignore):
        """`pause` gives the pause in seconds (read at each trip, so a changed setting applies)."""
        self.pause, self.watch = pause, watch
        self._open_until = 0.0
        self._lock = threading.Lock()

    def allows(self) -> bool:
        until = self._open_until
        if not until:  # closed: the common case costs one read
            return True
        if time.monotonic() < until:
            return False
        with self._lock:  # the pause is over: closed again (told once)
            closing = self._open_until == until
            if closing:
                self._open_until = 0.0
        if closing:
            self.watch(False)
        return True

    def trip(self) -> None:
        with self._lock:
            self._open_until = time.monotonic() + float(self.pause())
        self.watch(True)

    def reset(self) -> None:
        with self._lock:
            was_open, self._open_until = bool(self._open_until), 0.0
        if was_open:
            self.watch(False)


@dataclass(frozen=True)
class RateLimits:
    window_seconds: float  # the recent calls are those of the last window_seconds
    min_calls: int  # fewer recent calls than this never open it
    failure_ratio: float  # opens when at least this share of the recent calls failed
    open_seconds: float  # then refuses this long, then lets one probe through (half-open)


class RateBreaker:
    """Closed: every call goes through, and each outcome is recorded. Opens when, over the last
    `window_seconds`, at least `min_calls` calls were recorded and `failure_ratio` of them failed.
    Open: refuses for `open_seconds`, then half-open: one probe at a time goes through; its
    success closes the breaker, its failure opens it again. A probe that never reports (its
    caller hit a bug) frees its slot after `open_seconds`. `limits` is read at each use, so a
    changed setting applies."""

    def __init__(self, limits: Callable[[], RateLimits], clock: Callable[[], float] = time.monotonic, *, watch: Callable[[bool], None] = _ignore):
        self.limits, self.clock, self.watch = limits, clock, watch
        self._lock = threading.Lock()
        self._open_until: float | None = None  # None: closed
        self.reset()

    def reset(self) -> None:
        with self._lock:
            was_open = self._open_until is not None
            self._calls: deque[tuple[float, bool]] = deque()
            self._failures = 0
            self._open_until = None
            self._probe_until = 0.0  # half-open: a probe is out until then
        if was_open:
            self.watch(False)

    def allows(self) -> bool:
        with self._lock:
            if self._open_until is None:
                return True
            now = self.clock()
            if now < self._open_until or now < self._probe_until:
                return False
            self._probe_until = now + self.limits().open_seconds  # this caller is the probe
            return True

    def record(self, ok: bool) -> None:
        with self._lock:
            before = self._open_until
            self._record(ok)
            after = self._open_until
        if after != before:  # opened, closed, or opened again after a failed probe
            self.watch(after is not None)

    def _record(self, ok: bool) -> None:
        now, limits = self.clock(), self.limits()
        if self._open_until is not None:
            if now >= self._open_until:  # the probe's outcome (or a late one's: as telling)
                self._close() if ok else self._open(now, limits)
            return
        self._calls.append((now, ok))
        self._failures += not ok
        while self._calls and self._calls[0][0] < now - limits.window_seconds:
            self._failures -= not self._calls.popleft()[1]
        if len(self._calls) >= limits.min_calls and self._failures >= limits.failure_ratio * len(self._calls):
            self._open(now, limits)

    def trip(self) -> None:
        """Open now, whatever the recent calls say."""
        with self._lock:
            self._open(self.clock(), self.limits())
        self.watch(True)

    def _open(self, now: float, limits: RateLimits) -> None:
        self._open_until, self._probe_until = now + limits.open_seconds, 0.0
        self._calls.clear()
        self._failures = 0

    def _close(self) -> None:
        self._open_until, self._probe_until = None, 0.0
