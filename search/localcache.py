"""Django's local-memory cache, bounded in bytes as well as in entries: the result cache's backend
when a site has no shared cache (config/settings.py, docs/search.md#the-caches).

Django's LocMemCache bounds only the number of entries. An answer of the result cache is a pickled
tuple of 2-4 KB (highlighted snippets, titles, URLs, the facets), so the 20,000 entries the site
allowed grew a gunicorn worker by about 3.3 KB an entry: ~20 MB after the load benchmark
(6,000 fresh queries a worker), ~65 MB once full, in every worker (docs/benchmarks.md#memory).
Expired entries are never swept, only culled when the bound is reached, so any worker ends up full.

`OPTIONS["MAX_BYTES"]` bounds the pickled values and keys (with a fixed overhead per entry for the
dict slots, the expiry and the objects' headers); past it the least recently used entries go, one
by one, until the new one fits. A value larger than the whole budget is not stored. Without
MAX_BYTES this is Django's LocMemCache. Shared by the threads of a process, as Django's is.
"""

import pickle

from django.core.cache.backends import locmem
from django.core.cache.backends.base import DEFAULT_TIMEOUT

# Bytes an entry costs besides its key and pickled value: the OrderedDict's slot and link, the
# expiry dict's slot and float, the bytes and str objects' headers (measured: ~200).
ENTRY_OVERHEAD = 200

_sizes: dict[str, list[int]] = {}  # LOCATION -> [bytes held], shared like Django's entries


def entry_size(key: str, pickled: bytes) -> int:
    return len(key) + len(pickled) + ENTRY_OVERHEAD


class LocMemCache(locmem.LocMemCache):
    def __init__(self, name, params):
        super().__init__(name, params)
        self._max_bytes = int((params.get("OPTIONS") or {}).get("MAX_BYTES") or 0)
        self._held = _sizes.setdefault(name, [0])

    @property
    def bytes_held(self) -> int:
        return self._held[0]

    def _set(self, key, value, timeout=DEFAULT_TIMEOUT):
        """Under the lock (Django's callers hold it): make room, then store."""
        self._delete(key)
        size = entry_size(key, value)
        if self._max_bytes and size > self._max_bytes:
            return
        while self._max_bytes and self._cache and self._held[0] + size > self._max_bytes:
            self._evict()
        super()._set(key, value, timeout)
        self._held[0] += size

    def _evict(self) -> None:
        """The least recently used entry (Django keeps the most recent first)."""
        key, value = self._cache.popitem()
        self._expire_info.pop(key, None)
        self._held[0] -= entry_size(key, value)

    def _cull(self):
        if self._cull_frequency == 0:
            self._cache.clear()
            self._expire_info.clear()
            self._held[0] = 0
            return
        for _ in range(len(self._cache) // self._cull_frequency):
            self._evict()

    def _delete(self, key):
        value = self._cache.get(key)
        if not super()._delete(key):
            return False
        self._held[0] -= entry_size(key, value)
        return True

    def clear(self):
        with self._lock:
            self._cache.clear()
            self._expire_info.clear()
            self._held[0] = 0

    def incr(self, key, delta=1, version=None):
        """Django's, through _set so that the new value is counted (Django writes it in place)."""
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            if self._has_expired(key):
                self._delete(key)
                raise ValueError(f"Key '{key}' not found")
            value = pickle.loads(self._cache[key]) + delta
            expiry = self._expire_info[key]
            self._set(key, pickle.dumps(value, self.pickle_protocol))
            if key in self._cache:
                self._expire_info[key] = expiry
        return value
