"""The result cache: a finished search per normalized query and page, keyed by the index generation.

Keyed by the generation (bumped by every index write and alias swap, kept in PostgreSQL), so no
worker serves a stale answer whichever worker asks. Values are compact tuples of primitives
without the request bodies, cheap to pickle (the lesson of seeds 002/003).
"""

import hashlib
import logging
import threading
from dataclasses import fields

from django.conf import settings
from django.core.cache import caches
from django.core.signals import setting_changed
from django.dispatch import receiver

from search import conf, metrics, process
from search.alternative import Alternative
from search.breaker import Breaker
from search.querying.facets import Facets
from search.querying.results import CommentMatch, Hit

log = logging.getLogger(__name__)
_VERSION = "r8"

# A cache that fails (Redis down) or hangs (its socket timeout, set in settings.CACHES) is skipped
# for a while: searches go on uncached, and only the first of them pays the timeout.
breaker = Breaker(lambda: conf.get().serving.cache_breaker_seconds, watch=metrics.breaker_watch("result_cache"))


process.register("result cache breaker", breaker.reset)
process.register("result cache per-thread backend", lambda: _epoch.__setitem__(0, _epoch[0] + 1))


def namespace() -> str:
    """Two sites sharing one cache server (or tests beside the dev site) never share entries: keys
    carry the index prefix and the database name as well as the generation."""
    return f"{conf.get().index.prefix}:{settings.DATABASES['default']['NAME']}"


_thread = threading.local()
_epoch = [0]  # bumped when settings.CACHES changes (tests), so every thread looks again


def backend():
    """The default cache, looked up once per thread (`django.core.cache.cache` is a proxy that
    looks it up on every use: 13 us, a tenth of a cached search)."""
    found = getattr(_thread, "cache", None)
    if found is None or found[0] != _epoch[0]:
        found = _thread.cache = (_epoch[0], caches["default"])
    return found[1]


@receiver(setting_changed)
def _caches_changed(setting, **kwargs):
    if setting == "CACHES":
        _epoch[0] += 1


def guarded(operation, default=None):
    """Run a cache operation; on any cache failure log it, pause the cache, and return `default`."""
    if not breaker.allows():
        return default
    try:
        return operation()
    except Exception as exc:  # the cache backend's own errors (redis, pickling, ...) vary
        breaker.trip()
        log.warning("cache unavailable, searching uncached: %s", exc)
        return default


def key(query: str, page: int, generation: int) -> str:
    """`query`: the search's own key (search/querying/service.py), already case-folded where
    case does not matter (the words) and exact where it does (tag filters)."""
    digest = hashlib.sha1(f"{query}\x00{page}".encode()).hexdigest()
    return f"search:{_VERSION}:{namespace()}:{generation}:{digest}"


def get(query: str, page: int, generation: int) -> tuple | None:
    found = guarded(lambda: backend().get(key(query, page, generation)))
    metrics.cache_lookup(found is not None)
    return found


def put(query: str, page: int, generation: int, value: tuple, seconds: int) -> None:
    guarded(lambda: backend().set(key(query, page, generation), value, seconds))


# Hit's fields in order (dataclasses.astuple deep-copies every value: 0.4 ms a search); its
# nested comments are packed as tuples too (the last field but one).
_HIT_FIELDS = tuple(f.name for f in fields(Hit))
_COMMENTS = _HIT_FIELDS.index("comments")
_COMMENT_FIELDS = tuple(f.name for f in fields(CommentMatch))


def _packed_hit(h: Hit) -> tuple:
    values = [getattr(h, name) for name in _HIT_FIELDS]
    values[_COMMENTS] = tuple(tuple(getattr(c, name) for name in _COMMENT_FIELDS) for c in h.comments)
    return tuple(values)


def _hit(values: tuple) -> Hit:
    found = Hit(*values)
    found.comments = tuple(CommentMatch(*c) for c in found.comments)
    return found


def pack(result) -> tuple:
    return (
        result.query,
        result.page,
        result.page_size,
        result.strategy,
        tuple((a.score, a.text, a.typed, a.synonym_of, a.rewrites, a.hint, a.started, a.form_of) for a in result.alternatives),
        tuple(_packed_hit(h) for h in result.hits),
        result.total,
        result.took_ms,
        result.round_trips,
        result.showing_for,
        None if result.facets is None else (tuple(result.facets.tags), tuple(result.facets.years)),
        result.synonyms,
        result.did_you_mean,
        result.listed,
        result.fell_back,
        result.set_aside,
        tuple(_packed_hit(h) for h in result.recent),
        tuple(result.popular_tags),
        result.exact,
        result.counted,
    )


def unpack(value: tuple) -> dict:
    """The fields of a SearchResult, from pack()'s tuple."""
    query, page, page_size, strategy, alts, hits, total, took, trips, showing_for, counts, synonyms, *rest = value
    return dict(
        query=query,
        page=page,
        page_size=page_size,
        strategy=strategy,
        alternatives=[Alternative(*a) for a in alts],
        hits=[_hit(h) for h in hits],
        total=total,
        took_ms=took,
        round_trips=trips,
        showing_for=showing_for,
        facets=None if counts is None else Facets(tags=list(counts[0]), years=list(counts[1])),
        synonyms=synonyms,
        did_you_mean=rest[0] if rest else "",
        listed=rest[1] if len(rest) > 1 else total,
        fell_back=rest[2] if len(rest) > 2 else False,
        set_aside=rest[3] if len(rest) > 3 else 0,
        recent=[_hit(h) for h in rest[4]] if len(rest) > 4 else [],
        popular_tags=list(rest[5]) if len(rest) > 5 else [],
        exact=rest[6] if len(rest) > 6 else True,
        counted=rest[7] if len(rest) > 7 else True,
    )
