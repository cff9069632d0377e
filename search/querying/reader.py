"""Elasticsearch answers -> what the reader sees (pure, no I/O; tested as plain dicts)."""

from typing import NamedTuple

from search.alternative import Alternative
from search.documents import Kind
from search.querying import facets, groups
from search.querying.query import MATCHES, PHRASE, PHRASE_TIERS, WORDS, best_match, matched_alternative, matched_tier
from search.querying.results import CommentMatch, Hit, result_of


class Reading(NamedTuple):
    """An answer as the page shows it. `spelling` is the bucket of the spelling the page stands
    for (groups.key()); `synonyms` the rules' rewrites that put a hit of the page there."""

    hits: list[Hit]
    total: int
    strategy: str
    showing_for: str
    spelling: str
    synonyms: tuple[str, ...] = ()
    listed: int = 0  # the posts of every spelling, which the pages list (at least `total`)
    exact: bool = True  # False: `total` is a bound the matching posts exceed ("more than N")


def total(response: dict, spelling: str | None = None) -> tuple[int, bool]:
    """Matching posts of the page's spelling when the aggregations count them (exactly), else the
    hits' own count, which stops at a bound (`relation` "gte": there are more)."""
    posts = facets.total(facets.scope(response.get("aggregations", {}), spelling))
    if posts is not None:
        return posts, True
    hits = response.get("hits", {})
    counted = hits.get("total", {})
    return int(counted.get("value", len(hits.get("hits", [])))), counted.get("relation", "eq") == "eq"


def hit(raw: dict) -> Hit:
    """A result from a raw hit (search/documents.py reads its source), with the tier it reached."""
    found = result_of(raw)
    found.tier = matched_tier(raw) or ""
    return found


def _comment(found: Hit) -> CommentMatch:
    return CommentMatch(id=found.id, author=found.author, url=found.url, snippet_html=found.snippet_html)


def entry(raw: dict) -> Hit:
    """One entry per post from a hit: a post's document holds its comments' text, so a hit is a
    post. A comment's own document (an index built before that, until `reindex`) still names and
    links its post, and shows that comment inside it."""
    head = hit(raw)
    if head.type != Kind.COMMENTS.entry:
        return head
    return Hit(
        type=Kind.POSTS.entry,
        id=head.post_id,
        post_id=head.post_id,
        title=head.title,
        url=head.post_url or head.url.split("#", 1)[0],  # documents of an older release lack post_url
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


def deciding_hit(response: dict, *, by_date: bool) -> dict | None:
    """The hit that says what the query means: the query's best before any filter, order or page
    (facets.TOP, asked for whenever the page's first hit may not be it), else the page's first;
    ordered by date, the best match of the page."""
    found = facets.top_hit(response.get("aggregations", {}))
    if found is not None:
        return found
    raw_hits = response["hits"]["hits"]
    if not raw_hits:
        return None
    return best_match(raw_hits) if by_date else raw_hits[0]


def _label(hit: Hit, raw: dict, alternatives: list[Alternative], spelling: str) -> Hit:
    """A hit that only another spelling found says which (its own best one): the page's count is
    the spelling the page stands for, and such a hit is not one of its posts."""
    if len(alternatives) > 1 and spelling not in groups.of_hit(raw, alternatives):
        best = matched_alternative(raw)
        if best is not None:
            hit.spelling = alternatives[groups.source(alternatives, best)].text
    return hit


def _synonyms(raw_hits: list[dict], alternatives: list[Alternative]) -> tuple[str, ...]:
    """The rewrites of the synonym alternatives through which a hit of the page was found."""
    used = {matched_alternative(h) for h in raw_hits}
    return tuple(dict.fromkeys(alternatives[i].label for i in sorted(u for u in used if u is not None) if alternatives[i].synonym_of))


def named(alternatives: list[Alternative], best: int) -> str:
    """What the alternative at `best` stands for when it decides the page. A synonym or a held form
    is no correction: it names what it rewrote. So does a correction spelled as a held form:
    "récoltez" corrected to "récolte" is the form its lemma has on the blog (issue 53)."""
    alt = alternatives[best]
    if alt.synonym_of or alt.form_of:
        return alt.synonym_of or alt.form_of
    return next((a.form_of for a in alternatives if a.form_of and a.text == alt.text), alt.text)


def read(response: dict, alternatives: list[Alternative], *, by_date: bool = False) -> Reading:
    """The strategy is how the deciding hit was found (a phrase or words); showing_for the
    correction that put it first, when it is not what was typed; the total counts that spelling's
    posts. One hit per post (entry())."""
    raw_hits = response["hits"]["hits"]
    strategy, showing_for, spelling = PHRASE, "", groups.key(0)
    top = deciding_hit(response, by_date=by_date)
    if top is not None:
        strategy = PHRASE if matched_tier(top) in PHRASE_TIERS else WORDS
        best = matched_alternative(top)
        if best is not None:
            spelling = groups.key(groups.source(alternatives, best))
        if best:  # neither None nor 0 (what was typed)
            source = named(alternatives, best)
            showing_for = "" if source == alternatives[0].text else source
    hits = [_label(entry(h), h, alternatives, spelling) for h in raw_hits]
    counted, exact = total(response, spelling)
    every = facets.total(response.get("aggregations", {}))  # the posts of every spelling, when counted apart
    return Reading(hits, counted, strategy, showing_for, spelling, _synonyms(raw_hits, alternatives), max(counted, every or 0), exact)
