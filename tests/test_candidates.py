"""Candidates from the dictionary (search/querying/candidates.py), pure: a small dictionary in
memory, answers compared as plain dicts with what the term suggesters would say."""

import pytest

from search import vocabulary
from search.conf import SuggesterOptions
from search.querying import candidates, typo_model

pytest.importorskip("search._lexicon")

WORDS = {
    # word: (title, text, comment) document counts
    "firefox": (5, 9, 1),
    "fire": (1, 3, 0),
    "first": (2, 40, 3),
    "extension": (3, 4, 0),
    "extensions": (1, 2, 0),
    "rust": (6, 0, 0),
    "trust": (0, 2, 3),
    "quest": (1, 2, 0),
    "questions": (4, 9, 1),
}


@pytest.fixture
def dictionary():
    return vocabulary.from_words(WORDS)


def test_options_follow_the_suggesters_missing_mode_per_field(dictionary):
    """ "rust" is in titles only: the text and comment fields propose, the title field does not;
    every option counts the documents of the proposing field."""
    suggest, aggs = candidates.suggest("rust extenson", [0, 1], dictionary, options=SuggesterOptions(), limit=50)
    assert aggs == {"known_words": {"words": {"buckets": {"w0": {"doc_count": 6}, "w1": {"doc_count": 0}}}}}
    # Within 2 edits: "trust" (1) before "quest" (2); the comments hold no "quest", so do not propose it.
    assert suggest["text_terms"][0] == {"text": "rust", "offset": 0, "length": 4, "options": [{"text": "trust", "freq": 2}, {"text": "quest", "freq": 2}]}
    assert suggest["comment_terms"][0] == {"text": "rust", "offset": 0, "length": 4, "options": [{"text": "trust", "freq": 3}]}
    assert [e["text"] for e in suggest["title_terms"]] == ["extenson"]  # the title holds "rust"
    title = suggest["title_terms"][0]
    assert (title["offset"], title["length"]) == (5, 8)
    assert [o["text"] for o in title["options"]] == ["extension", "extensions"]  # distance 1, then 2


def test_short_words_get_counts_but_no_options(dictionary):
    suggest, aggs = candidates.suggest("fi", [0], dictionary, options=SuggesterOptions(), limit=50)
    assert all(not entries for entries in suggest.values())
    assert aggs["known_words"]["words"]["buckets"] == {"w0": {"doc_count": 0}}


def test_the_typed_word_is_resolvable_only_when_it_is_one_token_of_the_exact_analyzer():
    assert candidates.resolvable("Firefox") and candidates.resolvable("don't") and not candidates.resolvable("mod_python")
    assert not candidates.resolvable("node.js")  # two tokens: a dot splits (a query's words never hold one)
    assert not candidates.resolvable("kirby's")  # the possessive filter cuts it
    assert not candidates.resolvable("web-dev") and not candidates.resolvable(".net")
    # Accents as the exact analyzer folds them: "café" is "cafe", "Rückbl" is "ruckbl" (a reader's
    # review: an umlaut in a word being typed found nothing). A letter folding leaves is not.
    assert candidates.resolvable("café") and candidates.resolvable("Rückbl") and candidates.resolvable("Straße")
    assert candidates.resolvable("Øresund") and not candidates.resolvable("jalapeño-dip") and not candidates.resolvable("東京")
    assert not candidates.resolvable("Müller's") and not candidates.resolvable("Αθήν")  # German keeps "muller's"; Greek is not folded


def test_a_word_being_typed_with_an_umlaut_starts_the_words_the_dictionary_holds_folded():
    dictionary = vocabulary.from_words({"einfuhrung": (3, 9, 0), "eine": (9, 90, 9)})
    assert candidates.unfinished_word("Einfü", dictionary, min_length=4, max_edits=1, limit=50) == (True, None)
    suggest, aggs = candidates.suggest("Einfü", [0], dictionary, options=SuggesterOptions(), limit=50)
    assert aggs["known_words"]["words"]["buckets"] == {"w0": {"doc_count": 0}} and suggest["title_terms"][0]["text"] == "einfu"


@pytest.mark.parametrize(
    ("typed", "word", "distance", "prefix"),
    [("firfo", "firefox", 1, "firefo"), ("fierf", "firefox", 1, "firef"), ("extnes", "extension", 1, "extens"), ("qeust", "questions", 1, "quest")],
)
def test_the_corrected_prefix_is_the_start_of_the_word_a_typo_away(typed, word, distance, prefix):
    assert candidates.corrected_prefix(typed, word, distance) == prefix
    assert typo_model.osa(typed, prefix) <= distance


def test_an_unfinished_word_no_word_starts_with_is_completed_through_its_corrected_prefix(dictionary):
    present, entry = candidates.unfinished_word("mozilla firfo", dictionary, min_length=4, max_edits=1, limit=50)
    assert not present
    assert entry == {"text": "firfo", "offset": 8, "length": 5, "options": [{"text": "firefox", "prefix": "firefo", "freq": 10}]}


def test_an_unfinished_word_is_present_when_a_word_starts_with_it_and_never_completed_when_ambiguous(dictionary):
    assert candidates.unfinished_word("firef", dictionary, min_length=4, max_edits=1, limit=50) == (True, None)
    assert candidates.unfinished_word("rust", dictionary, min_length=4, max_edits=1, limit=50) == (True, None)
    # "qeust" is a whole word ("quest") one typo away, and the start of longer ones: completing is
    # preferred to correcting (issue 54: "mozila firf" said "mozilla fire"), the whole word first.
    present, entry = candidates.unfinished_word("qeust", dictionary, min_length=4, max_edits=1, limit=50)
    assert not present and entry["options"][0] == {"text": "quest", "prefix": "quest", "freq": 2}
    assert candidates.unfinished_word("frf", dictionary, min_length=4, max_edits=1, limit=50) == (False, None)  # too short
    assert candidates.unfinished_word("東京", dictionary, min_length=4, max_edits=1, limit=50) == (True, None)  # Elasticsearch decides
    assert candidates.unfinished_word("café", dictionary, min_length=4, max_edits=1, limit=50) == (False, None)  # folded: no "cafe…" here
    assert candidates.unfinished_word("Fîref", dictionary, min_length=4, max_edits=1, limit=50) == (True, None)  # folded: "firef" starts "firefox"


def test_fresh_words_join_every_answer(dictionary):
    fresh = vocabulary.from_words(WORDS, fresh={"quokka": (1, 1, 0), "firefox": (1, 0, 0)})
    assert fresh.counts("quokka") == (1, 1, 0) and fresh.counts("firefox") == (5, 9, 1)  # the build's own, never both
    assert [w for w, _, _ in fresh.within("qokka", 1)] == ["quokka"]
    assert [w for w, _ in fresh.completions("quo", 5)] == ["quokka"]
    assert "quokka" not in fresh  # two documents: not yet known (KNOWN_WORD_MIN_DOCS is 3)


@pytest.mark.parametrize("query", ["rusk", "firefax", "extenson", "qest", "firts", "fier extensio", "trsut"])
def test_asking_one_edit_first_keeps_the_same_best_options(dictionary, query):
    """`nearest` skips the words two edits away when enough are one away: the options the typo model
    keeps (three a word) are the same as from every candidate. Only while no sound-alike two edits
    away can cost less than one edit: the shipped costs let one ("jurny": journey), so the shortcut
    is off with them, and on with sound-alikes priced as two edits."""
    from dataclasses import replace

    from search.conf import RankingSettings
    from search.querying.suggestions import _spans

    ranking = RankingSettings()
    assert not candidates.one_edit_always_wins(ranking.typo_costs)
    costs = replace(ranking.typo_costs, sound_alike=2.0, exchange=2.0)
    assert candidates.one_edit_always_wins(costs)
    only = list(range(len(query.split())))
    every, _ = candidates.suggest(query, only, dictionary, options=ranking.suggester, limit=200)
    first, _ = candidates.suggest(query, only, dictionary, options=ranking.suggester, limit=200, enough=1, costs=costs)
    kept = lambda s: _spans(s, floor=ranking.min_suggestion_score, per_token=1, costs=costs)  # noqa: E731
    assert kept(first) == kept(every)


def test_a_corrected_prefix_proposes_its_shortest_word_which_the_search_completes_again():
    """ "schedual": "schedul" is one typo away; "schedule" (not the commoner "scheduled") is proposed,
    since its completions hold "scheduled" and "scheduler" too."""
    dictionary = vocabulary.from_words({"schedule": (2, 5, 0), "scheduled": (9, 30, 1), "scheduler": (3, 4, 0)})
    present, entry = candidates.unfinished_word("schedual", dictionary, min_length=4, max_edits=1, limit=50)
    assert not present and entry["options"] == [{"text": "schedule", "prefix": "schedul", "freq": 5}]


def test_two_words_typed_as_one_are_split_into_words_of_the_index_never_at_a_stop_word():
    known = vocabulary.from_words({"asp": (7, 3, 0), "net": (9, 20, 2), "stream": (5, 5, 0), "it": (50, 90, 9), "ne": (1, 0, 0)})
    # "asp net": each part a word enough documents hold, counted as the smaller part per field;
    # "as pnet" has no such part, "aspn et" neither, and "ne" (one document) is too rare.
    assert candidates.splits("aspnet", known) == [("asp net", 1, (7, 3, 0))]
    assert candidates.splits("streamit", known) == []  # "it" is a stop word: a dropped letter, not "stream it"
    suggest, _ = candidates.suggest("aspnet", [0], known, options=SuggesterOptions(), limit=50)
    assert {"text": "asp net", "freq": 7, "split": True} in suggest["title_terms"][0]["options"]


def test_a_split_costs_the_typo_model_one_space_put_back():
    from search.conf import TypoCosts
    from search.querying.suggestions import alternatives

    suggest = {
        "title_terms": [{"text": "jango", "offset": 0, "length": 5, "options": [{"text": "jan go", "freq": 9, "split": True}, {"text": "django", "freq": 3}]}]
    }
    alts = alternatives("jango", suggest, typed_score=1.1, floor=0.5, max_alternatives=5, per_token=3, costs=TypoCosts())
    # django: a letter added before the first (0.85 + 0.1) scores 0.81; "jan go", 1 - 1.0/5 = 0.8.
    assert [(a.text, a.score) for a in alts[1:]] == [("django", 0.81), ("jan go", 0.8)]


def test_an_unfinished_last_word_is_never_split():
    known = vocabulary.from_words({"under": (5, 9, 1), "st": (4, 6, 0), "understanding": (3, 2, 0)})
    split, _ = candidates.suggest("underst", [0], known, options=SuggesterOptions(), limit=50)
    assert any(o.get("split") for o in split["title_terms"][0]["options"])
    kept, _ = candidates.suggest("underst", [0], known, options=SuggesterOptions(), limit=50, unsplit=0)
    assert not any(o.get("split") for entry in kept.values() for e in entry for o in e["options"])


def test_the_lookup_memo_is_bounded_by_candidates_as_well_as_lookups(monkeypatch):
    """Short nonsense words find many candidates each: the memo forgets before it holds more than
    MEMO_CANDIDATES (plus one lookup's), and answers as the dictionary does."""
    monkeypatch.setattr(vocabulary, "MEMO_CANDIDATES", 50)
    letters = "abcde"
    words = {a + b + c: (1, 1, 0) for a in letters for b in letters for c in letters}  # 125 words
    dictionary = vocabulary.from_words(words)
    for probe in ("abc", "bcd", "cde", "dea", "eab", "abc"):
        found = dictionary.within(probe, 2, 0, 40)
        assert found == dictionary._within(probe, 2, 0, 40)
        assert sum(map(len, dictionary.memo.values())) <= 50 + 40


def test_a_last_word_is_only_a_start_when_no_word_is_it_and_some_start_with_it():
    dictionary = vocabulary.from_words({"einfuhrung": (3, 9, 0), "sever": (0, 2, 0), "server": (9, 9, 0)})
    assert candidates.only_a_start("haskell Einfü", dictionary) and candidates.only_a_start("einfu", dictionary)
    assert not candidates.only_a_start("mysql sever", dictionary)  # a word the blog holds: its offer stays
    assert not candidates.only_a_start("qzx", dictionary) and not candidates.only_a_start("einfu", None)
