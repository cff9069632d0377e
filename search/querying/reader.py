"""Elasticsearch answers -> what the reader sees (pure, no I/O; tested as plain dicts)."""

from search.alternative import Alternative
from search.documents import Kind
from search.querying import facets
from search.querying.query import MATCHES, PHRASE, PHRASE_TIERS, WORDS, best_match, matched_alternative, matched_tier
from search.querying.results import CommentMatch, Hit, result_of


def total(response: dict) -> int:
    """Matching posts when the answer counts them (facets.aggregations), else matching documents."""
    posts = facets.total(response.get("aggregations", {}))
    if posts is not None:
        return posts
    hits = response.get("hits", {})
    return int(hits.get("total", {}).get("value", len(hits.get("hits", []))))


def hit(raw: dict) -> Hit:
    """A result from a raw hit (search/documents.py reads its source), with the tier it reached."""
    found = result_of(raw)
    found.tier = matched_tier(raw) or ""
    return found


def _comment(found: Hit) -> CommentMatch:
    return CommentMatch(id=found.id, author=found.author, url=found.url, snippet_html=found.snippet_html)


def entry(raw: dict) -> Hit:
    """One entry per post from a collapsed hit: the post, at the rank of its best matching document.
    Led by a comment, the entry still names and links the post, and shows that comment inside it."""
    head = hit(raw)
    if head.type != Kind.COMMENTS.entry:
        return head
    return Hit(
        type=Kind.POSTS.entry,
        id=head.post_id,
        post_id=head.post_id,
        title=head.title,
        url=head.url.split("#", 1)[0],
        score=head.score,
        title_html="",
        snippet_html=head.snippet_html,
        pub_date=head.pub_date,
        tier=head.tier,
        matched=Kind.COMMENTS.entry,
        comments=(_comment(head),),
    )


def with_comments(entries: list[Hit], response: dict) -> None:
    """Each entry's best matching comments and how many more match, from query.comments_body()'s answer."""
    buckets = {int(b["key"]): b for b in response.get("aggregations", {}).get(MATCHES, {}).get("buckets", [])}
    for found in entries:
        bucket = buckets.get(found.post_id)
        if bucket is None:
            continue
        found.comments = tuple(_comment(result_of(h)) for h in bucket["best"]["hits"]["hits"])
        found.more_comments = max(0, int(bucket["doc_count"]) - len(found.comments))


def read(response: dict, alternatives: list[Alternative], *, by_date: bool = False) -> tuple[list[Hit], int, str, str]:
    """(hits, total, strategy, showing_for): the strategy is how the top hit was found (a phrase or
    words); showing_for the correction that put it first, when it is not what was typed. Ordered
    by date, the first hit is only the newest: the best match of the page stands for the query.
    One hit per post (entry())."""
    raw_hits = response["hits"]["hits"]
    hits = [entry(h) for h in raw_hits]
    strategy, showing_for = PHRASE, ""
    if raw_hits:
        top = best_match(raw_hits) if by_date else raw_hits[0]
        strategy = PHRASE if matched_tier(top) in PHRASE_TIERS else WORDS
        best = matched_alternative(top)
        if best:  # neither None nor 0 (what was typed)
            # A synonym is not a correction: name the alternative it rewrote, unless that was typed.
            alt = alternatives[best]
            source = alt.synonym_of or alt.text
            showing_for = "" if source == alternatives[0].text else source
    return hits, total(response), strategy, showing_for
