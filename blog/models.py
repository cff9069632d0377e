"""Posts and their comments, the blog's source of truth (search indexes copies of them, as
blog/search_indexes.py declares through search's public API)."""

import functools
from urllib.parse import quote

from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.db import models
from django.db.models.functions import Now
from django.urls import reverse
from django.utils import timezone

from blog.text import html_to_text, render_comment, sanitize_comment_html, summarize
from search.api import RowVersionField


@functools.lru_cache(maxsize=1)
def _post_url_pattern() -> tuple[str, str]:
    """The post URL around its slug, resolved once: reverse() per row was a fifth of `reindex`."""
    marker = "slug-placeholder"
    head, tail = reverse("blog:post", kwargs={"slug": marker}).split(marker)
    return head, tail


def post_url(slug: str) -> str:
    head, tail = _post_url_pattern()
    return f"{head}{quote(slug, safe='')}{tail}"


def post_visible_q(prefix: str = "", *, now=None) -> models.Q:
    """The one rule of what a reader may see of a post: published and not scheduled for the future.

    Judged by PostgreSQL's clock (`now`: CURRENT_TIMESTAMP by default; the indexer passes its
    per-statement clock), never an app host's. `prefix` reaches a post through a relation.
    """
    return models.Q(**{f"{prefix}published": True, f"{prefix}pub_date__lte": now if now is not None else Now()})


def comment_visible_q(*, now=None) -> models.Q:
    """A comment is visible when approved and on a visible post."""
    return models.Q(approved=True) & post_visible_q("post__", now=now)


class PostQuerySet(models.QuerySet):
    def visible(self):
        return self.filter(post_visible_q())


class Post(models.Model):
    title = models.CharField(max_length=500)
    slug = models.SlugField(max_length=255, unique=True, allow_unicode=True)
    body_html = models.TextField("body (HTML)", blank=True)
    body_text = models.TextField("plain-text body", blank=True, editable=False, help_text="Derived from the HTML body on save.")
    summary = models.TextField(blank=True, help_text="Shown in lists; derived from the body when left empty.")
    pub_date = models.DateTimeField("publication date", default=timezone.now, db_index=True)
    tags = ArrayField(models.CharField(max_length=100), default=list, blank=True)
    published = models.BooleanField(default=True)
    modified = models.DateTimeField(auto_now=True, db_index=True)
    # Where the post came from, kept for reference.
    source = models.CharField(max_length=100, blank=True)
    post_type = models.CharField(max_length=50, blank=True)
    source_url = models.URLField(max_length=1000, blank=True)
    link_url = models.URLField(max_length=2000, blank=True)
    # Set by every save() (the admin, scripts); the importer writes rows without save(). A post
    # edited on the site keeps its fields when the corpus is imported again (see blog/importer.py).
    edited_on_site = models.BooleanField(default=False, db_default=False, editable=False)
    # Written by PostgreSQL for the search index (blog/search_indexes.py declares what is searched).
    search_version = RowVersionField()

    objects = PostQuerySet.as_manager()

    class Meta:
        ordering = ["-pub_date", "-id"]
        indexes = [GinIndex(fields=["tags"], name="blog_post_tags_gin")]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return post_url(self.slug)

    def save(self, *args, **kwargs):
        # The plain text is always derived, so the index and the page never disagree with the HTML.
        self.body_text = html_to_text(self.body_html)
        if not self.summary:
            self.summary = summarize(self.body_text)
        self.edited_on_site = True
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = set(kwargs["update_fields"]) | {"body_text", "summary", "modified", "edited_on_site"}
        super().save(*args, **kwargs)


class CommentQuerySet(models.QuerySet):
    def visible(self):
        return self.filter(comment_visible_q())


class Comment(models.Model):
    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="comments")
    parent = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="replies")
    author_name = models.CharField(max_length=200)
    comment = models.TextField(help_text="Markdown or plain text, as the reader wrote it.")
    comment_html = models.TextField(blank=True, editable=False, help_text="Sanitized HTML, rendered on save.")
    created = models.DateTimeField(default=timezone.now, db_index=True)
    approved = models.BooleanField(default=False, db_index=True)
    modified = models.DateTimeField(auto_now=True, db_index=True)
    # As for posts: set by every save(), never by the importer.
    edited_on_site = models.BooleanField(default=False, db_default=False, editable=False)
    search_version = RowVersionField()

    objects = CommentQuerySet.as_manager()

    class Meta:
        ordering = ["created", "id"]

    def __str__(self):
        return f"{self.author_name} on {self.post_id}: {self.comment[:40]}"

    def get_absolute_url(self):
        return f"{self.post.get_absolute_url()}#comment-{self.pk}"

    def save(self, *args, **kwargs):
        self.comment_html = render_comment(self.comment) if self.comment else sanitize_comment_html(self.comment_html)
        self.edited_on_site = True
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = set(kwargs["update_fields"]) | {"comment_html", "modified", "edited_on_site"}
        super().save(*args, **kwargs)
