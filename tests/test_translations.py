"""The search pages in the site's language (issue 53.5): German and French catalogues shipped in
search/locale/, every string of the templates and the script translated, dates in the locale.

The catalogues are checked with GNU gettext's own tools (devservices/bench-tools.sh installs
them): every message of the sources has a translation (msgcmp against a fresh template), the
formats agree (msgfmt --check), and the compiled catalogue a wheel ships is the one its .po says."""

import gettext
import json
import re
import shutil
import subprocess
from html import unescape
from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from search import conf
from search.templatetags import search_words
from tests.factories import make_post

SEARCH = Path(conf.__file__).parent
LANGUAGES = ("de", "fr")


def catalogue(language: str, ext: str) -> Path:
    return SEARCH / "locale" / language / "LC_MESSAGES" / f"django.{ext}"


def tool(name: str) -> str:
    found = shutil.which(name)
    assert found, f"{name} not found: GNU gettext (devservices/bench-tools.sh installs it)"
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalogue_is_well_formed_and_compiled(tmp_path, language):
    """msgfmt checks each translation's %(name)s and plural forms; the .mo in the repository (the
    wheel's) holds what the .po says, so no site needs gettext installed to read it."""
    compiled = tmp_path / "django.mo"
    subprocess.run([tool("msgfmt"), "--check", "-o", compiled, catalogue(language, "po")], check=True, capture_output=True)
    with open(compiled, "rb") as fresh, open(catalogue(language, "mo"), "rb") as shipped:
        assert gettext.GNUTranslations(shipped)._catalog == gettext.GNUTranslations(fresh)._catalog, "run: cd search && ../manage.py compilemessages"


def test_every_message_of_the_sources_is_translated(tmp_path):
    """A fresh template of the sources' messages (makemessages on a copy of search/), and each
    catalogue translates every one of them (msgcmp: none missing, none left empty)."""
    copy = tmp_path / "search"
    shutil.copytree(SEARCH, copy, ignore=shutil.ignore_patterns("*.so", "__pycache__", "data"))
    manage = Path(conf.__file__).parent.parent / "manage.py"
    subprocess.run(["python", str(manage), "makemessages", "-l", "de", "--keep-pot", "--no-location"], cwd=copy, check=True, capture_output=True, env=_env())
    pot = copy / "locale" / "django.pot"
    for language in LANGUAGES:
        done = subprocess.run([tool("msgcmp"), catalogue(language, "po"), pot], capture_output=True, text=True)
        assert done.returncode == 0, f"{language}: {done.stderr[-2000:]} (cd search && ../manage.py makemessages -l de -l fr --no-location)"
    assert "Showing results for" in pot.read_text()  # it did read the templates


def _env() -> dict:
    import os
    import sys

    return {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}


def test_the_instant_results_get_their_words_in_the_pages_language():
    with translation.override("fr"):
        box = render_to_string("search/box.html", {})
    texts = json.loads(unescape(re.search(r'data-texts="([^"]*)"', box).group(1)))
    assert texts["did_you_mean"] == "Vouliez-vous dire {suggestion} ?"
    assert texts["zero_is_one"] is True and texts["result_one"] == "{n} résultat"  # "0 résultat"
    assert texts["months"][11].lower().startswith("déc")
    assert texts["months"][5:8] == ["juin", "juil.", "août"] and "date" not in texts  # "j M Y" as in English; Django's "M" is "Jui" for June and July
    assert 'placeholder="Chercher dans les articles et les commentaires"' in box
    with translation.override("en"):
        assert "data-texts" not in render_to_string("search/box.html", {})  # the script's defaults are English
        english = search_words._instant_texts()
    assert english["zero_is_one"] is False and english["months"][0] == "Jan" and english["date"] == "j M Y"
    script = (SEARCH / "static" / "search" / "instant-search.js").read_text()
    for key, value in english.items():  # the script's defaults are the English texts, every one
        assert f"{key}: {json.dumps(value)}" in script or key == "months", (key, value)


def test_a_site_that_names_its_own_words_keeps_them_in_every_language(settings):
    settings.SEARCH = {**settings.SEARCH, "WORDS": {"entries": "Rezepte"}}
    with translation.override("de"):
        box = render_to_string("search/box.html", {})
    assert 'placeholder="Rezepte und Kommentare durchsuchen"' in box  # its own noun, the default one translated


@pytest.mark.django_db
def test_a_german_blogs_pages_speak_german(client, build_index, settings):
    settings.LANGUAGE_CODE = "de"
    make_post("Nebenläufigkeit in Rust", "Wie Threads und Kanäle zusammenspielen.", tags=["rust"])
    make_post("Testen von generiertem Code", "Ein Streifzug durch Haskell.")
    build_index()
    page = client.get(reverse("search:results"), {"q": "rust"}).content.decode()
    assert "Ergebnisse für <q>rust</q>" in page and "1 Ergebnis" in page
    assert "Beste Treffer" in page and "Neueste zuerst" in page and ">Filter" in page
    assert re.search(r'<time class="kind" datetime="[\d-]+">\d{1,2}\. \w+\.? \d{4}</time>', page), "dates as German writes them"
    empty = client.get(reverse("search:results"), {"q": "qzxvbnm"}).content.decode()
    assert "Im Blog erwähnen keine Beiträge <q>qzxvbnm</q>" in empty and "Tipp:" in empty
    assert 'placeholder="Beiträge und Kommentare durchsuchen"' in empty and "Showing results" not in empty
    bad = client.get(reverse("search:results"), {"q": "rust", "page": "x"}).content.decode()
    assert "die Seite muss eine ganze Zahl sein" in bad


@pytest.mark.django_db
def test_a_french_blog_says_how_many_in_french(client, build_index, settings):
    settings.LANGUAGE_CODE = "fr"
    make_post("Serveur déprimé", "Un serveur qui ne répond plus.")
    build_index()
    page = client.get(reverse("search:results"), {"q": "serveur"}).content.decode()
    assert "Résultats pour <q>serveur</q>" in page and "1 résultat" in page and "Pertinence" in page
    assert '<html lang="fr">' in page  # read aloud in French
    assert re.search(r'<time class="kind" datetime="[\d-]+">\d{1,2} [a-zéû]+\.? \d{4}</time>', page), "months as French writes them: juil., août"
    page = client.get(reverse("search:results"), {"q": "serveur", "page": "7"}).content.decode()
    assert "La page 7 est au-delà de la dernière page" in page


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_dropdown_speaks_german_in_a_browser(page, site, settings):
    """The script reads the box's texts: "See all" and the count in German, dates as German writes them."""
    settings.LANGUAGE_CODE = "de"
    page.goto(site["url"] + "/")
    page.fill("#search-input", "firefox")
    options = page.locator("#instant-listbox:not([aria-busy]) [role=option]")
    options.first.wait_for(timeout=10_000)
    last = options.last.inner_text()
    assert re.fullmatch(r"Alle anzeigen \(\d+ Ergebnisse?\)", last), last
    assert re.search(r"\d{1,2}\. \w+\.? \d{4}", options.first.inner_text()), options.first.inner_text()
    status = page.locator("#instant-status").inner_text()
    assert "Pfeiltasten" in status and "results" not in status, status
    assert page.get_attribute("#search-input", "placeholder") == "Beiträge und Kommentare durchsuchen"
