"""What the blog declares to search (search/registry.py, the public API): its posts are the
entries a result lists, its approved comments the replies shown inside them."""

from django.db.models import Q

from blog.models import Comment, Post, post_visible_q
from blog.text import html_to_text
from search.api import EntryIndex, ReplyIndex, register


@register
class PostIndex(EntryIndex):
    model = Post
    title = "title"
    text = "body_text"  # the plain text derived from the HTML on save
    date = "pub_date"  # also the due date of a scheduled post
    tags = "tags"
    columns = ("slug",)  # the URL

    def visible(self, now):
        return post_visible_q(now=now)


@register
class CommentIndex(ReplyIndex):
    model = Comment
    entry = "post"
    author = "author_name"
    date = "created"
    columns = ("comment", "comment_html")

    def visible(self, now):
        return Q(approved=True)  # and its post visible: search adds the post's rule

    def prepare_text(self, comment) -> str:
        return html_to_text(comment.comment_html) or comment.comment
