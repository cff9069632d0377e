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


def test_a_misspelling_of_many_documents_counts_every_spelling_up_to_the_bound(client, many_posts, settings):
    """Counting spellings apart is an aggregation over every match: past COUNT_APART_UP_TO
    documents (the dictionary's bound) the count is every spelling's, and says so."""
    apart = client.get("/api/search/", {"q": "zuchini harvest"}).json()
    assert apart["showing_for"] == "zucchini harvest" and len(apart["search_terms"]) > 1
    assert (apart["counted"], apart["total_exact"]) == (True, True)  # few documents: each spelling counted apart, exactly
    settings.SEARCH = {**settings.SEARCH, "COUNT_APART_UP_TO": 10, "PAGE_FACETS": False}
    together = client.get("/api/search/", {"q": "zuchini harvest"}).json()
    assert together["showing_for"] == "zucchini harvest"  # the same correction, the same hits
    assert [r["id"] for r in together["results"]] == [r["id"] for r in apart["results"]]
    assert (together["counted"], together["total"], together["total_exact"], together["others"]) == (False, 25, False, 0)
    page = client.get("/search/", {"q": "zuchini harvest"}).content.decode()
    assert summary(page).startswith("More than 25 results for zucchini harvest and similar spellings")
    for asked in ({"page": "2"}, {"sort": "new"}):  # every page and order says the same
        later = client.get("/api/search/", {"q": "zuchini harvest", **asked}).json()
        assert (later["showing_for"], later["counted"], later["total_exact"], later["others"]) == ("zucchini harvest", False, False, 0), asked
    assert client.get("/api/search/", {"q": "zuchini harvest", "page": "2"}).json()["total"] == 25
    narrowed = client.get("/api/search/", {"q": "zuchini harvest", "tag": "garden"}).json()
    assert (narrowed["showing_for"], narrowed["counted"], narrowed["total"], narrowed["total_exact"]) == ("zucchini harvest", False, 20, True)
    newest = client.get("/search/", {"q": "zuchini harvest", "sort": "new"}).content.decode()
    assert "The same results as Best match, the newest at the top." in newest and "also lists" not in newest
    settings.SEARCH = {**settings.SEARCH, "PAGE_FACETS": True}
    faceted = client.get("/api/search/", {"q": "zuchini harvest", "facets": "1"}).json()
    assert (faceted["counted"], faceted["total"], faceted["total_exact"]) == (True, apart["total"], True)  # facets: apart, exactly


def test_a_cached_answer_keeps_its_bounded_count(client, many_posts, settings):
    settings.SEARCH = {**settings.SEARCH, "COUNT_APART_UP_TO": 10, "CACHE_SECONDS": 300}
    first = client.get("/api/search/", {"q": "zuchini harvest", "snippets": "0"}).json()
    again = client.get("/api/search/", {"q": "zuchini harvest", "snippets": "0"}).json()
    assert (first["counted"], first["total_exact"]) == (False, False)
    assert (again["counted"], again["total"], again["total_exact"]) == (False, 25, False)


def test_the_dictionarys_bound_sums_each_word_of_every_spelling_once():
    from search.alternative import Alternative
    from search.querying import plan

    docs = {"zuchini": 0, "harvest": 30, "zucchini": 31, "harvester": 4}
    alts = [Alternative(1.0, "the zuchini harvest", typed=True), Alternative(0.8, "the zucchini harvest")]
    assert plan.matches_at_most(alts, lambda word: docs.get(word, 1000)) == 61  # "the" is a stop word, "harvest" counted once
    started = lambda word: docs["harvester"] if word == "harvest" else 0  # noqa: E731
    assert plan.matches_at_most(alts, lambda word: docs.get(word, 1000), unfinished="harvest", started=started) == 65
