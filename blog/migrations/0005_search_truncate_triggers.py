"""search's TRUNCATE triggers (search/triggers.py): a TRUNCATE asks for the kind to be compared whole."""

import pgtrigger.compiler
import pgtrigger.migrations
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("search", "0012_recheck_requests"),  # the table the TRUNCATE triggers write
        ("blog", "0004_post_fts_index"),
    ]

    operations = [
        pgtrigger.migrations.AddTrigger(
            model_name="comment",
            trigger=pgtrigger.compiler.Trigger(
                name="search_truncate",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func="\n    INSERT INTO search_recheckrequest (kind, requested_at) VALUES ('comments', statement_timestamp())\n        ON CONFLICT (kind) DO UPDATE SET requested_at = EXCLUDED.requested_at;\n    RETURN NULL;",
                    hash="271efa8956d2267e39e09c3595b78fd85a2f87af",
                    level="STATEMENT",
                    operation="TRUNCATE",
                    pgid="pgtrigger_search_truncate_bc02c",
                    table="blog_comment",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="post",
            trigger=pgtrigger.compiler.Trigger(
                name="search_truncate",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func="\n    INSERT INTO search_recheckrequest (kind, requested_at) VALUES ('posts', statement_timestamp()), ('comments', statement_timestamp())\n        ON CONFLICT (kind) DO UPDATE SET requested_at = EXCLUDED.requested_at;\n    RETURN NULL;",
                    hash="191b420a4b1fd1ee31724b8067d0e4ad9ea86be7",
                    level="STATEMENT",
                    operation="TRUNCATE",
                    pgid="pgtrigger_search_truncate_1668d",
                    table="blog_post",
                    when="AFTER",
                ),
            ),
        ),
    ]
