"""`manage.py search_report --days 7`: the admin report's summary in the terminal;
`--prune`: keep the daily figures and delete log rows older than insights.retention_days (search/conf.py)."""

from django.core.management.base import BaseCommand

from insights import conf, reports, retention
from insights.buffer import buffer


def _percent(rate) -> str:
    return "-" if rate is None else f"{100 * rate:.1f}%"


class Command(BaseCommand):
    help = "Print the search report for the last N days, or prune the search log (--prune)."

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=conf.get().report_days, help="Days to report, today included.")
        parser.add_argument("--rows", type=int, default=conf.get().report_rows, help="Rows per table.")
        parser.add_argument("--prune", action="store_true", help="Sum up finished days, then delete log rows and clicks older than the retention period.")

    def handle(self, *args, days, rows, prune, **options):
        buffer.flush()  # this process's own entries, if any
        if prune:
            done = retention.prune()
            self.stdout.write(f"Pruned before {done.cutoff}: {done.searches} searches and {done.clicks} clicks deleted; {done.days_kept} days of figures kept.")
            return
        period = reports.Period.last_days(days)
        daily = reports.daily(period)
        s = reports.summary(daily)
        out = self.stdout.write
        out(f"Search report {period.first} to {period.last} (UTC)")
        out(
            f"  searches {s['searches']}, no result {s['zero_results']} ({_percent(s['zero_rate'])}), "
            f"corrected {s['corrected']} ({_percent(s['correction_rate'])}), from the cache {_percent(s['cached_rate'])}"
        )
        mean = "-" if s["mean_position"] is None else f"{s['mean_position']:.1f}"
        out(f"  click-through rate {_percent(s['click_through_rate'])} ({s['clicked_searches']} searches, {s['clicks']} clicks), mean clicked position {mean}")
        for title, fn, columns in reports.TABLES.values():
            out(f"\n{title}")
            found = fn(period, limit=rows)
            if not found:
                out("  (none)")
            for row in found:
                if fn is reports.corrections:
                    out(f"  {row['typed']} -> {row['shown']}, {row['times']} times")
                else:
                    out("  " + ", ".join(f"{c} {row[c]:%Y-%m-%d %H:%M}" if c == "last_seen" else f"{c} {row[c]}" for c in columns))
        out("\nSearch time per day (ms)")
        for d in daily:
            if d["searches"]:
                out(f"  {d['day']}  {d['searches']:>6} searches  p50 {d['p50_ms']:.1f}  p95 {d['p95_ms']:.1f}")
