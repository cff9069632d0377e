"""The query syntax: "phrases" and -exclusions. The parser as plain values, then the search with
the real services (small blogs built here)."""

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from search.querying import syntax
from search.querying.syntax import Parsed, parse
from tests.factories import make_comment, make_post

API = reverse("search:api")


@pytest.mark.parametrize(
    ("typed", "free", "phrases", "exclusions"),
    [
        ('"going evented"', "", ["going evented"], []),
        ('python "going evented" web', "python web", ["going evented"], []),
        ("\u201cgoing evented\u201d", "", ["going evented"], []),  # curly quotes
        ("-java python", "python", [], ["java"]),
        ('-"a phrase" x', "x", [], ["a phrase"]),
        ("e-mail", "e-mail", [], []),  # a hyphen inside a word joins it
        ("hexdump -C", "hexdump -C", [], []),  # one character: an option, not an exclusion
        ("-1 degrees", "-1 degrees", [], []),  # a number, not a word
        ("- x", "- x", [], []),
        ('"unbalanced quote', "unbalanced quote", [], []),  # an odd quote is a word boundary
        ('a "b c" "d', "a d", ["b c"], []),
        ('"" ""  x', "x", [], []),  # empty phrases vanish
        ('"a  b" "a b"', "", ["a b"], []),  # once each
    ],
)
def test_parse(typed, free, phrases, exclusions):
    assert parse(typed).as_dict() == {"free": free, "phrases": phrases, "exclusions": exclusions}


def test_searched_text_puts_the_phrases_first_and_only_the_free_text_may_be_unfinished():
    parsed = parse('pythn "going evented"')
    assert (parsed.searched, parsed.fixed_words, parsed.last_free) == ("going evented pythn", 2, False)
    assert parse('"going evented" pyth').last_free


def test_only_exclusions():
    assert parse("-java -ruby").only_exclusions
    assert not parse('-java "ruby gems"').only_exclusions
    assert not parse("").only_exclusions


def test_a_correction_is_shown_with_the_phrases_quoted_and_untouched():
    assert parse('"going evented" pythn').showing("going evented python") == '"going evented" python'
    assert Parsed(free="pythn").showing("python") == "python"


def test_a_query_is_written_again_without_one_phrase_or_exclusion():
    """The results page's chips: each removes its part, the rest searched as before."""
    parsed = parse('"static site" -jekyll generator -"ruby gems"')
    assert parsed.without(exclusion="jekyll") == '"static site" generator -"ruby gems"'
    assert parsed.without(phrase="static site") == 'generator -jekyll -"ruby gems"'
    assert parse(parsed.without(exclusion="ruby gems")) == parse('"static site" generator -jekyll')


def test_restricted_adds_a_filter_per_phrase_and_a_must_not_per_exclusion():
    query = {"bool": {"should": [], "filter": [{"range": {}}]}}
    out = syntax.restricted(query, parse('"a b" -cc x'), (7, 8))
    assert out["bool"]["filter"][0] == {"range": {}}
    assert out["bool"]["filter"][1]["multi_match"] == {"query": "a b", "type": "phrase", "fields": ["title.exact", "text.exact", "comment.exact"]}
    assert out["bool"]["must_not"][0]["multi_match"]["query"] == "cc"
    assert out["bool"]["must_not"][1] == {"terms": {"post_id": [7, 8]}}
    assert query == {"bool": {"should": [], "filter": [{"range": {}}]}}  # not changed in place
    assert syntax.restricted(query, parse("x")) is query


def test_excluded_posts_reads_the_ids_and_whether_they_are_all():
    answer = {"aggregations": {syntax.EXCLUDED: {"buckets": [{"key": 3}, {"key": 5}], "sum_other_doc_count": 0}}}
    assert syntax.excluded_posts(answer) == ((3, 5), True)
    answer["aggregations"][syntax.EXCLUDED]["sum_other_doc_count"] = 2
    assert syntax.excluded_posts(answer)[1] is False


@given(st.text(alphabet=st.sampled_from('ab -"\u201c\u201d\u2212 .:'), max_size=40))
def test_any_text_parses(text):
    parsed = parse(text)
    assert all('"' not in p for p in parsed.phrases)
    assert isinstance(parsed.searched, str)


# With the real services.


@pytest.fixture
def blog(build_index):
    posts = {
        "evented": make_post("Going evented with Python", "We are going evented: one loop for every socket."),
        "apart": make_post("Evented servers", "Going to the store, then an evented loop in Python."),
        "comment": make_post("Twisted notes", "Reactors in Python."),
        "java": make_post("Python or Java", "Python servers and Java servers compared."),
        "commented": make_post("Python servers", "Servers written in Python."),
    }
    make_comment(posts["comment"], "We ended up going evented too.")
    make_comment(posts["commented"], "Java did this better.")
    build_index()
    return posts


def ids(client, q):
    data = client.get(API, {"q": q}).json()
    return {r["post_id"] for r in data["results"]}, data


@pytest.mark.django_db
def test_a_phrase_finds_the_words_side_by_side_in_a_title_a_body_or_a_comment(client, blog):
    found, data = ids(client, '"going evented"')
    assert found == {blog["evented"].pk, blog["comment"].pk}
    assert data["parsed"] == {"free": "", "phrases": ["going evented"], "exclusions": []}


@pytest.mark.django_db
def test_a_phrase_is_never_corrected_but_the_free_text_is(client, blog):
    found, _ = ids(client, '"goin evented"')
    assert found == set()
    found, data = ids(client, '"going evented" pythn')
    assert blog["evented"].pk in found and blog["apart"].pk not in found
    assert data["showing_for"] in ("", '"going evented" python')


@pytest.mark.django_db
def test_an_exclusion_leaves_out_a_post_holding_it_anywhere(client, blog):
    found, data = ids(client, "python servers -java")
    assert blog["java"].pk not in found  # in its title and body
    assert blog["commented"].pk not in found  # in one of its comments
    assert blog["apart"].pk in found
    assert data["parsed"]["exclusions"] == ["java"]
    found, _ = ids(client, 'python -"going evented"')
    assert blog["evented"].pk not in found and blog["comment"].pk not in found and blog["apart"].pk in found


@pytest.mark.django_db
def test_only_exclusions_searches_nothing_and_says_why(client, blog):
    response = client.get(API, {"q": "-java"})
    assert response.status_code == 200
    data = response.json()
    assert data["results"] == [] and "not only words to leave out" in data["note"]
    assert "not only words to leave out" in client.get(reverse("search:results"), {"q": "-java"}).content.decode()
