"""Helpers for the tests that force the sync's and the rebuild's interleavings against the real
services (not a test module: test modules import it, never each other). Fixtures, such as
`poison`, live in tests/conftest.py."""

import time

from django.core.management import call_command
from django.db import connection

from blog.models import Post
from search.models import DeadChange
from search.sync import checking, outbox
from search.sync import rebuild as rebuild_module


def db_now():
    """PostgreSQL's clock: the only one visibility and versions depend on."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement_timestamp()")
        return cursor.fetchone()[0]


def wait_until_db_time(moment):
    while db_now() <= moment:
        time.sleep(0.1)


def assert_in_sync():
    results = checking.check()
    assert [(r.kind, r.missing, r.extra, r.stale) for r in results] == [("posts", [], [], []), ("comments", [], [], [])]


def apply_pending():
    call_command("search_sync")


def after_posts_load(monkeypatch, action):
    """Run `action()` once the rebuild has read every post from the database (their last bulk
    requests may still be in flight; long before the swap)."""
    original = rebuild_module.iter_index_actions

    def read_then_act(kind, index, *rest):
        yield from original(kind, index, *rest)
        if kind == "posts":
            action()

    monkeypatch.setattr(rebuild_module, "iter_index_actions", read_then_act)


def write_during_the_load(monkeypatch, post, title):
    """After the posts are loaded, `post` gets `title` and a sync applies it to the old indices."""

    def write():
        Post.objects.filter(pk=post.pk).update(title=title)
        outbox.drain_all(batch=100)  # applied to the old indices, kept for the replay

    after_posts_load(monkeypatch, write)


# Rows only raw SQL can write: psycopg2 raises ValueError ("year 10000 is out of range") reading them.
RAW_POST = (
    "INSERT INTO blog_post (id, title, slug, body_html, body_text, summary, pub_date, tags, published, modified, "
    "source, post_type, source_url, link_url) VALUES (%s, %s, %s, '', '', '', %s, '{}', true, now(), '', '', '', '')"
)
RAW_COMMENT = (
    "INSERT INTO blog_comment (post_id, parent_id, author_name, comment, comment_html, created, approved, modified, edited_on_site) "
    "VALUES (%s, NULL, 'Time traveller', 'unreadable remark', '', %s, true, now(), false) RETURNING id"
)
FAR_FUTURE, BC = "10000-01-01 00:00:00+00", "0044-03-15 00:00:00+00 BC"


def raw(sql, params):
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()[0] if cursor.description else None


def dead_letters() -> dict:
    return {(d.kind, d.object_id): d.last_error for d in DeadChange.objects.all()}
