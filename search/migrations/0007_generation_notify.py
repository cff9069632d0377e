"""Every change of the index generation row NOTIFYs `search_generation` with the new value, so
web processes learn of it without reading the row on each search (search/generation.py).

A trigger rather than a NOTIFY in Python: whatever bumps the row (the ORM, raw SQL, a restore
script) notifies, and only when its transaction commits."""

from django.db import migrations

SQL = """
CREATE OR REPLACE FUNCTION search_generation_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('search_generation', NEW.value::text);
    RETURN NULL;
END $$;
CREATE TRIGGER search_generation_notify AFTER INSERT OR UPDATE ON search_indexgeneration
    FOR EACH ROW EXECUTE FUNCTION search_generation_notify();
"""

REVERSE = """
DROP TRIGGER IF EXISTS search_generation_notify ON search_indexgeneration;
DROP FUNCTION IF EXISTS search_generation_notify();
"""


class Migration(migrations.Migration):
    dependencies = [("search", "0006_vocabulary")]
    operations = [migrations.RunSQL(SQL, REVERSE)]
