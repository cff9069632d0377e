"""`check` catches the declaration mistakes docs/adopting.md warns of (issue 51.8): a `date` or
`tags` field of the wrong type, a visibility rule that hides rows by time, a `url()` that reads a
column the indexer does not load. Pure: the blog's models, no service."""

from django.db.models import F, Q

from search import checks
from search.declaration_rules import time_problems
from tests.blog_declarations import Comments, Posts


def ids(declaration, entries=None) -> list[str]:
    return [e.id for e in checks._stated_rule_errors(declaration, entries or Posts())]


def test_the_blogs_declarations_pass():
    assert ids(Posts()) == [] and ids(Comments()) == []


def test_a_rule_may_reveal_rows_as_time_passes_but_never_hide_them():
    now = F("now")
    assert time_problems(Q(published=True, pub_date__lte=now)) == []
    assert time_problems(~Q(pub_date__gt=now)) == []  # NOT (later than now): the same rule
    assert time_problems(Q(pub_date__date__lt=now) | Q(published=False)) == []
    assert time_problems(Q(expires__gt=now)) == ["expires__gt"]
    assert time_problems(~Q(pub_date__lte=now)) == ["pub_date__lte"]
    assert time_problems(Q(pub_date=now)) == ["pub_date"]

    class Expiring(Posts):
        def visible(self, now):
            return Q(published=True, pub_date__gt=now)

    (error,) = checks._stated_rule_errors(Expiring(), None)
    assert error.id == "search.E011" and "pub_date__gt" in error.msg


def test_date_and_tags_of_the_wrong_type_fail_check():
    class Wrong(Posts):
        date, tags = "title", "slug"

    errors = checks._stated_rule_errors(Wrong(), None)
    assert [(e.id, e.msg.split(":")[0]) for e in errors] == [("search.E010", "Wrong.date"), ("search.E010", "Wrong.tags")]
    assert "not a DateField" in errors[0].msg and "ArrayField of strings" in errors[1].msg

    class Computed(Wrong):
        def prepare_date(self, obj):
            return None

        def prepare_tags(self, obj):
            return []

    assert ids(Computed()) == []


def test_a_url_that_reads_a_column_not_loaded_fails_check():
    class NoSlug(Posts):
        columns = ()

    (error,) = checks._stated_rule_errors(NoSlug(), None)
    assert error.id == "search.E012" and "slug" in error.msg and "columns = ('slug',)" in error.hint
    # A reply's url() reads its entry's columns: loaded when the entry declares them.
    assert ids(Comments(), Posts()) == []
    assert "search.E012" in ids(Comments(), NoSlug())
