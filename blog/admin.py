from django.contrib import admin, messages
from django.db import models

from blog.models import Comment, Post


@admin.register(Post)
class PostAdmin(admin.ModelAdmin):
    list_display = ["title", "pub_date", "published", "post_type", "modified"]
    list_filter = ["published", "source", "post_type"]
    search_fields = ["title", "slug"]
    prepopulated_fields = {"slug": ["title"]}
    date_hierarchy = "pub_date"
    readonly_fields = ["body_text", "modified"]
    actions = ["publish", "unpublish"]
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}

    @admin.action(description="Publish selected posts")
    def publish(self, request, queryset):
        # save() per row, not queryset.update(): each change must reach the search index.
        changed = _set_flag(queryset, "published", True)
        self.message_user(request, f"Published {changed} post(s).", messages.SUCCESS)

    @admin.action(description="Unpublish selected posts")
    def unpublish(self, request, queryset):
        changed = _set_flag(queryset, "published", False)
        self.message_user(request, f"Unpublished {changed} post(s).", messages.SUCCESS)


@admin.register(Comment)
class CommentAdmin(admin.ModelAdmin):
    list_display = ["author_name", "post", "created", "approved", "excerpt"]
    list_filter = ["approved"]
    search_fields = ["author_name", "comment"]
    list_select_related = ["post"]
    raw_id_fields = ["post", "parent"]
    readonly_fields = ["comment_html", "modified"]
    actions = ["approve", "unapprove"]

    @admin.display(description="comment")
    def excerpt(self, obj):
        return obj.comment[:80]

    @admin.action(description="Approve selected comments")
    def approve(self, request, queryset):
        changed = _set_flag(queryset, "approved", True)
        self.message_user(request, f"Approved {changed} comment(s).", messages.SUCCESS)

    @admin.action(description="Unapprove selected comments")
    def unapprove(self, request, queryset):
        changed = _set_flag(queryset, "approved", False)
        self.message_user(request, f"Unapproved {changed} comment(s).", messages.SUCCESS)


def _set_flag(queryset, field: str, value: bool) -> int:
    """Set a boolean on each row that differs, through save() so that signals fire."""
    changed = 0
    for obj in queryset.exclude(**{field: value}):
        setattr(obj, field, value)
        obj.save(update_fields=[field])
        changed += 1
    return changed
