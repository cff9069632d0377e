"""The dependency a site's migration needs on search's own: its triggers call the outbox function
and write the tables search's migrations create, so those must run first. `makemigrations`
(search/management/commands/makemigrations.py) adds it to every migration it writes that holds
one of search's triggers or a row version column; the site never looks the name up."""

from search.fields import RowVersionField

TRIGGER_PREFIX = "search_"  # search/triggers.py names every trigger it declares so


def needs_search(operations) -> bool:
    """Whether these migration operations create a search trigger or a row version column (pure)."""
    for operation in operations:
        trigger = getattr(operation, "trigger", None)
        if trigger is not None and (trigger.name or "").startswith(TRIGGER_PREFIX):
            return True
        fields = [getattr(operation, "field", None), *(field for _, field in getattr(operation, "fields", ()))]
        if any(isinstance(field, RowVersionField) for field in fields):
            return True
        triggers = (getattr(operation, "options", None) or {}).get("triggers", ())
        if any((t.name or "").startswith(TRIGGER_PREFIX) for t in triggers):
            return True
    return False


def add_dependency(migration, latest: tuple[str, str]) -> bool:
    """Add `latest` (search's last migration) to a migration that needs it and lacks any
    dependency on search; True when it was added."""
    if migration.app_label == latest[0] or not needs_search(migration.operations):
        return False
    if any(app == latest[0] for app, _ in migration.dependencies):
        return False
    migration.dependencies.append(latest)
    return True
