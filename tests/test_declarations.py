"""The declaration API (search/registry.py) and what it derives, without the services: the
columns a document reads, the columns a reply follows, the visibility rule through a relation,
the triggers' SQL, and the system checks that catch a wrong declaration at start-up."""

from django.db.models import Q

from search import checks, registry, triggers
from search.registry import EntryIndex
from tests.blog_declarations import Comments, Posts


def test_a_documents_columns_and_a_replys_followed_columns():
    posts = Posts()
    assert posts.own_columns() == ("id", "title", "body_text", "pub_date", "tags", "slug")
    assert set(posts.followed_columns()) == {"title", "pub_date", "tags", "slug", "published"}
    assert set(posts.visibility_columns()) == {"published", "pub_date"}
    assert posts.due_column() == "pub_date" and posts.tags_relation() is None


def test_a_rule_through_a_relation_prefixes_every_lookup():
    rule = registry.prefixed(Q(published=True) & (Q(pub_date__lte=1) | ~Q(title="x")), "post__")
    assert registry.lookups(rule) == ["post__published", "post__pub_date__lte", "post__title"]
    assert rule.children[1].connector == "OR" and rule.children[1].children[1].negated


def test_the_entry_trigger_re_versions_replies_only_when_a_followed_column_changes():
    sql = triggers.entry_outbox_trigger(Posts(), Comments()).func
    assert """PERFORM search_outbox_entry('post', OLD."id", statement_timestamp(), 2 * (OLD.search_version + 1));""" in sql
    assert 'IF NEW."pub_date" > statement_timestamp() THEN' in sql
    assert 'UPDATE "blog_comment" SET search_version = 0 WHERE "post_id" IN (NEW."id");' in sql
    assert 'ROW(NEW."title", NEW."pub_date", NEW."tags", NEW."slug", NEW."published")' in sql
    assert "ROW(" not in triggers.entry_outbox_trigger(Posts(), None).func  # no replies: nothing to follow


def test_the_checks_name_a_field_that_does_not_exist_and_a_missing_url():
    class Wrong(Posts):
        title = "headline"

        def prepare_text(self, obj):
            return ""

    errors = checks._field_errors(Wrong())
    assert [(e.id, e.msg) for e in errors] == [("search.E002", "Wrong.title: Post has no field 'headline'")]
    assert checks._version_errors(Wrong()) == [] and checks._url_errors(Wrong()) == []


def test_the_checks_want_the_row_version_column():
    from insights.models import SearchLog

    class Logs(EntryIndex):
        model = SearchLog
        title, text = "query", "query"

    (error,) = checks._version_errors(Logs())
    assert error.id == "search.E003" and "RowVersionField" in error.hint
    (error,) = checks._url_errors(Logs())
    assert error.id == "search.E007"


def test_a_visibility_rule_on_another_table_is_refused_by_check():
    class ThroughThePost(Comments):
        def visible(self, now):
            return Q(approved=True, post__published=True)

    class ThroughReplies(Posts):
        def visible(self, now):
            return Q(published=True, comments__approved=True)

    class OnTheForeignKeyItself(Comments):
        def visible(self, now):
            return Q(approved=True, parent__isnull=True)

    for wrong in (ThroughThePost(), ThroughReplies()):
        (error,) = checks._rule_errors(wrong)
        assert error.id == "search.E004" and "reads another table" in error.msg
    assert checks._rule_errors(OnTheForeignKeyItself()) == []


def test_a_declaration_naming_a_missing_field_registers_no_trigger_and_never_crashes_start_up(monkeypatch):
    class Wrong(Posts):
        title = "headline"

    monkeypatch.setattr(registry.declarations, "entries", Wrong())
    triggers.register_all()  # logs, does not raise: `manage.py check` then names the field (E002)
    assert [e.id for e in checks._field_errors(Wrong())] == ["search.E002"]
