"""Elasticsearch answers -> what the reader sees (pure, no I/O; tested as plain dicts)."""

from search.alternative import Alternative
from search.documents import Hit, result_of
from search.querying.query import PHRASE, PHRASE_TIERS, WORDS, best_match, matched_alternative, matched_tier


def total(response: dict) -> int:
    return int(response["hits"]["total"]["value"])


def hit(raw: dict) -> Hit:
    """A result from a raw hit (search/documents.py reads its source), with the tier it reached."""
    found = result_of(raw)
    found.tier = matched_tier(raw) or ""
    return found


def read(response: dict, alternatives: list[Alternative], *, by_date: bool = False) -> tuple[list[Hit], int, str, str]:
    """(hits, total, strategy, showing_for): the strategy is how the top hit was found (a phrase or
    words); showing_for the correction that put it first, when it is not what was typed. Ordered
    by date, the first hit is only the newest: the best match of the page stands for the query."""
    raw_hits = response["hits"]["hits"]
    hits = [hit(h) for h in raw_hits]
    strategy, showing_for = PHRASE, ""
    if raw_hits:
        top = best_match(raw_hits) if by_date else raw_hits[0]
        strategy = PHRASE if matched_tier(top) in PHRASE_TIERS else WORDS
        best = matched_alternative(top)
        if best:  # neither None nor 0 (what was typed)
            showing_for = alternatives[best].text
    return hits, total(response), strategy, showing_for
