"""The notebook declares its models to search: items are the entries, public replies the replies."""

from django.db.models import Q

from journal.models import BlogItem, Reply
from search.api import EntryIndex, ReplyIndex, register


@register
class ItemIndex(EntryIndex):
    model = BlogItem
    title = "headline"
    text = "text_rendered"
    date = "go_live"
    tags = "categories"

    def visible(self, now):
        return Q(status=BlogItem.Status.LIVE, go_live__lte=now)


@register
class ItemReplyIndex(ReplyIndex):
    model = Reply
    entry = "item"
    text = "body"
    author = "name"
    date = "posted_at"

    def visible(self, now):
        return Q(is_public=True)
