"""The dictionary of the index's words (search/vocabulary.py) on real services: read from the
index by `reindex`, it holds every word of the searched fields with its document count per field,
exactly as Elasticsearch counts them; it answers for a query's words without a request; a word of a
post published after the build joins it at the next sync; without it, searches ask the suggesters.
"""

import pytest
from django.core.cache import cache
from django.core.management import call_command

from search import conf, generation, vocabulary, vocabulary_build
from search.aliases import alias_name
from search.client import get_client
from search.documents import SEARCHED_FIELDS, SUGGESTER_FIELDS
from search.models import FreshWord
from search.process import reset_process_state
from search.querying.service import search
from tests.factories import make_comment, make_post

pytestmark = pytest.mark.django_db


@pytest.fixture
def blog(build_index, settings):
    assert conf.get().ranking.known_word_min_docs == 3
    posts = [
        make_post("Firefox extension basics", "How to write a firefox extension with the WebExtensions API. Don't panic."),
        make_post("Firefox keyboard shortcuts", "Shortcuts the firefox user should know; don't guess, node.js users."),
        make_post("Debugging a Firefox crash", "The crash reporter, and the stack trace. I don't know node.js."),
        make_post("Jekyll themes", "Choosing a jekyll theme for a static site: café-style layouts."),
        make_post("Jekyll on GitHub Pages", "Publishing a jekyll site with node.js tooling."),
        make_post("Zeppelin notebooks", "A single post about zeppelin."),
    ]
    make_comment(posts[3], "Staticman handles comments for jekyll sites.")
    report = build_index()
    return posts, report


def documents_holding(word: str) -> tuple[int, ...]:
    """What Elasticsearch itself counts: posts holding the word in each field's exact sub-field (a
    post's document holds its comments' text, and the dictionary counts entries)."""
    client, index = get_client(), alias_name("posts")
    return tuple(client.count(index=index, query={"term": {SUGGESTER_FIELDS[f]: word}}).body["count"] for f in SEARCHED_FIELDS)


def test_reindex_stores_every_word_with_its_document_count_per_field(blog):
    _, report = blog
    dictionary = vocabulary.current(generation.current())
    assert report.vocabulary == len(dictionary) > 0
    for word in ("firefox", "jekyll", "zeppelin", "staticman", "the", "don't", "node", "js", "cafe", "extension", "webextensions"):
        assert dictionary.counts(word) == documents_holding(word), word
    assert dictionary.counts("node.js") is None  # a dot splits words: "node" and "js" are the index's
    assert dictionary.counts("FIREFOX") == (3, 2, 0)
    assert dictionary.counts("firefix") is None and "firefix" not in dictionary
    assert "firefox" in dictionary and "zeppelin" not in dictionary  # known: at least KNOWN_WORD_MIN_DOCS documents
    assert [w for w, _ in dictionary.completions("fire", 5)] == ["firefox"]
    assert [w for w, _, _ in dictionary.within("zepelin", 2)] == ["zeppelin"]


QUERIES = [
    "firefox",
    "Firefox extension",
    "firefix extenson",
    "jekyl themes",
    "zeppelin",
    "zepelin notebooks",
    "node.js jekyll",
    "staticman",
    "firefox crash reporter",
    "firefox 3.5 shortcuts",
    "the firefox",
    "the firefox 35",
    "kyeboard shortcuts",
    "DON'T crash",
    "node.js firefox",
    "node.jss firefox",
    "dont crash",
    "café jekyll",  # folded as the dictionary holds words: "cafe"
]
# Words the dictionary cannot answer for (Elasticsearch's analysis decides): the suggesters are asked.
ASKED = ["firefox 🔥 extension", "jekyll's themes", "don't's"]


def answer(query: str):
    result = search(query, use_cache=False)
    return ([(a.text, a.score) for a in result.alternatives], [(h.type, h.id) for h in result.hits], result.total, result.showing_for), result.round_trips


def test_one_request_a_query_and_the_suggesters_answers_where_they_agree(blog, monkeypatch):
    with_it = {q: answer(q) for q in QUERIES + ASKED}
    assert {q: with_it[q][1] for q in QUERIES} == dict.fromkeys(QUERIES, 1)
    assert {q: with_it[q][1] for q in ASKED} == dict.fromkeys(ASKED, 2)
    cache.clear()  # the word cache: the full path must ask Elasticsearch itself
    monkeypatch.setattr(vocabulary, "current", lambda gen: None)
    without = {q: answer(q) for q in QUERIES + ASKED}
    assert without["firefix extenson"][1] == without["zepelin notebooks"][1] == 2
    for q in QUERIES + ASKED:  # the same hits and the same correction shown, fewer requests
        assert with_it[q][0][1:] == without[q][0][1:], q
    assert with_it["firefix extenson"][0][3] == "firefox extension" and with_it["zepelin notebooks"][0][3] == "zeppelin notebooks"


def test_a_word_of_a_new_post_is_completed_and_corrected_to_after_the_sync(blog, live):
    """Within the sync that indexed it, not at the next build: no rebuild, one request a keystroke."""
    assert search("quokka", use_cache=False).total == 0
    with live():
        make_post("Quokka photography", "Quokkas on Rottnest island.")
    assert FreshWord.objects.filter(word="quokka").exists()
    with live():  # a second post with the word: its documents add up, as the suggesters would count them
        make_post("Quokka selfies", "Nothing else.")
    assert vocabulary.current(generation.current()).counts("quokka") == (2, 0, 0)
    typing = search("quok", use_cache=False)
    assert typing.completing and typing.round_trips == 1 and typing.hits[0].title.startswith("Quokka")
    typo = search("qukka photography ", use_cache=False)
    assert typo.round_trips == 1 and typo.showing_for == "quokka photography" and typo.hits[0].title == "Quokka photography"
    # The next build holds the word itself and clears what the syncs recorded.
    call_command("search_vocabulary")
    assert not FreshWord.objects.exists()
    assert vocabulary.current(generation.current()).counts("quokka") == (2, 0, 0)
    assert search("qukka photography ", use_cache=False).showing_for == "quokka photography"


def test_without_a_stored_dictionary_searches_ask_the_suggesters(blog):
    from search.models import Vocabulary

    Vocabulary.objects.all().delete()
    generation.bump()
    assert vocabulary.current(generation.current()) is None
    result = search("firefox", use_cache=False)  # right, only slower: every word is asked about first
    assert result.hits and result.hits[0].title.startswith("Firefox") and result.round_trips == 2
    assert search("firefix", use_cache=False).showing_for == "firefox"


def test_a_corrupt_stored_dictionary_still_corrects_typos(blog):
    """A dictionary row whose bytes are no fst map (a bad restore, a truncated write): a process
    starting with it answers and corrects through the suggesters, never a 500 (issue 38.3)."""
    from search.models import Vocabulary

    Vocabulary.objects.update(words=b"\x00not an fst map\xff" * 7, size=3)
    generation.bump()
    reset_process_state()  # as a worker starting now
    assert vocabulary.current(generation.current()) is None
    result = search("firefix", use_cache=False)
    assert result.showing_for == "firefox" and result.hits[0].title.startswith("Firefox")


def test_an_emoji_in_a_blanked_word_does_not_shift_suggestions(blog, monkeypatch):
    """Offsets are UTF-16 positions in the text sent, where a blanked word's emoji is one space."""
    monkeypatch.setattr(vocabulary, "current", lambda gen: None)
    long_word = "x" * 28 + "😀😀😀"  # longer than MAX_SUGGEST_WORD_LENGTH: blanked for the suggesters
    first = search(f"{long_word} firefix zepelin", use_cache=False)
    assert all(
        a.text.split()[1:] in (["firefix", "zepelin"], ["firefox", "zepelin"], ["firefix", "zeppelin"], ["firefox", "zeppelin"]) for a in first.alternatives
    ), first.alternatives
    assert "firefox" in [a.text for a in search("firefix", use_cache=False).alternatives]  # from the word cache
    assert "zeppelin" in [a.text for a in search("zepelin", use_cache=False).alternatives]


def test_a_joined_word_the_index_holds_as_one_token_is_that_token_when_typed_alone(blog):
    """The premise of plan.unknown_words' rule for words joined by `'`: if any text around
    such a word makes the exact analyzer emit it whole, the word typed alone is that one token too.
    A dot, a colon or an underscore never joins (the analyzers split there, as words() does)."""
    import random

    from search.aliases import alias_name
    from search.client import get_client
    from search.documents import EXACT, SEARCHED_FIELDS

    client = get_client()
    analyze = lambda text: [
        t["token"]
        for t in client.indices.analyze(  # noqa: E731
            index=alias_name("posts"), field=f"{SEARCHED_FIELDS[0]}.{EXACT}", text=text
        ).body["tokens"]
    ]
    from search.words import JOINED as joined

    rng = random.Random(11)
    checked = whole = 0
    while checked < 80:
        word = "".join(rng.choice("aB1") for _ in range(rng.randint(1, 2)))
        for _ in range(rng.randint(1, 3)):
            word += "'" + "".join(rng.choice("aB1") for _ in range(rng.randint(1, 2)))
        if not joined.fullmatch(word) or word.lower().endswith("'s"):
            continue
        checked += 1
        contexts = [
            f"x{word}",
            f"{word}x",
            f"({word})",
            f"{word}.",
            f".{word}",
            f"_{word}",
            f"1{word}",
            f"{word}1",
            f"'{word}'",
            f"{word}'s",
            f"a.{word}",
            f"{word}.1",
        ]
        if any(word.lower() in analyze(c) for c in contexts):
            whole += 1
            assert analyze(word) == [word.lower()], word
    assert whole >= 20  # the premise was put to the test, not skipped
    assert analyze("a.b Node.js x:y 1.0") == ["a", "b", "node", "js", "x", "y", "1", "0"]


def test_a_rebuild_of_one_kind_reads_the_new_or_the_live_posts_index(blog):
    """The dictionary reads the posts' index, whose documents hold their comments' text:
    `reindex --only posts` counts the comments written since, as it swaps the new index in, and
    `reindex --only comments` reads the live posts index."""
    posts, _ = blog
    make_comment(posts[4], "A jekyll comment.")
    make_comment(posts[0], "Another jekyll comment.")
    assert vocabulary.current(generation.current()).counts("jekyll") == (2, 2, 1)  # the comments above are not indexed yet
    call_command("reindex", "--only", "posts", "--no-progress")
    assert vocabulary.current(generation.current()).counts("jekyll") == (2, 2, 3)  # 3 posts' comments now
    call_command("reindex", "--only", "comments", "--no-progress")
    dictionary = vocabulary.current(generation.current())
    assert dictionary.counts("jekyll") == (2, 2, 3) and "firefox" in dictionary


def test_a_rebuild_whose_vocabulary_cannot_be_read_still_succeeds_and_drops_the_stale_one(blog, monkeypatch, capsys):
    """Reading the words fails (in the background, while the swap runs): the rebuild is still
    complete, the previous dictionary (of other indices) is dropped, searches ask the suggesters."""
    posts, _ = blog

    def refuse(*args, **kwargs):
        raise ConnectionError("fielddata refused (injected)")

    monkeypatch.setattr(vocabulary_build, "collect", refuse)
    make_post("Quokka notes", "quokka")
    call_command("reindex", "--no-progress")
    assert "could not read the dictionary" in capsys.readouterr().err
    assert not vocabulary_build.exists() and vocabulary.current(generation.current()) is None
    result = search("quokka", use_cache=False)
    assert result.total == 1 and result.round_trips == 2  # every word asked about first: right, only slower
    assert search("firefix", use_cache=False).showing_for == "firefox"


def test_a_post_deleted_while_the_rebuild_loads_leaves_its_words_uncounted(blog, monkeypatch):
    """The words are read from the indices as caught up, not as loaded: "firefox" is in 3 titles
    when the load reads the posts; one of them is deleted right after, so the live indices hold it
    in 2 titles and 2 texts, and so does the dictionary."""
    from search.sync import rebuild as rebuild_module

    posts, _ = blog
    original = rebuild_module.iter_index_actions

    def read_then_delete(kind, index, *rest):
        yield from original(kind, index, *rest)
        if kind == "posts":
            posts[2].delete()

    monkeypatch.setattr(rebuild_module, "iter_index_actions", read_then_delete)
    call_command("reindex", "--no-progress")
    assert vocabulary.current(generation.current()).counts("firefox") == (2, 2, 0) == documents_holding("firefox")
