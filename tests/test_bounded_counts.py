"""Counts past COUNT_BOUND (issue 52): a search with no aggregation counts its hits up to the
bound and says "more than N"; beside the facets every count is exact. The real services."""

import re

import pytest

from tests.factories import make_post

pytestmark = pytest.mark.django_db(transaction=True)

MATCHING = 30
BOUNDED = {"COUNT_BOUND": 25, "MAX_PAGE": 2, "PAGE_SIZE": 10, "CACHE_SECONDS": 0}


@pytest.fixture
def many_posts(build_index, settings):
    for n in range(MATCHING):
        make_post(f"Zucchini harvest {n}", "Grown by the shed.", tags=("garden",) if n % 3 else ("kitchen",))
    make_post("Pumpkins", "Nothing else grows here.")
    build_index()
    settings.SEARCH = {**settings.SEARCH, **BOUNDED}


def summary(html: str) -> str:
    line = re.search(r'<p class="summary-line">(.*?)</p>', html, re.S).group(1)
    return " ".join(re.sub(r"<[^>]+>", " ", line).split())


def test_past_the_bound_the_api_says_more_and_the_facets_count_exactly(client, many_posts):
    bounded = client.get("/api/search/", {"q": "zucchini"}).json()
    assert (bounded["total"], bounded["total_exact"]) == (25, False)
    assert len(bounded["results"]) == 10
    faceted = client.get("/api/search/", {"q": "zucchini", "facets": "1"}).json()
    assert (faceted["total"], faceted["total_exact"]) == (MATCHING, True)  # the facets visit every match anyway
    assert dict(faceted["facets"]["tags"]) == {"garden": 20, "kitchen": 10}
    few = client.get("/api/search/", {"q": "pumpkins"}).json()
    assert (few["total"], few["total_exact"]) == (1, True)


def test_past_the_bound_the_page_says_more_than_and_the_pager_stays_right(client, many_posts, settings):
    settings.SEARCH = {**settings.SEARCH, "PAGE_FACETS": False}
    page = client.get("/search/", {"q": "zucchini"}).content.decode()
    assert summary(page).startswith("More than 25 results for zucchini")
    assert "the first 20" in summary(page)  # more than the pages reach: the cap's note
    last = client.get("/search/", {"q": "zucchini", "page": "2"}).content.decode()
    assert last.count('<li class="result ') == 10  # the pages' reach, every page full
    newest = client.get("/search/", {"q": "zucchini", "sort": "new"}).content.decode()
    assert "The same results as Best match, the newest at the top." in newest
    settings.SEARCH = {**settings.SEARCH, "PAGE_FACETS": True}
    exact = client.get("/search/", {"q": "zucchini"}).content.decode()
    assert summary(exact).startswith(f"{MATCHING} results for zucchini")
    assert client.get("/search/", {"q": "zucchini", "page": "3"}).content.decode().count('<li class="result ') == 0  # past the pages' reach


def test_the_bound_reaches_past_the_pages_whatever_it_is_set_to(settings):
    from search import conf
    from search.querying import plan

    settings.SEARCH = {**settings.SEARCH, "COUNT_BOUND": 100, "MAX_PAGE": 30, "PAGE_SIZE": 10}
    body = plan.typed_request("zucchini", page=1, cfg=conf.get(), snippets=False)
    assert body["track_total_hits"] == 301  # the pager counts the 300 posts it reaches exactly
