"""import_corpus: a real UPSERT keyed on the corpus id, bad rows reported by line and skipped."""

import json

import pytest
from django.core.management import call_command

from blog.models import Comment, Post
from search.models import PendingChange

pytestmark = pytest.mark.django_db


def post_row(pk, **over):
    row = {
        "id": pk,
        "source": "example.org",
        "type": "note",
        "slug": f"slug-{pk}",
        "title": f"Title {pk}",
        "pub_date": "2020-01-02T03:04:05+00:00",
        "tags": ["t"],
        "url": f"https://example.org/{pk}",
        "body_html": f"<p>Body {pk}</p>",
        "body_text": f"Body {pk}",
    }
    row.update(over)
    return json.dumps(row)


def comment_row(pk, post_id, **over):
    row = {
        "id": pk,
        "post_id": post_id,
        "parent_id": None,
        "author": "Ann",
        "created": "2021-01-01T00:00:00+00:00",
        "comment": f"Comment {pk}",
        "comment_html": f"<p>Comment {pk}</p>",
        "source": "example.org",
        "source_id": "x",
    }
    row.update(over)
    return json.dumps(row)


def write(tmp_path, posts, comments):
    (tmp_path / "posts.ndjson").write_text("\n".join(posts) + "\n")
    (tmp_path / "comments.ndjson").write_text("\n".join(comments) + "\n")
    return tmp_path


def run(path, capsys):
    call_command("import_corpus", str(path), "--no-progress")
    return capsys.readouterr()


def test_import_keeps_ids_and_is_idempotent(tmp_path, capsys):
    path = write(tmp_path, [post_row(10), post_row(20)], [comment_row(5, 10), comment_row(6, 10, parent_id=5)])
    out = run(path, capsys).out
    assert "2 new, 0 updated" in out
    assert set(Post.objects.values_list("id", flat=True)) == {10, 20}
    assert Comment.objects.get(id=6).parent_id == 5
    assert Comment.objects.get(id=5).approved

    # Change a title in the file and re-run: that row is updated, nothing is duplicated, and the
    # rows the file holds as they are are not written again (no outbox entry, `modified` kept).
    untouched = Post.objects.get(id=20).modified
    PendingChange.objects.all().delete()
    path = write(tmp_path, [post_row(10, title="New title"), post_row(20)], [comment_row(5, 10), comment_row(6, 10, parent_id=5)])
    out = run(path, capsys).out
    assert "1 posts (0 new, 1 updated, 1 unchanged" in out and "0 comments (0 new, 0 updated, 2 unchanged" in out
    assert Post.objects.count() == 2 and Comment.objects.count() == 2
    assert Post.objects.get(id=10).title == "New title" and Post.objects.get(id=20).modified == untouched
    assert {(c.kind, c.object_id) for c in PendingChange.objects.all()} >= {("post", 10)}
    assert not PendingChange.objects.filter(kind="post", object_id=20).exists()


def test_repeated_slugs_are_made_unique_and_stay_stable(tmp_path, capsys):
    path = write(tmp_path, [post_row(1, slug="python"), post_row(2, slug="python"), post_row(3, slug="")], [])
    run(path, capsys)
    slugs = dict(Post.objects.values_list("id", "slug"))
    assert slugs[1] == "python" and slugs[2] == "python-2" and slugs[3] == "title-3"
    run(path, capsys)
    assert dict(Post.objects.values_list("id", "slug")) == slugs


def test_bad_rows_are_reported_with_line_numbers_and_skipped(tmp_path, capsys):
    posts = [post_row(1), "{broken json", post_row(2, title=None), post_row(3, pub_date="yesterday"), post_row(4)]
    comments = [comment_row(1, 1), comment_row(2, 999), json.dumps({"id": 3, "post_id": 1}), comment_row(4, 1, parent_id=777)]
    captured = run(write(tmp_path, posts, comments), capsys)
    err = captured.err
    assert "posts.ndjson:2: broken JSON" in err
    assert "posts.ndjson:3: missing field 'title'" in err
    assert "posts.ndjson:4: field 'pub_date' is not an ISO 8601 timestamp" in err
    assert "comments.ndjson:2: post 999 does not exist" in err
    assert "comments.ndjson:3: missing field 'comment'" in err
    assert "comments.ndjson:4: parent comment 777 does not exist, imported without a parent" in err
    # Nothing else is lost.
    assert set(Post.objects.values_list("id", flat=True)) == {1, 4}
    assert set(Comment.objects.values_list("id", flat=True)) == {1, 4}
    assert Comment.objects.get(id=4).parent_id is None
    assert "3 skipped" in captured.out and "2 skipped" in captured.out


def test_new_rows_after_import_do_not_collide_with_imported_ids(tmp_path, capsys):
    run(write(tmp_path, [post_row(500)], [comment_row(70, 500)]), capsys)
    post = Post.objects.create(title="Written in the admin", slug="admin-post", body_html="<p>x</p>")
    assert post.id > 500
    comment = Comment.objects.create(post=post, comment="hi", author_name="x")
    assert comment.id > 70


def test_comment_html_from_the_corpus_is_sanitized(tmp_path, capsys):
    evil = '<p>hi<script>alert(1)</script><a href="javascript:alert(2)" onclick="x()">link</a></p>'
    run(write(tmp_path, [post_row(1)], [comment_row(1, 1, comment_html=evil)]), capsys)
    html = Comment.objects.get(id=1).comment_html
    assert "<script" not in html and "onclick" not in html and "javascript:" not in html


def test_missing_directory_is_a_clear_error(tmp_path):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="posts.ndjson not found"):
        call_command("import_corpus", str(tmp_path / "nope"))


def test_reimport_never_reverts_moderation_unless_overwrite(tmp_path, capsys):
    path = write(tmp_path, [post_row(1), post_row(2)], [comment_row(1, 1)])
    run(path, capsys)
    Post.objects.filter(id=1).update(published=False)  # moderated on the site
    Comment.objects.filter(id=1).update(approved=False)
    path = write(tmp_path, [post_row(1, title="Fixed typo"), post_row(2)], [comment_row(1, 1, comment="edited")])
    run(path, capsys)
    post, comment = Post.objects.get(id=1), Comment.objects.get(id=1)
    assert post.title == "Fixed typo" and not post.published  # content updated, moderation kept
    assert comment.comment == "edited" and not comment.approved
    call_command("import_corpus", str(path), "--no-progress", "--overwrite")
    assert Post.objects.get(id=1).published and Comment.objects.get(id=1).approved


def test_reimport_keeps_rows_edited_on_the_site_unless_overwrite(tmp_path, capsys):
    path = write(tmp_path, [post_row(1), post_row(2)], [comment_row(1, 1)])
    run(path, capsys)
    post = Post.objects.get(id=1)
    post.title = "Corrected in the admin"
    post.save()
    comment = Comment.objects.get(id=1)
    comment.comment = "Redacted by a moderator"
    comment.save()
    path = write(
        tmp_path, [post_row(1, title="Title from the file"), post_row(2, title="Changed in the file")], [comment_row(1, 1, comment="Original rude words")]
    )
    out = run(path, capsys).out
    assert "1 updated, 0 unchanged, 1 kept as edited on the site" in out
    assert Post.objects.get(id=1).title == "Corrected in the admin"
    assert Post.objects.get(id=2).title == "Changed in the file"
    assert Comment.objects.get(id=1).comment == "Redacted by a moderator"
    call_command("import_corpus", str(path), "--no-progress", "--overwrite")
    assert Post.objects.get(id=1).title == "Title from the file"
    assert Comment.objects.get(id=1).comment == "Original rude words"


def test_links_with_other_schemes_are_refused(tmp_path, capsys):
    posts = [
        post_row(1, link_url="javascript:alert(1)"),
        post_row(2, link_url=" JavaScript:alert(1)"),
        post_row(3, url="data:text/html,x"),
        post_row(4, link_url="https://example.org/ok"),
    ]
    err = run(write(tmp_path, posts, []), capsys).err
    assert "posts.ndjson:1: field 'link_url' is not an http(s) URL" in err
    assert "posts.ndjson:2: field 'link_url' is not an http(s) URL" in err
    assert "posts.ndjson:3: field 'url' is not an http(s) URL" in err
    assert set(Post.objects.values_list("id", flat=True)) == {4}
