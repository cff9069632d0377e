"""The row version column every declared model carries (search/registry.py).

PostgreSQL writes it: a BEFORE INSERT/UPDATE trigger (search/triggers.py) draws it from one
sequence after the row lock is taken, so per row it grows in commit order whatever wrote the row
and whatever an app host's clock says (search/versions.py). The ORM's own value is never used:
the field is not editable, and a value it sends is overwritten by the trigger. The database
default keeps raw SQL INSERTs that do not name the column working.
"""

from django.db import models


class RowVersionField(models.BigIntegerField):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("default", 0)
        kwargs.setdefault("db_default", 0)
        kwargs.setdefault("editable", False)
        kwargs.setdefault("help_text", "Written by PostgreSQL for the search index; never edited.")
        super().__init__(*args, **kwargs)

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        for key, value in (("default", 0), ("editable", False), ("help_text", "Written by PostgreSQL for the search index; never edited.")):
            if kwargs.get(key, value) == value:
                kwargs.pop(key, None)
        if kwargs.get("db_default") == 0:
            kwargs.pop("db_default")
        return name, path, args, kwargs
