"""The search log's `strategy` says how the top hit was found: "phrase" or "words" (they were
named after query types, "match_phrase" and "match", before the single tiered query)."""

from django.db import migrations

FORWARD = [("match_phrase", "phrase"), ("match", "words")]


def rename(apps, schema_editor, pairs):
    SearchLog = apps.get_model("insights", "SearchLog")
    for old, new in pairs:
        SearchLog.objects.filter(strategy=old).update(strategy=new)


class Migration(migrations.Migration):
    dependencies = [("insights", "0003_searchlog_statistics")]

    operations = [
        migrations.RunPython(lambda apps, se: rename(apps, se, FORWARD), lambda apps, se: rename(apps, se, [(b, a) for a, b in FORWARD])),
    ]
