"""Every response carries the Content-Security-Policy of settings.SECURE_CSP (config/csp.py).

That the pages need nothing the policy forbids (no inline script or style) is checked in a real
browser by every test in tests/test_browser.py (see tests/browser_support.py)."""

import pytest

from config.csp import header_value, policy_key
from tests.factories import make_post

pytestmark = pytest.mark.django_db

EXPECTED = (
    "default-src 'self'; img-src 'self' data: https:; style-src-attr 'unsafe-inline'; frame-src https:; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)


def test_the_policy_is_the_agreed_one():
    assert header_value(policy_key()) == EXPECTED


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/search/",
        "/search/?q=firefox",
        "/api/search/?q=firefox",
        "/api/suggest/?q=a",
        "/opensearch.xml",
        "/healthz",
        "/nowhere/",
        "/admin/login/",
        "/static/site.css",
        "/static/search/instant-search.js",
    ],
)
def test_every_response_carries_the_policy(client, es_down, path):
    response = client.get(path)
    assert response["Content-Security-Policy"] == EXPECTED, (path, response.status_code)


def test_post_pages_carry_the_policy(client):
    assert client.get(make_post("With policy").get_absolute_url())["Content-Security-Policy"] == EXPECTED


def test_templates_hold_no_inline_script_or_style(client):
    html = client.get("/").content.decode()
    assert "<script src=" in html and "<script>" not in html and "<style" not in html and "style=" not in html


def test_the_setting_drives_the_header(client, settings):
    settings.SECURE_CSP = {"default-src": ["'none'"]}
    assert client.get("/")["Content-Security-Policy"] == "default-src 'none'"
    settings.SECURE_CSP = {}
    assert "Content-Security-Policy" not in client.get("/")
