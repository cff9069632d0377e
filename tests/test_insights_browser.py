"""Search insights in a real browser (Playwright driving Debian's Chromium against a live server):
a misspelled query typed into the search box, a result opened, and the admin report that shows
the query, its correction and the click. The screenshot of the report lands in tests/screenshots/.
"""

import time

import pytest

from insights.buffer import buffer
from insights.models import SearchClick, SearchLog
from tests.browser_support import SHOTS, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REPORT = "/admin/insights/searchlog/report/"


def wait_for(condition, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.05)
    return condition()


def test_typed_query_opened_result_and_the_report(page, site, admin_user):
    url = site["url"]
    page.goto(url + "/")
    # Typed key by key: every keystroke past the debounce asks the server, one burst in all.
    # The reader waits for the dropdown to answer what they typed (on a busy machine the answer to
    # "firefi" can still be on screen when the last key is up).
    with page.expect_response(lambda r: "q=firefix&" in r.url, timeout=10_000):
        page.locator("#search-input").press_sequentially("firefix", delay=200)
    option = page.locator("#instant-listbox:not([aria-busy]) [role=option]").first
    option.wait_for(state="visible", timeout=10_000)
    assert "Showing results for firefox" in page.locator("#instant-note").inner_text()
    href = option.get_attribute("href")
    option.click()
    page.wait_for_url(url + href)
    assert wait_for(SearchClick.objects.exists), "the click beacon never arrived"
    buffer.flush()
    [search] = SearchLog.objects.all()  # one search for the whole typing burst
    assert (search.source, search.query, search.showing_for, search.seq > 1) == ("instant", "firefix", "firefox", True)
    [click] = SearchClick.objects.all()
    assert (click.token, click.position, click.url) == (search.token, 1, href)

    log_in(page, url, admin_user)
    page.goto(url + "/admin/insights/searchlog/")
    page.click("text=Search report")
    page.wait_for_url("**" + REPORT)
    assert "firefix" in page.locator("#table-top-queries").inner_text()
    corrections = page.locator("#table-corrections tbody tr").first.inner_text()
    assert "firefix" in corrections and "firefox" in corrections
    assert page.locator("#report-clicks").inner_text() == "1"
    assert page.locator("#report-position").inner_text() == "1.0"
    assert page.locator("svg.chart").count() == 3 and page.locator("#chart-searches rect").count() == 1
    page.screenshot(path=str(SHOTS / "search-report.png"), full_page=True)


def test_a_results_page_click_is_a_beacon_to_the_post_itself(page, site):
    page.goto(site["url"] + "/search/?q=jekyl")
    link = page.locator("ol.results a[data-href]").first
    target = link.get_attribute("data-href")
    assert link.get_attribute("href") == target  # the script put the post's own URL back
    link.click()
    page.wait_for_url(site["url"] + target)
    assert wait_for(SearchClick.objects.exists)
    assert SearchClick.objects.get().url == target


def test_a_results_page_click_without_javascript_goes_through_the_redirect(browser, site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site["url"] + "/search/?q=staticmann")
    link = page.locator("ol.results a[data-href]").first
    target = link.get_attribute("data-href")
    assert link.get_attribute("href").startswith("/search/click?")
    link.click()
    page.wait_for_url(site["url"] + target)
    assert page.locator(f"#comment-{site['comment'].pk}").count() == 1  # the post of the matching comment
    context.close()
    assert SearchClick.objects.get().url == target
