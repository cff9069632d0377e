"""Playwright fixtures shared by the browser tests (Debian's Chromium driven against a live server).

Every page opened through the `page` fixture records Content-Security-Policy violations (the
browser's `securitypolicyviolation` events and its console reports) and fails the test at the end
if there were any, so each browser test also checks that the site needs no inline script or style.
"""

import os
import re
import shutil
from pathlib import Path

import pytest

from tests.factories import make_comment, make_post

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SHOTS = Path(__file__).resolve().parent / "screenshots"
AXE_OPTIONS = {"resultTypes": ["violations"]}

# Runs before any page script, outside the page's CSP (Playwright injects it through the protocol).
RECORD_CSP_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__cspViolations.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""


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
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


def csp_violations(page) -> list[str]:
    """The violations the page recorded so far (empty when it has navigated away from none)."""
    return page.evaluate("window.__cspViolations || []")


def new_page(browser, **context_options):
    """A page in its own context that records CSP violations; returns (page, console_csp_messages)."""
    context = browser.new_context(**{"viewport": {"width": 1100, "height": 900}, **context_options})
    context.add_init_script(RECORD_CSP_VIOLATIONS)
    page = context.new_page()
    console = []  # also catches violations on pages the test has navigated away from
    page.on("console", lambda msg: console.append(msg.text) if "Content Security Policy" in msg.text else None)
    return page, console


def violations(page) -> list[str]:
    """axe-core's violations on the page as it is now, one readable line each (axe-core ships
    inside axe-playwright-python: nothing is fetched)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, options=AXE_OPTIONS)
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']]}" for v in results.response["violations"]]


def log_in(page, url, user):
    """Signs `user` (password "password") into the admin in this page."""
    page.goto(url + "/admin/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", "password")
    page.click("input[type=submit]")
    page.wait_for_url("**/admin/")


def every_page(page, url: str):
    """Opens `url`, then each following page of its results ("Next"), yielding after each load."""
    page.goto(url)
    while True:
        yield page
        following = page.locator("a[rel=next]")
        if not following.count():
            return
        with page.expect_navigation():
            following.first.click()


def count(page) -> int:
    return int(re.match(r"(\d+) result", page.locator(".summary-line").inner_text()).group(1))


def showing_for(page) -> str:
    """Where a corrected page names the spelling it shows: the notice on a wide screen, the heading
    on a narrow one (issue 54 item 6)."""
    return page.locator("#showing-for strong:visible, h1 .heading-shown:visible").first.inner_text()


def listed_titles(page, url: str) -> list[str]:
    """Every title the pages of a search list, following "Next" to the last page."""
    return [t for shown in every_page(page, url) for t in shown.locator("ol.results > li > a[data-position]").all_inner_texts()]


@pytest.fixture
def page(browser):
    page, console = new_page(browser)
    yield page
    leftover = [] if page.is_closed() else csp_violations(page)
    page.context.close()
    assert not console and not leftover, f"Content-Security-Policy violations: {console + leftover}"


@pytest.fixture
def site(live_server, build_index):
    firefox = make_post("Firefox keyboard shortcuts", "Firefox has many keyboard shortcuts for tabs.", tags=["browsers", "keyboard"])
    make_post("Writing a Firefox extension", "An extension for the Firefox browser.", tags=["browsers", "extensions"])
    jekyll = make_post("A minimal Jekyll theme", "This Jekyll theme is minimal. " + "Lorem ipsum dolor sit amet. " * 80)
    for i in range(8):
        make_comment(jekyll, f"Filler comment number {i}. " + "Nice theme, thanks for sharing it. " * 6)
    comment = make_comment(jekyll, "I wired up Staticman to receive comments.")
    for i in range(14):
        make_post(f"Browser roundup {i:02d}", "Firefox and Chrome news.", days_ago=20 + i, tags=["news", "browsers"])
    build_index()
    return {"url": live_server.url, "firefox": firefox, "jekyll": jekyll, "comment": comment}


@pytest.fixture
def blog(site, build_index):
    """The shared site, plus a Jekyll post of long ago, a post of this year found only as "jewel
    staticman", posts a weaker spelling of "firefix extnsion" finds ("fire fix extension": the
    posts of fire and of fix are no post of "firefox extension"), posts of seven years, a post of
    javascript, and a post with many comments."""
    make_post("Improving static comments with Jekyll and Staticman", "Jekyll with Staticman.", days_ago=3000, tags=["jekyll"])
    make_post("A jewel of a conference", "I met the staticman maintainers there.", days_ago=2)
    for i in range(3):
        make_post(f"Extensions I like {i}", "Browser extensions and more extensions.", days_ago=40 + i, tags=["browsers"])
        make_post(f"Fire drill notes {i}", "The fire alarm rang.", days_ago=400 + i, tags=["safety"])
        make_post(f"A quick fix {i}", "How to fix a leaking tap.", days_ago=800 + i, tags=["home"])
    for years_ago in range(7):
        make_post(f"Almanac {years_ago}", "The almanac of the year.", days_ago=365 * years_ago + 5)
    make_post("Learning javascript closures", "Closures.")  # indexed by the build: a save now may wait in the outbox
    busy = make_post("Comments galore", "A post readers discuss.", tags=["talk"])
    for i in range(6):
        make_comment(busy, f"Galore comment {i}: staticman works for me.")
    build_index()
    return site
