"""The published misspelling lists the relevance benchmark reads (bench/misspellings.py)."""

from bench import misspellings

SAMPLE = """$America
Amercia
$journey
journy
jurney
jurny
$a_lot
alot
$exercise
exersize
exersise
excercise
exercise
"""


def test_the_birkbeck_list_is_read_in_two_disjoint_halves(tmp_path, monkeypatch):
    path = tmp_path / "missp.dat"
    path.write_text(SAMPLE, encoding="latin-1")
    monkeypatch.setenv("BIRKBECK_LIST", str(path))
    misspellings.birkbeck.cache_clear()
    try:
        halves = [misspellings.birkbeck(half) for half in misspellings.HALVES]
    finally:
        misspellings.birkbeck.cache_clear()
    merged = {right: sorted(w for h in halves for w in h.get(right, ())) for right in ("journey", "exercise")}
    # Plain lowercase words only: no name, no phrase; a word is no misspelling of itself.
    assert merged == {"journey": ["journy", "jurney", "jurny"], "exercise": ["excercise", "exersise", "exersize"]}
    assert not any("america" in h or "a_lot" in h for h in halves)
    for half, found in zip(misspellings.HALVES, halves, strict=True):
        assert all(misspellings.half_of(w) == half for wrongs in found.values() for w in wrongs)


def test_without_the_file_the_birkbeck_kinds_are_empty(monkeypatch):
    monkeypatch.delenv("BIRKBECK_LIST", raising=False)
    misspellings.birkbeck.cache_clear()
    try:
        assert misspellings.birkbeck("tune") == {}
    finally:
        misspellings.birkbeck.cache_clear()


def test_a_body_kind_misspells_a_word_only_the_posts_text_holds():
    """bench/querygen.py's body kinds: every other kind takes its word from a title, so the posts
    meant always reach the title's tiers, and "relevent" shown as "element" went unseen."""
    from pathlib import Path

    from bench.querygen import BODY_MAX_EXPECTED, generate

    posts = [
        {"id": 1, "title": "Parsing tab separated files", "body_text": "Pick the delimiter first. Then encrypt it."},
        {"id": 2, "title": "More on files", "body_text": "A delimiter again, and traditionally a tab."},
        {"id": 3, "title": "How to encrypt a disk", "body_text": "Nothing else."},
    ]
    queries = generate(Path("/nowhere"), seed=1, per_kind=5, posts=posts, kinds=["body_word"])
    titled = {w for p in posts for w in p["title"].lower().split()}
    assert queries and not {q.correct for q in queries} & titled  # never "encrypt", which a title holds
    delimiter = next(q for q in queries if q.correct == "delimiter")
    assert delimiter.expected == [1, 2] and delimiter.source == "codespell, body" and delimiter.text in misspellings.misspellings("heldout")["delimiter"]
    assert len(delimiter.expected) <= BODY_MAX_EXPECTED
