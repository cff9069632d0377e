"""axe-core finds no violation of any impact on the pages readers see.

axe-core ships inside axe-playwright-python (nothing is fetched at run time) and runs every rule it
enables by default: WCAG 2.0-2.2 A and AA and the best practices. Each page is checked as it is
(and the instant results as they look open, with an option highlighted), at desktop and phone width.
"""

import pytest

from tests.browser_support import log_in, violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def check(page, url: str, h1: str) -> list[str]:
    """Opens url, makes sure it is the page meant (its h1), and returns axe's violations there."""
    page.goto(url)
    assert h1 in page.locator("h1").inner_text()
    return violations(page)


@pytest.mark.parametrize("width", [1280, 375])
def test_reader_pages_have_no_axe_violations(page, site, width):
    page.set_viewport_size({"width": width, "height": 900})
    url = site["url"]
    corrected = "firefix" if width > 480 else "firefox"  # a phone heads a corrected page with the spelling shown
    found = {
        "home": check(page, url + "/", "Recent posts"),
        "post": check(page, url + site["jekyll"].get_absolute_url(), "A minimal Jekyll theme"),
        "results with a correction": check(page, url + "/search/?q=firefix", corrected),
        "results newest first": check(page, url + "/search/?q=firefix&sort=new", corrected),
        "results with no result": check(page, url + "/search/?q=qwxzv+plokij", "qwxzv plokij"),
        "results with comments inside an entry": check(page, url + "/search/?q=staticman+comment", "staticman comment"),
        "results narrowed by tags": check(page, url + "/search/?q=firefox&tag=browsers&tag=news", "firefox"),
        "debug table": check(page, url + "/search/?q=firefix&debug-search", corrected),
        "empty search": check(page, url + "/search/", "Search"),
        "not found": check(page, url + "/no-such-page/", "Page not found"),
    }
    assert page.locator("#debug-table").count() == 0  # the last page is the 404, not the debug table
    assert not any(found.values()), "\n".join(f"{k}: {v}" for k, v in found.items() if v)


def test_results_pages_say_what_they_show(page, site):
    """The pages checked above are the intended states (a correction, nothing found, the table)."""
    page.goto(site["url"] + "/search/?q=firefix")
    assert "Showing results for firefox" in page.locator("#showing-for").inner_text()
    page.goto(site["url"] + "/search/?q=qwxzv+plokij")
    assert "0 results" in page.locator(".summary-line").inner_text()
    page.goto(site["url"] + "/search/?q=firefix&debug-search")
    assert "firefix\ttyped" in page.locator("#debug-table").inner_text()
    page.goto(site["url"] + "/search/?q=staticman+comment")
    assert page.locator(".comment-matches li").count() == 3 and "more comments match" in page.locator(".more-comments").inner_text()
    page.goto(site["url"] + "/search/?q=firefox&tag=browsers&tag=news")
    assert page.locator(".active-filters li").count() == 3  # two tags and "Clear all"
    assert page.locator(".facets h2").all_inner_texts() == ["Tags", "Year"]


@pytest.mark.parametrize("width", [1280, 375])
def test_open_instant_results_have_no_axe_violations(page, site, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(site["url"] + "/")
    page.fill("#search-input", "firefix")
    page.locator("#instant-listbox [role=option]").first.wait_for(state="visible")
    page.press("#search-input", "ArrowDown")
    assert page.get_attribute("#search-input", "aria-activedescendant") == "instant-option-0"
    assert violations(page) == []


@pytest.mark.parametrize("width", [1280, 375])
def test_search_unavailable_page_has_no_axe_violations(page, site, request, width):
    page.set_viewport_size({"width": width, "height": 900})
    request.getfixturevalue("es_down")  # after the index is built: Elasticsearch unreachable now
    response = page.goto(site["url"] + "/search/?q=firefox")
    assert response.status == 503
    assert "Search is taking a break" in page.locator("h1").inner_text()
    assert violations(page) == []


@pytest.mark.parametrize("width", [1280, 375])
def test_search_report_has_no_axe_violations(page, site, admin_user, width):
    """The owner's search report in the admin (insights/), with data and for an empty period."""
    from insights.buffer import buffer

    page.set_viewport_size({"width": width, "height": 900})
    url = site["url"]
    for q in ("firefix", "qwxzv plokij"):
        page.goto(f"{url}/search/?q={q}")
    buffer.flush()
    log_in(page, url, admin_user)
    found = {
        "report with data": check(page, url + "/admin/insights/searchlog/report/", "Search report"),
        "empty report": check(page, url + "/admin/insights/searchlog/report/?first=2020-01-01&last=2020-01-07", "Search report"),
    }
    assert page.locator("#report-empty").count() == 1  # the last page is the empty period
    assert not any(found.values()), "\n".join(f"{k}: {v}" for k, v in found.items() if v)
