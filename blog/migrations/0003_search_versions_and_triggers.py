"""The row version column and search's triggers on the blog's tables (search/triggers.py, from
blog/search_indexes.py), written by makemigrations from the declarations.

Releases before search's declaration API added the column and hand-written triggers from search's
own migrations (0005, 0010): on such a database the column is kept (IF NOT EXISTS) and the old
triggers and functions are dropped, so every change is recorded once, by these triggers.
"""

import pgtrigger.compiler
import pgtrigger.migrations
from django.db import migrations

import search.fields

OLD_TRIGGERS = """
DROP TRIGGER IF EXISTS search_comment_outbox ON blog_comment;
DROP TRIGGER IF EXISTS search_post_outbox ON blog_post;
DROP TRIGGER IF EXISTS search_comment_version ON blog_comment;
DROP TRIGGER IF EXISTS search_post_version ON blog_post;
DROP FUNCTION IF EXISTS search_comment_changed();
DROP FUNCTION IF EXISTS search_post_changed();
DROP FUNCTION IF EXISTS search_assign_version();
"""


def _column(table: str) -> str:
    return f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS search_version bigint NOT NULL DEFAULT 0"


class Migration(migrations.Migration):
    dependencies = [
        ("blog", "0002_edited_on_site"),
        ("search", "0005_versions_and_outbox_triggers"),  # the sequence and the outbox function
    ]

    operations = [
        migrations.RunSQL(OLD_TRIGGERS, migrations.RunSQL.noop),
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunSQL(_column("blog_comment"), migrations.RunSQL.noop)],
            state_operations=[migrations.AddField(model_name="comment", name="search_version", field=search.fields.RowVersionField())],
        ),
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunSQL(_column("blog_post"), migrations.RunSQL.noop)],
            state_operations=[migrations.AddField(model_name="post", name="search_version", field=search.fields.RowVersionField())],
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="comment",
            trigger=pgtrigger.compiler.Trigger(
                name="search_version",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func="NEW.search_version := nextval('search_row_version_seq'); RETURN NEW;",
                    hash="70a6922e165c334eae6bae40b859ab34e8072b04",
                    operation="INSERT OR UPDATE",
                    pgid="pgtrigger_search_version_2e2e0",
                    table="blog_comment",
                    when="BEFORE",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="comment",
            trigger=pgtrigger.compiler.Trigger(
                name="search_outbox",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func="\n    IF TG_OP = 'DELETE' THEN\n        PERFORM search_outbox_entry('comment', OLD.\"id\", statement_timestamp(), 2 * (OLD.search_version + 1));\n        RETURN NULL;\n    END IF;\n    PERFORM search_outbox_entry('comment', NEW.\"id\", statement_timestamp(), NULL);\n    RETURN NULL;",
                    hash="9d0e98b432ebcb1885302ba97bd5fc3ea504ef6b",
                    operation="INSERT OR UPDATE OR DELETE",
                    pgid="pgtrigger_search_outbox_6c476",
                    table="blog_comment",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="post",
            trigger=pgtrigger.compiler.Trigger(
                name="search_version",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func="NEW.search_version := nextval('search_row_version_seq'); RETURN NEW;",
                    hash="fe53448e652b5b07c5d2a69e72827489cd16e4fd",
                    operation="INSERT OR UPDATE",
                    pgid="pgtrigger_search_version_25ab3",
                    table="blog_post",
                    when="BEFORE",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="post",
            trigger=pgtrigger.compiler.Trigger(
                name="search_outbox",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func='\n    IF TG_OP = \'DELETE\' THEN\n        PERFORM search_outbox_entry(\'post\', OLD."id", statement_timestamp(), 2 * (OLD.search_version + 1));\n        RETURN NULL;\n    END IF;\n    PERFORM search_outbox_entry(\'post\', NEW."id", statement_timestamp(), NULL);\n    IF NEW."pub_date" > statement_timestamp() THEN\n        PERFORM search_outbox_entry(\'post\', NEW."id", NEW."pub_date", NULL);\n    END IF;\n    IF TG_OP = \'UPDATE\' AND ROW(NEW."title", NEW."pub_date", NEW."tags", NEW."slug", NEW."published") IS DISTINCT FROM ROW(OLD."title", OLD."pub_date", OLD."tags", OLD."slug", OLD."published") THEN\n        -- The replies\' documents copy these columns, or their visibility reads them.\n        UPDATE "blog_comment" SET search_version = 0 WHERE "post_id" IN (NEW."id");\n    END IF;\n    RETURN NULL;',
                    hash="99a821560c7005600f7c19babb9d2d0366f30f0f",
                    operation="INSERT OR UPDATE OR DELETE",
                    pgid="pgtrigger_search_outbox_2c4b1",
                    table="blog_post",
                    when="AFTER",
                ),
            ),
        ),
    ]
