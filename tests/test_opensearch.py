"""The browser's own search bar: /opensearch.xml, linked from every page, and /api/suggest/."""

import xml.etree.ElementTree as ET

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from tests.factories import make_post

pytestmark = pytest.mark.django_db

NS = {"os": "http://a9.com/-/spec/opensearch/1.1/"}
LINK = '<link rel="search" type="application/opensearchdescription+xml" title="Blog search" href="/opensearch.xml">'
SUGGEST = reverse("search:suggest")


def test_description_is_valid_xml_with_the_right_urls(client, settings):
    settings.ALLOWED_HOSTS = ["blog.example.com"]
    response = client.get("/opensearch.xml", HTTP_HOST="blog.example.com", secure=True)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/opensearchdescription+xml"
    assert response.content.startswith(b'<?xml version="1.0" encoding="UTF-8"?>')
    root = ET.fromstring(response.content)  # raises on anything that is not well-formed XML
    assert root.tag == "{http://a9.com/-/spec/opensearch/1.1/}OpenSearchDescription"
    assert root.findtext("os:ShortName", namespaces=NS) == "Blog search"
    assert len(root.findtext("os:ShortName", namespaces=NS)) <= 16  # the spec's limit
    assert root.findtext("os:InputEncoding", namespaces=NS) == "UTF-8"
    urls = {u.get("type"): u.get("template") for u in root.findall("os:Url", namespaces=NS)}
    assert urls == {
        "text/html": "https://blog.example.com/search/?q={searchTerms}",
        "application/x-suggestions+json": "https://blog.example.com/api/suggest/?q={searchTerms}",
        "application/json": "https://blog.example.com/api/search/?q={searchTerms}",
        "application/opensearchdescription+xml": "https://blog.example.com/opensearch.xml",
    }


@pytest.fixture
def es_up(build_index):
    make_post("Firefox keyboard shortcuts", "Firefox has many keyboard shortcuts for tabs.")
    make_post("Writing a Firefox extension", "An extension for the Firefox browser.")
    build_index()


@pytest.mark.parametrize("path", ["/", "/search/", "/search/?q=firefix", "/search/?q=firefix&debug-search", "/search/?q=x&page=0", "/nowhere/"])
def test_every_page_links_the_description(client, es_up, path, settings):
    settings.DEBUG = False  # the real 404 page, not Django's technical one
    assert LINK in client.get(path).content.decode()


def test_post_page_links_the_description(client):
    post = make_post("Linked", "body")
    assert LINK in client.get(post.get_absolute_url()).content.decode()


def test_unavailable_and_server_error_pages_link_the_description(client, es_down):
    response = client.get("/search/", {"q": "firefox"})
    assert response.status_code == 503 and LINK in response.content.decode()
    assert LINK in render_to_string("500.html")


def test_suggestions_in_the_opensearch_shape(client, es_up):
    response = client.get(SUGGEST, {"q": "firefix"})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-suggestions+json; charset=utf-8"
    query, completions = response.json()
    assert query == "firefix"
    # The correction first, then the titles of the top hits, no repeats.
    assert completions[0] == "firefox"
    assert set(completions[1:]) == {"Firefox keyboard shortcuts", "Writing a Firefox extension"}


def test_a_correction_that_kept_a_half_typed_word_is_not_suggested(client, es_up):
    """Issue 54 item 8: "firefix ext" suggested the half word "firefox ext" first."""
    query, completions = client.get(SUGGEST, {"q": "firefix ext"}).json()
    assert "firefox ext" not in completions and completions[0] == "Writing a Firefox extension", completions


def test_suggestions_are_capped_and_escape_safe(client, es_up, settings):
    make_post("<script>alert(1)</script> Firefox & friends", "Firefox tricks.")
    from search.sync.rebuild import rebuild

    rebuild()
    settings.SEARCH = {**settings.SEARCH, "SUGGEST_COMPLETIONS": 2}
    response = client.get(SUGGEST, {"q": "firefox <b>"})
    body = response.content.decode()
    assert "<" not in body and ">" not in body and "&" not in body  # \u003c etc.: never readable as HTML
    query, completions = response.json()
    assert query == "firefox <b>" and len(completions) == 2


def test_suggestions_are_empty_when_search_is_unavailable(client, es_down):
    response = client.get(SUGGEST, {"q": "firefox"})
    assert response.status_code == 200 and response.json() == ["firefox", []]


def test_suggestions_of_nothing(client):
    assert client.get(SUGGEST).json() == ["", []]
    assert client.get(SUGGEST, {"q": "x", "page": "9999"}).json()[0] == "x"


def test_the_description_names_an_icon(client):
    """Issue 54 item 8: the description had no <Image>, so a browser showed a blank icon."""
    root = ET.fromstring(client.get(reverse("search:opensearch")).content)
    image = root.find("os:Image", NS)
    assert image is not None and image.get("type") == "image/png" and image.text.endswith("/static/search/icon.png")
    from django.contrib.staticfiles import finders

    icon = finders.find("search/icon.png")  # shipped with the app, a site may name its own
    assert icon and open(icon, "rb").read(8) == b"\x89PNG\r\n\x1a\n"
