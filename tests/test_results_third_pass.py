"""Issue 54 in a real browser (Playwright, Debian's Chromium, the real services): newest first on
the results the page counts, empty pages that help, the dropdown while a word is half-typed, the
query as typed after a correction, the phone's header. Each test failed before its fix."""

import re

import pytest

from tests.browser_support import count, every_page, listed_titles, showing_for

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
    assert count(page) == total and "firefox extension" in showing_for(page)
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


@pytest.mark.parametrize("width", [1280, 375])
def test_an_empty_page_offers_recent_posts_and_popular_tags(page, blog, width):
    """Issue 54 item 1: a page that finds nothing left the reader with advice alone. It lists the
    newest posts and the commonest tags, each a link that finds something."""
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(blog["url"] + "/search/?q=kotlin")
    empty = page.locator("#empty-state")
    assert "no posts that mention" in empty.inner_text()
    assert page.locator("nav.sort").count() == 0 and page.locator("ol.results").count() == 0  # no Order bar, no numbering
    recent = empty.locator("#recent-posts + ul a")
    assert 1 <= recent.count() <= 5
    dates = empty.locator("#recent-posts + ul time").evaluate_all("ts => ts.map(t => t.getAttribute('datetime'))")
    assert len(dates) == recent.count() and dates == sorted(dates, reverse=True)
    tags = empty.locator("#popular-tags + ul a")
    assert tags.count() >= 3 and tags.first.inner_text() == "browsers"  # the commonest first
    assert all(link.is_visible() for link in [recent.first, tags.first])
    recent.first.click()
    page.wait_for_load_state()
    assert "/search/" not in page.url
    page.go_back()
    page.locator("#popular-tags + ul a", has_text="browsers").click()
    page.wait_for_url("**tag=browsers*")
    assert count(page) > 0 and "tag browsers" in page.locator(".active-filters").inner_text()


def cool_posts() -> None:
    """Posts of "cool", enough for "cobol" (a real word) to be offered it (ranking.did_you_mean_min_docs)."""
    from tests.factories import make_post

    for thing in ("shells", "editors", "fonts"):
        make_post(f"A cool trick for {thing}", f"Something cool about {thing}.")


@pytest.mark.parametrize("width", [1280, 375])
def test_did_you_mean_is_an_option_of_the_dropdown(page, blog, build_index, width):
    """Issue 54 item 1: in the dropdown "Did you mean" was grey text the arrow keys skipped, and the
    live region read "Did you mean cool?. No results". It is the first option now."""
    cool_posts()
    build_index()
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(blog["url"] + "/")
    page.fill("#search-input", "cobol ")
    offer = page.locator(OPTIONS).first
    offer.wait_for(timeout=10_000)
    assert offer.inner_text() == "Did you mean cool?"
    status = page.locator("#instant-status").inner_text()
    assert "?." not in status and "Did you mean cool?" in status and "No results for cobol" in status, status
    page.press("#search-input", "ArrowDown")
    assert offer.get_attribute("aria-selected") == "true"
    assert page.get_attribute("#search-input", "aria-activedescendant") == offer.get_attribute("id")
    page.press("#search-input", "Enter")
    page.wait_for_url("**/search/?q=cool*")
    assert "A cool trick for shells" in page.locator("ol.results").inner_text()


@pytest.mark.parametrize("width", [1280, 375])
def test_no_correction_of_a_real_word_that_finds_almost_nothing_is_offered(page, blog, build_index, width):
    """Issue 54 item 1: "lettuce", a real word the blog lacks, was offered "Did you mean lattice?",
    which one post holds, on the page and in the dropdown ("kotlin": hotlink and "qzxvbnm plokij":
    qzxvbnm plotkit were fixed before). A typo that is no word ("althete") is still offered the
    word of its one post."""
    from tests.factories import make_post

    make_post("A lattice of points", "Points on a lattice.")
    make_post("The athlete's diet", "What an athlete eats.")
    for i in range(3):  # enough posts: only the guess's shape keeps these from being offered
        make_post(f"Hotlink protection {i}", "Stop hotlink theft.")
        make_post(f"A plotkit chart {i}", "Charts with plotkit.")
    build_index()
    page.set_viewport_size({"width": width, "height": 900})
    for typed in ("lettuce", "kotlin", "qzxvbnm plokij"):  # too few posts; another first letter; the gibberish kept
        page.goto(blog["url"] + "/search/?q=" + typed)
        assert page.locator("#did-you-mean").count() == 0, typed
        assert "no posts that mention" in page.locator("#empty-state").inner_text()
    page.goto(blog["url"] + "/search/?q=althete")
    assert page.locator("#did-you-mean").inner_text() == "Did you mean athlete?"
    page.goto(blog["url"] + "/")
    page.fill("#search-input", "lettuce ")
    page.locator("#instant-status", has_text="No results for lettuce").wait_for(timeout=10_000)
    assert "Did you mean" not in page.locator("#instant-status").inner_text()
    assert page.locator(OPTIONS).filter(has_text="Did you mean").count() == 0
    page.fill("#search-input", "althete ")
    page.locator(OPTIONS).first.filter(has_text="Did you mean athlete?").wait_for(timeout=10_000)


@pytest.mark.parametrize("width", [1280, 375])
def test_the_dropdown_completes_a_half_typed_word_lists_titles_first_and_counts(page, blog, build_index, width):
    """Issue 54 item 5: "mozila firf" said "Showing results for mozilla fire" (a whole word one typo
    from "firf") over posts of fire; posts whose bodies held the words outranked a title holding one;
    with several spellings "See all results" had no number."""
    from tests.factories import make_post

    make_post("Chrome tips", "Tips for the browser.", days_ago=60)  # a title holding one word of "chrome news"
    build_index()
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(blog["url"] + "/")
    page.fill("#search-input", "writng firf")
    page.locator(OPTIONS).first.wait_for(timeout=10_000)
    assert page.locator(OPTIONS).first.locator(".title").inner_text() == "Writing a Firefox extension"
    assert page.locator("#instant-note").inner_text() == "Showing results for writing fire\u2026"  # a start, completed
    assert "Fire" in page.locator(OPTIONS).first.locator(".title mark").all_inner_texts()[-1]
    page.fill("#search-input", "chrome news ")
    page.locator(OPTIONS).filter(has_text="Chrome tips").wait_for(timeout=10_000)
    titles = page.locator(OPTIONS).locator(".title").all_inner_texts()
    assert titles[0] == "Chrome tips", titles  # the one title that marks a word, before the bodies' matches
    page.fill("#search-input", "jekyl staticman")
    see_all = page.locator(OPTIONS).last.filter(has_text="See all")
    see_all.wait_for(timeout=10_000)
    shown = see_all.inner_text()
    assert re.fullmatch(r"See all \d+ results?", shown), shown
    see_all.click()
    page.wait_for_url("**/search/?q=*")
    assert shown == f"See all {count(page)} result" + ("" if count(page) == 1 else "s")


@pytest.mark.parametrize("width", [1280, 375])
def test_search_instead_for_the_words_as_typed(page, blog, width):
    """Issue 54 item 7: after a correction the page offered no way to search what was typed. A
    "Search instead for" link opens the verbatim mode (`verbatim=1`), page and API: nothing
    corrected, the order and filters kept, a link back to the corrected search."""
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(blog["url"] + "/search/?q=firefix+extnsion&sort=new")
    assert count(page) > 0 and "firefox extension" in showing_for(page)
    instead = page.locator("#search-instead a")
    assert instead.inner_text() == "firefix extnsion"
    instead.click()
    page.wait_for_url("**verbatim=1*")
    assert "sort=new" in page.url and page.locator("#showing-for").count() == 0
    assert "Searched as typed" in page.locator("#verbatim-note").inner_text()
    assert page.locator("#empty-state").count() == 1  # the blog holds neither word as typed
    assert page.locator("#search-input").input_value() == "firefix extnsion"
    api = page.request.get(blog["url"] + "/api/search/?q=firefix+extnsion&verbatim=1").json()
    assert (api["verbatim"], api["showing_for"], api["total"], api["search_terms"]) == (True, "", 0, [[1.1, "firefix extnsion"]])
    assert page.request.get(blog["url"] + "/api/search/?q=firefix&verbatim=yes").status == 400
    page.locator("#verbatim-note a").click()
    page.wait_for_url(re.compile(r".*sort=new(?!.*verbatim).*"))
    assert "firefox extension" in showing_for(page)


# The lines an element's text takes: its text's boxes, grouped by their top (a <q> sits a pixel apart).
LINES = """el => { const r = document.createRange(); r.selectNodeContents(el);
  const tops = [...r.getClientRects()].filter(b => b.width > 0).map(b => b.top).sort((a, b) => a - b);
  return tops.filter((top, i) => i === 0 || top - tops[i - 1] > 8).length; }"""


def one_row(page, *selectors: str) -> bool:
    """Whether the elements' middles are level: they share a row."""
    middles = [box["y"] + box["height"] / 2 for box in (page.locator(s).bounding_box() for s in selectors)]
    return max(middles) - min(middles) < 12


def mason_post(build_index) -> None:
    """A post of "mason": "mapon" finds nothing as typed and falls back to it (corrections.py, step 6)."""
    from tests.factories import make_post

    make_post("Notes of a stone mason", "A mason cuts stone.")
    build_index()


def test_on_a_phone_the_header_is_short(page, blog, build_index, settings):
    """Issue 54 item 6: on a phone the count and the cap took a line each, Order a row and Filters
    another, and the first result started more than half way down the first screen. After a
    correction the heading named what was typed, the notice the spelling shown on two more lines,
    and the count of other spellings wrapped; newest first's note put its two orders on two lines."""
    mason_post(build_index)
    settings.SEARCH = {**settings.SEARCH, "MAX_PAGE": 1}  # a cap to say
    page.set_viewport_size({"width": 375, "height": 667})
    page.goto(blog["url"] + "/search/?q=firefox&tag=browsers")
    summary = page.locator(".summary-line")
    assert "first 10" in summary.inner_text() and summary.evaluate(LINES) == 1, summary.inner_text()
    assert one_row(page, "nav.sort", "details#filters > summary")
    assert page.locator("details#filters > summary").inner_text() == "Filters (1 on)"
    first = page.locator("ol.results > li").first.bounding_box()
    assert first["y"] < 667 * 0.5, first
    page.goto(blog["url"] + "/search/?q=firefix+extnsion")  # a correction, and posts of another spelling
    assert page.locator("h1").inner_text() == "Results for firefox extension"
    assert page.locator("#showing-for").inner_text() == "Search instead for firefix extnsion"
    summary = page.locator(".summary-line")
    assert re.fullmatch(r"\d+ results, \+\d+ similar · first 10 shown", summary.inner_text()) and summary.evaluate(LINES) == 1, summary.inner_text()
    first = page.locator("ol.results > li").first.bounding_box()
    assert first["y"] < 667 * 0.45, first
    page.goto(blog["url"] + "/search/?q=firefix+extnsion&tag=browsers&sort=new")  # the note under the row
    assert one_row(page, "nav.sort li:first-child", "nav.sort li:last-child", "details#filters > summary")
    note, control = page.locator("#order-note").bounding_box(), page.locator("details#filters > summary").bounding_box()
    assert note["y"] >= control["y"] + control["height"] and note["width"] > 300, (note, control)
    page.locator("details#filters > summary").click()  # opened: the facets under the row, above the results
    facets = page.locator(".facets").bounding_box()
    assert facets["y"] >= control["y"] + control["height"] - 1 and facets["width"] > 300
    assert facets["y"] + facets["height"] <= page.locator("ol.results").bounding_box()["y"]
    page.goto(blog["url"] + "/search/?q=mapon")  # nothing as typed: the heading names the likely correction
    assert page.locator("h1").inner_text() == "Results for mason"
    assert page.locator("#showing-for").inner_text() == "Nothing was found for mapon."


def test_on_a_wide_screen_the_header_says_what_was_typed_and_shown(page, blog, build_index, settings):
    """Issue 54 item 6's other width: the phone's shorter header leaves the wide one whole."""
    mason_post(build_index)
    settings.SEARCH = {**settings.SEARCH, "MAX_PAGE": 1}
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(blog["url"] + "/search/?q=firefix+extnsion")
    assert page.locator("h1").inner_text() == "Results for firefix extnsion"
    notice = page.locator("#showing-for").inner_text()
    assert notice.startswith("Showing results for firefox extension (you typed firefix extnsion).") and "Search instead for firefix extnsion" in notice
    summary = page.locator(".summary-line").inner_text()
    assert " found as another spelling (marked)" in summary and "pages show the first 10; add a word or a filter" in summary, summary
    page.goto(blog["url"] + "/search/?q=mapon")
    assert "Showing results for mason (nothing was found for mapon)." in page.locator("#showing-for").inner_text()
    assert one_row(page, "nav.sort li:first-child", "nav.sort li:last-child")


@pytest.mark.parametrize("width", [1280, 375])
def test_the_pages_of_this_pass_have_no_axe_violations(page, blog, build_index, width):
    """axe-core on each state this pass added, at desktop and phone width: newest first with its
    note, an empty page with recent posts and tags, a correction with "Search instead for", the
    verbatim page, a filter counted on the Filters control, the query's chips, the dropdown's "Did
    you mean" option."""
    from tests.browser_support import violations

    cool_posts()
    build_index()
    page.set_viewport_size({"width": width, "height": 900})
    found = {}
    for name, path, shown in [
        ("newest first", "/search/?q=firefix+extnsion&sort=new", "#order-note"),
        ("empty, with recent posts", "/search/?q=kotlin", "#recent-posts"),
        ("search instead", "/search/?q=firefix+extnsion", "#search-instead"),
        ("verbatim", "/search/?q=firefix+extnsion&verbatim=1", "#verbatim-note"),
        ("a filter on", "/search/?q=firefox&tag=browsers", ".filters-on"),
        ("chips", '/search/?q="keyboard+shortcuts"+firefox+-roundup', "a.chip-exclusion"),
    ]:
        page.goto(blog["url"] + path)
        assert page.locator(shown).count() > 0, name
        found[name] = violations(page)
    page.goto(blog["url"] + "/")
    page.fill("#search-input", "cobol ")
    page.locator(OPTIONS).first.filter(has_text="Did you mean").wait_for(timeout=10_000)
    page.press("#search-input", "ArrowDown")
    found["did you mean option"] = violations(page)
    assert not any(found.values()), found


@pytest.mark.parametrize("width", [1280, 375])
def test_the_parsed_query_is_removable_chips(page, blog, width):
    """Issue 54 item 7: the parsed phrase and exclusion were small grey text. They are chips now,
    each a link that searches again without it."""
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(blog["url"] + '/search/?q="keyboard+shortcuts"+firefox+-roundup')
    phrase, exclusion = page.locator("#parsed-query a.chip-phrase"), page.locator("#parsed-query a.chip-exclusion")
    assert phrase.locator("q").inner_text() == "keyboard shortcuts" and exclusion.locator("del").inner_text() == "roundup"
    assert phrase.is_visible() and phrase.evaluate("a => getComputedStyle(a).backgroundColor") != "rgba(0, 0, 0, 0)"
    assert count(page) == 1
    exclusion.click()
    page.wait_for_url("**/search/?q=*")
    assert page.locator("#search-input").input_value() == '"keyboard shortcuts" firefox'
    assert page.locator("a.chip-exclusion").count() == 0 and page.locator("a.chip-phrase").count() == 1
    page.locator("a.chip-phrase").click()
    page.wait_for_url("**/search/?q=firefox*")
    assert page.locator("#parsed-query").count() == 0 and count(page) > 1


@pytest.mark.parametrize("width", [1280, 375])
def test_a_page_past_the_end_says_so_and_links_to_the_last(page, blog, width):
    """Issue 54 item 3: page 5 of a 2-page query said "Page 5 of 2" with "Previous" to an empty
    page 4, and a page above 50 answered 400 with no link."""
    page.set_viewport_size({"width": width, "height": 900})
    for number in (5, 60):
        answer = page.goto(blog["url"] + f"/search/?q=firefox&page={number}")
        notice = page.locator("#past-the-end")
        assert answer.status == 200 and notice.is_visible() and "past the last page of these results (2)" in notice.inner_text()
        assert page.locator("nav.pagination").count() == 0 and page.locator("#empty-state").count() == 0
    notice.locator("a", has_text="Go to page 2").click()
    page.wait_for_url("**page=2*")
    assert page.locator("ol.results > li").count() > 0 and "Page 2 of 2" in page.locator("nav.pagination").inner_text()


@pytest.mark.parametrize("width", [1280, 375])
def test_a_long_query_keeps_the_readers_text_and_an_ordinary_one_hears_of_no_phrase(page, blog, width):
    """Issue 54 item 4: a query was cut to its first 12 words and the box rewritten to the cut text,
    silently; "(no exact phrase found, ...)" appeared on ordinary queries."""
    typed = "firefox keyboard shortcuts for tabs and windows and more words than twelve here today"
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(blog["url"] + "/")
    page.fill("#search-input", typed)
    page.press("#search-input", "Enter")
    page.wait_for_url("**/search/?q=*")
    assert page.locator("#search-input").input_value() == typed
    left_out = page.locator("#left-out")
    assert left_out.is_visible() and left_out.inner_text() == "Only the first 12 words were searched; left out: here today."
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.goto(blog["url"] + "/search/?q=keyboard+firefox")
    assert count(page) > 0 and "no exact phrase" not in page.locator("main").inner_text()


@pytest.mark.parametrize("width", [1280, 375])
def test_the_query_reads_as_typed_and_the_syntax_is_named(page, blog, width):
    """Issue 54 item 7: the heading nested quotes, no page named the quote and minus syntax,
    "-python" alone was told to try fewer words, and dates wrapped mid-value."""
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(blog["url"] + '/search/?q="keyboard+shortcuts"+-jekyll')
    assert page.locator("h1").inner_text() == 'Results for "keyboard shortcuts" -jekyll' and page.locator("h1 q").count() == 0
    page.goto(blog["url"] + "/search/?q=zanzibarqx")
    tip = page.locator("#empty-state .syntax-tip")
    assert tip.is_visible() and '"two words"' in tip.inner_text() and "-word" in tip.inner_text()
    assert page.locator("#recent-posts + ul time").first.evaluate("t => getComputedStyle(t).whiteSpace") == "nowrap"  # the newest posts' dates too
    page.goto(blog["url"] + "/search/?q=-python")
    assert "Type a word to search for" in page.locator("#search-note").inner_text()
    assert "Nothing was searched." in page.locator("#empty-state").inner_text() and "Try fewer" not in page.locator("main").inner_text()
    page.goto(blog["url"] + "/search/?q=firefox")
    dates = page.locator("ol.results time")
    assert dates.count() > 0 and all(d.evaluate("t => t.getClientRects().length") == 1 for d in dates.all())  # one box: never wrapped


@pytest.mark.parametrize("width", [1280, 375])
def test_the_browser_finds_the_search_engine_and_its_icon(page, blog, width):
    """Issue 54 item 8: the OpenSearch description had no <Image>, and /api/suggest/ put the half
    word "firefox ext" first for "firefix ext"."""
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(blog["url"] + "/")
    description = page.request.get(blog["url"] + page.locator("head link[rel=search]").get_attribute("href"))
    image = re.search(r"<Image[^>]*>([^<]+)</Image>", description.text())
    assert description.ok and image, description.text()
    icon = page.request.get(image.group(1))
    assert icon.ok and icon.headers["content-type"] == "image/png"
    query, completions = page.request.get(blog["url"] + "/api/suggest/?q=firefix+ext").json()
    assert "firefox ext" not in completions and completions[0] == "Writing a Firefox extension", completions


@pytest.mark.parametrize("width", [1280, 375])
def test_the_year_facet_lists_the_biggest_years_first(page, blog, build_index, width):
    """Issue 54 item 7: the Year facet listed the five most recent years and hid the biggest ones
    behind "All N years". In a browser: the years in view are those with the most results."""
    from tests.factories import make_post

    for years_ago, posts in [(1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (18, 6), (19, 4)]:
        for i in range(posts):
            make_post(f"Okapi sighting {years_ago}-{i}", "An okapi in the forest.", days_ago=365 * years_ago + 10)
    build_index()
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(blog["url"] + "/search/?q=okapi")
    if width < 600:
        page.locator("details#filters > summary").click()  # closed on a phone
    facet = page.locator("ul[aria-labelledby=facet-years]")
    shown = [int(y) for y in facet.locator("li a").all_inner_texts()]
    counts = dict(zip(shown, (int(c) for c in facet.locator(".count").all_inner_texts()), strict=True))
    assert len(shown) == 5 and shown == sorted(shown, reverse=True), shown  # five, newest first
    hidden = page.locator("details.more-years")
    assert hidden.locator("summary").inner_text() == "All 8 years"
    assert max(counts.values()) == 6 and sorted(counts.values(), reverse=True)[:2] == [6, 4], counts  # the big years in view
