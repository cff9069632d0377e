"""A notebook's items and their threaded replies: a schema unlike the blog's, declared to search
only through its public API (journal/search_indexes.py)."""

from django.db import models
from django.utils import timezone

from search.api import RowVersionField


class Category(models.Model):
    label = models.CharField(max_length=80, unique=True)

    class Meta:
        verbose_name_plural = "categories"

    def __str__(self):
        return self.label


class BlogItem(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft"
        LIVE = "live"
        RETIRED = "retired"

    headline = models.CharField(max_length=300)
    text_rendered = models.TextField(blank=True)
    categories = models.ManyToManyField(Category, blank=True, related_name="items")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    go_live = models.DateTimeField(default=timezone.now)
    search_version = RowVersionField()

    def __str__(self):
        return self.headline

    def get_absolute_url(self):
        return f"/items/{self.pk}/"


class Reply(models.Model):
    item = models.ForeignKey(BlogItem, on_delete=models.CASCADE, related_name="replies")
    in_reply_to = models.ForeignKey("self", on_delete=models.CASCADE, null=True, blank=True, related_name="answers")
    name = models.CharField(max_length=100)
    body = models.TextField()
    posted_at = models.DateTimeField(default=timezone.now)
    is_public = models.BooleanField(default=False, help_text="Set by a moderator.")
    search_version = RowVersionField()

    class Meta:
        verbose_name_plural = "replies"

    def __str__(self):
        return f"{self.name}: {self.body[:30]}"

    def get_absolute_url(self):
        return f"/items/{self.item_id}/#reply-{self.pk}"
