"""Loading the corpus NDJSON files (format: shared/corpus/README.md) into posts and comments.

Rows are validated one by one; a bad row is reported with its line number and skipped, every
other row is written with a real UPSERT (INSERT ... ON CONFLICT (id) DO UPDATE), so re-running
updates rows and never duplicates them. The corpus id stays the primary key.

Moderation and editing belong to the site, not to the file: `published` and `approved` are set
when a row is first inserted and a re-import never reverts them (an unpublished post stays
unpublished, an unapproved comment stays hidden), and a row edited on the site since (any save(),
e.g. in the admin; see `edited_on_site`) is left as it is, unless `overwrite` is asked for.
"""

import json
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from itertools import islice
from pathlib import Path
from urllib.parse import urlsplit

from django.core.management.color import no_style
from django.db import connection, transaction
from django.utils.text import slugify

from blog.models import Comment, Post
from blog.text import html_to_text, sanitize_comment_html, summarize

log = logging.getLogger(__name__)

BATCH_SIZE = 1000
POST_FIELDS = ["title", "slug", "body_html", "body_text", "summary", "pub_date", "tags", "modified", "source", "post_type", "source_url", "link_url"]
COMMENT_FIELDS = ["post", "parent", "author_name", "comment", "comment_html", "created", "modified"]
# Set on insert only, unless the import overwrites (see the module docstring).
MODERATION_FIELDS = {Post: ["published"], Comment: ["approved"]}
LINK_SCHEMES = ("http", "https")


class BadRow(ValueError):
    """A row that cannot be imported; the message says why."""


@dataclass
class Report:
    """What an import did, for the summary line and the tests."""

    created: int = 0
    updated: int = 0
    unchanged: int = 0  # existing rows the file holds as they are: not written again
    kept: int = 0  # existing rows edited on the site, left as they are
    problems: list[str] = field(default_factory=list)

    @property
    def skipped(self) -> int:
        return sum(1 for p in self.problems if "skipped" in p)


def batched(items, size: int):
    """Lists of up to `size` items, in order (itertools.batched arrives only in Python 3.12)."""
    it = iter(items)
    while chunk := list(islice(it, size)):
        yield chunk


def read_ndjson(path: Path, report: Report) -> Iterator[tuple[int, dict]]:
    """(line number, object) for each parseable line; broken lines go into the report."""
    with path.open(encoding="utf-8", errors="replace") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                report.problems.append(f"{path.name}:{lineno}: broken JSON ({exc.msg}), skipped")
                continue
            if not isinstance(obj, dict):
                report.problems.append(f"{path.name}:{lineno}: not a JSON object, skipped")
                continue
            yield lineno, obj


def _require(obj: dict, name: str, kind: type | tuple[type, ...]):
    value = obj.get(name)
    if value is None or (isinstance(value, str) and not value.strip() and name in ("title", "comment")):
        raise BadRow(f"missing field {name!r}")
    if not isinstance(value, kind) or isinstance(value, bool):
        raise BadRow(f"field {name!r} has the wrong type ({type(value).__name__})")
    return value


def _timestamp(obj: dict, name: str) -> datetime:
    raw = _require(obj, name, str)
    try:
        value = datetime.fromisoformat(raw)
    except ValueError:
        raise BadRow(f"field {name!r} is not an ISO 8601 timestamp: {raw[:40]!r}") from None
    if value.tzinfo is None:
        raise BadRow(f"field {name!r} has no UTC offset: {raw[:40]!r}")
    return value


def _link(obj: dict, name: str, limit: int) -> str:
    """An optional link; anything but http(s) (javascript:, data:, ...) is refused."""
    value = str(obj.get(name) or "")[:limit]
    if value and urlsplit(value.strip()).scheme.lower() not in LINK_SCHEMES:
        raise BadRow(f"field {name!r} is not an http(s) URL: {value[:40]!r}")
    return value


def _cap(model, field: str, value: str) -> str:
    """The value cut to the model field's own max_length (one source for the limits: the model)."""
    return value[: model._meta.get_field(field).max_length]


def post_from_row(obj: dict, *, now: datetime) -> Post:
    """A Post (not saved) from one corpus row, or BadRow."""
    pk = _require(obj, "id", int)
    if pk <= 0:
        raise BadRow("field 'id' must be positive")
    title = _require(obj, "title", str).strip()
    body_html = obj.get("body_html") or ""
    body_text = obj.get("body_text") or html_to_text(body_html)
    tags = obj.get("tags") or []
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise BadRow("field 'tags' must be a list of strings")
    return Post(
        id=pk,
        title=_cap(Post, "title", title),
        slug=str(obj.get("slug") or ""),
        body_html=body_html,
        body_text=body_text,
        summary=summarize(obj.get("excerpt") or body_text),
        pub_date=_timestamp(obj, "pub_date"),
        tags=[t[: Post._meta.get_field("tags").base_field.max_length] for t in tags],
        published=True,
        modified=now,
        source=_cap(Post, "source", str(obj.get("source") or "")),
        post_type=_cap(Post, "post_type", str(obj.get("type") or "")),
        source_url=_link(obj, "url", Post._meta.get_field("source_url").max_length),
        link_url=_link(obj, "link_url", Post._meta.get_field("link_url").max_length),
    )


def comment_from_row(obj: dict, *, now: datetime) -> Comment:
    pk = _require(obj, "id", int)
    post_id = _require(obj, "post_id", int)
    parent_id = obj.get("parent_id")
    if parent_id is not None and (not isinstance(parent_id, int) or isinstance(parent_id, bool)):
        raise BadRow("field 'parent_id' must be a whole number or null")
    text = _require(obj, "comment", str)
    return Comment(
        id=pk,
        post_id=post_id,
        parent_id=parent_id,
        author_name=_cap(Comment, "author_name", (obj.get("author") or "Anonymous").strip()) or "Anonymous",
        comment=text,
        comment_html=sanitize_comment_html(obj.get("comment_html") or ""),
        created=_timestamp(obj, "created"),
        approved=True,  # the corpus holds comments that were published on the site
        modified=now,
    )


class SlugAllocator:
    """Unique slugs: the first row (in file order) to claim a slug keeps it, later ones get -<id>.

    Seeded with the slugs already in the database so that a re-import gives each row the same
    slug as before and never collides with a post written in the admin.
    """

    def __init__(self, taken: dict[str, int]):
        self.owner = dict(taken)

    def allocate(self, post: Post) -> str:
        base = (slugify(post.slug, allow_unicode=True) or slugify(post.title, allow_unicode=True) or "post")[:230]
        for candidate in (base, f"{base}-{post.id}"):
            if self.owner.setdefault(candidate, post.id) == post.id:
                return candidate
        n = 2
        while self.owner.setdefault(f"{base}-{post.id}-{n}", post.id) != post.id:
            n += 1
        return f"{base}-{post.id}-{n}"


def _upsert(model, objs: list, fields: list[str], report: Report, *, overwrite: bool = False) -> None:
    """Writes `objs` over their rows, but for rows edited on the site (unless `overwrite`) and rows
    whose stored values are the file's (`modified` aside): writing those again would change
    nothing but `modified` and wake the search sync for every row of a re-imported corpus (9,000
    outbox entries for the shared corpus)."""
    if overwrite:
        fields = fields + MODERATION_FIELDS[model] + ["edited_on_site"]
    columns = [model._meta.get_field(f).attname for f in fields if f != "modified"]  # post -> post_id
    # Locked, so that an edit on the site cannot slip in between this check and the write.
    rows = model.objects.select_for_update().filter(id__in=[o.id for o in objs]).values_list("id", "edited_on_site", *columns)
    existing = {row[0]: row for row in rows}
    if not overwrite:
        kept = {pk for pk, row in existing.items() if row[1]}
        objs = [o for o in objs if o.id not in kept]
        report.kept += len(kept)
    same = {o.id for o in objs if o.id in existing and existing[o.id][2:] == tuple(getattr(o, c) for c in columns)}
    objs = [o for o in objs if o.id not in same]
    report.unchanged += len(same)
    if objs:
        model.objects.bulk_create(objs, update_conflicts=True, unique_fields=["id"], update_fields=fields)
    report.created += sum(1 for o in objs if o.id not in existing)
    report.updated += sum(1 for o in objs if o.id in existing)


def import_posts(path: Path, *, now: datetime, progress: Callable[[int], None] = lambda n: None, overwrite: bool = False) -> Report:
    report = Report()
    slugs = SlugAllocator(dict(Post.objects.values_list("slug", "id")))
    seen: set[int] = set()

    def rows():
        for lineno, obj in read_ndjson(path, report):
            progress(1)
            try:
                post = post_from_row(obj, now=now)
            except BadRow as exc:
                report.problems.append(f"{path.name}:{lineno}: {exc}, skipped")
                continue
            if post.id in seen:
                report.problems.append(f"{path.name}:{lineno}: id {post.id} appears twice, later row skipped")
                continue
            seen.add(post.id)
            post.slug = slugs.allocate(post)
            yield post

    for batch in batched(rows(), BATCH_SIZE):
        _upsert(Post, batch, POST_FIELDS, report, overwrite=overwrite)
    return report


def import_comments(path: Path, *, now: datetime, progress: Callable[[int], None] = lambda n: None, overwrite: bool = False) -> Report:
    report = Report()
    post_ids = set(Post.objects.values_list("id", flat=True))
    known_comments = set(Comment.objects.values_list("id", flat=True))
    pending: list[tuple[int, Comment]] = []
    seen: set[int] = set()
    for lineno, obj in read_ndjson(path, report):
        progress(1)
        try:
            comment = comment_from_row(obj, now=now)
        except BadRow as exc:
            report.problems.append(f"{path.name}:{lineno}: {exc}, skipped")
            continue
        if comment.post_id not in post_ids:
            report.problems.append(f"{path.name}:{lineno}: post {comment.post_id} does not exist, skipped")
            continue
        if comment.id in seen:
            report.problems.append(f"{path.name}:{lineno}: id {comment.id} appears twice, later row skipped")
            continue
        seen.add(comment.id)
        pending.append((lineno, comment))
    # A reply to a comment that is neither in the file nor in the database keeps its text and
    # loses only the link to its parent.
    for lineno, comment in pending:
        if comment.parent_id is not None and comment.parent_id not in seen and comment.parent_id not in known_comments:
            report.problems.append(f"{path.name}:{lineno}: parent comment {comment.parent_id} does not exist, imported without a parent")
            comment.parent_id = None
    for batch in batched((c for _, c in pending), BATCH_SIZE):
        _upsert(Comment, batch, COMMENT_FIELDS, report, overwrite=overwrite)
    return report


def reset_sequences() -> None:
    """Explicit ids bypass the sequences; move them past the largest id so new rows don't collide."""
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), [Post, Comment]):
            cursor.execute(sql)


def import_corpus(directory: Path, *, now: datetime, progress_factory=None, overwrite: bool = False) -> tuple[Report, Report]:
    """Import DIR/posts.ndjson then DIR/comments.ndjson in one transaction: all good rows or nothing.
    With `overwrite`, existing rows get the file's `published`/`approved` too."""
    posts_path, comments_path = directory / "posts.ndjson", directory / "comments.ndjson"
    if not posts_path.is_file():
        raise FileNotFoundError(f"{posts_path} not found")
    with transaction.atomic():
        with _progress(progress_factory, posts_path, "posts") as tick:
            posts = import_posts(posts_path, now=now, progress=tick, overwrite=overwrite)
        if comments_path.is_file():
            with _progress(progress_factory, comments_path, "comments") as tick:
                comments = import_comments(comments_path, now=now, progress=tick, overwrite=overwrite)
        else:
            comments = Report(problems=[f"{comments_path.name}: not found, no comments imported"])
        reset_sequences()
    return posts, comments


class _progress:
    """A context manager yielding a tick(n) callable; a no-op without a factory."""

    def __init__(self, factory, path: Path, label: str):
        self.bar = factory(total=_count_lines(path), desc=label) if factory else None

    def __enter__(self):
        return self.bar.update if self.bar else (lambda n: None)

    def __exit__(self, *exc):
        if self.bar:
            self.bar.close()


def _count_lines(path: Path) -> int:
    with path.open("rb") as fh:
        return sum(1 for line in fh if line.strip())
