"""Search on the notebook's own schema (journal/), through the documented API only: items with
a headline and rendered text, categories in a many-to-many, threaded replies with a moderation
flag, and their own visibility rule. Every write path reaches the index: the ORM, update(),
raw SQL, the admin, a category renamed; `reindex` builds it and `search_check` finds and repairs
what was written behind the triggers' back."""

from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import timezone

from journal.models import BlogItem, Category, Reply
from search.api import search
from search.testing import document, fresh_state, lose_document

pytestmark = pytest.mark.django_db(transaction=True)


def live(headline: str, text: str = "", **kwargs) -> BlogItem:
    return BlogItem.objects.create(headline=headline, text_rendered=text, status=BlogItem.Status.LIVE, **kwargs)


def synced() -> None:
    """What the scheduler does every minute: apply the outbox."""
    call_command("search_sync")


def titles(query: str, **kwargs) -> list[str]:
    return [hit.title for hit in search(query, **kwargs).hits]


@pytest.fixture
def notebook():
    rust = Category.objects.create(label="rust")
    item = live("Borrow checker field notes", "Lifetimes explained with diagrams")
    item.categories.add(rust)
    live("Gardening in November", "Tulip bulbs and frost")
    BlogItem.objects.create(headline="Unfinished borrow draft", status=BlogItem.Status.DRAFT)
    BlogItem.objects.create(headline="Retired borrow notes", status=BlogItem.Status.RETIRED)
    first = Reply.objects.create(item=item, name="Ana", body="The diagrams about ownership helped", is_public=True)
    Reply.objects.create(item=item, in_reply_to=first, name="Bo", body="Agreed, ownership finally clicked", is_public=True)
    Reply.objects.create(item=item, name="Spam", body="cheap ownership pills", is_public=False)
    call_command("reindex", "--no-progress")
    return item


def test_reindex_indexes_what_the_declaration_makes_visible(notebook):
    assert titles("borrow") == ["Borrow checker field notes"]  # no draft, no retired item
    result = search("ownership", detail=True)
    (entry,) = result.hits
    assert entry.title == "Borrow checker field notes" and entry.matched == "comment"
    assert {c.author for c in entry.comments} == {"Ana", "Bo"}  # threaded replies, never the hidden one
    assert [tag for tag, _ in result.facets.tags] == ["rust"]  # tags from the many-to-many


def test_a_typo_is_forgiven_on_the_sites_own_words(notebook):
    result = search("borow chekcer")
    assert result.hits[0].title == "Borrow checker field notes"
    assert result.showing_for == "borrow checker"


def test_changes_through_the_orm_update_and_raw_sql_reach_the_index(notebook, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        notebook.headline = "Borrow checker field guide"
        notebook.save()
    assert titles("field guide") == ["Borrow checker field guide"]

    BlogItem.objects.filter(headline="Gardening in November").update(headline="Gardening in December")
    synced()
    assert titles("gardening december") == ["Gardening in December"]

    with connection.cursor() as cursor:
        cursor.execute("UPDATE journal_blogitem SET status = 'live' WHERE headline = 'Unfinished borrow draft'")
        cursor.execute(
            "INSERT INTO journal_reply (item_id, name, body, posted_at, is_public) VALUES (%s, 'Cy', 'mitochondria questions', now(), true)", [notebook.pk]
        )
    synced()
    assert "Unfinished borrow draft" in titles("borrow")
    assert titles("mitochondria") == ["Borrow checker field guide"]


def test_hiding_an_item_hides_its_replies_and_tags_follow_the_many_to_many(notebook):
    gardening = BlogItem.objects.get(headline="Gardening in November")
    gardening.categories.add(Category.objects.create(label="outdoors"))
    Category.objects.filter(label="rust").update(label="rustlang")  # a rename, by update()
    synced()
    tags = dict(search("borrow", detail=True).facets.tags)
    assert tags == {"rustlang": 1} and dict(search("tulip", detail=True).facets.tags) == {"outdoors": 1}
    assert dict(search("ownership", detail=True).facets.tags) == {"rustlang": 1}  # the replies copy them

    BlogItem.objects.filter(pk=notebook.pk).update(status=BlogItem.Status.RETIRED)
    synced()
    assert search("ownership").hits == [] and search("borrow").hits == []


def test_a_tag_renamed_or_deleted_through_the_orm_reaches_the_index_at_commit(notebook):
    """No scheduler round (issue 51.4): the tag's own save and delete ask for a sync after the commit."""
    fresh_state()  # the fixture's saves before its reindex found no index and paused the syncs
    rust = Category.objects.get(label="rust")
    rust.label = "rustlang"
    rust.save()  # autocommit: the commit, then its sync
    assert document(notebook.pk)["tags"] == ["rustlang"]
    assert dict(search("borrow", detail=True).facets.tags) == {"rustlang": 1}
    assert dict(search("ownership", detail=True).facets.tags) == {"rustlang": 1}  # the replies copy them
    rust.delete()
    assert document(notebook.pk)["tags"] == []
    assert dict(search("borrow", detail=True).facets.tags) == {}


def test_a_scheduled_item_appears_when_it_falls_due(notebook):
    soon = live("Scheduled hedgehog essay", go_live=timezone.now() + timedelta(seconds=1))
    synced()
    assert titles("hedgehog") == []
    # Its second outbox entry is due at go_live, written by the trigger: no clock of ours.
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM search_pendingchange WHERE kind = 'post' AND object_id = %s AND due_at > now()", [soon.pk])
        assert cursor.fetchone()[0] == 1
        cursor.execute("SELECT pg_sleep(1.2)")
    synced()
    assert titles("hedgehog") == ["Scheduled hedgehog essay"]


def test_the_admin_reaches_the_index(notebook, admin_client, django_capture_on_commit_callbacks):
    reply = Reply.objects.get(name="Spam")
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            f"/admin/journal/reply/{reply.pk}/change/",
            {"item": notebook.pk, "name": "Spam", "body": "cheap ownership pills", "posted_at_0": "2026-01-01", "posted_at_1": "10:00:00", "is_public": "on"},
        )
    assert response.status_code == 302, response.content[:500]
    (entry,) = search("pills", detail=True).hits
    assert [c.author for c in entry.comments] == ["Spam"]


def test_search_check_finds_and_repairs_what_the_index_lost_or_never_heard(notebook):
    call_command("search_check")  # in step after reindex: no error
    bo = Reply.objects.get(name="Bo")
    with connection.cursor() as cursor:  # a replica-role write (pg_restore --disable-triggers): no trigger fires
        cursor.execute("SET session_replication_role = replica")
        cursor.execute("DELETE FROM journal_reply WHERE id = %s", [bo.pk])
        cursor.execute("SET session_replication_role = DEFAULT")
    lose_document(notebook.pk)  # a document the index lost
    with pytest.raises(CommandError, match="2 difference"):
        call_command("search_check")
    call_command("search_check", "--repair")
    call_command("search_check")  # nothing left to find
    assert titles("borrow") == ["Borrow checker field notes"]
    assert search("clicked").hits == []  # Bo's reply is gone from the index too


def test_the_results_page_renders_in_the_sites_own_layout(notebook, client):
    page = client.get("/search/", {"q": "borow"}).content.decode()
    assert "· Notebook</title>" in page and 'class="search-box"' in page  # its base template, search's box
    assert "checker field notes" in page and f"/items/{notebook.pk}/" in page  # the title (highlighted), its URL
    assert 'placeholder="Search items and replies"' in page and "comment" not in page.split("<main", 1)[-1]  # its own words


def test_truncate_and_writes_with_the_triggers_off_reach_the_index(notebook):
    """A TRUNCATE of the categories' table re-versions every item; a replica-role write (no
    trigger fires) is found by the scheduler's audit (`search_sync --audit` runs it now)."""
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE journal_blogitem_categories")
    synced()
    assert dict(search("borrow", detail=True).facets.tags) == {}
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")
        cursor.execute("UPDATE journal_blogitem SET headline = 'Borrow checker, replicated' WHERE id = %s", [notebook.pk])
        cursor.execute("SET session_replication_role = DEFAULT")
        cursor.execute("TRUNCATE journal_reply")
    synced()
    assert search("ownership").hits == []  # the replies' TRUNCATE, at the next round
    call_command("search_sync", "--audit")
    assert titles("replicated") == ["Borrow checker, replicated"]
