"""Alternatives -> Elasticsearch request bodies (pure, no I/O; tested as plain dicts).

One boosted OR-query over every alternative: for the i-th of n alternatives with score s the boost
is b = (n - i) * s; `title` gets TITLE_BOOST * b, `text` b and the comment's `comment` field
COMMENT_BOOST * b. Posts and comments are searched in one request across both aliases, so their
hits come back merged by score. Each clause is named `alt<i>.<field>` (names must be unique: Elasticsearch keeps one query per
name) so a hit tells which alternative it matched (for "Showing results for ...").
"""
import re

from search.stopwords import is_stop_word
from search.suggestions import Alternative

MATCH_PHRASE = "match_phrase"
MATCH = "match"
SOURCE_FIELDS = ["doc_type", "post_id", "comment_id", "title", "post_title", "url", "summary", "author", "pub_date"]
_WORD = re.compile(r"\w+", re.UNICODE)


def without_stop_words(text: str) -> str:
    return " ".join(w for w in _WORD.findall(text) if not is_stop_word(w))


def boosts(alternatives: list[Alternative], *, title_boost: float, comment_boost: float) -> list[dict]:
    """Per alternative: its title, text and comment boosts, highest first."""
    n = len(alternatives)
    out = []
    for i, alt in enumerate(alternatives):
        b = (n - i) * alt.score
        out.append({"title": round(title_boost * b, 4), "text": round(b, 4), "comment": round(comment_boost * b, 4)})
    return out


def build_query(alternatives: list[Alternative], *, strategy: str, title_boost: float, comment_boost: float) -> dict:
    """The bool query: any clause may match; only published (pub_date passed) documents."""
    should = []
    for i, (alt, b) in enumerate(zip(alternatives, boosts(alternatives, title_boost=title_boost, comment_boost=comment_boost))):
        text = alt.text if strategy == MATCH_PHRASE else without_stop_words(alt.text)
        if not text:
            continue
        for field in ("title", "text", "comment"):
            should.append({strategy: {field: {"query": text, "boost": b[field], "_name": f"alt{i}.{field}"}}})
    return {
        "bool": {
            "should": should,
            "minimum_should_match": 1,
            # Rounded to the minute so Elasticsearch can cache the filter.
            "filter": [{"range": {"pub_date": {"lte": "now/m"}}}],
        }
    }


def search_body(query: dict, *, page: int, page_size: int, fragment_size: int, suggest: dict | None = None,
                aggs: dict | None = None) -> dict:
    """The full request: the query, the page, highlighting (HTML-escaped by Elasticsearch) and suggest."""
    snippet = {"fragment_size": fragment_size, "number_of_fragments": 1, "no_match_size": fragment_size}
    body = {
        "query": query,
        "from": (page - 1) * page_size,
        "size": page_size,
        "_source": SOURCE_FIELDS,
        "highlight": {
            "encoder": "html",
            "pre_tags": ["<mark>"],
            "post_tags": ["</mark>"],
            "fields": {"title": {"number_of_fragments": 0}, "text": snippet, "comment": snippet},
        },
    }
    if suggest:
        body["suggest"] = suggest
    if aggs:
        body["aggs"] = aggs
    return body


def matched_alternative(hit: dict) -> int | None:
    """The best-ranked alternative (lowest index) a hit matched, from its named clauses."""
    indices = []
    for name in hit.get("matched_queries", []):
        head = name.split(".", 1)[0]
        if head.startswith("alt") and head[3:].isdigit():
            indices.append(int(head[3:]))
    return min(indices) if indices else None
