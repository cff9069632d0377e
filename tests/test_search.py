"""The typo-tolerant search through its pages and API, against real Elasticsearch and PostgreSQL."""

import json

import pytest
from django.urls import reverse

from search import conf
from tests.factories import make_comment, make_post

pytestmark = pytest.mark.django_db

RESULTS, API = reverse("search:results"), reverse("search:api")


@pytest.fixture
def corpus(build_index):
    """A small blog written for these tests."""
    posts = {
        "firefox": make_post("Firefox keyboard shortcuts", "Firefox has many keyboard shortcuts for tabs."),
        "extension": make_post("Writing a Firefox extension", "How to write an extension for the Firefox browser."),
        "jekyll": make_post("A minimal Jekyll theme", "This Jekyll theme is minimal and responsive."),
        "postgres": make_post("PostgreSQL full-text search", "Ranking documents with tsvector in PostgreSQL."),
        "python": make_post("Python packaging notes", "Notes about packaging Python projects with wheels."),
        "draft": make_post("Firefox draft secrets", "unpublished firefox notes", published=False),
    }
    for i in range(5):
        make_post(f"Browser news {i}", "Firefox and Chrome release news.", days_ago=30 + i)
    comment = make_comment(posts["jekyll"], "I wired up Staticman to receive comments on my site.")
    make_comment(posts["jekyll"], "Unapproved zanzibar spam", approved=False)
    build_index()
    return posts, comment


def api(client, **params):
    response = client.get(API, params)
    return response.status_code, response.json()


@pytest.mark.parametrize("typed", ["firefix", "Firefix", "FIREFIX"])
def test_misspelled_word_finds_the_post_and_says_so(client, corpus, typed):
    posts, _ = corpus
    status, data = api(client, q=typed)
    assert status == 200
    assert data["results"][0]["post_id"] in {posts["firefox"].pk, posts["extension"].pk}
    assert data["search_terms"][0] == [1.1, typed]
    assert any(term.lower() == "firefox" for _, term in data["search_terms"][1:])
    assert data["showing_for"] == "firefox"
    html = client.get(RESULTS, {"q": typed}).content.decode()
    assert f'Showing results for <strong>firefox</strong><span class="typed-note"> (you typed {typed})</span>' in html
    assert "<mark>Firefox</mark>" in html


def test_two_typos_in_one_query_find_their_post(client, corpus):
    posts, _ = corpus
    status, data = api(client, q="firefix extnsion")
    assert status == 200
    assert data["results"][0]["post_id"] == posts["extension"].pk
    assert data["showing_for"] == "firefox extension"
    assert data["strategy"] == "phrase"


def test_phrase_that_does_not_occur_falls_back_to_match(client, corpus):
    posts, _ = corpus
    status, data = api(client, q="shortcuts keyboard firefox")
    assert data["strategy"] == "words"
    assert data["results"][0]["post_id"] == posts["firefox"].pk


def test_correct_phrase_uses_match_phrase(client, corpus):
    from search.querying.service import search

    result = search("keyboard shortcuts", use_cache=False)
    # Words fewer than KNOWN_WORD_MIN_DOCS documents hold: the dictionary proposes corrections,
    # none better than what was typed, without a request (test_vocabulary.py).
    assert result.strategy == "phrase" and result.round_trips == 1
    assert [a.text for a in result.alternatives] == ["keyboard shortcuts"]
    assert result.hits[0].post_id == corpus[0]["firefox"].pk


def test_stop_word_wrapped_query(client, corpus):
    posts, _ = corpus
    status, data = api(client, q="how to write the firefix extension")
    assert data["results"][0]["post_id"] == posts["extension"].pk
    status, data = api(client, q="what is the jekyl theme")
    assert data["results"][0]["post_id"] == posts["jekyll"].pk


def test_word_only_in_a_comment_finds_the_comment_under_its_post(client, corpus):
    """One entry per post: the post, led here by its comment, which shows inside it, linked to its anchor."""
    posts, comment = corpus
    status, data = api(client, q="staticman", facets="1")
    assert data["total"] == 1
    hit = data["results"][0]
    post_url = posts["jekyll"].get_absolute_url()
    assert (hit["type"], hit["id"], hit["post_id"], hit["matched"], hit["url"]) == ("post", posts["jekyll"].pk, posts["jekyll"].pk, "comment", post_url)
    anchor = f"{post_url}#comment-{comment.pk}"
    assert [(c["id"], c["author"], c["url"]) for c in hit["comments"]] == [(comment.pk, "Reader", anchor)]
    html = client.get(RESULTS, {"q": "staticmann"}).content.decode()
    assert f'href="{anchor}"' in html and "comment by Reader" in html and "<mark>Staticman</mark>" in html


def test_hidden_content_is_never_found(client, corpus):
    assert api(client, q="secrets")[1]["total"] == 0
    assert api(client, q="zanzibar")[1]["total"] == 0


def test_pagination(client, build_index):
    for i in range(25):
        make_post(f"Pagination sample {i:02d}", "pagination body", days_ago=i + 1)
    build_index()
    seen = set()
    for page in (1, 2, 3):
        status, data = api(client, q="pagination", page=page)
        assert status == 200 and data["total"] == 25 and data["page"] == page
        seen |= {r["id"] for r in data["results"]}
    assert len(seen) == 25
    assert len(api(client, q="pagination", page=3)[1]["results"]) == 5
    html = client.get(RESULTS, {"q": "pagination", "page": 2}).content.decode()
    assert "Page 2 of 3" in html and 'rel="next"' in html and 'rel="prev"' in html


@pytest.mark.parametrize("page", ["0", "-1", "abc", "1.5", "1234567", "1e3", "٣"])
def test_bad_page_is_a_400(client, corpus, page):
    status, data = api(client, q="firefox", page=page)
    assert status == 400 and "page" in data["error"]
    assert client.get(RESULTS, {"q": "firefox", "page": page}).status_code == 400


def test_a_page_past_the_last_says_so_and_leads_to_the_last(client, build_index):
    """Issue 54: page 5 of a 3-page query said "Page 5 of 3" with "Previous" to an empty page 4,
    and from page 51 on (serving.max_page) a 400, even for a 3-page query. Now a 200 with the
    notice, a link to the last page and no pager; the API answers no results."""
    for i in range(25):
        make_post(f"Pagination sample {i:02d}", "pagination body", days_ago=i + 1)
    build_index()
    for page in ("5", "51", "999999"):
        response = client.get(RESULTS, {"q": "pagination", "page": page})
        html = response.content.decode()
        assert response.status_code == 200 and 'id="past-the-end"' in html, (page, response.status_code)
        assert f"Page {page} is past the last page of these results (3)" in html and "page=3" in html
        assert f"Page {page} of" not in html and 'rel="prev"' not in html and 'class="pagination"' not in html
        status, data = api(client, q="pagination", page=page)
        assert status == 200 and data["results"] == [] and data["total"] == 25 and data["page"] == int(page)


def test_a_long_query_keeps_the_readers_text_and_says_what_was_left_out(client, corpus):
    """Issue 54 item 4: the query was cut to its first 12 words and the box rewritten to the cut
    text, silently."""
    words = "firefox keyboard shortcuts for tabs and windows and more words than twelve here today".split()
    html = client.get(RESULTS, {"q": " ".join(words)}).content.decode()
    assert f'value="{" ".join(words)}"' in html  # the box keeps what the reader typed
    assert "Only the first 12 words were searched; left out: <q>here today</q>." in html
    assert "left-out" not in client.get(RESULTS, {"q": "firefox tabs"}).content.decode()


def test_an_ordinary_query_is_not_told_no_phrase_was_found(client, corpus):
    """Issue 54 item 4: "(no exact phrase found, showing matches of the words)" on every query whose
    words are not a phrase of any post, as if the reader had asked for one."""
    html = client.get(RESULTS, {"q": "keyboard firefox"}).content.decode()
    assert "shortcuts" in html and "no exact phrase found" not in html


def test_the_heading_shows_a_quoted_query_without_nesting_quotes(client, corpus):
    """Issue 54 item 7: the h1 read “"static site" -jekyll”, quotes inside quotes."""
    html = client.get(RESULTS, {"q": '"keyboard shortcuts" -jekyll'}).content.decode()
    assert "Results for &quot;keyboard shortcuts&quot; -jekyll</h1>" in html
    assert "Results for <q>firefox tabs</q></h1>" in client.get(RESULTS, {"q": "firefox tabs"}).content.decode()


def test_an_empty_page_has_a_state_of_its_own(client, corpus):
    """Issue 54 items 1 and 7: an empty page showed the Order bar over nothing and a numbered list
    "1. Nothing found. Try fewer or different words."; "-python" alone was told to try fewer words;
    no page named the quote and minus syntax."""
    html = client.get(RESULTS, {"q": "zanzibarqx"}).content.decode()
    assert 'id="empty-state"' in html and 'class="sort"' not in html and '<ol class="results"' not in html
    assert "The blog has no posts that mention <q>zanzibarqx</q>. Try fewer or different words." in html  # says so, plainly
    assert "exact phrase" in html and "<code>-word</code>" in html and "jekyll" not in html  # no blog's word in the app's template
    alone = client.get(RESULTS, {"q": "-python"}).content.decode()
    assert "Nothing was searched." in alone and "Try fewer" not in alone and 'id="search-note"' in alone
    newest = client.get(RESULTS, {"q": "zanzibarqx", "sort": "new"}).content.decode()
    assert 'class="sort"' in newest  # the way back to Best match, which may find more
    assert 'id="empty-state"' not in client.get(RESULTS, {"q": "firefox"}).content.decode()


def test_empty_query_shows_the_empty_search_page(client, corpus):
    response = client.get(RESULTS, {"q": "   "})
    assert response.status_code == 200 and "Type a few words" in response.content.decode()
    status, data = api(client, q="")
    assert status == 200 and data["total"] == 0 and data["results"] == []


def test_api_shape(client, corpus):
    status, data = api(client, q="jekyll")
    assert set(data) >= {"query", "strategy", "search_terms", "total", "took_ms", "results"}
    assert set(data["results"][0]) >= {"type", "id", "post_id", "title", "url", "score", "highlight"}
    assert isinstance(data["took_ms"], int)


HOSTILE = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    'firefox" OR 1=1 --',
    "title:(firefox AND NOT chrome)^5 ~2 /regex/ *",
    '{"query": {"match_all": {}}}',
    "a" * 10_000,
    "fire\x00fox\x1b[31m\x7f",
    "🔥🦊 firefox ｆｉｒｅｆｏｘ ﷽",
    "\u202eevil\u202c \ud7ff",
    "<mark>firefox</mark>",
    "{{ settings.SECRET_KEY }} {% debug %}",
]


@pytest.mark.parametrize("q", HOSTILE)
def test_hostile_input_never_500s_or_reflects_unescaped(client, corpus, q):
    for url in (RESULTS, API):
        for extra in ({}, {"debug-search": ""}):
            response = client.get(url, {"q": q, **extra})
            assert response.status_code == 200, (url, q)
            body = response.content.decode()
            assert "<script>alert" not in body and "<img src=x" not in body
            assert "<mark>firefox</mark>" not in body.replace("<mark>Firefox</mark>", "")
            assert "dev-only-insecure" not in body


def test_debug_table(client, corpus):
    import re

    html = client.get(RESULTS, {"q": "firefix", "debug-search": ""}).content.decode()
    assert 'id="debug-table"' in html
    for text in (
        "phrase",
        "Elasticsearch round trips",
        "total time",
        "&quot;match_phrase&quot;",
        ">title.<wbr>exact.<wbr>phrase</th>",
        ">body.<wbr>stem.<wbr>phrase</th>",
        ">tier reached</th>",
    ):
        assert text in html
    # Per alternative: typed or corrected, and the constant score of each tier of its clauses.
    rows = re.findall(r"<tr><td>(\d)</td><td>([^<]*)</td><td>(typed|corrected)</td><td>[\d.]+</td>\s*<td>([\d.]+)</td>", html)
    top = float(conf.get().ranking.tiers["title.exact.phrase"])
    assert rows[0] == ("0", "firefix", "typed", str(top)) and rows[1][1:3] == ("firefox", "corrected")
    assert 0 < float(rows[1][3]) < top
    # Per hit: the tier it reached (the post titled with the correction: its title, as written).
    assert re.search(r"<td>post</td><td>Firefox keyboard shortcuts</td><td>title.exact.phrase</td>", html)
    html = client.get(RESULTS + "?q=firefix&debug-search").content.decode()
    assert 'id="debug-table"' in html
    assert 'id="debug-table"' not in client.get(RESULTS, {"q": "firefix"}).content.decode()


def test_debug_table_never_shows_credentials(client, corpus):
    """The tests connect as their own user, its password in ELASTICSEARCH_URL (tests/conftest.py)."""
    from tests.helpers import TEST_PASSWORD

    assert TEST_PASSWORD in conf.get().elasticsearch.url
    html = client.get(RESULTS, {"q": "firefox", "debug-search": ""}).content.decode()
    assert TEST_PASSWORD not in html and 'id="debug-table"' in html and "firefox" in html.lower()


def test_debug_table_can_be_limited_to_staff(client, admin_client, corpus, settings):
    settings.SEARCH = {**settings.SEARCH, "DEBUG_TABLE": "staff"}
    assert 'id="debug-table"' not in client.get(RESULTS, {"q": "firefox", "debug-search": ""}).content.decode()
    assert 'id="debug-table"' in admin_client.get(RESULTS, {"q": "firefox", "debug-search": ""}).content.decode()
    settings.SEARCH = {**settings.SEARCH, "DEBUG_TABLE": "off"}
    assert 'id="debug-table"' not in admin_client.get(RESULTS, {"q": "firefox", "debug-search": ""}).content.decode()


def test_elasticsearch_down_gives_503_and_the_blog_keeps_working(client, corpus, es_down):
    response = client.get(RESULTS, {"q": "firefox"})
    assert response.status_code == 503 and response["Retry-After"]
    assert "temporarily unavailable" in response.content.decode()
    response = client.get(API, {"q": "firefox"})
    assert response.status_code == 503 and json.loads(response.content)["error"]
    assert client.get("/").status_code == 200
    assert client.get(corpus[0]["firefox"].get_absolute_url()).status_code == 200


def test_healthz(client, corpus):
    response = client.get("/healthz")
    data = response.json()
    assert response.status_code == 200 and data["healthy"] is True
    assert data["postgresql"]["ok"] and data["elasticsearch"]["ok"] and data["aliases"]["ok"]
    assert isinstance(data["outbox"]["pending"], int)


def test_healthz_reports_elasticsearch_down(client, corpus, es_down):
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["elasticsearch"]["ok"] is False and response.json()["postgresql"]["ok"] is True


def test_newest_first_orders_the_matches_by_date_with_the_same_typo_logic(client, build_index):
    """`?sort=new`: the posts Best match counts, newest first, a post holding one of the words
    too (issue 54: newest first listed fewer, other posts). Relevance stays the default."""
    old = make_post("Zeppelin airship history", "zeppelin airship", days_ago=300)
    new = make_post("Zeppelin airship rides today", "zeppelin airship", days_ago=2)
    middle = make_post("An airship called zeppelin", "zeppelin airship", days_ago=30)
    one_word = make_post("Zeppelin the band", "only the band", days_ago=1)
    build_index()
    status, best = api(client, q="zeppelin airship ")
    assert status == 200 and best["sort"] == "relevance" and one_word.pk in [r["post_id"] for r in best["results"]]
    status, newest = api(client, q="zepelin airship ", sort="new")
    assert status == 200 and newest["sort"] == "new" and newest["showing_for"] == "zeppelin airship"
    assert [r["post_id"] for r in newest["results"]] == [one_word.pk, new.pk, middle.pk, old.pk] and newest["total"] == best["total"] == 4
    html = client.get(RESULTS, {"q": "zepelin airship", "sort": "new"}).content.decode()
    assert html.index(new.get_absolute_url()) < html.index(middle.get_absolute_url()) < html.index(old.get_absolute_url())
    assert '<strong aria-current="true">Newest first</strong>' in html and "Best match</a>" in html


@pytest.mark.parametrize("sort", ["old", "NEW", "relevance;drop", "1"])
def test_an_unknown_sort_is_a_400(client, corpus, sort):
    status, data = api(client, q="firefox", sort=sort)
    assert status == 400 and "sort" in data["error"]
    assert client.get(RESULTS, {"q": "firefox", "sort": sort}).status_code == 400


def test_the_instant_box_asks_for_titles_only(client, corpus):
    """`snippets=0` (what search/static/search/instant-search.js sends): titles highlighted, no body snippet,
    cached apart from the full answer."""
    status, titles_only = api(client, q="firefox", snippets="0")
    status, full = api(client, q="firefox")
    assert [r["post_id"] for r in titles_only["results"]] == [r["post_id"] for r in full["results"]]
    assert all(r["highlight"] == "" for r in titles_only["results"]) and any(r["highlight"] for r in full["results"])
    assert any("<mark>Firefox</mark>" in r["title_highlight"] for r in titles_only["results"])
    assert all(r["highlight"] == "" for r in api(client, q="firefox", snippets="0")[1]["results"])  # not the full answer's entry


def test_the_shared_bm25_clauses_score_as_a_clause_per_spelling(client, corpus):
    """The spellings' BM25 clauses read a shared word once (query._shared_words): on real
    Elasticsearch every document scores as with a clause per spelling, so the order is the same."""
    from search.aliases import alias_name
    from search.alternative import Alternative
    from search.client import get_client
    from search.querying.query import _some_words, build_query, weights

    alts = [
        Alternative(1.1, "firefix extension", typed=True),
        Alternative(0.9, "firefox extension"),
        Alternative(0.6, "firefox extensions"),
        Alternative(0.5, "firefox extension firefox"),  # a word twice
    ]
    shared = build_query(alts, tiers={"title.exact.phrase": 8}, title_boost=2.0, relevance_weight=0.01)
    apart = json.loads(json.dumps(shared))
    apart["bool"]["should"] = [c for c in apart["bool"]["should"] if "multi_match" not in c] + [
        _some_words(alt.text, str(i), title_boost=2.0, boost=round(0.01 * w, 6)) for i, (alt, w) in enumerate(zip(alts, weights(alts), strict=True))
    ]
    names = [c["multi_match"]["_name"] for c in shared["bool"]["should"] if "multi_match" in c]
    assert len(names) == len(set(names)) > len(alts)  # firefix, extension, firefox, extensions, the second firefox

    def ranked(query):
        hits = get_client().search(index=alias_name("posts"), query=query, size=20)["hits"]["hits"]
        return [(h["_id"], round(h["_score"], 5)) for h in hits]

    found = ranked(shared)
    assert len(found) >= 7  # the two Firefox posts and the five news posts
    assert found == ranked(apart)


@pytest.mark.django_db
def test_a_submitted_word_that_starts_nothing_is_read_again_as_a_whole_word(client, build_index):
    """A reader's review: "prettyprinting" on the results page found nothing, and
    "prettyprinting " (a space after it) found "Pretty printing". Its last word was read as
    unfinished, which is never split in two; a submitted query that finds nothing so is read
    again as a whole word. The instant box, whose reader is still typing, is not."""
    make_post("Pretty printing in Haskell", "How to pretty print a tree.")
    for i in range(3):  # each part held by three documents, as a split asks (candidates.splits)
        make_post(f"Printing labels {i}", "A pretty label, printing.")
    build_index()
    page = client.get(RESULTS, {"q": "prettyprinting"}).content.decode()
    assert 'id="showing-for"' in page and "<strong>pretty printing</strong>" in page and "printing</mark> in Haskell" in page
    typing = client.get(API, {"q": "prettyprinting"}).json()
    assert typing["completing"] and typing["total"] == 0
