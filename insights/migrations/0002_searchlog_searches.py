"""A log row counts identical searches of one batch: `searches`, and `elapsed_ms` becomes the list
of their times (an existing row is one search, its time the list's one value). Clicks store the
per-search part of the query id, so one row's searches are clicked apart.

Reversible: going back splits every row that counts several searches into one row each (the
times kept), and keeps one click per (row, position) where one row's searches opened the same
position (the old schema cannot tell them apart).
"""

import django.contrib.postgres.fields
from django.db import migrations, models

_COLUMNS = "token, source, burst, seq, query, page, total, strategy, showing_for, round_trips, took_ms, cached, created"

SPLIT_ROWS = f"""
    INSERT INTO insights_searchlog ({_COLUMNS}, searches, elapsed_ms)
    SELECT {_COLUMNS}, 1, ARRAY[e] FROM insights_searchlog, unnest(elapsed_ms[2:]) AS e WHERE searches > 1;
    UPDATE insights_searchlog SET searches = 1, elapsed_ms = elapsed_ms[1:1] WHERE searches > 1;
"""

ONE_CLICK_PER_ROW_POSITION = """
    DELETE FROM insights_searchclick c USING insights_searchclick d
    WHERE c.token = d.token AND c.position = d.position AND c.id > d.id;
"""


class Migration(migrations.Migration):
    dependencies = [
        ("insights", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="searchlog",
            name="searches",
            field=models.PositiveIntegerField(default=1),
        ),
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    "ALTER TABLE insights_searchlog ALTER COLUMN elapsed_ms TYPE double precision[] USING ARRAY[elapsed_ms]",
                    reverse_sql=SPLIT_ROWS + "ALTER TABLE insights_searchlog ALTER COLUMN elapsed_ms TYPE double precision USING coalesce(elapsed_ms[1], 0)",
                ),
            ],
            state_operations=[
                migrations.AlterField(
                    model_name="searchlog",
                    name="elapsed_ms",
                    field=django.contrib.postgres.fields.ArrayField(base_field=models.FloatField(), default=list, size=None),
                ),
            ],
        ),
        migrations.AddField(
            model_name="searchclick",
            name="search",
            field=models.CharField(blank=True, default="", max_length=12),
        ),
        migrations.RemoveConstraint(
            model_name="searchclick",
            name="insights_one_click_per_position",
        ),
        migrations.RunSQL(migrations.RunSQL.noop, reverse_sql=ONE_CLICK_PER_ROW_POSITION),
        migrations.AddConstraint(
            model_name="searchclick",
            constraint=models.UniqueConstraint(fields=("token", "search", "position"), name="insights_one_click_per_search_position"),
        ),
    ]
