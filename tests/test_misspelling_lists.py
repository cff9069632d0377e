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
