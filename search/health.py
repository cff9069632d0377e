"""The state of everything search depends on, for /healthz and container health checks.

Elasticsearch reports its status and node counts: a cluster that lost a node answers yellow with
one node fewer, still healthy (every shard has a copy), so a load balancer keeps the app in.
"""

from django.db import connection
from elasticsearch import ApiError, TransportError

from search.aliases import aliased_indices
from search.client import get_client
from search.documents import KINDS
from search.sync import outbox
from search.sync import readiness as cluster


def postgresql() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return {"ok": True}
    except Exception as exc:  # noqa: BLE001 - any failure is reported, none raised
        return {"ok": False, "error": type(exc).__name__}


def live() -> tuple[bool, dict]:
    """(alive, report) for container liveness: PostgreSQL only, never Elasticsearch."""
    report = {"postgresql": postgresql()}
    return report["postgresql"]["ok"], report


def check() -> tuple[bool, dict]:
    """(healthy, report). Healthy means PostgreSQL and Elasticsearch answer, the aliases exist
    and the outbox keeps up (no due entry waiting for minutes, no dead entry)."""
    report: dict = {"postgresql": postgresql()}
    try:
        report["outbox"] = outbox.state() if report["postgresql"]["ok"] else {"ok": False, "pending": None}
    except Exception as exc:  # noqa: BLE001 - any failure is reported, none raised
        report["outbox"] = {"ok": False, "pending": None, "error": type(exc).__name__}
    try:
        client = get_client()
        state = cluster.summary(client)
        report["elasticsearch"] = {"ok": state["status"] in ("green", "yellow"), **state}
        aliases = {kind: aliased_indices(client, kind) for kind in KINDS}
        report["aliases"] = {"ok": all(aliases.values()), **{k: (v[0] if v else None) for k, v in aliases.items()}}
    except (TransportError, ApiError) as exc:
        report["elasticsearch"] = {"ok": False, "error": type(exc).__name__}
        report["aliases"] = {"ok": False}
    healthy = all(part["ok"] for part in report.values())
    return healthy, report
