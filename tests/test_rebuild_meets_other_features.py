"""The newest features while `reindex` rebuilds the indices (issue 38.3): a synonym rule deleted
mid-rebuild stays deleted, and the facet counts of a search made mid-rebuild add up. The real
services; the rebuild's own hook (after the posts are loaded, before the swap) forces the moment."""

import pytest

from search.models import SynonymRule
from search.querying.service import search
from tests.factories import make_comment, make_post
from tests.sync_support import after_posts_load

pytestmark = pytest.mark.django_db(transaction=True)


def post_ids(query: str) -> set[int]:
    return {hit.post_id for hit in search(query, use_cache=False).hits}


def test_a_synonym_rule_deleted_mid_rebuild_stays_deleted(build_index, monkeypatch):
    javascript = make_post("JavaScript closures explained", "Scopes.")
    make_post("Fast js bundles", "Bundling.")
    SynonymRule.objects.create(rule="js, javascript")  # copied to the set at commit
    build_index()
    assert javascript.pk in post_ids("js ")
    after_posts_load(monkeypatch, lambda: SynonymRule.objects.all().delete())  # copied at its commit, mid-rebuild
    build_index()  # wrote the set (with the rule) before creating the new indices
    assert javascript.pk not in post_ids("js ")
    assert not SynonymRule.objects.exists()


def test_facet_counts_add_up_during_a_rebuild(build_index, monkeypatch):
    for year, tag in ((2021, "rust"), (2021, "python"), (2023, "rust"), (2024, "rust")):
        post = make_post(f"Zeppelin notes {year} {tag}", "airship", tags=[tag], days_ago=365 * (2026 - year))
        make_comment(post, "a zeppelin comment")
    build_index()
    seen = []

    def look():
        result = search("zeppelin", use_cache=False, detail=True)
        seen.append((result.total, sum(n for _, n in result.facets.years), dict(result.facets.tags)))

    after_posts_load(monkeypatch, look)
    build_index()
    look()
    for total, years, tags in seen:  # mid-rebuild (the old indices live), then on the new ones
        assert total == years == 4 and tags == {"rust": 3, "python": 1}
