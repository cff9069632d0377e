"""A document Elasticsearch refuses during a rebuild is skipped, reported and dead-lettered; the
rebuild is not all or nothing, but too many refusals still fail it with the live indices unchanged
(found by the fault harness, issue 25)."""

import io

import pytest
from django.core.management import call_command

from search.aliases import aliased_indices
from search.documents import Kind
from search.models import DeadChange
from search.sync import indexing
from search.sync import rebuild as rebuild_module
from search.sync.indexing import IndexingError
from tests.factories import make_post
from tests.helpers import ids_in
from tests.sync_support import dead_letters, write_during_the_load


@pytest.mark.django_db
@pytest.mark.usefixtures("poison")
def test_rebuild_skips_reports_and_dead_letters_a_refused_document(es, build_index, client):
    bad, good = make_post("Poison pill"), make_post("Healthy neighbour")
    out, err = io.StringIO(), io.StringIO()
    call_command("reindex", "--no-progress", stdout=out, stderr=err)  # today: "the live indices are unchanged"
    assert "Reindexed" in out.getvalue() and "skipped 1 document(s)" in err.getvalue() and f"post {bad.pk}" in err.getvalue()
    ids = ids_in(es, "posts")
    assert good.pk in ids and bad.pk not in ids
    error = dead_letters()[("post", bad.pk)]
    assert "document_parsing_exception" in error or "mapper_parsing_exception" in error
    assert client.get("/healthz").json()["outbox"]["dead"] == 1


@pytest.mark.django_db
def test_a_change_refused_by_the_catch_up_does_not_swap_back(es, build_index, monkeypatch):
    post = make_post("Fine at first")
    build_index()
    before = aliased_indices(es, "posts")
    write_during_the_load(monkeypatch, post, "Poison after the load")  # the old index takes it: kept for the replay
    real_swap, real_doc = rebuild_module.swap_aliases, indexing.post_to_doc

    def swap_then_poison(client, new):
        old = real_swap(client, new)  # from now on that title breaks the mapping: the catch-up is refused
        monkeypatch.setattr(indexing, "post_to_doc", lambda p: {**real_doc(p), "pub_date": "not a date"} if p.title.startswith("Poison") else real_doc(p))
        return old

    monkeypatch.setattr(rebuild_module, "swap_aliases", swap_then_poison)
    report = build_index()  # today: RebuildFailedAfterSwap, swapped back
    assert (Kind.POSTS, post.pk) in report.refused
    assert aliased_indices(es, "posts") != before
    assert ("post", post.pk) in dead_letters()


@pytest.mark.django_db
@pytest.mark.usefixtures("poison")
def test_too_many_refusals_still_fail_with_live_indices_unchanged(es, build_index, settings):
    make_post("Fine")
    build_index()
    before = aliased_indices(es, "posts")
    for n in range(3):
        make_post(f"Poison {n}")
    settings.SEARCH = {**settings.SEARCH, "REBUILD_MAX_REFUSED": 2}
    with pytest.raises(IndexingError, match="3 document"):
        build_index()
    assert aliased_indices(es, "posts") == before
    assert not DeadChange.objects.exists()
