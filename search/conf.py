"""The SEARCH settings dict, checked once at start-up.

Every tunable of the search service lives in `settings.SEARCH` (config/settings.py). A key that is
missing, misspelled (an override of "PAGE_SIZ" would otherwise be silently ignored) or of the
wrong type fails when Django starts (SearchConfig.ready), not on a reader's request.
"""
from django.core.exceptions import ImproperlyConfigured

from search.query import TIER_NAMES
from search.suggestions import COSTS

NUMBER = (int, float)
# Key -> the type(s) its value must have.
SPEC: dict[str, type | tuple] = {
    "INDEX_PREFIX": str, "SHARDS": int, "REPLICAS": int, "READY_TIMEOUT_SECONDS": NUMBER, "READY_POLL_SECONDS": NUMBER,
    "BULK_CHUNK_SIZE": int, "BULK_THREADS": int, "QUERYSET_CHUNK_SIZE": int,
    "OUTBOX_DRAIN_BATCH": int, "PENDING_DRAIN_BATCH": int, "OUTBOX_MAX_ATTEMPTS": int, "OUTBOX_RETRY_SECONDS": NUMBER, "OUTBOX_MAX_LAG_SECONDS": NUMBER,
    "REBUILD_CATCH_UP_ATTEMPTS": int,
    "MAX_QUERY_LENGTH": int, "MAX_QUERY_WORDS": int, "MAX_QUERY_TOKENS": int,
    "MAX_SUGGEST_WORDS": int, "MAX_SUGGEST_WORD_LENGTH": int,
    "TYPED_SCORE": NUMBER, "MIN_SUGGESTION_SCORE": NUMBER, "MAX_ALTERNATIVES": int, "MAX_OPTIONS_PER_WORD": int,
    "TYPO_COSTS": dict, "KNOWN_WORD_MIN_DOCS": int, "KEEP_PRESENT_SCORE": NUMBER, "SUGGESTER": dict,
    "TIERS": dict, "TITLE_BOOST": NUMBER, "RELEVANCE_WEIGHT": NUMBER, "STEMMER": str,
    "PAGE_SIZE": int, "MAX_PAGE": int, "HIGHLIGHT_FRAGMENT_SIZE": int, "SUGGEST_COMPLETIONS": int,
    "CACHE_SECONDS": int, "WORD_CACHE_SECONDS": int, "GENERATION_LISTEN": bool, "GENERATION_RECHECK_SECONDS": NUMBER,
    "GENERATION_WAIT_SECONDS": NUMBER,
    "SEARCH_BREAKER_SECONDS": NUMBER, "DEADLINE_SECONDS": NUMBER, "SYNC_BREAKER_SECONDS": NUMBER,
    "CACHE_BREAKER_SECONDS": NUMBER, "RETRY_AFTER_SECONDS": int,
    "DEBUG_TABLE": str, "BASELINE_VIEWS": bool,
}
CHOICES = {"DEBUG_TABLE": {"all", "staff", "off"}}


def problems(conf: dict) -> list[str]:
    """Everything wrong with a SEARCH dict, as readable lines (empty when it is right)."""
    found = [f"missing key {key!r}" for key in SPEC if key not in conf]
    found += [f"unknown key {key!r} (misspelled?)" for key in conf if key not in SPEC]
    for key, kind in SPEC.items():
        value = conf.get(key)
        if key in conf and (not isinstance(value, kind) or (kind is not bool and isinstance(value, bool))):
            found.append(f"{key} must be {getattr(kind, '__name__', 'a number')}, not {value!r}")
        if key in CHOICES and value not in CHOICES[key]:
            found.append(f"{key} must be one of {sorted(CHOICES[key])}, not {value!r}")
    if isinstance(conf.get("TIERS"), dict):
        found += [f"unknown tier {t!r} in TIERS" for t in conf["TIERS"] if t not in TIER_NAMES]
    if isinstance(conf.get("TYPO_COSTS"), dict) and set(conf["TYPO_COSTS"]) != set(COSTS):
        found.append(f"TYPO_COSTS must name exactly {sorted(COSTS)}")
    return found


def check(conf: dict) -> None:
    """Raise ImproperlyConfigured, naming every problem, unless the SEARCH dict is right."""
    found = problems(conf)
    if found:
        raise ImproperlyConfigured("settings.SEARCH: " + "; ".join(found))
