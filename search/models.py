"""Durable state of the search service, kept in PostgreSQL beside the blog."""
from django.db import models
from django.utils import timezone


class PendingChange(models.Model):
    """The outbox: "bring the index copy of this row in line with the database".

    A row is written in the same transaction as the blog change that causes it, so a committed
    change can never be forgotten; it is deleted once Elasticsearch has taken the change. Applying
    one is idempotent (it re-reads the row), so duplicates are harmless.
    """

    POST = "post"
    COMMENT = "comment"
    KIND_CHOICES = [(POST, "post"), (COMMENT, "comment")]

    kind = models.CharField(max_length=10, choices=KIND_CHOICES)
    object_id = models.BigIntegerField()
    created = models.DateTimeField(default=timezone.now)
    # A post scheduled for the future gets an entry due at its publication time.
    due_at = models.DateTimeField(default=timezone.now, db_index=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)

    class Meta:
        indexes = [models.Index(fields=["kind", "object_id"], name="search_pending_obj")]

    def __str__(self):
        return f"{self.kind} {self.object_id} due {self.due_at:%Y-%m-%d %H:%M:%S}"


class IndexGeneration(models.Model):
    """A counter bumped by every index write and alias swap; result-cache keys include it.

    It lives in the database so every worker process sees the same value, whatever the cache
    backend, and a cached result can never outlive the index state it was computed from.
    """

    value = models.BigIntegerField(default=0)
