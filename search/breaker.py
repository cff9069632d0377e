"""A small per-process circuit breaker: after a failure, stop calling Elasticsearch for a while.

During an outage this turns every request's timeout into an immediate answer (a 503 for a
search, an outbox entry for a save), so worker threads are not tied up waiting, and Elasticsearch
is tried again once the pause is over: no restart needed when it comes back.
"""

import threading
import time
from collections.abc import Callable


class Breaker:
    def __init__(self, pause: Callable[[], float]):
        """`pause` gives the pause in seconds (read at each trip, so a changed setting applies)."""
        self.pause = pause
        self._open_until = 0.0
        self._lock = threading.Lock()

    def allows(self) -> bool:
        return time.monotonic() >= self._open_until

    def trip(self) -> None:
        with self._lock:
            self._open_until = time.monotonic() + float(self.pause())

    def reset(self) -> None:
        with self._lock:
            self._open_until = 0.0
