"""HTTP fuzzing of /search/ and /api/search/ against the real services.

FUZZ_EXAMPLES inputs per endpoint (300 in `make test`; `make fuzz` runs 10,000): Unicode of every
category, control characters, 10 KB strings, Lucene and JSON syntax, HTML/JS, bad `page` values,
raw invalid UTF-8. No 500, no input reflected unescaped into HTML, bounded time per request.
"""

import html
import os
import time
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.factories import make_comment, make_post

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "300"))
MAX_SECONDS = 2.0

SYNTAX = [
    "title:",
    "AND",
    "OR",
    "NOT",
    "*",
    "?",
    "~2",
    "^5",
    '"',
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "/",
    "\\",
    ":",
    "!",
    "&&",
    "||",
    "-",
    "+",
    '{"query": {"match_all": {}}}',
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "javascript:",
    "'; DROP TABLE blog_post; --",
    "%00",
    "\u0000",
    "\u202e",
    "\ufeff",
    "{{ x }}",
    "{% debug %}",
    "<mark>",
    "</mark>",
    "&amp;",
    "&#x3c;",
    "firefix",
    "jekyl",
    "staticman",
    # The reader's syntax (search/querying/syntax.py) and the symbol words (search/symbols.py).
    '"going evented"',
    '-"a phrase"',
    "-java",
    "\u2212java",
    "\u201cquoted\u201d",
    "c#",
    "C++",
    "-c#",
    ".net",
    "f#",
    "c++11",
    '"c# intro',
]
PIECES = st.one_of(
    st.text(alphabet=st.characters(codec=None, exclude_categories=("Cs",)), max_size=60),
    st.sampled_from(SYNTAX),
    st.text(alphabet=st.characters(max_codepoint=0x1F), max_size=20),
)
QUERIES = st.one_of(
    st.lists(PIECES, max_size=8).map(" ".join),
    st.integers(5_000, 12_000).map(lambda n: "a " * (n // 2)),
    st.integers(5_000, 12_000).map(lambda n: "é" * n),
)
PAGES = st.one_of(st.none(), st.integers(-5, 80).map(str), st.sampled_from(["", "abc", "1.5", "1e3", "٣", "0x10", " 2 ", "9" * 30]), st.text(max_size=10))


@pytest.fixture
def corpus(build_index):
    post = make_post("Firefox keyboard shortcuts", "Firefox has <b>many</b> shortcuts & tricks")
    make_post("A minimal Jekyll theme", "Jekyll theme notes")
    make_comment(post, "Staticman <script>alert('stored')</script> comment")
    build_index()


def check(client, url, params=None, raw_query=None):
    started = time.perf_counter()
    response = client.get(f"{url}?{raw_query}") if raw_query is not None else client.get(url, params)
    elapsed = time.perf_counter() - started
    assert response.status_code in (200, 400), (url, params, raw_query, response.status_code)
    assert elapsed < MAX_SECONDS, (url, params, elapsed)
    body = response.content.decode("utf-8")
    q = (params or {}).get("q") or ""
    if response["Content-Type"].startswith("text/html"):
        assert "<script>alert" not in body and "<img src=x" not in body
        for dangerous in ("<script", "<img", "<mark>"):
            if dangerous in q:
                # The only way such input may appear is escaped.
                assert q not in body or html.escape(q) == q
    else:
        assert "<" not in body and ">" not in body  # JSON escapes them as \u003c / \u003e
    return response


FUZZ_SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, derandomize=False, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)


@pytest.mark.django_db
@FUZZ_SETTINGS
@given(q=QUERIES, page=PAGES, debug=st.booleans())
def test_fuzz_results_page(client, corpus, q, page, debug):
    params = {"q": q}
    if page is not None:
        params["page"] = page
    if debug:
        params["debug-search"] = ""
    check(client, "/search/", params)


@pytest.mark.django_db
@FUZZ_SETTINGS
@given(q=QUERIES, page=PAGES)
def test_fuzz_api(client, corpus, q, page):
    params = {"q": q} if page is None else {"q": q, "page": page}
    check(client, "/api/search/", params)


@pytest.mark.django_db
@settings(max_examples=max(EXAMPLES // 3, 50), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=200))
def test_fuzz_raw_bytes_in_the_query_string(client, corpus, raw):
    encoded = quote(raw, safe="")
    for url in ("/search/", "/api/search/"):
        check(client, url, raw_query=f"q={encoded}&page={encoded[:6]}")
