"""The triggers that make PostgreSQL record every change of a declared model, whatever wrote it.

Built from the declarations (search/registry.py) and registered with django-pgtrigger on the
site's own models at start-up, so the site's `makemigrations` writes them into its own
migrations, next to the row version column (search/fields.py), and writes a new migration when a
declaration changes what they watch. What each one does:

* `search_version` (BEFORE INSERT/UPDATE): the row's version, from one sequence, drawn after the
  row lock is taken, so of two transactions updating one row the later committer draws the larger
  number (search/versions.py).
* `search_outbox` (AFTER INSERT/UPDATE/DELETE): an outbox entry (search_pendingchange) in the same
  transaction as the change. An entry whose date lies in the future gets a second one due then
  (a scheduled post appears on time). A deleted row's entry carries a tombstone version that
  beats every write of the row. An entry whose followed columns (what its replies copy or their
  visibility reads) change re-versions its replies, which writes their entries too.
* `search_truncate` (AFTER TRUNCATE, per statement): no row trigger fires, so it asks for the
  kind to be compared whole with the index at the scheduler's next round (search/sync/audit.py);
  emptying the tags' table re-versions every entry instead.
* `search_tags` on the tags' many-to-many table and `search_tag_label` on the tag model: a tag
  added, removed or renamed re-versions the entries that carry it and their replies (their
  documents copy the tags). django-pgtrigger installs triggers on an auto-created many-to-many
  table through a proxy model, made here (its documented way).

Why django-pgtrigger and not SQL written in our migrations: the triggers depend on the site's
tables and columns, which only the site's declarations know; pgtrigger turns objects built from
them into migration operations of the site's own app (and detects when they change), and lists
and checks what is installed (`manage.py pgtrigger ls`). The shared pieces (the sequence and the
outbox function) stay in search's own migrations (0005), which name no site table.
"""

import logging

import pgtrigger
from django.apps import apps
from django.core.exceptions import FieldDoesNotExist
from django.db import models

from search.documents import Kind
from search.registry import VERSION_FIELD, EntryIndex, ReplyIndex, declarations

log = logging.getLogger(__name__)


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _entry_sql(kind: Kind, pk: str, due: str | None = None) -> str:
    """The outbox entries of one row's change (and its tombstone on DELETE)."""
    due_sql = (
        f"""
    IF NEW.{_q(due)} > statement_timestamp() THEN
        PERFORM search_outbox_entry('{kind.entry}', NEW.{_q(pk)}, NEW.{_q(due)}, NULL);
    END IF;"""
        if due
        else ""
    )
    return f"""
    IF TG_OP = 'DELETE' THEN
        PERFORM search_outbox_entry('{kind.entry}', OLD.{_q(pk)}, statement_timestamp(), 2 * (OLD.{VERSION_FIELD} + 1));
        RETURN NULL;
    END IF;
    PERFORM search_outbox_entry('{kind.entry}', NEW.{_q(pk)}, statement_timestamp(), NULL);{due_sql}"""


def _reversion_replies(replies: ReplyIndex | None, entry_ids: str) -> str:
    """SQL re-versioning the replies of the entries `entry_ids` (an SQL expression or subquery)."""
    if replies is None:
        return ""
    return f"UPDATE {_q(replies.table)} SET {VERSION_FIELD} = 0 WHERE {_q(replies.entry_fk_column)} IN ({entry_ids});"


def version_trigger() -> pgtrigger.Trigger:
    return pgtrigger.Trigger(
        name="search_version",
        when=pgtrigger.Before,
        operation=pgtrigger.Insert | pgtrigger.Update,
        func=f"NEW.{VERSION_FIELD} := nextval('search_row_version_seq'); RETURN NEW;",
    )


def entry_outbox_trigger(entries: EntryIndex, replies: ReplyIndex | None) -> pgtrigger.Trigger:
    followed = entries.followed_columns() if replies is not None else ()
    follow_sql = ""
    if followed:
        new = ", ".join(f"NEW.{_q(c)}" for c in followed)
        old = ", ".join(f"OLD.{_q(c)}" for c in followed)
        follow_sql = f"""
    IF TG_OP = 'UPDATE' AND ROW({new}) IS DISTINCT FROM ROW({old}) THEN
        -- The replies' documents copy these columns, or their visibility reads them.
        {_reversion_replies(replies, f"NEW.{_q(entries.pk_column)}")}
    END IF;"""
    return pgtrigger.Trigger(
        name="search_outbox",
        when=pgtrigger.After,
        operation=pgtrigger.Insert | pgtrigger.Update | pgtrigger.Delete,
        func=_entry_sql(Kind.POSTS, entries.pk_column, entries.due_column()) + follow_sql + "\n    RETURN NULL;",
    )


def reply_outbox_trigger(replies: ReplyIndex) -> pgtrigger.Trigger:
    return pgtrigger.Trigger(
        name="search_outbox",
        when=pgtrigger.After,
        operation=pgtrigger.Insert | pgtrigger.Update | pgtrigger.Delete,
        func=_entry_sql(Kind.COMMENTS, replies.pk_column) + "\n    RETURN NULL;",
    )


def _tag_columns(relation) -> tuple[str, str, type[models.Model]]:
    """(the through table's column of the entry, its column of the tag, the through model)."""
    through = relation.remote_field.through
    return through._meta.get_field(relation.m2m_field_name()).column, through._meta.get_field(relation.m2m_reverse_field_name()).column, through


def _touch_entries(entries: EntryIndex, replies: ReplyIndex | None, ids: str) -> str:
    return f"UPDATE {_q(entries.table)} SET {VERSION_FIELD} = 0 WHERE {_q(entries.pk_column)} IN ({ids});\n        " + _reversion_replies(replies, ids)


def tags_triggers(entries: EntryIndex, replies: ReplyIndex | None) -> list[tuple[type[models.Model], pgtrigger.Trigger]]:
    """(model, trigger) pairs for tags held in a many-to-many: its table and the tag model."""
    relation = entries.tags_relation()
    if relation is None:
        return []
    entry_col, tag_col, through = _tag_columns(relation)
    table = _q(through._meta.db_table)
    link = pgtrigger.Trigger(
        name="search_tags",
        when=pgtrigger.After,
        operation=pgtrigger.Insert | pgtrigger.Update | pgtrigger.Delete,
        func=f"""
    IF TG_OP <> 'DELETE' THEN
        {_touch_entries(entries, replies, f"NEW.{_q(entry_col)}")}
    END IF;
    IF TG_OP <> 'INSERT' THEN
        {_touch_entries(entries, replies, f"OLD.{_q(entry_col)}")}
    END IF;
    RETURN NULL;""",
    )
    label = pgtrigger.Trigger(
        name="search_tag_label",
        when=pgtrigger.After,
        operation=pgtrigger.Update,
        func=f"""
    IF ROW(NEW.*) IS DISTINCT FROM ROW(OLD.*) THEN
        {_touch_entries(entries, replies, f"SELECT {_q(entry_col)} FROM {table} WHERE {_q(tag_col)} = NEW.{_q(relation.related_model._meta.pk.column)}")}
    END IF;
    RETURN NULL;""",
    )
    return [(trigger_model(through), link), (relation.related_model, label)]


def trigger_model(model: type[models.Model]) -> type[models.Model]:
    """The model to register a trigger on: a proxy of an auto-created many-to-many table, made
    once, in the app of the model that declares the relation (so its migrations hold it)."""
    if not model._meta.auto_created:
        return model
    app_label, name = model._meta.app_label, f"{model.__name__.replace('_', '')}SearchTriggers"
    try:
        return apps.get_model(app_label, name)
    except LookupError:
        meta = type("Meta", (), {"proxy": True, "app_label": app_label, "verbose_name": f"search triggers of {model._meta.db_table}"})
        return type(name, (model,), {"__module__": model.__module__, "Meta": meta})


def truncate_trigger(*kinds: Kind) -> pgtrigger.Trigger:
    """A TRUNCATE fires no row trigger: it asks for the whole kinds to be compared with the index
    (search_recheckrequest, applied by the scheduler's next round, search/sync/audit.py)."""
    values = ", ".join(f"('{kind.value}', statement_timestamp())" for kind in kinds)
    return pgtrigger.Trigger(
        name="search_truncate",
        level=pgtrigger.Statement,
        when=pgtrigger.After,
        operation=pgtrigger.Truncate,
        func=f"""
    INSERT INTO search_recheckrequest (kind, requested_at) VALUES {values}
        ON CONFLICT (kind) DO UPDATE SET requested_at = EXCLUDED.requested_at;
    RETURN NULL;""",
    )


def tags_truncate_trigger(entries: EntryIndex, replies: ReplyIndex | None) -> pgtrigger.Trigger:
    """The tags' table emptied: every entry and reply gets a new version (and an outbox entry)."""
    everyone = f"SELECT {_q(entries.pk_column)} FROM {_q(entries.table)}"
    return pgtrigger.Trigger(
        name="search_tags_truncate",
        level=pgtrigger.Statement,
        when=pgtrigger.After,
        operation=pgtrigger.Truncate,
        func=f"""
    {_touch_entries(entries, replies, everyone)}
    RETURN NULL;""",
    )


def declared_triggers() -> list[tuple[type[models.Model], pgtrigger.Trigger]]:
    """Every (model, trigger) pair the declarations need."""
    entries, replies = declarations.entries, declarations.replies
    if entries is None:
        return []
    pairs = [
        (entries.model, version_trigger()),
        (entries.model, entry_outbox_trigger(entries, replies)),
        (entries.model, truncate_trigger(Kind.POSTS, Kind.COMMENTS)),
    ]
    if replies is not None:
        pairs += [(replies.model, version_trigger()), (replies.model, reply_outbox_trigger(replies)), (replies.model, truncate_trigger(Kind.COMMENTS))]
    tags = tags_triggers(entries, replies)
    if tags:
        pairs += tags + [(tags[0][0], tags_truncate_trigger(entries, replies))]
    return pairs


def register_all() -> None:
    """Register the triggers with django-pgtrigger (start-up, after the declarations are found).

    A declaration that names a field its model lacks registers none: start-up goes on, so that
    `manage.py check` reports the mistake (search/checks.py) instead of a traceback."""
    try:
        pairs = declared_triggers()
    except (FieldDoesNotExist, AttributeError) as exc:
        log.warning("search's triggers not registered, a declaration is wrong (manage.py check says more): %s", exc)
        return
    for model, trigger in pairs:
        if trigger.name not in {t.name for t in getattr(model._meta, "triggers", [])}:
            pgtrigger.register(trigger)(model)
