"""search(): the one entry point that talks to Elasticsearch for a reader's query.

It ties together pure parts and thin I/O: the result cache (search/querying/resultcache.py), the word
cache (search/querying/wordcache.py), the plan of requests (search/querying/plan.py), the executor that sends them
within one deadline (search/querying/executor.py) and the reader of the answers (search/querying/reader.py); and it
maps failures to SearchUnavailable behind a circuit breaker.

Round trips: one search per query. The process's dictionary of the index's words
(search/vocabulary.py) says which words are known and proposes completions and corrections for the
others (search/querying/candidates.py). Only a word it cannot answer for (hyphens, accents, other
scripts), or every unknown word while no dictionary is stored yet, is asked about in one small
suggest request first (the original made up to six), unless the word cache remembers it.
"""

import functools
import logging
import time
import unicodedata
from dataclasses import dataclass, field

from django.db import Error
from django.utils.translation import gettext
from elasticsearch import ApiError, TransportError

from search import conf, generation, metrics, names, process, realwords, symbols, synonyms, vocabulary
from search.alternative import Alternative
from search.breaker import RateBreaker, RateLimits
from search.client import BUSY, MISSING, NODE_FAILURES, failure_kind, get_client
from search.documents import Kind
from search.querying import candidates, corrections, expand, facets, groups, plan, reader, resultcache, spelling, starters, syntax, wordcache
from search.querying.executor import Executor
from search.querying.facets import Facets, Filters
from search.querying.normalize import normalize_query
from search.querying.query import NEWEST, PHRASE, RELEVANCE, SORTS, boosts, highlight_query, last_word
from search.querying.results import Hit
from search.words import WORD_JOINS, key_word, plain_words, words

log = logging.getLogger(__name__)

__all__ = [
    "BadSearchRequest",
    "Filters",
    "Hit",
    "SearchResult",
    "SearchUnavailable",
    "search",
    "validate_filters",
    "validate_page",
    "validate_sort",
    "validate_verbatim",
]


class SearchUnavailable(Exception):
    """Elasticsearch could not answer (down, slow, or the indices are missing)."""


# When a share of the recent searches failed (no node could answer: connection failures, timeouts,
# 5xx), searches answer "unavailable" at once for a few seconds, then one probe tries (breaker.py).
def _limits() -> RateLimits:
    s = conf.get().serving
    return RateLimits(s.search_breaker_window_seconds, s.search_breaker_min_calls, s.search_breaker_failure_ratio, s.search_breaker_seconds)


breaker = RateBreaker(_limits, watch=metrics.breaker_watch("search"))


process.register("search breaker", breaker.reset)


class BadSearchRequest(ValueError):
    """A parameter out of range (the message is safe to show)."""


@dataclass
class SearchResult:
    query: str
    page: int
    page_size: int
    strategy: str = PHRASE  # how the top hit was found: "phrase" or "words"
    alternatives: list[Alternative] = field(default_factory=list)
    boosts: list[dict] = field(default_factory=list)
    hits: list[Hit] = field(default_factory=list)
    total: int = 0
    listed: int = 0  # the posts of every spelling searched, which the pages list (reader.Reading)
    set_aside: int = 0  # newest first: the posts of other spellings that Best match lists and it does not
    verbatim: bool = False  # searched as typed (`?verbatim=1`): no correction, no completion
    counted: bool = True  # `total` counts the posts of the spelling shown (not: serving.instant_counts off, or count_apart_up_to passed)
    exact: bool = True  # False: more posts match than `total`, where the count stopped (serving.count_bound)
    recent: list[Hit] = field(default_factory=list)  # a page that found nothing: the newest posts (search/querying/starters.py)
    popular_tags: list[tuple[str, int]] = field(default_factory=list)  # ... and the commonest tags, with their posts
    took_ms: int = 0
    elapsed_ms: float = 0.0
    round_trips: int = 0
    showing_for: str = ""  # the alternative behind the top hit, when it is not what was typed
    uncacheable: bool = False  # answered without something it should have had: not stored
    requests: list[dict] = field(default_factory=list)
    cached: bool = False
    word_cache_hit: bool = False  # suggestions came from the per-word cache (no suggest request)
    completing: bool = False  # the last word may be unfinished (no space typed after it)
    formed_last: bool = False  # the last word is a word of the language the blog holds in another form (plan.formed_last)
    dictionary: bool = False  # the process's dictionary answered for the words (search/vocabulary.py)
    sort: str = RELEVANCE  # or "new": newest first (query.SORTS)
    filters: Filters = facets.NONE  # the tags and year the reader narrowed to
    facets: Facets | None = None  # the counts to narrow by (the results page only)
    synonyms: tuple[str, ...] = ()  # what the blog's synonym rules made of the query, where they found a hit of the page
    parsed: syntax.Parsed = syntax.Parsed()  # the query's phrases, exclusions and free text (search/querying/syntax.py)
    note: str = ""  # why nothing was searched, for the reader
    did_you_mean: str = ""  # the best correction not sure enough to search for (search/querying/corrections.py)
    fell_back: bool = False  # what was typed found nothing; the page shows a likely correction's results
    cache_generation: int | None = None  # the generation the result cache holds this answer under (None: not held)

    @property
    def showing_start(self) -> bool:
        """The correction shown ends with a start the search completes ("mozila firf": "mozilla fire…"),
        not a whole word: the reader is still typing it."""
        shown = key_word(self.showing_for)  # written as the blog writes it: "einführung" is "einfuhrung"
        return self.completing and bool(self.showing_for) and any(a.started and key_word(a.text) == shown for a in self.alternatives)

    @property
    def others(self) -> int:
        """Posts the list holds beyond `total`: found only through another spelling (marked so)."""
        return max(0, self.listed - self.total)

    @property
    def num_pages(self) -> int:
        """Pages of every post listed (`total` and `others`): each reachable through the pager."""
        return max(1, -(-min(self.total + self.others, conf.get().serving.max_page * self.page_size) // self.page_size))

    @property
    def cut(self) -> bool:
        """More results than the pages a reader may open (serving.max_page)."""
        return self.total + self.others > conf.get().serving.max_page * self.page_size

    @property
    def past_the_end(self) -> bool:
        """A page after the last one (an old link, a hand-made URL): nothing on it, the way back offered."""
        return self.page > self.num_pages and not self.hits

    @property
    def offset(self) -> int:
        """How many results come before this page's first (its numbering goes on from there)."""
        return (self.page - 1) * self.page_size

    @property
    def search_terms(self) -> list[list]:
        return [[a.score, a.label] for a in self.alternatives]

    def as_api(self) -> dict:
        """The JSON API's shape (`/api/search/`), plain data."""
        return {
            "query": self.query,
            "strategy": self.strategy,
            "search_terms": self.search_terms,
            "total": self.total,
            "total_exact": self.exact,
            "others": self.others,
            "took_ms": self.took_ms,
            "page": self.page,
            "showing_for": self.showing_for,
            "showing_start": self.showing_start,
            "synonyms": list(self.synonyms),
            "parsed": self.parsed.as_dict(),
            **({"note": self.note} if self.note else {}),
            "did_you_mean": self.did_you_mean,
            "fell_back": self.fell_back,
            "completing": self.completing,
            "verbatim": self.verbatim,
            "counted": self.counted,
            "sort": self.sort,
            "filters": {"tags": list(self.filters.tags), "year": self.filters.year},
            "results": [
                {
                    "type": h.type,
                    "id": h.id,
                    "post_id": h.post_id,
                    "title": h.title,
                    "url": h.url,
                    "score": h.score,
                    "highlight": h.snippet_html,
                    "title_highlight": h.title_html,
                    "pub_date": h.pub_date,
                    "matched": h.matched,
                    "comments": [{"id": c.id, "author": c.author, "url": c.url, "highlight": c.snippet_html} for c in h.comments],
                    "more_comments": h.more_comments,
                    "tier": h.tier,
                    "spelling": h.spelling,
                }
                for h in self.hits
            ],
            **({"facets": {"tags": self.facets.tags, "years": self.facets.years}} if self.facets is not None else {}),
            **({"recent": [{"title": h.title, "url": h.url, "pub_date": h.pub_date} for h in self.recent]} if self.recent else {}),
            **({"popular_tags": self.popular_tags} if self.popular_tags else {}),
        }


def validate_page(raw) -> int:
    if raw in (None, ""):
        return 1
    text = str(raw).strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 6):
        raise BadSearchRequest(gettext("page must be a whole number"))
    page = int(text)
    if page < 1:
        raise BadSearchRequest(gettext("page must be 1 or more"))
    return page  # past the last page: answered as such (search())


def validate_filters(tags: list[str], year) -> Filters:
    """The tags (`?tag=`, repeatable: all must hold) and year (`?year=`) a reader narrowed to."""
    cleaned = tuple(dict.fromkeys(t.strip() for t in tags if t and t.strip()))
    limit = conf.get().serving.max_filter_tags
    if len(cleaned) > limit:
        raise BadSearchRequest(gettext("at most {limit} tags at once").format(limit=limit))
    if any(len(t) > 100 for t in cleaned):
        raise BadSearchRequest(gettext("a tag is at most 100 characters"))
    if any(unicodedata.category(ch) == "Cc" for t in cleaned for ch in t):
        raise BadSearchRequest(gettext("a tag holds no control characters"))
    if year in (None, ""):
        return Filters(tags=cleaned)
    text = str(year).strip()
    if not (text.isascii() and text.isdigit() and len(text) == 4 and "1000" <= text <= "9998"):
        raise BadSearchRequest(gettext("year must be a four-digit year, 1000 to 9998"))
    return Filters(tags=cleaned, year=int(text))


def validate_verbatim(raw) -> bool:
    """Whether to search the words as typed (`?verbatim=1`, the page's "Search instead for" link)."""
    if raw in (None, "", "0"):
        return False
    if raw != "1":
        raise BadSearchRequest(gettext("verbatim must be 1 or 0"))
    return True


def validate_sort(raw) -> str:
    """The order a reader asked for (`?sort=`): relevance unless "new"."""
    if raw in (None, ""):
        return RELEVANCE
    if raw not in SORTS:
        raise BadSearchRequest(gettext("sort must be one of: {sorts}").format(sorts=", ".join(SORTS)))
    return raw


def normalize(raw: str) -> str:
    cfg = conf.get()
    return normalize_query(raw, max_length=cfg.ranking.max_query_length, max_words=cfg.ranking.max_query_words, max_tokens=cfg.ranking.max_query_tokens)


def only_exclusions() -> str:
    """The note of a query of only exclusions, in the page's language."""
    return gettext("Type a word to search for, not only words to leave out.")


def unfinished(raw_query: str, query: str) -> bool:
    """Whether the last word of `query` (raw_query normalized) may be unfinished: the reader has
    not typed a space after it (the instant box asks after every pause in typing; a submitted query
    follows the same rule). A dot or a colon after it ends it too, judged on the normalized query
    ("firefox…" is "firefox..."): the analyzers split words there ("firefox." is "firefox ",
    "e.g." would otherwise complete "g")."""
    return bool(raw_query) and not raw_query[-1].isspace() and not query.endswith(tuple(WORD_JOINS))


def search(raw_query: str, *, page: int = 1, **options) -> SearchResult:
    """`_answer()`'s result for `page`. A page past the last a reader may open (serving.max_page:
    an old link, a hand-made URL) is answered as past the end, with the first page's counts and
    no hits, so the page can name the last one: no request asks Elasticsearch that deep."""
    if page <= conf.get().serving.max_page:
        return _whole(raw_query, _answer(raw_query, page=page, **options), page=page, **options)
    found = _whole(raw_query, _answer(raw_query, page=1, **options), page=1, **options)
    found.page, found.hits = page, []
    return found


def _whole(raw_query: str, found: SearchResult, *, page: int, **options) -> SearchResult:
    """A submitted query (the results page: `detail`) whose last word, read as unfinished, found
    nothing, read again as a whole word: "contreplongée" starts no word the blog holds, and as a
    word it is "contre plongée" (a split, never made of a word being typed). Not for the instant
    box, whose reader is still typing."""
    if not (options.get("detail") and found.completing and not found.total and not found.hits):
        return found
    return _answer(raw_query + " ", page=page, **options)  # its empty page, if so, offers the newest posts


def _answer(
    raw_query: str,
    *,
    page: int = 1,
    use_cache: bool = True,
    client=None,
    sort: str = RELEVANCE,
    filters: Filters = facets.NONE,
    detail: bool = False,
    snippets: bool = True,
    verbatim: bool = False,
) -> SearchResult:
    """Search posts and comments for a reader's query: one entry per post, in `sort` order
    (query.SORTS), narrowed by `filters`. With `detail` (the results page) each entry carries its
    best matching comments, and the result the tag and year facets; without `snippets` (the
    instant box) only titles are highlighted; with `verbatim` the words are searched as typed,
    none corrected or completed. Raises SearchUnavailable."""
    started = time.perf_counter()
    cfg = conf.get()
    query = normalize(raw_query)
    parsed = syntax.parse(query)
    completing = unfinished(raw_query, query) and parsed.last_free and not verbatim  # a phrase or an exclusion is never unfinished
    result = SearchResult(
        query=query, page=page, page_size=cfg.serving.page_size, completing=completing, sort=sort, filters=filters, parsed=parsed, verbatim=verbatim
    )
    result.counted = snippets or cfg.serving.instant_counts
    if parsed.only_exclusions:
        result.note = only_exclusions()
    if not words(parsed.searched):  # empty, only dots and colons, or only exclusions: nothing to search for
        return result
    key = cache_key(query, completing=result.completing, sort=sort, filters=filters, detail=detail, snippets=snippets) + ("\x00verbatim" if verbatim else "")
    # The caches key their entries by the index generation, and the dictionary of the index's
    # words is reloaded when it moves. Without PostgreSQL the search still answers, uncached.
    gen = current_generation()
    use_cache = use_cache and cfg.serving.cache_seconds > 0 and gen is not None
    if use_cache:
        cached = resultcache.get(key, page, gen)
        if cached is not None:
            found = _cached(cached, result, started)
            found.cache_generation = gen
            return found
    if not breaker.allows():
        raise SearchUnavailable("Elasticsearch failed moments ago; not retrying yet")
    executor = Executor(client or get_client(), deadline_seconds=cfg.serving.deadline_seconds, timeout_seconds=cfg.elasticsearch.timeout)
    _guarded(result, executor, gen, detail=detail, snippets=snippets)
    result.elapsed_ms = round((time.perf_counter() - started) * 1000, 2)
    if use_cache and not result.uncacheable:
        resultcache.put(key, page, gen, resultcache.pack(result), cfg.serving.cache_seconds)
        result.cache_generation = gen
    return result


def _guarded(result: SearchResult, executor: Executor, gen: int | None, **shape) -> None:
    """_run() behind the breaker: failures become SearchUnavailable (a calm 503)."""
    try:
        _run(result, executor, gen, **shape)
        # A submitted query's unfinished reading that found nothing is read again whole (_whole): that one offers them.
        if shape.get("detail") and not result.total and not result.hits and not result.completing:
            _starters(result, executor)
    except TransportError as exc:  # connection refused, timeout, the deadline passed (after failover)
        breaker.record(False)
        log.warning("search unavailable: %s", exc)
        raise SearchUnavailable(str(exc)) from exc
    except ApiError as exc:
        kind = failure_kind(exc)
        breaker.record(kind not in NODE_FAILURES)  # a node answered; only a server error counts as a failure
        if kind == MISSING:  # the aliases do not exist yet: run `reindex`
            log.warning("search indices missing: %s", exc)
        elif kind == BUSY:  # 429: a full queue, or (Elasticsearch 9) a search past its server-side timeout
            log.warning("Elasticsearch busy: %s", exc)
        else:  # a request we built was refused: a bug, but the reader still gets a calm 503
            log.error("search request refused: %s", exc)
        raise SearchUnavailable(str(exc)) from exc
    else:
        breaker.record(True)
    finally:
        result.round_trips, result.took_ms, result.requests = executor.round_trips, executor.took_ms, executor.requests


def cache_key(query: str, *, completing: bool, sort: str, filters: Filters, detail: bool = False, snippets: bool = True) -> str:
    """The result cache's key of a request: the words case-folded (a trailing space when the last
    one is finished), then how it was asked; tags exactly (they are case-sensitive keywords)."""
    words = query.lower() if completing else f"{query.lower()} "
    shape = ("" if sort == RELEVANCE else f"\x00{sort}") + (f"\x00f{filters.key()}" if filters else "")
    return words + shape + ("\x00detail" if detail else "") + ("" if snippets else "\x00titles")


# How a request was asked, which a cached answer takes from the request, not from the cache.
ASKED = ("completing", "sort", "filters", "parsed", "verbatim")


def _cached(value: tuple, asked: SearchResult, started: float) -> SearchResult:
    """A cached answer as the result of this request (`asked`: its query, order and filters)."""
    found = SearchResult(**resultcache.unpack(value), cached=True, **{name: getattr(asked, name) for name in ASKED})
    found.query = asked.query  # the reader's own casing, not the first reader's (the key is lowercased)
    found.alternatives[0] = Alternative(found.alternatives[0].score, asked.parsed.searched, typed=True)
    found.boosts = boosts(found.alternatives, tiers=conf.get().ranking.tiers)
    found.elapsed_ms = round((time.perf_counter() - started) * 1000, 2)
    return found


def current_generation() -> int | None:
    """The index generation, or None (no caching) when PostgreSQL cannot say: down, or the
    connection it ended could not be made again (InterfaceError is no DatabaseError: both are
    django.db.Error)."""
    try:
        return generation.latest()
    except Error as exc:
        log.warning("index generation unreadable, searching uncached: %s", exc)
        return None


def _run(result: SearchResult, executor: Executor, gen: int | None, *, detail: bool = False, snippets: bool = True) -> None:
    """One path for every query: words the dictionary knows are never asked about; the others get
    their candidates from the dictionary (no request), or, for a word it cannot answer for or while
    none is loaded, from the suggesters in one small request; then one search, with its alternatives."""
    cfg = conf.get()
    query = result.parsed.searched
    dictionary = vocabulary.current(gen)
    unknown, inflected = plan.scan_words(query, dictionary if dictionary is not None else frozenset(), cfg)
    unknown = [i for i in unknown if i >= result.parsed.fixed_words]  # a quoted word is never corrected
    inflected = [i for i in inflected if i >= result.parsed.fixed_words]
    # A word read as a form of a held word, that the language does not use, may be a typo after
    # all: "navigateure" looks like navigateur plus "e", but the light stemmer keeps the two
    # apart. Beside words the blog holds its correction orders their posts, weighed least (step
    # 7 of corrections.py: "navigateure firefox"); alone, a query that finds nothing is judged
    # again with it as a typo (a second search on such empty pages only). Judging every such word
    # a typo from the start rewrote rare real forms wordfreq lacks (docs/benchmarks.md).
    spared = sorted(set(inflected) - plan.real_words(query, inflected, cfg))
    _judge_and_search(result, executor, gen, cfg, dictionary, unknown, inflected, spared=spared, detail=detail, snippets=snippets)
    if spared and result.total == 0 and not result.verbatim:
        _judge_and_search(result, executor, gen, cfg, dictionary, sorted({*unknown, *spared}), [], detail=detail, snippets=snippets)


def _judge_and_search(
    result: SearchResult, executor: Executor, gen, cfg, dictionary, unknown: list[int], inflected: list[int], *, spared=(), detail: bool, snippets: bool
) -> None:
    """_run's search once the words are scanned: `unknown` may be corrected, `inflected` are held
    in another form and searched as typed, of them the `spared` ones corrected as a hint only."""
    query = result.parsed.searched
    result.did_you_mean, result.showing_for = "", ""
    # A word the blog holds only in a form its stemmer keeps apart: that form too. A word the
    # language uses is not corrected; another ("listait", "utilent") is, the form competing.
    # One the stemmer finds: its lemma's forms too ("photographies": photographie, not photographe).
    forms = plan.held_forms(query, unknown, dictionary, cfg, inflected=inflected) if dictionary is not None and not result.verbatim else {}
    real = plan.real_words(query, forms, cfg)
    unknown = [i for i in unknown if i not in real]
    result.formed_last = plan.formed_last(query, inflected, real)
    held = plan.form_alternatives(query, forms, cfg) + _compounds(result, query, dictionary, unknown, cfg)
    last_present = True
    asked = sorted({*unknown, *spared})  # the words corrections are sought for
    if result.verbatim:  # "Search instead for": what was typed, nothing corrected
        asked, remote = [], []
    elif dictionary is not None:
        suggest, aggregations, remote, last_present = plan.local_suggestions(query, asked, dictionary, cfg=cfg, completing=result.completing)
        result.dictionary = True
    else:
        suggest, aggregations, remote = {}, {}, asked
    if remote:
        suggest, aggregations = plan.merged((suggest, aggregations), _suggestions(result, executor, gen, only=remote))
    if asked or not last_present:
        aggregations = plan.with_known(query, aggregations, asked, min_docs=cfg.ranking.known_word_min_docs)
        judge = _judge(dictionary, cfg)
        alternatives = plan.choose_alternatives(query, suggest, aggregations, cfg=cfg, completing=result.completing, last_present=last_present)
        kept, dropped = corrections.sure_only(alternatives, judge, completing=result.completing)
        (result.alternatives, kept_apart), (dropped, dropped_apart) = (corrections.changing(alts, query, spared) for alts in (kept, dropped))
        unsure = corrections.offered(result.alternatives, dropped, judge)
        result.did_you_mean = result.parsed.showing(unsure) if unsure else ""
        hints = sorted([*dropped, *kept_apart, *dropped_apart], key=lambda alt: -alt.score)
        hint = corrections.hint(result.alternatives, hints, judge)
        if hint is not None:  # ordering the typed words' posts (corrections.py, step 7)
            result.alternatives = [*result.alternatives, hint]
        result.alternatives += held
        _search(result, executor, gen, cfg, dictionary, query, detail=detail, snippets=snippets)
        if result.showing_for:  # the page says what it shows: no "Did you mean" beside it
            result.did_you_mean = ""
        elif result.total and result.completing and candidates.only_a_start(query, dictionary) and last_word(query) != last_word(result.did_you_mean):
            result.did_you_mean = ""  # the posts the word being typed starts: "einfu" finds Einführung
        if result.total == 0 and not result.filters:
            judged = (alternatives, dropped, judge, unknown)
            _fall_back(result, executor, gen, cfg, dictionary, query, judged, detail=detail, snippets=snippets)
        return
    result.alternatives = plan.typed(query, cfg) + held  # nothing can be corrected
    _search(result, executor, gen, cfg, dictionary, query, detail=detail, snippets=snippets)


def _fall_back(result: SearchResult, executor: Executor, gen, cfg, dictionary, query: str, judged, *, detail: bool, snippets: bool) -> None:
    """Nothing found: search a likely correction (corrections.py, step 6), then a far guess (step 8),
    until one finds posts. `judged`: the alternatives, those not searched, the judge and the
    positions of the words that may be corrected. When neither finds a post, the page says what
    was searched first."""
    alternatives, dropped, judge, unknown = judged
    searched, ranking = result.alternatives, cfg.ranking
    tries = [lambda: corrections.fallback(alternatives, dropped, judge, completing=result.completing)]
    if dictionary is not None:
        far = {"costs": ranking.typo_costs, "min_docs": ranking.known_word_min_docs, "floor": ranking.far_guess_min_score}
        guesses = functools.partial(candidates.far_guesses, dictionary=dictionary, **far)
        tries.append(lambda: corrections.far_guess(alternatives, guesses, judge, unknown=unknown))
    tried = False
    for attempt in tries:
        fallback = attempt()
        if fallback:
            tried = True
            _search(result, executor, gen, cfg, dictionary, query, detail=detail, snippets=snippets, alternatives=fallback)
            if result.total:  # posts, if not on this page (a page past the end)
                result.fell_back, result.did_you_mean = True, ""
                return
    if tried:
        result.alternatives, result.boosts = searched, boosts(searched, tiers=ranking.tiers)


def _compounds(result: SearchResult, query: str, dictionary, unknown: list[int], cfg) -> list[Alternative]:
    """A German query with a word in the blog's compounds that end in it (plan.compound_alternatives):
    a word the blog holds or the language uses, not quoted. The last word too, though it may be
    unfinished: a submitted query's last word is read so, and "Migration" alone is the case."""
    if dictionary is None or result.verbatim:
        return []
    found = words(query)
    asked = [i for i in range(result.parsed.fixed_words, len(found)) if i not in unknown or i in plan.real_words(query, [i], cfg)]
    titled = lambda word: (dictionary.counts(word) or vocabulary.NO_COUNTS)[0]  # noqa: E731
    return plan.compound_alternatives(query, asked, dictionary.compound_index, _documents(dictionary), titled, cfg)


def _documents(dictionary):
    """word -> how many documents hold it, by the dictionary."""
    return lambda word: vocabulary.documents_holding(dictionary.counts(word) or vocabulary.NO_COUNTS)


def _judge(dictionary, cfg) -> corrections.Judge:
    """What the correction decision knows of words, from this process's dictionary and the
    real-word list (search/querying/corrections.py)."""
    ranking = cfg.ranking
    return corrections.Judge(
        absent=lambda word: dictionary is None or dictionary.counts(word) is None,
        held=None if dictionary is None else _documents(dictionary),
        real=lambda word: (
            realwords.is_real(word, ranking.real_word_min_zipf, cfg.index.language) or (ranking.software_names and names.is_name(word, cfg.index.language))
        ),
        rare=lambda word: realwords.is_real(word, ranking.rare_word_min_zipf, cfg.index.language),
        ranking=ranking,
        spelled=lambda word: realwords.spelled_so(word, cfg.index.language),
    )


def _search(
    result: SearchResult, executor: Executor, gen, cfg, dictionary, query: str, *, detail: bool, snippets: bool, alternatives: list[Alternative] | None = None
) -> None:
    """The one search of `result`'s alternatives (or `alternatives`), with the blog's synonyms."""
    if alternatives is not None:
        result.alternatives = alternatives
    ranking = cfg.ranking
    expanded = expand.with_synonyms(result.alternatives, synonyms.current(gen), limit=ranking.synonym_alternatives, factor=ranking.synonym_score_factor)
    if len(expanded) > len(result.alternatives):  # a rule touches the query: do the indices have the synonym analyzers?
        usable = synonyms.indices_apply(executor.client, gen)  # not those of an older release
        result.uncacheable = usable is None  # without the rules only because Elasticsearch could not say
        if usable:
            result.alternatives = expanded
    body = plan.alternatives_request(
        result.alternatives,
        page=result.page,
        cfg=cfg,
        completing=result.completing,
        sort=result.sort,
        filters=result.filters,
        detail=detail,
        snippets=snippets,
        parsed=result.parsed,
        excluded=_excluded(result, executor),
        fuzzy=result.completing and dictionary is not None and plan.strangers_to_titles(query, dictionary, cfg),
        **_holding(result, query, dictionary, cfg),
        formed_last=result.formed_last and snippets,  # the dropdown (titles only) completes as ever
    )
    # Each search anew (a fallback searches again): many documents, `total` counts every spelling's posts, up to the bound.
    result.counted = (snippets or cfg.serving.instant_counts) and (bool(plan.spellings_of(body)) or not plan.several_spellings(result.alternatives))
    if result.sort == NEWEST and plan.spellings_of(body):
        body = _newest(result, executor, body)
    else:
        _read(result, executor.search(body))
    if detail and result.hits and cfg.serving.entry_comments:
        _with_comments(result, executor, body, cfg)


def _holding(result: SearchResult, query: str, dictionary, cfg) -> dict:
    """Documents holding each word of what was typed, and those words no title holds, from this
    process's dictionary (none without one, or with the rule off: then no word is frequent). A
    symbol word is looked up as indexed ("c#": csharp). And whether the query may match `many`
    documents, too many to count its spellings apart (plan.matches_at_most)."""
    if dictionary is None:
        return {}
    key = lambda word: symbols.indexed(word, cfg.index.symbol_words)  # noqa: E731
    counts = lambda word: dictionary.counts(key(word)) or vocabulary.NO_COUNTS  # noqa: E731

    def started(word: str) -> int:
        top = dictionary.completions(key(word), 1)
        return vocabulary.documents_holding(top[0][1]) if top else 0

    tail = plain_words(last_word(query)) if result.completing else []  # "node?" is node: the words as holdings keys them
    held = lambda word: vocabulary.documents_holding(counts(word))  # noqa: E731
    unfinished = tail[-1] if tail else ""
    many = plan.matches_at_most(result.alternatives, held, unfinished=unfinished, started=started) > cfg.serving.count_apart_up_to
    if not cfg.ranking.frequent_word_ratio:
        return {"many": many}
    holding = plan.holdings(result.alternatives, held, unfinished=unfinished, started=started)
    return {"holding": holding, "untitled": plan.untitled(result.alternatives, holding, lambda word: counts(word)[candidates.TITLE]), "many": many}


def _newest(result: SearchResult, executor: Executor, body: dict) -> dict:
    """Newest first lists the posts Best match counts: those of the spelling the page stands for,
    by date, its words marked. Which spelling that is only the answer says, so with several it
    takes two requests: the counts first, then that spelling's page. Returns the second's body."""
    counted = executor.search(plan.counts_request(body))
    spelling = reader.read(counted, result.alternatives, by_date=True).spelling
    own = groups.members(result.alternatives, spelling)
    listed = plan.spelling_request(body, spelling, highlight_query(own, completing=result.completing))
    _read(result, {**executor.search(listed), "aggregations": counted.get("aggregations", {})})
    result.set_aside, result.listed = result.others, result.total
    return listed


def _starters(result: SearchResult, executor: Executor) -> None:
    """What a results page that found nothing offers instead (search/querying/starters.py): the
    newest posts and tags, and the offered words as the blog writes them. Extras: when the
    request fails the page still answers, with its advice alone."""
    serving = conf.get().serving
    posts, tags = serving.empty_page_posts, serving.empty_page_tags
    spell = spelling.changed(result.did_you_mean, result.query)  # "développeur", not the dictionary's "developpeur"
    if not (posts or tags or spell):
        return
    try:
        body = starters.request(posts=posts, tags=tags, spell=spell)
        response = executor.search(body, kinds=(Kind.POSTS,))
    except (TransportError, ApiError) as exc:
        log.warning("recent posts unavailable for an empty page: %s", exc)
        result.uncacheable = True
        return
    result.recent, result.popular_tags = starters.read(response)
    if spell:
        result.did_you_mean = spelling.as_written(result.did_you_mean, result.query, spelling.written_forms(starters.spelled(response)))


def _excluded(result: SearchResult, executor: Executor) -> tuple[int, ...]:
    """The posts an exclusion leaves out whole (one small request, only for a query with some)."""
    if not result.parsed.exclusions:
        return ()
    limit = conf.get().serving.max_excluded_posts
    ids, complete = syntax.excluded_posts(executor.search(syntax.excluded_request(result.parsed, limit=limit)))
    result.uncacheable = result.uncacheable or not complete
    return ids


def _with_comments(result: SearchResult, executor: Executor, body: dict, cfg) -> None:
    """Each entry's matching comments, from one small search; when it fails the page still shows
    its entries (the comments are extras: no 503, nothing counted against the breaker)."""
    request = plan.comments_request(body, [h.post_id for h in result.hits], cfg=cfg)
    try:
        reader.with_comments(result.hits, executor.search(request, kinds=(Kind.COMMENTS,)))
    except (TransportError, ApiError) as exc:
        log.warning("matching comments unavailable, showing the entries without them: %s", exc)


def _suggestions(result: SearchResult, executor: Executor, gen: int | None, *, only: list[int]) -> tuple[dict, dict]:
    """The suggestions and counts of the words at `only`: from the word cache, or one small request."""
    cfg = conf.get()
    query, options = result.parsed.searched, cfg.ranking.suggester.as_dict()
    seconds = cfg.serving.word_cache_seconds if gen is not None else 0
    cached = wordcache.lookup(query, generation=gen, options=options, seconds=seconds, only=only)
    if cached is not None:
        result.word_cache_hit = True
        return cached
    body = plan.suggest_request(query, only, cfg=cfg)
    suggest, aggregations = plan.suggestions_of(body, executor.search(body))
    wordcache.store(query, suggest, aggregations, generation=gen, options=options, seconds=seconds, only=only)
    return suggest, aggregations


def _texts(hits: list[Hit]) -> list[str]:
    """What the page's entries show of their posts: titles and highlighted fragments, as text."""
    fragments = [h.snippet_html for h in hits] + [c.snippet_html for h in hits for c in h.comments]
    return [h.title for h in hits] + [spelling.plain(f) for f in fragments if f]


def _read(result: SearchResult, response: dict) -> None:
    result.boosts = boosts(result.alternatives, tiers=conf.get().ranking.tiers)
    found = reader.read(response, result.alternatives, by_date=result.sort != RELEVANCE)
    result.hits, result.total, result.strategy, result.synonyms = found.hits, found.total, found.strategy, found.synonyms
    result.listed, result.exact = found.listed, found.exact
    result.showing_for = result.parsed.showing(found.showing_for) if found.showing_for else ""  # the phrases as quoted
    if result.showing_for:  # as the posts shown write its words: "einführung", not the dictionary's "einfuhrung"
        result.showing_for = spelling.as_written(result.showing_for, result.query, spelling.written_forms(_texts(result.hits)))
    # The facets of the spelling the page stands for (search/querying/groups.py).
    result.facets = facets.read(facets.scope(response.get("aggregations", {}), found.spelling), result.filters)
