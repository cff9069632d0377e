"""Elasticsearch answers -> what the reader sees (pure, no I/O; tested as plain dicts)."""

from search.alternative import Alternative
from search.documents import Hit, result_of
from search.querying.query import PHRASE, PHRASE_TIERS, WORDS, matched_alternative, matched_tier


def total(response: dict) -> int:
    return int(response["hits"]["total"]["value"])


def hit(raw: dict) -> Hit:
    """A result from a raw hit (search/documents.py reads its source), with the tier it reached."""
    found = result_of(raw)
    found.tier = matched_tier(raw) or ""
    return found


def read(response: dict, alternatives: list[Alternative]) -> tuple[list[Hit], int, str, str]:
    """(hits, total, strategy, showing_for): the strategy is how the top hit was found (a phrase or
    words); showing_for the correction that put it first, when it is not what was typed."""
    raw_hits = response["hits"]["hits"]
    hits = [hit(h) for h in raw_hits]
    strategy, showing_for = PHRASE, ""
    if raw_hits:
        strategy = PHRASE if hits[0].tier in PHRASE_TIERS else WORDS
        best = matched_alternative(raw_hits[0])
        if best:  # neither None nor 0 (what was typed)
            showing_for = alternatives[best].text
    return hits, total(response), strategy, showing_for
