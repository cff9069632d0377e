"""The planner statistics of the search log from a sample of 3,000 rows instead of 30,000.

The log only grows, so autovacuum ANALYZEs it after every 10% of new rows. PostgreSQL samples 300
rows per unit of the largest statistics target of the table's columns: at the default (100) an
ANALYZE of the log took 140-200 ms here, at 10 about 15 ms. While the table is small that was
the largest part of what a logged row cost PostgreSQL (some 30 us per row at 46,000 rows); the
reports only read time ranges (the BRIN index) and group, which a 3,000-row sample plans as well.
A column added to the table later needs the same (tests/test_insights.py checks every column).
"""

from django.db import migrations

COLUMNS = (
    "id",
    "token",
    "source",
    "burst",
    "seq",
    "query",
    "page",
    "total",
    "strategy",
    "showing_for",
    "round_trips",
    "took_ms",
    "cached",
    "searches",
    "elapsed_ms",
    "created",
)
TARGET = 10


def _set(target: int) -> str:
    return "ALTER TABLE insights_searchlog " + ", ".join(f"ALTER COLUMN {c} SET STATISTICS {target}" for c in COLUMNS)


class Migration(migrations.Migration):
    dependencies = [
        ("insights", "0002_searchlog_searches"),
    ]

    operations = [
        migrations.RunSQL(_set(TARGET), reverse_sql=_set(-1)),
    ]
