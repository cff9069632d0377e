"""The results page, its ?debug-search table, and the JSON API the search box uses."""

import dataclasses
import json
import time
from urllib.parse import urlencode

import orjson
from django.http import Http404, HttpResponse
from django.shortcuts import render, resolve_url
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from search import answers, conf, health, metrics, metrics_serving
from search.nodes import safe_url
from search.querying.normalize import left_out
from search.querying.query import NEWEST, RELEVANCE, last_word
from search.querying.service import (
    BadSearchRequest,
    SearchUnavailable,
    current_generation,
    search,
    validate_filters,
    validate_page,
    validate_sort,
    validate_verbatim,
)
from search.recording import recorder

# The most of a reader's own text the search box gives back after a cap cut the query searched.
READER_TEXT_MAX = 1000


def json_response(data: dict | list, *, status: int = 200, content_type: str = "application/json") -> HttpResponse:
    """UTF-8 JSON with <, > and & escaped, so reflected input can never read as HTML.

    orjson: a cached answer's JSON took 20 of its 65 us in the view with the standard library
    (bench in the README). The escapes are made on the bytes: in UTF-8 those three bytes never
    occur inside another character."""
    return HttpResponse(json_body(data), status=status, content_type=content_type)


def retry_later(response: HttpResponse) -> HttpResponse:
    """A 503 of search, page or JSON alike, tells clients when to come back."""
    response["Retry-After"] = str(conf.get().serving.retry_after_seconds)
    return response


def debug_allowed(request) -> bool:
    mode = conf.get().serving.debug_table
    wanted = "debug-search" in request.GET
    if not wanted or mode == "off":
        return False
    return mode == "all" or (mode == "staff" and request.user.is_staff)


def results_url(result, *, debug: bool = False, page: int | None = None, **changes) -> str:
    """The results page for `result`'s query, sort and filters, with `changes` (q, sort, tags, year):
    every link on the page (orders, facets, pages) keeps what the reader chose; a new order or
    filter starts again at the first page."""
    sort = changes.get("sort", result.sort)
    tags = changes.get("tags", result.filters.tags)
    year = changes.get("year", result.filters.year)
    verbatim = changes.get("verbatim", result.verbatim and "q" not in changes)  # new words are corrected again
    params = [("q", changes.get("q", result.query)), *(("tag", t) for t in tags)]
    params += [("year", year)] if year else []
    params += [("sort", sort)] if sort != RELEVANCE else []
    params += [("verbatim", 1)] if verbatim else []
    params += [("page", page)] if page else []
    return "?" + urlencode(params) + ("&debug-search" if debug else "")


def page_links(result, *, debug: bool) -> dict:
    """Links of the results page, built once here rather than in the template."""
    url = lambda **changes: results_url(result, debug=debug, **changes)  # noqa: E731
    chosen = result.filters
    links = {
        "best": url(sort=RELEVANCE),
        "newest": url(sort=NEWEST),
        "previous": url(page=result.page - 1),
        "next": url(page=result.page + 1),
        "active": [(gettext("tag {tag}").format(tag=t), url(tags=tuple(x for x in chosen.tags if x != t))) for t in chosen.tags]
        + ([(gettext("year {year}").format(year=chosen.year), url(year=None))] if chosen.year else []),
        "clear": url(tags=(), year=None),
    }
    links.update(last=url(page=result.num_pages), reachable=result.num_pages * result.page_size)
    if result.did_you_mean:  # the offered correction, with the reader's order and filters
        links["did_you_mean"] = url(q=result.did_you_mean)
    if result.showing_for:  # the words as typed, none corrected
        links["verbatim"] = url(verbatim=True)
    if result.verbatim:
        links["corrected"] = url(verbatim=False)
    # The query's phrases and exclusions as chips, each removable (the query written again without it).
    parsed = result.parsed
    links["phrase_chips"] = [(p, url(q=parsed.without(phrase=p))) for p in parsed.phrases]
    links["exclusion_chips"] = [(e, url(q=parsed.without(exclusion=e))) for e in parsed.exclusions]
    # An empty page's tags find the posts that carry them, as the blog's tag links do.
    links["popular_tags"] = [(t, n, results_url(result, debug=debug, q=t, tags=(t,), year=None)) for t, n in result.popular_tags]
    if result.facets is not None:
        links["tags"] = [(t, n, t in chosen.tags, url(tags=chosen.tags if t in chosen.tags else (*chosen.tags, t))) for t, n in result.facets.tags]
        years, shown = years_listed(result.facets.years, chosen.year, conf.get().serving.facet_years)
        links["years"] = [(y, n, y == chosen.year, url(year=None if y == chosen.year else y)) for y, n in years]
        links.update(years_shown=shown, years_first=f":{shown}", years_rest=f"{shown}:")
    return links


def years_listed(years: list[tuple[int, int]], chosen: int | None, most: int) -> tuple[list[tuple[int, int]], int]:
    """(the years in the order listed, how many are shown before "All N years"). Shown: the `most`
    years with the most results and a chosen one, newest first; the others follow, newest first (a
    phone reader scrolls past every link before the results otherwise). All of them when only one
    more would hide behind the control."""
    if len(years) <= most + 1:
        return list(years), len(years)
    biggest = {y for y, _ in sorted(years, key=lambda yn: (-yn[1], -yn[0]))[:most]} | {chosen}
    first = [yn for yn in years if yn[0] in biggest]
    return first + [yn for yn in years if yn[0] not in biggest], len(first)


def _filters(request):
    return validate_filters(request.GET.getlist("tag"), request.GET.get("year"))


def counted_search(kind: str, raw: str, **options):
    """search(), counted for /metrics by kind and outcome (cached, fresh, unavailable) with its
    time; a bad request is not a search and is not counted."""
    started = time.perf_counter()
    try:
        result = search(raw, **options)
    except SearchUnavailable:
        metrics.searched(kind, metrics.UNAVAILABLE, started)
        raise
    metrics.searched(kind, metrics.CACHED if result.cached else metrics.FRESH, started)
    return result


def search_page(request, template: str, context: dict, *, status: int = 200) -> HttpResponse:
    """A search page, extending the site's base template; its links home are the site's too."""
    serving = conf.get().serving
    return render(request, template, {**context, "base_template": serving.base_template, "home_url": resolve_url(serving.home_url)}, status=status)


@require_GET
def results(request):
    raw = request.GET.get("q", "")
    context = {"query": raw[: conf.get().ranking.max_query_length], "debug": debug_allowed(request)}
    try:
        page, sort, filters = validate_page(request.GET.get("page")), validate_sort(request.GET.get("sort")), _filters(request)
        verbatim = validate_verbatim(request.GET.get("verbatim"))
        result = counted_search(metrics.PAGE, raw, page=page, use_cache=not context["debug"], sort=sort, filters=filters, detail=True, verbatim=verbatim)
    except BadSearchRequest as exc:
        context["error"] = str(exc)
        return search_page(request, "search/results.html", context, status=400)
    except SearchUnavailable:
        return retry_later(search_page(request, "search/unavailable.html", context, status=503))
    # The box keeps what the reader typed; the page says what a cap left out (issue 54).
    context.update(result=result, links=page_links(result, debug=context["debug"]), left_out=left_out(raw, result.query))
    context["query"] = " ".join(raw.split())[:READER_TEXT_MAX] if context["left_out"] else result.query
    context["query_id"] = recorder().record(result, source="page")
    context["linked_hits"] = recorder().result_links(result, context["query_id"])
    if context["debug"]:
        context["debug_tiers"] = list(conf.get().ranking.tiers)
        context["debug_tier_parts"] = [tier.split(".") for tier in context["debug_tiers"]]  # the headers wrap at the dots
        context["debug_rows"] = [(alt, [b[t] for t in context["debug_tiers"]]) for alt, b in zip(result.alternatives, result.boosts, strict=True)]
        context["debug_json"] = json.dumps(result.requests, indent=2, ensure_ascii=False)
        context["elasticsearch_url"] = safe_url(conf.get().elasticsearch.url)
    return search_page(request, "search/results.html", context)


@require_GET
def healthz(request):
    healthy, report = health.check()
    return json_response({"healthy": healthy, **report}, status=200 if healthy else 503)


@require_GET
def healthz_live(request):
    """Liveness: the process answers and PostgreSQL does. Elasticsearch is not consulted."""
    healthy, report = health.live()
    return json_response({"healthy": healthy, **report}, status=200 if healthy else 503)


@require_GET
def metrics_text(request):
    """Prometheus's text format (search/metrics_serving.py): 404 unless the client may read it."""
    if not metrics_serving.allowed(request.META.get("REMOTE_ADDR", ""), request.META.get("HTTP_AUTHORIZATION", "")):
        raise Http404
    body, content_type = metrics_serving.render(state=True)
    return HttpResponse(body, content_type=content_type)


@require_GET
def api(request):
    started = time.perf_counter()
    try:
        page, sort, filters = validate_page(request.GET.get("page")), validate_sort(request.GET.get("sort")), _filters(request)
        # `?facets=1` adds the results page's extras (facets, each entry's matching comments);
        # the instant box never asks for them, and asks for no body snippets (`snippets=0`).
        detail, snippets = request.GET.get("facets") == "1", request.GET.get("snippets") != "0"
        verbatim = validate_verbatim(request.GET.get("verbatim"))
        shape = {"page": page, "sort": sort, "filters": filters, "detail": detail, "snippets": snippets, "verbatim": verbatim}
        kind = metrics.INSTANT if not snippets else metrics.API  # the instant box asks without snippets
        raw = request.GET.get("q", "")
        memo_key = _memo_key(raw, **shape)
        found = answers.memo.get(memo_key) if memo_key is not None else None
        if found is not None:
            return _memo_answer(request, kind, found, started)
        result = counted_search(kind, raw, **shape)
    except BadSearchRequest as exc:
        return json_response({"error": str(exc)}, status=400)
    except SearchUnavailable:
        return retry_later(json_response({"error": gettext("search is temporarily unavailable")}, status=503))
    log = recorder()
    query_id = log.record(result, source="api", burst=log.instant_burst(request.GET))
    body = json_body(result.as_api())
    # Kept once the result cache answered it (the request came before): a query asked once never
    # takes the memo's room, and the generation is the one the result cache holds it under.
    if result.cached and result.cache_generation is not None:
        stored = _memo_key(raw, **shape, generation=result.cache_generation)
        if stored is not None:
            serving = conf.get().serving
            answers.memo.put(stored, body, answers.served(result), seconds=serving.cache_seconds, max_bytes=serving.answer_memo_bytes)
    return HttpResponse(_with_query_id(body, query_id), content_type="application/json")


def _memo_key(raw: str, *, generation: int | None = None, **request) -> tuple | None:
    """The answer memo's key of an API request (search/answers.py), or None when it may not be
    used: turned off, a query longer than any search reads, or no generation known."""
    if not answers.enabled() or len(raw) > conf.get().ranking.max_query_length:
        return None
    if generation is None:
        generation = current_generation()
        if generation is None:
            return None
    filters = request.pop("filters")
    return answers.key(generation, raw, filters_key=filters.key() if filters else "", **request)


def _memo_answer(request, kind: str, found: tuple, started: float) -> HttpResponse:
    """A repeated request's body as sent before: logged and counted as the cached search it is."""
    body, served = found
    metrics.cache_lookup(True)
    metrics.searched(kind, metrics.CACHED, started)
    log = recorder()
    served = dataclasses.replace(served, elapsed_ms=round((time.perf_counter() - started) * 1000, 2))
    query_id = log.record(served, source="api", burst=log.instant_burst(request.GET))
    return HttpResponse(_with_query_id(body, query_id), content_type="application/json")


def json_body(data: dict | list) -> bytes:
    """json_response()'s bytes."""
    body = orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)
    return body.replace(b"<", b"\\u003c").replace(b">", b"\\u003e").replace(b"&", b"\\u0026")


def _with_query_id(body: bytes, query_id: str | None) -> bytes:
    """An API body (a JSON object) with its "query_id" last, as json_response() of
    {**as_api(), "query_id": ...} writes it."""
    return body[:-1] + b',"query_id":' + json_body(query_id) + b"}"


def completions(result) -> list[str]:
    """What the browser's search bar offers: the correction, then the top hits' titles, no repeats.
    Not a correction that kept an unfinished last word: "firefix ext" is no "firefox ext"."""
    half = result.completing and last_word(result.showing_for) == last_word(result.query)
    found = [result.showing_for] if result.showing_for and not half else []
    found += [h.title for h in result.hits]
    return list(dict.fromkeys(t for t in found if t))[: conf.get().serving.suggest_completions]


@require_GET
def suggest(request):
    """OpenSearch suggestions (`[query, [completion, ...]]`) for the browser's own search bar.

    Answered from the same search() as the instant results, so it shares their result cache. When
    search is unavailable or the request is bad the answer is an empty list: a search bar shows
    nothing rather than an error.
    """
    query = request.GET.get("q", "")[: conf.get().ranking.max_query_length]
    try:
        found = completions(counted_search(metrics.SUGGEST, query, page=1))
    except (BadSearchRequest, SearchUnavailable):
        found = []
    return json_response([query, found], content_type="application/x-suggestions+json; charset=utf-8")


@require_GET
def opensearch(request):
    """The OpenSearch description that lets readers add this blog's search to their browser."""
    context = {
        "results_url": request.build_absolute_uri(reverse("search:results")) + "?q={searchTerms}",
        "suggest_url": request.build_absolute_uri(reverse("search:suggest")) + "?q={searchTerms}",
        "api_url": request.build_absolute_uri(reverse("search:api")) + "?q={searchTerms}",
        "self_url": request.build_absolute_uri(reverse("search:opensearch")),
        "home_url": request.build_absolute_uri(resolve_url(conf.get().serving.home_url)),
        "icon_url": request.build_absolute_uri(static(conf.get().serving.opensearch_icon)),
    }
    return render(request, "search/opensearch.xml", context, content_type="application/opensearchdescription+xml")
