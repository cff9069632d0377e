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


def admin_post_form(post, *, title: str, body_html: str) -> dict:
    """The admin change form of a post, as a browser submits it: a new title and body, published,
    dated 2020-01-01, every other field empty."""
    return {
        "title": title,
        "slug": post.slug,
        "body_html": body_html,
        "summary": "",
        "pub_date_0": "2020-01-01",
        "pub_date_1": "00:00:00",
        "tags": "",
        "published": "on",
        "source": "",
        "post_type": "",
        "source_url": "",
        "link_url": "",
    }
