"""Pure logic, no services: normalization, suggestion scoring, query dicts."""

import pytest

from search.documents import STEM_SYNONYMS
from search.querying.normalize import normalize_query
from search.querying.query import (
    TIER_NAMES,
    boosts,
    build_query,
    frequent_words,
    highlight_query,
    matched_alternative,
    matched_tier,
    search_body,
    weights,
    without_stop_words,
)
from search.querying.suggestions import (
    Alternative,
    alternatives,
    in_code_points,
    known_spans,
    known_words_aggregation,
    suggest_block,
)
from search.querying.typo_model import typo_cost, typo_score

ALT = dict(typed_score=1.1, floor=0.6, max_alternatives=5, per_token=3)


def entry(text, offset, options, length=None):
    return {
        "text": text,
        "offset": offset,
        "length": length if length is not None else len(text),
        "options": [{"text": t, "score": s, "freq": 10} for t, s in options],
    }


# ---------------------------------------------------------------- normalization


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("  firefox   tips \n", "firefox tips"),
        ("fire\x00fox\x07", "fire fox"),
        ("ｆｉｒｅｆｏｘ", "firefox"),  # full-width folded by NFKC
        ("zero\u200bwidth", "zero width"),
        ("", ""),
        ("   ", ""),
    ],
)
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
        "title_terms": {"term": {"field": "title.exact", "suggest_mode": "popular"}},
        "text_terms": {"term": {"field": "text.exact", "suggest_mode": "popular"}},
        "comment_terms": {"term": {"field": "comment.exact", "suggest_mode": "popular"}},
    }


def test_typed_query_stays_on_top_with_the_fixed_score():
    suggest = {"text_terms": [entry("firefix", 0, [("firefox", 0.857), ("firefly", 0.71), ("fireplace", 0.5)])]}
    result = alternatives("firefix", suggest, **ALT)
    assert result == [
        Alternative(1.1, "firefix", typed=True),
        Alternative(typo_score("firefix", "firefox"), "firefox"),  # i -> o: neighbouring keys
        Alternative(typo_score("firefix", "firefly"), "firefly"),
    ]  # fireplace is under the 0.6 floor
    assert typo_score("firefix", "firefox") > typo_score("firefix", "firefly") > 0.6 > typo_score("firefix", "fireplace")


def test_replacement_is_token_wise_and_case_insensitive():
    # "Firefix" as typed; the suggester reports the lowercased token with its offset.
    suggest = {"title_terms": [entry("firefix", 4, [("firefox", 0.857)], length=7)]}
    assert [a.text for a in alternatives("new Firefix firefixer", suggest, **ALT)] == ["new Firefix firefixer", "new firefox firefixer"]


def test_options_are_merged_across_suggesters_and_ranked_by_the_typo_model():
    suggest = {
        "title_terms": [entry("jekyl", 0, [("jekyll", 0.8)])],
        "text_terms": [entry("jekyl", 0, [("jekyll", 0.75), ("jewel", 0.6)])],
        "comment_terms": [entry("jekyl", 0, [("jekyll", 0.7)])],
    }
    assert [(a.score, a.text) for a in alternatives("jekyl", suggest, **ALT)] == [
        (1.1, "jekyl"),
        (typo_score("jekyl", "jekyll"), "jekyll"),
        (typo_score("jekyl", "jewel"), "jewel"),
    ]
    assert typo_score("jekyl", "jekyll") > typo_score("jekyl", "jewel")  # a doubled letter dropped is cheap


def test_two_typos_are_corrected_together_and_that_ranks_first():
    suggest = {
        "text_terms": [
            entry("firefix", 0, [("firefox", 0.857)]),
            entry("extnsion", 8, [("extension", 0.875)]),
        ]
    }
    result = alternatives("firefix extnsion", suggest, **ALT)
    assert result[1].text == "firefox extension"
    both = typo_score("firefix", "firefox") * typo_score("extnsion", "extension")
    assert result[1].score == pytest.approx(both**0.5, abs=1e-4)
    # Fixing only one of them scores lower (keeping a misspelled word scores the floor).
    assert {a.text for a in result[2:]} == {"firefox extnsion", "firefix extension"}
    assert all(a.score < result[1].score for a in result[2:])


def test_cap_on_alternatives_and_dedupe():
    suggest = {"text_terms": [entry("abcde", 0, [("abcdf", 0.9), ("abcdx", 0.8), ("abcdw", 0.7), ("abcdq", 0.65), ("ABCDF", 0.6)])]}
    result = alternatives("abcde", suggest, **{**ALT, "per_token": 10, "max_alternatives": 3})
    assert [a.text.lower() for a in result] == ["abcde", "abcdf", "abcdw"]  # f and w neighbour e on the keyboard


def test_numbers_and_known_words_are_not_corrected():
    suggest = {"comment_terms": [entry("rust", 0, [("rest", 0.75)]), entry("2024", 5, [("2014", 0.75)]), entry("editon", 10, [("edition", 0.83)])]}
    known = known_spans(
        "rust 2024 editon", {"known_words": {"words": {"buckets": {"w0": {"doc_count": 250}, "w1": {"doc_count": 40}, "w2": {"doc_count": 0}}}}}, min_docs=3
    )
    assert known == [(0, 4), (5, 9)]
    result = alternatives("rust 2024 editon", suggest, **ALT, known=known)
    assert [a.text for a in result] == ["rust 2024 editon", "rust 2024 edition"]


def test_known_words_aggregation_is_global_and_per_word():
    agg = known_words_aggregation("sqlite-utilz tips")
    assert agg == {
        "known_words": {
            "global": {},
            "aggs": {
                "words": {
                    "filters": {
                        "filters": {
                            "w0": {"multi_match": {"query": "sqlite-utilz", "fields": ["title.exact", "text.exact", "comment.exact"], "operator": "and"}},
                            "w1": {"multi_match": {"query": "tips", "fields": ["title.exact", "text.exact", "comment.exact"], "operator": "and"}},
                        }
                    }
                }
            },
        }
    }


def test_no_suggestions_means_only_the_typed_query():
    assert alternatives("hello", {}, **ALT) == [Alternative(1.1, "hello", typed=True)]


def test_typo_model_prices_common_typos_below_arbitrary_edits():
    assert typo_cost("recieve", "receive") < typo_cost("recxeve", "receive")  # transposition < substitution
    assert typo_cost("firefix", "firefox") < typo_cost("firefqx", "firefox")  # neighbouring key
    assert typo_cost("bloggs", "blogs") < typo_cost("blogxs", "blogs")  # doubled letter
    assert typo_cost("xlog", "blog") > typo_cost("bxog", "blog")  # the first letter is rarely wrong
    assert typo_cost("same", "same") == 0


def test_equal_distance_options_are_ranked_by_frequency_then_kept_for_the_query_to_decide():
    suggest = {
        "title_terms": [
            {
                "text": "modiration",
                "offset": 8,
                "length": 10,
                "options": [{"text": "moderation", "score": 0.9, "freq": 2}, {"text": "modiration", "score": 0.9, "freq": 1}],
            }
        ],
        "text_terms": [{"text": "modiration", "offset": 8, "length": 10, "options": [{"text": "moderation", "score": 0.9, "freq": 30}]}],
    }
    result = alternatives("content modiration", suggest, **ALT)
    assert [a.text for a in result] == ["content modiration", "content moderation"]


def test_keeping_a_word_the_index_holds_beats_correcting_it_to_another():
    suggest = {"title_terms": [entry("sues", 0, [("uses", 0.75)]), entry("youtufe", 5, [("youtube", 0.85)])]}
    present = [(0, 4)]  # "sues" is in a document or two: too few to be "known", enough to be real
    result = alternatives("sues youtufe", suggest, **ALT, present=present, keep_present=0.9)
    assert result[1].text == "sues youtube"
    assert alternatives("sues youtufe", suggest, **ALT)[1].text == "uses youtube"  # without that knowledge


@pytest.mark.parametrize("query", ["🔥 firefix extnsion", "firefix 🔥 extnsion", "firefix extnsion 🔥", "𝒳 firefix"])
def test_utf16_offsets_are_converted_before_slicing(query):
    def utf16(i):  # Elasticsearch's offset of the Python index i
        return len(query[:i].encode("utf-16-le")) // 2

    start1, start2 = query.index("firefix"), query.find("extnsion")
    raw = {"text_terms": [{"text": "firefix", "offset": utf16(start1), "length": 7, "options": [{"text": "firefox", "score": 0.86, "freq": 5}]}]}
    if start2 >= 0:
        raw["text_terms"].append({"text": "extnsion", "offset": utf16(start2), "length": 8, "options": [{"text": "extension", "score": 0.88, "freq": 5}]})
    fixed = in_code_points(query, raw)
    best = alternatives(query, fixed, **ALT)[1].text
    assert best == query.replace("firefix", "firefox").replace("extnsion", "extension")
    assert in_code_points("plain ascii", raw) is raw


# ---------------------------------------------------------------- query dicts

ALTS = [Alternative(1.1, "firefix", typed=True), Alternative(0.9, "firefox"), Alternative(0.7, "firefly")]
TIERS = {name: 2 ** (len(TIER_NAMES) - 1 - i) for i, name in enumerate(TIER_NAMES)}


def test_weights_fall_with_rank_and_score_and_what_was_typed_weighs_one():
    assert weights(ALTS) == [1.0, round(2 * 0.9 / 3.3, 4), round(0.7 / 3.3, 4)]
    table = boosts(ALTS, tiers=TIERS)
    assert table[0]["title.exact.phrase"] == TIERS["title.exact.phrase"] and table[0]["all.words"] == 1
    assert table[1]["title.exact.phrase"] == round(TIERS["title.exact.phrase"] * weights(ALTS)[1], 4)


def test_build_query_tiers_one_word():
    q = build_query(ALTS[:2], tiers=TIERS, title_boost=2, relevance_weight=0.01)
    w = weights(ALTS[:2])[1]
    should = q["bool"]["should"]

    def const(clause, boost, name):
        return {"constant_score": {"filter": clause, "boost": round(boost, 4), "_name": name}}

    assert should[0] == {
        "dis_max": {
            "queries": [
                const({"match_phrase": {"title.exact": {"query": "firefix"}}}, TIERS["title.exact.phrase"], "alt0.title.exact.phrase"),
                const({"match_phrase": {"title.exact": {"query": "firefox"}}}, TIERS["title.exact.phrase"] * w, "alt1.title.exact.phrase"),
            ]
        }
    }
    assert should[1]["dis_max"]["queries"][0] == const({"match_phrase": {"title": {"query": "firefix"}}}, TIERS["title.stem.phrase"], "alt0.title.stem.phrase")
    assert should[2]["dis_max"]["queries"][1] == const(
        {"multi_match": {"query": "firefox", "type": "phrase", "fields": ["text.exact", "comment.exact"]}},
        TIERS["body.exact.phrase"] * w,
        "alt1.body.exact.phrase",
    )
    assert should[3]["dis_max"]["queries"][0]["constant_score"]["_name"] == "alt0.body.stem.phrase"
    # One word: the "every word" tiers would repeat the phrase tiers, so they are left out.
    assert len([c for c in should if "dis_max" in c]) == 4
    assert should[4:] == [
        {
            "multi_match": {
                "query": "firefix",
                "fields": ["title^2", "title.exact^2", "text", "comment"],
                "type": "most_fields",
                "boost": 0.01,
                "_name": "alt0.some.words",
            }
        },
        {
            "multi_match": {
                "query": "firefox",
                "fields": ["title^2", "title.exact^2", "text", "comment"],
                "type": "most_fields",
                "boost": round(0.01 * w, 6),
                "_name": "alt1.some.words",
            }
        },
    ]
    assert q["bool"]["minimum_should_match"] == 1
    assert q["bool"]["filter"] == [{"range": {"pub_date": {"lte": "now/m"}}}]


def test_build_query_words_tiers_drop_stop_words_and_phrases_keep_them():
    q = build_query([Alternative(1.1, "how to use the firefox", typed=True)], tiers=TIERS, title_boost=2, relevance_weight=0.01)
    clauses = {c["constant_score"]["_name"]: c["constant_score"]["filter"] for d in q["bool"]["should"] if "dis_max" in d for c in d["dis_max"]["queries"]}
    # Two words: no title.most.words tier (from most_words' first number of words only: below).
    assert list(clauses) == [f"alt0.{t}" for t in TIER_NAMES if t != "title.most.words"]
    assert clauses["alt0.title.exact.phrase"] == {"match_phrase": {"title.exact": {"query": "how to use the firefox"}}}
    assert clauses["alt0.title.exact.words"] == {"match": {"title.exact": {"query": "use firefox", "operator": "and"}}}
    assert clauses["alt0.all.words"] == {"combined_fields": {"query": "use firefox", "fields": ["title", "text", "comment"], "operator": "and"}}
    # A tier switched off in the settings is left out.
    fewer = build_query([Alternative(1.1, "use firefox", typed=True)], tiers={"title.exact.phrase": 1}, title_boost=2, relevance_weight=0.01)
    assert [d["dis_max"]["queries"][0]["constant_score"]["_name"] for d in fewer["bool"]["should"] if "dis_max" in d] == ["alt0.title.exact.phrase"]


def test_a_long_query_also_finds_titles_holding_all_its_words_but_one():
    """ "the one about hack day at the guardian": the reader's own words around a title ("one",
    "about") keep it out of every tier that needs every word; title.most.words takes it."""
    long = Alternative(1.1, "the one about hack day at the guardian", typed=True)
    q = build_query([long], tiers=TIERS, title_boost=2, relevance_weight=0.01, most_words=(4, "-1"))
    clauses = {c["constant_score"]["_name"]: c["constant_score"] for d in q["bool"]["should"] if "dis_max" in d for c in d["dis_max"]["queries"]}
    assert list(clauses) == [f"alt0.{t}" for t in TIER_NAMES]  # in the tiers' order: between the body's phrases and all.words
    assert clauses["alt0.title.most.words"] == {
        "filter": {"match": {"title": {"query": "one about hack day guardian", "minimum_should_match": "-1"}}},
        "boost": TIERS["title.most.words"],
        "_name": "alt0.title.most.words",
    }
    # Fewer non-stop words than most_words asks for ("hack day guardian": three): not searched; nor
    # when switched off.
    short = Alternative(1.1, "hack day at the guardian", typed=True)
    for alt, most in [(short, (4, "-1")), (long, (0, "-1"))]:
        q = build_query([alt], tiers=TIERS, title_boost=2, relevance_weight=0.01, most_words=most)
        assert "title.most.words" not in str(q)
    # Its alternatives weigh the same there (BM25 orders them); in every other tier a correction weighs less.
    both = [long, Alternative(0.9, "the one about hack day at the guardians")]
    q = build_query(both, tiers=TIERS, title_boost=2, relevance_weight=0.01, most_words=(4, "-1"))
    boost = {c["constant_score"]["_name"]: c["constant_score"]["boost"] for d in q["bool"]["should"] if "dis_max" in d for c in d["dis_max"]["queries"]}
    assert boost["alt0.title.most.words"] == boost["alt1.title.most.words"] == TIERS["title.most.words"]
    assert boost["alt1.all.words"] < boost["alt0.all.words"]


def test_frequent_words_are_those_far_more_common_than_the_rarest():
    holding = {"funktioniert": 52, "node": 10, "haskell": 96, "teil": 65}
    assert frequent_words(["funktioniert", "node"], holding, 4) == {"funktioniert"}
    assert frequent_words(["Funktioniert", "Node"], holding, 4) == {"Funktioniert"}  # looked up as the exact analyzer keeps them
    assert frequent_words(["funktioniert", "haskell", "teil"], holding, 4) == set()  # no word four times the rarest
    assert frequent_words(["funktioniert", "node"], holding, 0) == set()  # switched off
    assert frequent_words(["node"], holding, 4) == set()  # one word: nothing to leave out
    assert frequent_words(["funktioniert", "nodd"], holding, 4) == set()  # a word no document holds: the corrections' business


def test_a_word_no_title_holds_is_left_out_of_a_title_holding_the_others():
    """ "was bedeutet programming": no title holds "bedeutet" (39 documents), two hold
    "programming" (22): a title holding "programming" is as near as titles come. Not when every
    word is untitled, nor when a word is in no document."""
    holding = {"bedeutet": 39, "programming": 22, "funktioniert": 52, "node": 10}
    untitled = frozenset({"bedeutet", "funktioniert"})
    assert frequent_words(["bedeutet", "programming"], holding, 4) == set()
    assert frequent_words(["bedeutet", "programming"], holding, 4, untitled) == {"bedeutet"}
    assert frequent_words(["Bedeutet", "programming"], holding, 4, untitled) == {"Bedeutet"}
    assert frequent_words(["bedeutet", "funktioniert"], holding, 4, untitled) == set()
    assert frequent_words(["bedeutet", "progamming"], holding, 4, untitled) == set()
    assert frequent_words(["bedeutet", "programming"], holding, 0, untitled) == set()  # switched off
    # The rarest is counted among the words a title can hold.
    assert frequent_words(["bedeutet", "node", "programming"], holding, 2, untitled) == {"bedeutet", "programming"}
    # An untitled word rarer than the others is what the reader asks about: a title must hold it.
    assert frequent_words(["django", "xyzzylib"], {"django": 50, "xyzzylib": 1}, 4, frozenset({"xyzzylib"})) == set()
    assert frequent_words(["bedeutet", "monaden"], {"bedeutet": 39, "monaden": 45}, 4, untitled) == set()


def test_untitled_words_are_held_by_documents_and_by_no_title():
    from search.querying.plan import untitled

    titles = {"programming": 2, "node": 3}
    typed = [Alternative(1.1, "was Bedeutet programming nodd node grossteil", typed=True)]
    holding = {"bedeutet": 39, "programming": 22, "nodd": 0, "node": 5, "grossteil": 4}
    assert untitled(typed, holding, lambda w: titles.get(w, 0)) == {"bedeutet", "grossteil"}
    # A compound's or held form's own word is no word typed: it stays needed.
    formed = [Alternative(1.1, "was bedeutet teil", typed=True), Alternative(0.88, "was bedeutet grossteil", form_of="was bedeutet teil")]
    assert untitled(formed, {"bedeutet": 39, "teil": 9, "grossteil": 4}, lambda w: titles.get(w, 0)) == {"bedeutet", "teil"}


def test_a_title_holding_the_rarer_words_reaches_most_words_without_the_frequent_ones():
    """ "how does node work": a title about node, not a body holding both words, comes first."""
    question = Alternative(1.1, "how does node work", typed=True)
    holding = {"work": 52, "node": 10}

    def most(alt, **options):
        q = build_query([alt], tiers=TIERS, title_boost=2, relevance_weight=0.01, **options)
        found = [c["constant_score"] for d in q["bool"]["should"] if "dis_max" in d for c in d["dis_max"]["queries"]]
        return [c["filter"] for c in found if c["_name"] == "alt0.title.most.words"]

    assert most(question, frequent=(holding, 4)) == [{"match": {"title.exact": {"query": "node", "operator": "and"}}}]
    assert most(question, frequent=(holding, 0)) == []  # off: two words are below most_words' first number
    assert most(question, frequent=(holding, 6)) == []  # 52 is not six times 10
    # A correction keeps the reader's words: its rare corrected word never makes them optional.
    corrected = build_query(
        [question, Alternative(0.9, "how does nodd work")], tiers=TIERS, title_boost=2, relevance_weight=0.01, frequent=({**holding, "nodd": 1}, 4)
    )
    assert "alt1.title.most.words" not in str(corrected)
    # With most_words' own rule too: a title holding either reaches the tier.
    longer = Alternative(1.1, "work node haskell", typed=True)
    holding["haskell"] = 96
    assert most(longer, frequent=(holding, 4), most_words=(3, "-40%")) == [
        {
            "bool": {
                "should": [
                    {"match": {"title": {"query": "work node haskell", "minimum_should_match": "-40%"}}},
                    {"match": {"title.exact": {"query": "node", "operator": "and"}}},
                ]
            }
        }
    ]


def test_tier_weights_are_powers_of_two_so_a_higher_tier_always_wins():
    from search import conf

    values = [conf.get().ranking.tiers[t] for t in TIER_NAMES]
    assert all(higher > sum(values[i + 1 :]) for i, higher in enumerate(values))


def test_an_alternative_of_only_stop_words_keeps_its_phrase_tiers():
    q = build_query([Alternative(1.1, "to be or not to be", typed=True)], tiers=TIERS, title_boost=2, relevance_weight=0.01)
    names = [c["constant_score"]["_name"] for d in q["bool"]["should"] if "dis_max" in d for c in d["dis_max"]["queries"]]
    assert names == ["alt0.title.exact.phrase", "alt0.title.stem.phrase", "alt0.body.exact.phrase", "alt0.body.stem.phrase"]
    assert without_stop_words("What is the Firefox") == "Firefox"


def test_search_body_pages_and_highlights_escaped():
    body = search_body({"match_all": {}}, page=3, page_size=10, fragment_size=160)
    assert body["from"] == 20 and body["size"] == 10
    assert body["highlight"]["encoder"] == "html"
    assert body["highlight"]["fields"]["title"] == {"number_of_fragments": 0}
    assert "suggest" not in body and "aggs" not in body


def test_matched_alternative_is_the_best_tier_then_the_best_ranked():
    assert matched_alternative({"matched_queries": ["alt2.title.exact.phrase", "alt1.body.exact.phrase", "alt0.some.words"]}) == 2
    assert matched_alternative({"matched_queries": ["alt2.title.stem.phrase", "alt1.title.stem.phrase"]}) == 1
    assert matched_alternative({"matched_queries": ["alt0.some.words"]}) == 0
    assert matched_alternative({}) is None
    assert matched_tier({"matched_queries": ["alt1.all.words", "alt0.body.stem.phrase"]}) == "body.stem.phrase"
    assert matched_tier({"matched_queries": ["nonsense", "alt0.some.words"]}) == "some.words"


def test_highlighting_uses_one_plain_query_of_the_alternatives_distinct_words():
    alts = [Alternative(1.1, "how to firefix 🔥 Addon", typed=True), Alternative(0.9, "how to firefox 🔥 addon")]
    assert highlight_query(alts) == {"multi_match": {"query": "firefix addon firefox", "fields": ["title", "text", "comment"]}}
    assert highlight_query([Alternative(1.1, "to be", typed=True)]) is None
    body = search_body({"match_all": {}}, page=1, page_size=10, fragment_size=160, highlight=highlight_query(alts))
    assert body["highlight"]["highlight_query"] == highlight_query(alts)


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("-".join("abcdefghijklmnopqrstuvwxyz"), "-".join("abcdefghijkl")),  # one "word", 26 tokens
        ("数" * 200, "数" * 12),  # every ideograph is a token
        ("don't a b c d e f g h i j k l", "don't a b c d e f g h i j k"),  # an apostrophe joins: one token
        ("node.js a b c d e f g h i j k", "node.js a b c d e f g h i j"),  # a dot splits: two tokens
        ("short query", "short query"),
    ],
)
def test_normalize_caps_tokens_as_elasticsearch_counts_them(raw, expected):
    assert normalize_query(raw, max_length=200, max_words=12, max_tokens=12) == expected


def test_completion_clauses_follow_each_alternative_that_kept_the_last_word():
    alts = [Alternative(1.1, "mozila firef", typed=True), Alternative(0.9, "mozilla firef"), Alternative(0.8, "mozilla fire")]
    q = build_query(alts, tiers=TIERS, title_boost=2, relevance_weight=0.01, completion_weight=0.9)
    clauses = {c["constant_score"]["_name"]: c["constant_score"] for d in q["bool"]["should"] if "dis_max" in d for c in d["dis_max"]["queries"]}
    assert clauses["alt0c.title.exact.phrase"]["filter"] == {"match_phrase_prefix": {"title.exact": {"query": "mozila firef", "max_expansions": 200}}}
    assert clauses["alt1c.title.exact.words"]["filter"] == {"match_bool_prefix": {"title.exact": {"query": "mozilla firef", "operator": "and"}}}
    assert "alt2c.title.exact.phrase" not in clauses  # "fire" replaced the typed last word: no completion
    # "mozilla fire" corrects the last word: a title holding the completion holds its stem too, so
    # the stemmed tiers repeat the clause (else the correction could outrank the completions).
    assert clauses["alt0c.title.stem.phrase"]["filter"] == clauses["alt0c.title.exact.phrase"]["filter"]
    assert clauses["alt1c.title.stem.words"]["filter"] == clauses["alt1c.title.exact.words"]["filter"]
    assert clauses["alt0c.title.stem.phrase"]["boost"] == round(TIERS["title.stem.phrase"] * 0.9, 4)
    assert not any(name.startswith("alt0c.body") or name.startswith("alt0c.all") for name in clauses)  # titles only
    w = weights(alts)
    assert clauses["alt1c.title.exact.phrase"]["boost"] == round(TIERS["title.exact.phrase"] * w[1] * 0.9, 4)
    # What was typed, then its completion, then the correction, within a tier.
    assert clauses["alt0.title.exact.phrase"]["boost"] > clauses["alt0c.title.exact.phrase"]["boost"] > clauses["alt2.title.exact.phrase"]["boost"]


def test_one_unfinished_word_is_a_prefix_query_and_no_completion_without_the_weight():
    q = build_query([Alternative(1.1, "Firef", typed=True)], tiers=TIERS, title_boost=2, relevance_weight=0.01, completion_weight=0.9)
    names = [c["constant_score"]["_name"] for d in q["bool"]["should"] if "dis_max" in d for c in d["dis_max"]["queries"]]
    assert "alt0c.title.exact.phrase" in names
    body = next(c for d in q["bool"]["should"] if "dis_max" in d for c in d["dis_max"]["queries"] if c["constant_score"]["_name"] == "alt0c.title.exact.phrase")
    assert body["constant_score"]["filter"] == {"prefix": {"title.exact": {"value": "firef"}}}
    assert "alt0c.title.exact.words" not in names  # one word: no words tiers
    assert "alt0c.title.stem.phrase" not in names  # no correction of the last word competes


def test_the_stemmed_tiers_repeat_a_completion_only_when_a_correction_of_the_last_word_competes():
    def names(alts):
        q = build_query(alts, tiers=TIERS, title_boost=2, relevance_weight=0.01, completion_weight=0.9)
        return {c["constant_score"]["_name"] for d in q["bool"]["should"] if "dis_max" in d for c in d["dis_max"]["queries"]}

    corrected = names([Alternative(1.1, "elastics", typed=True), Alternative(0.9, "elastic")])
    assert {"alt0c.title.exact.phrase", "alt0c.title.stem.phrase"} <= corrected
    kept = names([Alternative(1.1, "mozila ext", typed=True), Alternative(0.9, "mozilla ext")])
    assert {"alt0c.title.exact.words", "alt1c.title.exact.words"} <= kept
    assert not any(".stem." in n for n in kept if "c." in n)  # the last word is never corrected: no copies
    plain = build_query([Alternative(1.1, "Firef", typed=True)], tiers=TIERS, title_boost=2, relevance_weight=0.01)
    assert "c." not in str([c["constant_score"]["_name"] for d in plain["bool"]["should"] if "dis_max" in d for c in d["dis_max"]["queries"]])


def test_a_completion_is_not_a_correction_to_show():
    hit = {"matched_queries": ["alt0c.title.exact.phrase", "alt1.title.exact.phrase", "alt1.title.stem.phrase"]}
    assert matched_alternative(hit) == 0  # the same tier: the typed word's completion weighs more than a correction
    hit = {"matched_queries": ["alt0c.title.exact.phrase", "alt1.title.stem.phrase"]}
    assert matched_alternative(hit) == 0 and matched_tier(hit) == "title.exact.phrase"


def test_the_best_match_of_a_page_is_the_best_tier_then_the_best_alternative():
    """Newest first, the first hit is only the newest: the "showing results for" line comes from the best match."""
    from search.querying.query import best_match

    newest = {"_id": "1", "matched_queries": ["alt1.all.words", "alt1.some.words"]}
    best = {"_id": "2", "matched_queries": ["alt1.title.exact.phrase", "alt0.body.stem.phrase"]}
    typed = {"_id": "3", "matched_queries": ["alt0.title.exact.phrase"]}
    assert best_match([newest, best]) is best
    assert best_match([newest, best, typed]) is typed  # same tier: what was typed first
    assert best_match([{"_id": "4"}, {"_id": "5"}])["_id"] == "4"  # nothing named: the first


@pytest.mark.parametrize("typed", [":", ".", "..:", "a:"])
def test_a_query_of_only_dots_or_colons_has_no_word_to_complete(typed):
    q = build_query([Alternative(1.1, typed, typed=True)], tiers=TIERS, title_boost=2, relevance_weight=0.01, completion_weight=0.9)
    names = [c["constant_score"]["_name"] for d in q["bool"]["should"] if "dis_max" in d for c in d["dis_max"]["queries"]]
    assert ("alt0c.title.exact.phrase" in names) == (typed == "a:")  # "a:" is the word "a", unfinished


@pytest.mark.parametrize(
    ("raw", "completing"),
    [("firef", True), ("firef ", False), ("firefox.", False), ("node:", False), ("firefox\u2026", False), ("e.g\u2025", False), ("node.j", True)],
)
def test_a_space_or_a_dot_or_a_colon_after_the_normalized_last_word_ends_it(raw, completing):
    from search.querying.service import normalize, unfinished

    assert unfinished(raw, normalize(raw)) is completing


def test_as_you_type_titles_may_also_match_fuzzily_when_asked():
    """A typo in a finished word the dictionary left alone ("the torm wor") kept "The Storm Worm"
    out of every completion tier: asked (plan.strangers_to_titles), what was typed also matches
    titles up to one edit a word, the last word a prefix, in title.most.words."""
    typed, fixed = Alternative(1.1, "the torm wor", typed=True), Alternative(0.9, "the storm wor")
    q = build_query([typed, fixed], tiers=TIERS, title_boost=2, relevance_weight=0.01, completion_weight=0.9, fuzzy_completion="1")
    clauses = {c["constant_score"]["_name"]: c["constant_score"] for d in q["bool"]["should"] if "dis_max" in d for c in d["dis_max"]["queries"]}
    assert clauses["alt0c.title.most.words"] == {
        "filter": {"match_bool_prefix": {"title.exact": {"query": "torm wor", "operator": "and", "fuzziness": "1"}}},
        "boost": round(TIERS["title.most.words"] * 0.9, 4),
        "_name": "alt0c.title.most.words",
    }
    assert "alt1c.title.most.words" not in clauses  # what was typed only: the fuzzy words cover the corrections
    # Not asked, not completing (a submitted query), or one word (nothing before the last): not sent.
    for shape in [{"completion_weight": 0.9}, {"fuzzy_completion": "1"}]:
        assert "fuzziness" not in str(build_query([typed], tiers=TIERS, title_boost=2, relevance_weight=0.01, **shape))
    one = build_query([Alternative(1.1, "torm", typed=True)], tiers=TIERS, title_boost=2, relevance_weight=0.01, completion_weight=0.9, fuzzy_completion="1")
    assert "fuzziness" not in str(one)


def test_of_two_sound_alikes_the_nearer_ranks_first_then_the_more_common():
    """ "recrooting" sounds like recruiting, recreating and recording alike (RKRTNK), which the
    typo model scores the same: the nearer ones (two edits) rank before the farther (three), then
    the one more posts hold. Before, the commonest came first and the meant word was left out."""
    options = [("recording", 0.9, 49), ("regarding", 0.9, 31), ("recreating", 0.9, 5), ("recruiting", 0.9, 1)]
    suggest = {"text_terms": [{"text": "recrooting", "offset": 0, "length": 10, "options": [{"text": t, "score": s, "freq": f} for t, s, f in options]}]}
    result = alternatives("recrooting", suggest, **{**ALT, "per_token": 2})
    assert [a.text for a in result] == ["recrooting", "recreating", "recruiting"]


def test_a_hint_orders_the_typed_words_posts_and_finds_none_of_its_own():
    alts = [Alternative(1.1, "blog enginin", typed=True), Alternative(0.74, "blog engine", hint=True)]
    query = build_query(alts, tiers=TIERS, title_boost=2.0, relevance_weight=0.01)
    names = [c["multi_match"]["_name"] for c in query["bool"]["should"] if "multi_match" in c]
    assert names == ["alt0.some.words"]  # the tiers of "blog engine" need both words; "engine" alone finds nothing
    tiers = [q["constant_score"]["_name"] for c in query["bool"]["should"] if "dis_max" in c for q in c["dis_max"]["queries"]]
    assert "alt1.all.words" in tiers and "alt1.title.exact.phrase" in tiers


def test_a_sound_alike_out_of_reach_is_scored_as_the_edits_it_is():
    """ "settled" sounds like "suttlety" (STLT) but is three edits away and shorter: no correction
    of it. Scored as a sound-alike it outranked "subtlety", one edit away, and filled the options."""
    assert typo_score("suttlety", "subtlety") > typo_score("suttlety", "settled")
    assert typo_score("jurny", "journey") > typo_score("jurny", "jury")  # within reach: still the sound first
    options = [("settled", 0.9, 40), ("satellite", 0.9, 30), ("stalled", 0.9, 20), ("subtlety", 0.9, 1)]
    suggest = {"text_terms": [{"text": "suttlety", "offset": 0, "length": 8, "options": [{"text": t, "score": s, "freq": f} for t, s, f in options]}]}
    assert [a.text for a in alternatives("suttlety", suggest, **ALT)][1] == "subtlety"


def test_a_correction_of_an_unfinished_words_start_is_completed_again():
    """ "triubl" starts no word of the blog: its start "troubl" is corrected, and the word that
    completes it, "trouble" (a `started` alternative), is completed again in the search, so
    "optimization and triubl" finds "Optimization and troubleshooting" (bench/asyoutype.py's
    cut_inner_typo). A correction of a whole word ("bannd": band) is not completed."""
    alts = [Alternative(1.1, "optimization and triubl", typed=True), Alternative(0.875, "optimization and trouble", started=True)]
    shape = dict(tiers=TIERS, title_boost=2, relevance_weight=0.01, completion_weight=0.9)
    q = build_query(alts, **shape)
    clauses = {c["constant_score"]["_name"]: c["constant_score"] for d in q["bool"]["should"] if "dis_max" in d for c in d["dis_max"]["queries"]}
    phrase = {"query": "optimization and trouble", "max_expansions": 200}
    assert clauses["alt1c.title.exact.phrase"]["filter"] == {"match_phrase_prefix": {"title.exact": phrase}}
    whole = build_query([Alternative(1.1, "bannd", typed=True), Alternative(0.88, "band")], **shape)
    assert not any(c["constant_score"]["_name"].startswith("alt1c") for d in whole["bool"]["should"] if "dis_max" in d for c in d["dis_max"]["queries"])


def test_an_alternative_that_completes_a_corrected_start_is_marked_started():
    suggest = {
        "title_terms": [
            {"text": "triubl", "offset": 17, "length": 6, "options": [{"text": "trouble", "prefix": "troubl", "freq": 33}]},
            {"text": "triubl", "offset": 17, "length": 6, "options": [{"text": "triple", "freq": 3}]},
        ]
    }
    result = alternatives("optimization and triubl", suggest, **ALT)
    assert [(a.text, a.started) for a in result] == [("optimization and triubl", False), ("optimization and trouble", True), ("optimization and triple", False)]


def test_left_out_is_what_the_caps_cut_from_the_readers_text():
    from search.querying.normalize import left_out

    raw = "one two  three four five"
    searched = normalize_query(raw, max_length=200, max_words=3)
    assert searched == "one two three" and left_out(raw, searched) == "four five"
    assert left_out("firefox  tips", "firefox tips") == ""


def test_holdings_count_what_was_typed_and_an_unfinished_word_as_its_completion():
    from search.querying.plan import holdings

    counts = {"python": 300, "perf": 2, "performance": 500, "node": 10, "nodes": 3, "cafe": 7}
    held = lambda word: counts.get(word, 0)  # noqa: E731
    typed = Alternative(1.1, "how does Python perf", typed=True)
    # A correction and a synonym alternative are not looked up: their words never make the reader's optional.
    others = [Alternative(0.9, "how does python nodes"), Alternative(0.9, "how does python node", synonym_of="x")]
    assert holdings([typed, *others], held) == {"python": 300, "perf": 2}
    # "perf" still being typed, whose completion "performance" is commoner, is likely a start: the
    # rule is off, so "python" is not frequent. "node", commoner than "nodes", counts as itself.
    started = lambda word: max((n for w, n in counts.items() if w.startswith(word) and w != word), default=0)  # noqa: E731
    found = holdings([typed], held, unfinished="perf", started=started)
    assert found == {"python": 300, "perf": 0} and frequent_words(["python", "perf"], found, 4) == set()
    question = Alternative(1.1, "how does python node", typed=True)
    assert holdings([question], held, unfinished="node", started=started) == {"python": 300, "node": 10}
    # A held form counts like what was typed; words are keyed as the exact analyzer keeps them.
    form = Alternative(1.1, "Café nodes", form_of="cafe node")
    assert holdings([form], held) == {"cafe": 7, "nodes": 3}


def test_a_whole_word_as_near_outranks_a_corrected_start_completed():
    """ "goldn": golden (one letter dropped) before goodness, the completion of the start "goodn"
    (one key off): a corrected start is two guesses, a typo and an unfinished word, and costs
    TypoCosts.completed more (issue 48; on 5338cd5 the page showed goodness)."""
    from dataclasses import replace

    from search.querying.suggestions import _spans
    from search.querying.typo_model import COSTS

    suggest = {
        "title_terms": [
            {"text": "goldn", "offset": 0, "length": 5, "options": [{"text": "golden", "freq": 3}]},
            {"text": "goldn", "offset": 0, "length": 5, "options": [{"text": "goodness", "prefix": "goodn", "freq": 9}]},
        ]
    }
    assert [t for _, t in _spans(suggest, floor=0.6, per_token=3)[(0, 5)]] == ["golden", "goodness"]
    free = replace(COSTS, completed=0.0)
    assert [t for _, t in _spans(suggest, floor=0.6, per_token=3, costs=free)[(0, 5)]] == ["goodness", "golden"]


def test_the_best_corrected_start_keeps_a_seat_beside_whole_words():
    """ "python streq" showed "python streak" on 080f589: three whole words two edits away (0.82)
    filled the word's options, and "stream", the completion of "strea" (one key off, 0.81), was
    never searched, though "Python Stream Processing" holds it (bench/asyoutype.py, cut_inner_typo).
    The best completion now keeps a seat, the best scored, then by its start's edits: "language" through
    "langua" before "lingual", as near through "lingua" but held by one post."""
    from search.querying.suggestions import _spans

    whole = [{"text": w, "freq": 1} for w in ("streak", "strega", "struc")]
    started = [{"text": "stream", "prefix": "strea", "freq": 113}, {"text": "street", "prefix": "stree", "freq": 18}]
    suggest = {"title_terms": [{"text": "streq", "offset": 7, "length": 5, "options": whole}, {"text": "streq", "offset": 7, "length": 5, "options": started}]}
    assert [t for _, t in _spans(suggest, floor=0.6, per_token=3)[(7, 5)]] == ["streak", "strega", "struc", "stream"]
    suggest["title_terms"] = suggest["title_terms"][:1]
    assert [t for _, t in _spans(suggest, floor=0.6, per_token=3)[(7, 5)]] == ["streak", "strega", "struc"]  # no completion: no seat
    options = [{"text": "lingual", "prefix": "lingua", "freq": 1}, {"text": "language", "prefix": "langua", "freq": 522}, {"text": "langa", "freq": 4}]
    suggest = {"title_terms": [{"text": "lngua", "offset": 0, "length": 5, "options": options}]}
    assert [t for _, t in _spans(suggest, floor=0.6, per_token=1)[(0, 5)]] == ["langa", "language"]


def test_the_spellings_share_their_words_bm25_clauses():
    """A word two spellings hold is read once, weighed the sum of their boosts: the same score as a
    clause per spelling (BM25 sums the terms), one pass over a common word's documents."""
    alts = [Alternative(1.1, "Firefix extension", typed=True), Alternative(0.9, "firefox extension"), Alternative(0.5, "firefox extensions")]
    w = weights(alts)
    q = build_query(alts, tiers=TIERS, title_boost=2, relevance_weight=0.01)
    some = {c["multi_match"]["_name"]: c["multi_match"] for c in q["bool"]["should"] if "multi_match" in c}
    assert {name: (m["query"], m["boost"]) for name, m in some.items()} == {
        "alt0.some.words": ("Firefix", 0.01),
        "alt0+1.some.words": ("extension", round(0.01 + round(0.01 * w[1], 6), 6)),
        "alt1+2.some.words": ("firefox", round(round(0.01 * w[1], 6) + round(0.01 * w[2], 6), 6)),
        "alt2.some.words": ("extensions", round(0.01 * w[2], 6)),
    }
    assert {m["type"] for m in some.values()} == {"most_fields"}
    # A hit holding only the shared word matched both spellings; the first of them decides.
    assert matched_alternative({"matched_queries": ["alt1+2.some.words"]}) == 1
    assert matched_tier({"matched_queries": ["alt0+1.some.words"]}) == "some.words"
    assert matched_alternative({"matched_queries": ["alt0+x.some.words"]}) is None


def test_a_word_typed_twice_keeps_its_weight_and_every_clause_its_own_name():
    """A word one alternative holds twice ("react vs react native") is written twice in the clause
    of the alternatives holding it twice: a clause per alternative counted it twice. A name is
    once in a query (Elasticsearch keeps one query per name): a second clause of the same name
    left a hit holding only that word without its alternative."""
    alts = [Alternative(1.1, "reakt vs reakt natve", typed=True), Alternative(0.9, "react vs react native"), Alternative(0.5, "react")]
    w = weights(alts)
    q = build_query(alts, tiers=TIERS, title_boost=2, relevance_weight=0.01)
    some = [c["multi_match"] for c in q["bool"]["should"] if "multi_match" in c]
    names = [m["_name"] for m in some]
    assert len(names) == len(set(names))
    b = [round(0.01 * x, 6) for x in w]
    assert {m["_name"]: (sorted(m["query"].split()), m["boost"]) for m in some} == {
        "alt0.some.words": (["natve", "reakt", "reakt"], b[0]),
        "alt0+1.some.words": (["vs"], round(b[0] + b[1], 6)),
        "alt1+2.some.words": (["react"], round(b[1] + b[2], 6)),  # its first "react"
        "alt1.some.words": (["native", "react"], b[1]),  # its second
    }
    # Each spelling's count filter is its whole BM25 clause again: the tiers it covers are left out.
    from search.querying import groups

    tiers = {"title.exact.phrase": 64, "title.exact.words": 32, "all.words": 1}
    found = groups.filters(build_query(alts, tiers=tiers, title_boost=2, relevance_weight=0.01), alts)
    assert all([c["multi_match"]["type"] for c in bucket["bool"]["should"]] == ["most_fields"] for bucket in found.values())


def test_a_synonym_alternative_keeps_its_own_bm25_clause():
    """The rules' words are read with their own analyzer: a synonym alternative shares nothing."""
    alts = [Alternative(1.1, "js tips", typed=True), Alternative(0.9, "js tips", synonym_of="js tips", rewrites=("js",))]
    q = build_query(alts, tiers=TIERS, title_boost=2, relevance_weight=0.01)
    some = [c["multi_match"] for c in q["bool"]["should"] if "multi_match" in c]
    assert [(m["_name"], m.get("analyzer")) for m in some] == [("alt0.some.words", None), ("alt1.some.words", STEM_SYNONYMS)]


def test_a_prefix_is_folded_as_the_titles_words_are_but_other_scripts_are_left_alone():
    """A reader's review: "Einfü" started nothing ("einfuhrung" is indexed folded); a review of
    the fix: "Αθήν" must not lose its accent, which asciifolding keeps."""
    from search.querying.query import as_prefix

    assert as_prefix("Einfü") == "einfu" and as_prefix("Straß") == "strass" and as_prefix("C#") == "csharp"
    assert as_prefix("Αθήν") == "αθήν" and as_prefix("Йог") == "йог"
