"""Document versions and visibility, both computed by PostgreSQL (never by an app host's clock).

Each blog row carries `search_version`, drawn from one sequence by a trigger after the row lock is
taken (migration 0005), so per row it grows in commit order. A document's Elasticsearch version
(external_gte) is derived from it:

    2 x row version + 1   the row is visible: index it
    2 x row version       the row exists but is not visible (draft, unapproved, scheduled): delete
    2 x (row version + 1) the row was deleted (the DELETE trigger writes it into the outbox entry)

For one row version, visibility can only change from "not yet" to "visible" (time passes), so the
due write of a scheduled post beats the delete sent before it fell due, and a stale write or
delete can never overwrite a newer one, in whatever order they reach Elasticsearch.

"Visible" is judged at STATEMENT_TIMESTAMP() of the query that reads the row.
"""

from django.db.models import BooleanField, DateTimeField, ExpressionWrapper, Func, Q
from django.db.models.expressions import RawSQL

from blog import models as blog_models

# The `_meta` of every index we build: a 409 is only proof of a newer document in such an index.
SCHEME = "postgresql-row-version-v1"


class StatementNow(Func):
    """PostgreSQL's STATEMENT_TIMESTAMP(): advances per statement, even inside one transaction."""

    template = "STATEMENT_TIMESTAMP()"
    output_field = DateTimeField()


def doc_version(row_version: int, visible: bool) -> int:
    return 2 * row_version + (1 if visible else 0)


def post_visible_q(prefix: str = "") -> Q:
    """The blog's visibility rule (blog/models.py), at the statement's own time."""
    return blog_models.post_visible_q(prefix, now=StatementNow())


def comment_visible_q() -> Q:
    return blog_models.comment_visible_q(now=StatementNow())


def with_post_versions(qs):
    """Posts annotated with `row_version` and `visible_now`, both read from PostgreSQL."""
    return qs.annotate(row_version=RawSQL('"blog_post"."search_version"', ()), visible_now=ExpressionWrapper(post_visible_q(), output_field=BooleanField()))


def with_comment_versions(qs):
    """Comments annotated likewise (their post's visibility included)."""
    return qs.annotate(
        row_version=RawSQL('"blog_comment"."search_version"', ()), visible_now=ExpressionWrapper(comment_visible_q(), output_field=BooleanField())
    )
