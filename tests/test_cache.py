"""The result cache never serves a stale result: edits bump the index generation (in PostgreSQL),
which every process reads, and the change is searchable before the bump."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from search import generation, vocabulary
from search.querying.service import search
from tests.factories import make_post
from tests.helpers import TEST_PREFIX

ROOT = Path(__file__).resolve().parent.parent


def test_repeated_search_is_served_from_the_cache(db, build_index):
    make_post("Cacheable zeppelin post")
    build_index()
    first = search("zeppelin")
    second = search("zeppelin")
    assert not first.cached and second.cached
    assert [h.title for h in second.hits] == [h.title for h in first.hits]
    assert second.total == first.total and second.alternatives == first.alternatives


def test_edit_is_visible_at_once_in_the_same_process(db, build_index, django_capture_on_commit_callbacks):
    post = make_post("Original zeppelin title")
    build_index()
    assert search("zeppelin").hits[0].title == "Original zeppelin title"
    assert search("zeppelin").cached
    before = generation.current()
    with django_capture_on_commit_callbacks(execute=True):
        post.title = "Renamed zeppelin title"
        post.save()
    assert generation.current() > before
    result = search("zeppelin")
    assert not result.cached and result.hits[0].title == "Renamed zeppelin title"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("late", [False, True], ids=["notified", "notification-late"])
@pytest.mark.parametrize("path", ["search", "api"])
def test_edit_in_one_process_is_visible_to_another_processs_cache(build_index, late, path):
    """Once the author's save returns, no other process serves the old answer from its cache, even
    when PostgreSQL's notification has not reached it yet (forced with `late`: its listener reads
    nothing, and the writer's post to this host's board, search/generation_board.py, tells it).
    `api`: through /api/search/, whose repeated answers come from the process's answer memo
    (search/answers.py) before the result cache."""
    build_index()  # first, so the saves below are synced (a sync without indices trips the sync breaker)
    post = make_post("Interprocess zeppelin title")
    s = connection.settings_dict
    env = {**os.environ, "SEARCH_INDEX_PREFIX": TEST_PREFIX, "DATABASE_URL": f"postgres://{s['USER']}@{s['HOST']}:{s['PORT']}/{s['NAME']}"}
    worker = subprocess.Popen(
        [sys.executable, str(ROOT / "tests" / "search_worker.py"), *(["--late-notifications"] if late else []), *(["--api"] if path == "api" else [])],
        env=env,
        text=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )

    def ask():
        worker.stdin.write("zeppelin\n")
        worker.stdin.flush()
        return json.loads(worker.stdout.readline())

    served = "cached" if path == "search" else "memo"
    try:
        assert ask() == {served: False, "titles": ["Interprocess zeppelin title"]}
        if path == "api":  # the result cache answers the second ask, the answer memo the third
            assert ask() == {served: False, "titles": ["Interprocess zeppelin title"]}
        assert ask() == {served: True, "titles": ["Interprocess zeppelin title"]}  # now in the other process's own cache
        post.title = "Edited zeppelin title"
        post.save()  # a real commit: the after-commit sync writes, refreshes, bumps the generation
        assert ask() == {served: False, "titles": ["Edited zeppelin title"]}
    finally:
        worker.stdin.close()
        worker.wait(timeout=30)


def test_word_cache_gives_the_same_answer_in_one_round_trip(db, build_index, monkeypatch):
    """The word cache serves the words the suggesters are asked about: every unknown word while no
    dictionary is loaded (with one, only words it cannot answer for: test_service_plan.py)."""
    monkeypatch.setattr(vocabulary, "current", lambda gen: None)
    make_post("Firefox keyboard shortcuts", "Firefox shortcuts for tabs")
    make_post("Writing a Firefox extension", "extension for the Firefox browser")
    build_index()
    cold = search("firefix extnsion", use_cache=False)
    warm = search("firefix extnsion", use_cache=False)
    assert not cold.word_cache_hit and cold.round_trips == 2
    assert warm.word_cache_hit and warm.round_trips == 1
    assert warm.alternatives == cold.alternatives
    assert [h.id for h in warm.hits] == [h.id for h in cold.hits]
    # Words are reused across queries: a new query made of cached words needs no suggest request.
    mixed = search("extnsion firefix", use_cache=False)
    assert mixed.word_cache_hit and "extension firefox" in [a.text for a in mixed.alternatives]


def test_word_cache_round_trip_is_exact():
    from search.querying import wordcache

    suggest = {
        "title_terms": [{"text": "firefix", "offset": 4, "length": 7, "options": [{"text": "firefox", "score": 0.86}]}],
        "text_terms": [
            {"text": "the", "offset": 0, "length": 3, "options": []},
            {"text": "firefix", "offset": 4, "length": 7, "options": [{"text": "firefly", "score": 0.71}]},
        ],
        "comment_terms": [],
    }
    aggs = {"known_words": {"words": {"buckets": {"w0": {"doc_count": 900}, "w1": {"doc_count": 0}}}}}
    wordcache.store("the firefix", suggest, aggs, generation=7, options={"a": 1}, seconds=60)
    rebuilt = wordcache.lookup("the   firefix", generation=7, options={"a": 1}, seconds=60)
    assert rebuilt is not None
    got_suggest, got_aggs = rebuilt
    assert got_aggs["known_words"]["words"]["buckets"] == {"w0": {"doc_count": 900}, "w1": {"doc_count": 0}}
    assert got_suggest["title_terms"] == [{"text": "firefix", "offset": 6, "length": 7, "options": [{"text": "firefox", "score": 0.86}]}]
    assert wordcache.lookup("the firefix", generation=8, options={"a": 1}, seconds=60) is None  # new generation
    assert wordcache.lookup("the firefix", generation=7, options={"a": 2}, seconds=60) is None  # other options


@pytest.mark.django_db(transaction=True)
def test_a_cached_answer_costs_no_postgresql_round_trip(build_index, django_assert_num_queries):
    """The generation comes from the process's LISTEN connection (search/generation.py), not
    from a read on Django's connection per search."""
    make_post("Listened zeppelin post")
    build_index()
    assert not search("zeppelin").cached  # connects the listener, loads the vocabulary
    with django_assert_num_queries(0):
        result = search("zeppelin")
    assert result.cached and result.hits[0].title == "Listened zeppelin post"


def test_a_repeated_api_request_is_answered_as_sent_before(db, build_index, client, settings, django_capture_on_commit_callbacks):
    """The answer memo (search/answers.py): the same bytes for the same request, the reader's own
    casing for another casing of it, a new answer once an edit moves the generation; and the
    search log sees a memo hit as the cached search it is (/metrics: tests/test_metrics.py)."""
    from search import answers
    from search.recording import recorder
    from tests.helpers import moved, scrape, searches

    post = make_post("Memorable zeppelin post", "about airships")
    build_index()
    settings.INSIGHTS = {**settings.INSIGHTS, "ENABLED": True}
    client.get("/api/search/", {"q": "Zeppelin", "snippets": "0"})  # searched: the result cache holds it
    assert not answers.memo.entries  # a query asked once is not kept
    first = client.get("/api/search/", {"q": "Zeppelin", "snippets": "0"})  # the result cache's answer: now kept
    assert len(answers.memo.entries) == 1
    recorded = []
    log = recorder()
    record = log.record
    monkey = pytest.MonkeyPatch()
    monkey.setattr(log, "record", lambda result, **kw: recorded.append((result, kw)) or record(result, **kw))
    before = scrape(client)
    try:
        second = client.get("/api/search/", {"q": "Zeppelin", "snippets": "0"})
    finally:
        monkey.undo()
    after = scrape(client)
    assert searches(before, after, "instant", "cached") == 1 and moved(before, after, "search_result_cache_requests_total", result="hit") == 1
    one, two = first.json(), second.json()
    assert len(answers.memo.entries) == 1
    assert one["query_id"] and two["query_id"] and one["query_id"] != two["query_id"]  # each search logged on its own
    assert {**one, "query_id": None} == {**two, "query_id": None}
    assert second.content.endswith(b'"query_id":"' + two["query_id"].encode() + b'"}')
    ((result, kw),) = recorded
    assert (result.query, result.total, result.cached, kw["source"]) == ("Zeppelin", 1, True, "api") and result.elapsed_ms > 0
    lower = client.get("/api/search/", {"q": "zeppelin", "snippets": "0"}).json()  # another key: its own casing
    assert len(answers.memo.entries) == 2
    assert lower["query"] == "zeppelin" and lower["results"] == one["results"]
    with django_capture_on_commit_callbacks(execute=True):
        post.title = "Renamed zeppelin post"
        post.save()
    assert client.get("/api/search/", {"q": "Zeppelin", "snippets": "0"}).json()["results"][0]["title"] == "Renamed zeppelin post"


def test_the_answer_memo_can_be_turned_off(db, build_index, client, settings):
    from search import answers

    make_post("Unmemorable zeppelin post")
    build_index()
    settings.SEARCH = {**settings.SEARCH, "ANSWER_MEMO_BYTES": 0}
    for _ in range(2):
        assert client.get("/api/search/", {"q": "zeppelin"}).json()["total"] == 1
    assert not answers.memo.entries
