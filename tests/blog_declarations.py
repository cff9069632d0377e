"""The blog's declarations written again as the guide shows them, for the pure tests of the
declaration API (tests/test_declarations.py, tests/test_declaration_rules.py)."""

from django.db.models import Q

from blog.models import Comment, Post
from search.registry import EntryIndex, ReplyIndex


class Posts(EntryIndex):
    model = Post
    title, text, date, tags = "title", "body_text", "pub_date", "tags"
    columns = ("slug",)

    def visible(self, now):
        return Q(published=True, pub_date__lte=now)


class Comments(ReplyIndex):
    model = Comment
    entry, text, author, date = "post", "comment", "author_name", "created"

    def visible(self, now):
        return Q(approved=True)
