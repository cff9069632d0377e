"""Writes that no row trigger sees still reach the index, within a stated time (issue 38.1):
a TRUNCATE (its statement trigger asks for a whole-kind comparison, applied by the next
`search_sync` round) and writes made with the triggers off (`session_replication_role =
replica`, as logical replication and some restore tools run; found by the audit of
search/sync/audit.py, every SEARCH_AUDIT_EVERY_SECONDS in the scheduler, `--audit` at once).
The real services; nothing is nudged by hand: the rows are written as those tools write them."""

import pytest
from django.core.management import call_command
from django.db import connection

from blog.models import Post
from search.client import bulk_client
from search.models import RecheckRequest
from search.querying.service import search
from search.sync import audit
from tests.factories import make_comment, make_post
from tests.helpers import ids_in, source_of

pytestmark = pytest.mark.django_db(transaction=True)


def replica(*statements):
    """Statements run as a logical replication subscriber runs them: no trigger fires."""
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")
        try:
            for sql, params in statements:
                cursor.execute(sql, params)
        finally:
            cursor.execute("SET session_replication_role = DEFAULT")


@pytest.fixture
def blog(build_index):
    posts = [make_post(f"Truncation test post {i}", "body words") for i in range(3)]
    comments = [make_comment(posts[0], f"a comment about truncation {i}") for i in range(2)]
    build_index()
    # The test runner empties tables with TRUNCATE between tests: its requests are not this test's.
    RecheckRequest.objects.all().delete()
    return posts, comments


def test_truncating_comments_empties_their_index_at_the_next_round(es, blog):
    posts, comments = blog
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE blog_comment")
    assert set(RecheckRequest.objects.values_list("kind", flat=True)) == {"comments"}
    assert ids_in(es, "comments") == {c.pk for c in comments}  # nothing told the index yet
    call_command("search_sync")
    assert ids_in(es, "comments") == set() and ids_in(es, "posts") == {p.pk for p in posts}
    assert not RecheckRequest.objects.exists()


def test_truncating_posts_with_cascade_empties_both_indices(es, blog):
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE blog_post CASCADE")
    call_command("search_sync")
    assert ids_in(es, "posts") == set() and ids_in(es, "comments") == set()


def test_the_audit_finds_replica_role_writes_and_repairs_them(es, blog):
    posts, comments = blog
    replica(
        ("UPDATE blog_post SET title = 'Quietly retitled' WHERE id = %s", [posts[1].pk]),
        ("DELETE FROM blog_comment WHERE id = %s", [comments[1].pk]),
        ("DELETE FROM blog_post WHERE id = %s", [posts[2].pk]),
        (
            "INSERT INTO blog_post (title, slug, body_html, body_text, summary, pub_date, tags, published, modified, source, post_type, source_url, link_url)"
            " VALUES ('Replicated newcomer', 'replicated-newcomer', '', '', '', now() - interval '1 day', '{}', true, now(), '', '', '', '')",
            [],
        ),
    )
    call_command("search_sync")  # the outbox knows nothing of them
    assert source_of(es, "posts", posts[1].pk)["title"] == "Truncation test post 1"
    call_command("search_sync", "--audit")
    newcomer = Post.objects.get(slug="replicated-newcomer")
    assert source_of(es, "posts", posts[1].pk)["title"] == "Quietly retitled"
    assert ids_in(es, "posts") == {posts[0].pk, posts[1].pk, newcomer.pk}
    assert ids_in(es, "comments") == {comments[0].pk}
    assert audit.audit(bulk_client()).repaired == {}  # and then nothing differs


def test_a_reply_follows_its_entry_changed_with_the_triggers_off(es, blog):
    posts, comments = blog
    replica(("UPDATE blog_post SET title = 'Renamed behind the triggers' WHERE id = %s", [posts[0].pk]))
    report = audit.audit(bulk_client())
    assert report.repaired["posts"] == 1  # repairing a post rewrites its comments' documents too
    assert {source_of(es, "comments", c.pk)["post_title"] for c in comments} == {"Renamed behind the triggers"}


def test_an_audit_of_an_index_in_step_repairs_nothing(es, blog):
    report = audit.audit(bulk_client())
    assert report.buckets == {} and report.repaired == {} and report.failed == {}


def test_search_check_finds_a_title_changed_with_the_triggers_off_and_repairs_it(es, blog, capsys):
    """Issue 49: a title changed as a replication subscriber writes it, then a scheduler round:
    `search_check` said "0 missing, 0 extra, 0 stale" (it compared versions only) and `--repair`
    left the stale title; failed on commit 1b01720. It is the exact comparison now."""
    from django.core.management.base import CommandError

    posts, comments = blog
    replica(("UPDATE blog_post SET title = 'Retitled behind the check' WHERE id = %s", [posts[1].pk]))
    call_command("search_sync")  # one scheduler round: the outbox knows nothing of it
    capsys.readouterr()
    with pytest.raises(CommandError, match="1 difference"):
        call_command("search_check")
    assert "posts: 0 missing, 0 extra, 1 stale" in capsys.readouterr().out
    call_command("search_check", "--repair")
    assert capsys.readouterr().out.strip().endswith("0 missing, 0 extra, 0 stale")
    assert source_of(es, "posts", posts[1].pk)["title"] == "Retitled behind the check"
    assert [h.title for h in search("behind the check", use_cache=False).hits] == ["Retitled behind the check"]
    call_command("search_check")  # and nothing differs
