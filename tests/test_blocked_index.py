"""A write-blocked or read-only index gets a few spaced retries, not a storm, and saves stay fast
(the sync breaker skips the rest; found by the fault harness, issue 25)."""

import time

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from elasticsearch import Elasticsearch

from blog.models import Post
from search.aliases import alias_name
from search.models import DeadChange, PendingChange
from search.sync import outbox
from tests.factories import make_post
from tests.helpers import refresh, source_of
from tests.sync_support import apply_pending, assert_in_sync


@pytest.mark.django_db
@pytest.mark.parametrize("block", ["index.blocks.write", "index.blocks.read_only_allow_delete"])
def test_blocked_index_gets_few_spaced_retries_and_saves_stay_fast(es, live, monkeypatch, settings, block):
    settings.SEARCH = {**settings.SEARCH, "BLOCKED_RETRY_DELAYS": (2.0, 5.0)}
    posts = [make_post(f"Blocked {n}") for n in range(20)]
    with live():
        pass
    Post.objects.filter(pk__in=[p.pk for p in posts]).update(title="Blocked edited")  # 20 entries, no sync yet
    requests, slept = [], []
    real_bulk = Elasticsearch.bulk

    def bulk(self, *args, **kwargs):  # passes through to the real node; only counts
        requests.append(1)
        if len(requests) > 60:
            raise RuntimeError("a retry storm: more than 60 bulk requests")
        return real_bulk(self, *args, **kwargs)

    monkeypatch.setattr(Elasticsearch, "bulk", bulk)
    monkeypatch.setattr(outbox, "pause", slept.append)  # record the spacing, don't wait
    for kind in ("posts", "comments"):
        es.indices.put_settings(index=alias_name(kind), settings={block: True})
    try:
        with pytest.raises(CommandError, match="refuses writes"):  # today: a storm (1 + 20 requests per round, rounds without end)
            call_command("search_sync")
        assert len(requests) == 3  # the first try and one per delay, each one bulk request
        assert len(slept) == 2 and all(0.8 * d <= s <= 1.2 * d for s, d in zip(slept, (2.0, 5.0), strict=True))
        assert not DeadChange.objects.exists()
        assert set(PendingChange.objects.values_list("attempts", flat=True)) == {0}
        assert set(PendingChange.objects.values_list("object_id", flat=True)) == {p.pk for p in posts}  # all still waiting
        requests.clear()
        started = time.perf_counter()
        with live():  # after-commit syncs: one tries (one request), the breaker skips the rest
            for p in posts[:5]:
                p.title = "Saved while blocked"
                p.save()
        # One request, then the breaker: no save waits on the blocked index. The bound is far
        # below one spaced retry (2 s) yet leaves a loaded machine room (five saves, one request).
        assert len(requests) == 1 and not outbox.breaker.allows()
        assert time.perf_counter() - started < 2.0
    finally:
        for kind in ("posts", "comments"):
            es.indices.put_settings(index=alias_name(kind), settings={block: None})
    outbox.breaker.reset()
    apply_pending()
    refresh(es)
    assert source_of(es, "posts", posts[0].pk)["title"] == "Saved while blocked"
    assert_in_sync()
