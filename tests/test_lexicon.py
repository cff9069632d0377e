"""The compiled dictionary extension `search._lexicon` (native/lexicon) against brute force in Python.

Pure: no database, no Elasticsearch. Skipped where the extension is not installed
(`make venv` builds it: `.venv/bin/python -m pip install -e .`).
"""

import random

import pytest

lexicon = pytest.importorskip("search._lexicon")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

Lexicon = lexicon.Lexicon
MAX_COUNT = 2**21 - 1

# A small alphabet so that random words collide and sit within an edit or two of each other;
# 2-, 3- and 4-byte UTF-8 letters check that distances count characters, not bytes.
ALPHABET = "abéß€😀"
words = st.text(ALPHABET, max_size=6)
counts = st.tuples(*[st.integers(0, 4)] * 3)
# Up to 70 words: from 32 on, each ordering gets a head index of its most frequent words (1/32 of
# the vocabulary), so both the head shortcut and the full walk are exercised.
vocabularies = st.lists(st.tuples(words, counts), max_size=70)
fields = st.sampled_from([None, 0, 1, 2])
# The autouse fixtures of tests/conftest.py are cheap and the same for every example.
checks = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def osa_table(a: str, b: str) -> list[list[int]]:
    """Optimal-string-alignment DP, textbook: d[i][j] is the distance between a[:i] and b[:j]."""
    d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d


def osa(a: str, b: str) -> int:
    return osa_table(a, b)[-1][-1]


def prefix_distance(word: str, query: str) -> int:
    """The distance from `query` to the closest prefix of `word`, the empty one included."""
    return min(osa(word[:n], query) for n in range(len(word) + 1))


def test_prefix_distance_shortcut():
    """The last column of the DP table holds every prefix's distance (used where speed matters)."""
    for word, query in [("firefox", "firfo"), ("abc", ""), ("", "ab"), ("ßé😀a", "é😀"), ("acb", "abc")]:
        assert min(row[-1] for row in osa_table(word, query)) == prefix_distance(word, query)


def merged(entries) -> dict[str, tuple[int, int, int]]:
    out: dict[str, list[int]] = {}
    for word, c in entries:
        if word:
            total = out.setdefault(word, [0, 0, 0])
            for i in range(3):
                total[i] += c[i]
    return {w: tuple(min(n, MAX_COUNT) for n in c) for w, c in out.items()}


def order(c, field):
    return sum(c) if field is None else c[field]


def make(entries):
    return Lexicon(Lexicon.build(entries)), merged(entries)


@st.composite
def vocab_and_query(draw):
    """A vocabulary and a query that is usually one of its words, possibly mistyped, or a piece of one."""
    entries = draw(vocabularies)
    query = draw(words)
    if entries and draw(st.booleans()):
        query = draw(st.sampled_from(entries))[0]
        if draw(st.booleans()):
            i = draw(st.integers(0, len(query)))
            query = query[:i] + draw(st.text(ALPHABET, max_size=1)) + query[i + draw(st.integers(0, 1)) :]
        if draw(st.booleans()):
            query = query[: draw(st.integers(0, len(query)))]
    return entries, query


@checks
@given(vocabularies, words)
def test_get_len_contains(entries, probe):
    lex, ref = make(entries)
    assert len(lex) == len(ref)
    for word, c in ref.items():
        assert word in lex and lex.get(word) == c
    assert lex.get(probe) == ref.get(probe)
    assert (probe in lex) == (probe in ref)


@checks
@given(vocab_and_query(), st.integers(0, 8), fields)
def test_completions(vq, limit, field):
    entries, prefix = vq
    lex, ref = make(entries)
    expect = sorted((w for w in ref if w.startswith(prefix) and w != prefix), key=lambda w: (-order(ref[w], field), w))[:limit]
    assert lex.completions(prefix, limit, field) == [(w, ref[w]) for w in expect]


@checks
@given(vocab_and_query(), st.integers(0, 2), st.integers(0, 3), st.integers(0, 8))
def test_within(vq, max_edits, prefix_length, limit):
    entries, word = vq
    lex, ref = make(entries)
    head = word[:prefix_length]
    found = [(w, osa(w, word), c) for w, c in ref.items() if w != word and w.startswith(head)]
    expect = sorted((x for x in found if x[1] <= max_edits), key=lambda x: (x[1], -sum(x[2]), x[0]))[:limit]
    assert lex.within(word, max_edits, prefix_length, limit) == expect


def within_reference(ref, word, max_edits, prefix_length, limit):
    head = word[:prefix_length]
    found = [(w, osa(w, word), c) for w, c in ref.items() if w != word and w.startswith(head) and abs(len(w) - len(word)) <= max_edits]
    return sorted((x for x in found if x[1] <= max_edits), key=lambda x: (x[1], -sum(x[2]), x[0]))[:limit]


@st.composite
def swapped(draw, letters=ALPHABET):
    """A vocabulary of longer words (the edit band moves along the query) and a query made from one
    of them by swapping neighbours, once or twice, maybe with one more edit: transpositions next
    to each other, overlapping, or next to another edit."""
    entries = draw(st.lists(st.tuples(st.text(letters, max_size=9), counts), min_size=1, max_size=70))
    query = list(draw(st.sampled_from(entries))[0])
    for _ in range(draw(st.integers(1, 2))):
        if len(query) > 1:
            i = draw(st.integers(0, len(query) - 2))
            query[i], query[i + 1] = query[i + 1], query[i]
    if query and draw(st.booleans()):
        i = draw(st.integers(0, len(query) - 1))
        query[i : i + 1] = draw(st.text(letters, max_size=2))
    return entries, "".join(query)


@checks
@given(swapped(), st.integers(0, 2), st.integers(0, 3), st.sampled_from([1, 3, 1000]))
def test_within_transpositions(vq, max_edits, prefix_length, limit):
    entries, word = vq
    lex, ref = make(entries)
    assert lex.within(word, max_edits, prefix_length, limit) == within_reference(ref, word, max_edits, prefix_length, limit)


@checks
@given(swapped("ab"), st.integers(1, 2))
def test_within_transpositions_two_letters(vq, max_edits):
    """Two letters: nearly every word is within an edit or two of the query, by many alignments."""
    entries, word = vq
    lex, ref = make(entries)
    assert lex.within(word, max_edits) == within_reference(ref, word, max_edits, 0, 1000)


def prefix_within_reference(ref, prefix, max_edits, limit, field):
    # Only prefixes of up to len(prefix) + max_edits characters can be close enough.
    found = [(w, min(row[-1] for row in osa_table(w[: len(prefix) + max_edits], prefix)), c) for w, c in ref.items() if len(w) >= len(prefix) - max_edits]
    return sorted((x for x in found if x[1] <= max_edits), key=lambda x: (x[1], -order(x[2], field), x[0]))[:limit]


@checks
@given(swapped(), st.integers(0, 9), st.integers(0, 2), st.integers(0, 8), fields)
def test_prefix_within_transpositions(vq, length, max_edits, limit, field):
    entries, word = vq
    lex, ref = make(entries)
    prefix = word[:length]
    assert lex.prefix_within(prefix, max_edits, limit, field) == prefix_within_reference(ref, prefix, max_edits, limit, field)


@checks
@given(vocab_and_query(), st.integers(0, 2), st.integers(0, 8), fields)
def test_prefix_within(vq, max_edits, limit, field):
    entries, prefix = vq
    lex, ref = make(entries)
    found = [(w, prefix_distance(w, prefix), c) for w, c in ref.items()]
    expect = sorted((x for x in found if x[1] <= max_edits), key=lambda x: (x[1], -order(x[2], field), x[0]))[:limit]
    assert lex.prefix_within(prefix, max_edits, limit, field) == expect


@checks
@given(vocabularies)
def test_build_is_deterministic_and_order_free(entries):
    assert Lexicon.build(entries) == Lexicon.build(list(reversed(entries)))
    data = Lexicon.build(entries)
    assert Lexicon(data).nbytes >= len(data)  # plus the head indexes


@pytest.mark.parametrize(("letters", "size", "queries"), [("abé", 1500, 150), ("abcdeéß", 3000, 40)])
def test_against_brute_force_at_a_larger_scale(letters, size, queries):
    """Hundreds of distinct words with skewed counts, so that each ordering has a head index of
    dozens of words: queries that it answers alone, and deeper passes that it completes."""
    rng = random.Random(5)
    entries = [("".join(rng.choices(letters, k=rng.randint(1, 7))), tuple(int(rng.paretovariate(1.2)) - 1 for _ in range(3))) for _ in range(size)]
    lex, ref = make(entries)
    distances: dict[str, list] = {}
    for _ in range(queries):
        query = "".join(rng.choices(letters, k=rng.randint(0, 4)))
        limit, field, max_edits = rng.choice([1, 3, 10, 30, 60]), rng.choice([None, 0, 1, 2]), rng.randint(0, 2)
        expect = sorted((w for w in ref if w.startswith(query) and w != query), key=lambda w: (-order(ref[w], field), w))[:limit]
        assert lex.completions(query, limit, field) == [(w, ref[w]) for w in expect]
        if query not in distances:  # the last column of the DP table: every prefix's distance at once
            distances[query] = [(w, min(row[-1] for row in osa_table(w, query)), c) for w, c in ref.items()]
        expect = sorted((x for x in distances[query] if x[1] <= max_edits), key=lambda x: (x[1], -order(x[2], field), x[0]))[:limit]
        assert lex.prefix_within(query, max_edits, limit, field) == expect


def test_within_against_brute_force_at_a_larger_scale():
    """Thousands of words of up to 12 letters, some of 2-4 bytes, and queries made from them by a
    few random edits (swaps of neighbours among them), whole or a piece of them: the fst walk's
    pruning and its shortcuts for states that only a few letters keep alive, against brute force."""
    rng = random.Random(11)
    letters = "abcdeéß€😀"
    weights = [9, 8, 7, 6, 5, 2, 2, 1, 1]
    entries = [("".join(rng.choices(letters, weights, k=rng.randint(1, 12))), (rng.randint(0, 3), 0, rng.randint(0, 2))) for _ in range(2500)]
    lex, ref = make(entries)
    words = sorted(ref)
    for _ in range(60):
        query = list(rng.choice(words))
        for _ in range(rng.randint(0, 3)):
            i = rng.randrange(len(query) + 1)
            kind = rng.randrange(4)
            if kind == 0 and i + 1 < len(query):
                query[i], query[i + 1] = query[i + 1], query[i]
            elif kind == 1 and i < len(query):
                del query[i]
            elif kind == 2:
                query.insert(i, rng.choice(letters))
            elif i < len(query):
                query[i] = rng.choice(letters)
        word = "".join(query)
        prefix = word[: rng.randint(0, len(word))]
        for max_edits in (1, 2):
            prefix_length, limit = rng.choice([0, 0, 1, 2]), rng.choice([5, 1000])
            assert lex.within(word, max_edits, prefix_length, limit) == within_reference(ref, word, max_edits, prefix_length, limit)
            limit, field = rng.choice([1, 10, 100]), rng.choice([None, 0, 2])
            assert lex.prefix_within(prefix, max_edits, limit, field) == prefix_within_reference(ref, prefix, max_edits, limit, field)


def test_ties_at_the_head_floor():
    """64 words give each ordering a head index of two: "m" and one of the tied "a" and "b". A
    head must keep all words of a count or none, else it would answer "b" where "a" comes first."""
    entries = [("a", (1, 1, 1)), ("b", (1, 1, 1)), ("m", (2, 2, 2))] + [(f"x{i:02}", (0, 0, 0)) for i in range(61)]
    lex, _ = make(entries)
    assert [w for w, _ in lex.completions("", 2)] == ["m", "a"]
    assert [w for w, _, _ in lex.prefix_within("", 0, 2, field=1)] == ["m", "a"]


def test_typo_inside_an_unfinished_word():
    lex, _ = make([("firefox", (3, 10, 1)), ("fire", (1, 1, 0)), ("first", (5, 5, 5)), ("python", (9, 9, 9))])
    assert lex.prefix_within("firfo", 1) == [("firefox", 1, (3, 10, 1))]
    assert lex.prefix_within("fire", 0) == [("firefox", 0, (3, 10, 1)), ("fire", 0, (1, 1, 0))]
    assert lex.within("firfox", 1) == [("firefox", 1, (3, 10, 1))]
    assert lex.within("ifrst", 1) == [("first", 1, (5, 5, 5))]  # a transposition is one edit


def test_completions_order_by_the_chosen_field():
    lex, _ = make([("java", (9, 1, 0)), ("javascript", (2, 8, 0)), ("javadoc", (0, 0, 7)), ("jav", (50, 50, 50)), ("javelin", (0, 0, 0)), ("ja", (99, 0, 0))])
    assert [w for w, _ in lex.completions("jav", 10)] == ["java", "javascript", "javadoc", "javelin"]
    assert [w for w, _ in lex.completions("jav", 10, field=0)] == ["java", "javascript", "javadoc", "javelin"]
    assert [w for w, _ in lex.completions("jav", 10, field=1)] == ["javascript", "java", "javadoc", "javelin"]
    assert [w for w, _ in lex.completions("jav", 2, field=2)] == ["javadoc", "java"]
    assert lex.completions("jav", 0) == []


def test_repeated_words_sum_per_field_and_saturate():
    lex, _ = make([("café", (1, 2, 3)), ("café", (10, 20, 30)), ("", (5, 5, 5)), ("big", (MAX_COUNT, 7, 0)), ("big", (1, 0, 2**40))])
    assert lex.get("café") == (11, 22, 33)
    assert lex.get("big") == (MAX_COUNT, 7, MAX_COUNT)
    assert len(lex) == 2 and "" not in lex


def test_generators_are_accepted_and_empty_builds():
    lex = Lexicon(Lexicon.build((w, (1, 0, 0)) for w in ["b", "a"]))
    assert len(lex) == 2
    empty = Lexicon(Lexicon.build([]))
    assert len(empty) == 0 and empty.get("a") is None
    assert empty.completions("", 5) == [] and empty.within("a", 2) == [] and empty.prefix_within("", 2) == []


def test_invalid_data_and_arguments():
    with pytest.raises(ValueError):
        Lexicon(b"")
    with pytest.raises(ValueError):
        Lexicon(b"not an fst at all, just some bytes" * 3)
    data = Lexicon.build([("word", (1, 1, 1)), ("other", (2, 2, 2))])
    with pytest.raises(ValueError):
        Lexicon(data[:-1] + bytes([data[-1] ^ 1]))  # checksum
    lex = Lexicon(data)
    with pytest.raises(ValueError):
        lex.completions("w", 5, field=3)
    with pytest.raises(ValueError):
        lex.within("word", 3)
    with pytest.raises(ValueError):
        lex.prefix_within("wo", 1, field=-1)
