"""Elasticsearch answers -> what the reader sees (pure, no I/O; tested as plain dicts)."""
from dataclasses import dataclass

from search.query import MATCH, MATCH_PHRASE, PHRASE_TIERS, matched_alternative, matched_tier
from search.suggestions import Alternative


@dataclass
class Hit:
    type: str  # "post" | "comment"
    id: int
    post_id: int
    title: str
    url: str
    score: float
    title_html: str  # highlighted, HTML-escaped by Elasticsearch
    snippet_html: str  # highlighted, HTML-escaped by Elasticsearch
    pub_date: str = ""
    author: str = ""
    tier: str = ""  # the best tier of the query it reached (search/query.py), for the debug table


def total(response: dict) -> int:
    return int(response["hits"]["total"]["value"])


def hit(raw: dict) -> Hit:
    src, hl = raw["_source"], raw.get("highlight", {})
    is_comment = src.get("doc_type") == "comment"
    return Hit(
        type="comment" if is_comment else "post",
        id=int(src["comment_id"] if is_comment else src["post_id"]),
        post_id=int(src["post_id"]),
        title=src.get("post_title" if is_comment else "title", ""),
        url=src.get("url", ""),
        score=round(float(raw.get("_score") or 0.0), 4),
        title_html="" if is_comment else (hl.get("title") or [""])[0],
        snippet_html=(hl.get("comment") or hl.get("text") or [""])[0],
        pub_date=src.get("pub_date", ""),
        author=src.get("author", ""),
        tier=matched_tier(raw) or "",
    )


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
