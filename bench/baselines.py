"""The searches ours is measured against (the relevance and load benchmarks): no typo handling,
Elasticsearch's own `fuzziness: AUTO` and `simple_query_string` (the reader's syntax), and
PostgreSQL full-text search on the same data.

They return post ids best first, plus the total, so the benchmarks compare like with like. Not
part of the product: bench/views.py serves them only when SEARCH["BASELINE_VIEWS"] is on.
"""

from django.db import connection

from search import conf
from search.aliases import alias_name
from search.client import get_client
from search.documents import EXACT, SEARCHED_FIELDS
from search.querying.query import search_body

# The weighted document PostgreSQL searches: title weighs more than the body, as in ours.
# The same expression is indexed (GIN) by migration search/0003, so the planner uses that index.
PG_DOCUMENT = "setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(body_text, '')), 'B')"


def _fields(exact: bool) -> list[str]:
    """The searched fields (or their words as written), the title weighing TITLE_BOOST times."""
    names = [f"{field}.{EXACT}" if exact else field for field in SEARCHED_FIELDS]
    return [f"{names[0]}^{conf.get().ranking.title_boost:g}", *names[1:]]


def _multi_match_response(query: str, *, size: int, fuzzy: bool, highlight: bool, client=None, exact: bool = False, snippets: bool = True) -> dict:
    clause = {"query": query, "fields": _fields(exact)}
    if fuzzy:
        clause["fuzziness"] = "AUTO"
    query_ = {"bool": {"must": {"multi_match": clause}, "filter": [{"range": {"pub_date": {"lte": "now/m"}}}]}}
    # The same body as our search (highlighting included), so the load test compares like with like.
    body = search_body(query_, page=1, page_size=size, fragment_size=conf.get().serving.highlight_fragment_size, snippets=snippets)
    if not highlight:
        del body["highlight"]
    return (client or get_client()).search(index=f"{alias_name('posts')},{alias_name('comments')}", **body).body


def multi_match(query: str, *, size: int = 10, fuzzy: bool = False, exact: bool = False, client=None) -> tuple[list[int | None], int]:
    """Post ids, best first (None where a comment ranks), and the total."""
    response = _multi_match_response(query, size=size, fuzzy=fuzzy, highlight=False, client=client, exact=exact)
    ids = [h["_source"]["post_id"] if h["_source"].get("doc_type") == "post" else None for h in response["hits"]["hits"]]
    return ids, response["hits"]["total"]["value"]


def bool_prefix(query: str, *, size: int = 10, fuzzy: bool = False, client=None) -> tuple[list[int | None], int]:
    """Elasticsearch's own as-you-type search: `multi_match` of type `bool_prefix` on the words as
    written (every word a term, the last also a prefix), title weighing TITLE_BOOST times."""
    clause = {"query": query, "fields": _fields(True), "type": "bool_prefix"}
    if fuzzy:
        clause["fuzziness"] = "AUTO"
    body = {
        "query": {"bool": {"must": {"multi_match": clause}, "filter": [{"range": {"pub_date": {"lte": "now/m"}}}]}},
        "size": size,
        "_source": ["doc_type", "post_id"],
    }
    response = (client or get_client()).search(index=f"{alias_name('posts')},{alias_name('comments')}", **body).body
    ids = [h["_source"]["post_id"] if h["_source"].get("doc_type") == "post" else None for h in response["hits"]["hits"]]
    return ids, response["hits"]["total"]["value"]


def simple_query_string(query: str, *, size: int = 10, client=None) -> tuple[list[int], int]:
    """Elasticsearch's own query syntax for readers (`"phrases"`, `-exclusions`): `simple_query_string`
    on the searched fields (title 2x), every word required (default_operator and), one entry per
    post (collapsed on post_id: a post found through a comment counts as the post, at the rank of
    its best document, as ours). Post ids best first, and the number of posts."""
    clause = {"query": query, "fields": [f"{SEARCHED_FIELDS[0]}^2", *SEARCHED_FIELDS[1:]], "default_operator": "and"}
    body = {
        "query": {"bool": {"must": {"simple_query_string": clause}, "filter": [{"range": {"pub_date": {"lte": "now/m"}}}]}},
        "size": size,
        "_source": ["post_id"],
        "collapse": {"field": "post_id"},
        "aggs": {"posts": {"cardinality": {"field": "post_id"}}},
    }
    response = (client or get_client()).search(index=f"{alias_name('posts')},{alias_name('comments')}", **body).body
    return [h["_source"]["post_id"] for h in response["hits"]["hits"]], response["aggregations"]["posts"]["value"]


def multi_match_hits(query: str, *, size: int = 10, fuzzy: bool = False, snippets: bool = True) -> tuple[list[dict], int]:
    """Result rows like our API's, for the baseline view (titles only highlighted without `snippets`, as ours)."""
    if not query:
        return [], 0
    response = _multi_match_response(query, size=size, fuzzy=fuzzy, highlight=True, snippets=snippets)
    hits = []
    for h in response["hits"]["hits"]:
        src, hl = h["_source"], h.get("highlight", {})
        hits.append(
            {
                "type": src.get("doc_type"),
                "post_id": src.get("post_id"),
                "url": src.get("url"),
                "title": src.get("title") or src.get("post_title"),
                "score": h["_score"],
                "highlight": (hl.get("comment") or hl.get("text") or [""])[0],
            }
        )
    return hits, response["hits"]["total"]["value"]


def postgres_fts(query: str, *, size: int = 10) -> tuple[list[int], int]:
    rows = _postgres_rows(query, size=size)
    return [r[0] for r in rows], (rows[0][-1] if rows else 0)


def postgres_hits(query: str, *, size: int = 10) -> tuple[list[dict], int]:
    if not query:
        return [], 0
    from blog.models import post_url

    rows = _postgres_rows(query, size=size)
    hits = [{"type": "post", "post_id": pk, "url": post_url(slug), "title": title, "score": rank} for pk, title, slug, rank, _ in rows]
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
