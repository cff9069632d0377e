"""The searches ours is measured against (bench/ and the baseline views): no typo handling,
Elasticsearch's own `fuzziness: AUTO`, and PostgreSQL full-text search on the same data.

They return post ids best first, plus the total, so the relevance and load benchmarks compare
like with like. Not used by the product's own search.
"""
from django.db import connection

from search.client import get_client
from search.documents import alias_name

# The weighted document PostgreSQL searches: title weighs more than the body, as in ours.
# The same expression is indexed (GIN) by migration search/0003, so the planner uses that index.
PG_DOCUMENT = ("setweight(to_tsvector('english', coalesce(title, '')), 'A') || "
               "setweight(to_tsvector('english', coalesce(body_text, '')), 'B')")


STEMMED_FIELDS = ["title^2", "text", "comment"]
EXACT_FIELDS = ["title.exact^2", "text.exact", "comment.exact"]  # the words as written


def _multi_match_response(query: str, *, size: int, fuzzy: bool, highlight: bool, client=None, exact: bool = False) -> dict:
    clause = {"query": query, "fields": EXACT_FIELDS if exact else STEMMED_FIELDS}
    if fuzzy:
        clause["fuzziness"] = "AUTO"
    body = {"query": {"bool": {"must": {"multi_match": clause}, "filter": [{"range": {"pub_date": {"lte": "now/m"}}}]}},
            "size": size, "_source": ["post_id", "doc_type", "title", "post_title", "url"]}
    if highlight:  # the same highlighting our search does, so the load test compares like with like
        snippet = {"fragment_size": 160, "number_of_fragments": 1, "no_match_size": 160}
        body["highlight"] = {"encoder": "html", "pre_tags": ["<mark>"], "post_tags": ["</mark>"],
                             "fields": {"title": {"number_of_fragments": 0}, "text": snippet, "comment": snippet}}
    return (client or get_client()).search(index=f"{alias_name('posts')},{alias_name('comments')}", **body).body


def multi_match(query: str, *, size: int = 10, fuzzy: bool = False, exact: bool = False, client=None) -> tuple[list[int | None], int]:
    """Post ids, best first (None where a comment ranks), and the total."""
    response = _multi_match_response(query, size=size, fuzzy=fuzzy, highlight=False, client=client, exact=exact)
    ids = [h["_source"]["post_id"] if h["_source"].get("doc_type") == "post" else None for h in response["hits"]["hits"]]
    return ids, response["hits"]["total"]["value"]


def multi_match_hits(query: str, *, size: int = 10) -> tuple[list[dict], int]:
    """Result rows like our API's, for the baseline view."""
    if not query:
        return [], 0
    response = _multi_match_response(query, size=size, fuzzy=False, highlight=True)
    hits = []
    for h in response["hits"]["hits"]:
        src, hl = h["_source"], h.get("highlight", {})
        hits.append({"type": src.get("doc_type"), "post_id": src.get("post_id"), "url": src.get("url"),
                     "title": src.get("title") or src.get("post_title"), "score": h["_score"],
                     "highlight": (hl.get("comment") or hl.get("text") or [""])[0]})
    return hits, response["hits"]["total"]["value"]


def postgres_fts(query: str, *, size: int = 10) -> tuple[list[int], int]:
    rows = _postgres_rows(query, size=size)
    return [r[0] for r in rows], (rows[0][-1] if rows else 0)


def postgres_hits(query: str, *, size: int = 10) -> tuple[list[dict], int]:
    if not query:
        return [], 0
    from blog.models import post_url

    rows = _postgres_rows(query, size=size)
    hits = [{"type": "post", "post_id": pk, "url": post_url(slug), "title": title, "score": rank}
            for pk, title, slug, rank, _ in rows]
    return hits, (rows[0][-1] if rows else 0)


def _postgres_rows(query: str, *, size: int) -> list[tuple]:
    sql = f"""
        WITH q AS (SELECT websearch_to_tsquery('english', %s) AS tsq)
        SELECT id, title, slug, ts_rank({PG_DOCUMENT}, q.tsq), count(*) OVER () FROM blog_post, q
        WHERE published AND pub_date <= now() AND {PG_DOCUMENT} @@ q.tsq
        ORDER BY ts_rank({PG_DOCUMENT}, q.tsq) DESC, id
        LIMIT %s
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, [query, size])
        return cursor.fetchall()
