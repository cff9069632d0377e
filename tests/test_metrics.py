"""/metrics (issue 39): the numbers move as they should after searches, a save, a dead letter and
an Elasticsearch outage; only loopback, the allowed networks and the token may read them; the
breakers report their changes; the scheduler serves its own counters."""

import urllib.error
import urllib.request

import pytest
from django.urls import reverse

from search import metrics_serving
from search.breaker import Breaker, RateBreaker, RateLimits
from search.client import reset_client
from tests.factories import make_post
from tests.helpers import moved, scrape, searches, value

METRICS = reverse("search:metrics")
API = reverse("search:api")


def search_a_few(client):
    assert client.get(API, {"q": "firefox"}).status_code == 200  # fresh
    assert client.get(API, {"q": "firefox"}).status_code == 200  # cached
    assert client.get(reverse("search:results"), {"q": "firefox"}).status_code == 200
    assert client.get(API, {"q": "firef", "snippets": "0"}).status_code == 200


def check_searches(before, after):
    assert searches(before, after, "api", "fresh") == 1 and searches(before, after, "api", "cached") == 1
    assert searches(before, after, "page", "fresh") == 1 and searches(before, after, "instant", "fresh") == 1
    assert moved(before, after, "search_result_cache_requests_total", result="hit") == 1
    assert moved(before, after, "search_result_cache_requests_total", result="miss") == 3
    assert moved(before, after, "search_elasticsearch_requests_total", outcome="ok") >= 3
    assert moved(before, after, "search_elasticsearch_requests_total", outcome="unreachable") == 0


def check_save(before, after):
    assert moved(before, after, "search_sync_rounds_total", outcome="ok") == 1
    assert moved(before, after, "search_sync_changes_total", result="applied") == 1
    assert moved(before, after, "search_freshness_seconds_count") == 1
    assert 0 <= moved(before, after, "search_freshness_seconds_sum") < 5  # a save's own sync: at once
    assert value(after, "search_index_documents", kind="posts") == 2
    assert value(after, "search_outbox_pending") == 0 and value(after, "search_outbox_dead") == 0
    assert value(after, "search_index_generation") > value(before, "search_index_generation")


def check_dead_letter(before, after):
    assert moved(before, after, "search_sync_rounds_total", outcome="refused") == 1
    assert moved(before, after, "search_sync_changes_total", result="dead") == 1
    assert moved(before, after, "search_freshness_seconds_count") == 0  # never searchable
    assert value(after, "search_outbox_dead") == 1


def outage(client, settings, live):
    """Elasticsearch unreachable: searches fail until the breaker opens; a save waits in the outbox."""
    settings.ELASTICSEARCH = {**settings.ELASTICSEARCH, "URL": "http://127.0.0.1:9", "TIMEOUT": 0.5}
    reset_client()
    for n in range(6):
        assert client.get(API, {"q": f"outage {n}"}).status_code == 503
    with live():
        make_post("Written during the outage")


def check_outage(before, after):
    assert searches(before, after, "api", "unavailable") == 6
    # the searches until the breaker opened (the earlier searches count in its window), the save's sync
    assert moved(before, after, "search_elasticsearch_requests_total", outcome="unreachable") >= 3
    assert value(after, "search_breaker_open", breaker="search") == 1
    assert moved(before, after, "search_breaker_trips_total", breaker="search") == 1
    assert moved(before, after, "search_sync_rounds_total", outcome="unreachable") == 1
    assert value(after, "search_breaker_open", breaker="sync") == 1
    assert value(after, "search_outbox_pending") == 1 and value(after, "search_outbox_due") == 1
    assert value(after, "search_state_up", source="elasticsearch") == 0 and value(after, "search_state_up", source="postgresql") == 1
    assert ("search_index_documents", (("kind", "posts"),)) not in after  # not read: left out, not zero


@pytest.mark.django_db(transaction=True)
def test_the_numbers_move_after_searches_a_save_a_dead_letter_and_an_outage(client, live, poison, settings):
    with live():
        make_post("Firefox keyboard shortcuts", "Firefox has many keyboard shortcuts.")
    before = scrape(client)
    assert value(before, "search_state_up", source="elasticsearch") == 1 and value(before, "search_state_up", source="postgresql") == 1
    assert value(before, "search_synonyms_in_step") == 1 and value(before, "search_index_documents", kind="posts") == 1
    assert 0 <= value(before, "search_index_age_seconds", kind="posts") < 600
    search_a_few(client)
    after_searches = scrape(client)
    check_searches(before, after_searches)
    with live():
        make_post("Firefox extensions", "Writing one.")
    after_save = scrape(client)
    check_save(after_searches, after_save)
    settings.SEARCH = {**settings.SEARCH, "OUTBOX_MAX_ATTEMPTS": 1}
    with live():
        make_post("Poison pill")
    after_dead = scrape(client)
    check_dead_letter(after_save, after_dead)
    outage(client, settings, live)
    check_outage(after_dead, scrape(client))


@pytest.mark.django_db
def test_metrics_are_404_from_an_address_not_allowed(client, settings):
    stranger = {"REMOTE_ADDR": "203.0.113.9"}
    assert client.get(METRICS, **stranger).status_code == 404
    assert client.get(METRICS, HTTP_X_FORWARDED_FOR="127.0.0.1", **stranger).status_code == 404  # a header is not an address
    assert client.get(METRICS, REMOTE_ADDR="::1").status_code == 200
    settings.SEARCH = {**settings.SEARCH, "METRICS_ALLOW": "10.0.0.5, 203.0.113.0/24", "METRICS_TOKEN": "s3cret-token"}
    assert client.get(METRICS, **stranger).status_code == 200
    assert client.get(METRICS, REMOTE_ADDR="198.51.100.7").status_code == 404
    assert client.get(METRICS, REMOTE_ADDR="198.51.100.7", HTTP_AUTHORIZATION="Bearer s3cret-token").status_code == 200
    assert client.get(METRICS, REMOTE_ADDR="198.51.100.7", HTTP_AUTHORIZATION="Bearer wrong").status_code == 404
    settings.SEARCH = {**settings.SEARCH, "METRICS": False}
    assert client.get(METRICS).status_code == 404  # off: not even loopback


def test_a_malformed_allow_list_is_named():
    with pytest.raises(ValueError, match="'10.0.0.300'"):
        metrics_serving.networks("10.0.0.1, 10.0.0.300")


def test_breakers_report_opening_and_closing():
    seen = []
    simple = Breaker(lambda: 0.0, watch=seen.append)
    simple.trip()
    assert simple.allows() and seen == [True, False]  # a zero pause: closed again at the next call
    simple.allows()
    assert seen == [True, False]  # told once
    clock = [0.0]
    rated = RateBreaker(lambda: RateLimits(10, 2, 0.5, 3), clock=lambda: clock[0], watch=seen.append)
    rated.record(False)
    rated.record(False)
    assert seen[-1] is True and not rated.allows()
    clock[0] = 4
    assert rated.allows()  # the probe
    rated.record(True)
    assert seen == [True, False, True, False]


@pytest.mark.django_db
def test_the_scheduler_serves_its_own_counters_on_its_port():
    server = metrics_serving.serve_in_background(0, "127.0.0.1")
    try:
        url = f"http://127.0.0.1:{server.server_port}"
        body = urllib.request.urlopen(f"{url}/metrics", timeout=5).read().decode()
        assert "search_sync_rounds_total" in body and "search_freshness_seconds_bucket" in body
        assert "search_outbox_pending" not in body  # the states are the web's to read
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(f"{url}/other", timeout=5)
        assert missing.value.code == 404
    finally:
        server.shutdown()
        server.server_close()
