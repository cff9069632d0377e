"""The search log in the Django admin (read-only), and its report page with charts and CSV files.

The report lives at /admin/insights/searchlog/report/ (linked from the log's list page); each of
its tables is a CSV file at .../report/<table>.csv with the same period. Staff only: the admin
site's own login check wraps every view, plus the permission to view the log.
"""

import csv
from datetime import date, datetime

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.template.response import TemplateResponse
from django.urls import path

from insights import charts, conf, reports
from insights.models import DailyStat, SearchClick, SearchLog

PERIODS = (7, 30, 90, 365)


class ReadOnly(admin.ModelAdmin):
    """The log is written by the site only."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


def chosen_period(request) -> reports.Period:
    """`?days=N`, or `?first=YYYY-MM-DD&last=YYYY-MM-DD`; default insights.report_days."""
    try:
        first, last = date.fromisoformat(request.GET["first"]), date.fromisoformat(request.GET["last"])
        if first <= last and (last - first).days < 3660:
            return reports.Period(first, last)
    except (KeyError, ValueError):
        pass
    raw = request.GET.get("days", "")
    days = int(raw) if raw.isascii() and raw.isdigit() and 1 <= int(raw) <= 3660 else conf.get().report_days
    return reports.Period.last_days(days)


def cell(value):
    """A value as the report page shows it (times to the minute, UTC)."""
    return f"{value:%Y-%m-%d %H:%M}" if isinstance(value, datetime) else value


def safe_cell(value) -> str:
    """A CSV cell a spreadsheet will not run as a formula (queries are what readers typed)."""
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


@admin.register(SearchLog)
class SearchLogAdmin(ReadOnly):
    list_display = ("created", "query", "source", "searches", "page", "total", "showing_for", "cached")
    list_filter = ("source", "cached", "strategy")
    search_fields = ("query",)
    date_hierarchy = "created"
    change_list_template = "admin/insights/searchlog/change_list.html"

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("report/", wrap(self.report_view), name="insights_report"),
            path("report/<str:table>.csv", wrap(self.csv_view), name="insights_report_csv"),
        ] + super().get_urls()

    def _check(self, request):
        if not self.has_view_permission(request):
            raise PermissionDenied

    def report_view(self, request):
        self._check(request)
        period = chosen_period(request)
        days = reports.daily(period)
        dates = [d["day"] for d in days]
        tables = [
            (name, title, [reports.LABELS[c] for c in columns], [[cell(row[c]) for c in columns] for row in fn(period)])
            for name, (title, fn, columns) in reports.TABLES.items()
        ]
        context = {
            **self.admin_site.each_context(request),
            "title": "Search report",
            "opts": self.model._meta,
            "period": period,
            "period_query": f"first={period.first}&last={period.last}",
            "periods": PERIODS,
            "summary": reports.summary(days),
            "tables": tables,
            "daily": days,
            "searches_chart": charts.bars(
                "chart-searches",
                "Searches per day",
                dates,
                [("searches", "bar-searches", [d["searches"] for d in days]), ("with no result", "bar-zero", [d["zero_results"] for d in days])],
            ),
            "time_chart": charts.lines(
                "chart-time",
                "Search time per day (ms)",
                dates,
                [("p50", "line-p50", [d["p50_ms"] for d in days]), ("p95", "line-p95", [d["p95_ms"] for d in days])],
                unit=" ms",
            ),
            "ctr_chart": charts.lines(
                "chart-ctr",
                "Click-through rate per day (%)",
                dates,
                [("click-through", "line-ctr", [100 * d["clicked_searches"] / d["searches"] if d["searches"] else None for d in days])],
                unit="%",
            ),
        }
        return TemplateResponse(request, "admin/insights/report.html", context)

    def csv_view(self, request, table):
        self._check(request)
        period = chosen_period(request)
        if table == "daily":
            columns, rows = reports.DAILY_COLUMNS, reports.daily(period)
        elif table in reports.TABLES:
            _, fn, columns = reports.TABLES[table]
            rows = fn(period, limit=10_000)
        else:
            raise Http404("no such table")
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="search-{table}-{period.first}-{period.last}.csv"'
        writer = csv.writer(response)
        writer.writerow(columns)
        for row in rows:
            writer.writerow([safe_cell(row[c]) for c in columns])
        return response


@admin.register(SearchClick)
class SearchClickAdmin(ReadOnly):
    list_display = ("created", "token", "search", "position", "url")
    date_hierarchy = "created"


@admin.register(DailyStat)
class DailyStatAdmin(ReadOnly):
    list_display = ("day", "searches", "zero_results", "corrected", "clicked_searches", "clicks", "p50_ms", "p95_ms")
