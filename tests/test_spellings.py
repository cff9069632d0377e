"""The page stands for one spelling (issue 37): its count and facets are that spelling's, and a
filter, an order or a later page never changes which spelling it is (plain dicts, no services)."""

from search.alternative import Alternative
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
    assert len(found["alt1"]["bool"]["should"]) == 2 * len(found["alt0"]["bool"]["should"])
    assert all("_name" not in str(clause) for clause in found["alt1"]["bool"]["should"])
    assert groups.filters(build_query(ALTS[:1], tiers=TIERS, title_boost=2.0, relevance_weight=0.01), ALTS[:1]) == {}


def test_the_counts_requested_per_spelling_and_the_best_hit_before_the_filters():
    aggs = facets.aggregations(Filters(year=2023), facets=False, top_tags=10, spellings={"alt0": {"match_all": {}}}, top=True)
    assert aggs["spellings"]["aggs"]["entries"]["filter"]["bool"]["filter"][0]["range"]["pub_date"]["gte"] == "2023-01-01"
    assert aggs["top"] == {"top_hits": {"size": 1, "_source": False}}


def test_a_filter_never_changes_the_correction_and_the_count_is_the_spellings():
    """The year leaves one post found only as "jewel staticman": the line still names the spelling
    the whole query found first, the count is that spelling's posts, and the hit says what found it."""
    buckets = {"alt0": {"entries": {"posts": {"value": 0}}}, "alt1": {"entries": {"posts": {"value": 2}}}, "alt2": {"entries": {"posts": {"value": 9}}}}
    response = {
        "hits": {"hits": [raw(7, "alt2.all.words", title="Sydney")]},
        "aggregations": {"spellings": {"buckets": buckets}, "top": {"hits": {"hits": [raw(1, "alt1.title.exact.phrase", "alt2.all.words")]}}},
    }
    found = reader.read(response, ALTS)
    assert (found.showing_for, found.total, found.spelling) == ("jekyll staticman", 2, "alt1")
    assert found.hits[0].spelling == "jewel staticman"
    unfiltered = {"hits": {"hits": [raw(1, "alt1.title.exact.phrase")]}, "aggregations": {"spellings": {"buckets": buckets}}}
    assert reader.read(unfiltered, ALTS).showing_for == "jekyll staticman" and reader.read(unfiltered, ALTS).hits[0].spelling == ""
