"""A helper for a site's own tests: search indices of their own for a test run (or one test),
with an Elasticsearch user of their own, all deleted afterwards.

    # conftest.py
    import pytest
    from search.testing import search_indices, fresh_state

    @pytest.fixture(scope="session", autouse=True)
    def indices():
        with search_indices() as prefix:   # test-<pid>-<random>: never the site's own indices
            yield prefix

    @pytest.fixture(autouse=True)
    def _fresh():
        fresh_state()   # every test starts as a new process would

With ELASTIC_PASSWORD (the superuser's; user ELASTIC_USER, default elastic) set, the run connects
as a user made for it with exactly the role `search_security` gives a site, so the tests prove the
role is enough; without it, as ELASTICSEARCH_URL says. Build the indices in a test with
`call_command("reindex", "--no-progress")`. `document()` reads what the index holds for a row.
"""

import contextlib
import os
import secrets
from collections.abc import Iterator

from django.conf import settings
from django.core.cache import cache
from elasticsearch import NotFoundError

from search import conf, security
from search.client import get_client, reset_client
from search.documents import synonyms_set
from search.nodes import with_credentials
from search.process import reset_process_state


def _kind(reply: bool) -> str:
    from search.aliases import alias_name

    return alias_name("comments" if reply else "posts")


@contextlib.contextmanager
def search_indices(prefix: str | None = None) -> Iterator[str]:
    """Point search at indices named `prefix` (default: one of this run's own) until the block
    ends, then delete them, their synonyms set and the run's user and role."""
    prefix = prefix or f"test-{os.getpid()}-{secrets.token_hex(3)}"
    saved = getattr(settings, "SEARCH", {}) or {}, getattr(settings, "ELASTICSEARCH", {}) or {}
    settings.SEARCH = {**saved[0], "INDEX_PREFIX": prefix}
    reset_process_state()
    admin = None
    password = os.environ.get("ELASTIC_PASSWORD")
    if password:
        admin = security.admin_client(os.environ.get("ELASTIC_USER", "elastic"), password)
        own = secrets.token_urlsafe(24)
        security.grant(admin, prefixes=[prefix], user=prefix, password=own)
        settings.ELASTICSEARCH = {**saved[1], "URL": with_credentials(conf.get().elasticsearch.url, prefix, own)}
        reset_process_state()
    try:
        yield prefix
    finally:
        _clean_up(admin or get_client(), prefix, revoke=admin is not None)
        settings.SEARCH, settings.ELASTICSEARCH = saved
        reset_client()
        reset_process_state()


def _clean_up(client, prefix: str, *, revoke: bool) -> None:
    reset_client()
    names = list(client.indices.get(index=f"{prefix}-*", allow_no_indices=True, expand_wildcards="all").body)
    if names:  # by name: a node may refuse wildcard deletes (action.destructive_requires_name)
        client.indices.delete(index=",".join(names))
    with contextlib.suppress(NotFoundError):
        client.synonyms.delete_synonym(id=synonyms_set())
    if revoke:
        security.revoke(client, prefixes=[prefix], user=prefix)


def fresh_state() -> None:
    """Forget what this process learnt from earlier tests: the cache, the dictionary, a paused sync."""
    cache.clear()
    reset_process_state()


def document(pk: int, *, reply: bool = False) -> dict | None:
    """What the index holds for an entry's row (a reply's, with `reply`), or None."""
    try:
        return get_client().get(index=_kind(reply), id=str(pk))["_source"]
    except NotFoundError:
        return None


def lose_document(pk: int, *, reply: bool = False) -> None:
    """Delete a row's document behind search's back, as a damaged index would (for search_check's tests)."""
    get_client().delete(index=_kind(reply), id=str(pk), refresh=True)
