"""Ids past 2^31 (PostgreSQL's bigint) are indexed by the sync and by the rebuild: the mapping's ids
are `long` (found by the fault harness, issue 25)."""

import pytest
from django.core.management import call_command

from blog.models import Post
from search.aliases import alias_name
from search.models import DeadChange
from search.querying.service import search
from tests.factories import make_comment, make_post
from tests.helpers import ids_in, source_of
from tests.sync_support import apply_pending, assert_in_sync

BIG = 3_000_000_000


@pytest.mark.django_db
def test_ids_past_2_to_the_31_are_indexed_by_sync_and_rebuild(es, build_index, tmp_path):
    build_index()
    (tmp_path / "posts.ndjson").write_text(f'{{"id": {BIG}, "title": "Billions quokka", "pub_date": "2020-01-01T00:00:00+00:00"}}\n')
    call_command("import_corpus", str(tmp_path), "--no-progress")
    later = make_post("After the big id quokka")  # the importer moved the sequence past the big id
    assert later.pk > BIG
    comment = make_comment(Post.objects.get(pk=BIG), "quokka remark")
    apply_pending()  # the sync path
    assert {BIG, later.pk} <= ids_in(es, "posts") and comment.pk in ids_in(es, "comments")
    assert source_of(es, "posts", BIG)["post_id"] == BIG
    assert not DeadChange.objects.exists()
    build_index()  # the rebuild path
    mapping = next(iter(es.indices.get_mapping(index=alias_name("posts")).body.values()))["mappings"]["properties"]
    assert mapping["post_id"]["type"] == "long"
    assert {h.post_id for h in search("quokka", use_cache=False).hits} >= {BIG, later.pk}
    assert {BIG, later.pk} <= ids_in(es, "posts") and comment.pk in ids_in(es, "comments")
    assert_in_sync()
