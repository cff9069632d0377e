"""Document versions and visibility, both computed by PostgreSQL (never by an app host's clock).

Each declared row carries `search_version`, drawn from one sequence by a trigger after the row lock is
taken (search/triggers.py), so per row it grows in commit order. A document's Elasticsearch version
(external_gte) is derived from it:

    2 x row version + 1   the row is visible: index it
    2 x row version       the row exists but is not visible (draft, unapproved, scheduled): delete
    2 x (row version + 1) the row was deleted (the DELETE trigger writes it into the outbox entry)

For one row version, visibility can only change from "not yet" to "visible" (time passes), so the
due write of a scheduled post beats the delete sent before it fell due, and a stale write or
delete can never overwrite a newer one, in whatever order they reach Elasticsearch.

"Visible" is judged at STATEMENT_TIMESTAMP() of the query that reads the row.
"""

from django.db.models import BigIntegerField, BooleanField, DateTimeField, ExpressionWrapper, F, Func, OuterRef, Subquery, Sum, Value
from django.db.models.functions import Cast, Coalesce, Mod

from search.registry import VERSION_FIELD, EntryIndex, ReplyIndex, prefixed

# The `_meta` of every index we build: a 409 is only proof of a newer document in such an index.
SCHEME = "postgresql-row-version-v1"


class StatementNow(Func):
    """PostgreSQL's STATEMENT_TIMESTAMP(): advances per statement, even inside one transaction."""

    template = "STATEMENT_TIMESTAMP()"
    output_field = DateTimeField()


def doc_version(row_version: int, visible: bool) -> int:
    return 2 * row_version + (1 if visible else 0)


def visible_q(declaration: EntryIndex | ReplyIndex, entries: EntryIndex | None = None):
    """The declaration's visibility rule at the statement's own time; a reply's includes its
    entry's (`entries`), through the reply's relation to it."""
    now = StatementNow()
    own = declaration.visible(now)
    if isinstance(declaration, ReplyIndex) and entries is not None:
        own &= prefixed(entries.visible(now), f"{declaration.entry}__")
    return own


class RowHash(Func):
    """The first 32 bits of the md5 of the columns' text, as a number: a document's fingerprint.

    PostgreSQL computes it when a row is indexed (the document keeps it) and again when the
    audit compares each kind (search/sync/audit.py): a write made with the triggers off changes
    it though it leaves the row version alone. Sums of 32-bit values stay exact in a double (the
    sum Elasticsearch aggregates) up to 2^21 documents per bucket."""

    template = "('x' || substr(md5(ROW(%(expressions)s)::text), 1, 8))::bit(32)::bigint"
    output_field = BigIntegerField()


def fingerprint(declaration: EntryIndex | ReplyIndex, entries: EntryIndex | None = None) -> RowHash:
    """The fingerprint of what a row's document is made of: its version and the columns it reads,
    a reply's entry's columns too (a reply's document copies them)."""
    names = [VERSION_FIELD, *declaration.own_columns()]
    if isinstance(declaration, ReplyIndex) and entries is not None:
        names += [f"{declaration.entry}__{name}" for name in entries.own_columns()]
    return RowHash(*(F(name) for name in names))


def shown_replies(replies: ReplyIndex):
    """The replies an entry's document holds: those its own rule shows (the entry's document
    exists only while the entry is visible, so the entry's rule holds for them)."""
    return replies.get_queryset().filter(visible_q(replies))


def entry_fingerprint(entries: EntryIndex, replies: ReplyIndex | None) -> Func:
    """An entry's fingerprint and its shown replies' columns, summed modulo 2^32: the entry's
    document holds their text (search/documents.py), so a reply changed with the triggers off makes
    its entry's document stale too. Their columns, not their versions: a reply re-versioned alone
    (its entry retitled, a repair) leaves the entry's document as it was."""
    own = fingerprint(entries)
    if replies is None:
        return own
    theirs = shown_replies(replies).filter(**{replies.entry: OuterRef("pk")}).order_by().values(replies.entry)
    columns = RowHash(*(F(name) for name in replies.own_columns()))
    summed = Subquery(theirs.annotate(total=Sum(columns)).values("total"), output_field=BigIntegerField())
    return Cast(Mod(own + Coalesce(summed, Value(0)), Value(2**32)), BigIntegerField())


def with_versions(qs, declaration: EntryIndex | ReplyIndex, entries: EntryIndex | None = None, replies: ReplyIndex | None = None):
    """Rows annotated with `row_version`, `visible_now` and `fingerprint`, all read from PostgreSQL.
    An entry's fingerprint covers its shown `replies` too (entry_fingerprint)."""
    printed = entry_fingerprint(declaration, replies) if isinstance(declaration, EntryIndex) else fingerprint(declaration, entries)
    return qs.annotate(
        row_version=F(VERSION_FIELD),
        visible_now=ExpressionWrapper(visible_q(declaration, entries), output_field=BooleanField()),
        fingerprint=printed,
    )
