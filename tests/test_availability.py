"""Search keeps answering when what sits beside it fails: PostgreSQL (the index generation) down,
the cache server down or hanging; and cached answers stay within their own site and casing."""

import time

import pytest
from django.db import connection
from django.urls import reverse

from search import conf
from search.querying import resultcache
from search.querying.service import SearchUnavailable, search
from tests.factories import make_post

API = reverse("search:api")


@pytest.fixture
def blog(build_index):
    make_post("Firefox keyboard shortcuts", "Firefox has many keyboard shortcuts.")
    build_index()


@pytest.mark.django_db(transaction=True)
def test_postgresql_down_during_a_search_answers_uncached(client, blog):
    port = connection.settings_dict["PORT"]
    connection.close()
    connection.settings_dict["PORT"] = 9  # nothing listens there: every query fails
    try:
        result = search("firefox")
        assert result.hits and result.hits[0].title == "Firefox keyboard shortcuts" and not result.cached
        assert not search("firefox").cached  # nothing was cached without a generation
    finally:
        connection.close()
        connection.settings_dict["PORT"] = port
    assert search("firefox").hits  # and back to normal


def redis_cache(port: int) -> dict:
    from django.conf import settings

    return {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{port}/0",
            "OPTIONS": settings.REDIS_CACHE_OPTIONS,
        }
    }


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["down", "hanging"])
def test_cache_server_down_or_hanging_costs_little_and_never_a_500(client, blog, settings, black_hole, kind):
    port, connections = black_hole
    settings.CACHES = redis_cache(9 if kind == "down" else port)
    started = time.perf_counter()
    response = client.get(API, {"q": "firefox"})
    first = time.perf_counter() - started
    assert response.status_code == 200 and response.json()["results"]
    # The first search paid the cache's short socket timeout once (0.1 s, not Redis's default of
    # waiting forever); then the cache is skipped for a while: later searches never touch it.
    assert not resultcache.breaker.allows()
    assert first < 1.0, first
    touched = len(connections)
    assert touched <= 1
    for q in ("keyboard", "shortcuts firefox", "firefox"):
        response = client.get(API, {"q": q})
        assert response.status_code == 200 and response.json()["results"], q
    assert len(connections) == touched


@pytest.mark.django_db
def test_two_sites_sharing_a_cache_never_see_each_others_results(blog, settings):
    assert search("firefox").hits
    assert search("firefox").cached
    key = resultcache.key("firefox", 1, 0)
    settings.SEARCH = {**settings.SEARCH, "INDEX_PREFIX": conf.get().index.prefix + "-other-site"}
    assert resultcache.key("firefox", 1, 0) != key
    with pytest.raises(SearchUnavailable):  # its indices do not exist: nothing cached is served
        search("firefox")
    settings.DATABASES["default"]["NAME"] += "_x"
    try:
        assert resultcache.key("firefox", 1, 0) != key
    finally:
        settings.DATABASES["default"]["NAME"] = settings.DATABASES["default"]["NAME"][:-2]


@pytest.mark.django_db
def test_a_cached_answer_shows_the_readers_own_casing(blog):
    first = search("FireFox")
    second = search("firefox")
    assert second.cached and second.query == "firefox" and second.search_terms[0] == [1.1, "firefox"]
    assert first.query == "FireFox"
