"""The counters and histograms the search service keeps for Prometheus (served at /metrics).

Only what a process sees happen is counted here: searches, Elasticsearch requests, breakers,
syncs, the freshness of applied changes, result-cache lookups. What is a *state* held by
PostgreSQL or Elasticsearch (outbox depth, documents, the dictionary's age ...) is read when
Prometheus scrapes (search/metrics_state.py), never on a reader's request.

prometheus_client (the official library) keeps the values. Under gunicorn, config/gunicorn.py
sets PROMETHEUS_MULTIPROC_DIR before any worker imports this module, so each worker writes its
values to a memory-mapped file there and /metrics adds every worker's up (its multiprocess
mode); a single process (runserver, the tests, `search_sync --every`) keeps them in memory.

Cost: a cached search is a few tens of microseconds of Python, so the hot paths touch children
bound once here (`.labels()` takes a lock and builds a key on every call) and nothing else;
with `SEARCH_METRICS=0` nothing is counted at all (docs/benchmarks.md has the figures).
"""

import time

from prometheus_client import Counter, Gauge, Histogram

from search import conf

# Kinds of search (where it was asked) and outcomes, as the views report them.
PAGE, INSTANT, API, SUGGEST = "page", "instant", "api", "suggest"
CACHED, FRESH, UNAVAILABLE = "cached", "fresh", "unavailable"
KINDS = (PAGE, INSTANT, API, SUGGEST)
OUTCOMES = (CACHED, FRESH, UNAVAILABLE)

# A cached search takes well under a millisecond, a fresh one 5-50 ms, a timeout ~1 s.
_LATENCY = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.5, 5.0)
# From a commit to searchable: tens of milliseconds after a save, up to the scheduler's minute
# for writes that bypass the save's sync, longer during an outage.
_FRESHNESS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 90.0, 120.0, 300.0, 900.0, 3600.0)

SEARCHES = Histogram("search_duration_seconds", "Searches by kind and outcome, and how long search() took.", ["kind", "outcome"], buckets=_LATENCY)
_SEARCHES = {(k, o): SEARCHES.labels(k, o) for k in KINDS for o in OUTCOMES}

ES_REQUESTS = Counter(
    "search_elasticsearch_requests_total",
    "Elasticsearch round trips (each attempt on a node), by outcome: ok, busy (HTTP 429: see client.is_busy), error (HTTP 5xx), timeout, unreachable.",
    ["outcome"],
)
_ES = {outcome: ES_REQUESTS.labels(outcome) for outcome in ("ok", "busy", "error", "timeout", "unreachable")}
ES_SECONDS = Histogram("search_elasticsearch_request_seconds", "How long one Elasticsearch round trip took.", buckets=_LATENCY)
ES_RETRIES = Counter("search_elasticsearch_retries_total", "Requests tried again on another node (connection failed, or HTTP 502/503).")

BREAKER_OPEN = Gauge("search_breaker_open", "1 while a breaker refuses calls (in any live process), else 0.", ["breaker"], multiprocess_mode="livemax")
BREAKER_TRIPS = Counter("search_breaker_trips_total", "Times a breaker opened.", ["breaker"])

SYNC_ROUNDS = Counter("search_sync_rounds_total", "Outbox syncs that had entries to apply, by outcome: ok, refused, blocked, unreachable.", ["outcome"])
SYNC_CHANGES = Counter("search_sync_changes_total", "Outbox entries by what became of them: applied, refused (retried later), dead.", ["result"])
FRESHNESS = Histogram(
    "search_freshness_seconds",
    "From the change's statement in PostgreSQL (or its due time, if later) to searchable, by PostgreSQL's clock; one per applied change.",
    buckets=_FRESHNESS,
)

for _outcome in ("ok", "refused", "blocked", "unreachable"):
    SYNC_ROUNDS.labels(_outcome)
for _result in ("applied", "refused", "dead"):
    SYNC_CHANGES.labels(_result)

CACHE = Counter("search_result_cache_requests_total", "Result cache lookups: hit or miss (a cache that failed counts as a miss).", ["result"])
_CACHE_HIT, _CACHE_MISS = CACHE.labels("hit"), CACHE.labels("miss")


def enabled() -> bool:
    return conf.get().metrics.enabled


def searched(kind: str, outcome: str, started: float) -> None:
    """One search answered (or not) by a view; `started` is its time.perf_counter()."""
    if enabled():
        _SEARCHES[kind, outcome].observe(time.perf_counter() - started)


def cache_lookup(hit: bool) -> None:
    if enabled():
        (_CACHE_HIT if hit else _CACHE_MISS).inc()


def elasticsearch_request(outcome: str, seconds: float) -> None:
    if enabled():
        _ES[outcome].inc()
        ES_SECONDS.observe(seconds)


def elasticsearch_retry() -> None:
    if enabled():
        ES_RETRIES.inc()


def breaker_watch(name: str):
    """The callback a breaker calls when it opens (True) or closes (False); it shows as closed
    (0) until then."""
    BREAKER_OPEN.labels(name)
    BREAKER_TRIPS.labels(name)

    def changed(is_open: bool) -> None:
        if enabled():
            BREAKER_OPEN.labels(name).set(1 if is_open else 0)
            if is_open:
                BREAKER_TRIPS.labels(name).inc()

    return changed


def sync_round(outcome: str, *, applied: int = 0, refused: int = 0, dead: int = 0) -> None:
    if not enabled():
        return
    SYNC_ROUNDS.labels(outcome).inc()
    for result, count in (("applied", applied), ("refused", refused), ("dead", dead)):
        if count:
            SYNC_CHANGES.labels(result).inc(count)


def fresh(ages: list[float]) -> None:
    """The seconds each applied change took to become searchable."""
    if enabled():
        for age in ages:
            FRESHNESS.observe(max(age, 0.0))
