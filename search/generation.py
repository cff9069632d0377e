"""The index generation (see IndexGeneration): read by the result cache, bumped by every write."""
from django.db import connection

from search.models import IndexGeneration

_ROW_ID = 1


def bump() -> None:
    """Advance the generation; one UPDATE (the row is created by the migration)."""
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {IndexGeneration._meta.db_table} SET value = value + 1 WHERE id = %s", [_ROW_ID])
        if cursor.rowcount == 0:
            IndexGeneration.objects.get_or_create(id=_ROW_ID, defaults={"value": 1})


def current() -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT value FROM {IndexGeneration._meta.db_table} WHERE id = %s", [_ROW_ID])
        row = cursor.fetchone()
    return row[0] if row else 0
