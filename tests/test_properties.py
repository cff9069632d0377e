"""Property-based tests (Hypothesis) of the pure query layer: whatever the input, the output is
bounded, well formed, and never carries syntax that could reach a query_string or script."""

import dataclasses
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from search import conf
from search.alternative import Alternative
from search.querying.normalize import normalize_query
from search.querying.query import build_query, search_body
from search.querying.suggestions import alternatives, known_words_aggregation, suggest_block
from search.words import tokens

# Generating 400-character Unicode texts can be slow on a cold machine (no .hypothesis/ folder yet):
# that is not a failure, and test order must never matter.
PROPERTY = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
ANY_TEXT = st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=400)
FORBIDDEN_KEYS = {"query_string", "simple_query_string", "script", "script_score", "regexp", "wildcard"}


def keys_of(obj):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from keys_of(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from keys_of(v)


@given(ANY_TEXT, st.integers(1, 300), st.integers(1, 30), st.integers(1, 30))
@PROPERTY
def test_normalize_is_bounded_clean_and_idempotent(raw, max_length, max_words, max_tokens):
    out = normalize_query(raw, max_length=max_length, max_words=max_words, max_tokens=max_tokens)
    assert len(out) <= max_length
    assert len(out.split()) <= max_words
    assert len(tokens(out)) <= max_tokens
    assert out == out.strip()
    assert "  " not in out
    assert all(ch.isprintable() or ch == " " for ch in out)
    assert normalize_query(out, max_length=max_length, max_words=max_words, max_tokens=max_tokens) == out


def general_blanking(raw: str) -> str:
    """What normalize_query does to any non-ASCII text before collapsing whitespace."""
    import unicodedata

    from search.querying.normalize import _BLANKED

    return "".join(" " if unicodedata.category(ch) in _BLANKED else ch for ch in unicodedata.normalize("NFKC", raw))


@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=300), st.integers(1, 300), st.integers(1, 30), st.integers(1, 30))
@PROPERTY
def test_the_ascii_fast_path_of_normalize_equals_the_general_one(raw, max_length, max_words, max_tokens):
    caps = {"max_length": max_length, "max_words": max_words, "max_tokens": max_tokens}
    blanked = general_blanking(raw)
    assert blanked.isascii() and blanked.isprintable()  # so its own normalize_query changes nothing more of it
    assert normalize_query(raw, **caps) == normalize_query(blanked, **caps)


@st.composite
def query_and_suggest(draw):
    query = normalize_query(draw(ANY_TEXT), max_length=200, max_words=12) or "x"
    suggest = {}
    for name in ("title_terms", "text_terms", "comment_terms"):
        entries = []
        for _ in range(draw(st.integers(0, 4))):
            offset = draw(st.integers(0, len(query) - 1))
            length = draw(st.integers(1, len(query) - offset))
            options = draw(st.lists(st.tuples(st.text(min_size=1, max_size=15), st.floats(0, 1)), max_size=4))
            entries.append(
                {
                    "text": query[offset : offset + length].lower(),
                    "offset": offset,
                    "length": length,
                    "options": [{"text": t, "score": s, "freq": 1} for t, s in options],
                }
            )
        suggest[name] = entries
    return query, suggest


@given(query_and_suggest(), st.integers(1, 6))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_alternatives_are_bounded_unique_and_above_the_floor(data, cap):
    query, suggest = data
    alts = alternatives(query, suggest, typed_score=1.1, floor=0.6, max_alternatives=cap, per_token=3)
    assert alts[0] == Alternative(1.1, query, typed=True)
    assert 1 <= len(alts) <= max(cap, 1)
    assert all(0.6 <= a.score <= 1.0 and not a.typed for a in alts[1:])
    lowered = [a.text.lower() for a in alts]
    assert len(set(lowered)) == len(lowered)
    assert [a.score for a in alts[1:]] == sorted((a.score for a in alts[1:]), reverse=True)


@given(st.lists(st.tuples(st.floats(0.6, 1.1), ANY_TEXT), min_size=1, max_size=5), st.integers(1, 50))
@PROPERTY
def test_query_dicts_are_plain_json_with_no_query_syntax(items, page):
    alts = [Alternative(s, t, typed=i == 0) for i, (s, t) in enumerate(items)]
    query = build_query(alts, tiers=conf.get().ranking.tiers, title_boost=2.0, relevance_weight=0.01)
    body = search_body(
        query,
        page=page,
        page_size=10,
        fragment_size=160,
        suggest=suggest_block(items[0][1], options={"suggest_mode": "popular"}),
        aggs=known_words_aggregation(items[0][1]),
    )
    json.dumps(body)  # serializable as is
    assert not FORBIDDEN_KEYS & set(keys_of(body))
    boosts = [c["constant_score"]["boost"] for d in query["bool"]["should"] if "dis_max" in d for c in d["dis_max"]["queries"]]
    assert all(b > 0 for b in boosts)
    assert body["from"] == (page - 1) * 10


def plain_typo_cost(typed: str, candidate: str, costs: dict) -> float:
    """The typo model written plainly, a call per cell: what search.suggestions.typo_cost must equal."""
    from search.querying.typo_model import KEY as _KEY
    from search.querying.typo_model import VOWELS

    def substitution(x: str, y: str) -> float:
        if x == y:
            return 0.0
        if x in _KEY and y in _KEY and abs(_KEY[x][0] - _KEY[y][0]) <= 1 and abs(_KEY[x][1] - _KEY[y][1]) <= 1:
            return costs["adjacent_key"]
        if x in VOWELS and y in VOWELS:
            return costs["vowel"]
        return costs["substitute"]

    def near(x: str, y: str) -> bool:
        return x in _KEY and y in _KEY and abs(_KEY[x][0] - _KEY[y][0]) <= 1 and abs(_KEY[x][1] - _KEY[y][1]) <= 1

    def indel(s: str, k: int, typed: bool = False) -> float:
        doubled = (k >= 2 and s[k - 2] == s[k - 1]) or (k < len(s) and s[k] == s[k - 1])
        if doubled:
            return costs["doubled"]
        neighbours = (s[k - 2] if k >= 2 else "") + (s[k] if k < len(s) else "")
        if typed and not any(near(s[k - 1], n) for n in neighbours):
            return costs["stray"]  # an extra letter typed nowhere near its neighbours' keys
        return costs["insert_delete"]

    a, b = typed.lower(), candidate.lower()
    n, m, first = len(a), len(b), costs["first_letter"]
    d = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        d[i][0] = d[i - 1][0] + indel(a, i, typed=True) + (first if i == 1 else 0.0)
    for j in range(1, m + 1):
        d[0][j] = d[0][j - 1] + indel(b, j) + first
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            sub = substitution(a[i - 1], b[j - 1])
            best = min(
                d[i - 1][j - 1] + (sub + (first if i == 1 or j == 1 else 0.0) if sub else 0.0),
                d[i - 1][j] + indel(a, i, typed=True) + (first if i == 1 else 0.0),
                d[i][j - 1] + indel(b, j),
            )
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1] and a[i - 1] != a[i - 2]:
                best = min(best, d[i - 2][j - 2] + costs["transpose"] + (first if i == 2 else 0.0))
            d[i][j] = best
    differ = [i for i in range(n) if n == m and a[i] != b[i]]
    if len(differ) == 2 and 0 < differ[0] < differ[1] - 1 and a[differ[0]] == b[differ[1]] and a[differ[1]] == b[differ[0]]:
        return round(min(d[n][m], costs["exchange"]), 4)  # two letters exchanged, the first kept
    return round(d[n][m], 4)


_letters = st.text(alphabet="aeiouyqwrtsdfgzxcvbnmhjklp'.1ÉéAB", max_size=14)


@given(typed=_letters, candidate=_letters)
@settings(max_examples=1500, deadline=None)
def test_the_fast_typo_cost_equals_the_plain_one(typed, candidate):
    from search.querying.typo_model import typo_cost

    for costs in (conf.get().ranking.typo_costs, conf.TypoCosts(first_letter=0.3, vowel=0.5)):
        assert typo_cost(typed, candidate, costs) == plain_typo_cost(typed, candidate, dataclasses.asdict(costs))


def _apply(a: str, b: str, path) -> str:
    """`a` with an alignment's edits applied, left to right (search.querying.typo_model.osa_alignments)."""
    out, i = [], 0
    for kind, at, j in path:
        out.append(a[i:at])
        i = at
        if kind == "sub":
            out.append(b[j])
            i += 1
        elif kind == "swap":
            out.append(a[at + 1] + a[at])
            i += 2
        elif kind == "extra":
            i += 1
        else:  # drop: the letter b[j] goes in before a[at]
            out.append(b[j])
    out.append(a[i:])
    return "".join(out)


@given(st.text("abcde", max_size=7), st.text("abcde", max_size=7))
@settings(max_examples=300, deadline=None)
def test_every_alignment_is_optimal_and_turns_one_word_into_the_other(a, b):
    from search.querying.typo_model import osa, osa_alignments

    paths = osa_alignments(a, b)
    assert paths
    for path in paths:
        assert len(path) == osa(a, b)
        assert _apply(a, b, path) == b
