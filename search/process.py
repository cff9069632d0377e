"""The per-process state of the search service, and the one way to start it over.

A web worker keeps a few things for its whole life: the Elasticsearch clients, the LISTEN
connection for the index generation, the dictionary of the index's words, circuit breakers, small caches of
what Elasticsearch said about aliases and timeouts, the settings object. Each module that keeps
such a thing registers how to drop it, here, when it is imported; `reset_process_state()` drops
them all (tests call it between tests, and after changing settings in place).

After a fork the child must not use its parent's sockets, nor close them (closing a psycopg2
connection sends a goodbye on a socket the parent still uses): each registration may give an
`after_fork` that only forgets, and every one runs in a forked child on its own.
"""

import os
import threading
from collections.abc import Callable

_lock = threading.Lock()
_resets: dict[str, tuple[Callable[[], None], Callable[[], None]]] = {}


def register(name: str, reset: Callable[[], None], *, after_fork: Callable[[], None] | None = None) -> None:
    """Remember how to drop one singleton (`name` says whose, for the listing); `after_fork`
    defaults to `reset`, which is right for state that holds no connection."""
    with _lock:
        _resets[name] = (reset, after_fork or reset)


def registered() -> list[str]:
    return sorted(_resets)


def reset_process_state() -> None:
    """Drop every registered singleton: the next use builds it again from the current settings."""
    for reset, _ in list(_resets.values()):
        reset()


def _after_fork_in_child() -> None:
    for _, after_fork in list(_resets.values()):
        after_fork()


os.register_at_fork(after_in_child=_after_fork_in_child)
