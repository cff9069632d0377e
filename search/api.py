"""The public API: everything a site imports from search, in one module (docs/adopting.md).

    from search.api import EntryIndex, ReplyIndex, register, RowVersionField    # declare (models.py, search_indexes.py)
    from search.api import search, SearchResult, Hit, SearchUnavailable         # search from Python
    from search.api import settings_from_environment, get_settings              # settings.py, urls.py
    from search.api import setting, typed                                       # a site's own app's typed settings

A site's tests add search.testing (indices of their own, cleaned up). Every other module of
`search` is internal and may change between releases; tests/test_public_api.py checks that the
blog, config/ and examples/notebook/ import nothing else. The search service needs Django's apps
ready, so its names are imported on first use: models.py may import this module.
"""

from importlib import import_module

from search.conf import SearchSettings, environment_overrides, overrides_from_environment, setting, table_rows, typed
from search.conf import get as get_settings
from search.envvars import parse as parse_environment_value
from search.fields import RowVersionField
from search.process import register as register_process_state
from search.registry import EntryIndex, ReplyIndex, register

# name -> (module, attribute), imported when first asked for.
_LATER = {
    "search": ("search.querying.service", "search"),
    "SearchResult": ("search.querying.service", "SearchResult"),
    "SearchUnavailable": ("search.querying.service", "SearchUnavailable"),
    "BadSearchRequest": ("search.querying.service", "BadSearchRequest"),
    "Hit": ("search.querying.results", "Hit"),
    "CommentMatch": ("search.querying.results", "CommentMatch"),
    "Filters": ("search.querying.facets", "Filters"),
    "Facets": ("search.querying.facets", "Facets"),
}


def settings_from_environment(environ, *, debug: bool = False) -> dict[str, dict]:
    """{"SEARCH": ..., "ELASTICSEARCH": ...}: the overrides the environment's variables set
    (SEARCH_INDEX_PREFIX, ELASTICSEARCH_URL, ...; docs/configuration.md names them)."""
    return {source: overrides_from_environment(environ, debug=debug, source=source) for source in ("SEARCH", "ELASTICSEARCH")}


def __getattr__(name: str):
    if name in _LATER:
        module, attribute = _LATER[name]
        return getattr(import_module(module), attribute)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "EntryIndex",
    "ReplyIndex",
    "RowVersionField",
    "SearchSettings",
    "environment_overrides",
    "get_settings",
    "overrides_from_environment",
    "parse_environment_value",
    "register",
    "register_process_state",
    "setting",
    "settings_from_environment",
    "table_rows",
    "typed",
    *_LATER,
]
