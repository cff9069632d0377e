"""Issue 26 through the pages and the API against the real services: one entry per post with its
matching comments, pages that count posts, tag and year facets that narrow without JavaScript."""

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from blog.models import Post
from tests.factories import make_comment, make_post
from tests.helpers import refresh, source_of

pytestmark = pytest.mark.django_db

RESULTS, API = reverse("search:results"), reverse("search:api")


def dated(post, year):
    Post.objects.filter(pk=post.pk).update(pub_date=datetime(year, 6, 1, tzinfo=UTC))
    return post


@pytest.fixture
def blog(build_index):
    posts = {
        "notes": dated(make_post("Okapi field notes", "Notes from the okapi reserve.", tags=["zoo", "africa"]), 2019),
        "habitat": dated(make_post("Okapi habitat", "Where the okapi lives.", tags=["zoo"]), 2021),
        "walks": dated(make_post("Forest walks", "Long walks under tall trees.", tags=["africa", "hiking"]), 2021),
    }
    for i in range(5):
        make_comment(posts["walks"], f"I once saw an okapi on walk number {i}.", author=f"Walker {i}")
    build_index()
    return posts


def api(client, **params):
    response = client.get(API, params)
    assert response.status_code == 200, response.content
    return response.json()


def test_a_post_appears_once_with_its_best_comments_inside(client, blog):
    data = api(client, q="okapi", facets="1")
    ids = [r["post_id"] for r in data["results"]]
    assert sorted(ids) == sorted(p.pk for p in blog.values()) and data["total"] == 3  # one entry each
    walks = next(r for r in data["results"] if r["post_id"] == blog["walks"].pk)
    assert (walks["type"], walks["matched"], walks["url"]) == ("post", "comment", blog["walks"].get_absolute_url())
    assert len(walks["comments"]) == 3 and walks["more_comments"] == 2
    assert all("#comment-" in c["url"] and "<mark>okapi</mark>" in c["highlight"] for c in walks["comments"])
    # The instant requests fetch no comments, but say that comments put the post there.
    instant = next(r for r in api(client, q="okapi", snippets="0")["results"] if r["post_id"] == blog["walks"].pk)
    assert instant["comments"] == [] and instant["matched"] == "comment" and "facets" not in api(client, q="okapi")
    html = client.get(RESULTS, {"q": "okapi"}).content.decode()
    assert html.count(f'data-href="{blog["walks"].get_absolute_url()}"') == 1
    assert "2 more comments match" in html and html.count('class="comment-matches"') == 1


def test_pages_count_posts_not_documents(client, build_index, settings):
    settings.SEARCH = {**settings.SEARCH, "PAGE_SIZE": 4}
    posts = [make_post(f"Narwhal sighting {i}", "A narwhal.") for i in range(6)]
    for post in posts:
        for j in range(3):
            make_comment(post, f"narwhal comment {j}")
    build_index()
    first, second = api(client, q="narwhal"), api(client, q="narwhal", page="2")
    assert first["total"] == 6  # 24 documents, 6 posts
    seen = [r["post_id"] for r in first["results"] + second["results"]]
    assert sorted(seen) == sorted(p.pk for p in posts)  # every post once, across the pages
    assert "Page 1 of 2" in client.get(RESULTS, {"q": "narwhal"}).content.decode()


def test_facets_count_posts_and_a_post_found_by_its_comments_counts(client, blog):
    data = api(client, q="okapi", facets="1")
    assert dict(map(tuple, data["facets"]["tags"])) == {"zoo": 2, "africa": 2, "hiking": 1}
    assert list(map(tuple, data["facets"]["years"])) == [(2021, 2), (2019, 1)]


def test_tags_narrow_all_together_and_a_year_keeps_the_other_years_in_view(client, blog):
    africa = api(client, q="okapi", tag="africa", facets="1")
    assert {r["post_id"] for r in africa["results"]} == {blog["notes"].pk, blog["walks"].pk} and africa["total"] == 2
    assert dict(map(tuple, africa["facets"]["tags"])) == {"africa": 2, "zoo": 1, "hiking": 1}  # what one more tag leaves
    both = api(client, q="okapi", tag=["africa", "zoo"])
    assert [r["post_id"] for r in both["results"]] == [blog["notes"].pk]
    year = api(client, q="okapi", year="2021", facets="1")
    assert {r["post_id"] for r in year["results"]} == {blog["habitat"].pk, blog["walks"].pk}
    assert list(map(tuple, year["facets"]["years"])) == [(2021, 2), (2019, 1)]  # still offered
    assert api(client, q="okapi", tag="africa", sort="new")["results"][0]["post_id"] == blog["walks"].pk


def test_a_post_whose_tags_change_takes_its_comments_along(es, live, client):
    with live():
        post = make_post("Quiet trails", "Paths.", tags=["hiking"])
        comment = make_comment(post, "The gerenuk stood still.")
    with live():
        post.tags = ["wildlife"]
        post.save()
    refresh(es)
    assert source_of(es, "comments", comment.pk)["tags"] == ["wildlife"]
    assert [r["post_id"] for r in api(client, q="gerenuk", tag="wildlife")["results"]] == [post.pk]
    assert api(client, q="gerenuk", tag="hiking")["results"] == []


def test_bad_filters_answer_400_with_the_reason(client, blog):
    response = client.get(RESULTS, {"q": "okapi", "year": "20x1"})
    assert response.status_code == 400 and "four-digit year" in response.content.decode()
    assert client.get(API, {"q": "okapi", "tag": [f"t{i}" for i in range(6)]}).status_code == 400


def test_the_page_links_narrow_and_remove_without_javascript(client, blog):
    """Facets and active filters are plain links that keep the query and the order."""
    response = client.get(RESULTS, {"q": "okapi", "sort": "new"})
    links = response.context["links"]
    africa = next(href for tag, _, _, href in links["tags"] if tag == "africa")
    assert africa == "?q=okapi&tag=africa&sort=new"
    narrowed = client.get(RESULTS + africa)
    html = narrowed.content.decode()
    assert 'aria-label="Active filters"' in html and "tag africa" in html
    remove = dict(narrowed.context["links"]["active"])["tag africa"]
    assert remove == "?q=okapi&sort=new"
    year = next(href for y, _, _, href in narrowed.context["links"]["years"] if y == 2019)
    assert year == "?q=okapi&tag=africa&year=2019&sort=new"


def test_the_page_shows_its_entries_when_their_comments_cannot_be_fetched(client, blog, monkeypatch):
    from elasticsearch import ConnectionTimeout

    from search.documents import Kind
    from search.querying.executor import Executor

    real = Executor.search

    def search(self, body, *, kinds=None):
        if kinds == (Kind.COMMENTS,):
            raise ConnectionTimeout("the comments request timed out")
        return real(self, body) if kinds is None else real(self, body, kinds=kinds)

    monkeypatch.setattr(Executor, "search", search)
    data = api(client, q="okapi", facets="1")
    assert data["total"] == 3 and all(r["more_comments"] == 0 for r in data["results"])
    walks = next(r for r in data["results"] if r["post_id"] == blog["walks"].pk)
    assert walks["comments"] == [] and walks["matched"] == "comment" and "<mark>okapi</mark>" in walks["highlight"]
    html = client.get(RESULTS, {"q": "okapi"}).content.decode()  # the comments' text, marked, in place of them
    assert html.count('class="comment-matches"') == 0 and "saw an <mark>okapi</mark> on walk" in html


def test_a_tag_filter_is_cached_apart_from_the_same_tag_in_another_case(client, blog):
    assert api(client, q="okapi", tag="ZOO")["results"] == []  # tags are case-sensitive: cached empty ...
    assert len(api(client, q="okapi", tag="zoo")["results"]) == 2  # ... and never served for "zoo"


def test_the_years_listed_first_are_those_with_the_most_results():
    """Issue 54 item 7: the five most recent years were listed and the biggest hidden."""
    from search.views import years_listed

    years = [(2026, 1), (2025, 1), (2024, 1), (2023, 1), (2022, 1), (2021, 1), (2008, 40), (2007, 12)]
    listed, shown = years_listed(years, None, 5)
    assert shown == 5 and listed[:5] == [(2026, 1), (2025, 1), (2024, 1), (2008, 40), (2007, 12)]  # newest first among them
    assert listed[5:] == [(2023, 1), (2022, 1), (2021, 1)]
    listed, shown = years_listed(years, 2021, 5)  # a chosen year is always listed
    assert shown == 6 and (2021, 1) in listed[:6]
    assert years_listed(years[:6], None, 5) == (years[:6], 6)  # one more only: all of them, no control
