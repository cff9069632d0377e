"""The rules docs/adopting.md states for a declaration that a field name alone cannot show:
`check` applies them (search/checks.py) before any row is indexed.

- A visibility rule may only let a row appear as time passes (`published_at__lte=now`), never hide
  one by time alone (`expires_at__gt=now`): nothing would fire to remove it from the index then.
- `date` names a DateField or DateTimeField; `tags` a many-to-many or an ArrayField of strings.
- `url()` reads only what the indexer loads: the declared fields, `columns`, and for a reply its
  entry's (search/documents.py). Another column would be read row by row, or not at all.
"""

from datetime import UTC, date, datetime

from django.db import connection, models
from django.db.models import F, Q

# The lookups that keep a rule `column <op> now` one that only turns rows visible as time passes.
_APPEARING = {"lt", "lte"}
_FLIPPED = {"gt", "gte"}  # ... the same once negated: NOT (column > now)
_LOOKUP_NAMES = {"exact", "iexact", "lt", "lte", "gt", "gte", "in", "range", "isnull", "date", "year", "month", "day"}


def _reads_now(value) -> bool:
    if isinstance(value, F):
        return value.name == "now"
    return any(_reads_now(part) for part in getattr(value, "get_source_expressions", lambda: [])())


def time_problems(q: Q, *, negated: bool = False) -> list[str]:
    """The lookups of a visibility rule (built with now = F("now")) that hide a row by time (pure)."""
    negated ^= q.negated
    problems = []
    for child in q.children:
        if isinstance(child, Q):
            problems += time_problems(child, negated=negated)
            continue
        key, value = child
        if not _reads_now(value):
            continue
        last = key.rsplit("__", 1)[-1]
        lookup = last if last in _LOOKUP_NAMES and "__" in key else "exact"
        if lookup not in (_FLIPPED if negated else _APPEARING):
            problems.append(key)
    return problems


def type_problems(declaration) -> list[tuple[str, str]]:
    """(attribute, why) of a `date` or `tags` field of the wrong type (named fields only)."""
    from django.contrib.postgres.fields import ArrayField

    meta, problems = declaration.model._meta, []
    name = declaration.date
    if name and not hasattr(declaration, "prepare_date"):
        field = meta.get_field(name)
        if not isinstance(field, models.DateField):
            problems.append(("date", f"{name!r} is a {type(field).__name__}, not a DateField or DateTimeField"))
    name = getattr(declaration, "tags", "")
    if name and not hasattr(declaration, "prepare_tags"):
        field = meta.get_field(name)
        strings = isinstance(field, ArrayField) and isinstance(field.base_field, models.CharField | models.TextField)
        if not (field.many_to_many or strings):
            problems.append(("tags", f"{name!r} is a {type(field).__name__}, not a ManyToManyField or an ArrayField of strings"))
    return problems


class _Unloaded(Exception):
    def __init__(self, names):
        super().__init__(names)
        self.names = names


def _sample(field):
    """A value of the field's type, for an object that is never saved."""
    if field.is_relation or isinstance(field, models.IntegerField | models.AutoField):
        return 1
    if isinstance(field, models.DateTimeField):
        return datetime(2026, 1, 1, tzinfo=UTC)
    if isinstance(field, models.DateField):
        return date(2026, 1, 1)
    if isinstance(field, models.BooleanField):
        return True
    return "x" if isinstance(field, models.CharField | models.TextField) else None


def _loaded(model, names):
    """An object of `model` as `.only(*names)` loads it; reading another column raises _Unloaded."""
    meta = model._meta
    wanted = {meta.pk.attname, *(meta.get_field(n).attname for n in names if not meta.get_field(n).many_to_many)}
    fields = [f for f in meta.concrete_fields if f.attname in wanted]
    obj = model.from_db(None, [f.attname for f in fields], [_sample(f) for f in fields])

    def refresh_from_db(*args, fields=None, **kwargs):
        raise _Unloaded(fields or [])

    obj.refresh_from_db = refresh_from_db
    return obj


def _no_queries(execute, sql, params, many, context):
    raise _Unloaded([])


def unloaded_reads(declaration, entries) -> list[str]:
    """The columns `url()` reads that the indexer does not load (none when it reads the database
    otherwise or fails on a sample object: then nothing can be said)."""
    obj = _loaded(declaration.model, declaration.own_columns())
    if getattr(declaration, "entry", "") and entries is not None:
        setattr(obj, declaration.entry, _loaded(entries.model, entries.own_columns()))
    try:
        with connection.execute_wrapper(_no_queries):
            declaration.url(obj)
    except _Unloaded as exc:
        return list(exc.names)
    except Exception:  # noqa: BLE001 - a sample object may not make a URL; that proves nothing
        return []
    return []
