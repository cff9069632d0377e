"""Narrowing a query by tag and year, and the counts a reader chooses from (pure; plain dicts).

Entries are posts, one document each, holding their comments' text (search/documents.py), so
every count here is a document count: a post found only by its comments counts too.

The reader's filters apply as a `post_filter`, after the aggregations: a facet's counts are those
of the query narrowed by the *other* facet (the years of the chosen tags, the tags of the chosen
year and the chosen tags), so choosing a year leaves the other years in view. Several tags must
all hold (each narrows further), a year is one of them at a time.
"""

import json
from dataclasses import dataclass

# The one name of each aggregation in a request, read back by read() below.
ENTRIES, TAGS, YEARS, BUCKETS = "entries", "tags", "years", "values"
# With several spellings: the counts per spelling (search/querying/groups.py), and the best hit of
# the query before the filters, which decides the correction (search/querying/reader.py).
SPELLINGS, TOP = "spellings", "top"
_TOP = {"top_hits": {"size": 1, "_source": False}}


@dataclass(frozen=True)
class Filters:
    tags: tuple[str, ...] = ()
    year: int | None = None

    def __bool__(self) -> bool:
        return bool(self.tags or self.year)

    def key(self) -> str:
        """Part of the result cache's key: the same filters in any order are one entry; exact
        (tags are case-sensitive keywords) and unambiguous (JSON, whatever a tag holds)."""
        return json.dumps([sorted(set(self.tags)), self.year]) if self else ""


NONE = Filters()


@dataclass
class Facets:
    tags: list[tuple[str, int]]  # the most common tags among the matching posts, with their counts
    years: list[tuple[int, int]]  # every year with a matching post, newest first


def _tag_clauses(filters: Filters) -> list[dict]:
    return [{"term": {"tags": tag}} for tag in dict.fromkeys(filters.tags)]


def _year_clauses(filters: Filters) -> list[dict]:
    if not filters.year:
        return []
    return [{"range": {"pub_date": {"gte": f"{filters.year:04d}-01-01", "lt": f"{filters.year + 1:04d}-01-01"}}}]


def _all_of(clauses: list[dict]) -> dict:
    return {"bool": {"filter": clauses}} if clauses else {"match_all": {}}


def post_filter(filters: Filters) -> dict | None:
    """What narrows the hits (not the counts): every chosen tag and the year."""
    clauses = _tag_clauses(filters) + _year_clauses(filters)
    return _all_of(clauses) if clauses else None


def aggregations(filters: Filters, *, facets: bool, top_tags: int, spellings: dict | None = None, top: bool = False) -> dict:
    """The counts an answer needs, none when it needs none: then the hits count themselves up to
    a bound (query.search_body's `count_up_to`), which lets Elasticsearch skip the documents that
    cannot make the page. Facets and spellings visit every matching document, so beside them the
    number of matching posts is counted exactly at little cost; the deciding hit (`top`) alone
    leaves the count to the hits, so every page of a query counts alike.

    With `facets` the tag and year counts (the results page only; never the instant requests).
    With `spellings` (a filter per spelling, groups.filters()) each is counted apart, so the page
    counts only the posts of the spelling it stands for, and the posts of all of them are counted
    too: the pages list those. With `top`, the best hit before the filters (aggregations see the
    query, not the `post_filter`): what the query means never depends on a filter, an order or a page."""
    if not (facets or spellings):  # the hits count themselves, up to the bound
        return {TOP: _TOP} if top else {}
    counts = _counts(filters, facets=facets, top_tags=top_tags)
    aggs = {SPELLINGS: {"filters": {"filters": spellings}, "aggs": counts}} if spellings else counts
    if spellings:  # and the posts of every spelling, which the list holds (the pages reach them all)
        aggs[ENTRIES] = counts[ENTRIES]
    if top:
        aggs[TOP] = _TOP
    return aggs


def _counts(filters: Filters, *, facets: bool, top_tags: int) -> dict:
    aggs = {ENTRIES: {"filter": _all_of(_tag_clauses(filters) + _year_clauses(filters))}}
    if facets:
        aggs[TAGS] = {
            "filter": _all_of(_tag_clauses(filters) + _year_clauses(filters)),
            "aggs": {BUCKETS: {"terms": {"field": "tags", "size": top_tags}}},
        }
        by_year = {"field": "pub_date", "calendar_interval": "year", "format": "yyyy", "min_doc_count": 1}
        aggs[YEARS] = {"filter": _all_of(_tag_clauses(filters)), "aggs": {BUCKETS: {"date_histogram": by_year}}}
    return aggs


def scope(aggs: dict, spelling: str | None) -> dict:
    """The counts of one spelling (its bucket) when the answer counts spellings apart, else all of them."""
    buckets = aggs.get(SPELLINGS, {}).get("buckets", {})
    return buckets.get(spelling, {}) if SPELLINGS in aggs else aggs


def top_hit(aggs: dict) -> dict | None:
    """The best hit of the query before the filters, when it was asked for and there is one."""
    found = aggs.get(TOP, {}).get("hits", {}).get("hits", [])
    return found[0] if found else None


def total(aggs: dict) -> int | None:
    """Matching posts, or None when the answer has no count (then the caller counts documents)."""
    found = aggs.get(ENTRIES)
    return int(found["doc_count"]) if found else None


def read(aggs: dict, filters: Filters) -> Facets | None:
    """The facets of an answer (None when they were not asked for). A chosen tag or year stays
    listed even when no post of the narrowed query holds it, so it can always be removed."""
    if TAGS not in aggs:
        return None
    buckets = lambda name: aggs.get(name, {}).get(BUCKETS, {}).get("buckets", [])  # noqa: E731
    tags = sorted(((b["key"], int(b["doc_count"])) for b in buckets(TAGS)), key=lambda t: (-t[1], t[0]))
    years = sorted(((int(b["key_as_string"]), int(b["doc_count"])) for b in buckets(YEARS)), reverse=True)
    shown = {t for t, _ in tags}
    tags += [(t, 0) for t in dict.fromkeys(filters.tags) if t not in shown]
    if filters.year and filters.year not in {y for y, _ in years}:
        years = sorted([*years, (filters.year, 0)], reverse=True)
    return Facets(tags=tags, years=years)
