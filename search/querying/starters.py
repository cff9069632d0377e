"""What an empty results page offers instead: the newest posts and the commonest tags (pure;
plain dicts).

A page that finds nothing (a word the blog lacks, a typo past correcting) used to leave the
reader with advice alone. One small request of the posts' index answers both: its newest posts
and a terms aggregation of the tags. A post's document carries its tags, so the counts are posts.
When the page offers "Did you mean ...?", the same request fetches how the blog writes the words
offered (`spell`): a few posts holding them, highlighted, which search/querying/spelling.py reads
("developpeur" is "développeur").
"""

from search.documents import EXACT, RESULT_FIELDS, SEARCHED_FIELDS
from search.querying.results import Hit, result_of
from search.querying.spelling import plain

TAGS = "tags"
SPELLED = "spelled"
# The posts read for the written form of the words offered, and each one's fragments.
SPELLED_POSTS = 3
SPELLED_FRAGMENTS = 2
SPELLED_TEXT = 100_000


def request(*, posts: int, tags: int, spell: str = "") -> dict:
    """The newest published posts and the `tags` commonest tags, one request of the posts' index;
    with `spell`, a few posts holding those words, highlighted where they hold them."""
    aggs = {TAGS: {"terms": {"field": "tags", "size": tags}}} if tags else {}
    if spell:
        fields = [f"{field}.{EXACT}" for field in SEARCHED_FIELDS]
        holding = {"multi_match": {"query": spell, "fields": fields}}
        shown = {field: {"number_of_fragments": SPELLED_FRAGMENTS, "fragment_size": 60} for field in fields}
        # The request's own query is a filter: the highlight is told what to mark.
        # The exact fields store no offsets: the highlighter reads the text again, the first
        # SPELLED_TEXT characters only (a longer post would fail the request).
        marked = {"fields": shown, "require_field_match": True, "highlight_query": holding, "max_analyzed_offset": SPELLED_TEXT}
        aggs[SPELLED] = {"filter": holding, "aggs": {"posts": {"top_hits": {"size": SPELLED_POSTS, "_source": False, "highlight": marked}}}}
    return {
        "size": posts,
        "track_total_hits": False,
        "_source": list(RESULT_FIELDS),
        "query": {"bool": {"filter": [{"range": {"pub_date": {"lte": "now/m"}}}]}},
        "sort": [{"pub_date": {"order": "desc"}}, {"post_id": {"order": "desc"}}],
        "aggs": aggs,
    }


def read(response: dict) -> tuple[list[Hit], list[tuple[str, int]]]:
    """(the newest posts, the commonest tags with their counts, commonest first)."""
    posts = [result_of(h) for h in response.get("hits", {}).get("hits", [])]
    buckets = response.get("aggregations", {}).get(TAGS, {}).get("buckets", [])
    return posts, [(b["key"], int(b["doc_count"])) for b in buckets]


def spelled(response: dict) -> list[str]:
    """The text of the fragments that hold the words asked about (request's `spell`)."""
    hits = response.get("aggregations", {}).get(SPELLED, {}).get("posts", {}).get("hits", {}).get("hits", [])
    return [plain(fragment) for h in hits for fragments in h.get("highlight", {}).values() for fragment in fragments]
