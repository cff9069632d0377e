"""The click limit the README promises (CLICK_RATE_PER_MINUTE per client) holds across processes
with the shipped defaults, no Redis (issue 38.2): clicks counted by another worker process count
against the same limit, because PostgreSQL keeps the count, by PostgreSQL's minute."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from insights.clicks import within_rate

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.django_db(transaction=True)

OTHER_WORKER = """
import django
django.setup()
from insights.clicks import within_rate
print(sum(within_rate("203.0.113.9") for _ in range(4)))
"""


def seconds_into_the_minute() -> float:
    with connection.cursor() as cursor:
        cursor.execute("SELECT extract(second FROM statement_timestamp())")
        return float(cursor.fetchone()[0])


def test_clicks_recorded_by_another_worker_count_against_the_same_limit(settings):
    settings.INSIGHTS = {**settings.INSIGHTS, "CLICK_RATE_PER_MINUTE": 6}
    if seconds_into_the_minute() > 45:  # the whole test within one of PostgreSQL's minutes
        time.sleep(61 - seconds_into_the_minute())
    s = connection.settings_dict
    env = {**os.environ, "DATABASE_URL": f"postgres://{s['USER']}@{s['HOST']}:{s['PORT']}/{s['NAME']}", "DJANGO_SETTINGS_MODULE": "config.settings"}
    other = subprocess.run([sys.executable, "-c", OTHER_WORKER], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert other.returncode == 0, other.stderr[-2000:]
    assert other.stdout.strip().splitlines()[-1] == "4"  # the other worker let its four through
    assert [within_rate("203.0.113.9") for _ in range(3)] == [True, True, False]  # 5th, 6th, then over the limit
    assert within_rate("198.51.100.7") is True  # another client has its own count
