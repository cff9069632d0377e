"""search(): the one entry point that talks to Elasticsearch for a reader's query.

Round trips: the first request carries the suggesters *and* the search for what was typed. Only
when the suggesters offer alternatives is a second request made with the full boosted OR-query,
and only when that finds nothing for a multi-word query a third with `match` (stop words
removed). So a correctly spelled query costs one round trip (the original made up to six). When
every word's suggestions are in the per-word cache (search/wordcache.py), the alternatives are
known before any request and a misspelled query costs one round trip too.
"""
import hashlib
import logging
import time
from dataclasses import asdict, dataclass, field

from django.conf import settings
from django.core.cache import cache
from elasticsearch import ApiError, TransportError

from search import generation, wordcache
from search.breaker import Breaker
from search.client import get_client
from search.documents import alias_name
from search.normalize import normalize_query
from search.query import (MATCH, MATCH_PHRASE, PHRASE_TIERS, boosts, build_query, highlight_query, matched_alternative,
                          matched_tier, search_body)
from search.suggestions import (Alternative, alternatives, in_code_points, known_spans, known_words_aggregation,
                                suggest_block)

log = logging.getLogger(__name__)


class SearchUnavailable(Exception):
    """Elasticsearch could not answer (down, slow, or the indices are missing)."""


# After a connection failure or timeout, searches answer "unavailable" at once for a few seconds.
breaker = Breaker("SEARCH_BREAKER_SECONDS")


class BadSearchRequest(ValueError):
    """A parameter out of range (the message is safe to show)."""


@dataclass
class Hit:
    type: str  # "post" | "comment"
    id: int
    post_id: int
    title: str
    url: str
    score: float
    title_html: str  # highlighted, HTML-escaped by Elasticsearch
    snippet_html: str  # highlighted, HTML-escaped by Elasticsearch
    pub_date: str = ""
    author: str = ""
    tier: str = ""  # the best tier of the query it reached (search/query.py), for the debug table


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
    return normalize_query(raw, max_length=conf["MAX_QUERY_LENGTH"], max_words=conf["MAX_QUERY_WORDS"])


def search(raw_query: str, *, page: int = 1, use_cache: bool = True, client=None) -> SearchResult:
    """Search posts and comments for a reader's query. Raises SearchUnavailable."""
    started = time.perf_counter()
    conf = settings.SEARCH
    query = normalize(raw_query)
    result = SearchResult(query=query, page=page, page_size=conf["PAGE_SIZE"])
    if not query:
        return result
    key = None
    # Both caches key their entries by the index generation (one PostgreSQL read); with both
    # switched off nothing needs it.
    caching = conf["CACHE_SECONDS"] > 0 or conf["WORD_CACHE_SECONDS"] > 0
    gen = generation.current() if caching else 0
    if use_cache and conf["CACHE_SECONDS"] > 0:
        key = _cache_key(query, page, gen)
        cached = cache.get(key)
        if cached is not None:
            hit = _from_cache(cached)
            hit.cached = True
            hit.elapsed_ms = round((time.perf_counter() - started) * 1000, 2)
            return hit
    if not breaker.allows():
        raise SearchUnavailable("Elasticsearch failed moments ago; not retrying yet")
    try:
        _run(result, client or get_client(), gen)
    except TransportError as exc:  # connection refused, timeout
        breaker.trip()
        log.warning("search unavailable: %s", exc)
        raise SearchUnavailable(str(exc)) from exc
    except ApiError as exc:
        if exc.meta.status == 404:  # the aliases do not exist yet: run `reindex`
            log.warning("search indices missing: %s", exc)
        else:  # a request we built was refused: a bug, but the reader still gets a calm 503
            log.error("search request refused: %s", exc)
        raise SearchUnavailable(str(exc)) from exc
    result.elapsed_ms = round((time.perf_counter() - started) * 1000, 2)
    if key:
        cache.set(key, _to_cache(result), conf["CACHE_SECONDS"])
    return result


def _run(result: SearchResult, client, gen: int) -> None:
    conf = settings.SEARCH
    indices = f"{alias_name('posts')},{alias_name('comments')}"
    typed = [Alternative(conf["TYPED_SCORE"], result.query, typed=True)]

    def request(alts: list[Alternative], **extra) -> dict:
        query = build_query(alts, title_boost=conf["TITLE_BOOST"], relevance_weight=conf["RELEVANCE_WEIGHT"],
                            tiers=conf["TIERS"])
        body = search_body(query, page=result.page, page_size=conf["PAGE_SIZE"],
                           fragment_size=conf["HIGHLIGHT_FRAGMENT_SIZE"], highlight=highlight_query(alts), **extra)
        response = client.search(index=indices, **body).body
        result.round_trips += 1
        result.took_ms += int(response.get("took", 0))
        result.requests.append(body)
        return response

    options, word_seconds = conf["SUGGESTER"], conf["WORD_CACHE_SECONDS"]
    response = None
    cached_words = wordcache.lookup(result.query, generation=gen, options=options, seconds=word_seconds)
    if cached_words is None:
        response = request(typed, suggest=suggest_block(result.query, options=options),
                           aggs=known_words_aggregation(result.query))
        suggest = in_code_points(result.query, response.get("suggest", {}))
        aggregations = response.get("aggregations", {})
        wordcache.store(result.query, suggest, aggregations, generation=gen, options=options, seconds=word_seconds)
    else:
        suggest, aggregations = cached_words
        result.word_cache_hit = True
    result.alternatives = alternatives(
        result.query, suggest, typed_score=conf["TYPED_SCORE"], floor=conf["MIN_SUGGESTION_SCORE"],
        max_alternatives=conf["MAX_ALTERNATIVES"], per_token=conf["MAX_OPTIONS_PER_WORD"], costs=conf["TYPO_COSTS"],
        known=known_spans(result.query, aggregations, min_docs=conf["KNOWN_WORD_MIN_DOCS"]),
        present=known_spans(result.query, aggregations, min_docs=1), keep_present=conf["KEEP_PRESENT_SCORE"],
    )
    if response is None or len(result.alternatives) > 1:
        response = request(result.alternatives)
    result.boosts = boosts(result.alternatives, tiers=conf["TIERS"])
    result.total = _total(response)
    raw_hits = response["hits"]["hits"]
    result.hits = [_hit(h) for h in raw_hits]
    for hit, raw in zip(result.hits, raw_hits):
        hit.tier = matched_tier(raw) or ""
    if raw_hits:
        top = raw_hits[0]
        result.strategy = MATCH_PHRASE if matched_tier(top) in PHRASE_TIERS else MATCH
        best = matched_alternative(top)
        if best:  # neither None nor 0 (what was typed)
            result.showing_for = result.alternatives[best].text


def _total(response: dict) -> int:
    return int(response["hits"]["total"]["value"])


def _hit(raw: dict) -> Hit:
    src, hl = raw["_source"], raw.get("highlight", {})
    is_comment = src.get("doc_type") == "comment"
    title = src.get("post_title" if is_comment else "title", "")
    snippet = (hl.get("comment") or hl.get("text") or [""])[0]
    return Hit(
        type="comment" if is_comment else "post",
        id=int(src["comment_id"] if is_comment else src["post_id"]),
        post_id=int(src["post_id"]),
        title=title,
        url=src.get("url", ""),
        score=round(float(raw.get("_score") or 0.0), 4),
        title_html="" if is_comment else (hl.get("title") or [""])[0],
        snippet_html=snippet,
        pub_date=src.get("pub_date", ""),
        author=src.get("author", ""),
    )


# ---------------------------------------------------------------- result cache
# Keyed by the normalized query, the page and the index generation (bumped by every index write
# and alias swap, kept in PostgreSQL), so nothing stale is served whichever worker asks.


def _cache_key(query: str, page: int, gen: int) -> str:
    digest = hashlib.sha1(f"{query.lower()}\x00{page}".encode()).hexdigest()
    return f"search:v1:{gen}:{digest}"


def _to_cache(result: SearchResult) -> tuple:
    """A compact, cheap-to-pickle form: tuples of primitives, no request bodies."""
    return (
        result.query, result.page, result.page_size, result.strategy,
        tuple((a.score, a.text, a.typed) for a in result.alternatives),
        tuple(tuple(asdict(h).values()) for h in result.hits),
        result.total, result.took_ms, result.round_trips, result.showing_for,
    )


def _from_cache(value: tuple) -> SearchResult:
    query, page, page_size, strategy, alts, hits, total, took, trips, showing_for = value
    alternatives_ = [Alternative(*a) for a in alts]
    return SearchResult(
        query=query, page=page, page_size=page_size, strategy=strategy, alternatives=alternatives_,
        boosts=boosts(alternatives_, tiers=settings.SEARCH["TIERS"]),
        hits=[Hit(*h) for h in hits], total=total, took_ms=took, round_trips=trips, showing_for=showing_for,
    )
