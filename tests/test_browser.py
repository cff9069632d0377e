"""The search box in a real browser: Playwright driving Debian's Chromium against a live server.

Screenshots go to tests/screenshots/ (ignored by git)."""

from urllib.parse import parse_qs, urlsplit

import pytest

from tests.browser_support import SHOTS, csp_violations, new_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


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
    link = page.locator("li.result-comment .comment-matches a").first
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
    assert "firefix\ttyped" in text and "firefox\tcorrected" in text and "title.exact.phrase" in text
    assert "phrase" in page.locator("section.debug").inner_text()
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


# ---------------------------------------------------------------- the combobox (WAI-ARIA 1.2)
OPTIONS = "#instant-listbox [role=option]"
SETTLED = "#instant-listbox:not([aria-busy])"  # the listbox is aria-busy until the answer is shown


def open_instant(page, text: str):
    """Types text into the search box and waits for the answer's options."""
    page.fill("#search-input", text)
    page.locator(f"{SETTLED} [role=option]").first.wait_for(state="visible", timeout=10_000)
    return page.locator(OPTIONS)


def first_result_url(page, site, query: str) -> str:
    return page.request.get(f"{site['url']}/api/search/?q={query}").json()["results"][0]["url"]


def test_keyboard_down_down_up_enter_opens_the_first_result(page, site):
    page.goto(site["url"] + "/")
    box = page.locator("#search-input")
    assert (box.get_attribute("role"), box.get_attribute("aria-autocomplete")) == ("combobox", "list")
    assert box.get_attribute("aria-controls") == "instant-listbox"
    assert page.get_attribute("#instant-listbox", "role") == "listbox"
    assert box.get_attribute("aria-expanded") == "false"
    options = open_instant(page, "firefix")
    assert box.get_attribute("aria-expanded") == "true" and options.count() >= 2
    ids = [options.nth(i).get_attribute("id") for i in range(options.count())]
    assert box.get_attribute("aria-activedescendant") is None
    for key, expected in [("ArrowDown", 0), ("ArrowDown", 1), ("ArrowUp", 0)]:
        page.keyboard.press(key)
        assert box.get_attribute("aria-activedescendant") == ids[expected]
        assert page.locator(f"{OPTIONS}[aria-selected=true]").evaluate_all("els => els.map(e => e.id)") == [ids[expected]]
    assert page.evaluate("document.activeElement.id") == "search-input"  # focus never left the box
    title = options.first.locator(".title").inner_text()  # each option also shows its date (issue 37)
    href = first_result_url(page, site, "firefix")
    assert options.first.get_attribute("href") == href
    page.keyboard.press("Enter")
    page.wait_for_url(site["url"] + href)
    assert page.locator("h1").inner_text() == title


def test_arrow_keys_wrap_around(page, site):
    page.goto(site["url"] + "/")
    options = open_instant(page, "firefix")
    last = options.count() - 1
    box = page.locator("#search-input")
    page.keyboard.press("ArrowUp")
    assert box.get_attribute("aria-activedescendant") == f"instant-option-{last}"
    page.keyboard.press("ArrowDown")
    assert box.get_attribute("aria-activedescendant") == "instant-option-0"
    page.keyboard.press("ArrowUp")
    assert box.get_attribute("aria-activedescendant") == f"instant-option-{last}"


def test_escape_closes_then_clears_and_enter_without_a_highlight_submits(page, site):
    page.goto(site["url"] + "/")
    open_instant(page, "firefix")
    popup, box = page.locator("#instant-results"), page.locator("#search-input")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Escape")
    assert popup.is_hidden() and box.get_attribute("aria-expanded") == "false"
    assert box.get_attribute("aria-activedescendant") is None and box.input_value() == "firefix"
    page.keyboard.press("ArrowDown")  # opens the list again on its first option
    assert popup.is_visible() and box.get_attribute("aria-activedescendant") == "instant-option-0"
    page.keyboard.press("Escape")
    page.keyboard.press("Escape")
    assert popup.is_hidden() and box.input_value() == ""
    open_instant(page, "firefix")
    page.keyboard.press("Enter")  # nothing highlighted: the form is submitted
    page.wait_for_url("**/search/?q=firefix")
    assert "Showing results for firefox" in page.locator("#showing-for").inner_text()


def test_tab_and_blur_close_the_list_and_the_mouse_still_works(page, site):
    page.goto(site["url"] + "/")
    options = open_instant(page, "firefix")
    popup = page.locator("#instant-results")
    page.keyboard.press("Tab")
    assert popup.is_hidden() and page.evaluate("document.activeElement.textContent") == "Search"
    page.focus("#search-input")
    assert popup.is_visible()  # the same answer comes back on focus
    page.mouse.click(10, 880)  # on the page, away from the list
    assert popup.is_hidden()
    page.focus("#search-input")
    second = options.nth(1)
    second.hover()
    assert page.get_attribute("#search-input", "aria-activedescendant") == second.get_attribute("id")
    href = second.get_attribute("href")
    second.click()  # the input's blur must not close the list before the click lands
    page.wait_for_url(site["url"] + href)


def test_a_tap_opens_a_result_on_a_touch_screen(browser, site):
    page, console = new_page(browser, viewport={"width": 375, "height": 700}, has_touch=True, is_mobile=True)
    page.goto(site["url"] + "/")
    options = open_instant(page, "jekyl")
    href = options.first.get_attribute("href")
    options.first.tap()
    page.wait_for_url(site["url"] + href)
    assert "Jekyll" in page.locator("h1").inner_text() and not console
    page.context.close()


def test_live_region_announces_the_correction_and_the_count(page, site):
    page.goto(site["url"] + "/")
    status = page.locator("#instant-status")
    assert (status.get_attribute("role"), status.get_attribute("aria-live")) == ("status", "polite")
    open_instant(page, "firefix")
    answer = page.request.get(site["url"] + "/api/search/?q=firefix&snippets=0").json()
    assert answer["total"] > 1 and len(answer["search_terms"]) > 1
    text = status.inner_text()
    # Several spellings, counted apart: the count of the spelling shown, the results page's (issue 54).
    # "firefix", still being typed: a corrected start, completed ("firefox…": issue 54).
    assert answer["counted"] and "Showing results for firefox\u2026" in text and f"{answer['total']} results." in text
    total = page.request.get(site["url"] + "/api/search/?q=firefox%20&snippets=0").json()["total"]
    page.fill("#search-input", "firefox ")
    status.filter(has_text=f"{total} results.").wait_for(timeout=10_000)  # one spelling: its count
    page.fill("#search-input", "qwxzv")
    page.locator(SETTLED).wait_for(state="attached")
    assert page.locator("#instant-note").inner_text() == "No results for qwxzv"
    assert "0 results." in status.inner_text() and page.locator(OPTIONS).count() == 0
    assert page.get_attribute("#search-input", "aria-expanded") == "false"  # an empty listbox is not shown


def test_typing_is_debounced(page, site):
    sent = []
    page.on("request", lambda r: sent.append(r.url) if "/api/search/" in r.url else None)
    page.goto(site["url"] + "/")
    page.locator("#search-input").press_sequentially("firefix", delay=20)
    page.locator(OPTIONS).first.wait_for(state="visible")
    page.wait_for_timeout(300)
    # Seven keystrokes 20 ms apart: one request (a stalled, shared machine may split them once or twice).
    # (Each carries the typing burst's id and number for the search log: one burst, numbered in order.)
    params = [parse_qs(urlsplit(url).query) for url in sent]
    assert 1 <= len(sent) <= 3 and params[-1]["q"] == ["firefix"]
    assert len({p["burst"][0] for p in params}) == 1 and [p["seq"][0] for p in params] == [str(n) for n in range(1, len(sent) + 1)]


def test_a_late_answer_to_an_older_query_is_dropped(page, site):
    """The answer for "firefix" is held back until the answer for "jekyl" is on screen."""
    held = []

    def hold_the_first(route):
        if "q=firefix" in route.request.url and not held:
            held.append(route)
        else:
            route.continue_()

    page.route("**/api/search/?q=*", hold_the_first)
    page.goto(site["url"] + "/")
    page.fill("#search-input", "firefix")
    for _ in range(100):  # until the browser has sent the request we hold
        if held:
            break
        page.wait_for_timeout(20)
    assert held
    options = open_instant(page, "jekyl")
    assert "Jekyll" in options.first.inner_text()
    with page.expect_event("requestfinished", lambda r: "q=firefix" in r.url):
        held[0].continue_()  # the older answer arrives now, after the newer one
    page.wait_for_timeout(300)  # time enough for the page to (wrongly) render it
    listed = " ".join(page.locator(OPTIONS).all_inner_texts())
    assert "Jekyll" in listed and "Firefox" not in listed
    assert "firefox" not in page.locator("#instant-status").inner_text()


def test_the_completed_part_of_the_last_word_is_marked_apart(page, site, build_index):
    """The typed part of the last word is the mark, the rest a "completed" span, also when a dot
    splits the words ("node.j": "j" typed, "s" completed in "Node.js")."""
    from tests.factories import make_post

    make_post("Writing Node.js addons", "Native modules.")
    build_index()
    page.goto(site["url"] + "/")
    open_instant(page, "node.j")
    completed = page.locator("#instant-listbox mark .completed")
    assert completed.first.inner_text() == "s"
    assert [m.inner_text() for m in page.locator("#instant-listbox mark").all()][:2] == ["Node", "js"]


def test_instant_titles_show_as_written(page, site, build_index):
    """Titles are text and highlights are escaped once: no "Q&amp;A", no "TCP&#x2F;IP", no markup."""
    from tests.factories import make_comment, make_post

    post = make_post("Q&A about TCP/IP", "Questions and answers about the handshake.")
    make_post("<img src=x> TCP tricks & <b>traps</b>", "Header tricks.")
    make_comment(post, "The sequence diagram helped me a lot.")
    build_index()
    page.goto(site["url"] + "/")
    open_instant(page, "tcp")
    texts = page.locator("#instant-listbox .title").all_inner_texts()
    assert "Q&A about TCP/IP" in texts and "<img src=x> TCP tricks & <b>traps</b>" in texts
    assert page.locator("#instant-listbox mark").all_inner_texts() == ["TCP", "TCP"]
    assert page.locator("#instant-listbox img, #instant-listbox b").count() == 0
    # A post found by its comment: plain title, no highlight. The dropdown fetches no comments (a
    # post's document holds their text), so it says a comment put the post there, not whose.
    comment = open_instant(page, "diagram").first
    assert comment.inner_text().split("\n")[0] == "comment on Q&A about TCP/IP"


# ---------------------------------------------------------------- small screens, screenshots
def no_horizontal_scrolling(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("width", [1280, 375])
def test_screenshots_and_no_horizontal_scrolling(page, site, width):
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(site["url"] + "/")
    open_instant(page, "firefix")
    box = page.locator("#instant-results").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    assert no_horizontal_scrolling(page)
    page.keyboard.press("ArrowDown")  # shows the highlighted option too
    page.screenshot(path=str(SHOTS / f"home-dropdown-{width}.png"))
    page.goto(site["url"] + "/search/?q=firefix")
    assert no_horizontal_scrolling(page)
    page.screenshot(path=str(SHOTS / f"results-{width}.png"), full_page=True)
    for path in (site["jekyll"].get_absolute_url(), "/search/?q=firefix&debug-search"):
        page.goto(site["url"] + path)
        assert no_horizontal_scrolling(page), path


def test_debug_table_scrolls_by_keyboard(page, site):
    page.set_viewport_size({"width": 375, "height": 800})
    page.goto(site["url"] + "/search/?q=firefix&debug-search")
    region = page.locator(".scroll-region", has=page.locator("#debug-table"))
    assert (region.get_attribute("role"), region.get_attribute("tabindex")) == ("region", "0")
    assert region.get_attribute("aria-label")
    assert region.evaluate("el => el.scrollWidth > el.clientWidth")  # it does scroll at this width
    region.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("el => el.scrollLeft > 0", arg=region.element_handle())


def test_focus_is_visible(page, site):
    page.goto(site["url"] + "/")
    page.keyboard.press("Tab")  # the site name link
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert page.evaluate("document.activeElement.className") == "site-name" and outline == "solid"


# ---------------------------------------------------------------- CSP and OpenSearch in the browser
def test_pages_need_no_inline_code_and_the_browser_enforces_the_policy(browser, site):
    page, console = new_page(browser)
    for path in ("/", site["jekyll"].get_absolute_url(), "/search/?q=firefix&debug-search", "/nowhere/"):
        response = page.goto(site["url"] + path)
        assert "default-src 'self'" in response.headers["content-security-policy"]
        assert page.locator("link[rel=search][type='application/opensearchdescription+xml']").count() == 1
    open_instant(page, "firefix")
    assert console == [] and csp_violations(page) == []
    # The policy is really enforced, and the recording above would have seen a violation: an inline
    # script is blocked; a style *attribute* is allowed (post bodies written by authors use them).
    page.evaluate("document.body.setAttribute('style', 'background: red')")
    page.evaluate("""() => { const s = document.createElement('script');
                             s.textContent = 'window.inlineRan = true'; document.body.appendChild(s); }""")
    assert page.evaluate("window.inlineRan") is None
    assert csp_violations(page) == ["script-src-elem inline"]
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(255, 0, 0)"
    page.context.close()


def test_opensearch_description_from_the_link(page, site):
    page.goto(site["url"] + "/")
    href = page.get_attribute("link[rel=search]", "href")
    response = page.request.get(site["url"] + href)
    assert response.headers["content-type"].startswith("application/opensearchdescription+xml")
    assert f'template="{site["url"]}/search/?q={{searchTerms}}"' in response.text()


def test_admin_works_under_the_policy(page, live_server, admin_user):
    """Django's admin needs no inline code either (the page fixture fails on any CSP violation)."""
    from tests.factories import make_post

    post = make_post("Edited under the policy")
    page.goto(live_server.url + "/admin/login/")
    page.fill("#id_username", admin_user.username)
    page.fill("#id_password", "password")
    page.click("input[type=submit]")
    page.wait_for_url("**/admin/")
    for path in ("/admin/blog/post/", f"/admin/blog/post/{post.pk}/change/", "/admin/blog/comment/"):
        page.goto(live_server.url + path)
        assert page.locator("#content h1, #content h2").count() >= 1
    assert csp_violations(page) == []


def test_facets_narrow_and_widen_without_javascript(browser, site):
    """A tag facet is a link: the page narrows to it, names it, and a link removes it again."""
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site["url"] + "/search/?q=firefox")
    every = page.locator("ol.results > li").count()
    page.locator(".facets a", has_text="keyboard").click()
    page.wait_for_url("**tag=keyboard*")
    assert page.locator("ol.results > li").count() == 1
    assert "tag keyboard" in page.locator(".active-filters").inner_text()
    page.locator(".remove-filter").click()
    page.wait_for_url(lambda url: "tag=" not in url)
    assert page.locator("ol.results > li").count() == every
    context.close()
