"""search's TRUNCATE triggers (search/triggers.py): a TRUNCATE asks for the kind to be compared whole."""

import pgtrigger.compiler
import pgtrigger.migrations
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("search", "0012_recheck_requests"),  # the table the TRUNCATE triggers write
        ("journal", "0001_initial"),
    ]

    operations = [
        pgtrigger.migrations.AddTrigger(
            model_name="blogitem",
            trigger=pgtrigger.compiler.Trigger(
                name="search_truncate",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func="\n    INSERT INTO search_recheckrequest (kind, requested_at) VALUES ('posts', statement_timestamp()), ('comments', statement_timestamp())\n        ON CONFLICT (kind) DO UPDATE SET requested_at = EXCLUDED.requested_at;\n    RETURN NULL;",
                    hash="0fa5791815274b51a429e1ca42853881cffdf68c",
                    level="STATEMENT",
                    operation="TRUNCATE",
                    pgid="pgtrigger_search_truncate_0fe36",
                    table="journal_blogitem",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="blogitemcategoriessearchtriggers",
            trigger=pgtrigger.compiler.Trigger(
                name="search_tags_truncate",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func='\n    UPDATE "journal_blogitem" SET search_version = 0 WHERE "id" IN (SELECT "id" FROM "journal_blogitem");\n        UPDATE "journal_reply" SET search_version = 0 WHERE "item_id" IN (SELECT "id" FROM "journal_blogitem");\n    RETURN NULL;',
                    hash="3b6e1fb394755784cabbb47f4feef8eb534712f5",
                    level="STATEMENT",
                    operation="TRUNCATE",
                    pgid="pgtrigger_search_tags_truncate_299b3",
                    table="journal_blogitem_categories",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="reply",
            trigger=pgtrigger.compiler.Trigger(
                name="search_truncate",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func="\n    INSERT INTO search_recheckrequest (kind, requested_at) VALUES ('comments', statement_timestamp())\n        ON CONFLICT (kind) DO UPDATE SET requested_at = EXCLUDED.requested_at;\n    RETURN NULL;",
                    hash="c1b5c31526b0558289383577621ce6914d792252",
                    level="STATEMENT",
                    operation="TRUNCATE",
                    pgid="pgtrigger_search_truncate_7d5f3",
                    table="journal_reply",
                    when="AFTER",
                ),
            ),
        ),
    ]
