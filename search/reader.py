"""Elasticsearch answers -> what the reader sees (pure, no I/O; tested as plain dicts)."""
from search.documents import Hit, result_of
from search.query import MATCH, MATCH_PHRASE, PHRASE_TIERS, matched_alternative, matched_tier
from search.suggestions import Alternative


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
    strategy, showing_for = MATCH_PHRASE, ""
    if raw_hits:
        strategy = MATCH_PHRASE if hits[0].tier in PHRASE_TIERS else MATCH
        best = matched_alternative(raw_hits[0])
        if best:  # neither None nor 0 (what was typed)
            showing_for = alternatives[best].text
    return hits, total(response), strategy, showing_for
