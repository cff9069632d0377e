"""The real-word list's binary search (search/realwords.py) against the list read as a dict."""

import gzip

from hypothesis import given
from hypothesis import strategies as st

from search import realwords

_TEXT = gzip.decompress((realwords.DATA / "real_words_en.txt.gz").read_bytes()).decode()
LISTED = dict((w, int(z) / 100) for w, z in (line.split() for line in _TEXT.splitlines()))


def test_every_listed_word_is_found_with_its_frequency():
    assert len(LISTED) > 80_000 and all(z >= 2.0 for z in LISTED.values())
    assert all(realwords.zipf(w) == z for w, z in LISTED.items())


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=12))
def test_any_other_string_is_not(word):
    assert realwords.zipf(word) == LISTED.get(word, 0.0)


def test_the_list_is_in_byte_order_and_the_edges_are_found():
    words = list(LISTED)
    assert words == sorted(words)
    assert realwords.zipf(words[0]) > 0 and realwords.zipf(words[-1]) > 0
    assert realwords.zipf("") == 0 and realwords.zipf("café") == 0 and realwords.zipf("c#") == 0


def test_a_word_is_spelled_so_when_its_letters_run_as_in_listed_words():
    """realwords.spelled_so: every listed word is; letters no word has in a row, at its start or at
    its end, are not; a word the list cannot tell (accents, capitals, digits) is."""
    assert all(realwords.spelled_so(w) for w in list(LISTED)[::97])
    assert realwords.spelled_so("blazor") and realwords.spelled_so("kotlin")
    assert not realwords.spelled_so("szvze")  # "szv" runs in no word
    assert not realwords.spelled_so("halpyy")  # no word ends in "yy"
    assert not realwords.spelled_so("lqeyre", "fr")  # no French word starts with "lq"
    assert realwords.spelled_so("café") and realwords.spelled_so("Szvze") and realwords.spelled_so("c3po")
