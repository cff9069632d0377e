"""Issue 54 in a real browser (Playwright, Debian's Chromium, the real services): newest first on
the results the page counts, empty pages that help, the dropdown while a word is half-typed, the
query as typed after a correction, the phone's header. Each test failed before its fix."""

import pytest

from tests.browser_support import every_page
from tests.test_results_second_pass import count, listed_titles

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
OPTIONS = "#instant-listbox:not([aria-busy]) [role=option]"


def counted_titles(page, url: str) -> list[str]:
    """The titles the pages of a search list as its own spelling's posts (not "found as" another)."""
    own = lambda shown: shown.locator("ol.results > li").filter(has_not=shown.locator(".other-spelling"))  # noqa: E731
    return [t for shown in every_page(page, url) for t in own(shown).locator("> a[data-position]").all_inner_texts()]


@pytest.mark.parametrize("width", [1280, 375])
def test_newest_first_orders_the_results_the_page_counts(page, blog, width):
    """Issue 54 item 2: "firefix extnsion" counted 19 posts of "firefox extension" by best match and
    listed 1 newest first (only posts holding every word of some spelling), the posts of "fire fix
    extension" among them, with "fix" marked. Newest first lists the counted posts, by date, marks
    only the words of the spelling shown, and says at the control what it lists."""
    page.set_viewport_size({"width": width, "height": 900})
    url = blog["url"] + "/search/?q=firefix+extnsion"
    best = counted_titles(page, url)
    page.goto(url)
    total = count(page)
    assert total == len(best) > 10  # two pages
    page.locator("nav.sort a", has_text="Newest first").click()
    page.wait_for_url("**sort=new*")
    assert count(page) == total and "firefox extension" in page.locator("#showing-for").inner_text()
    note = page.locator("#order-note").inner_text()
    assert f"same {total} results" in note, note
    assert "found as another spelling" in note  # what Best match lists besides
    assert page.locator("nav.sort #order-note").count() == 1  # said at the control, not above it
    marks = {m.lower() for m in page.locator("ol.results mark").all_inner_texts()}
    assert marks and marks <= {"firefox", "extension", "extensions"}, marks
    newest = listed_titles(page, page.url)
    assert sorted(newest) == sorted(best)
    dates = [
        d
        for shown in every_page(page, url + "&sort=new")
        for d in shown.locator("ol.results time").evaluate_all("ts => ts.map(t => t.getAttribute('datetime'))")
    ]
    assert dates == sorted(dates, reverse=True) and len(dates) == total
