"""An index built by an older release (other analysis or mapping) is rebuilt by `reindex --if-missing`,
so an upgrade never leaves searches querying fields the live index does not have."""

import io

import pytest
from django.core.management import call_command

from search.aliases import alias_name, aliased_indices, outdated_kinds
from search.documents import schema_id
from tests.factories import make_post


def test_schema_id_is_stable_and_differs_per_kind():
    assert schema_id("posts") == schema_id("posts")
    assert schema_id("posts") != schema_id("comments")


@pytest.mark.django_db
def test_reindex_if_missing_rebuilds_an_outdated_index_and_only_then(es, build_index):
    make_post("Schema upgrade notes", "An index of an older release.")
    build_index()
    assert outdated_kinds() == []
    out = io.StringIO()
    call_command("reindex", "--if-missing", "--no-progress", stdout=out)
    assert "nothing to do" in out.getvalue()

    # Pretend the live posts index came from an older release.
    old_name = aliased_indices(es, "posts")[0]
    es.indices.put_mapping(index=old_name, meta={"schema": "an-older-release"})
    assert outdated_kinds() == ["posts"]
    out = io.StringIO()
    call_command("reindex", "--if-missing", "--no-progress", stdout=out)
    assert "older release (posts): rebuilding" in out.getvalue()
    assert aliased_indices(es, "posts") != [old_name]
    assert outdated_kinds() == []
    es.indices.refresh(index=alias_name("posts"))
    assert es.count(index=alias_name("posts"))["count"] == 1


def test_the_field_lists_come_from_the_documents():
    from search.documents import RESULT_FIELDS, SEARCHED_FIELDS, SUGGESTER_FIELDS, CommentDocument, PostDocument, SearchableFields
    from search.querying.query import search_body

    assert set(SEARCHED_FIELDS) == set(SearchableFields._doc_type.mapping)
    mapped = set(PostDocument._doc_type.mapping) | set(CommentDocument._doc_type.mapping)
    assert set(RESULT_FIELDS) <= mapped and not set(RESULT_FIELDS) & {"text", "comment"}  # never the bodies
    assert search_body({"match_all": {}}, page=1, page_size=10, fragment_size=160)["_source"] == list(RESULT_FIELDS)
    assert SUGGESTER_FIELDS == {"title": "title.exact", "text": "text.exact", "comment": "comment.exact"}


def test_a_hit_is_read_from_the_result_fields_only():
    from search.documents import RESULT_FIELDS
    from search.querying.results import result_of

    post = {
        "_score": 3.5,
        "_source": {"doc_type": "post", "post_id": 7, "title": "T", "url": "/t/", "pub_date": "2024"},
        "highlight": {"title": ["<mark>T</mark>"], "text": ["a <mark>t</mark>"]},
    }
    comment = {
        "_score": 1.0,
        "_source": {"doc_type": "comment", "comment_id": 9, "post_id": 7, "post_title": "T", "url": "/t/#comment-9", "author": "Ann", "pub_date": "2024"},
        "highlight": {"comment": ["<mark>t</mark>"]},
    }
    for raw in (post, comment):
        assert set(raw["_source"]) <= set(RESULT_FIELDS)
    p, c = result_of(post), result_of(comment)
    assert (p.type, p.id, p.title_html, p.snippet_html) == ("post", 7, "<mark>T</mark>", "a <mark>t</mark>")
    assert (c.type, c.id, c.post_id, c.title, c.title_html, c.author) == ("comment", 9, 7, "T", "", "Ann")


def test_the_post_trigger_watches_exactly_the_post_columns_comments_read(db):
    """A post edit re-queues its comments only when a column their documents copy (title, date,
    tags, the URL's slug) or their visibility reads (published, the date) changes: the installed
    trigger's column list, read back from PostgreSQL, is exactly that."""
    import re

    from django.db import connection

    from search import registry, triggers

    (trigger,) = [t for m, t in triggers.declared_triggers() if m is registry.entries().model and t.name == "search_outbox"]
    pgid = trigger.get_pgid(registry.entries().model)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_get_functiondef(%s::regproc)", [pgid])
        sql = cursor.fetchone()[0]
    match = re.search(r"ROW\((NEW\.[^)]*)\) IS DISTINCT FROM ROW\((OLD\.[^)]*)\)", sql)
    new_cols = {c.strip().removeprefix("NEW.").strip('"') for c in match[1].split(",")}
    old_cols = {c.strip().removeprefix("OLD.").strip('"') for c in match[2].split(",")}
    assert new_cols == old_cols == {"title", "pub_date", "tags", "slug", "published"}


def test_the_declarations_triggers_are_migrated_and_installed(db):
    """A declaration that changes what the triggers watch needs a migration: makemigrations finds
    none to write, and every declared trigger is installed and enabled in PostgreSQL."""
    from django.core.management import call_command
    from django.db import connection

    from search import triggers

    call_command("makemigrations", "--check", "--dry-run", verbosity=0)  # exits non-zero when one is due
    expected = {t.get_pgid(m) for m, t in triggers.declared_triggers()}
    with connection.cursor() as cursor:
        cursor.execute("SELECT tgname FROM pg_trigger WHERE tgname = ANY(%s) AND tgenabled = 'O'", [list(expected)])
        installed = {row[0] for row in cursor.fetchall()}
    assert installed == expected and len(expected) == 6


def test_ids_are_long_so_indices_of_the_integer_era_are_outdated():
    """PostgreSQL ids are bigint; the release that mapped them `integer` wrote these digests, so
    `reindex --if-missing` rebuilds its indices (tests/test_issue25.py indexes an id past 2^31)."""
    from search.documents import index_definition

    for kind, fields in (("posts", ("post_id",)), ("comments", ("comment_id", "post_id"))):
        properties = index_definition(kind, "any").to_dict()["mappings"]["properties"]
        assert {properties[f]["type"] for f in fields} == {"long"}
    assert schema_id("posts") != "e5119ce0c4b167ef" and schema_id("comments") != "d2f6c39412e1b762"
