"""The search log's settings: one typed, frozen object built from settings.INSIGHTS (overrides
keyed by upper-case field names, INSIGHTS_ENABLED and INSIGHTS_RETENTION_DAYS from the
environment), checked as search's own are (search.api.typed). They belong to this app, not to
the search app a site installs. Read by attribute: `conf.get().retention_days`.

    python -m insights.conf   # the table of docs/configuration.md#search-log
"""

import threading
from dataclasses import dataclass

from django.conf import settings
from django.core.signals import setting_changed

from search.api import environment_overrides, register_process_state, setting, table_rows, typed


@dataclass(frozen=True)
class InsightsSettings:
    """The search log, clicks and reports (insights/; privacy: docs/operations.md)."""

    enabled: bool = setting("Off: nothing is logged, no query id is handed out, the click endpoint records nothing.", True, env="INSIGHTS_ENABLED")
    batch_size: int = setting("Searches waiting in a process's buffer are written in one COPY when this many wait ...", 500)
    flush_seconds: float = setting("... or this often (and at exit); identical searches waiting share a row that counts them.", 2.0)
    buffer_max: int = setting("Past this many searches waiting (PostgreSQL unreachable) new ones are dropped and counted.", 20_000)
    retention_days: int = setting(
        "Log rows and clicks older than this are pruned by `search_report --prune` (daily figures are kept).", 90, env="INSIGHTS_RETENTION_DAYS"
    )
    burst_idle_ms: int = setting("Instant-results keystrokes less than this apart belong to one typing burst (one search).", 2000)
    click_max_bytes: int = setting("The click endpoint's largest body or query string.", 1024)
    click_max_age_seconds: int = setting("How long a query id stays valid for a click.", 24 * 3600)
    click_rate_per_minute: int = setting("Clicks a minute from one client address, counted in PostgreSQL for every worker and host (a salted hash).", 60)
    report_rows: int = setting("Rows per table of a report.", 20)
    report_days: int = setting("A report's default period in days.", 7)


_lock = threading.Lock()
_current: InsightsSettings | None = None


def build(given) -> InsightsSettings:
    return typed(InsightsSettings, given, source="INSIGHTS")


def get() -> InsightsSettings:
    current = _current
    return current if current is not None else reload()


def reload() -> InsightsSettings:
    global _current
    with _lock:
        _current = build(getattr(settings, "INSIGHTS", {}) or {})
        return _current


def from_environment(environ) -> dict:
    """settings.INSIGHTS from the environment's variables."""
    return environment_overrides(InsightsSettings, environ)


def documented_table() -> str:
    rows = ["| setting (override key) | default | environment | what it does |", "| --- | --- | --- | --- |"]
    return "\n".join(rows + table_rows(InsightsSettings, group="insights", source="INSIGHTS")) + "\n"


def _forget() -> None:
    global _current
    with _lock:
        _current = None


def _on_setting_changed(*, setting, **_):
    if setting == "INSIGHTS":
        reload()


setting_changed.connect(_on_setting_changed)
register_process_state("insights settings", _forget)

if __name__ == "__main__":
    print(documented_table(), end="")
