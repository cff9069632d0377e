"""Model rows -> plain dicts -> Elasticsearch: the one copy of the indexing logic.

Used by `reindex` (full rebuild with an alias swap), by the signals (incremental sync after each
commit, through the outbox) and by the tests.

Every write carries an external version, the row's `modified` time in microseconds (for a comment
the later of its own and its post's, since its document copies the post's title). Elasticsearch
then rejects a stale write that arrives after a newer one, so concurrent syncs and a rebuild's
catch-up can run in any order without resurrecting old content.
"""
import logging
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Iterable, Iterator

from django.conf import settings
from django.utils import timezone
from elasticsearch import ApiError, TransportError, helpers

from blog.models import Comment, Post
from blog.text import html_to_text
from common.batching import batched
from search import generation
from search.client import get_client
from search.documents import alias_name

log = logging.getLogger(__name__)

_aliases_seen: set[str] = set()

Change = tuple[str, int]  # ("post" | "comment", primary key)


class IndexingError(Exception):
    """Elasticsearch refused or could not take some of the changes."""


# ---------------------------------------------------------------- rows -> documents


def version_of(*moments: datetime) -> int:
    return int(max(moments).timestamp() * 1_000_000)


def post_to_doc(post: Post) -> dict:
    return {
        "doc_type": "post",
        "post_id": post.pk,
        "title": post.title,
        "text": post.body_text,
        "slug": post.slug,
        "url": post.get_absolute_url(),
        "summary": post.summary,
        "pub_date": post.pub_date.isoformat(),
        "tags": list(post.tags),
    }


def comment_to_doc(comment: Comment) -> dict:
    post = comment.post
    return {
        "doc_type": "comment",
        "comment_id": comment.pk,
        "post_id": post.pk,
        "post_title": post.title,
        "url": f"{post.get_absolute_url()}#comment-{comment.pk}",
        "author": comment.author_name,
        "comment": html_to_text(comment.comment_html) or comment.comment,
        "created": comment.created.isoformat(),
        "pub_date": post.pub_date.isoformat(),
    }


def post_visible(post: Post, now: datetime) -> bool:
    return post.published and post.pub_date <= now


def comment_visible(comment: Comment, now: datetime) -> bool:
    return comment.approved and post_visible(comment.post, now)


def index_action(index: str, kind: str, obj) -> dict:
    if kind == "posts":
        doc, version = post_to_doc(obj), version_of(obj.modified)
    else:
        doc, version = comment_to_doc(obj), version_of(obj.modified, obj.post.modified)
    return {"_op_type": "index", "_index": index, "_id": str(obj.pk), "version": version,
            "version_type": "external_gte", "_source": doc}


def delete_action(index: str, pk: int, *, now: datetime) -> dict:
    return {"_op_type": "delete", "_index": index, "_id": str(pk), "version": version_of(now),
            "version_type": "external_gte"}


# ---------------------------------------------------------------- incremental changes


def actions_for_changes(changes: Iterable[Change], *, now: datetime | None = None) -> list[dict]:
    """Bulk actions that make the aliases match the database for the changed rows.

    A changed post also rewrites its comments' documents (they copy its title and visibility).
    Two queries whatever the number of changes.
    """
    now = now or timezone.now()
    post_ids = {pk for kind, pk in changes if kind == "post"}
    comment_ids = {pk for kind, pk in changes if kind == "comment"}
    posts_alias, comments_alias = alias_name("posts"), alias_name("comments")
    actions = []

    found_posts = {p.pk: p for p in Post.objects.filter(pk__in=post_ids)}
    for pk in sorted(post_ids):
        post = found_posts.get(pk)
        if post is not None and post_visible(post, now):
            actions.append(index_action(posts_alias, "posts", post))
        else:
            actions.append(delete_action(posts_alias, pk, now=now))

    comments = Comment.objects.select_related("post").filter(pk__in=comment_ids) | \
        Comment.objects.select_related("post").filter(post_id__in=post_ids)
    seen = set()
    for comment in comments:
        seen.add(comment.pk)
        if comment_visible(comment, now):
            actions.append(index_action(comments_alias, "comments", comment))
        else:
            actions.append(delete_action(comments_alias, comment.pk, now=now))
    for pk in sorted(comment_ids - seen):
        actions.append(delete_action(comments_alias, pk, now=now))
    return actions


def run_bulk(actions: list[dict], *, client=None, require_alias: bool = True, refresh: bool = True) -> int:
    """Send actions in one bulk request; raise IndexingError unless every item succeeded or was harmless.

    With refresh (the default) the change is searchable before the index generation is bumped, so a
    worker that sees the new generation can never cache results computed from the old documents.
    """
    if not actions:
        return 0
    client = client or get_client()
    if require_alias:
        require_aliases(client, {a["_index"] for a in actions})
    try:
        ok, errors = helpers.bulk(client, actions, raise_on_error=False, raise_on_exception=True,
                                  require_alias=require_alias, refresh=refresh, chunk_size=500, stats_only=False)
    except (TransportError, ApiError) as exc:
        raise IndexingError(f"bulk request failed: {exc}") from exc
    real = [e for e in errors if not _harmless(e)]
    if any(detail.get("status") == 404 for e in real for detail in e.values()):
        forget_aliases()
    if real:
        raise IndexingError(f"{len(real)} of {len(actions)} bulk items failed, first: {real[0]}")
    generation.bump()
    return ok


def _harmless(error: dict) -> bool:
    """Answers that mean "already as wanted": a delete of a missing document, and a write older
    than what the index holds (a version conflict under external versioning). A 404 on an index
    operation is *not* harmless: it means the alias is missing and the change was not applied."""
    (op, detail), = error.items()
    status = int(detail.get("status", 0))
    if status == 409:
        return True
    return op == "delete" and status == 404 and detail.get("result") == "not_found"


def require_aliases(client, indices: set[str]) -> None:
    """Raise IndexingError unless every alias exists (checked once per process, then remembered).

    Needed because a bulk *delete* auto-creates a missing index even with require_alias, which
    would leave a concrete index squatting on the alias name.
    """
    missing = indices - _aliases_seen
    if not missing:
        return
    for name in sorted(missing):
        try:
            exists = client.indices.exists_alias(name=name)
        except (TransportError, ApiError) as exc:
            raise IndexingError(f"could not check the aliases: {exc}") from exc
        if not exists:
            raise IndexingError(f"search alias {name} does not exist yet: run `manage.py reindex`")
        _aliases_seen.add(name)


def forget_aliases() -> None:
    """Check the aliases again on the next write (after they were found missing)."""
    _aliases_seen.clear()


def apply_changes(changes: Iterable[Change], *, client=None, refresh: bool = True) -> int:
    """Make the live indices match the database for these rows. Raises IndexingError."""
    return run_bulk(actions_for_changes(list(changes)), client=client, refresh=refresh)


# ---------------------------------------------------------------- full rebuild


# Only the columns the documents use: the HTML bodies are large and never indexed.
POST_FIELDS = ("id", "title", "slug", "body_text", "summary", "pub_date", "tags", "modified")
COMMENT_FIELDS = ("id", "post_id", "author_name", "comment", "comment_html", "created", "modified",
                  *(f"post__{f}" for f in ("id", "title", "slug", "pub_date", "published", "modified")))


def visible_posts():
    return Post.objects.visible().only(*POST_FIELDS).order_by("pk")


def visible_comments():
    return Comment.objects.visible().select_related("post").only(*COMMENT_FIELDS).order_by("pk")


def querysets() -> dict:
    return {"posts": visible_posts, "comments": visible_comments}


def iter_index_actions(kind: str, index: str, *, modified_since: datetime | None = None) -> Iterator[dict]:
    """Index actions for every visible row of a kind, streamed in chunks (bounded memory)."""
    qs = querysets()[kind]()
    if modified_since is not None:
        if kind == "posts":
            qs = qs.filter(modified__gte=modified_since)
        else:
            qs = qs.filter(modified__gte=modified_since) | qs.filter(post__modified__gte=modified_since)
    for obj in qs.iterator(chunk_size=settings.SEARCH["QUERYSET_CHUNK_SIZE"]):
        yield index_action(index, kind, obj)


def parallel_load(client, actions: Iterator[dict], *, chunk_size: int, threads: int) -> Iterator[int]:
    """Send chunks of actions with `threads` bulk requests in flight; yields each chunk's size.

    The actions are produced on the calling thread (so database queries use its connection and
    see its transaction), only the bulk requests run on the workers. At most 2 x threads chunks
    are held in memory. Raises IndexingError on the first item Elasticsearch refuses.
    """
    def send(chunk: list[dict]) -> int:
        _, errors = helpers.bulk(client, chunk, raise_on_error=False, chunk_size=len(chunk), stats_only=False)
        real = [e for e in errors if not _harmless(e)]
        if real:
            raise IndexingError(f"{len(real)} bulk items failed, first: {real[0]}")
        return len(chunk)

    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="bulk") as pool:
        in_flight: deque = deque()
        for chunk in batched(actions, chunk_size):
            in_flight.append(pool.submit(send, chunk))
            if len(in_flight) >= threads * 2:
                yield in_flight.popleft().result()
        while in_flight:
            yield in_flight.popleft().result()
