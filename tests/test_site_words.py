"""A site's own nouns, set once (issue 51.6): a journal's readers see "entries" and "replies" on
every search page, the OpenSearch description and the instant results, never the blog's "posts"
and "comments"; the JSON API's `type` and `matched` values stay as they are."""

import re
from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from search import conf
from tests.factories import make_comment, make_post

JOURNAL = {"entry": "entry", "entries": "entries", "reply": "reply", "replies": "replies", "site": "journal", "replies_anchor": "responses"}
BLOG_WORDS = re.compile(r"\b(posts?|comments?|blog)\b", re.IGNORECASE)
SCRIPT = Path(conf.__file__).parent / "static" / "search" / "instant-search.js"


def reader_text(html: str) -> str:
    """What a reader sees or hears: text and the attributes read aloud, not markup or class names."""
    spoken = " ".join(re.findall(r'(?:aria-label|placeholder|title)="([^"]*)"', html))
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html) + " " + spoken


@pytest.fixture
def journal_words(settings):
    settings.SEARCH = {**settings.SEARCH, "WORDS": JOURNAL, "DEBUG_TABLE": "all"}


def test_the_words_are_typed_settings():
    words = conf.build({"INDEX_PREFIX": "j", "WORDS": {"entry": "entry", "entries": "entries"}}).serving.words
    assert (words.entry, words.entries, words.reply) == ("entry", "entries", "comment")  # the rest keep their defaults
    with pytest.raises(Exception, match="unknown names"):
        conf.build({"WORDS": {"thing": "x"}})


@pytest.mark.django_db
def test_every_page_a_reader_sees_speaks_the_sites_words(client, build_index, journal_words):
    post = make_post("Okapi field notes", "Notes from the okapi reserve; -walks left out.")
    other = make_post("Okapi habitat", "Where the okapi lives.")
    for i in range(5):
        make_comment(other, f"I once saw an okapi on walk {i}.", author=f"Walker {i}")
    build_index()
    page = client.get(reverse("search:results"), {"q": "okapi -zebra", "debug-search": ""}).content.decode()
    main = page.split("<main", 1)[-1]  # the site's base template is the blog's own
    debug = re.search(r'<section class="debug".*?</section>', main, flags=re.S).group(0)
    assert "whole entries" in debug  # the table itself shows the index's own names (type, fields), as the JSON does
    seen = reader_text(main.replace(debug, ""))
    assert not BLOG_WORDS.search(seen), [seen[m.start() - 60 : m.end() + 20] for m in BLOG_WORDS.finditer(seen)]
    assert "reply by Walker" in seen and "2 more replies match" in seen and "Leaving out entries with" in seen
    assert f'{other.get_absolute_url()}#responses"' in page and "#comments" not in page
    assert 'data-reply="reply"' in page and 'placeholder="Search entries and replies"' in page
    assert post.get_absolute_url() in page

    description = client.get("/opensearch.xml").content.decode()
    assert "<ShortName>Journal search</ShortName>" in description and not BLOG_WORDS.search(reader_text(description))
    unavailable = render_to_string("search/unavailable.html", {"base_template": "base.html"})
    unavailable = re.search(r'<div class="error-page">.*?</div>', unavailable, flags=re.S).group(0)
    assert "The rest of the journal works" in unavailable and not BLOG_WORDS.search(reader_text(unavailable))
    # The JSON keeps its values; only what a reader reads changes.
    data = client.get(reverse("search:api"), {"q": "okapi"}).json()
    assert {r["type"] for r in data["results"]} == {"post"}


def test_the_script_shows_the_sites_word_for_a_reply():
    script = SCRIPT.read_text()
    assert 'getAttribute("data-reply")' in script
    shown = [line for line in script.splitlines() if re.search(r'"[^"]*\b(comments?|posts?)\b[^"]*"', line) and '=== "comment"' not in line]
    assert all(line.strip().startswith("//") or '|| "comment"' in line for line in shown), shown
