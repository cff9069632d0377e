"""Durable state of the search service, kept in PostgreSQL beside the blog."""

from django.db import models
from django.utils import timezone

from search.documents import Kind
from search.synonym_rules import parse


class PendingChange(models.Model):
    """The outbox: "bring the index copy of this row in line with the database".

    Rows are written by PostgreSQL itself (AFTER INSERT/UPDATE/DELETE triggers on the tables of
    the models a site declares, search/triggers.py), in the same transaction as the change,
    whatever wrote it: the ORM, QuerySet.update, bulk_create, raw SQL or an importer. An entry is deleted once
    Elasticsearch has taken the change. Applying one is idempotent (it re-reads the row and
    carries the row's version), so duplicates are harmless.
    """

    POST = Kind.POSTS.entry
    COMMENT = Kind.COMMENTS.entry
    KIND_CHOICES = [(POST, "post"), (COMMENT, "comment")]

    kind = models.CharField(max_length=10, choices=KIND_CHOICES)
    object_id = models.BigIntegerField()
    created = models.DateTimeField(default=timezone.now)
    # A post scheduled for the future gets an entry due at its publication time.
    due_at = models.DateTimeField(default=timezone.now, db_index=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)
    # Written by the DELETE trigger: a document version that beats every write of the vanished row.
    tombstone_version = models.BigIntegerField(null=True, blank=True)
    # Applied to the live indices while a rebuild was running: replayed into the new indices.
    replay = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["kind", "object_id"], name="search_pending_obj")]

    def __str__(self):
        return f"{self.kind} {self.object_id} due {self.due_at:%Y-%m-%d %H:%M:%S}"


class DeadChange(models.Model):
    """An outbox entry Elasticsearch refused MAX_ATTEMPTS times (a poison entry), set aside so it
    no longer holds up the others. Shown in the admin and in /healthz; fix the cause, then retry it
    from the admin or run `search_check --repair`."""

    kind = models.CharField(max_length=10, choices=PendingChange.KIND_CHOICES)
    object_id = models.BigIntegerField()
    tombstone_version = models.BigIntegerField(null=True, blank=True)
    created = models.DateTimeField()
    died = models.DateTimeField(default=timezone.now)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)

    class Meta:
        verbose_name = "dead outbox entry"
        verbose_name_plural = "dead outbox entries"

    def __str__(self):
        return f"{self.kind} {self.object_id}: {self.last_error[:80]}"


class RebuildState(models.Model):
    """One row (id 1): which backend runs a rebuild right now (NULL when none).

    While it is set, syncs keep the outbox entries they apply (marked `replay`) so the rebuild can
    replay them into its new indices after the swap. Syncs read it FOR SHARE and the rebuild
    changes it FOR UPDATE, so no sync straddles the moment it is set or cleared.
    """

    owner_pid = models.IntegerField(null=True)


class IndexGeneration(models.Model):
    """A counter bumped by every index write and alias swap; result-cache keys include it.

    It lives in the database so every worker process sees the same value, whatever the cache
    backend, and a cached result can never outlive the index state it was computed from.
    """

    value = models.BigIntegerField(default=0)


class Vocabulary(models.Model):
    """The dictionary of one index prefix's live indices, read from the index by `reindex`
    (search/vocabulary_build.py): every word of the searched fields with its document count per
    field, as the bytes of an `fst` map (`format` "fst1"; an older format is ignored until the next
    build). Each web process loads it once per change (search/vocabulary.py), so checking,
    completing and correcting a query's words needs no request."""

    prefix = models.CharField(max_length=100, unique=True)
    min_docs = models.PositiveIntegerField()
    format = models.CharField(max_length=20, default="hashes")
    words = models.BinaryField()
    # A German or French blog's forms of the lemmas it holds (search/lemmas.py); empty otherwise.
    forms = models.BinaryField(default=b"")
    size = models.PositiveIntegerField()
    built = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "vocabularies"

    def __str__(self):
        return f"{self.prefix}: {self.size} words"


class FreshWord(models.Model):
    """A word first indexed after the dictionary was built (a new post or approved comment), with
    the document counts its documents gave it; every process adds these to its dictionary at the
    next generation change. The next build holds them and deletes these rows."""

    prefix = models.CharField(max_length=100)
    word = models.CharField(max_length=200)
    title = models.PositiveIntegerField(default=0)
    text = models.PositiveIntegerField(default=0)
    comment = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["prefix", "word"], name="search_freshword_unique")]

    def __str__(self):
        return f"{self.prefix}: {self.word}"


class SynonymRule(models.Model):
    """One of the blog's own synonym rules, as its owner wrote it in the admin (the truth; every
    process reads them at the next index generation, search/synonyms.py; their grammar:
    search/synonym_rules.py).

    `js, javascript` makes the words equivalent both ways; `k8s => kubernetes` rewrites the left
    side only. A word may be several words (`ml, machine learning`)."""

    rule = models.CharField(max_length=300, unique=True, help_text="Equivalent: js, javascript   One way: k8s => kubernetes")
    note = models.CharField(max_length=200, blank=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["rule"]

    def __str__(self) -> str:
        return self.rule

    def clean(self):
        from django.core.exceptions import ValidationError

        try:
            self.rule = parse(self.rule).text
        except ValueError as exc:
            raise ValidationError({"rule": str(exc)}) from exc


class RecheckRequest(models.Model):
    """A kind whose whole index must be compared with PostgreSQL: written by the statement-level
    TRUNCATE triggers (search/triggers.py; a TRUNCATE fires no row trigger, so no outbox entry
    says which rows went). The scheduler's next `search_sync` round compares and repairs the
    kind (search/sync/audit.py), then deletes the request, unless a newer TRUNCATE renewed it."""

    kind = models.CharField(max_length=20, primary_key=True)
    requested_at = models.DateTimeField()

    def __str__(self):
        return f"{self.kind} since {self.requested_at:%Y-%m-%d %H:%M:%S}"
