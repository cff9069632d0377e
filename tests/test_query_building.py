"""Pure logic, no services: normalization, suggestion scoring, query dicts."""
import pytest

from search.normalize import normalize_query
from search.query import MATCH, MATCH_PHRASE, boosts, build_query, matched_alternative, search_body, without_stop_words
from search.suggestions import Alternative, alternatives, known_spans, known_words_aggregation, suggest_block

ALT = dict(typed_score=1.1, floor=0.6, max_alternatives=5, per_token=3)


def entry(text, offset, options, length=None):
    return {"text": text, "offset": offset, "length": length if length is not None else len(text),
            "options": [{"text": t, "score": s, "freq": 10} for t, s in options]}


# ---------------------------------------------------------------- normalization

@pytest.mark.parametrize("raw, expected", [
    ("  firefox   tips \n", "firefox tips"),
    ("fire\x00fox\x07", "fire fox"),
    ("ｆｉｒｅｆｏｘ", "firefox"),  # full-width folded by NFKC
    ("zero\u200bwidth", "zero width"),
    ("", ""),
    ("   ", ""),
])
def test_normalize(raw, expected):
    assert normalize_query(raw, max_length=200, max_words=12) == expected


def test_normalize_caps_length_at_a_word_boundary_and_word_count():
    assert normalize_query("abc " * 100, max_length=10, max_words=50) == "abc abc"
    assert normalize_query("a b c d e", max_length=200, max_words=3) == "a b c"
    assert normalize_query("x" * 500, max_length=200, max_words=12) == "x" * 200


# ---------------------------------------------------------------- suggestions

def test_suggest_block_gives_each_suggester_its_own_name():
    block = suggest_block("firefix", options={"suggest_mode": "popular"})
    assert block == {
        "text": "firefix",
        "title_terms": {"term": {"field": "title.suggest", "suggest_mode": "popular"}},
        "text_terms": {"term": {"field": "text.suggest", "suggest_mode": "popular"}},
        "comment_terms": {"term": {"field": "comment.suggest", "suggest_mode": "popular"}},
    }


def test_typed_query_stays_on_top_with_the_fixed_score():
    suggest = {"text_terms": [entry("firefix", 0, [("firefox", 0.857), ("firefly", 0.71), ("firfox", 0.5)])]}
    result = alternatives("firefix", suggest, **ALT)
    assert result == [
        Alternative(1.1, "firefix", typed=True),
        Alternative(0.857, "firefox"),
        Alternative(0.71, "firefly"),
    ]  # firfox is under the 0.6 floor


def test_replacement_is_token_wise_and_case_insensitive():
    # "Firefix" as typed; the suggester reports the lowercased token with its offset.
    suggest = {"title_terms": [entry("firefix", 4, [("firefox", 0.857)], length=7)]}
    assert [a.text for a in alternatives("new Firefix firefixer", suggest, **ALT)] == ["new Firefix firefixer", "new firefox firefixer"]


def test_options_are_merged_across_suggesters_keeping_the_best_score():
    suggest = {
        "title_terms": [entry("jekyl", 0, [("jekyll", 0.8)])],
        "text_terms": [entry("jekyl", 0, [("jekyll", 0.75), ("jewel", 0.6)])],
        "comment_terms": [entry("jekyl", 0, [("jekyll", 0.7)])],
    }
    assert [(a.score, a.text) for a in alternatives("jekyl", suggest, **ALT)] == [(1.1, "jekyl"), (0.8, "jekyll"), (0.6, "jewel")]


def test_two_typos_are_corrected_together_and_that_ranks_first():
    suggest = {"text_terms": [
        entry("firefix", 0, [("firefox", 0.857)]),
        entry("extnsion", 8, [("extension", 0.875)]),
    ]}
    result = alternatives("firefix extnsion", suggest, **ALT)
    assert result[1].text == "firefox extension"
    assert result[1].score == pytest.approx((0.857 * 0.875) ** 0.5, abs=1e-4)
    # Fixing only one of them scores lower (keeping a misspelled word scores the floor).
    assert {a.text for a in result[2:]} == {"firefox extnsion", "firefix extension"}
    assert all(a.score < result[1].score for a in result[2:])


def test_cap_on_alternatives_and_dedupe():
    suggest = {"text_terms": [entry("abc", 0, [("abd", 0.9), ("abe", 0.8), ("abf", 0.7), ("abg", 0.65), ("ABD", 0.6)])]}
    result = alternatives("abc", suggest, **{**ALT, "per_token": 10, "max_alternatives": 3})
    assert [a.text for a in result] == ["abc", "abd", "abe"]


def test_numbers_and_known_words_are_not_corrected():
    suggest = {"comment_terms": [entry("rust", 0, [("rest", 0.75)]), entry("2024", 5, [("2014", 0.75)]),
                                 entry("editon", 10, [("edition", 0.83)])]}
    known = known_spans("rust 2024 editon", {"known_words": {"words": {"buckets": {
        "w0": {"doc_count": 250}, "w1": {"doc_count": 40}, "w2": {"doc_count": 0}}}}}, min_docs=3)
    assert known == [(0, 4), (5, 9)]
    result = alternatives("rust 2024 editon", suggest, **ALT, known=known)
    assert [a.text for a in result] == ["rust 2024 editon", "rust 2024 edition"]


def test_known_words_aggregation_is_global_and_per_word():
    agg = known_words_aggregation("sqlite-utilz tips")
    assert agg == {"known_words": {"global": {}, "aggs": {"words": {"filters": {"filters": {
        "w0": {"multi_match": {"query": "sqlite-utilz", "fields": ["title.suggest", "text.suggest", "comment.suggest"], "operator": "and"}},
        "w1": {"multi_match": {"query": "tips", "fields": ["title.suggest", "text.suggest", "comment.suggest"], "operator": "and"}},
    }}}}}}


def test_no_suggestions_means_only_the_typed_query():
    assert alternatives("hello", {}, **ALT) == [Alternative(1.1, "hello", typed=True)]


# ---------------------------------------------------------------- query dicts

ALTS = [Alternative(1.1, "firefix", typed=True), Alternative(0.9, "firefox"), Alternative(0.7, "firefly")]


def test_boosts_fall_with_rank_and_score_and_title_weighs_twice():
    assert boosts(ALTS, title_boost=2, comment_boost=1) == [
        {"title": 6.6, "text": 3.3, "comment": 3.3},   # (3 - 0) * 1.1
        {"title": 3.6, "text": 1.8, "comment": 1.8},   # (3 - 1) * 0.9
        {"title": 1.4, "text": 0.7, "comment": 0.7},   # (3 - 2) * 0.7
    ]


def test_build_query_match_phrase():
    q = build_query(ALTS[:2], strategy=MATCH_PHRASE, title_boost=2, comment_boost=1)
    assert q == {"bool": {
        "should": [
            {"match_phrase": {"title": {"query": "firefix", "boost": 4.4, "_name": "alt0.title"}}},
            {"match_phrase": {"text": {"query": "firefix", "boost": 2.2, "_name": "alt0.text"}}},
            {"match_phrase": {"comment": {"query": "firefix", "boost": 2.2, "_name": "alt0.comment"}}},
            {"match_phrase": {"title": {"query": "firefox", "boost": 1.8, "_name": "alt1.title"}}},
            {"match_phrase": {"text": {"query": "firefox", "boost": 0.9, "_name": "alt1.text"}}},
            {"match_phrase": {"comment": {"query": "firefox", "boost": 0.9, "_name": "alt1.comment"}}},
        ],
        "minimum_should_match": 1,
        "filter": [{"range": {"pub_date": {"lte": "now/m"}}}],
    }}


def test_fallback_uses_match_without_stop_words():
    alts = [Alternative(1.1, "how to use the firefix", typed=True), Alternative(0.8, "how to use the firefox")]
    q = build_query(alts, strategy=MATCH, title_boost=2, comment_boost=1)
    queries = [next(iter(c["match"].values()))["query"] for c in q["bool"]["should"]]
    assert queries == ["use firefix"] * 3 + ["use firefox"] * 3
    assert all("match" in c for c in q["bool"]["should"])


def test_fallback_skips_an_alternative_made_only_of_stop_words():
    q = build_query([Alternative(1.1, "how to the", typed=True)], strategy=MATCH, title_boost=2, comment_boost=1)
    assert q["bool"]["should"] == []
    assert without_stop_words("What is the Firefox") == "Firefox"


def test_search_body_pages_and_highlights_escaped():
    body = search_body({"match_all": {}}, page=3, page_size=10, fragment_size=160)
    assert body["from"] == 20 and body["size"] == 10
    assert body["highlight"]["encoder"] == "html"
    assert body["highlight"]["fields"]["title"] == {"number_of_fragments": 0}
    assert "suggest" not in body and "aggs" not in body


def test_matched_alternative_picks_the_best_ranked():
    assert matched_alternative({"matched_queries": ["alt2.text", "alt1.title"]}) == 1
    assert matched_alternative({"matched_queries": ["alt0.comment"]}) == 0
    assert matched_alternative({}) is None
