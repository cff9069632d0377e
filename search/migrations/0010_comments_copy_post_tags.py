"""Comments' documents copy their post's tags (tag facets and filters count a post found by its
comments too): a post whose tags change re-queues its comments, as a title edit does."""

from django.db import migrations


def _function(columns: str) -> str:
    new = ", ".join(f"NEW.{c}" for c in columns.split(", "))
    old = ", ".join(f"OLD.{c}" for c in columns.split(", "))
    return f"""
CREATE OR REPLACE FUNCTION search_post_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM search_outbox_entry('post', OLD.id, statement_timestamp(), 2 * (OLD.search_version + 1));
        RETURN NULL;
    END IF;
    PERFORM search_outbox_entry('post', NEW.id, statement_timestamp(), NULL);
    IF NEW.published AND NEW.pub_date > statement_timestamp() THEN
        PERFORM search_outbox_entry('post', NEW.id, NEW.pub_date, NULL);
    END IF;
    IF TG_OP = 'UPDATE' AND ({new})
            IS DISTINCT FROM ({old}) THEN
        -- The comments' documents copy these fields: new versions (and outbox entries) for them.
        UPDATE blog_comment SET search_version = 0 WHERE post_id = NEW.id;
    END IF;
    RETURN NULL;
END $$;
"""


class Migration(migrations.Migration):
    dependencies = [("search", "0009_dictionary")]

    operations = [
        migrations.RunSQL(
            _function("title, slug, pub_date, published, tags"),
            reverse_sql=_function("title, slug, pub_date, published"),
        )
    ]
