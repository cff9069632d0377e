"""As you type: the last word, unless a space follows it, may be the start of a longer word.
What was typed ranks above its completions, completions above corrections; the results page
follows the same rule. Against real Elasticsearch and PostgreSQL."""

import pytest
from django.urls import reverse

from search.querying.service import search
from tests.factories import make_post

pytestmark = pytest.mark.django_db

RESULTS, API = reverse("search:results"), reverse("search:api")


@pytest.fixture
def blog(build_index):
    posts = {
        "extension": make_post("Writing a Firefox extension", "How to write an extension for the Firefox browser."),
        "mozilla": make_post("Mozilla Firefox start page", "The start page of the browser."),
        "fire": make_post("Fire foxes and fire eagles", "A fire story about foxes."),
        "java": make_post("Dynamic Java", "Java on the server."),
        "javascript": make_post("JavaScript breakpoints", "Debugging JavaScript in the browser, a Java cousin."),
        "tiktok": make_post("Downloading every video for a TikTok account", "Text about an ext tool."),
    }
    for i in range(3):  # "fire" is a known word of the blog; so are "firefox" and "mozilla"
        make_post(f"Fire safety {i}", "fire drills for the firefox team at mozilla")
    build_index()
    return posts


def first(query: str) -> int:
    return search(query, use_cache=False).hits[0].post_id


def test_an_unfinished_last_word_finds_the_posts_it_starts(blog):
    assert first("firefox ext") == blog["extension"].pk
    result = search("firef", use_cache=False)
    assert result.hits[0].post_id in {blog["extension"].pk, blog["mozilla"].pk}
    assert result.showing_for == ""  # a completion is never "Showing results for fire"


def test_a_typo_in_an_earlier_word_and_an_unfinished_last_word_combine(blog):
    assert first("mozila firef") == blog["mozilla"].pk


def test_the_word_as_typed_ranks_above_its_completions(blog):
    hits = search("java", use_cache=False).hits
    assert hits[0].post_id == blog["java"].pk
    assert blog["javascript"].pk in [h.post_id for h in hits]  # completed, below


def test_a_space_after_the_last_word_means_it_is_finished(blog):
    result = search("firef ", use_cache=False)
    assert not result.completing
    assert all('"alt0c.' not in str(body) for body in result.requests)
    assert search("firef", use_cache=False).completing


def test_the_results_page_and_the_api_follow_the_same_rule(client, blog):
    data = client.get(API, {"q": "firefox ext"}).json()
    assert data["results"][0]["post_id"] == blog["extension"].pk and data["showing_for"] == ""
    html = client.get(RESULTS, {"q": "firefox ext"}).content.decode()
    assert "Writing a <mark>Firefox</mark> <mark>extension</mark>" in html or "Writing a Firefox extension" in html
    assert "Showing results for" not in html


def test_a_finished_and_an_unfinished_query_are_cached_apart(blog):
    unfinished = search("firefox ext")
    finished = search("firefox ext ")
    assert unfinished.hits[0].post_id == blog["extension"].pk
    assert not finished.cached and finished.completing is False
    assert search("firefox ext").cached and search("firefox ext").completing


def test_a_completion_outranks_a_correction_that_shares_the_typed_words_stem(build_index):
    """`elastics` is no word of the blog: its completion "elasticsearch" must come first. The
    correction "elastic" also reaches a stemmed tier through what was typed (the stem of "elastics"
    is "elastic"); a completion that collected only the exact tier lost to it and showed "Showing
    results for elastic"."""
    wanted = make_post("Elasticsearch percolator", "Stored queries matched against new documents.")
    make_post("Elastic bands", "Stretchy elastic for the office.")
    for i in range(3):  # "elastic" is a known, frequent word: a strong correction
        make_post(f"Elastic load balancing {i}", "elastic capacity, elastic scaling")
    make_post("Plastic toys", "plastic")  # more corrections: the first one's weight grows with their number
    make_post("Classics of computing", "classics")
    build_index()
    result = search("elastics", use_cache=False)
    assert result.hits[0].post_id == wanted.pk
    assert result.showing_for == ""


def test_a_dot_or_a_colon_between_letters_splits_words_in_the_index_and_in_the_query(build_index):
    """The standard tokenizer alone keeps "Node.js" and "Wikipedia:Canvassing" whole, so `node js`
    and `wikipedia canvassing` found no such title. The analyzers split there, and so does the
    query's own word splitting: typed either way, as a whole query or as you type, the title is found."""
    node = make_post("Writing Node.js addons in Rust", "Native modules.")
    canvassing = make_post("Wikipedia:Canvassing", "A guideline about notices.")
    make_post("Nodes and edges", "Graphs, with a js library.")
    build_index()
    for query in ("node js addons", "node.js addons", "node js add", "nod.js addons"):
        assert first(query) == node.pk, query
    for query in ("wikipedia canvassing", "Wikipedia:Canvassing", "wikipedia canv", "wikipedia:canv"):
        assert first(query) == canvassing.pk, query
    html = search("node js addons", use_cache=False).hits[0].title_html
    assert "<mark>Node</mark>.<mark>js</mark>" in html  # the offsets are those of the title as written
    # A dot or a colon after the last word ends it, as a space does; one of only those is no query.
    assert not search("node.", use_cache=False).completing and search("node.j", use_cache=False).completing
    nothing = search(".:", use_cache=False)
    assert nothing.hits == [] and nothing.requests == []


def test_the_full_width_forms_of_a_dot_or_a_colon_split_words_too(build_index):
    """NFKC folds a reader's "Node．js" into "node.js", split into node, js; the index must split the
    title's full-width dot too, or asciifolding would make it the one token "node.js"."""
    post = make_post("Writing Node\uff0ejs addons", "Native modules.")
    make_post("Other things", "Nothing here.")
    build_index()
    for query in ("node js addons", "Node\uff0ejs addons"):
        assert first(query) == post.pk, query


def test_an_underscore_between_letters_splits_words_in_the_index_and_in_the_query(build_index):
    """A reader types "session start" for "session_start()" (a French blog's title read as
    "session star", a word the blog holds, before the split); the identifier typed as written
    finds it too, and the title is marked where it is written."""
    wanted = make_post("session_start() et exec() en PHP", "Deux fonctions.")
    make_post("Star Wars en DVD", "Une étoile, star.")
    make_post("Starting a session", "start, session")
    build_index()
    for query in ("session start", "session_start", "session_start() exec", "session sta", "session_st"):
        assert first(query) == wanted.pk, query
    result = search("session start", use_cache=False)
    assert result.showing_for == ""
    assert "<mark>session</mark>_<mark>start</mark>" in result.hits[0].title_html


def test_a_dotted_name_typed_as_one_word_is_split_back(build_index):
    """`ASP.NET` is the words asp, net (a dot splits); a reader typing "aspnet" gets "asp net" as a
    correction (candidates.splits), so the titles are found as before the dot split them."""
    wanted = make_post("Understanding ASP.NET view state", "Hidden fields.")
    for i in range(3):  # asp and net are words of the blog
        make_post(f"ASP.NET tips {i}", "asp.net pages on the .net runtime")
    make_post("Spent a day on view state", "Nothing about it.")
    build_index()
    result = search("aspnet view state", use_cache=False)
    assert result.hits[0].post_id == wanted.pk
    assert result.showing_for == "asp net view state"


def test_a_typo_inside_an_unfinished_word_is_completed_through_its_correction(build_index):
    """ "triubl" (a typo of "troubl") starts no word: its correction "trouble" was searched as a
    whole word, which no title holding "troubleshooting" holds, so shorter titles with the other
    word came first (bench/asyoutype.py's cut_inner_typo)."""
    make_post("Optimization and troubleshooting of slow queries in PostgreSQL", "Indexes and plans.")
    for title in ("Premature optimization", "Optimization notes", "On optimization"):
        make_post(title, "Nothing about trouble here.")
    make_post("Trouble at the office", "Trouble everywhere.")
    build_index()
    result = search("optimization and triubl", use_cache=False)
    assert result.hits[0].title.startswith("Optimization and troubleshooting"), [h.title for h in result.hits]
