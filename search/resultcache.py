"""The result cache: a finished search per normalized query and page, keyed by the index generation.

Keyed by the generation (bumped by every index write and alias swap, kept in PostgreSQL), so no
worker serves a stale answer whichever worker asks. Values are compact tuples of primitives
without the request bodies, cheap to pickle (the lesson of seeds 002/003).
"""
import hashlib
from dataclasses import astuple

from django.core.cache import cache

from search.reader import Hit
from search.suggestions import Alternative

_VERSION = "r2"


def key(query: str, page: int, generation: int) -> str:
    digest = hashlib.sha1(f"{query.lower()}\x00{page}".encode()).hexdigest()
    return f"search:{_VERSION}:{generation}:{digest}"


def get(query: str, page: int, generation: int) -> tuple | None:
    return cache.get(key(query, page, generation))


def put(query: str, page: int, generation: int, value: tuple, seconds: int) -> None:
    cache.set(key(query, page, generation), value, seconds)


def pack(result) -> tuple:
    return (
        result.query, result.page, result.page_size, result.strategy,
        tuple((a.score, a.text, a.typed) for a in result.alternatives),
        tuple(astuple(h) for h in result.hits),
        result.total, result.took_ms, result.round_trips, result.showing_for,
    )


def unpack(value: tuple) -> dict:
    """The fields of a SearchResult, from pack()'s tuple."""
    query, page, page_size, strategy, alts, hits, total, took, trips, showing_for = value
    return dict(query=query, page=page, page_size=page_size, strategy=strategy,
                alternatives=[Alternative(*a) for a in alts], hits=[Hit(*h) for h in hits], total=total,
                took_ms=took, round_trips=trips, showing_for=showing_for)
