"""`search_check --repair` wins over what was done to the index behind our back: a tombstone of a
document deleted in Elasticsearch, a stray document with a higher version (found by the fault
harness, issue 25)."""

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from search.aliases import alias_name
from tests.factories import make_comment, make_post
from tests.helpers import ids_in, refresh, source_of
from tests.sync_support import apply_pending, assert_in_sync


@pytest.mark.django_db
def test_repair_restores_a_document_deleted_in_elasticsearch(es, build_index, capsys):
    post = make_post("Deleted behind our back")
    make_post("Untouched")
    build_index()
    es.indices.put_settings(index=alias_name("posts"), settings={"index.gc_deletes": "10m"})  # the tombstone outlives the test
    es.delete(index=alias_name("posts"), id=str(post.pk), refresh=True)  # a tombstone at 2v+2 beats the row's 2v+1
    with pytest.raises(CommandError, match="1 difference"):
        call_command("search_check")
    call_command("search_check", "--repair")  # today: CommandError, still 1 missing (the 409 was taken as "newer")
    assert capsys.readouterr().out.strip().endswith("0 missing, 0 extra, 0 stale")
    assert post.pk in ids_in(es, "posts") and source_of(es, "posts", post.pk)["title"] == "Deleted behind our back"
    assert_in_sync()
    apply_pending()  # the re-versioning's own outbox entries are harmless
    assert_in_sync()


@pytest.mark.django_db
def test_repair_overrides_a_stray_higher_version(es, build_index):
    post = make_post("Overwritten behind our back")
    comment = make_comment(post, "Comment overwritten behind our back")
    build_index()
    es.index(index=alias_name("posts"), id=str(post.pk), document={"title": "stray"}, version=10**9, version_type="external", refresh=True)
    es.index(index=alias_name("comments"), id=str(comment.pk), document={"comment": "stray"}, version=10**9, version_type="external", refresh=True)
    call_command("search_check", "--repair")
    refresh(es)
    assert source_of(es, "posts", post.pk)["title"] == "Overwritten behind our back"
    assert source_of(es, "comments", comment.pk)["comment"] == "Comment overwritten behind our back"
    assert_in_sync()
