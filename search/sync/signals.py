"""After-commit sync: apply due outbox entries quickly after a save through the ORM.

Nothing here records a change: PostgreSQL's triggers write the outbox in the same transaction as
the change, whatever wrote it (search/triggers.py). These receivers, connected at start-up to
the models the site declares (search/registry.py), only ask for the entries to be applied soon
after the commit: a save or delete of a declared model or of a tag, a many-to-many change.
Writes that bypass signals (QuerySet.update, bulk_create, raw SQL, an importer) are applied by
the next sync or by `search_sync`, which the scheduler runs every minute. Nothing here can make
a save fail or wait long on Elasticsearch.
"""

from django.db import transaction
from django.db.models.signals import m2m_changed, post_delete, post_save

from search import conf, registry
from search.sync import outbox


def schedule_sync(sender, raw=False, **kwargs):
    if raw or kwargs.get("action", "post_").startswith("pre_"):  # fixture loading; a tag change not yet made
        return
    transaction.on_commit(lambda: outbox.sync_after_commit(batch=conf.get().sync.outbox_drain_batch))


def connect() -> None:
    """Connect the receivers to every declared model (and the entries' tags, when many-to-many)."""
    for declaration in registry.declarations.declared():
        label = declaration.model._meta.label_lower
        post_save.connect(schedule_sync, sender=declaration.model, dispatch_uid=f"search-saved-{label}")
        post_delete.connect(schedule_sync, sender=declaration.model, dispatch_uid=f"search-deleted-{label}")
    relation = registry.declarations.entries.tags_relation() if registry.declarations.entries else None
    if relation is not None:
        m2m_changed.connect(schedule_sync, sender=relation.remote_field.through, dispatch_uid="search-tags-changed")
        # A tag renamed or deleted: its trigger re-versions the entries that carry it (search/triggers.py).
        tag = relation.related_model
        post_save.connect(schedule_sync, sender=tag, dispatch_uid="search-tag-saved")
        post_delete.connect(schedule_sync, sender=tag, dispatch_uid="search-tag-deleted")
