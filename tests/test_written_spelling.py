"""A correction shown as the blog writes it (search/querying/spelling.py; issue 53, point 3): a
reader's review found "Showing results for einfuhrung" and "Did you mean developpeur", the
dictionary's folded words. Plain strings and dicts, then the service on a real index."""

import pytest
from django.urls import reverse

from search.querying import spelling, starters
from tests.factories import make_post


def test_the_posts_written_forms_replace_the_words_a_correction_changed():
    forms = spelling.written_forms(["Einführung in Haskell.", "Eine EINFÜHRUNG", "L'accessibilité, c'est aussi", "ärger"])
    assert forms["einfuhrung"] == "einführung" and forms["accessibilite"] == "accessibilité"  # an elided article off
    assert "haskell" not in forms  # nothing to restore in an ASCII word
    assert spelling.as_written("einfuhrung in haskell", "einfurhung in haskel", forms) == "einführung in haskell"
    assert spelling.as_written("accessibilite", "acessibilite", forms) == "accessibilité"
    assert spelling.as_written("arger einfuhrung", "arger einfurhung", forms) == "arger einführung"  # typed: stays as typed
    assert spelling.as_written("haskell", "haskel", {}) == "haskell"
    # The commonest form decides, an unaccented one too; a possessive is no form of its own.
    mostly = spelling.written_forms(["Zahlen", "Zahlen und zählen", "zahlen", "Gödel's proof", "Gödel"])
    assert "zahlen" not in mostly and mostly["godel"] == "gödel"


def test_the_words_to_ask_about_are_those_the_correction_changed():
    assert spelling.changed("développeur web", "developeur web") == ""  # written already
    assert spelling.changed("developpeur web", "developeur web") == "developpeur"
    assert spelling.changed("haskell", "haskell") == ""
    assert spelling.plain("<em>Einf&uuml;hrung</em> &amp; mehr") == "Einführung & mehr"


def test_an_empty_page_asks_how_the_blog_writes_the_words_it_offers():
    body = starters.request(posts=5, tags=0, spell="developpeur")
    posts = body["aggs"][starters.SPELLED]["aggs"]["posts"]["top_hits"]
    assert body["aggs"][starters.SPELLED]["filter"]["multi_match"]["query"] == "developpeur" and posts["_source"] is False
    assert set(posts["highlight"]["fields"]) == {"title.exact", "text.exact", "comment.exact"}
    assert starters.SPELLED not in starters.request(posts=5, tags=0)["aggs"]
    answer = {"aggregations": {starters.SPELLED: {"posts": {"hits": {"hits": [{"highlight": {"title.exact": ["Le <em>développeur</em>"]}}]}}}}}
    assert starters.spelled(answer) == ["Le développeur"] and starters.spelled({}) == []


@pytest.mark.django_db
def test_a_french_page_shows_its_corrections_with_their_accents(client, build_index, settings):
    settings.SEARCH = {**settings.SEARCH, "LANGUAGE": "fr", "CACHE_SECONDS": 0}
    settings.LANGUAGE_CODE = "fr"
    for i in range(3):
        make_post(f"L'accessibilité des formulaires {i}", "Un développeur attentif à l'accessibilité.")
    make_post("Le café du matin", "Un café serré.")
    build_index()
    shown = client.get(reverse("search:api"), {"q": "acessibilite "}).json()
    assert shown["showing_for"] == "accessibilité" and shown["results"]
    page = client.get(reverse("search:results"), {"q": "acessibilite"}).content.decode()
    assert "Résultats pour <strong>accessibilité</strong>" in page or "accessibilité</strong>" in page
    empty = client.get(reverse("search:results"), {"q": "cafi"}).content.decode()
    assert 'id="empty-state"' in empty and "café</a>" in empty and "cafe</a>" not in empty  # "Vouliez-vous dire café ?"
