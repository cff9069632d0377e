"""One entry per post, its matching comments, and the facets: request bodies and answers as plain
dicts (no services)."""

import pytest

from search.alternative import Alternative
from search.querying import facets, reader, resultcache
from search.querying.facets import Facets, Filters
from search.querying.query import MATCHES, comments_body, search_body
from search.querying.results import CommentMatch, Hit
from search.querying.service import BadSearchRequest, SearchResult, validate_filters


def raw(doc_type, post_id, *, comment_id=None, score=1.0, title="T", highlight=None, names=()):
    src = {"doc_type": doc_type, "post_id": post_id, "url": f"/p/{post_id}/" + (f"#comment-{comment_id}" if comment_id else ""), "pub_date": "2020-01-01"}
    if doc_type == "comment":
        src.update(comment_id=comment_id, post_title=title, author="Ann")
    else:
        src["title"] = title
    return {"_source": src, "_score": score, "highlight": highlight or {}, "matched_queries": list(names)}


def test_one_hit_is_one_entry_and_the_filters_narrow_only_the_hits():
    """A post's document holds its comments' text: no `collapse`, which kept Elasticsearch from
    skipping documents that cannot make the page (docs/benchmarks.md#100x-the-corpus)."""
    chosen = Filters(tags=("python", "django"), year=2010)
    body = search_body({"match_all": {}}, page=2, page_size=10, fragment_size=160, entries=True, post_filter=facets.post_filter(chosen))
    assert "collapse" not in body and body["track_total_hits"] is False  # no bound asked: nothing counts
    bounded = search_body({"match_all": {}}, page=1, page_size=10, fragment_size=160, entries=True, count_up_to=1000)
    assert bounded["track_total_hits"] == 1000 and "aggs" not in bounded  # Elasticsearch may skip past 1,000
    counted = search_body({"match_all": {}}, page=1, page_size=10, fragment_size=160, entries=True, count_up_to=1000, aggs={"entries": {}})
    assert counted["track_total_hits"] is False  # the aggregations count, exactly
    assert body["from"] == 10  # pages count entries (posts)
    assert body["post_filter"] == {
        "bool": {
            "filter": [
                {"term": {"tags": "python"}},
                {"term": {"tags": "django"}},
                {"range": {"pub_date": {"gte": "2010-01-01", "lt": "2011-01-01"}}},
            ]
        }
    }
    assert facets.post_filter(facets.NONE) is None


def test_each_facet_counts_posts_under_the_other_filters():
    """One document a post: every count is a document count, no `cardinality` of post ids."""
    aggs = facets.aggregations(Filters(tags=("python",), year=2010), facets=True, top_tags=10)
    tag, year = {"term": {"tags": "python"}}, {"range": {"pub_date": {"gte": "2010-01-01", "lt": "2011-01-01"}}}
    assert aggs["entries"] == {"filter": {"bool": {"filter": [tag, year]}}}
    assert aggs["tags"]["filter"] == {"bool": {"filter": [tag, year]}}  # a further tag narrows further
    assert aggs["tags"]["aggs"] == {"values": {"terms": {"field": "tags", "size": 10}}}
    assert aggs["years"]["filter"] == {"bool": {"filter": [tag]}}  # the other years stay in view
    assert "aggs" not in aggs["years"]["aggs"]["values"]
    # Nothing else to aggregate: no count either, the hits count themselves up to a bound (issue 52).
    assert facets.aggregations(Filters(tags=("python",)), facets=False, top_tags=10) == {}
    assert set(facets.aggregations(Filters(tags=("python",)), facets=False, top_tags=10, top=True)) == {"top"}  # the deciding hit, no count


def test_facets_read_counts_and_keep_a_chosen_value_removable():
    aggs = {
        "entries": {"doc_count": 7},
        "tags": {"values": {"buckets": [{"key": "web", "doc_count": 2}, {"key": "python", "doc_count": 7}]}},
        "years": {"values": {"buckets": [{"key_as_string": "2009", "doc_count": 2}, {"key_as_string": "2011", "doc_count": 5}]}},
    }
    found = facets.read(aggs, Filters(tags=("python", "gone"), year=2010))
    assert found.tags == [("python", 7), ("web", 2), ("gone", 0)]  # by posts
    assert found.years == [(2011, 5), (2010, 0), (2009, 2)]  # newest first, the chosen year kept
    assert facets.total(aggs) == 7
    assert facets.read({"entries": {"doc_count": 1}}, facets.NONE) is None


def test_a_count_past_its_bound_says_more_and_an_aggregation_counts_exactly():
    bounded = {"hits": {"total": {"value": 1000, "relation": "gte"}, "hits": []}}
    assert reader.total(bounded) == (1000, False)
    assert reader.total({"hits": {"total": {"value": 12, "relation": "eq"}, "hits": []}}) == (12, True)
    assert reader.total({**bounded, "aggregations": {"entries": {"doc_count": 4321}}}) == (4321, True)
    found = reader.read(bounded, [Alternative(1.0, "python", typed=True)])
    assert (found.total, found.exact, found.listed) == (1000, False, 1000)


def test_an_entry_led_by_a_comment_names_and_links_its_post():
    hit = reader.entry(raw("comment", 5, comment_id=9, title="Post five", highlight={"comment": ["a <mark>match</mark>"]}, names=["alt0.body.exact.phrase"]))
    assert (hit.type, hit.id, hit.post_id, hit.title, hit.url, hit.matched) == ("post", 5, 5, "Post five", "/p/5/", "comment")
    assert hit.comments == (CommentMatch(id=9, author="Ann", url="/p/5/#comment-9", snippet_html="a <mark>match</mark>"),)
    assert hit.tier == "body.exact.phrase"
    post = reader.entry(raw("post", 6, title="Post six"))
    assert (post.type, post.id, post.matched, post.comments) == ("post", 6, "post", ())


def test_a_post_found_by_its_comments_text_says_so_and_shows_their_snippet():
    """A post's document holds its comments' text; when neither its title nor its text holds a
    word, its comments put it there: the page shows their snippet and the matching comments."""
    by_comments = reader.entry(raw("post", 7, highlight={"text": ["The post's start"], "comment": ["a <mark>match</mark>"]}))
    assert (by_comments.matched, by_comments.snippet_html) == ("comment", "a <mark>match</mark>")
    both = reader.entry(raw("post", 8, highlight={"text": ["a <mark>match</mark> here"], "comment": ["a <mark>match</mark>"]}))
    assert (both.matched, both.snippet_html) == ("post", "a <mark>match</mark> here")
    titled = reader.entry(raw("post", 9, highlight={"title": ["<mark>Match</mark>"], "text": ["start"], "comment": ["a <mark>match</mark>"]}))
    assert (titled.matched, titled.snippet_html) == ("post", "start")


def test_the_comments_request_and_its_answer():
    query = {"bool": {"should": [{"match": {"comment": "x"}}]}}
    body = comments_body(query, [5, 6], per_post=3, fragment_size=100, highlight={"match": {"comment": "x"}})
    assert body["size"] == 0
    assert body["query"] == {"bool": {"must": [query], "filter": [{"terms": {"post_id": [5, 6]}}]}}
    terms = body["aggs"][MATCHES]
    assert terms["terms"] == {"field": "post_id", "size": 2}
    assert terms["aggs"]["best"]["top_hits"]["size"] == 3
    assert terms["aggs"]["best"]["top_hits"]["highlight"]["highlight_query"] == {"match": {"comment": "x"}}

    entries = [reader.entry(raw("post", 5)), reader.entry(raw("comment", 6, comment_id=1)), reader.entry(raw("post", 7))]
    answer = {
        "aggregations": {
            MATCHES: {
                "buckets": [
                    {"key": 5, "doc_count": 5, "best": {"hits": {"hits": [raw("comment", 5, comment_id=c) for c in (3, 4, 8)]}}},
                    {"key": 6, "doc_count": 1, "best": {"hits": {"hits": [raw("comment", 6, comment_id=1)]}}},
                ]
            }
        }
    }
    reader.with_comments(entries, answer)
    assert [c.id for c in entries[0].comments] == [3, 4, 8] and entries[0].more_comments == 2
    assert [c.id for c in entries[1].comments] == [1] and entries[1].more_comments == 0
    assert entries[2].comments == () and entries[2].more_comments == 0


def test_pages_and_facets_survive_the_result_cache():
    hit = Hit("post", 5, 5, "T", "/p/5/", 1.0, "", "", matched="comment", comments=(CommentMatch(9, "Ann", "/p/5/#comment-9", "s"),), more_comments=4)
    result = SearchResult(query="q", page=1, page_size=10, hits=[hit], total=1, facets=Facets(tags=[("python", 3)], years=[(2020, 1)]))
    back = resultcache.unpack(resultcache.pack(result))
    assert back["hits"] == [hit]
    assert back["facets"] == result.facets
    assert back["exact"] is True
    bounded = resultcache.unpack(resultcache.pack(SearchResult(query="q", page=1, page_size=10, total=1000, exact=False, counted=False)))
    assert (bounded["exact"], bounded["counted"]) == (False, False)  # what the search found, not how it was asked


@pytest.mark.parametrize(
    ("tags", "year", "message"),
    [
        (["a", "b", "c", "d", "e", "f"], None, "at most 5 tags"),
        (["x" * 101], None, "100 characters"),
        (["a\x00b"], None, "control characters"),
        ([], "99", "four-digit"),
        ([], "２０１０", "four-digit"),
        ([], "9999", "1000 to 9998"),  # its year's end is past what a date field reads
        ([], "0999", "1000 to 9998"),
    ],
)
def test_bad_filters_are_refused_with_a_reason(tags, year, message):
    with pytest.raises(BadSearchRequest, match=message):
        validate_filters(tags, year)


def test_filters_are_cleaned_and_keyed_in_any_order():
    assert validate_filters([" python ", "python", "", "web"], "2010") == Filters(tags=("python", "web"), year=2010)
    assert Filters(tags=("a", "b")).key() == Filters(tags=("b", "a")).key() != Filters(tags=("a",)).key()
    assert facets.NONE.key() == "" and not facets.NONE
    # Tags are case-sensitive keywords, and no tag can make two filters one key.
    assert Filters(tags=("Python",)).key() != Filters(tags=("python",)).key()
    assert Filters(tags=("a\u0001b",)).key() != Filters(tags=("a", "b")).key()


def test_a_cached_answer_of_one_tag_is_never_another_tags():
    """The result cache's key folds the words' case, never a tag's."""
    from search.querying.service import cache_key

    assert cache_key("Okapi", completing=False, sort="relevance", filters=facets.NONE) == cache_key(
        "okapi", completing=False, sort="relevance", filters=facets.NONE
    )
    assert cache_key("okapi", completing=False, sort="relevance", filters=Filters(tags=("PYTHON",))) != cache_key(
        "okapi", completing=False, sort="relevance", filters=Filters(tags=("python",))
    )
    shapes = {
        cache_key("okapi", completing=c, sort=s, filters=f, detail=d, snippets=n)
        for c in (False, True)
        for s in ("relevance", "new")
        for f in (facets.NONE, Filters(year=2010))
        for d in (False, True)
        for n in (False, True)
    }
    assert len(shapes) == 32  # every way of asking is cached apart
