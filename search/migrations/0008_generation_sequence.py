"""Generation values from a sequence: a bump that is rolled back leaves its value unused forever
(sequences are not transactional), so nothing cached under it can match a later index state
(search/generation.py)."""

from django.db import migrations

SQL = """
CREATE SEQUENCE IF NOT EXISTS search_generation_seq;
SELECT setval('search_generation_seq', GREATEST((SELECT coalesce(max(value), 0) FROM search_indexgeneration), 0) + 1);
"""


class Migration(migrations.Migration):
    dependencies = [("search", "0007_generation_notify")]
    operations = [migrations.RunSQL(SQL, "DROP SEQUENCE IF EXISTS search_generation_seq;")]
