"""Ranking rules a reader can rely on, on a small blog written for them (real Elasticsearch).

- a word typed correctly finds the titles holding that very word before titles holding only a
  word of the same stem, whichever was indexed first;
- a correctly spelled query is never outranked by one of its corrections;
- between two equally likely corrections the other words of the query decide;
- titles holding every word (in any order) come before documents holding the phrase in a body,
  and documents holding every word before those holding some;
- emoji and other characters outside the BMP do not derail corrections;
- never worse than plain multi_match on the words as written, for correctly spelled queries.
"""

import pytest

from bench import baselines
from search.querying.service import search
from tests.factories import make_comment, make_post

pytestmark = pytest.mark.django_db


def post_titles(query: str) -> list[str]:
    return [h.title for h in search(query, use_cache=False).hits if h.type == "post"]


def top(query: str):
    result = search(query, use_cache=False)
    return result.hits[0], result


@pytest.fixture(params=["exact first", "stem first"])
def stems(request, build_index):
    """Posts whose title words share a stem with another title's (pelicans/pelican; porter also
    merges venues/venus and confusion/confuse); created in both orders, so index order cannot decide."""
    exact = [
        ("Two more Chinese pelicans", "Seen at the lake."),
        ("Picking conference venues", "Notes on rooms and catering."),
        ("Dependency confusion explained", "A supply chain attack."),
    ]
    stemmed = [
        ("Pelican", "Pelican pelican pelican: a pelican at the pelican lake."),
        ("Transit of Venus", "Venus crossed the sun; Venus is bright."),
        ("How to confuse your guests", "Confuse them, confuse them all."),
    ]
    for title, body in exact + stemmed if request.param == "exact first" else stemmed + exact:
        make_post(title, body)
    build_index()


STEM_CASES = [
    ("pelicans", "Two more Chinese pelicans"),
    ("pelican", "Pelican"),
    ("venues", "Picking conference venues"),
    ("venus", "Transit of Venus"),
    ("confusion", "Dependency confusion explained"),
    ("confuse", "How to confuse your guests"),
]


def test_the_word_as_typed_comes_before_its_stem(stems):
    for query, expected in STEM_CASES:  # one index for all cases (per order of indexing)
        hit, result = top(query)
        assert (query, hit.title, hit.tier) == (query, expected, "title.exact.phrase")
        assert result.showing_for == ""  # what was typed, even where a rarer word got corrections
    # The title holding another form of the word (every English stemmer merges these) still comes, below.
    assert "Pelican" in [h.title for h in search("pelicans", use_cache=False).hits[1:]]
    assert "Two more Chinese pelicans" in [h.title for h in search("pelican", use_cache=False).hits[1:]]


@pytest.fixture
def blog(build_index):
    posts = {
        "cable": make_post("Cable modem setup", "Wiring the cable modem."),
        "firefox": make_post("Writing a Firefox extension", "A small add-on."),
        "browser": make_post("Browser extension review", "It works in Firefox and in Chrome."),
        "cords": make_post("Extension cords", "Extension cords, extension leads, extension extension."),
        "sues": make_post("News service sues YouTube", "Over a video."),
        "uses": make_post("Everyone uses YouTube", "Everyone uses it."),
        "static": make_post("Improving static comments with Jekyll and Staticman", "Static sites can have comments."),
    }
    for i in range(6):
        make_post(f"Table tennis notes {i}", "A table, a net and two bats on the table.")
    for i in range(4):
        make_post(f"What everyone uses {i}", "Everyone uses something.")
    make_comment(posts["firefox"], "My extension firefox setup is in the comments.")
    for i in range(3):
        make_comment(posts["cords"], f"Staticman comments work here too ({i}).")
    build_index()
    return posts


def test_equal_corrections_are_decided_by_the_other_words(blog, settings):
    # "able" is one dropped letter from both "table" and "cable"; "table" is the more frequent.
    # ("mable", one substitution from both, is no sure correction of either: its first letter for a
    # key far from it, issue 36; searched as typed, and no longer offered either: a first letter
    # changed is no guess, issue 54.) "able" alone
    # is also a real English word, which is searched as typed (search/realwords.py,
    # test_corrections.py): the check is off here, where the typo model's tie-break is the subject.
    settings.SEARCH = {**settings.SEARCH, "REAL_WORD_MIN_ZIPF": 0.0}
    alone = search("able", use_cache=False)
    assert [a.text for a in alone.alternatives[1:3]] == ["table", "cable"]
    assert alone.hits[0].title.startswith("Table tennis notes")
    mable = search("mable", use_cache=False)
    assert (len(mable.alternatives), mable.did_you_mean) == (1, "")
    # With "modem" only "cable modem" is a phrase of the blog: that is what the reader meant (a
    # short real word among others stays a typo to correct, with the real-word check on too).
    settings.SEARCH = {**settings.SEARCH, "REAL_WORD_MIN_ZIPF": 3.0}
    hit, result = top("able modem")
    assert hit.title == "Cable modem setup"
    assert result.showing_for == "cable modem"


def test_a_correct_query_is_never_outranked_by_its_corrections(blog):
    # "sues" is in one document only, so it may be corrected ("uses"), but what was typed wins.
    hit, result = top("sues youtube")
    assert hit.title == "News service sues YouTube"
    assert result.showing_for == ""
    assert any(a.text == "uses youtube" for a in result.alternatives)


def test_titles_with_every_word_come_first_in_any_order(blog):
    found = post_titles("extension firefox")
    # The title holding both words, then the post holding both across title and text, before the
    # post repeating only one of the words many times.
    assert found[:2] == ["Writing a Firefox extension", "Browser extension review"]
    assert found.index("Extension cords") > 1
    hit, result = top("extension firefox")
    assert hit.tier == "title.exact.words" and result.strategy == "words"


def test_a_comment_holding_the_phrase_does_not_hide_the_post_holding_the_words(blog):
    hit, _ = top("staticman comments")
    assert hit.type == "post" and hit.title == "Improving static comments with Jekyll and Staticman"


@pytest.mark.parametrize("query", ["🔥 firefix extnsion", "firefix 🔥 extnsion", "firefix extnsion 👍🏽", "🏳️‍🌈firefix extnsion"])
def test_emoji_do_not_derail_corrections(blog, query):
    hit, result = top(query)
    assert hit.title == "Writing a Firefox extension"
    assert hit.tier == "title.exact.phrase"
    assert result.showing_for == result.query.replace("firefix", "firefox").replace("extnsion", "extension")


def test_never_worse_than_multi_match_on_the_words_as_written(blog):
    """The benchmark's never-worse gate on a handful of correctly spelled queries."""
    from blog.models import Post

    for query, expected in [
        ("cable modem", "Cable modem setup"),
        ("extension firefox", "Writing a Firefox extension"),
        ("sues youtube", "News service sues YouTube"),
        ("static comments", "Improving static comments with Jekyll and Staticman"),
        ("table tennis notes 3", "Table tennis notes 3"),
    ]:
        ours = [h.title if h.type == "post" else None for h in search(query, use_cache=False).hits]
        ids, _ = baselines.multi_match(query, exact=True)
        theirs = [Post.objects.get(pk=pk).title if pk else None for pk in ids]
        assert ours[0] == expected, query
        assert expected not in theirs or ours.index(expected) <= theirs.index(expected)


def test_the_fts_index_of_the_migration_is_the_baselines_expression():
    import importlib

    migration = importlib.import_module("blog.migrations.0004_post_fts_index")
    assert migration.PG_DOCUMENT == baselines.PG_DOCUMENT
