"""What an empty results page offers instead: the newest posts and the commonest tags (pure;
plain dicts).

A page that finds nothing (a word the blog lacks, a typo past correcting) used to leave the
reader with advice alone. One small request of the posts' index answers both: its newest posts
and a terms aggregation of the tags. A post's document carries its tags, so the counts are posts.
"""

from search.documents import RESULT_FIELDS
from search.querying.results import Hit, result_of

TAGS = "tags"


def request(*, posts: int, tags: int) -> dict:
    """The newest published posts and the `tags` commonest tags, one request of the posts' index."""
    return {
        "size": posts,
        "track_total_hits": False,
        "_source": list(RESULT_FIELDS),
        "query": {"bool": {"filter": [{"range": {"pub_date": {"lte": "now/m"}}}]}},
        "sort": [{"pub_date": {"order": "desc"}}, {"post_id": {"order": "desc"}}],
        "aggs": {TAGS: {"terms": {"field": "tags", "size": tags}}} if tags else {},
    }


def read(response: dict) -> tuple[list[Hit], list[tuple[str, int]]]:
    """(the newest posts, the commonest tags with their counts, commonest first)."""
    posts = [result_of(h) for h in response.get("hits", {}).get("hits", [])]
    buckets = response.get("aggregations", {}).get(TAGS, {}).get("buckets", [])
    return posts, [(b["key"], int(b["doc_count"])) for b in buckets]
