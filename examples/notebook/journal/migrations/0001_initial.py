import django.db.models.deletion
import django.utils.timezone
import pgtrigger.compiler
import pgtrigger.migrations
from django.db import migrations, models

import search.fields


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("search", "0012_recheck_requests"),  # the triggers' sequence, outbox function and tables (docs/adopting.md)
    ]

    operations = [
        migrations.CreateModel(
            name="Category",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("label", models.CharField(max_length=80, unique=True)),
            ],
            options={
                "verbose_name_plural": "categories",
            },
        ),
        migrations.CreateModel(
            name="Reply",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=100)),
                ("body", models.TextField()),
                ("posted_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("is_public", models.BooleanField(default=False, help_text="Set by a moderator.")),
                ("search_version", search.fields.RowVersionField()),
            ],
            options={
                "verbose_name_plural": "replies",
            },
        ),
        migrations.CreateModel(
            name="BlogItem",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("headline", models.CharField(max_length=300)),
                ("text_rendered", models.TextField(blank=True)),
                ("status", models.CharField(choices=[("draft", "Draft"), ("live", "Live"), ("retired", "Retired")], default="draft", max_length=10)),
                ("go_live", models.DateTimeField(default=django.utils.timezone.now)),
                ("search_version", search.fields.RowVersionField()),
                ("categories", models.ManyToManyField(blank=True, related_name="items", to="journal.category")),
            ],
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="category",
            trigger=pgtrigger.compiler.Trigger(
                name="search_tag_label",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func='\n    IF ROW(NEW.*) IS DISTINCT FROM ROW(OLD.*) THEN\n        UPDATE "journal_blogitem" SET search_version = 0 WHERE "id" IN (SELECT "blogitem_id" FROM "journal_blogitem_categories" WHERE "category_id" = NEW."id");\n        UPDATE "journal_reply" SET search_version = 0 WHERE "item_id" IN (SELECT "blogitem_id" FROM "journal_blogitem_categories" WHERE "category_id" = NEW."id");\n    END IF;\n    RETURN NULL;',
                    hash="f76084cc11ab4794710f59db93e44531ba1bffec",
                    operation="UPDATE",
                    pgid="pgtrigger_search_tag_label_068f6",
                    table="journal_category",
                    when="AFTER",
                ),
            ),
        ),
        migrations.AddField(
            model_name="reply",
            name="in_reply_to",
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name="answers", to="journal.reply"),
        ),
        migrations.AddField(
            model_name="reply",
            name="item",
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="replies", to="journal.blogitem"),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="blogitem",
            trigger=pgtrigger.compiler.Trigger(
                name="search_version",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func="NEW.search_version := nextval('search_row_version_seq'); RETURN NEW;",
                    hash="8b782165a5d0ce08b63c538affd52ee72d2ee84e",
                    operation="INSERT OR UPDATE",
                    pgid="pgtrigger_search_version_83c48",
                    table="journal_blogitem",
                    when="BEFORE",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="blogitem",
            trigger=pgtrigger.compiler.Trigger(
                name="search_outbox",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func='\n    IF TG_OP = \'DELETE\' THEN\n        PERFORM search_outbox_entry(\'post\', OLD."id", statement_timestamp(), 2 * (OLD.search_version + 1));\n        RETURN NULL;\n    END IF;\n    PERFORM search_outbox_entry(\'post\', NEW."id", statement_timestamp(), NULL);\n    IF NEW."go_live" > statement_timestamp() THEN\n        PERFORM search_outbox_entry(\'post\', NEW."id", NEW."go_live", NULL);\n    END IF;\n    IF TG_OP = \'UPDATE\' AND ROW(NEW."headline", NEW."go_live", NEW."status") IS DISTINCT FROM ROW(OLD."headline", OLD."go_live", OLD."status") THEN\n        -- The replies\' documents copy these columns, or their visibility reads them.\n        UPDATE "journal_reply" SET search_version = 0 WHERE "item_id" IN (NEW."id");\n    END IF;\n    RETURN NULL;',
                    hash="dcc61a5b9e5cae9d719f55480f62857e05c506b6",
                    operation="INSERT OR UPDATE OR DELETE",
                    pgid="pgtrigger_search_outbox_80ad9",
                    table="journal_blogitem",
                    when="AFTER",
                ),
            ),
        ),
        migrations.CreateModel(
            name="BlogItemcategoriesSearchTriggers",
            fields=[],
            options={
                "verbose_name": "search triggers of journal_blogitem_categories",
                "proxy": True,
                "indexes": [],
                "constraints": [],
            },
            bases=("journal.blogitem_categories",),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="reply",
            trigger=pgtrigger.compiler.Trigger(
                name="search_version",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func="NEW.search_version := nextval('search_row_version_seq'); RETURN NEW;",
                    hash="1020bd48459ed04fd2a85a43ff51d4f7f300432a",
                    operation="INSERT OR UPDATE",
                    pgid="pgtrigger_search_version_a617b",
                    table="journal_reply",
                    when="BEFORE",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="reply",
            trigger=pgtrigger.compiler.Trigger(
                name="search_outbox",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func="\n    IF TG_OP = 'DELETE' THEN\n        PERFORM search_outbox_entry('comment', OLD.\"id\", statement_timestamp(), 2 * (OLD.search_version + 1));\n        RETURN NULL;\n    END IF;\n    PERFORM search_outbox_entry('comment', NEW.\"id\", statement_timestamp(), NULL);\n    RETURN NULL;",
                    hash="fce5aaf2736eb3ab9842ebbeaa83b32187f9a8e6",
                    operation="INSERT OR UPDATE OR DELETE",
                    pgid="pgtrigger_search_outbox_dc3b3",
                    table="journal_reply",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="blogitemcategoriessearchtriggers",
            trigger=pgtrigger.compiler.Trigger(
                name="search_tags",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func='\n    IF TG_OP <> \'DELETE\' THEN\n        UPDATE "journal_blogitem" SET search_version = 0 WHERE "id" IN (NEW."blogitem_id");\n        UPDATE "journal_reply" SET search_version = 0 WHERE "item_id" IN (NEW."blogitem_id");\n    END IF;\n    IF TG_OP <> \'INSERT\' THEN\n        UPDATE "journal_blogitem" SET search_version = 0 WHERE "id" IN (OLD."blogitem_id");\n        UPDATE "journal_reply" SET search_version = 0 WHERE "item_id" IN (OLD."blogitem_id");\n    END IF;\n    RETURN NULL;',
                    hash="d7224f5e141e42ace690fd489d2c3fea00512c15",
                    operation="INSERT OR UPDATE OR DELETE",
                    pgid="pgtrigger_search_tags_8474b",
                    table="journal_blogitem_categories",
                    when="AFTER",
                ),
            ),
        ),
    ]
