"""The dictionary's words by sound (search/soundalikes.py), against a plain scan."""

from hypothesis import given
from hypothesis import strategies as st

from search import soundalikes, vocabulary
from search.querying import candidates
from search.querying.typo_model import sound_key

KEYS = st.text(alphabet="ABK", min_size=1, max_size=3)


@given(st.lists(st.tuples(KEYS, st.text(alphabet="wxyz", min_size=1, max_size=3)), max_size=30), KEYS)
def test_alike_finds_exactly_the_lines_of_a_key(pairs, key):
    lines = sorted({f"{k} {w}" for k, w in pairs})
    index = soundalikes.SoundIndex(lines)
    assert index.alike(key) == [line.split(" ", 1)[1] for line in lines if line.split(" ", 1)[0] == key]
    assert index.alike("") == [] and len(index) == len(lines)


def test_the_index_holds_words_enough_documents_hold_and_finds_far_sound_alikes():
    dictionary = vocabulary.from_words({"business": (3, 9, 1), "busy": (1, 1, 0), "portion": (2, 4, 0), "rare": (0, 1, 0), "bizness": (0, 1, 0)})
    index = dictionary.sound_index()
    assert index.alike(sound_key("business"), "b") == ["business"]  # "bizness": one document, left out
    assert index.alike(sound_key("business"), "p") == [] and len(index) == 2  # business, portion
    found = candidates.by_sound("bisnes", [], dictionary, min_length=5)
    assert found == [("business", 3, (3, 9, 1))]
    assert candidates.by_sound("bisnes", found, dictionary, min_length=5) == []  # already proposed
    assert candidates.by_sound("bisnes", [], dictionary, min_length=0) == []  # off
