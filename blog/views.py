from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, render

from blog.models import Comment, Post

POSTS_PER_PAGE = 20


def home(request):
    posts = Post.objects.visible().only("title", "slug", "summary", "pub_date", "tags")
    paginator = Paginator(posts, POSTS_PER_PAGE)
    page = paginator.get_page(request.GET.get("page"))
    return render(request, "blog/home.html", {"page": page})


def post_detail(request, slug):
    post = get_object_or_404(Post.objects.visible(), slug=slug)
    comments = list(Comment.objects.filter(post=post, approved=True).order_by("created", "id"))
    return render(request, "blog/post.html", {"post": post, "comments": thread(comments)})


def thread(comments):
    """Comments in reading order with their depth: each reply directly under its parent.

    A reply whose parent is hidden (unapproved) or missing is shown at the top level rather
    than dropped.
    """
    by_id = {c.pk: c for c in comments}
    children = {}
    roots = []
    for c in comments:
        if c.parent_id in by_id:
            children.setdefault(c.parent_id, []).append(c)
        else:
            roots.append(c)
    ordered = []
    stack = [(c, 0) for c in reversed(roots)]
    while stack:
        c, depth = stack.pop()
        c.depth = min(depth, 6)
        ordered.append(c)
        stack.extend((child, depth + 1) for child in reversed(children.get(c.pk, [])))
    return ordered
