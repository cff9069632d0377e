"""A GIN index on the weighted tsvector of posts, for the PostgreSQL full-text search baseline
(bench/baselines.py); it was search's migration 0003 before search stopped naming the blog's
tables. The expression is written out here (a migration must not change when code elsewhere
does); it is the same as bench/baselines.PG_DOCUMENT, so the planner uses the index
(tests/test_relevance.py checks it)."""

from django.db import migrations

PG_DOCUMENT = "setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(body_text, '')), 'B')"


class Migration(migrations.Migration):
    dependencies = [("blog", "0003_search_versions_and_triggers")]
    operations = [
        migrations.RunSQL(
            f"CREATE INDEX IF NOT EXISTS search_post_fts ON blog_post USING GIN (({PG_DOCUMENT}))",
            "DROP INDEX IF EXISTS search_post_fts",
        )
    ]
