"""The figures of the reports, for a period of whole days (UTC): the admin page, the CSV files
and `manage.py search_report` all read them from here.

Tables (top queries, no results, corrections) come from the log rows, so they cover the
retention period. Daily figures come from the log rows for days that still have them and from
DailyStat for pruned days, so the charts and the period's rates survive pruning.
"""

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from django.db import connection

from insights import conf
from insights.models import DailyStat

# Each log row joined to its clicks: the searches of the row that were clicked (a click quotes
# its search's own part of the query id), the clicks and the sum of their positions; from `start` on.
# A row counts `searches` identical searches: every figure sums it, never counts rows.
_WITH_CLICKS = """
    FROM insights_searchlog l
    LEFT JOIN (SELECT token, count(DISTINCT search) AS searches, count(*) AS n, sum(position) AS pos_sum
               FROM insights_searchclick WHERE created >= %(start)s GROUP BY token) c ON c.token = l.token
    WHERE l.created >= %(start)s AND l.created < %(end)s
"""


@dataclass(frozen=True)
class Period:
    first: date
    last: date  # inclusive

    @classmethod
    def last_days(cls, days: int, today: date | None = None) -> "Period":
        today = today or datetime.now(UTC).date()
        return cls(today - timedelta(days=max(days, 1) - 1), today)

    @property
    def start(self) -> datetime:
        return datetime.combine(self.first, time.min, tzinfo=UTC)

    @property
    def end(self) -> datetime:
        return datetime.combine(self.last + timedelta(days=1), time.min, tzinfo=UTC)

    def days(self) -> list[date]:
        return [self.first + timedelta(days=i) for i in range((self.last - self.first).days + 1)]


def _rows(sql: str, params: dict) -> list[dict]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        names = [c.name for c in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def _params(period: Period, limit: int | None = None) -> dict:
    return {"start": period.start, "end": period.end, "limit": limit or conf.get().report_rows}


def top_queries(period: Period, limit: int | None = None) -> list[dict]:
    """The most searched queries (case folded), with how often they found nothing and were clicked."""
    return _rows(
        f"""
        SELECT lower(l.query) AS query, sum(l.searches) AS searches,
               coalesce(sum(l.searches) FILTER (WHERE l.total = 0), 0) AS zero_results,
               coalesce(sum(c.searches), 0)::bigint AS clicked,
               round(100.0 * coalesce(sum(c.searches), 0) / sum(l.searches), 1)::float AS ctr_percent
        {_WITH_CLICKS} GROUP BY 1 ORDER BY searches DESC, query LIMIT %(limit)s""",
        _params(period, limit),
    )


def no_results(period: Period, limit: int | None = None) -> list[dict]:
    """Queries that found nothing: the posts readers wanted and the blog lacks."""
    return _rows(
        """
        SELECT lower(query) AS query, sum(searches) AS searches, max(created) AS last_seen
        FROM insights_searchlog WHERE created >= %(start)s AND created < %(end)s AND total = 0
        GROUP BY 1 ORDER BY searches DESC, last_seen DESC LIMIT %(limit)s""",
        _params(period, limit),
    )


def corrections(period: Period, limit: int | None = None) -> list[dict]:
    """The corrections shown most often ("Showing results for ..."): typed -> shown, n times."""
    return _rows(
        """
        SELECT lower(query) AS typed, lower(showing_for) AS shown, sum(searches) AS times
        FROM insights_searchlog WHERE created >= %(start)s AND created < %(end)s AND showing_for <> ''
        GROUP BY 1, 2 ORDER BY times DESC, typed LIMIT %(limit)s""",
        _params(period, limit),
    )


def daily_from_log(period: Period) -> list[dict]:
    """Per-day figures computed from the log rows (the same shape as DailyStat); the percentiles
    are over every search's own time."""
    return _rows(
        f"""
        WITH counts AS (
            SELECT (l.created AT TIME ZONE 'UTC')::date AS day, sum(l.searches) AS searches,
                   coalesce(sum(l.searches) FILTER (WHERE l.total = 0), 0) AS zero_results,
                   coalesce(sum(l.searches) FILTER (WHERE l.showing_for <> ''), 0) AS corrected,
                   coalesce(sum(l.searches) FILTER (WHERE l.cached), 0) AS cached,
                   coalesce(sum(c.searches), 0)::bigint AS clicked_searches, coalesce(sum(c.n), 0)::bigint AS clicks,
                   coalesce(sum(c.pos_sum), 0)::bigint AS position_sum
            {_WITH_CLICKS} GROUP BY 1
        ), times AS (
            SELECT (created AT TIME ZONE 'UTC')::date AS day,
                   percentile_cont(0.5) WITHIN GROUP (ORDER BY t) AS p50_ms,
                   percentile_cont(0.95) WITHIN GROUP (ORDER BY t) AS p95_ms
            FROM insights_searchlog, unnest(elapsed_ms) AS t
            WHERE created >= %(start)s AND created < %(end)s GROUP BY 1
        )
        SELECT counts.*, times.p50_ms, times.p95_ms FROM counts LEFT JOIN times USING (day) ORDER BY day""",
        _params(period),
    )


DAILY_FIELDS = ("searches", "zero_results", "corrected", "cached", "clicked_searches", "clicks", "position_sum", "p50_ms", "p95_ms")


def daily(period: Period) -> list[dict]:
    """Every day of the period: from the log where it still has rows, else the kept DailyStat, else zeros."""
    by_day = {s.day: {f: getattr(s, f) for f in DAILY_FIELDS} for s in DailyStat.objects.filter(day__gte=period.first, day__lte=period.last)}
    by_day.update({row.pop("day"): row for row in daily_from_log(period)})
    empty = dict.fromkeys(DAILY_FIELDS, 0) | {"p50_ms": None, "p95_ms": None}
    return [{"day": d, **by_day.get(d, empty)} for d in period.days()]


def summary(days: list[dict]) -> dict:
    """The period's totals and rates from its daily figures."""
    total = {f: sum(d[f] for d in days) for f in DAILY_FIELDS if not f.endswith("_ms")}
    searches, clicks = total["searches"], total["clicks"]
    return {
        **total,
        "zero_rate": total["zero_results"] / searches if searches else None,
        "correction_rate": total["corrected"] / searches if searches else None,
        "cached_rate": total["cached"] / searches if searches else None,
        "click_through_rate": total["clicked_searches"] / searches if searches else None,
        "mean_position": total["position_sum"] / clicks if clicks else None,
    }


# The tables a report has, by the name their CSV file takes: (title, function, columns).
TABLES = {
    "top-queries": ("Top queries", top_queries, ("query", "searches", "zero_results", "clicked", "ctr_percent")),
    "no-results": ("Queries with no result", no_results, ("query", "searches", "last_seen")),
    "corrections": ("Corrections applied most often", corrections, ("typed", "shown", "times")),
}
# Column headings on the report page (the CSV files keep the names above).
LABELS = {
    "query": "query",
    "searches": "searches",
    "zero_results": "no result",
    "clicked": "clicked",
    "ctr_percent": "click-through %",
    "last_seen": "last seen (UTC)",
    "typed": "typed",
    "shown": "shown",
    "times": "times",
}
DAILY_COLUMNS = ("day", "searches", "zero_results", "corrected", "cached", "clicked_searches", "clicks", "p50_ms", "p95_ms")
