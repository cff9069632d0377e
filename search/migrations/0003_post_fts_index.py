"""A GIN index on the weighted tsvector of posts, for the PostgreSQL full-text search baseline
(search/baselines.py). It lives in the search app: blog/ knows nothing of search."""
from django.db import migrations

from search.baselines import PG_DOCUMENT


class Migration(migrations.Migration):
    dependencies = [("search", "0002_generation_row"), ("blog", "0001_initial")]
    operations = [
        migrations.RunSQL(
            f"CREATE INDEX IF NOT EXISTS search_post_fts ON blog_post USING GIN (({PG_DOCUMENT}))",
            "DROP INDEX IF EXISTS search_post_fts",
        )
    ]
