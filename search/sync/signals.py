"""After-commit sync: apply due outbox entries quickly after a save through the ORM.

Nothing here records a change: PostgreSQL's triggers write the outbox in the same transaction as
the change, whatever wrote it (migration 0005). These receivers only ask for the entries to be
applied soon after the commit; writes that bypass signals (QuerySet.update, raw SQL, the
importer) are applied by the next sync or by `search_sync`, which the scheduler runs every
minute. Nothing here can make a save fail or wait long on Elasticsearch.
"""

from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from blog.models import Comment, Post
from search import conf
from search.sync import outbox


@receiver(post_save, sender=Post, dispatch_uid="search_post_saved")
@receiver(post_delete, sender=Post, dispatch_uid="search_post_deleted")
@receiver(post_save, sender=Comment, dispatch_uid="search_comment_saved")
@receiver(post_delete, sender=Comment, dispatch_uid="search_comment_deleted")
def schedule_sync(sender, raw=False, **kwargs):
    if raw:  # fixture loading
        return
    transaction.on_commit(lambda: outbox.sync_after_commit(batch=conf.get().sync.outbox_drain_batch))
