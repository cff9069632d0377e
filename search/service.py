"""search(): the one entry point that talks to Elasticsearch for a reader's query.

It ties together pure parts and thin I/O: the result cache (search/resultcache.py), the word
cache (search/wordcache.py), the plan of requests (search/plan.py), the executor that sends them
within one deadline (search/executor.py) and the reader of the answers (search/reader.py); and it
maps failures to SearchUnavailable behind a circuit breaker.

Round trips: the first request carries the suggesters *and* the search for what was typed. Only
when the suggesters offer alternatives is a second request made with the tiered query over all of
them. So a correctly spelled query costs one round trip, a misspelled one two (the original made
up to six). When every word's suggestions are in the word cache, the alternatives are known
before any request and a misspelled query costs one round trip too.
"""
import logging
import time
from dataclasses import dataclass, field

from django.conf import settings
from django.db import DatabaseError
from elasticsearch import ApiError, TransportError

from search import generation, plan, reader, resultcache, vocabulary, wordcache
from search.breaker import Breaker
from search.client import get_client
from search.documents import Hit
from search.executor import Executor
from search.normalize import normalize_query
from search.query import MATCH_PHRASE, boosts
from search.suggestions import Alternative

log = logging.getLogger(__name__)

__all__ = ["BadSearchRequest", "Hit", "SearchResult", "SearchUnavailable", "search", "validate_page"]


class SearchUnavailable(Exception):
    """Elasticsearch could not answer (down, slow, or the indices are missing)."""


# After a connection failure or timeout, searches answer "unavailable" at once for a few seconds.
breaker = Breaker("SEARCH_BREAKER_SECONDS")


class BadSearchRequest(ValueError):
    """A parameter out of range (the message is safe to show)."""


@dataclass
class SearchResult:
    query: str
    page: int
    page_size: int
    strategy: str = MATCH_PHRASE
    alternatives: list[Alternative] = field(default_factory=list)
    boosts: list[dict] = field(default_factory=list)
    hits: list[Hit] = field(default_factory=list)
    total: int = 0
    took_ms: int = 0
    elapsed_ms: float = 0.0
    round_trips: int = 0
    showing_for: str = ""  # the alternative behind the top hit, when it is not what was typed
    requests: list[dict] = field(default_factory=list)
    cached: bool = False
    word_cache_hit: bool = False  # suggestions came from the per-word cache (no suggest request)

    @property
    def num_pages(self) -> int:
        return max(1, -(-min(self.total, settings.SEARCH["MAX_PAGE"] * self.page_size) // self.page_size))

    @property
    def search_terms(self) -> list[list]:
        return [[a.score, a.text] for a in self.alternatives]

    def as_api(self) -> dict:
        """The JSON API's shape (`/api/search/`), plain data."""
        return {
            "query": self.query,
            "strategy": self.strategy,
            "search_terms": self.search_terms,
            "total": self.total,
            "took_ms": self.took_ms,
            "page": self.page,
            "showing_for": self.showing_for,
            "results": [
                {"type": h.type, "id": h.id, "post_id": h.post_id, "title": h.title, "url": h.url,
                 "score": h.score, "highlight": h.snippet_html, "title_highlight": h.title_html}
                for h in self.hits
            ],
        }


def validate_page(raw) -> int:
    if raw in (None, ""):
        return 1
    text = str(raw).strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 6):
        raise BadSearchRequest("page must be a whole number")
    page = int(text)
    if not 1 <= page <= settings.SEARCH["MAX_PAGE"]:
        raise BadSearchRequest(f"page must be between 1 and {settings.SEARCH['MAX_PAGE']}")
    return page


def normalize(raw: str) -> str:
    conf = settings.SEARCH
    return normalize_query(raw, max_length=conf["MAX_QUERY_LENGTH"], max_words=conf["MAX_QUERY_WORDS"],
                           max_tokens=conf["MAX_QUERY_TOKENS"])


def search(raw_query: str, *, page: int = 1, use_cache: bool = True, client=None) -> SearchResult:
    """Search posts and comments for a reader's query. Raises SearchUnavailable."""
    started = time.perf_counter()
    conf = settings.SEARCH
    query = normalize(raw_query)
    result = SearchResult(query=query, page=page, page_size=conf["PAGE_SIZE"])
    if not query:
        return result
    # The caches key their entries by the index generation, and the known-word vocabulary is
    # reloaded when it moves. Without PostgreSQL the search still answers, uncached.
    gen = _generation()
    use_cache = use_cache and conf["CACHE_SECONDS"] > 0 and gen is not None
    if use_cache:
        cached = resultcache.get(query, page, gen)
        if cached is not None:
            hit = SearchResult(**resultcache.unpack(cached), cached=True)
            hit.query = query  # the reader's own casing, not the first reader's (the key is lowercased)
            hit.alternatives[0] = Alternative(hit.alternatives[0].score, query, typed=True)
            hit.boosts = boosts(hit.alternatives, tiers=conf["TIERS"])
            hit.elapsed_ms = round((time.perf_counter() - started) * 1000, 2)
            return hit
    if not breaker.allows():
        raise SearchUnavailable("Elasticsearch failed moments ago; not retrying yet")
    executor = Executor(client or get_client(), deadline_seconds=conf["DEADLINE_SECONDS"],
                        timeout_seconds=settings.ELASTICSEARCH["TIMEOUT"])
    try:
        _run(result, executor, gen)
    except TransportError as exc:  # connection refused, timeout, the deadline passed
        breaker.trip()
        log.warning("search unavailable: %s", exc)
        raise SearchUnavailable(str(exc)) from exc
    except ApiError as exc:
        if exc.meta.status == 404:  # the aliases do not exist yet: run `reindex`
            log.warning("search indices missing: %s", exc)
        else:  # a request we built was refused: a bug, but the reader still gets a calm 503
            log.error("search request refused: %s", exc)
        raise SearchUnavailable(str(exc)) from exc
    finally:
        result.round_trips, result.took_ms, result.requests = executor.round_trips, executor.took_ms, executor.requests
    result.elapsed_ms = round((time.perf_counter() - started) * 1000, 2)
    if use_cache:
        resultcache.put(query, page, gen, resultcache.pack(result), conf["CACHE_SECONDS"])
    return result


def _generation() -> int | None:
    """The index generation, or None (no caching) when PostgreSQL cannot say."""
    try:
        return generation.latest()
    except DatabaseError as exc:
        log.warning("index generation unreadable, searching uncached: %s", exc)
        return None


def _run(result: SearchResult, executor: Executor, gen: int | None) -> None:
    conf = settings.SEARCH
    known = vocabulary.known_words(gen)
    if known is None:
        _run_without_vocabulary(result, executor, gen)
        return
    query = result.query
    unknown = plan.unknown_words(query, known, conf)
    if unknown:  # ask about those words only, then search once with the alternatives
        suggest, aggregations = _suggestions(result, executor, gen, only=unknown)
        aggregations = plan.with_known(query, aggregations, unknown, min_docs=conf["KNOWN_WORD_MIN_DOCS"])
        result.alternatives = plan.choose_alternatives(query, suggest, aggregations, conf=conf)
        response = executor.search(plan.alternatives_request(result.alternatives, page=result.page, conf=conf))
    else:  # nothing can be corrected: one plain search
        result.alternatives = plan.typed(query, conf)
        response = executor.search(plan.typed_request(query, page=result.page, conf=conf))
    _read(result, response)


def _suggestions(result: SearchResult, executor: Executor, gen: int | None, *, only: list[int]) -> tuple[dict, dict]:
    """The suggestions and counts of the words at `only`: from the word cache, or one small request."""
    conf = settings.SEARCH
    query, options = result.query, conf["SUGGESTER"]
    seconds = conf["WORD_CACHE_SECONDS"] if gen is not None else 0
    cached = wordcache.lookup(query, generation=gen, options=options, seconds=seconds, only=only)
    if cached is not None:
        result.word_cache_hit = True
        return cached
    body = plan.suggest_request(query, only, conf=conf)
    suggest, aggregations = plan.suggestions_of(body, executor.search(body))
    wordcache.store(query, suggest, aggregations, generation=gen, options=options, seconds=seconds, only=only)
    return suggest, aggregations


def _run_without_vocabulary(result: SearchResult, executor: Executor, gen: int | None) -> None:
    """Before `reindex` has stored a vocabulary: the typed query's search carries the suggesters
    and the counts of every word, and is the answer when nothing is misspelled."""
    conf = settings.SEARCH
    query, options = result.query, conf["SUGGESTER"]
    word_seconds = conf["WORD_CACHE_SECONDS"] if gen is not None else 0
    response = None
    cached_words = wordcache.lookup(query, generation=gen, options=options, seconds=word_seconds)
    if cached_words is None:
        body = plan.first_request(query, page=result.page, conf=conf)
        response = executor.search(body)
        suggest, aggregations = plan.suggestions_of(body, response)
        wordcache.store(query, suggest, aggregations, generation=gen, options=options, seconds=word_seconds)
    else:
        suggest, aggregations = cached_words
        result.word_cache_hit = True
    result.alternatives = plan.choose_alternatives(query, suggest, aggregations, conf=conf)
    if response is None or len(result.alternatives) > 1:
        response = executor.search(plan.alternatives_request(result.alternatives, page=result.page, conf=conf))
    _read(result, response)


def _read(result: SearchResult, response: dict) -> None:
    result.boosts = boosts(result.alternatives, tiers=settings.SEARCH["TIERS"])
    result.hits, result.total, result.strategy, result.showing_for = reader.read(response, result.alternatives)
