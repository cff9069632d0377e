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


def multi_match(query: str, *, size: int = 10, fuzzy: bool = False, client=None) -> tuple[list[int], int]:
    clause = {"query": query, "fields": ["title^2", "text", "comment"]}
    if fuzzy:
        clause["fuzziness"] = "AUTO"
    body = {"query": {"bool": {"must": {"multi_match": clause}, "filter": [{"range": {"pub_date": {"lte": "now/m"}}}]}},
            "size": size, "_source": ["post_id", "doc_type"]}
    response = (client or get_client()).search(index=f"{alias_name('posts')},{alias_name('comments')}", **body).body
    ids = [h["_source"]["post_id"] for h in response["hits"]["hits"] if h["_source"].get("doc_type") == "post"]
    return ids, response["hits"]["total"]["value"]


def postgres_fts(query: str, *, size: int = 10) -> tuple[list[int], int]:
    sql = f"""
        WITH q AS (SELECT websearch_to_tsquery('english', %s) AS tsq)
        SELECT id, count(*) OVER () FROM blog_post, q
        WHERE published AND pub_date <= now() AND {PG_DOCUMENT} @@ q.tsq
        ORDER BY ts_rank({PG_DOCUMENT}, q.tsq) DESC, id
        LIMIT %s
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, [query, size])
        rows = cursor.fetchall()
    return [r[0] for r in rows], (rows[0][1] if rows else 0)
