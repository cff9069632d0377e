"""Search insights against the real PostgreSQL and Elasticsearch: the query log, clicks, the
reports, retention, and the switch that turns it all off.

Log entries wait in the process's buffer until something flushes it; here the tests flush it
themselves (tests/conftest.py keeps the writer thread quiet), so rows land in the test's own
transaction.
"""

import csv
import io
import time
from datetime import UTC, date, datetime, timedelta
from urllib.parse import urlencode

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.models.functions import Now
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from insights import charts, clicks, conf, reports, retention, tokens
from insights.buffer import LogBuffer, buffer
from insights.models import DailyStat, SearchClick, SearchLog
from tests.factories import make_comment, make_post

REPORT = "/admin/insights/searchlog/report/"


@pytest.fixture
def corpus(build_index):
    firefox = make_post("Firefox keyboard shortcuts", "Firefox has many keyboard shortcuts for tabs.")
    make_post("Writing a Firefox extension", "An extension for the Firefox browser.")
    jekyll = make_post("A minimal Jekyll theme", "This Jekyll theme is minimal.")
    make_comment(jekyll, "I wired up Staticman to receive comments.")
    build_index()
    return {"firefox": firefox, "jekyll": jekyll}


def api(client, q, **params):
    response = client.get("/api/search/", {"q": q, **params})
    assert response.status_code == 200
    return response.json()


def logged() -> list[SearchLog]:
    buffer.flush()
    return list(SearchLog.objects.order_by("id"))


def click(client, query_id, pos, to, **extra):
    """What navigator.sendBeacon sends with a URLSearchParams body."""
    body = urlencode({"id": query_id, "pos": pos, "to": to})
    return client.post("/search/click", body, content_type="application/x-www-form-urlencoded;charset=UTF-8", **extra)


# ---------------------------------------------------------------- the query log


@pytest.mark.django_db
def test_a_results_page_search_is_logged_once_with_what_the_search_did(client, corpus):
    response = client.get("/search/", {"q": "  firefix  "})
    assert response.status_code == 200
    [row] = logged()
    assert (row.source, row.query, row.page, row.burst) == ("page", "firefix", 1, None)
    assert row.showing_for == "firefox" and row.total >= 2 and row.round_trips >= 1
    assert row.strategy in ("phrase", "words") and row.cached is False
    assert row.searches == 1 and len(row.elapsed_ms) == 1 and row.elapsed_ms[0] > 0
    # The time is PostgreSQL's (a column default), not the application's clock. Compared with the
    # time of a statement now: now() is the test transaction's start, before the corpus was indexed.
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement_timestamp()")
        db_now = cursor.fetchone()[0]
    assert abs((db_now - row.created).total_seconds()) < 5
    # The page quotes the search's query id: the signed form of its row's token and its own part.
    query_id = response.context["query_id"]
    assert tokens.verify(query_id)[0] == row.token
    assert f'data-query-id="{query_id}"' in response.content.decode()


@pytest.mark.django_db
def test_the_api_logs_its_source_and_hands_out_the_query_id(client, corpus):
    data = api(client, "jekyl ")  # finished (a space after it): a misspelling, not the start of "jekyll"
    [row] = logged()
    assert (row.source, row.query, row.showing_for) == ("api", "jekyl", "jekyll")
    assert tokens.verify(data["query_id"])[0] == row.token


@pytest.mark.django_db
def test_a_cached_answer_is_logged_as_cached(client, corpus):
    api(client, "firefox")
    api(client, "firefox")
    first, second = logged()
    assert (first.cached, second.cached) == (False, True)
    assert first.token != second.token


@pytest.mark.django_db
def test_repeated_cached_searches_share_a_row_and_are_clicked_apart(client, corpus):
    api(client, "firefox")  # answered by Elasticsearch: a row of its own
    ids = [api(client, "firefox")["query_id"] for _ in range(3)]
    assert len(set(ids)) == 3  # every search its own query id...
    uncached, cached = logged()
    assert (uncached.searches, uncached.cached, cached.searches, cached.cached) == (1, False, 3, True)
    assert len(cached.elapsed_ms) == 3 and all(t > 0 for t in cached.elapsed_ms)
    assert {tokens.verify(i)[0] for i in ids} == {cached.token}  # ...quoting the row that counts it
    url = api(client, "firefox")["results"][0]["url"]
    for query_id in (ids[0], ids[1], ids[1]):  # two searches clicked, one of them twice
        assert click(client, query_id, 1, url).status_code == 204
    assert SearchClick.objects.count() == 2
    [top] = reports.top_queries(reports.Period.last_days(1))
    assert (top["searches"], top["clicked"], top["ctr_percent"]) == (4, 2, 50.0)  # a 5th search waits in the buffer
    # The next batch's searches are another row.
    assert [r.searches for r in logged()] == [1, 3, 1]


@pytest.mark.django_db
def test_nothing_searched_nothing_logged(client, corpus):
    assert client.get("/search/", {"q": "   "}).status_code == 200
    assert client.get("/search/", {"q": "firefox", "page": "0"}).status_code == 400
    assert api(client, "")["query_id"] is None
    assert logged() == []


@pytest.mark.django_db
def test_instant_typing_records_one_search_the_last_query_of_the_burst(client, corpus):
    burst = "a1b2c3d4e5f6a7b8c9d0e1f2"
    typed = ["fi", "fir", "fire", "firef", "firefi", "firefix"]
    ids = [api(client, q, burst=burst, seq=n)["query_id"] for n, q in enumerate(typed, 1)]
    buffer.flush()
    # A keystroke answered by another worker whose buffer is written later still counts once,
    # and an older keystroke arriving last never replaces the newer query.
    api(client, "firefi", burst=burst, seq=5)
    [row] = logged()
    assert (row.source, row.query, row.seq, row.showing_for) == ("instant", "firefix", 6, "firefox")
    assert row.token == tokens.verify(ids[-1])[0]
    # The next burst is another search.
    api(client, "jekyl", burst="ffffeeeeddddccccbbbbaaaa", seq=1)
    assert [r.query for r in logged()] == ["firefix", "jekyl"]


@pytest.mark.django_db
def test_a_malformed_burst_is_an_ordinary_api_search(client, corpus):
    api(client, "firefox", burst="<script>", seq=1)
    api(client, "firefox", burst="a1b2c3d4e5f6", seq="x")
    assert [(r.source, r.burst) for r in logged()] == [("api", None), ("api", None)]


@pytest.mark.django_db
def test_the_log_stores_nothing_about_the_reader(client, corpus):
    client.get("/search/", {"q": "firefox"}, HTTP_USER_AGENT="Secret-Agent/1.0", REMOTE_ADDR="203.0.113.9")
    data = api(client, "firefox")
    assert click(client, data["query_id"], 1, data["results"][0]["url"], REMOTE_ADDR="203.0.113.9").status_code == 204
    buffer.flush()
    with connection.cursor() as cursor:
        for table in ("insights_searchlog", "insights_searchclick"):
            cursor.execute(f"SELECT * FROM {table}")
            dump = repr(cursor.fetchall())
            assert "203.0.113.9" not in dump and "Secret-Agent" not in dump
    assert not any(c.startswith("insights") for c in client.cookies)
    columns = {f.name for f in SearchLog._meta.get_fields()} | {f.name for f in SearchClick._meta.get_fields()}
    assert not columns & {"ip", "address", "user_agent", "user", "session", "cookie"}


@pytest.mark.django_db
def test_the_setting_turns_the_log_off(client, corpus, settings):
    settings.INSIGHTS = {**settings.INSIGHTS, "ENABLED": False}
    response = client.get("/search/", {"q": "firefix"})
    assert response.context["query_id"] is None and "/search/click" not in response.content.decode()  # no link, no beacon
    data = api(client, "firefix", burst="a1b2c3d4e5f6a7b8", seq=1)
    assert data["query_id"] is None and data["total"] >= 2
    assert buffer.pending() == 0 and logged() == []
    # Even an id issued while it was on records nothing now.
    token, query_id = tokens.issue()
    assert click(client, query_id, 1, data["results"][0]["url"]).status_code == 400
    assert not SearchClick.objects.exists()


@pytest.mark.django_db
def test_every_log_column_keeps_a_small_statistics_sample():
    """autovacuum ANALYZEs the growing log often; its sample size follows the largest target of any
    column (insights/migrations/0003), so a new column must get the small target too."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT attname, attstattarget FROM pg_attribute WHERE attrelid = 'insights_searchlog'::regclass AND attnum > 0 AND NOT attisdropped")
        targets = dict(cursor.fetchall())
    assert set(targets) == {f.column for f in SearchLog._meta.concrete_fields}
    assert set(targets.values()) == {10}, targets


# ---------------------------------------------------------------- the buffer


def entry(query: str, burst=None, seq=0, elapsed=5.0) -> tuple:
    """What record() hands the buffer: the key (insights.buffer.KEY) and the time."""
    return ("api", burst, seq, query, 1, 3, "phrase", "", 1, 4, False), elapsed


@pytest.mark.django_db
def test_the_buffer_is_bounded_and_counts_what_it_drops(settings):
    settings.INSIGHTS = {**settings.INSIGHTS, "BUFFER_MAX": 3}
    own = LogBuffer()
    for i in range(5):
        own.add(*entry(f"q{i}"))
    assert (own.pending(), own.dropped) == (3, 2)
    own.add(*entry("q0"))  # a search that would share a waiting row counts against the bound too
    assert (own.pending(), own.dropped) == (3, 3)
    assert own.flush() == 3 and own.pending() == 0
    assert sorted(SearchLog.objects.values_list("query", flat=True)) == ["q0", "q1", "q2"]


@pytest.mark.django_db
def test_any_text_survives_the_batched_write():
    texts = ["C:\\temp\\new", "tab\there", "line\nbreak\r", "quote ' \" ;", "emoji 🦊 ü", "\\N", "NULL", ""]
    for text in texts:
        buffer.add(*entry(text))
    buffer.add(*entry("burst \\ \t text", burst="b" * 12, seq=1))  # the upserting INSERT
    assert buffer.flush() == len(texts) + 1
    assert sorted(SearchLog.objects.values_list("query", flat=True)) == sorted(texts + ["burst \\ \t text"])


@pytest.mark.django_db(transaction=True)
def test_the_writer_thread_writes_a_full_batch_without_being_asked(settings):
    settings.INSIGHTS = {**settings.INSIGHTS, "BATCH_SIZE": 3, "FLUSH_SECONDS": 3600}
    own = LogBuffer()
    for i in range(3):
        own.add(*entry(f"batch{i}"))
    deadline = time.monotonic() + 10
    while SearchLog.objects.filter(query__startswith="batch").count() < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert SearchLog.objects.filter(query__startswith="batch").count() == 3
    assert own.written == 3 and own.pending() == 0
    # ...and one that waits less than a batch after FLUSH_SECONDS.
    settings.INSIGHTS = {**settings.INSIGHTS, "BATCH_SIZE": 100, "FLUSH_SECONDS": 0.2}
    own.wake()
    own.add(*entry("timed"))
    deadline = time.monotonic() + 10
    while not SearchLog.objects.filter(query="timed").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert SearchLog.objects.filter(query="timed").exists()
    own._pid = None  # stops its writer thread at its next wake-up
    own.wake()


@pytest.mark.django_db
def test_a_batch_that_cannot_be_written_is_dropped_without_raising(caplog):
    own = LogBuffer()
    key, elapsed = entry("x" * 10, burst="not-unique-but-fine", seq=1)
    own.add(key[:-1] + ("not a boolean",), elapsed)
    assert own.flush() == 0 and own.pending() == 0
    assert "could not be written" in caplog.text


# ---------------------------------------------------------------- clicks


@pytest.mark.django_db
def test_a_click_is_recorded_once(client, corpus):
    data = api(client, "firefix")
    url = data["results"][1]["url"]
    assert click(client, data["query_id"], 2, url).status_code == 204
    assert click(client, data["query_id"], 2, url).status_code == 204  # the same beacon again
    [row] = SearchClick.objects.all()
    assert (row.token, row.search, row.position, row.url) == (*tokens.verify(data["query_id"]), 2, url)


@pytest.mark.django_db
def test_the_no_javascript_link_records_the_click_and_redirects_to_the_post(client, corpus):
    response = client.get("/search/", {"q": "staticmann"})
    hit, position, href = response.context["linked_hits"][0]
    assert href.startswith("/search/click?") and f'href="{href.replace("&", "&amp;")}"' in response.content.decode()
    redirect = client.get(href)
    assert redirect.status_code == 302 and redirect["Location"] == hit.url and hit.matched == "comment"  # an entry led by its comment
    [row] = SearchClick.objects.all()
    assert (row.position, row.url) == (position, hit.url)
    # A stale or made-up id still leads to our own post, and records nothing.
    again = client.get("/search/click", {"id": "nope", "pos": 1, "to": hit.url})
    assert again.status_code == 302 and again["Location"] == hit.url
    assert SearchClick.objects.count() == 1


@pytest.mark.django_db
def test_the_click_endpoint_refuses_ids_the_server_did_not_issue(client, corpus, settings):
    data = api(client, "firefox")
    url = data["results"][0]["url"]
    token, search, issued, signature = data["query_id"].split(".")
    forged = [
        "",
        "abc",
        "x" * 40,
        f"{token}.{search}.{issued}.{'A' * len(signature)}",  # wrong signature
        f"{'B' * 16}.{search}.{issued}.{signature}",  # another token under this signature
        f"{token}.{'0' * 12}.{issued}.{signature}",  # another search
        f"{token}.{search}.{int(issued, 16) + 1:x}.{signature}",  # another time
        f"{token}.{issued}.{signature}",  # the old three-part form
        tokens.issue(now=time.time() - conf.get().click_max_age_seconds - 120)[1],  # expired
    ]
    for query_id in forged:
        assert click(client, query_id, 1, url).status_code == 400, query_id
    assert not SearchClick.objects.exists()


@pytest.mark.django_db
def test_the_click_endpoint_refuses_oversize_bodies(client, corpus, settings):
    data = api(client, "firefox")
    limit = conf.get().click_max_bytes
    body = f"id={data['query_id']}&pos=1&to={data['results'][0]['url']}&pad={'x' * limit}"
    response = client.post("/search/click", body, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 413
    response = client.get("/search/click", {"id": data["query_id"], "pos": 1, "to": "/post/a/", "pad": "x" * limit})
    assert response.status_code == 413
    assert not SearchClick.objects.exists()


FOREIGN = [
    "https://evil.example/",
    "//evil.example/post/a/",
    "/\\evil.example/",
    "\\\\evil.example",
    "/\t/evil.example",
    "javascript:alert(1)",
    "http:/post/a/",
    "/admin/",
    "/search/?q=x",
    "/post/a/?next=https://evil.example",
    '/post/a/#x"onmouseover',
    "/post/a/extra/",
    "post/a/",
    "",
    "/post/" + "a" * 400 + "/",
]


@pytest.mark.django_db
@pytest.mark.parametrize("target", FOREIGN)
def test_the_click_endpoint_never_redirects_off_our_posts(client, corpus, target):
    data = api(client, "firefox")
    response = client.get("/search/click", {"id": data["query_id"], "pos": 1, "to": target})
    assert response.status_code == 400 and "Location" not in response
    assert click(client, data["query_id"], 1, target).status_code == 400
    assert not SearchClick.objects.exists()


@pytest.mark.parametrize("target", ["/post/a-post/", "/post/a-post/#comment-12", "/post/caf%C3%A9/"])
def test_own_post_urls_are_accepted(target):
    assert clicks.own_post_url(target) == target


@pytest.mark.django_db
def test_the_click_endpoint_refuses_bad_positions_and_methods(client, corpus):
    data = api(client, "firefox")
    url = data["results"][0]["url"]
    for pos in ("0", "-1", "501", "1.5", "x", ""):
        assert click(client, data["query_id"], pos, url).status_code == 400
    assert client.put("/search/click").status_code == 405
    assert not SearchClick.objects.exists()


@pytest.mark.django_db
def test_the_click_endpoint_is_rate_limited_per_client(client, corpus, settings):
    settings.INSIGHTS = {**settings.INSIGHTS, "CLICK_RATE_PER_MINUTE": 2}
    data = api(client, "firefox")
    url = data["results"][0]["url"]
    codes = [click(client, data["query_id"], pos, url, REMOTE_ADDR="198.51.100.7").status_code for pos in (1, 2, 3)]
    assert codes == [204, 204, 429]
    assert click(client, data["query_id"], 3, url, REMOTE_ADDR="198.51.100.8").status_code == 204  # another client
    assert sorted(SearchClick.objects.values_list("position", flat=True)) == [1, 2, 3]


# ---------------------------------------------------------------- reports


def searched_and_clicked(client):
    """Three searches of firefix (one corrected result opened at position 2), one of nothing."""
    for _ in range(3):
        data = api(client, "firefix")
    assert click(client, data["query_id"], 2, data["results"][1]["url"]).status_code == 204
    api(client, "qwxzv plokij")
    buffer.flush()


@pytest.mark.django_db
def test_report_figures(client, corpus):
    searched_and_clicked(client)
    period = reports.Period.last_days(7)
    assert reports.corrections(period) == [{"typed": "firefix", "shown": "firefox", "times": 3}]
    [top, _] = reports.top_queries(period)
    assert (top["query"], top["searches"], top["clicked"], top["ctr_percent"]) == ("firefix", 3, 1, 33.3)
    [none] = reports.no_results(period)
    assert (none["query"], none["searches"]) == ("qwxzv plokij", 1)
    s = reports.summary(reports.daily(period))
    assert (s["searches"], s["zero_results"], s["corrected"], s["clicks"], s["mean_position"]) == (4, 1, 3, 1, 2.0)
    assert s["click_through_rate"] == 0.25


# (query, total, shown correction, elapsed ms) of seven searches; clicks by search index and position.
SEARCHES = [
    ("firefix", 3, "firefox", 1.0),
    ("firefix", 3, "firefox", 2.0),
    ("Firefix", 3, "firefox", 3.0),
    ("firefix", 3, "firefox", 4.0),
    ("qwxzv", 0, "", 10.0),
    ("qwxzv", 0, "", 100.0),
    ("jekyll", 5, "", 0.5),
]
CLICKS = [(0, 1), (1, 1), (1, 2), (1, 2), (4, 3)]


def log_searches(*, one_row_each: bool):
    ids = []
    for query, total, shown, elapsed in SEARCHES:
        token = buffer.add(("api", None, 0, query, 1, total, "phrase", shown, 1, 4, True), elapsed)
        ids.append(tokens.query_id(token))
        if one_row_each:
            buffer.flush()
    buffer.flush()
    for i, position in CLICKS:
        clicks.store(*tokens.verify(ids[i]), position, "/post/a/")


def report_figures() -> tuple:
    period = reports.Period.last_days(1)
    no_results = [{k: v for k, v in row.items() if k != "last_seen"} for row in reports.no_results(period)]
    return reports.top_queries(period), no_results, reports.corrections(period), reports.daily(period)


@pytest.mark.django_db
def test_a_row_counting_several_searches_reports_exactly_as_a_row_per_search():
    log_searches(one_row_each=True)
    assert SearchLog.objects.count() == len(SEARCHES)
    one_row_each = report_figures()
    SearchLog.objects.all().delete()
    SearchClick.objects.all().delete()
    log_searches(one_row_each=False)
    assert sorted(SearchLog.objects.values_list("query", "searches")) == [("Firefix", 1), ("firefix", 3), ("jekyll", 1), ("qwxzv", 2)]
    assert report_figures() == one_row_each
    top, no_results, corrections, [day] = one_row_each
    assert [(r["query"], r["searches"], r["zero_results"], r["clicked"], r["ctr_percent"]) for r in top] == [
        ("firefix", 4, 0, 2, 50.0),
        ("qwxzv", 2, 2, 1, 50.0),
        ("jekyll", 1, 0, 0, 0.0),
    ]
    assert no_results == [{"query": "qwxzv", "searches": 2}]
    assert corrections == [{"typed": "firefix", "shown": "firefox", "times": 4}]
    assert {k: day[k] for k in ("searches", "zero_results", "corrected", "cached", "clicked_searches", "clicks", "position_sum")} == {
        "searches": 7,
        "zero_results": 2,
        "corrected": 4,
        "cached": 7,
        "clicked_searches": 3,
        "clicks": 4,
        "position_sum": 7,
    }
    # Percentiles over every search's time: 0.5 1 2 3 4 10 100.
    assert (day["p50_ms"], day["p95_ms"]) == (3.0, pytest.approx(73.0))
    s = reports.summary([day])
    assert (s["click_through_rate"], s["mean_position"]) == (3 / 7, 7 / 4)


@pytest.mark.django_db
def test_pruning_keeps_the_figures_of_rows_counting_several_searches(settings):
    log_searches(one_row_each=False)
    before = report_figures()[-1]
    SearchLog.objects.update(created=Now() - timedelta(days=conf.get().retention_days + 2))
    SearchClick.objects.update(created=Now() - timedelta(days=conf.get().retention_days + 2))
    old_day = SearchLog.objects.first().created.astimezone(UTC).date()
    kept = reports.daily(reports.Period(old_day, old_day))
    done = retention.prune()
    assert (done.searches, done.clicks) == (7, 4) and not SearchLog.objects.exists()
    assert reports.daily(reports.Period(old_day, old_day)) == kept and kept[0]["searches"] == before[0]["searches"] == 7
    assert DailyStat.objects.get(day=old_day).p95_ms == pytest.approx(73.0)


@pytest.mark.django_db
def test_the_admin_report_renders_without_data(admin_client):
    response = admin_client.get(REPORT)
    assert response.status_code == 200
    page = response.content.decode()
    assert "No searches were logged in this period" in page and page.count('<svg class="chart"') == 3


@pytest.mark.django_db
def test_the_admin_report_renders_with_data_charts_and_csv(admin_client, client, corpus):
    searched_and_clicked(client)
    response = admin_client.get(REPORT, {"days": 30})
    assert response.status_code == 200
    page = response.content.decode()
    assert "No searches were logged" not in page
    corrections = page[page.index('id="table-corrections"') : page.index('id="table-daily"')]
    assert "firefix" in corrections and "firefox" in corrections and "<td>3</td>" in corrections
    assert "qwxzv plokij" in page[page.index('id="table-no-results"') :]
    assert '<dd id="report-clicks">1</dd>' in page and "25% (1 of 4 searches)" in page
    assert page.count('<svg class="chart"') == 3 and "<rect" in page and "<circle" in page and "<script" not in page.split('<svg class="chart"')[1]
    link = f"{REPORT}corrections.csv?first="
    assert link in page
    csv_response = admin_client.get(f"{REPORT}corrections.csv", {"days": 30})
    assert csv_response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(csv_response.content.decode())))
    assert rows == [["typed", "shown", "times"], ["firefix", "firefox", "3"]]
    daily = list(csv.reader(io.StringIO(admin_client.get(f"{REPORT}daily.csv").content.decode())))
    assert daily[0][:3] == ["day", "searches", "zero_results"] and daily[-1][1:3] == ["4", "1"]
    assert admin_client.get(f"{REPORT}nonsense.csv").status_code == 404


@pytest.mark.django_db
def test_csv_cells_never_start_a_formula(admin_client, client, corpus):
    api(client, "=HYPERLINK(1)")
    buffer.flush()
    body = admin_client.get(f"{REPORT}top-queries.csv").content.decode()
    assert "'=hyperlink(1)" in body and "\n=" not in body


@pytest.mark.django_db
def test_the_report_is_for_staff_only(client, django_user_model):
    assert client.get(REPORT).status_code == 302
    user = django_user_model.objects.create_user("reader", password="pw")
    client.force_login(user)
    assert client.get(REPORT).status_code == 302  # not staff: back to the admin login
    user.is_staff = True
    user.save()
    assert client.get(REPORT).status_code == 403  # staff without the permission to view the log
    assert client.get(f"{REPORT}top-queries.csv").status_code == 403


@pytest.mark.django_db
def test_the_terminal_report(client, corpus):
    searched_and_clicked(client)
    out = io.StringIO()
    call_command("search_report", "--days", "7", stdout=out)
    text = out.getvalue()
    assert "searches 4, no result 1 (25.0%)" in text and "click-through rate 25.0%" in text
    assert "firefix -> firefox, 3 times" in text and "mean clicked position 2.0" in text
    assert "query qwxzv plokij, searches 1" in text


# ---------------------------------------------------------------- retention


def backdate(days: int, **filters):
    SearchLog.objects.filter(**filters).update(created=Now() - timedelta(days=days))


@pytest.mark.django_db
def test_pruning_deletes_old_rows_and_keeps_the_daily_figures(client, corpus, settings):
    searched_and_clicked(client)
    old_day = datetime.now(UTC).date() - timedelta(days=100)
    SearchLog.objects.update(created=datetime.combine(old_day, datetime.min.time(), tzinfo=UTC) + timedelta(hours=12))
    SearchClick.objects.update(created=datetime.combine(old_day, datetime.min.time(), tzinfo=UTC) + timedelta(hours=13))
    api(client, "jekyl")  # today's search stays
    buffer.flush()
    period = reports.Period(old_day - timedelta(days=1), old_day + timedelta(days=1))
    before = reports.daily(period)
    out = io.StringIO()
    call_command("search_report", "--prune", stdout=out)
    assert "4 searches and 1 clicks deleted" in out.getvalue()
    assert list(SearchLog.objects.values_list("query", flat=True)) == ["jekyl"]
    assert not SearchClick.objects.exists()
    stat = DailyStat.objects.get(day=old_day)
    assert (stat.searches, stat.zero_results, stat.corrected, stat.clicks, stat.position_sum) == (4, 1, 3, 1, 2)
    assert stat.p50_ms > 0 and stat.p95_ms >= stat.p50_ms
    after = reports.daily(period)
    assert after == before and after[1]["searches"] == 4  # the charts read the kept figures
    assert reports.corrections(period) == []  # the tables cover the retention period only
    # Pruning again changes nothing.
    retention.prune()
    assert DailyStat.objects.get(day=old_day).searches == 4 and SearchLog.objects.count() == 1


@pytest.mark.django_db
def test_retention_period_is_a_setting(settings):
    settings.INSIGHTS = {**settings.INSIGHTS, "RETENTION_DAYS": 3}
    buffer.add(*entry("recent"))
    buffer.add(*entry("old"))
    buffer.flush()
    backdate(4, query="old")
    backdate(2, query="recent")
    done = retention.prune()
    assert done.searches == 1 and list(SearchLog.objects.values_list("query", flat=True)) == ["recent"]
    assert DailyStat.objects.count() == 2  # both finished days summed up


# ---------------------------------------------------------------- charts


def test_charts_are_plain_svg_with_text_escaped():
    days = [date(2026, 11, d) for d in range(1, 8)]
    svg = charts.bars("c", "Searches <per> day", days, [("searches", "bar-searches", [1, 0, 5, 2, 0, 0, 3])])
    assert svg.startswith("<svg") and svg.endswith("</svg>") and "<script" not in svg and "style=" not in svg
    assert "Searches &lt;per&gt; day" in svg and svg.count("<rect") == 4
    line = charts.lines("t", "Time", days, [("p50", "line-p50", [1.0, None, 3.0, None, None, None, 2.5])], unit=" ms")
    assert line.count("<circle") == 3 and "<polyline" in line
    assert "no searches in this period" in charts.lines("e", "Empty", days, [("p50", "line-p50", [None] * 7)])


# ---------------------------------------------------------------- fuzz

TARGET_PIECES = st.one_of(
    st.sampled_from(["/", "//", "\\", "/post/", "a/", "#comment-1", "#", "?", "http:", "https://x", "%2F", "%5C", "\t", "\n", " ", "@", "javascript:", ".."]),
    st.text(max_size=12),
)


@pytest.mark.django_db
@hypothesis_settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(target=st.lists(TARGET_PIECES, max_size=6).map("".join), pos=st.text(max_size=5), query_id=st.text(max_size=50), post=st.booleans())
def test_fuzz_the_click_endpoint_never_fails_or_leaves_the_site(client, target, pos, query_id, post):
    params = {"id": query_id, "pos": pos, "to": target}
    if post:
        response = client.post("/search/click", urlencode(params), content_type="application/x-www-form-urlencoded")
        assert response.status_code in (204, 400, 413, 429)
    else:
        response = client.get("/search/click", params)
        assert response.status_code in (302, 400, 413)
        if response.status_code == 302:
            location = response["Location"]
            assert location == target and clicks.own_post_url(location) == location
            assert location.startswith("/post/") and not location.startswith("//")


@pytest.mark.django_db(transaction=True)
def test_the_redirect_leads_on_when_the_click_cannot_be_stored(client, corpus):
    data = api(client, "firefox")
    url = data["results"][0]["url"]
    with connection.cursor() as cursor:  # the table is gone: every INSERT fails
        cursor.execute("ALTER TABLE insights_searchclick RENAME TO insights_searchclick_away")
    try:
        response = client.get("/search/click", {"id": data["query_id"], "pos": 1, "to": url})
    finally:
        with connection.cursor() as cursor:
            cursor.execute("ALTER TABLE insights_searchclick_away RENAME TO insights_searchclick")
    assert response.status_code == 302 and response["Location"] == url


def test_the_search_logs_documented_table_is_its_object():
    """docs/configuration.md#the-search-log holds the table rendered from insights/conf.py."""
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "configuration.md").read_text()
    assert conf.documented_table() in text.split("## The search log", 1)[1]
