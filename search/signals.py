"""The hookup between the blog's models and the indexer: the only place blog changes reach search.

Each save or delete writes an outbox entry inside the caller's transaction and schedules a sync for
after the commit; nothing here can make a save fail or wait long on Elasticsearch.
"""
from django.conf import settings
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone

from blog.models import Comment, Post
from search import outbox
from search.models import PendingChange


def _schedule() -> None:
    transaction.on_commit(lambda: outbox.sync_after_commit(batch=settings.SEARCH["OUTBOX_DRAIN_BATCH"]))


@receiver(post_save, sender=Post, dispatch_uid="search_post_saved")
def post_saved(sender, instance: Post, raw=False, **kwargs):
    if raw:  # fixture loading
        return
    outbox.record(PendingChange.POST, instance.pk)
    if instance.published and instance.pub_date > timezone.now():
        # Not visible yet: index it when its publication time comes.
        outbox.record(PendingChange.POST, instance.pk, due_at=instance.pub_date)
    _schedule()


@receiver(post_delete, sender=Post, dispatch_uid="search_post_deleted")
def post_deleted(sender, instance: Post, **kwargs):
    outbox.record(PendingChange.POST, instance.pk)
    _schedule()


@receiver(post_save, sender=Comment, dispatch_uid="search_comment_saved")
@receiver(post_delete, sender=Comment, dispatch_uid="search_comment_deleted")
def comment_changed(sender, instance: Comment, raw=False, **kwargs):
    if raw:
        return
    outbox.record(PendingChange.COMMENT, instance.pk)
    _schedule()

