"""The search box in a real browser: Playwright driving Debian's Chromium against a live server.

Screenshots go to tests/screenshots/ (ignored by git)."""
import os
import shutil
from pathlib import Path

import pytest

from tests.factories import make_comment, make_post

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SHOTS = Path(__file__).resolve().parent / "screenshots"


@pytest.fixture(scope="module")
def browser():
    if not shutil.which(CHROMIUM):
        message = f"Chromium not found at {CHROMIUM} (apt-get install chromium; `make test` does it as root)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    # Playwright's sync API runs an event loop in this thread; the ORM calls of the fixtures are
    # still synchronous and safe here.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        yield browser
        browser.close()
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def site(live_server, build_index):
    firefox = make_post("Firefox keyboard shortcuts", "Firefox has many keyboard shortcuts for tabs.")
    make_post("Writing a Firefox extension", "An extension for the Firefox browser.")
    jekyll = make_post("A minimal Jekyll theme", "This Jekyll theme is minimal. " + "Lorem ipsum dolor sit amet. " * 80)
    for i in range(8):
        make_comment(jekyll, f"Filler comment number {i}. " + "Nice theme, thanks for sharing it. " * 6)
    comment = make_comment(jekyll, "I wired up Staticman to receive comments.")
    for i in range(14):
        make_post(f"Browser roundup {i:02d}", "Firefox and Chrome news.", days_ago=20 + i)
    build_index()
    return {"url": live_server.url, "firefox": firefox, "comment": comment}


def test_instant_results_then_submit_shows_highlighted_corrected_results(page, site):
    page.goto(site["url"] + "/")
    page.fill("#search-input", "firefix")
    instant = page.locator("#instant-results")
    instant.locator("a.instant-hit").first.wait_for(state="visible", timeout=10_000)
    assert "Firefox" in instant.inner_text()
    assert "Showing results for firefox" in instant.inner_text()
    page.screenshot(path=str(SHOTS / "instant-results.png"))
    page.press("#search-input", "Enter")
    page.wait_for_url("**/search/?q=firefix*")
    assert "Showing results for firefox (you typed firefix)" in page.locator("#showing-for").inner_text()
    marks = page.locator("ol.results mark")
    assert marks.count() > 0 and marks.first.inner_text().lower() == "firefox"
    page.screenshot(path=str(SHOTS / "results.png"), full_page=True)


def test_comment_hit_lands_on_its_anchor(page, site):
    page.goto(site["url"] + "/search/?q=staticmann")
    link = page.locator("li.result-comment a").first
    link.click()
    page.wait_for_url(f"**#comment-{site['comment'].pk}")
    target = page.locator(f"#comment-{site['comment'].pk}")
    assert "Staticman" in target.inner_text()
    assert page.evaluate("document.querySelector(':target').id") == f"comment-{site['comment'].pk}"
    box = target.bounding_box()
    assert box is not None and 0 <= box["y"] < 900  # scrolled into view
    page.screenshot(path=str(SHOTS / "comment-anchor.png"))


def test_paging_through_results(page, site):
    page.goto(site["url"] + "/search/?q=firefox")
    first = page.locator("ol.results li").all_inner_texts()
    assert "Page 1 of 2" in page.locator("nav.pagination").inner_text()
    page.click("a[rel=next]")
    page.wait_for_url("**page=2*")
    second = page.locator("ol.results li").all_inner_texts()
    assert "Page 2 of 2" in page.locator("nav.pagination").inner_text()
    assert second and not set(first) & set(second)
    page.click("a[rel=prev]")
    page.wait_for_url("**page=1*")


def test_debug_table(page, site):
    page.goto(site["url"] + "/search/?q=firefix&debug-search")
    table = page.locator("#debug-table")
    table.wait_for(state="visible")
    text = table.inner_text()
    assert "firefix (typed)" in text and "firefox" in text
    assert "match_phrase" in page.locator("section.debug").inner_text()
    page.screenshot(path=str(SHOTS / "debug-table.png"), full_page=True)


def test_search_box_works_without_javascript(browser, site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site["url"] + "/")
    page.fill("#search-input", "jekyl")
    page.press("#search-input", "Enter")
    page.wait_for_url("**/search/?q=jekyl*")
    assert "Jekyll" in page.locator("ol.results").inner_text()
    context.close()
