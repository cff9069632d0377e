"""Small, explicit test data: posts and comments written for the tests."""

from datetime import timedelta
from itertools import count

from django.utils import timezone

from blog.models import Comment, Post

_seq = count(1)


def make_post(title: str, body: str = "", *, published: bool = True, days_ago: int = 1, tags=(), slug: str = "") -> Post:
    n = next(_seq)
    return Post.objects.create(
        title=title,
        slug=slug or f"post-{n}-{abs(hash(title)) % 10000}",
        body_html=f"<p>{body}</p>" if body else "",
        pub_date=timezone.now() - timedelta(days=days_ago),
        published=published,
        tags=list(tags),
    )


def make_comment(post: Post, text: str, *, approved: bool = True, author: str = "Reader", parent=None) -> Comment:
    return Comment.objects.create(post=post, comment=text, approved=approved, author_name=author, parent=parent)
