"""Retention: keep each day's figures, then delete log rows and clicks older than RETENTION_DAYS.

Pruning works in whole days (UTC): every finished day that still has log rows is summed up into
DailyStat first (recomputed while its rows exist, so a late click still counts), then the rows of
days before the cutoff go, in one transaction. A day is therefore either complete in the log or
only in DailyStat, which is what insights/reports.py relies on.
"""

import logging
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from django.db import transaction
from django.db.models import Sum

from insights import conf
from insights.models import DailyStat, SearchClick, SearchLog
from insights.reports import DAILY_FIELDS, Period, daily_from_log

log = logging.getLogger(__name__)


@dataclass
class Pruned:
    days_kept: int
    searches: int
    clicks: int
    cutoff: date


def roll_up(before: date) -> int:
    """Stores the figures of every day before `before` that still has log rows; returns how many days."""
    oldest = SearchLog.objects.order_by("created").values_list("created", flat=True).first()
    if oldest is None or oldest.astimezone(UTC).date() >= before:
        return 0
    rows = daily_from_log(Period(oldest.astimezone(UTC).date(), before - timedelta(days=1)))
    for row in rows:
        DailyStat.objects.update_or_create(day=row["day"], defaults={f: row[f] for f in DAILY_FIELDS})
    return len(rows)


def prune(today: date | None = None) -> Pruned:
    """Rolls up finished days, then deletes log rows and clicks of days older than RETENTION_DAYS."""
    today = today or datetime.now(UTC).date()
    cutoff = today - timedelta(days=conf.get().retention_days)
    start = datetime.combine(cutoff, datetime.min.time(), tzinfo=UTC)
    with transaction.atomic():
        days = roll_up(today)
        old = SearchLog.objects.filter(created__lt=start)
        searches = old.aggregate(n=Sum("searches"))["n"] or 0  # a row may count several searches
        old.delete()
        clicks, _ = SearchClick.objects.filter(created__lt=start).delete()
    log.info("search log pruned before %s: %d searches, %d clicks deleted; %d days summed up", cutoff, searches, clicks, days)
    return Pruned(days_kept=days, searches=searches, clicks=clicks, cutoff=cutoff)
