"""Search failures never become the blog's failures: slow or stopped Elasticsearch, killed reindex."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.urls import reverse

from blog.models import Post
from search.aliases import alias_name, aliased_indices
from search.models import PendingChange
from tests.factories import admin_post_form, make_post
from tests.helpers import TEST_PREFIX

ROOT = Path(__file__).resolve().parent.parent
RESULTS, API = reverse("search:results"), reverse("search:api")


def timed_get(client, url, **params):
    started = time.perf_counter()
    response = client.get(url, params)
    return response, time.perf_counter() - started


@pytest.mark.django_db
def test_slow_elasticsearch_gives_a_503_within_two_seconds(client, es_black_hole, settings):
    settings.SEARCH = {**settings.SEARCH, "SEARCH_BREAKER_MIN_CALLS": 2}
    for _ in range(2):
        response, seconds = timed_get(client, RESULTS, q="firefox")
        assert response.status_code == 503 and response["Retry-After"] and seconds < 2.0
    # Every recent search failed: the breaker is open, the next searches answer at once instead of waiting again.
    response, seconds = timed_get(client, API, q="firefox")
    assert response.status_code == 503 and seconds < 0.5
    assert response.json() == {"error": "search is temporarily unavailable"}
    assert client.get("/").status_code == 200


@pytest.mark.django_db
def test_saves_do_not_wait_on_a_slow_elasticsearch(es_black_hole, django_capture_on_commit_callbacks):
    started = time.perf_counter()
    with django_capture_on_commit_callbacks(execute=True):
        for i in range(5):
            make_post(f"Saved while Elasticsearch hangs {i}")
    assert time.perf_counter() - started < 3.0  # one timeout, then the breaker skips the rest
    assert PendingChange.objects.count() == 5


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_elasticsearch_stopped_and_restarted(client, admin_client, build_index):
    """Stop the real node with the dev scripts, keep using the blog, start it again."""
    post = make_post("Survives the outage", "outage resilient body")
    build_index()
    script = ROOT / "devservices" / "elasticsearch.sh"
    subprocess.run(["bash", str(script), "stop"], check=True, capture_output=True)
    try:
        response, seconds = timed_get(client, RESULTS, q="outage")
        assert response.status_code == 503 and seconds < 2.0
        assert client.get("/").status_code == 200
        assert client.get(post.get_absolute_url()).status_code == 200
        assert admin_client.get("/admin/blog/post/").status_code == 200
        response = admin_client.post(
            f"/admin/blog/post/{post.pk}/change/",
            admin_post_form(post, title="Edited while Elasticsearch was down", body_html="<p>outage edit</p>"),
        )
        assert response.status_code == 302, response.content[:2000]
        assert PendingChange.objects.filter(object_id=post.pk).exists()
        assert client.get("/healthz").status_code == 503
    finally:
        subprocess.run(["bash", str(script), "start"], check=True, capture_output=True)
    # Back: no restart of the application; search answers again once the breaker's pause is over.
    deadline = time.monotonic() + 15
    while client.get(RESULTS, {"q": "outage"}).status_code != 200:
        assert time.monotonic() < deadline, "search did not come back"
        time.sleep(0.5)
    call_command("search_sync")
    assert PendingChange.objects.count() == 0
    data = client.get(API, {"q": "edited while elasticsearch"}).json()
    assert data["results"][0]["post_id"] == post.pk
    assert client.get("/healthz").status_code == 200


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_killed_reindex_leaves_the_old_index_serving(client, es, build_index):
    Post.objects.bulk_create(
        [Post(title=f"Bulk post {i} about zeppelins", slug=f"bulk-{i}", body_text="zeppelin " * 50, body_html="<p>zeppelin</p>") for i in range(3000)]
    )
    build_index()
    before = aliased_indices(es, "posts")
    s = connection.settings_dict
    env = {
        **os.environ,
        "SEARCH_INDEX_PREFIX": TEST_PREFIX,
        "SEARCH_BULK_CHUNK_SIZE": "10",
        "SEARCH_BULK_THREADS": "1",
        "DATABASE_URL": f"postgres://{s['USER']}@{s['HOST']}:{s['PORT']}/{s['NAME']}",
    }
    proc = subprocess.Popen([sys.executable, "manage.py", "reindex", "--no-progress"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:  # wait until it is bulk loading a new index, then kill it mid-load
            names = set(es.indices.get(index=f"{alias_name('posts')}-2*").body)
            building = names - set(before)
            if building:
                time.sleep(0.5)
                break
            assert proc.poll() is None and time.monotonic() < deadline, "reindex finished or never started"
            time.sleep(0.05)
        assert proc.poll() is None, "reindex finished before it could be killed"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert aliased_indices(es, "posts") == before
    data = client.get(API, {"q": "zeppelins", "facets": "1"}).json()  # facets: every match counted (search.md#counts)
    assert (data["total"], data["total_exact"]) == (3000, True)
    # The next run cleans up the half-built index (the killed run's advisory lock died with it).
    report = build_index()
    assert set(report.removed_stale) >= building
    assert es.count(index=alias_name("posts"))["count"] == 3000
