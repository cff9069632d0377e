"""A post's document holds its shown comments' text (issue 52: one hit is one entry, no
`collapse`), and every change of a comment reaches it: added, edited, hidden, deleted, moved to
another post, written with the triggers off. The real services; nothing nudged by hand."""

import pytest
from django.core.management import call_command
from django.db import connection

from blog.models import Comment, Post
from search.aliases import alias_name
from search.querying.service import search
from search.sync import checking
from tests.factories import make_comment, make_post
from tests.helpers import refresh, source_of

pytestmark = pytest.mark.django_db(transaction=True)


def held(es, post) -> list[str]:
    refresh(es)
    return source_of(es, "posts", post.pk).get("comment", [])


def found(query: str) -> list[tuple[str, int]]:
    return [(h.type, h.post_id) for h in search(query, use_cache=False).hits]


def test_a_comments_changes_reach_its_posts_document(es, live):
    with live():
        post = make_post("Entry document test", "A body about gardens.")
        other = make_post("Another entry", "A body about kitchens.")
    with live():
        first = make_comment(post, "Periwinkle grows by the wall.")
        second = make_comment(post, "Marjoram too.")
    assert held(es, post) == ["Periwinkle grows by the wall.", "Marjoram too."]
    assert source_of(es, "posts", post.pk)["comment_ids"] == [first.pk, second.pk]
    assert found("periwinkle") == [("post", post.pk)]  # one hit: the post, found by its comment
    with live():
        first.comment = "Lavender grows by the wall."
        first.save()
    assert held(es, post) == ["Lavender grows by the wall.", "Marjoram too."]
    assert found("periwinkle") == [] and found("lavender") == [("post", post.pk)]
    with live():
        second.approved = False
        second.save()
    assert held(es, post) == ["Lavender grows by the wall."]
    with live():
        first.post = other
        first.save()
    assert held(es, post) == [] and held(es, other) == ["Lavender grows by the wall."]
    assert found("lavender") == [("post", other.pk)]
    with live():
        first.delete()
    assert held(es, other) == []
    assert found("lavender") == []
    assert [(r.kind, r.missing, r.extra, r.stale) for r in checking.check()] == [("posts", [], [], []), ("comments", [], [], [])]


def test_a_comment_deleted_by_sql_leaves_its_post_through_the_outbox(es, live):
    """No ORM, no signal: the triggers' outbox entries, applied by `search_sync`."""
    with live():
        post = make_post("Raw deletion", "Body.")
        comment = make_comment(post, "Saxifrage everywhere.")
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM blog_comment WHERE id = %s", [comment.pk])
    call_command("search_sync")
    assert held(es, post) == []
    assert found("saxifrage") == []


def test_a_comment_changed_with_the_triggers_off_is_found_stale_in_its_post_and_repaired(es, live):
    """The post's fingerprint covers its comments', so the audit sees the post's document stale
    though no row version moved, and the repair rewrites it."""
    with live():
        post = make_post("Replicated comments", "Body.")
        comment = make_comment(post, "Foxglove in June.")
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")
        try:
            text = "Hollyhock in July."
            cursor.execute("UPDATE blog_comment SET comment = %s, comment_html = %s WHERE id = %s", [text, f"<p>{text}</p>", comment.pk])
        finally:
            cursor.execute("SET session_replication_role = DEFAULT")
    results = {r.kind: r for r in checking.check()}
    assert results["posts"].stale == [post.pk] and results["comments"].stale == [comment.pk]
    call_command("search_check", "--repair")
    assert held(es, post) == ["Hollyhock in July."]
    assert found("hollyhock") == [("post", post.pk)]


def test_a_comments_change_gives_its_post_a_new_version(es, live):
    """The order of two writes of one post's document comes from PostgreSQL: each change of a
    comment re-versions its post under the post row's lock, so a write from an older snapshot
    carries a smaller version and Elasticsearch refuses it."""
    with live():
        post = make_post("Versions follow comments", "Body.")
    before = Post.objects.get(pk=post.pk).search_version
    with live():
        make_comment(post, "A first remark.")
    after = Post.objects.get(pk=post.pk).search_version
    assert after > before
    refresh(es)
    assert es.get(index=alias_name("posts"), id=str(post.pk))["_version"] == 2 * after + 1
    assert Comment.objects.filter(post=post).count() == 1
