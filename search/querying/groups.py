"""Which alternative a page stands for, and the filters that count that alternative's posts
(pure; plain dicts).

A misspelled query is searched with several spellings at once (query.py), and the page says
"Showing results for" the one that put the top hit first. Its count and its facets must describe
that spelling's posts, not the union with the weaker ones: "firefix extnsion" counted 755 posts
(every post holding "extensions" or "fire" too) where "firefox extension" counts 339. So a request
with several spellings counts posts per spelling (one `filters` aggregation, a bucket per
spelling, facets.aggregations) and the reader keeps the winner's bucket: still one search.

A synonym alternative belongs to the spelling it rewrote, a held form (plan.form_alternatives) to
what was typed (the rules are applied at once, and its
posts are that spelling's posts); a completion clause (`alt<i>c.`) to its alternative.
"""

import json

from search.alternative import Alternative
from search.querying.query import clauses_of


def source(alternatives: list[Alternative], i: int) -> int:
    """The index of the spelling alternative `i` stands for: itself, or the one a synonym rewrote."""
    alt = alternatives[i]
    rewrote = alt.synonym_of or alt.form_of
    if not rewrote:
        return i
    j = next((j for j, a in enumerate(alternatives) if a.text == rewrote and not a.synonym_of and j != i), i)
    return j if j == i else source(alternatives, j)  # a synonym of a held form: the typed spelling


def key(i: int) -> str:
    """The bucket name of the spelling at index `i`."""
    return f"alt{i}"


def _unnamed(clause: dict) -> dict:
    """A scoring clause as a filter: without its name (a name belongs to the hit's own query) and boost."""
    ((kind, params),) = clause.items()
    return {kind: {k: v for k, v in params.items() if k not in ("_name", "boost")}}


def _named_clauses(query: dict):
    """(name, filter) of every named clause of a query.build_query() body."""
    for part in query.get("bool", {}).get("should", []):
        for clause in part["dis_max"]["queries"] if "dis_max" in part else [part]:
            scored = clause.get("constant_score")
            if scored is not None:
                yield scored["_name"], scored["filter"]
            else:
                params = next(iter(clause.values()))
                if isinstance(params, dict) and "_name" in params:
                    yield params["_name"], _unnamed(clause)


def filters(query: dict, alternatives: list[Alternative]) -> dict[str, dict]:
    """Per spelling, the query's clauses of it and of its synonyms as one filter (a post it would
    match); empty when there is one spelling only (its count is the query's own). Of each
    alternative's clauses only those its widest one does not cover (`_covered`): the same posts,
    without re-reading the phrases' positions in every matching document."""
    grouped: dict[str, list] = {}
    for i, clauses in _by_alternative(query, len(alternatives)).items():
        widest = _widest(clauses)
        kept = [c for c in clauses if widest is None or not (_is_widest(c) or _covered(c, widest))]
        grouped.setdefault(key(source(alternatives, i)), []).extend(([{"multi_match": widest}] if widest else []) + kept)
    if len(grouped) < 2:
        return {}
    return {name: {"bool": {"should": _needed(clauses), "minimum_should_match": 1}} for name, clauses in grouped.items()}


def _is_widest(clause: dict) -> bool:
    return clause.get("multi_match", {}).get("type") == "most_fields"


def _widest(clauses: list[dict]) -> dict | None:
    """An alternative's BM25 clause over some words, whole: its words may sit in several clauses,
    shared with other alternatives (query._shared_words), all of one shape."""
    some = [c["multi_match"] for c in clauses if _is_widest(c)]
    return {**some[0], "query": " ".join(p["query"] for p in some)} if some else None


def _same_words(a: str | None, b: str) -> bool:
    """Whether two queries hold the same words, in any order (_widest joins its clauses' words)."""
    return a is not None and sorted(a.lower().split()) == sorted(b.lower().split())


def _needed(clauses: list[dict]) -> list[dict]:
    """Each clause once (two tiers may score one clause with two boosts, and a filter has none),
    and no phrase prefix whose words another clause requires in any order (`_every_word_prefix`)."""
    anywhere = {found for found in map(_every_word_prefix, clauses) if found}
    seen: set[str] = set()
    out = []
    for clause in clauses:
        text = json.dumps(clause, sort_keys=True)
        if text in seen or _phrase_prefix(clause) in anywhere:
            continue
        seen.add(text)
        out.append(clause)
    return out


def _every_word_prefix(clause: dict) -> tuple | None:
    """(field, words, analyzer) of a `match_bool_prefix` that requires every word, the last as a
    prefix of any length: it matches every document the same words' `match_phrase_prefix` does
    (the phrase adds an order and caps the last word's expansions; Elasticsearch's
    `max_expansions` applies to the bool prefix's fuzzy words only, not its prefix)."""
    params = clause.get("match_bool_prefix")
    if not params:
        return None
    ((field, p),) = params.items()
    if p.get("operator") != "and" or set(p) - {"query", "operator", "analyzer"}:
        return None
    return field, p["query"], p.get("analyzer")


def _phrase_prefix(clause: dict) -> tuple | None:
    params = clause.get("match_phrase_prefix")
    if not params:
        return None
    ((field, p),) = params.items()
    if set(p) - {"query", "max_expansions", "analyzer"}:
        return None
    return field, p["query"], p.get("analyzer")


def _by_alternative(query: dict, count: int) -> dict[int, list[dict]]:
    """The query's named clauses as filters, by the alternative they belong to, in order."""
    out: dict[int, list[dict]] = {}
    for name, clause in _named_clauses(query):
        for i, _, _ in clauses_of(name):
            if i < count:
                out.setdefault(i, []).append(clause)
    return out


def _field(name: str) -> str:
    return name.partition("^")[0]


def _covered(clause: dict, widest: dict) -> bool:
    """Whether every document `clause` matches also matches `widest`, its alternative's BM25 clause
    over some words (a `most_fields` multi_match: any of the words in any of its fields). True for
    a phrase, every word or some words of the same words, in fields `widest` reads with the same
    analyzer: the query's words make the same tokens there. Not a prefix (a head word that makes
    no token leaves a lone prefix), a fuzzy clause, nor a field `widest` reads otherwise: the
    bodies' exact phrase is not covered by their stemmed field, whose chain stems before it folds
    ("éléments" and "elements" stem apart in French) and drops stop words the exact field keeps."""
    ((kind, params),) = clause.items()
    fields = {_field(f) for f in widest["fields"]}
    words, analyzer = widest["query"], widest.get("analyzer")
    if kind in ("match", "match_phrase"):
        ((field, p),) = params.items()
        p = p if isinstance(p, dict) else {"query": p}
        return _same_words(p.get("query"), words) and "fuzziness" not in p and p.get("analyzer") == analyzer and field in fields
    if kind == "combined_fields":
        return _same_words(params.get("query"), words) and analyzer is None and "analyzer" not in params and {_field(f) for f in params["fields"]} <= fields
    if kind == "multi_match" and params.get("type") == "phrase":
        same = _same_words(params.get("query"), words) and "fuzziness" not in params and params.get("analyzer") == analyzer
        return same and {_field(f) for f in params["fields"]} <= fields
    return False


def members(alternatives: list[Alternative], spelling: str) -> list[Alternative]:
    """The alternatives of one spelling (bucket name): it and the synonyms that rewrote it."""
    return [alt for i, alt in enumerate(alternatives) if key(source(alternatives, i)) == spelling]


def of_hit(raw: dict, alternatives: list[Alternative]) -> set[str]:
    """The spellings (bucket names) whose clauses a raw hit matched."""
    found = (i for name in raw.get("matched_queries", []) for i, _, _ in clauses_of(name))
    return {key(source(alternatives, i)) for i in found if i < len(alternatives)}
