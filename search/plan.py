"""What to ask Elasticsearch for a reader's query, as plain request bodies (pure, no I/O).

The service (search/service.py) runs a plan in at most two round trips:

1. `first_request`: the search for what was typed, plus the three term suggesters and the
   known-word counts. When nothing is misspelled its hits are the answer: one round trip.
2. `alternatives_request`: when the suggestions give alternatives, the tiered query over all of
   them (search/query.py).

`choose_alternatives` turns the first answer (or the word cache's copy of it) into alternatives.
"""
from search.query import build_query, highlight_query, search_body
from search.suggestions import (
    Alternative,
    alternatives,
    in_code_points,
    known_spans,
    known_words_aggregation,
    suggest_block,
    suggestable,
)


def _body(alts: list[Alternative], *, page: int, conf: dict, **extra) -> dict:
    query = build_query(alts, tiers=conf["TIERS"], title_boost=conf["TITLE_BOOST"], relevance_weight=conf["RELEVANCE_WEIGHT"])
    return search_body(query, page=page, page_size=conf["PAGE_SIZE"], fragment_size=conf["HIGHLIGHT_FRAGMENT_SIZE"],
                       highlight=highlight_query(alts), **extra)


def typed(query: str, conf: dict) -> list[Alternative]:
    return [Alternative(conf["TYPED_SCORE"], query, typed=True)]


def first_request(query: str, *, page: int, conf: dict) -> dict:
    """The typed query's search, with the suggesters and the known-word counts riding along."""
    text = suggestable(query, max_words=conf["MAX_SUGGEST_WORDS"], max_word_length=conf["MAX_SUGGEST_WORD_LENGTH"])
    return _body(typed(query, conf), page=page, conf=conf, suggest=suggest_block(text, options=conf["SUGGESTER"]),
                 aggs=known_words_aggregation(query))


def alternatives_request(alts: list[Alternative], *, page: int, conf: dict) -> dict:
    return _body(alts, page=page, conf=conf)


def suggestions_of(query: str, response: dict) -> tuple[dict, dict]:
    """(suggest, aggregations) of a first answer, offsets in Python string indices."""
    return in_code_points(query, response.get("suggest", {})), response.get("aggregations", {})


def choose_alternatives(query: str, suggest: dict, aggregations: dict, *, conf: dict) -> list[Alternative]:
    """What was typed, then the best corrections (search/suggestions.py)."""
    return alternatives(
        query, suggest, typed_score=conf["TYPED_SCORE"], floor=conf["MIN_SUGGESTION_SCORE"],
        max_alternatives=conf["MAX_ALTERNATIVES"], per_token=conf["MAX_OPTIONS_PER_WORD"], costs=conf["TYPO_COSTS"],
        known=known_spans(query, aggregations, min_docs=conf["KNOWN_WORD_MIN_DOCS"]),
        present=known_spans(query, aggregations, min_docs=1), keep_present=conf["KEEP_PRESENT_SCORE"],
    )
