"""The page stands for one spelling (issue 37): its count and facets are that spelling's, and a
filter, an order or a later page never changes which spelling it is (plain dicts, no services)."""

import json

from search.alternative import Alternative
from search.conf import TIERS as TIERS_SHIPPED
from search.querying import facets, groups, reader
from search.querying.facets import Filters
from search.querying.query import build_query

TIERS = {"title.exact.phrase": 64, "all.words": 1}
ALTS = [Alternative(1.0, "jekyl staticman", typed=True), Alternative(0.8, "jekyll staticman"), Alternative(0.5, "jewel staticman")]


def raw(post_id, *names, title="T"):
    return {"_source": {"doc_type": "post", "post_id": post_id, "title": title, "url": f"/p/{post_id}/"}, "_score": 1.0, "matched_queries": list(names)}


def test_each_spelling_is_one_filter_of_its_own_clauses_and_its_synonyms():
    alts = [*ALTS, Alternative(0.6, "jekyll staticman", synonym_of="jekyll staticman", rewrites=("jekyll staticman",))]
    query = build_query(alts, tiers=TIERS, title_boost=2.0, relevance_weight=0.01)
    found = groups.filters(query, alts)
    assert set(found) == {"alt0", "alt1", "alt2"}  # the synonym (alt3) counts with the spelling it rewrote
    # The phrase and every-word clauses match only posts the BM25 clause over some words does: alone, it counts the same posts.
    assert [c["multi_match"]["type"] for c in found["alt0"]["bool"]["should"]] == ["most_fields"]
    assert len(found["alt1"]["bool"]["should"]) > 1  # and the synonym's clauses its own does not cover
    assert all("_name" not in str(clause) for clause in found["alt1"]["bool"]["should"])
    assert groups.filters(build_query(ALTS[:1], tiers=TIERS, title_boost=2.0, relevance_weight=0.01), ALTS[:1]) == {}


def test_a_clause_two_tiers_score_is_filtered_once():
    """The shipped tiers score some clauses twice with two boosts (a title's phrase prefix); a
    filter has no boost, so it holds each clause once: the same posts, read once."""
    alts = [Alternative(1.0, "firefix extnsion", typed=True), Alternative(0.8, "firefox extension")]
    query = build_query(alts, tiers=TIERS_SHIPPED, title_boost=2.0, relevance_weight=0.01, completion_weight=1.0)
    unnamed = [json.dumps(groups._unnamed(c), sort_keys=True) for _, c in groups._named_clauses(query)]
    assert len(set(unnamed)) < len(unnamed)  # the query does hold a clause twice
    for bucket in groups.filters(query, alts).values():
        should = [json.dumps(c, sort_keys=True) for c in bucket["bool"]["should"]]
        assert should and len(should) == len(set(should))


def test_a_phrase_prefix_is_left_out_where_every_word_and_the_prefix_are_required():
    """Every document the phrase prefix matches holds its words and a word its last one starts
    (any order, any expansion): the bool prefix of the same words in the same field counts it."""
    every = {"match_bool_prefix": {"title.exact": {"query": "firefox ext", "operator": "and"}}}
    phrase = {"match_phrase_prefix": {"title.exact": {"query": "firefox ext", "max_expansions": 200}}}
    assert groups._needed([phrase, every, every]) == [every]
    fuzzy = {"match_bool_prefix": {"title.exact": {"query": "firefox ext", "operator": "and", "fuzziness": "1"}}}
    some = {"match_bool_prefix": {"title.exact": {"query": "firefox ext"}}}  # any word: not every one
    other_field = {"match_bool_prefix": {"title": {"query": "firefox ext", "operator": "and"}}}
    other_words = {"match_bool_prefix": {"title.exact": {"query": "firefox ex", "operator": "and"}}}
    other_analyzer = {"match_bool_prefix": {"title.exact": {"query": "firefox ext", "operator": "and", "analyzer": "exact_text_synonyms"}}}
    for kept in (fuzzy, some, other_field, other_words, other_analyzer):
        assert groups._needed([phrase, kept]) == [phrase, kept]


def test_a_spelling_s_clauses_its_widest_one_covers_are_left_out_of_its_count():
    """Each left out clause matches only documents the BM25 clause matches: the same words, in a
    field it reads with the same analyzer. Not a prefix, nor the bodies' exact phrase, which their
    stemmed field does not cover: French stems "éléments" apart from "elements" (a review's case)."""
    widest = {"query": "firefox the extension", "fields": ["title^2.0", "title.exact^2.0", "text", "comment"], "type": "most_fields"}
    covered = lambda clause, w=widest: groups._covered(clause, w)  # noqa: E731
    assert covered({"match_phrase": {"title.exact": {"query": "firefox the extension"}}})
    assert covered({"match": {"title": {"query": "firefox the extension", "operator": "and"}}})
    assert covered({"match": {"title": {"query": "firefox the extension", "minimum_should_match": "-40%"}}})
    assert covered({"combined_fields": {"query": "firefox the extension", "operator": "and", "fields": ["title", "text", "comment"]}})
    assert covered({"multi_match": {"query": "firefox the extension", "type": "phrase", "fields": ["text", "comment"]}})
    assert not covered({"multi_match": {"query": "firefox the extension", "type": "phrase", "fields": ["text.exact", "comment.exact"]}})
    assert not covered({"match_phrase_prefix": {"title.exact": {"query": "firefox the extension", "max_expansions": 200}}})
    assert not covered({"match_bool_prefix": {"title.exact": {"query": "firefox the extension", "operator": "and", "fuzziness": "1"}}})
    assert not covered({"match_phrase": {"title.exact": {"query": "firefox the extensions"}}})  # other words
    assert not covered({"match_phrase": {"title.exact": {"query": "firefox the extension", "analyzer": "exact_text_synonyms"}}})
    assert not covered({"prefix": {"title.exact": {"value": "ext"}}}, {**widest, "query": "ext"})


def test_the_counts_requested_per_spelling_and_the_best_hit_before_the_filters():
    aggs = facets.aggregations(Filters(year=2023), facets=False, top_tags=10, spellings={"alt0": {"match_all": {}}}, top=True)
    assert aggs["spellings"]["aggs"]["entries"]["filter"]["bool"]["filter"][0]["range"]["pub_date"]["gte"] == "2023-01-01"
    assert aggs["top"] == {"top_hits": {"size": 1, "_source": False}}


def test_a_filter_never_changes_the_correction_and_the_count_is_the_spellings():
    """The year leaves one post found only as "jewel staticman": the line still names the spelling
    the whole query found first, the count is that spelling's posts, and the hit says what found it."""
    buckets = {"alt0": {"entries": {"doc_count": 0}}, "alt1": {"entries": {"doc_count": 2}}, "alt2": {"entries": {"doc_count": 9}}}
    response = {
        "hits": {"hits": [raw(7, "alt2.all.words", title="Sydney")]},
        "aggregations": {"spellings": {"buckets": buckets}, "top": {"hits": {"hits": [raw(1, "alt1.title.exact.phrase", "alt2.all.words")]}}},
    }
    found = reader.read(response, ALTS)
    assert (found.showing_for, found.total, found.spelling) == ("jekyll staticman", 2, "alt1")
    assert found.hits[0].spelling == "jewel staticman"
    unfiltered = {"hits": {"hits": [raw(1, "alt1.title.exact.phrase")]}, "aggregations": {"spellings": {"buckets": buckets}}}
    assert reader.read(unfiltered, ALTS).showing_for == "jekyll staticman" and reader.read(unfiltered, ALTS).hits[0].spelling == ""
