"""What `search_sync` says is waiting (issue 51.10): an entry moved far ahead and back keeps an
outbox entry due at the old date, which only re-reads the row then; the report says it is
scheduled and when, not that a change is stuck."""

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from blog.models import Post
from tests.factories import make_post

pytestmark = pytest.mark.django_db


def test_a_date_moved_ahead_and_back_is_reported_as_scheduled(build_index):
    post = make_post("Hedgehog essay")
    build_index()
    ahead = timezone.now() + timedelta(days=400)
    Post.objects.filter(pk=post.pk).update(pub_date=ahead)
    Post.objects.filter(pk=post.pk).update(pub_date=timezone.now() - timedelta(days=1))
    out = io.StringIO()
    call_command("search_sync", stdout=out)
    said = out.getvalue()
    assert "0 due now" in said and f"1 scheduled (the next at {ahead:%Y-%m-%d %H:%M} UTC" in said, said
